"""A style sheet cut down to the rules a site can use.

The theme's style sheet is 376 KB (64 KB gzipped) for every component Bootstrap and
the PyData theme offer; an archive page uses a few of them. A rule is kept when every
class, id and element its selector names (outside ``:not()`` and other functions, which
are kept whole) occurs in the site: in a page's markup, or as a word of a script, which
may add it (Bootstrap's ``show``). Rules naming only attributes (``[data-theme=dark]``),
``@font-face`` and ``@keyframes`` are kept. Then custom properties no kept declaration,
other style sheet, script or page refers to (``var(--pst-…)``) are left out.

The result is a subset of the rules in their order, so where the full sheet and the
subset both apply to an element, the same declaration wins.
"""

from __future__ import annotations

import re
from collections.abc import Collection, Iterable
from dataclasses import dataclass
from functools import lru_cache

import tinycss2
from selectolax.lexbor import LexborHTMLParser
from tinycss2.ast import Declaration, LiteralToken, Node, QualifiedRule

# Element names, the names in class and id attributes, and style attributes (which may
# set custom properties), read from the page's tree as a browser builds it (the elements
# a parser implies, such as <head> and <tbody>, included).
SCRIPT_WORDS = re.compile(r"-{0,2}[A-Za-z_][\w-]*")
CUSTOM_PROPERTY = re.compile(r"--[A-Za-z_][\w-]*")
VAR_REFERENCE = re.compile(r"var\(\s*(--[A-Za-z_][\w-]*)")
COMBINATORS = frozenset({">", "+", "~"})
GROUPING_RULES = frozenset({"media", "supports", "layer", "container"})


def markup_names(html: bytes) -> frozenset[str]:
    """Element names (lower case), classes, ids and custom properties of a page."""
    names: set[str] = set()
    tree = LexborHTMLParser(html)
    for element in tree.root.traverse() if tree.root is not None else ():
        if not element.is_element_node:
            continue
        names.add((element.tag or "").lower())
        attributes = element.attributes
        for listed in ("class", "id"):
            names.update((attributes.get(listed) or "").split())
        if style := attributes.get("style"):
            names.update(CUSTOM_PROPERTY.findall(style))
    return frozenset(names)


def script_names(text: str) -> frozenset[str]:
    """Every word of a script or style sheet that could be a class, id, element or
    custom property name."""
    return frozenset(SCRIPT_WORDS.findall(text))


def subset_css(css: str, names: Collection[str]) -> str:
    """``css`` with only the rules whose selectors can match, given the ``names`` the
    site uses (``markup_names`` and ``script_names``), and the custom properties read."""
    return _subset(css, frozenset(names))


# Builds run one after another in one process (the tests', a preview's) cut the same
# sheets for the same names: a tenth of a second each.
@lru_cache(maxsize=4)
def _subset(css: str, names: frozenset[str]) -> str:
    kept = _kept_rules(_parsed(css), names)
    read = _properties_read(kept, {name for name in names if name.startswith("--")})
    return "".join(rule.text(read) for rule in kept)


@lru_cache(maxsize=4)
def _parsed(css: str) -> tuple[Node, ...]:
    """The rules of a sheet, read once for ``selector_names`` and ``subset_css`` (a clean
    build asks both of each theme sheet; reading one takes a quarter of a second)."""
    return tuple(tinycss2.parse_stylesheet(css, skip_comments=True, skip_whitespace=True))


@dataclass(frozen=True)
class _Rule:
    """A kept style rule (its kept selectors and declarations), a kept grouping rule
    with its kept children, or any other rule as written."""

    prelude: str
    declarations: tuple[Node, ...] = ()
    children: tuple[_Rule, ...] = ()
    whole: str | None = None

    def text(self, read: Collection[str]) -> str:
        if self.whole is not None:
            return self.whole
        if self.children:
            return f"{self.prelude}{{{''.join(child.text(read) for child in self.children)}}}"
        kept = [node for node in self.declarations if _declaration_read(node, read)]
        return f"{self.prelude}{{{';'.join(_serialize(node) for node in kept)}}}" if kept else ""

    def declarations_within(self) -> Iterable[Node]:
        yield from self.declarations
        for child in self.children:
            yield from child.declarations_within()


def _kept_rules(rules: Iterable[Node], names: frozenset[str]) -> list[_Rule]:
    kept: list[_Rule] = []
    for rule in rules:
        if isinstance(rule, QualifiedRule):
            selectors = [part for part in _selectors(rule.prelude) if _can_match(part, names)]
            if selectors:
                prelude = ",".join(tinycss2.serialize(part).strip() for part in selectors)
                content = tinycss2.parse_blocks_contents(
                    rule.content, skip_comments=True, skip_whitespace=True
                )
                kept.append(_Rule(prelude, declarations=tuple(content)))
        elif rule.type == "at-rule" and rule.lower_at_keyword in GROUPING_RULES and rule.content:
            inner = tinycss2.parse_blocks_contents(
                rule.content, skip_comments=True, skip_whitespace=True
            )
            children = _kept_rules(inner, names)
            if children:
                prelude = f"@{rule.at_keyword} {tinycss2.serialize(rule.prelude).strip()}"
                kept.append(_Rule(prelude, children=tuple(children)))
        elif rule.type != "error":
            kept.append(_Rule("", whole=rule.serialize()))
    return kept


def _selectors(prelude: list[Node]) -> list[list[Node]]:
    """The selectors of a comma-separated list."""
    selectors: list[list[Node]] = [[]]
    for token in prelude:
        if isinstance(token, LiteralToken) and token.value == ",":
            selectors.append([])
        else:
            selectors[-1].append(token)
    return selectors


def _can_match(selector: list[Node], names: frozenset[str]) -> bool:
    """Whether every class, id and element named at the top level is in ``names``."""
    previous: Node | None = None
    for token in selector:
        if token.type == "comment":
            continue
        if token.type == "ident" and _names_element_or_class(previous):
            name = token.value if _is_literal(previous, ".") else token.lower_value
            if name not in names:
                return False
        elif token.type == "hash" and token.is_identifier and token.value not in names:
            return False
        previous = token
    return True


def _names_element_or_class(previous: Node | None) -> bool:
    return (
        previous is None
        or previous.type == "whitespace"
        or _is_literal(previous, ".")
        or (isinstance(previous, LiteralToken) and previous.value in COMBINATORS)
    )


def _is_literal(token: Node | None, value: str) -> bool:
    return isinstance(token, LiteralToken) and token.value == value


def _properties_read(kept: list[_Rule], read_elsewhere: set[str]) -> set[str]:
    """The custom properties read by a kept declaration (or elsewhere), and those their
    values read in turn."""
    values_by_property: dict[str, list[str]] = {}
    read = set(read_elsewhere)
    for rule in kept:
        for node in rule.declarations_within():
            if isinstance(node, Declaration):
                value = tinycss2.serialize(node.value)
                if node.name.startswith("--"):
                    values_by_property.setdefault(node.name, []).append(value)
                else:
                    read.update(VAR_REFERENCE.findall(value))
            elif node.type != "error":
                read.update(VAR_REFERENCE.findall(node.serialize()))
    pending = list(read)
    while pending:
        for value in values_by_property.get(pending.pop(), ()):
            for name in VAR_REFERENCE.findall(value):
                if name not in read:
                    read.add(name)
                    pending.append(name)
    return read


def _declaration_read(node: Node, read: Collection[str]) -> bool:
    if isinstance(node, Declaration):
        return not node.name.startswith("--") or node.name in read
    return node.type != "error"


def _serialize(node: Node) -> str:
    if isinstance(node, Declaration):
        important = "!important" if node.important else ""
        return f"{node.name}:{tinycss2.serialize(node.value).strip()}{important}"
    return node.serialize()


@lru_cache(maxsize=4)
def selector_names(css: str) -> frozenset[str]:
    """Every name ``subset_css(css, names)`` asks ``names`` about: the idents and ids of
    every selector, and the custom properties the sheet sets. So ``subset_css(css,
    names)`` is ``subset_css(css, names & selector_names(css))``: a site's new ids and
    classes that no rule names leave the subset as it was."""
    found: set[str] = set()

    def walk(nodes: Iterable[Node]) -> None:
        for node in nodes:
            if node.type == "ident":
                found.update((node.value, node.lower_value))
            elif node.type == "hash":
                found.add(node.value)
            elif node.type == "function":
                walk(node.arguments)
            elif node.type in ("() block", "[] block"):
                walk(node.content)

    def rules(nodes: Iterable[Node]) -> None:
        for rule in nodes:
            if rule.type not in ("qualified-rule", "at-rule") or not rule.content:
                continue
            inner = tinycss2.parse_blocks_contents(
                rule.content, skip_comments=True, skip_whitespace=True
            )
            if isinstance(rule, QualifiedRule):
                walk(rule.prelude)
                found.update(
                    node.name
                    for node in inner
                    if isinstance(node, Declaration) and node.name.startswith("--")
                )
            elif rule.lower_at_keyword in GROUPING_RULES:
                rules(inner)

    rules(_parsed(css))
    return frozenset(found)


def custom_properties(text: str) -> frozenset[str]:
    """The custom property names written anywhere in ``text`` (a script or style sheet)."""
    return frozenset(CUSTOM_PROPERTY.findall(text))
