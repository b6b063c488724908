"""The package's layers: the model is pure, and no layer imports one above it.

From the bottom: the model (records and rules), the build cache (``store``), BibTeX
(``bib``), the pure writers of the outputs, the theme's files, the Sphinx extension
(``sphinx_ext``, with the Sphinx side of the outputs), the build (builders, processes,
preview), the accelerations (``accel``: every reach past a dependency's public API) and
the editors' tools; ``juju_radar/extension.py`` wires them into Sphinx."""

from __future__ import annotations

import ast
import graphlib
import subprocess
import sys
from pathlib import Path

import pytest

PACKAGE = Path(__file__).resolve().parent.parent / "juju_radar"
# MyST-Parser's option tokenizer (myst_parser.parsers.options) is pure and allowed.
SPHINX_AND_DOCUTILS = ("sphinx", "docutils", "sphinxcontrib")
# Which of the package's folders each layer may import.
ALLOWED = {
    "model": {"model"},
    "store": {"store"},
    "bib": {"model", "bib"},
    "outputs": {"model", "store", "bib", "outputs"},
    "theme": {"theme"},
    "sphinx_ext": {"model", "store", "bib", "outputs", "theme", "sphinx_ext"},
    "build": {"model", "store", "bib", "outputs", "sphinx_ext", "build"},
    "accel": {"model", "store", "bib", "outputs", "sphinx_ext", "build", "accel"},
    "editors": {"model", "store", "bib", "build", "editors"},
}


def imports_of(path: Path) -> list[tuple[str, bool]]:
    """(module imported, whether at module top) for every import of a file."""
    tree = ast.parse(path.read_text(encoding="utf-8"))
    top = {id(node) for node in tree.body}
    found = []
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            found += [(alias.name, id(node) in top) for alias in node.names]
        elif isinstance(node, ast.ImportFrom) and node.module and not node.level:
            found.append((node.module, id(node) in top))
    return found


def modules_in(layer: str) -> list[Path]:
    return sorted((PACKAGE / layer).rglob("*.py"))


def test_the_contract_covers_every_folder_of_the_package():
    folders = {path.relative_to(PACKAGE).parts for path in PACKAGE.rglob("*.py")}
    assert {parts[0] for parts in folders if len(parts) > 1} == set(ALLOWED)


@pytest.mark.parametrize("layer", sorted(ALLOWED))
def test_a_layer_imports_only_the_layers_below_it(layer):
    wrong = [
        f"{path.relative_to(PACKAGE)}: {module}"
        for path in modules_in(layer)
        for module, _ in imports_of(path)
        if module.startswith("juju_radar.") and module.split(".")[1] not in ALLOWED[layer]
    ]
    assert wrong == []


@pytest.mark.parametrize("layer", ["model", "bib"])
def test_the_model_and_bib_layers_import_no_sphinx_or_docutils(layer):
    wrong = [
        f"{path.relative_to(PACKAGE)}: {module}"
        for path in modules_in(layer)
        for module, _ in imports_of(path)
        if module.split(".")[0] in SPHINX_AND_DOCUTILS
    ]
    assert wrong == []


def test_the_editors_tools_import_sphinx_only_when_a_command_needs_it():
    wrong = [
        f"{path.relative_to(PACKAGE)}: {module}"
        for path in modules_in("editors")
        for module, at_top in imports_of(path)
        if at_top and module.split(".")[0] in SPHINX_AND_DOCUTILS
    ]
    assert wrong == []


def test_the_checker_sees_an_import():
    assert ("sphinx.util", True) in imports_of(PACKAGE / "sphinx_ext" / "collector.py")


def test_importing_the_model_bib_and_editors_loads_no_sphinx_or_docutils():
    probe = (
        "import sys\n"
        "import juju_radar.editors.cli, juju_radar.editors.export_reader, juju_radar.editors.synth\n"
        "import juju_radar.editors.page_writer, juju_radar.editors.import_run\n"
        "import juju_radar.model.archive, juju_radar.bib.check, juju_radar.bib.style\n"
        "print(sorted(m for m in sys.modules if m.split('.')[0] in ('sphinx', 'docutils')))\n"
    )
    result = subprocess.run([sys.executable, "-c", probe], capture_output=True, text=True)
    assert result.returncode == 0, result.stderr
    assert result.stdout.strip() == "[]"


def modules_imported_by(path: Path, package: str) -> set[str]:
    """The modules of ``package`` a file imports at run time, at its top or in a function
    (``from package import module`` names the module; a TYPE_CHECKING import is none)."""
    tree = ast.parse(path.read_text(encoding="utf-8"))
    checking_only = {
        id(child)
        for node in ast.walk(tree)
        if isinstance(node, ast.If) and "TYPE_CHECKING" in ast.unparse(node.test)
        for child in ast.walk(node)
    }
    found: set[str] = set()
    for node in ast.walk(tree):
        if id(node) in checking_only or not isinstance(node, ast.ImportFrom | ast.Import):
            continue
        if isinstance(node, ast.Import):
            found.update(alias.name for alias in node.names)
        elif node.module and not node.level:
            found.add(node.module)
            found.update(f"{node.module}.{alias.name}" for alias in node.names)
    return {name for name in found if name.startswith(f"{package}.")}


def import_graph(folder: str) -> dict[str, set[str]]:
    package = f"juju_radar.{folder.replace('/', '.')}"
    modules = {
        ".".join((package, *path.relative_to(PACKAGE / folder).with_suffix("").parts)): path
        for path in (PACKAGE / folder).rglob("*.py")
    }
    return {
        name: (modules_imported_by(path, package) & set(modules)) - {name}
        for name, path in modules.items()
    }


def test_the_extension_has_no_import_circle():
    """sphinx_ext's modules import one another one way only (issue 53: collector ->
    paging -> drafts -> preview -> archive_checks / content -> collector was a circle)."""
    graph = import_graph("sphinx_ext")
    assert "juju_radar.sphinx_ext.drafts" in graph["juju_radar.sphinx_ext.paging"]
    graphlib.TopologicalSorter(graph).prepare()  # raises CycleError on a circle
