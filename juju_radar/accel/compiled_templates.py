"""The theme's templates compiled once a process: a Jinja bytecode cache kept in memory.

Sphinx makes a new Jinja environment for every builder, which compiles every template it
renders again: 34 templates, about a sixth of a seed-site build after the first in one
process. A process that builds more than once (the preview, once it has saved or its
configuration changed, and the tests' builds) keeps the code here instead. Jinja asks
its bytecode cache before it compiles (``BaseLoader.load``) and hands it the template's
source checksum; a stored code object is used only for the same checksum, and only for an
environment that compiles alike (``compiles_alike``): the same syntax, the same
extensions, filters and tests (the optimizer calls constant filters while compiling).
"""

from __future__ import annotations

from operator import itemgetter
from types import CodeType
from typing import TYPE_CHECKING, Any

from jinja2 import BytecodeCache, Environment
from jinja2.bccache import Bucket

if TYPE_CHECKING:
    from sphinx.application import Sphinx

    from juju_radar.sphinx_ext.pipeline import Steps

KINDS_KEPT = 4  # kinds of environment whose templates' code is kept

# What the lexer, the parser, the optimizer and the code generator read of an environment.
SYNTAX = (
    "block_start_string",
    "block_end_string",
    "variable_start_string",
    "variable_end_string",
    "comment_start_string",
    "comment_end_string",
    "line_statement_prefix",
    "line_comment_prefix",
    "trim_blocks",
    "lstrip_blocks",
    "newline_sequence",
    "keep_trailing_newline",
    "optimized",
    "is_async",
    "sandboxed",
    "newstyle_gettext",  # the i18n extension's, read as it parses
)


def compiles_alike(environment: Environment) -> tuple[Any, ...] | None:
    """What ``environment`` compiles a template from besides its source; None where that
    cannot be told (autoescaping chosen by a function, per template; a filter or test that
    cannot be a key)."""
    if not isinstance(environment.autoescape, bool):
        return None
    # The functions themselves, compared by identity: the key keeps them alive, so another
    # environment's function cannot come to have the same id.
    alike = (
        type(environment),
        environment.autoescape,
        environment.finalize,
        tuple(getattr(environment, name, None) for name in SYNTAX),
        tuple(sorted(getattr(environment, "intercepted_binops", ()))),
        tuple(sorted(getattr(environment, "intercepted_unops", ()))),
        tuple(environment.extensions),
        tuple(sorted(environment.filters.items(), key=itemgetter(0))),
        tuple(sorted(environment.tests.items(), key=itemgetter(0))),
    )
    try:
        hash(alike)
    except TypeError:  # a filter or test that is not hashable: not told apart
        return None
    return alike


class CompiledTemplates(BytecodeCache):
    """Code objects by how the environment compiles, template and source checksum, for
    this process; the last few kinds of environment only (``KINDS_KEPT``)."""

    def __init__(self) -> None:
        self.code: dict[tuple[Any, ...], dict[str, tuple[str, CodeType]]] = {}

    def load_bytecode(self, bucket: Bucket) -> None:
        alike = compiles_alike(bucket.environment)
        stored = self.code.get(alike, {}).get(bucket.key) if alike is not None else None
        if stored is not None and stored[0] == bucket.checksum:
            bucket.code = stored[1]

    def dump_bytecode(self, bucket: Bucket) -> None:
        alike = compiles_alike(bucket.environment)
        if alike is None or bucket.code is None:
            return
        if alike not in self.code and len(self.code) >= KINDS_KEPT:
            del self.code[next(iter(self.code))]  # the kind stored first
        self.code.setdefault(alike, {})[bucket.key] = (bucket.checksum, bucket.code)


COMPILED = CompiledTemplates()


def compile_once(app: Sphinx) -> None:
    environment = getattr(getattr(app.builder, "templates", None), "environment", None)
    if isinstance(environment, Environment) and environment.bytecode_cache is None:
        environment.bytecode_cache = COMPILED


def connect(app: Sphinx, steps: Steps) -> None:
    steps.offer("compile-templates-once", compile_once)
