"""The site's interface catalogues as the build uses them (``model.translations``): each
``locales/<language>/LC_MESSAGES/sphinx.po`` is compiled by the build, into the doctree
folder, never the source tree, and Sphinx reads only what it compiled.

Sphinx loads the catalogues of ``locale_dirs`` when the application starts, before any
extension runs, and would compile a ``.po`` there into a ``.mo`` beside it. So the site's
``conf.py`` names no ``locale_dirs`` (``[]``); at ``config-inited`` this module checks and
compiles the site's catalogues into the doctree folder and adds them to the interface's
translations through Sphinx's public ``sphinx.locale.init`` (as
``Sphinx.add_message_catalog`` does): after Sphinx's and the theme's own, so they translate
what those leave in English and override none. A problem stops the build before anything
is read, at its file and line, as ``radar check`` reports it.

The compiled catalogues live in a folder named by their digest: gettext keeps every
catalogue it read by path for the whole process, so an edited translation gets a path
of its own, and the preview's next application reads it instead of the one kept.
"""

from __future__ import annotations

import os
from dataclasses import replace
from pathlib import Path
from typing import TYPE_CHECKING

from juju_radar.model.translations import (
    CompiledCatalogue,
    locale_dirs_problems,
    read_catalogues,
)
from juju_radar.sphinx_ext.collector import warn
from juju_radar.sphinx_ext.content import EXIT_REFUSED
from juju_radar.store.cache import digest

if TYPE_CHECKING:
    from sphinx.application import Sphinx
    from sphinx.config import Config

COMPILED = "catalogues"  # the folder of the doctree folder holding the compiled catalogues


def compile_translations(app: Sphinx, config: Config) -> None:
    """Check and compile the site's catalogues, and load only the compiled ones."""
    root = Path(app.srcdir)
    problems, compiled = read_catalogues(root)
    problems = locale_dirs_problems(root, list(config.locale_dirs)) + problems
    for problem in problems:
        warn(problem, f"{root / problem.path}:{problem.line}")
    if problems:
        raise SystemExit(EXIT_REFUSED)
    # locale_dirs stays empty: the compiled catalogues are the interface's (loaded below),
    # never a page's translations, and a folder named there would enter the configuration
    # the environment keeps (a copy of the doctrees elsewhere, as the staged publish and
    # the benchmark make, would read every page again).
    # An html config value: when a translation changes, every page is written again.
    config.radar_interface_digest = digest(
        *(part for catalogue in compiled for part in (catalogue.target, catalogue.data))
    )
    version = config.radar_interface_digest[:16]
    write_compiled(
        Path(app.doctreedir) / COMPILED,
        [replace(catalogue, target=f"{version}/{catalogue.target}") for catalogue in compiled],
    )
    if config.language and compiled:
        from sphinx import locale

        # gettext reads the bytes written just above, the ones the check judged.
        locale.init([Path(app.doctreedir) / COMPILED / version], config.language)


def write_compiled(folder: Path, compiled: list[CompiledCatalogue]) -> None:
    """The compiled catalogues in ``folder``, and nothing else: a catalogue whose ``.po``
    is gone is removed, as a clean build would not have it."""
    wanted = {catalogue.target: catalogue.data for catalogue in compiled}
    if folder.is_dir():
        for path in sorted(folder.rglob("*"), reverse=True):
            relative = path.relative_to(folder).as_posix()
            if path.is_dir() and not any(path.iterdir()):
                path.rmdir()
            elif not path.is_dir() and relative not in wanted:
                path.unlink()
    for target, data in wanted.items():
        path = folder / target
        if path.is_file() and path.read_bytes() == data:
            continue
        path.parent.mkdir(parents=True, exist_ok=True)
        scratch = path.with_suffix(f".{os.getpid()}.tmp")
        scratch.write_bytes(data)
        scratch.replace(path)
