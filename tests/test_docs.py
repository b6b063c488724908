"""The documentation (docs/, `make docs`): it builds without a warning, its tables of codes
are the registry's, it is not part of the archive, and README stays short."""

from __future__ import annotations

import os
import re
import shutil
import subprocess
import sys

import pytest
from conftest import ROOT, copy_site, deprecations_fail

from juju_radar.editors import cli
from juju_radar.model import codes
from juju_radar.model.site_layout import is_not_site, site_files

DOCS = ROOT / "docs"
README_LIMIT = 6 * 1024


@pytest.mark.site
def test_the_docs_build_without_warnings_and_list_every_code(tmp_path):
    out = tmp_path / "html"
    command = [sys.executable, "-m", "sphinx", "-W", "--keep-going", "-n", "-q", "--no-color"]
    command += ["-b", "html", "-d", str(tmp_path / "doctrees"), str(DOCS), str(out)]
    env = {**os.environ, "PYTHONWARNINGS": deprecations_fail()}
    result = subprocess.run(command, capture_output=True, text=True, env=env)
    assert result.returncode == 0, result.stdout + result.stderr
    page = (out / "reference" / "codes.html").read_text(encoding="utf-8")
    shown = set(re.findall(r'<span class="pre">([a-z]+(?:-[a-z]+)*)</span>', page))
    assert not codes.names() - shown, sorted(codes.names() - shown)


def test_readme_is_short_and_its_links_resolve():
    readme = ROOT / "README.md"
    assert len(readme.read_bytes()) <= README_LIMIT
    for target in re.findall(r"\]\(([^)#]+)(?:#[^)]*)?\)", readme.read_text(encoding="utf-8")):
        if "://" not in target:
            assert (ROOT / target).exists(), target


def test_every_docs_page_is_in_the_documentation_not_in_the_archive(tmp_path, capsys):
    assert is_not_site("docs")
    site = copy_site(tmp_path / "src")
    shutil.copytree(DOCS, site / "docs", ignore=shutil.ignore_patterns("__pycache__"))
    # What the archive refuses in a page, which the documentation may hold.
    (site / "docs" / "hostile.md").write_text(
        "# Hostile\n\n```{eval-rst}\n.. raw:: html\n\n   <script>alert(1)</script>\n```\n\n"
        "![x](https://example.org/x.png) <b>raw</b>\n",
        encoding="utf-8",
    )
    assert not [path for path in site_files(site, ".md") if "docs" in path.parts]
    assert cli.main(["--root", str(site), "check"]) == 0
    captured = capsys.readouterr()
    assert "docs/" not in captured.out + captured.err
