"""The build's side of the content policy (``model.content``): a page that holds anything
the archive does not allow is reported at its file and line and not rendered; and
whatever the check might miss is refused again where docutils looks it up."""

from __future__ import annotations

from pathlib import Path
from types import ModuleType
from typing import TYPE_CHECKING, Any, ClassVar

from docutils import nodes
from docutils.parsers.rst import Directive, directives
from myst_parser.parsers.sphinx_ import MystParser
from sphinx import addnodes
from sphinx.transforms import SphinxTransform
from sphinx.util import logging
from sphinx.util.docutils import CustomReSTDispatcher

from juju_radar.model.content import (
    MarkdownSyntax,
    PageKind,
    check_content,
    is_allowed_directive,
    is_allowed_role,
    page_kind,
    renderer_fields,
)
from juju_radar.model.issue_reader import parse_issue
from juju_radar.model.issue_records import is_issue_path
from juju_radar.model.messages import _
from juju_radar.model.page import Page
from juju_radar.model.problems import Problem
from juju_radar.model.site_layout import outside_symlinks, refused_code_files
from juju_radar.model.urls import is_safe_href
from juju_radar.sphinx_ext.collector import ISSUE_READ, warn
from juju_radar.sphinx_ext.config import page_limits, vocabulary

if TYPE_CHECKING:
    from docutils.utils import Reporter
    from sphinx.application import Sphinx
    from sphinx.config import Config

logger = logging.getLogger(__name__)
REFUSED_PAGE = "此页含有归档不允许的内容，未显示。"
EXIT_REFUSED = 2  # sphinx-build's status for a build that stopped on an error
# A page past a limit is not rendered: that is what takes minutes.
LIMIT_CODES = frozenset({"too-many-items"})


def syntax(config: Config) -> MarkdownSyntax:
    return MarkdownSyntax.from_config(config.myst_enable_extensions, config.myst_disable_syntax)


class ContentParser(MystParser):
    """MyST, for pages checked against the content policy first."""

    def parse(self, inputstring: str, document: nodes.document) -> None:
        """The page is read once (``Page``): the content check, the model (the issue is
        left in ``env.temp_data`` for the collector) and MyST, which is given only the
        front matter fields the model reads, never the page's own front matter."""
        env = document.settings.env
        source = Path(env.doc2path(env.docname)).relative_to(env.srcdir).as_posix()
        kind = page_kind(source)
        page = Page.read(inputstring, source, page_limits(env.config))
        problems = check_content(page, source, kind, syntax(env.config))
        for problem in problems:
            warn(problem, (env.docname, problem.line))
        issue_problems: list[Problem] = []
        if is_issue_path(env.docname):
            read = parse_issue(page, source, vocabulary(env.config), env.config.radar_date_span)
            env.current_document[ISSUE_READ] = read
            issue_problems = read[1]
        refused = problems or not page.front.readable
        refused = refused or any(problem.code in LIMIT_CODES for problem in issue_problems)
        with AllowedMarkup(kind):
            rendered = REFUSED_PAGE if refused else page.renderer_source(renderer_fields(kind))
            super().parse(rendered, document)


class AllowedMarkup(CustomReSTDispatcher):
    """While a page is parsed, a directive or role the page may not hold is refused."""

    def __init__(self, kind: PageKind) -> None:
        super().__init__()
        self.kind = kind

    def directive(
        self, directive_name: str, language_module: ModuleType, document: nodes.document
    ) -> tuple[type[Directive] | None, list[nodes.system_message]]:
        if is_allowed_directive(directive_name, self.kind):
            return super().directive(directive_name, language_module, document)
        return RefusedDirective, []

    def role(
        self, role_name: str, language_module: ModuleType, lineno: int, reporter: Reporter
    ) -> tuple[Any, list[nodes.system_message]]:
        if is_allowed_role(role_name):
            return super().role(role_name, language_module, lineno, reporter)
        return refused_role, []


class _AnyOption(dict):  # type: ignore[type-arg]
    def __contains__(self, name: object) -> bool:
        return True

    def __getitem__(self, name: str) -> Any:
        return directives.unchanged


class RefusedDirective(Directive):
    """What a forbidden directive becomes: nothing, and an error at its line."""

    has_content = True
    optional_arguments = 100
    final_argument_whitespace = True
    option_spec: ClassVar = _AnyOption()

    def run(self) -> list[nodes.Node]:
        env = self.state.document.settings.env
        logger.error(
            _("block '{{{name}}}' is not allowed here").format(name=self.name),
            location=(env.docname, self.lineno),
            type="radar",
            subtype="forbidden-directive",
        )
        return []


def refused_role(
    name: str, rawtext: str, text: str, lineno: int, inliner: Any, *args: Any, **kwargs: Any
) -> tuple[list[nodes.Node], list[nodes.system_message]]:
    env = inliner.document.settings.env
    logger.error(
        _("role '{{{name}}}' is not allowed here").format(name=name),
        location=(env.docname, lineno),
        type="radar",
        subtype="forbidden-role",
    )
    return [nodes.Text(text)], []


class RefuseForeignNodes(SphinxTransform):
    """Nodes the format never makes: images, downloads, raw output, <meta>, math. Removed
    before Sphinx collects the files to copy into ``_images/`` and ``_downloads/``."""

    default_priority = 100

    def apply(self, **kwargs: Any) -> None:
        for node in list(self.document.findall(_foreign)):
            logger.error(
                _("{element} is not allowed in a page: removed").format(element=node.tagname),
                location=node,
                type="radar",
                subtype="forbidden-directive",
            )
            node.parent.remove(node)
        for toctree in self.document.findall(addnodes.toctree):
            self._check_entries(toctree)

    def _check_entries(self, toctree: addnodes.toctree) -> None:
        for title, ref in list(toctree["entries"]):
            if ref not in self.env.found_docs and ref != "self" and not is_safe_href(ref):
                logger.error(
                    _("toctree entry {entry!r} is not a page of the site: removed").format(
                        entry=ref
                    ),
                    location=toctree,
                    type="radar",
                    subtype="forbidden-link",
                )
                toctree["entries"].remove((title, ref))


def _foreign(node: nodes.Node) -> bool:
    return isinstance(
        node,
        nodes.image
        | nodes.raw
        | nodes.math
        | nodes.math_block
        | addnodes.download_reference
        | nodes.meta,
    )


def lock_down_parsing(app: Sphinx) -> None:
    """No file read into a page and no raw output, whatever the markup (docutils then
    reports such a directive as an error at its file and line)."""
    app.env.settings["file_insertion_enabled"] = False
    app.env.settings["raw_enabled"] = False


def only_markdown_sources(app: Sphinx, config: Config) -> None:
    """Pages are MyST, read by ``ContentParser``: a ``.rst`` file is not a page."""
    config.source_suffix = {".md": "markdown"}


def refuse_outside_symlinks(app: Sphinx) -> None:
    """A symlink out of the repository would publish its target, and a file such as
    ``docutils.conf`` would configure the build: stop before any page is read, after
    naming each."""
    problems = refused_code_files(Path(app.confdir)) + outside_symlinks(Path(app.srcdir))
    for problem in problems:
        warn(problem, f"{Path(app.srcdir, problem.path)}:{problem.line}")
    if problems:
        raise SystemExit(EXIT_REFUSED)
