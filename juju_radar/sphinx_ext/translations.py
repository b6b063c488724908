"""The site's interface catalogues as the build uses them (``model.translations``): each
``locales/<language>/LC_MESSAGES/sphinx.po`` is compiled by the build, into the doctree
folder, never the source tree, and Sphinx reads only what it compiled.

Sphinx loads the catalogues of ``locale_dirs`` when the application starts, before any
extension runs, and would compile a ``.po`` there into a ``.mo`` beside it. So the site's
``conf.py`` names no ``locale_dirs`` (``[]``); at ``config-inited`` this module checks and
compiles the site's catalogues into the doctree folder and puts the compiled translations
first among the interface's, where Sphinx puts those of ``locale_dirs`` (which stays
empty). A problem stops the build before anything is read, at its file and line,
as ``radar check`` reports it.
"""

from __future__ import annotations

import gettext
import os
from pathlib import Path
from typing import TYPE_CHECKING

from juju_radar.model.translations import (
    DOMAIN,
    CompiledCatalogue,
    locale_dirs_problems,
    read_catalogues,
    read_compiled,
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
    folder = Path(app.doctreedir) / COMPILED
    write_compiled(folder, compiled)
    # locale_dirs stays empty: the compiled catalogues are the interface's (loaded below),
    # never a page's translations, and a folder named there would enter the configuration
    # the environment keeps (a copy of the doctrees elsewhere, as the staged publish and
    # the benchmark make, would read every page again).
    # An html config value: when a translation changes, every page is written again.
    config.radar_interface_digest = digest(
        *(part for catalogue in compiled for part in (catalogue.target, catalogue.data))
    )
    if config.language:
        load_compiled(app, folder, compiled, config.language)


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


def load_compiled(
    app: Sphinx, folder: Path, compiled: list[CompiledCatalogue], language: str
) -> None:
    """Put the compiled catalogues gettext would find for ``language`` (``zh_CN``, then
    ``zh``) before the interface translations Sphinx loaded, as ``Sphinx._init_i18n``
    puts those of ``locale_dirs`` (Sphinx 9.0). Each is read from the bytes the check
    judged, not from the file again."""
    from sphinx import locale

    by_path = {(folder / catalogue.target).resolve(): catalogue.data for catalogue in compiled}
    found = [Path(path).resolve() for path in gettext.find(DOMAIN, folder, [language], all=True)]
    chain = [read_compiled(by_path[path]) for path in found if path in by_path]
    if not chain:
        return
    for translations, fallback in zip(chain, chain[1:], strict=False):
        translations.add_fallback(fallback)
    chain[-1].add_fallback(locale.get_translator())
    locale.translators["general", DOMAIN] = chain[0]
    app.translator = chain[0]
