"""``radar``: the editors' command line (import, new, check, links, serve, synth, refs).

It reads the arguments and calls one function per command. Problems print as
``PATH:LINE: error|warning: message [code]``, from the same model that the Sphinx
extension uses, so ``radar check`` and ``make html`` agree.
"""

from __future__ import annotations

import argparse
import os
import signal
import subprocess
import sys
from collections.abc import Sequence
from pathlib import Path

from juju_radar.editors.check_run import CheckOptions, check_archive
from juju_radar.editors.exit_status import (
    EXIT_CLOSED_PIPE,
    EXIT_OK,
    EXIT_USAGE,
    command_error,
)
from juju_radar.editors.help_text import RadarParser, add_command, add_discard_edits, example
from juju_radar.editors.import_run import ImportOptions, import_exports
from juju_radar.editors.links_run import check_built_links, check_cited_sources
from juju_radar.editors.new_issue import write_new_issue
from juju_radar.editors.site_files import SiteError, open_site
from juju_radar.editors.synth_text import DEFAULT_TEXT, TEXT_MODES
from juju_radar.model.messages import (
    LANGUAGES,
    _,
    choose_language,
    current_language,
)
from juju_radar.model.site_layout import NOT_SITE


def main(argv: Sequence[str] | None = None) -> int:
    # The language first, so that the help and argparse's own lines speak it too.
    early = argparse.ArgumentParser(add_help=False)
    early.add_argument("--root", default=".")
    early.add_argument("--lang")
    known, _rest = early.parse_known_args(argv)
    flag = known.lang if known.lang in LANGUAGES else None
    choose_language(flag, lambda: _site_language(known.root))
    parser = build_parser()
    args = parser.parse_args(argv)
    args.root = getattr(args, "root", ".")
    try:
        status = int(args.run(args))
        sys.stdout.flush()  # a closed pipe shows here, not when Python exits
        return status
    except SiteError as error:
        print(command_error(str(error)), file=sys.stderr)
        return EXIT_USAGE
    except KeyboardInterrupt:
        return 130
    except BrokenPipeError:
        return _closed_pipe()


def _closed_pipe() -> int:
    """The reader of radar's output has gone (``radar refs missing | head -1``): stop
    quietly, as a command SIGPIPE stops. What is still buffered for the closed pipe goes
    nowhere, so that Python reports no error when it flushes it at exit."""
    nowhere = os.open(os.devnull, os.O_WRONLY)
    os.dup2(nowhere, sys.stdout.fileno())
    os.close(nowhere)
    return EXIT_CLOSED_PIPE


def _site_language(root: str) -> object:
    """``radar_messages_language`` in the site's conf.py (None when it cannot be read:
    the command then says why, in the default language)."""
    try:
        return open_site(root).config.get("radar_messages_language")
    except SiteError:
        return None


def build_parser() -> argparse.ArgumentParser:
    # --root is accepted before or after the command name.
    common = RadarParser(add_help=False)
    common.add_argument(
        "--root",
        default=argparse.SUPPRESS,
        help=_("the site root (holding conf.py); default: current directory"),
    )
    common.add_argument(
        "--lang",
        choices=LANGUAGES,
        default=argparse.SUPPRESS,
        help=_(
            "the language of the messages (default: the locale, else conf.py's "
            "radar_messages_language)"
        ),
    )
    parser = RadarParser(
        prog="radar",
        parents=[common],
        description=_("Juju Radar archive tools for editors."),
        epilog=example("radar import 2026-09-08.txt", "radar check", "radar --lang zh new --help"),
    )
    commands = parser.add_subparsers(
        dest="command", required=True, metavar="COMMAND", title="commands"
    )

    importing = add_command(
        commands,
        common,
        "import",
        _("import export-format files into issues/"),
        _(
            "Import the editors' export files (one issue each) into issues/YYYY/ and their "
            "sources into references.bib, checked as radar check checks them."
        ),
        "radar import ~/Downloads/2026-09-08.txt",
        "radar import backlog/*.txt",
    )
    importing.add_argument("files", nargs="+", metavar="FILE", help=_("an export file"))
    importing.add_argument("--force", action="store_true", help=_("replace existing issues"))
    add_discard_edits(importing)
    importing.add_argument(
        "--draft",
        action="store_true",
        help=_("import as status: draft, for review before publishing"),
    )
    importing.add_argument(
        "--strict", action="store_true", help=_("fail when a file is skipped (its day exists)")
    )
    importing.set_defaults(run=run_import)

    new = add_command(
        commands,
        common,
        "new",
        _("scaffold a draft issue"),
        _("Write the page of a new issue (status: draft) with placeholders to fill."),
        "radar new",
        "radar new 2026-09-09",
    )
    new.add_argument("date", nargs="?", help=_("YYYY-MM-DD (default: today in Asia/Shanghai)"))
    new.add_argument("--force", action="store_true", help=_("replace an existing issue"))
    add_discard_edits(new)
    new.set_defaults(run=run_new)

    check = add_command(
        commands,
        common,
        "check",
        _("check every issue and references.bib"),
        _(
            "Report every problem make html would report, at its file and line, without "
            "building; exit 1 when the build would fail."
        ),
        "radar check",
        "radar check --changed --quiet",
    )
    check.add_argument(
        "--strict",
        action="store_true",
        help=_("kept for scripts: warnings fail without it, as make html fails on them"),
    )
    check.add_argument("--format", choices=("text", "json"), default="text", help=_("text or json"))
    loudness = check.add_mutually_exclusive_group()
    loudness.add_argument(
        "--quiet",
        "-q",
        dest="verbosity",
        action="store_const",
        const=-1,
        default=0,
        help=_("print errors only"),
    )
    loudness.add_argument(
        "--verbose",
        "-v",
        dest="verbosity",
        action="store_const",
        const=1,
        help=_("list every note (by default notes are summed up by kind)"),
    )
    check.add_argument(
        "--changed",
        action="store_true",
        help=_("read again only the files changed since the last run (by size and time)"),
    )
    check.set_defaults(run=run_check)

    links = add_command(
        commands,
        common,
        "links",
        _("check that every link of the built site resolves"),
        _(
            "Check every local link, asset and anchor of the built site; with --external, "
            "ask whether each source address still answers."
        ),
        "radar links",
        "radar links --external",
    )
    links.add_argument("outdir", nargs="?", default="_build/html", help=_("default: _build/html"))
    links.add_argument(
        "--external",
        action="store_true",
        help=_(
            "ask every source address of references.bib whether it still answers "
            "(politely: HEAD then GET, one request a host at a time); nothing is rewritten"
        ),
    )
    links.add_argument(
        "--report",
        default="_build/external-links.json",
        help=_("with --external: where the report goes (default: _build/external-links.json)"),
    )
    links.add_argument(
        "--strict", action="store_true", help=_("with --external: fail on a dead source")
    )
    links.add_argument(
        "--newer-than",
        metavar="FILE",
        help=_("check only the pages written after FILE was (touched before the build)"),
    )
    links.set_defaults(run=run_links)

    serve = add_command(
        commands,
        common,
        "serve",
        _("live preview on 127.0.0.1, rebuilt on save"),
        _(
            "Build the site into _build/preview and serve it on 127.0.0.1, building again "
            "whenever a file is saved."
        ),
        "radar serve",
        "radar serve --port 8001",
    )
    serve.add_argument("--port", type=int, default=8000, help=_("default: 8000"))
    serve.set_defaults(run=run_serve)

    synth = add_command(
        commands,
        common,
        "synth",
        _("write a synthetic archive (for benchmarks) into a new folder"),
        _(
            "Write a synthetic archive of N issues (for benchmarks), or their export files, "
            "into a folder that does not exist yet."
        ),
        "radar synth 300 --out /tmp/archive-300",
    )
    synth.add_argument("issues", type=int, metavar="N", help=_("number of issues"))
    synth.add_argument("--out", required=True, help=_("a folder that does not exist yet"))
    synth.add_argument(
        "--seed", type=int, default=8, help=_("random seed (same seed, same archive)")
    )
    synth.add_argument(
        "--text",
        choices=TEXT_MODES,
        default=DEFAULT_TEXT,
        help=_(
            "zipf: words drawn by frequency from a 20,000-word vocabulary, with some of the "
            "seed's sentences (the default, as the benchmarks use it); seed: every paragraph "
            "sampled from the seed issue's sentences"
        ),
    )
    synth.add_argument(
        "--exports",
        action="store_true",
        help=_("write the issues as export files (YYYY-MM-DD.txt, for radar import) instead"),
    )
    synth.set_defaults(run=run_synth)

    from juju_radar.editors import entities_run, refs

    refs.add_parser(commands, common)
    entities_run.add_parser(commands, common)
    return parser


# --- the commands -------------------------------------------------------------------------


def run_import(args: argparse.Namespace) -> int:
    options = ImportOptions(
        force=args.force, draft=args.draft, strict=args.strict, discard_edits=args.discard_edits
    )
    return import_exports(open_site(args.root), args.files, options, sys.stdout, sys.stderr)


def run_new(args: argparse.Namespace) -> int:
    site = open_site(args.root)
    return write_new_issue(
        site, args.date, args.force, sys.stdout, sys.stderr, discard_edits=args.discard_edits
    )


def run_check(args: argparse.Namespace) -> int:
    options = CheckOptions(
        strict=args.strict, format=args.format, verbosity=args.verbosity, changed=args.changed
    )
    return check_archive(open_site(args.root), options, sys.stdout, sys.stderr)


def run_links(args: argparse.Namespace) -> int:
    if args.external:
        site = open_site(args.root)
        return check_cited_sources(site, args.report, args.strict, sys.stdout, sys.stderr)
    outdir = Path(args.root, args.outdir)
    newer_than = Path(args.root, args.newer_than) if args.newer_than else None
    return check_built_links(outdir, newer_than, sys.stdout, sys.stderr)


# --- serve ------------------------------------------------------------------------------


def run_serve(args: argparse.Namespace) -> int:
    site = open_site(args.root)
    command = serve_command(site.root, args.port, current_language())
    print(
        _("serving a live preview on {url} (Ctrl-C stops it)").format(
            url=f"http://127.0.0.1:{args.port}/"
        ),
        file=sys.stderr,
    )
    server = subprocess.Popen(command, cwd=site.root)
    # Stopped by `kill` or a service manager rather than Ctrl-C (which the terminal sends
    # to both), the preview server would go on holding the port.
    signal.signal(signal.SIGTERM, lambda signum, frame: server.terminate())
    try:
        status = server.wait()
    except KeyboardInterrupt:
        server.terminate()
        status = server.wait()
    return status if status > 0 else EXIT_OK


def serve_command(root: Path, port: int, language: str | None = None) -> list[str]:
    """sphinx-autobuild on 127.0.0.1, rebuilding into _build/preview on every save and
    answering local Host names only (``preview``); speaking ``language``, when given
    (the language ``radar`` chose, which the preview's build then speaks too)."""
    ignored = [argument for name in NOT_SITE for argument in ("--ignore", str(root / name))]
    return [
        sys.executable,
        "-m",
        "juju_radar.editors.preview",
        str(root),
        str(root / "_build" / "preview"),
        "--host",
        "127.0.0.1",
        "--port",
        str(port),
        *ignored,
        "--re-ignore",
        r"/\.[^/]+\.tmp$",
        *(["--lang", language] if language else []),
    ]


# --- synth ------------------------------------------------------------------------------


def run_synth(args: argparse.Namespace) -> int:
    from juju_radar.editors.synth import (
        SynthOptions,
        write_synthetic_archive,
        write_synthetic_exports,
    )

    site = open_site(args.root)
    out = Path(args.out)
    if out.exists():
        message = _("{out} exists; synth writes only into a new folder").format(out=out)
        print(command_error(message), file=sys.stderr)
        return EXIT_USAGE
    if args.issues < 1:
        print(command_error(_("N must be at least 1")), file=sys.stderr)
        return EXIT_USAGE
    options = SynthOptions(issues=args.issues, seed=args.seed, text=args.text)
    if args.exports:
        written = write_synthetic_exports(site.root, out, options, site.vocabulary)
        print(
            _("{count} synthetic export files written to {out}").format(count=len(written), out=out)
        )
        return EXIT_OK
    written = write_synthetic_archive(site.root, out, options, site.vocabulary)
    print(_("{count} synthetic issues written to {out}").format(count=len(written), out=out))
    return EXIT_OK
