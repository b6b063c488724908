"""``make html``: build into a staging copy and replace ``_build/html`` only on success.

The doctree cache is staged with the site, so a failed build leaves both the last
good site and the cache it was built from; the next build then reports the same
warnings again instead of skipping the pages that raised them.
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


def stage(build: Path) -> Path:
    staging = build / "staging"
    shutil.rmtree(staging, ignore_errors=True)
    staging.mkdir(parents=True)
    for name in PUBLISHED:
        if (build / name).is_dir():
            shutil.copytree(build / name, staging / name, symlinks=True)
    return staging


def promote(build: Path, staging: Path) -> None:
    for name in PUBLISHED:
        old = build / f"{name}.old"
        shutil.rmtree(old, ignore_errors=True)
        if (build / name).exists():
            (build / name).rename(old)
        (staging / name).rename(build / name)
        shutil.rmtree(old, ignore_errors=True)
    shutil.rmtree(staging, ignore_errors=True)


def sphinx_command(srcdir: Path, outdir: Path, doctrees: Path, *options: str) -> list[str]:
    """The html build of ``srcdir`` into ``outdir``, as make html, tests and benchmarks run it."""
    return [
        sys.executable,
        "-m",
        "sphinx",
        "-b",
        "html",
        "-d",
        str(doctrees),
        *options,
        str(srcdir),
        str(outdir),
    ]


def build_site(srcdir: Path, build: Path, sphinx_args: list[str]) -> int:
    staging = stage(build)
    env = dict(os.environ)
    epoch = source_date_epoch(srcdir)
    if epoch:
        env["SOURCE_DATE_EPOCH"] = epoch
    command = sphinx_command(
        srcdir, staging / "html", staging / "doctrees", "-W", "--keep-going", *sphinx_args
    )
    status = subprocess.run(command, env=env).returncode
    if status != 0:
        shutil.rmtree(staging, ignore_errors=True)
        print(
            f"build failed (exit {status}): {build / 'html'} still holds the last good site",
            file=sys.stderr,
        )
        return status
    promote(build, staging)
    print(f"site built in {build / 'html'}")
    return 0


def main(argv: list[str] | None = None) -> int:
    args = list(sys.argv[1:] if argv is None else argv)
    srcdir = Path.cwd()
    return build_site(srcdir, srcdir / "_build", args)


if __name__ == "__main__":
    sys.exit(main())
