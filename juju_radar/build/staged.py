"""``make html``: build beside the published site and publish it only on success.

Two build trees take turns, ``_build/trees/a`` and ``_build/trees/b``, each an ``html``
and a ``doctrees`` folder. ``_build/html`` and ``_build/doctrees`` are symbolic links into
the published tree, ``_build/spare`` a link to the other one (the tree published before
it, with its own doctree cache). A build updates the spare tree incrementally, from its
own state (a new spare tree starts as a copy of the published one), and on success
publishes it by pointing ``_build/html`` at it: a new link
renamed over the old one, which is atomic, so a reader always finds a whole site at
``_build/html``; nothing is copied. A failed build leaves the published site untouched
and deletes the half-built spare tree, so the next build starts it afresh and reports
the same warnings again instead of skipping the pages that raised them; a spare tree
without the ``complete`` mark (the build was interrupted) is deleted the same way.

Publishing flips three links, ``html`` first; a publish killed between two flips is
repaired by the next build, which points ``doctrees`` and ``spare`` to match ``html``.
One build at a time: a build holds ``fcntl.flock`` on ``_build/.lock``, and a second one
says "another build is running" and exits with status 1.

Its own lines are in the language sphinx-build reports in (``juju_radar.model.messages``):
the locale's, else ``radar_messages_language`` in conf.py, read as ``radar`` reads it.
"""

from __future__ import annotations

import fcntl
import os
import shutil
import subprocess
import sys
from pathlib import Path

from juju_radar.model.messages import _, choose_language
from juju_radar.model.site_layout import SiteConfigError, read_site_config
from juju_radar.sphinx_ext.config import accelerations_enabled


def source_date_epoch(srcdir: Path) -> str | None:
    """The last commit's time: dates in the output then do not depend on the clock."""
    if os.environ.get("SOURCE_DATE_EPOCH"):
        return os.environ["SOURCE_DATE_EPOCH"]
    try:
        result = subprocess.run(
            ["git", "-C", str(srcdir), "log", "-1", "--format=%ct"],
            capture_output=True,
            text=True,
            check=True,
        )
    except (OSError, subprocess.CalledProcessError):
        return None
    return result.stdout.strip() or None


SPARE = "spare"
TREES = "trees"
TREE_NAMES = ("a", "b")
LOCK = ".lock"
EXIT_BUSY = 1
# Set for the build a publish will follow: Sphinx's "The HTML pages are in ..." would name
# the spare tree, so the builder leaves it out and publish says where the site went.
STAGED_BUILD_ENV = "RADAR_STAGED_BUILD"
# Sphinx's whole log instead of the summary: RADAR_VERBOSE=1, or -v given to make html.
VERBOSE_ENV = "RADAR_VERBOSE"
VERBOSE_OPTIONS = frozenset({"-v", "-vv", "--verbose"})
SUMMARY = "radar-summary.txt"  # outputs.summary writes it
COMPLETE = "complete"  # in the spare tree: its folders are those of a finished build
# Left by the layout before the links (real folders swapped by renames).
FORMER_LEFTOVERS = ("swapping", "html.previous", "doctrees.previous")


class BuildBusy(Exception):
    """Another build holds the lock of this build folder."""


def hold_lock(build: Path) -> int:
    """Take the build folder's lock; the returned descriptor holds it until closed."""
    build.mkdir(parents=True, exist_ok=True)
    descriptor = os.open(build / LOCK, os.O_RDWR | os.O_CREAT, 0o644)
    try:
        fcntl.flock(descriptor, fcntl.LOCK_EX | fcntl.LOCK_NB)
    except BlockingIOError:
        os.close(descriptor)
        raise BuildBusy(
            _("another build is running in {build} (it holds {lock})").format(
                build=build, lock=build / LOCK
            )
        ) from None
    return descriptor


def point(build: Path, name: str, target: str) -> None:
    """Make ``build/name`` a link to ``target`` (relative to ``build``) in one rename."""
    scratch = build / f".{name}.link"
    scratch.unlink(missing_ok=True)
    scratch.symlink_to(target)
    os.replace(scratch, build / name)


def published_tree(build: Path) -> Path | None:
    html = build / "html"
    if not html.is_symlink():
        return None
    return (build / os.readlink(html)).parent


def spare_tree(build: Path) -> Path:
    published = published_tree(build)
    name = next(name for name in TREE_NAMES if published is None or published.name != name)
    return build / TREES / name


def adopt_former_layout(build: Path) -> None:
    """A build folder of the layout before the links: its html and doctrees folders
    become tree ``a`` (the one moment without ``_build/html``, once)."""
    html = build / "html"
    if not html.exists() and not html.is_symlink() and (build / "html.previous").is_dir():
        (build / "html.previous").rename(html)  # a swap of that layout killed halfway
    for leftover in FORMER_LEFTOVERS:
        shutil.rmtree(build / leftover, ignore_errors=True)
        (build / leftover).unlink(missing_ok=True)
    if not html.is_dir() or html.is_symlink():
        return
    tree = build / TREES / TREE_NAMES[0]
    shutil.rmtree(tree, ignore_errors=True)
    tree.mkdir(parents=True)
    if (build / "doctrees").is_dir() and not (build / "doctrees").is_symlink():
        (build / "doctrees").rename(tree / "doctrees")
    if (build / SPARE).is_dir() and not (build / SPARE).is_symlink():
        shutil.rmtree(build / SPARE)
    html.rename(tree / "html")
    point(build, "html", f"{TREES}/{tree.name}/html")


def settle_links(build: Path) -> None:
    """Point ``doctrees`` and ``spare`` to match ``html`` (a publish may have been killed
    between two flips)."""
    published = published_tree(build)
    if published is None:
        return
    point(build, "doctrees", f"{TREES}/{published.name}/doctrees")
    spare = spare_tree(build)
    if spare.exists():
        point(build, SPARE, f"{TREES}/{spare.name}")
    else:
        (build / SPARE).unlink(missing_ok=True)


def publish(build: Path, tree: Path) -> None:
    """Publish ``tree``; the one it replaces becomes the spare."""
    previous = published_tree(build)
    point(build, "html", f"{TREES}/{tree.name}/html")  # the moment of publishing
    point(build, "doctrees", f"{TREES}/{tree.name}/doctrees")
    if previous is not None and previous.exists():
        point(build, SPARE, f"{TREES}/{previous.name}")
        if (previous / "doctrees").exists():  # else its html has no cache to build upon
            (previous / COMPLETE).touch()
    else:
        (build / SPARE).unlink(missing_ok=True)


def discard(build: Path, tree: Path) -> None:
    shutil.rmtree(tree, ignore_errors=True)
    (build / SPARE).unlink(missing_ok=True)


def sphinx_command(srcdir: Path, outdir: Path, doctrees: Path, *options: str) -> list[str]:
    """The html build of ``srcdir`` into ``outdir``, as make html, tests and benchmarks run
    it: sphinx-build itself when the accelerations are off."""
    entry = "juju_radar.accel.sphinxbuild" if accelerations_enabled() else "sphinx"
    return [
        sys.executable,
        "-m",
        entry,
        "-b",
        "html",
        "-d",
        str(doctrees),
        *options,
        str(srcdir),
        str(outdir),
    ]


def build_site(srcdir: Path, build: Path, sphinx_args: list[str]) -> int:
    try:
        lock = hold_lock(build)
    except BuildBusy as busy:
        said = _("{reason}; try again when it has finished").format(reason=busy)
        print(f"radar: {said}", file=sys.stderr)
        return EXIT_BUSY
    try:
        return build_locked(srcdir, build, sphinx_args)
    finally:
        os.close(lock)


def prepare_spare(build: Path) -> Path:
    adopt_former_layout(build)
    settle_links(build)
    tree = spare_tree(build)
    if tree.exists() and not (tree / COMPLETE).exists():
        shutil.rmtree(tree)  # left by an interrupted build: its state is not to be trusted
    if not tree.exists():
        seed_from_published(build, tree)
    tree.mkdir(parents=True, exist_ok=True)
    (tree / COMPLETE).unlink(missing_ok=True)
    point(build, SPARE, f"{TREES}/{tree.name}")
    return tree


def seed_from_published(build: Path, tree: Path) -> None:
    """A new spare tree starts as a copy of the published one, so that its first build
    is incremental too (a fresh deploy would otherwise build the whole site twice)."""
    published = published_tree(build)
    if published is None or not (published / "doctrees").is_dir():
        return
    scratch = tree.with_name(f".{tree.name}.seeding")
    shutil.rmtree(scratch, ignore_errors=True)
    for folder in ("html", "doctrees"):
        shutil.copytree(published / folder, scratch / folder, symlinks=True)
    scratch.rename(tree)


def build_locked(srcdir: Path, build: Path, sphinx_args: list[str]) -> int:
    tree = prepare_spare(build)
    env = dict(os.environ)
    epoch = source_date_epoch(srcdir)
    if epoch:
        env["SOURCE_DATE_EPOCH"] = epoch
    env[STAGED_BUILD_ENV] = "1"
    verbose = os.environ.get(VERBOSE_ENV) == "1" or bool(VERBOSE_OPTIONS & set(sphinx_args))
    quiet = [] if verbose else ["-q"]  # warnings and errors only, then our summary
    command = sphinx_command(
        srcdir, tree / "html", tree / "doctrees", "-W", "--keep-going", *quiet, *sphinx_args
    )
    (tree / "doctrees" / SUMMARY).unlink(missing_ok=True)
    status = subprocess.run(command, env=env).returncode
    if status != 0:
        discard(build, tree)
        print(
            _("build failed (exit {status}): {site} still holds the last good site").format(
                status=status, site=build / "html"
            ),
            file=sys.stderr,
        )
        return status
    publish(build, tree)
    summary = tree / "doctrees" / SUMMARY
    if not verbose and summary.is_file():
        print(summary.read_text(encoding="utf-8"), end="")
    print(_("site built in {site}").format(site=build / "html"))
    return 0


def site_language(srcdir: Path) -> object:
    """``radar_messages_language`` in the site's conf.py, read as ``radar`` reads it;
    None when it cannot be run (sphinx-build then says why)."""
    try:
        return read_site_config(srcdir).get("radar_messages_language")
    except SiteConfigError:
        return None


def main(argv: list[str] | None = None) -> int:
    args = list(sys.argv[1:] if argv is None else argv)
    srcdir = Path.cwd()
    choose_language(None, lambda: site_language(srcdir))
    return build_site(srcdir, srcdir / "_build", args)


if __name__ == "__main__":
    sys.exit(main())
