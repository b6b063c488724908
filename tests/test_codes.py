"""The registry of codes (juju_radar/model/codes.py) names every code the package emits,
with the severity it emits it with, and nothing else.

The codes are read from the package's source with ``ast``, not imported: the ``code``
argument of every ``Problem(...)`` and of every helper that passes its own argument on
as one (``report.error(line, code, message)``, found by following the calls), the
``subtype=`` of every Sphinx warning of ``type="radar"``, and the ``[code]`` or
``[radar.code]`` ending a message the package prints. A code held in a variable is
followed to the literals assigned to it, a tuple returned by a function, a parameter's
default or a class attribute; what cannot be followed statically is left out (and the
test of the analyser below shows what it finds)."""

from __future__ import annotations

import ast
import re
import textwrap
from collections import defaultdict
from dataclasses import dataclass
from pathlib import Path

import pytest

from juju_radar.model import codes

CODE_SHAPE = re.compile(r"[a-z]+(?:-[a-z]+)*\Z")
LOGGERS = {"logger", "log", "logging", "LOGGER"}
LOGGER_SEVERITY = {"error": "error", "critical": "error", "warning": "warning", "info": "note"}
# ``... [code]`` or ``... [radar.code]`` ending a message the package prints.
BRACKETED = re.compile(r"\[(?:radar\.)?([a-z]+(?:-[a-z]+)*)\]\Z")
BRACKET_OPEN = re.compile(r"\[(radar\.)?([a-z]+-)?\Z")
SEVERITY_WORD = re.compile(r"\b(error|ERROR|warning|WARNING):")
DEPTH = 8

# A value: a string, or a tuple whose elements are sets of strings.
Value = str | tuple[frozenset[str], ...]


@dataclass(frozen=True)
class Emitter:
    """A callable taking a code: its position (after ``self``), keyword and default, and
    its severity: a literal, or the position and keyword of a parameter."""

    code_at: int
    code_kw: str
    default: frozenset[str]
    severity: str | None
    severity_at: int | None
    severity_kw: str | None


PROBLEM = Emitter(3, "code", frozenset(), None, 2, "severity")


@dataclass(frozen=True)
class Emission:
    code: str  # a code, or a family ``prefix-*``
    severity: str | None  # None: not statically known
    where: str


class Package:
    """A package's modules, parsed, with what following a value needs: each node's parent
    and module, the functions by name, module constants and class attributes."""

    def __init__(self, root: Path) -> None:
        self.root = root
        self.trees: dict[Path, ast.Module] = {
            path: ast.parse(path.read_text(encoding="utf-8"), str(path))
            for path in sorted(root.rglob("*.py"))
        }
        self.parents: dict[ast.AST, ast.AST] = {}
        self.module_of: dict[ast.AST, Path] = {}
        self.functions: dict[str, list[ast.FunctionDef | ast.AsyncFunctionDef]] = defaultdict(list)
        self.globals: dict[str, list[ast.expr]] = defaultdict(list)
        self.class_attrs: dict[tuple[str, str], list[ast.expr]] = defaultdict(list)
        self.attrs_by_module: dict[tuple[Path, str], list[ast.expr]] = defaultdict(list)
        for path, tree in self.trees.items():
            for node in ast.walk(tree):
                for child in ast.iter_child_nodes(node):
                    self.parents[child] = node
                    self.module_of[child] = path
            for node in ast.walk(tree):
                if isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef):
                    self.functions[node.name].append(node)
                elif isinstance(node, ast.ClassDef):
                    for statement in node.body:
                        for name, value in _assigned(statement):
                            self.class_attrs[(node.name, name)].append(value)
                            self.attrs_by_module[(path, name)].append(value)
            for statement in tree.body:
                for name, value in _assigned(statement):
                    self.globals[name].append(value)
        self.emitters = self._find_emitters()

    # --- where a node is ------------------------------------------------------------------

    def function_of(self, node: ast.AST) -> ast.FunctionDef | ast.AsyncFunctionDef | None:
        while node in self.parents:
            node = self.parents[node]
            if isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef):
                return node
        return None

    def where(self, node: ast.AST) -> str:
        path = self.module_of.get(node)
        relative = path.relative_to(self.root.parent) if path else "?"
        return f"{relative}:{getattr(node, 'lineno', 0)}"

    # --- values ---------------------------------------------------------------------------

    def values(self, expr: ast.expr | None, depth: int = 0) -> set[Value]:
        """The strings (or tuples of strings) ``expr`` can be, as far as they are literal."""
        if expr is None or depth > DEPTH:
            return set()
        if isinstance(expr, ast.Constant):
            return {expr.value} if isinstance(expr.value, str) else set()
        if isinstance(expr, ast.IfExp):
            return self.values(expr.body, depth + 1) | self.values(expr.orelse, depth + 1)
        if isinstance(expr, ast.BoolOp):
            return set().union(*(self.values(value, depth + 1) for value in expr.values))
        if isinstance(expr, ast.Tuple):
            return {tuple(frozenset(self.strings(elt, depth + 1)) for elt in expr.elts)}
        if isinstance(expr, ast.Name):
            return self._name_values(expr, depth + 1)
        if isinstance(expr, ast.Attribute) and isinstance(expr.value, ast.Name):
            found: set[Value] = set()
            for value in self.class_attrs.get((expr.value.id, expr.attr), []):
                found |= self.values(value, depth + 1)
            return found
        if isinstance(expr, ast.Call):
            return self._call_values(expr, depth + 1)
        return set()

    def strings(self, expr: ast.expr | None, depth: int = 0) -> set[str]:
        return {value for value in self.values(expr, depth) if isinstance(value, str)}

    def _name_values(self, name: ast.Name, depth: int) -> set[Value]:
        function = self.function_of(name)
        found: set[Value] = set()
        while function is not None:
            assigned = False
            for node in ast.walk(function):
                for target, value, index in _bindings(node):
                    if target != name.id:
                        continue
                    assigned = True
                    for each in self.values(value, depth):
                        if index is None:
                            found.add(each)
                        elif isinstance(each, tuple) and index < len(each):
                            found |= set(each[index])
            defaults = _parameter_defaults(function)
            if name.id in defaults:
                found |= self.values(defaults[name.id], depth)
                assigned = True
            if assigned:
                return found
            function = self.function_of(function)
        for value in self.globals.get(name.id, []):
            found |= self.values(value, depth)
        return found

    def _call_values(self, call: ast.Call, depth: int) -> set[Value]:
        name = _called_name(call)
        if name == "getattr" and len(call.args) == 3:
            attribute = call.args[1]
            found = self.values(call.args[2], depth)
            if isinstance(attribute, ast.Constant) and isinstance(attribute.value, str):
                module = self.module_of.get(call)
                for value in self.attrs_by_module.get((module, attribute.value), []):
                    found |= self.values(value, depth)
            return found
        found = set()
        for function in self.functions.get(name or "", []):
            for node in ast.walk(function):
                if isinstance(node, ast.Return) and self.function_of(node) is function:
                    found |= self.values(node.value, depth)
        return found

    # --- emitters -------------------------------------------------------------------------

    def _find_emitters(self) -> dict[str, Emitter]:
        emitters = {"Problem": PROBLEM}
        changed = True
        while changed:
            changed = False
            for name, functions in self.functions.items():
                if name in emitters:
                    continue
                for function in functions:
                    emitter = self._as_emitter(function, emitters)
                    if emitter is not None:
                        emitters[name] = emitter
                        changed = True
                        break
        return emitters

    def _as_emitter(self, function, emitters) -> Emitter | None:
        names = [arg.arg for arg in [*function.args.posonlyargs, *function.args.args]]
        offset = 1 if names[:1] in (["self"], ["cls"]) else 0
        for call in ast.walk(function):
            if not isinstance(call, ast.Call) or self.function_of(call) is not function:
                continue
            emitter = emitters.get(_called_name(call) or "")
            if emitter is None or _is_logger(call):
                continue
            code = _argument(call, emitter.code_at, emitter.code_kw)
            if not (isinstance(code, ast.Name) and code.id in names):
                continue
            severity = _argument(call, emitter.severity_at, emitter.severity_kw)
            fixed = emitter.severity
            severity_at = severity_kw = None
            if isinstance(severity, ast.Constant):
                fixed = severity.value
            elif isinstance(severity, ast.Name) and severity.id in names:
                severity_at, severity_kw = names.index(severity.id) - offset, severity.id
            defaults = _parameter_defaults(function)
            return Emitter(
                names.index(code.id) - offset,
                code.id,
                frozenset(self.strings(defaults.get(code.id))),
                fixed,
                severity_at,
                severity_kw,
            )
        return None

    # --- emissions ------------------------------------------------------------------------

    def emissions(self) -> list[Emission]:
        found: list[Emission] = []
        for tree in self.trees.values():
            for node in ast.walk(tree):
                if isinstance(node, ast.Call):
                    found += self._call_emissions(node)
                elif isinstance(node, ast.JoinedStr | ast.Constant):
                    found += self._bracketed(node)
        return found

    def _call_emissions(self, call: ast.Call) -> list[Emission]:
        name = _called_name(call) or ""
        if _is_logger(call):
            keywords = {keyword.arg: keyword.value for keyword in call.keywords}
            subtype = keywords.get("subtype")
            kind = keywords.get("type")
            if not (isinstance(kind, ast.Constant) and kind.value == "radar") or subtype is None:
                return []
            severity = LOGGER_SEVERITY.get(name)
            return [
                Emission(code, severity, self.where(call))
                for code in self.strings(subtype)
                if CODE_SHAPE.match(code)
            ]
        emitter = self.emitters.get(name)
        if emitter is None:
            return []
        codes = self._argument_strings(call, emitter.code_at, emitter.code_kw, emitter.default)
        severity = emitter.severity
        if emitter.severity_at is not None:
            severities = self._argument_strings(
                call, emitter.severity_at, emitter.severity_kw or "", frozenset()
            )
            severity = severities.pop() if len(severities) == 1 else None
        return [
            Emission(code, severity, self.where(call)) for code in codes if CODE_SHAPE.match(code)
        ]

    def _argument_strings(self, call, at, keyword, default) -> set[str]:
        for index, argument in enumerate(call.args):
            if isinstance(argument, ast.Starred) and index <= at:
                found = set()
                for value in self.values(argument.value):
                    if isinstance(value, tuple) and at - index < len(value):
                        found |= value[at - index]
                return found
        expr = _argument(call, at, keyword)
        return self.strings(expr) if expr is not None else set(default)

    def _bracketed(self, node: ast.JoinedStr | ast.Constant) -> list[Emission]:
        if isinstance(node, ast.Constant):
            if not isinstance(node.value, str) or isinstance(self.parents.get(node), ast.JoinedStr):
                return []
            parts: list[ast.expr] = [node]
        else:
            parts = list(node.values)
        last = parts[-1]
        if not (isinstance(last, ast.Constant) and isinstance(last.value, str)):
            return []
        text = "".join(p.value if isinstance(p, ast.Constant) else "{}" for p in parts)
        severity = self._printed_severity(node, text)
        if match := BRACKETED.search(last.value):
            return [Emission(match.group(1), severity, self.where(node))]
        if last.value != "]" or len(parts) < 3:
            return []
        opener, formatted = parts[-3], parts[-2]
        if not (isinstance(opener, ast.Constant) and isinstance(formatted, ast.FormattedValue)):
            return []
        match = BRACKET_OPEN.search(opener.value)
        if match is None:
            return []
        prefix = match.group(2) or ""
        tails = {tail for tail in self.strings(formatted.value) if CODE_SHAPE.match(tail)}
        if tails:
            return [Emission(prefix + tail, severity, self.where(node)) for tail in tails]
        if prefix:  # a family: ``[source-{state}]``
            return [Emission(prefix + "*", severity, self.where(node))]
        return []

    def _printed_severity(self, node: ast.AST, text: str) -> str | None:
        parent = self.parents.get(node)
        if isinstance(parent, ast.Call) and _is_logger(parent):
            return LOGGER_SEVERITY.get(_called_name(parent) or "")
        if match := SEVERITY_WORD.search(text):
            return match.group(1).lower()
        return None


def _assigned(statement: ast.stmt):
    if isinstance(statement, ast.Assign):
        for target in statement.targets:
            if isinstance(target, ast.Name):
                yield target.id, statement.value
    elif (
        isinstance(statement, ast.AnnAssign)
        and isinstance(statement.target, ast.Name)
        and statement.value is not None
    ):
        yield statement.target.id, statement.value


def _bindings(node: ast.AST):
    """(name, value, index in a tuple or None) for each name ``node`` binds."""
    if isinstance(node, ast.Assign):
        targets, value = node.targets, node.value
    elif isinstance(node, ast.AnnAssign | ast.NamedExpr) and node.value is not None:
        targets, value = [node.target], node.value
    elif isinstance(node, ast.For) and isinstance(node.iter, ast.Tuple | ast.List | ast.Set):
        for element in node.iter.elts:
            yield from _bindings(ast.Assign(targets=[node.target], value=element))
        return
    else:
        return
    for target in targets:
        if isinstance(target, ast.Name):
            yield target.id, value, None
        elif isinstance(target, ast.Tuple):
            for index, element in enumerate(target.elts):
                if not isinstance(element, ast.Name):
                    continue
                if isinstance(value, ast.Tuple) and len(value.elts) == len(target.elts):
                    yield element.id, value.elts[index], None
                else:
                    yield element.id, value, index


def _parameter_defaults(function) -> dict[str, ast.expr]:
    positional = [*function.args.posonlyargs, *function.args.args]
    defaults = dict(
        zip([a.arg for a in positional[::-1]], function.args.defaults[::-1], strict=False)
    )
    for arg, default in zip(function.args.kwonlyargs, function.args.kw_defaults, strict=True):
        if default is not None:
            defaults[arg.arg] = default
    return defaults


def _called_name(call: ast.Call) -> str | None:
    if isinstance(call.func, ast.Name):
        return call.func.id
    if isinstance(call.func, ast.Attribute):
        return call.func.attr
    return None


def _is_logger(call: ast.Call) -> bool:
    func = call.func
    return (
        isinstance(func, ast.Attribute)
        and isinstance(func.value, ast.Name)
        and func.value.id in LOGGERS
    )


def _argument(call: ast.Call, at: int | None, keyword: str | None) -> ast.expr | None:
    for each in call.keywords:
        if each.arg == keyword:
            return each.value
    if at is not None and at < len(call.args) and not isinstance(call.args[at], ast.Starred):
        return call.args[at]
    return None


# --- the tests ------------------------------------------------------------------------------

PACKAGE = Path(__file__).resolve().parent.parent / "juju_radar"


@pytest.fixture(scope="module")
def emitted() -> list[Emission]:
    return Package(PACKAGE).emissions()


def _families(emissions: list[Emission]) -> set[str]:
    return {emission.code[:-1] for emission in emissions if emission.code.endswith("*")}


def test_every_code_the_package_emits_is_in_the_registry(emitted):
    known = codes.names()
    families = _families(emitted)
    missing = sorted(
        {
            f"{emission.code} ({emission.where})"
            for emission in emitted
            if not emission.code.endswith("*") and emission.code not in known
        }
    )
    assert not missing, "emitted but not in juju_radar/model/codes.py: " + ", ".join(missing)
    for family in families:
        assert any(name.startswith(family) for name in known), f"no code of the family {family}*"


def test_every_code_of_the_registry_is_emitted(emitted):
    found = {emission.code for emission in emitted}
    families = _families(emitted)
    missing = sorted(
        name
        for name in codes.names()
        if name not in found and not any(name.startswith(family) for family in families)
    )
    assert not missing, "in juju_radar/model/codes.py but emitted nowhere: " + ", ".join(missing)


def test_the_registry_gives_the_severity_the_package_emits(emitted):
    wrong = sorted(
        {
            f"{emission.code}: {emission.severity} at {emission.where}, "
            f"the registry says {'/'.join(sorted(codes.severities(emission.code)))}"
            for emission in emitted
            if emission.severity is not None
            and emission.code in codes.names()
            and emission.severity not in codes.severities(emission.code)
        }
    )
    assert not wrong, "\n".join(wrong)


def test_the_analyser_finds_codes_however_they_are_passed(tmp_path):
    """A small package using every way the real one passes a code."""
    (tmp_path / "pkg").mkdir()
    (tmp_path / "pkg" / "model.py").write_text(
        textwrap.dedent(
            """
            CODE = "module-constant"

            class Problem:
                def __init__(self, path, line, severity, code, message): ...

            class Refusal(str):
                code = "class-attribute"

            def why(value):
                if value:
                    return "returned-tuple", "a message"
                return None

            class Report:
                def error(self, line, code, message):
                    self.problems.append(Problem("p", line, "error", code, message))

                def warning(self, line, code, message):
                    self.problems.append(Problem("p", line, "warning", code, message))

            def unreadable(path, line, message, code="parameter-default"):
                return Problem(path, line, "error", code, message)

            def emit(report, logger, value, message):
                yield Problem("p", 1, "note", "direct-literal", "m")
                yield Problem("p", 1, "error", code="keyword-code", message="m")
                report.error(1, "helper-literal", "m")
                report.warning(1, "helper-warning", "m")
                report.error(1, "if-true" if value else "if-false", "m")
                report.error(1, CODE, "m")
                if problem := why(value):
                    report.error(1, *problem)
                unreadable("p", 1, "m")
                for name in ("looped-one", "looped-two"):
                    report.error(1, name, "m")
                logger.warning("m", type="radar", subtype="sphinx-subtype")
                logger.info("m", type="other", subtype="not-radar")
                code = getattr(message, "code", "getattr-default")
                logger.error("m", type="radar", subtype=code)
                print(f"{value}: error: {message} [printed-code]")
                print(f"{value} [family-{value.state}]")
                subtype = "formatted-subtype"
                print(f"conf.py: ERROR: {message} [radar.{subtype}]")
                print(f'<meta {value}[content]" content="x">')
            """
        ),
        encoding="utf-8",
    )
    found = {
        (emission.code, emission.severity) for emission in Package(tmp_path / "pkg").emissions()
    }
    assert found == {
        ("direct-literal", "note"),
        ("keyword-code", "error"),
        ("helper-literal", "error"),
        ("helper-warning", "warning"),
        ("if-true", "error"),
        ("if-false", "error"),
        ("module-constant", "error"),
        ("returned-tuple", "error"),
        ("parameter-default", "error"),
        ("looped-one", "error"),
        ("looped-two", "error"),
        ("sphinx-subtype", "warning"),
        ("getattr-default", "error"),
        ("class-attribute", "error"),
        ("printed-code", "error"),
        ("family-*", None),
        ("formatted-subtype", "error"),
    }


def test_each_code_is_listed_once_in_a_scope_with_a_meaning():
    seen = set()
    for code in codes.CODES:
        assert code.scope in codes.SCOPES, code
        assert code.severity in ("error", "warning", "note"), code
        assert code.meaning.strip(), code
        assert (code.scope, code.code) not in seen, f"{code.code} twice in {code.scope}"
        seen.add((code.scope, code.code))
    assert {code.scope for code in codes.CODES} == set(codes.SCOPES)


def test_a_code_has_one_severity_where_the_check_and_the_build_report_it():
    """Issue 52: one severity table. In the scopes both report, a code means one severity
    (codes.severity reads it), and none is a warning: make html (-W) fails on a warning
    as on an error, so the check calls it an error."""
    seen: dict[str, set[str]] = defaultdict(set)
    for code in codes.CODES:
        if code.scope in codes.CHECKED:
            seen[code.code].add(code.severity)
    assert {name: found for name, found in seen.items() if len(found) > 1} == {}
    shared = {"issue", "page", "bib", "conf"}
    warnings = [c.code for c in codes.CODES if c.scope in shared and c.severity == "warning"]
    assert warnings == []
    assert codes.severity("length-mismatch", "note") == "error"
    assert codes.severity("not-a-code", "note") == "note"
