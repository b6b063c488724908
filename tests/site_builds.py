"""Whole-site builds to compare: a clean build at a fixed epoch, and the files two
builds differ in (the tests of incremental, parallel and accelerated builds share them)."""

from __future__ import annotations

import hashlib
import os
import shutil
from pathlib import Path

from conftest import sphinx_build

EPOCH = "1788000000"  # SOURCE_DATE_EPOCH of builds whose files are compared


def epoch_env() -> dict[str, str]:
    """This process's environment as it is now, with the fixed epoch."""
    return dict(os.environ, SOURCE_DATE_EPOCH=EPOCH)


EPOCH_ENV = epoch_env()  # as the module was imported


def tree(outdir: Path) -> dict[str, str]:
    return {
        path.relative_to(outdir).as_posix(): hashlib.sha256(path.read_bytes()).hexdigest()
        for path in sorted(outdir.rglob("*"))
        if path.is_file()
    }


def differences(left: Path, right: Path) -> list[str]:
    a, b = tree(left), tree(right)
    return sorted(name for name in a.keys() | b.keys() if a.get(name) != b.get(name))


def clean_build(srcdir: Path, outdir: Path, *extra: str) -> Path:
    shutil.rmtree(outdir, ignore_errors=True)
    shutil.rmtree(outdir.parent / f"{outdir.name}.doctrees", ignore_errors=True)
    sphinx_build(srcdir, outdir, *extra, env=EPOCH_ENV)
    return outdir
