"""What ``radar --help`` and argparse's own lines say, in the language of the messages.

argparse prints a few words of its own (``usage:``, the headings of the options, the
help option, its errors) through the process-wide gettext, which reads compiled
catalogues of the locale only. ``RadarParser`` says them through the archive's catalogue
instead, from argparse's public methods (``format_usage``, ``format_help``, ``error``).
Every command of ``radar`` has a description and an example (``example``).
"""

from __future__ import annotations

import argparse
import re
import sys
import textwrap
from typing import Any, NoReturn

from juju_radar.editors.exit_status import EXIT_USAGE
from juju_radar.model.messages import N_, _

# What argparse itself prints in a help or an error, in the language of the messages.
ARGPARSE_HEADINGS = {
    "positional arguments:": N_("positional arguments:"),
    "options:": N_("options:"),
    # The titles radar gives its groups of subcommands (in English: argparse adds the colon).
    "commands:": N_("commands:"),
    "actions:": N_("actions:"),
}
ARGPARSE_ERRORS = [
    (
        re.compile(r"the following arguments are required: (?P<names>.*)"),
        N_("the following arguments are required: {names}"),
    ),
    (
        re.compile(
            r"argument (?P<name>\S+): invalid choice: (?P<value>.*) \(choose from (?P<choices>.*)\)"
        ),
        N_("argument {name}: invalid choice: {value} (choose from {choices})"),
    ),
    (re.compile(r"unrecognized arguments: (?P<names>.*)"), N_("unrecognized arguments: {names}")),
]


class RadarParser(argparse.ArgumentParser):
    """argparse's parser, saying its own words (``usage:``, the headings, errors) in the
    language of the messages, and keeping the line breaks of a description and its
    example."""

    def __init__(self, *args: Any, add_help: bool = True, **kwargs: Any) -> None:
        kwargs.setdefault("formatter_class", argparse.RawDescriptionHelpFormatter)
        if kwargs.get("description"):  # raw, so wrapped here (the example's lines are kept)
            kwargs["description"] = textwrap.fill(kwargs["description"], 79)
        kwargs["add_help"] = False
        super().__init__(*args, **kwargs)
        if add_help:  # argparse's own, with its words translated
            self.add_argument(
                "-h", "--help", action="help", help=_("show this help message and exit")
            )

    def format_usage(self) -> str:
        return _translated_usage(super().format_usage())

    def format_help(self) -> str:
        lines = _translated_usage(super().format_help()).split("\n")
        return "\n".join(_heading(line) for line in lines)

    def error(self, message: str) -> NoReturn:
        for pattern, translation in ARGPARSE_ERRORS:
            if match := pattern.fullmatch(message):
                message = _(translation).format(**match.groupdict())
                break
        self.print_usage(sys.stderr)
        said = _("{prog}: error: {message}").format(prog=self.prog, message=message)
        self.exit(EXIT_USAGE, said + "\n")


def _heading(line: str) -> str:
    """A line of the help, translated when it is a heading."""
    return _(ARGPARSE_HEADINGS[line]) if line in ARGPARSE_HEADINGS else line


def _translated_usage(text: str) -> str:
    prefix = "usage: "
    return _("usage: ") + text[len(prefix) :] if text.startswith(prefix) else text


def example(*lines: str) -> str:
    """A subcommand's epilog: its example lines, under the translated heading."""
    return _("example:") + "".join(f"\n  {line}" for line in lines)


def add_command(
    commands: argparse._SubParsersAction,
    common: argparse.ArgumentParser,
    name: str,
    summary: str,
    description: str,
    *examples: str,
) -> argparse.ArgumentParser:
    """A subcommand with the common options, its one-line summary (in its parent's
    list), its description and its examples."""
    parser: argparse.ArgumentParser = commands.add_parser(
        name, parents=[common], help=summary, description=description, epilog=example(*examples)
    )
    return parser


def add_discard_edits(parser: argparse.ArgumentParser) -> None:
    parser.add_argument(
        "--discard-edits",
        action="store_true",
        help=_(
            "with --force: replace a page edited since radar wrote it too (its text is "
            "kept under _build/replaced/)"
        ),
    )
