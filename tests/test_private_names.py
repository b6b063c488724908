"""Only the acceleration layer (``juju_radar/accel/``) reaches a dependency's private
names: elsewhere no module imports one, reads an attribute ``_name`` the package does not
define itself, or overrides a dependency's private method."""

from __future__ import annotations

import ast
import importlib
import inspect
import sys
from pathlib import Path

PACKAGE = Path(__file__).resolve().parent.parent / "juju_radar"
LAYER = PACKAGE / "accel"


def is_private(name: str) -> bool:
    return name.startswith("_") and not name.startswith("__")


def is_dependency(module: str) -> bool:
    top = module.split(".")[0]
    return top != "juju_radar" and top not in sys.stdlib_module_names


def outside_the_layer() -> list[Path]:
    return [path for path in sorted(PACKAGE.rglob("*.py")) if LAYER not in path.parents]


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
            found += [f"imports {node.module}"] if any(map(is_private, names)) else []
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
