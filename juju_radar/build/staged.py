"""``make html``: build beside the published site and swap it in only on success.

Two build trees take turns: ``_build/html`` + ``_build/doctrees`` (published) and
``_build/spare/`` (the tree published before it, with its own doctree cache). A build
updates the spare tree incrementally, from its own state, and on success the two swap
places by renaming; nothing is copied (at 1,000 issues a copy of the published tree
was 15,000 files, 5 s per build). A failed build leaves the published site untouched
and deletes the half-built spare tree, so the next build starts it afresh and reports
the same warnings again instead of skipping the pages that raised them; a spare tree
without the ``complete`` mark (the build was interrupted) is deleted the same way.

A swap is two renames per tree (html, then doctrees) and is journalled: a swap killed
halfway leaves ``_build/swapping``, and the next build puts a complete html tree back
in place and drops the doctrees, which may belong to the other tree.
"""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
from pathlib import Path

PUBLISHED = ("html", "doctrees")


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
# Set for the build a swap will publish: Sphinx's "The HTML pages are in ..." would name
# the spare tree, so the builder leaves it out and publish says where the site went.
STAGED_BUILD_ENV = "RADAR_STAGED_BUILD"
COMPLETE = "complete"  # in the spare folder: its trees are those of a finished build
SWAPPING = "swapping"  # in the build folder while a swap is under way


def swap(build: Path, spare: Path) -> None:
    """Publish the trees in ``spare``; the ones they replace become the spare."""
    journal = build / SWAPPING
    journal.touch()
    for name in PUBLISHED:
        previous = build / f"{name}.previous"
        if (build / name).exists():
            (build / name).rename(previous)
        (spare / name).rename(build / name)
        if previous.exists():
            previous.rename(spare / name)
    journal.unlink()


def recover_from_interrupted_swap(build: Path, spare: Path) -> None:
    """After a swap killed halfway: publish a complete html tree (the old one if the new
    one had not moved in yet) and drop every doctree cache, since which pages a cache
    describes is no longer known; both trees are then built from scratch."""
    for name in PUBLISHED:
        previous = build / f"{name}.previous"
        if previous.exists() and not (build / name).exists():
            previous.rename(build / name)
        shutil.rmtree(previous, ignore_errors=True)
    shutil.rmtree(build / "doctrees", ignore_errors=True)
    shutil.rmtree(spare, ignore_errors=True)
    (build / SWAPPING).unlink()
    print("an interrupted publish was cleaned up; this build starts afresh", file=sys.stderr)


def sphinx_command(srcdir: Path, outdir: Path, doctrees: Path, *options: str) -> list[str]:
    """The html build of ``srcdir`` into ``outdir``, as make html, tests and benchmarks run it."""
    return [
        sys.executable,
        "-m",
        "juju_radar.build.sphinxbuild",
        "-b",
        "html",
        "-d",
        str(doctrees),
        *options,
        str(srcdir),
        str(outdir),
    ]


def build_site(srcdir: Path, build: Path, sphinx_args: list[str]) -> int:
    spare = build / SPARE
    if (build / SWAPPING).exists():
        recover_from_interrupted_swap(build, spare)
    if spare.exists() and not (spare / COMPLETE).exists():
        shutil.rmtree(spare)  # left by an interrupted build: its state is not to be trusted
    spare.mkdir(parents=True, exist_ok=True)
    (spare / COMPLETE).unlink(missing_ok=True)
    env = dict(os.environ)
    epoch = source_date_epoch(srcdir)
    if epoch:
        env["SOURCE_DATE_EPOCH"] = epoch
    env[STAGED_BUILD_ENV] = "1"
    command = sphinx_command(
        srcdir, spare / "html", spare / "doctrees", "-W", "--keep-going", *sphinx_args
    )
    status = subprocess.run(command, env=env).returncode
    if status != 0:
        shutil.rmtree(spare, ignore_errors=True)
        print(
            f"build failed (exit {status}): {build / 'html'} still holds the last good site",
            file=sys.stderr,
        )
        return status
    swap(build, spare)
    if (spare / "doctrees").exists():  # else its html has no cache to build upon
        (spare / COMPLETE).touch()
    print(f"site built in {build / 'html'}")
    return 0


def main(argv: list[str] | None = None) -> int:
    args = list(sys.argv[1:] if argv is None else argv)
    srcdir = Path.cwd()
    return build_site(srcdir, srcdir / "_build", args)


if __name__ == "__main__":
    sys.exit(main())
