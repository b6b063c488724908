"""The preview's Sphinx application, kept alive between saves (``radar serve``).

sphinx-autobuild ran ``sphinx-build`` anew on every save: start Python, import Sphinx and
the extensions, unpickle the environment, read the saved page, rewrite every page that
lists it, write the search index, feeds and export, pickle the environment; 45 s a save
at 1,000 issues. A session instead builds with one application for as long as it runs,
in preview mode (``sphinx_ext.preview``: no archive-wide outputs, and after the first
build no rewriting of pages that merely list or link the saved one), and saves the
environment and the build cache only when it stops or has to start a new application.

A new application (which loads the saved environment and builds incrementally, as
``sphinx-build`` would) is started when ``conf.py`` or a translation changes (an
application reads them once), and after a build that failed with an exception: Sphinx
then deletes the saved environment, so that build is a full one.
"""

from __future__ import annotations

import gc
import os
import pickle
import sys
import threading
from collections.abc import Sequence
from contextlib import ExitStack
from pathlib import Path
from typing import IO, TYPE_CHECKING

from juju_radar.build.crash import report
from juju_radar.model.site_layout import TRANSLATIONS

if TYPE_CHECKING:
    from sphinx.application import Sphinx

CONF_FILE = "conf.py"


def check_again(app: Sphinx) -> None:
    """Before each build of a session after its first: what ``builder-inited`` does once
    per application and a save can change. Symbolic links out of the site and .bib files
    BibTeX cannot read stop the build (``SystemExit``); then sphinxcontrib-bibtex parses
    the .bib files again if they changed. Here, above the extension, so that its preview
    mode (``sphinx_ext.preview``) imports none of the checks."""
    from sphinxcontrib.bibtex import builder_inited_cite

    from juju_radar.sphinx_ext.archive_checks import refuse_unreadable_bib
    from juju_radar.sphinx_ext.content import refuse_outside_symlinks
    from juju_radar.sphinx_ext.preview import BUILD_AGAIN

    app.events.emit(BUILD_AGAIN)
    refuse_outside_symlinks(app)
    refuse_unreadable_bib(app)
    builder_inited_cite(app)


def needs_new_application(srcdir: Path, changed: Sequence[Path]) -> bool:
    """Whether a change is one a running application does not read again (pages and
    .bib files it does)."""
    return any(
        path.name == CONF_FILE or path.is_relative_to(srcdir / TRANSLATIONS) for path in changed
    )


def forget_loaded_catalogues() -> None:
    """The next application of this process loads the interface catalogues afresh, as a
    process of its own would. Sphinx keeps the first it loaded for the whole process and
    adds a later application's as fallbacks (sphinx.testing's applications forget them
    the same way, ``cleanup``), so an edited translation would be shadowed by the one
    loaded before. (gettext also keeps each catalogue it read by path: an edited one is
    compiled to a path of its own, ``sphinx_ext.translations``.) ``locale.translators``
    is not Sphinx's documented API: a reach registered in ``accel/register.py``."""
    from sphinx import locale

    locale.translators.clear()


class PreviewSession:
    """Builds ``srcdir`` into ``outdir`` in preview mode, one application at a time."""

    def __init__(
        self,
        srcdir: Path,
        outdir: Path,
        *,
        jobs: int = 1,
        status: IO[str] | None = None,
        warning: IO[str] | None = None,
    ) -> None:
        self.srcdir = srcdir
        self.outdir = outdir
        self.doctreedir = outdir / ".doctrees"  # where sphinx-build puts them by default
        self.jobs = jobs  # for a new application's first build; saves build serially
        self.status = sys.stdout if status is None else status
        self.warning = sys.stderr if warning is None else warning
        self.app: Sphinx | None = None
        self.contexts = ExitStack()
        self.lock = threading.Lock()  # one build (or save) at a time

    def build(self, changed: Sequence[Path] = ()) -> bool:
        """Build what ``changed`` (or anything since the last session) changed; False when
        the build failed."""
        from juju_radar.sphinx_ext.preview import start_deferring

        with self.lock:
            if self.app is not None and needs_new_application(self.srcdir, changed):
                self._save()
                self._close()
            first = self.app is None
            try:
                if self.app is None:
                    self.app = self._new_application()
                else:
                    check_again(self.app)
                app = self.app
                app.build()
            except SystemExit:  # the build said why it stopped
                self._close()
                return False
            except Exception as exception:
                report(exception, self.srcdir, self.warning)
                self._close()  # Sphinx deleted the saved environment
                return False
            if first:
                app.parallel = 1  # later builds run beside the server's threads: no forks
                start_deferring(app)
                # A long session: what the first build left is kept, and a full
                # collection of it (2 s at 3,650 issues) would land in some save.
                gc.collect()
                gc.freeze()
            return app.statuscode == 0

    def save(self) -> None:
        """Write the environment and the build cache, as a build would have, and let the
        application go."""
        with self.lock:
            self._save()
            self._close()

    def _new_application(self) -> Sphinx:
        from sphinx.application import Sphinx
        from sphinx.util.docutils import docutils_namespace, patch_docutils

        forget_loaded_catalogues()  # a translation may have changed
        self.contexts.enter_context(patch_docutils(self.srcdir))
        self.contexts.enter_context(docutils_namespace())
        return Sphinx(
            srcdir=self.srcdir,
            confdir=self.srcdir,
            outdir=self.outdir,
            doctreedir=self.doctreedir,
            buildername="html",
            confoverrides={"radar_preview": True},
            status=self.status,
            warning=self.warning,
            parallel=self.jobs,
        )

    def _save(self) -> None:
        from sphinx.application import ENV_PICKLE_FILENAME

        from juju_radar.sphinx_ext.bibliography import forget_removed_entries
        from juju_radar.store import cache

        if self.app is None:
            return
        forget_removed_entries(self.app, None)
        cache.finish_build(self.app, None)
        target = self.doctreedir / ENV_PICKLE_FILENAME
        scratch = target.with_suffix(f".{os.getpid()}.tmp")
        with open(scratch, "wb") as file:
            pickle.dump(self.app.env, file, pickle.HIGHEST_PROTOCOL)
        scratch.replace(target)

    def _close(self) -> None:
        if self.app is not None:
            gc.unfreeze()  # what the first build froze
        self.app = None
        self.contexts.close()
