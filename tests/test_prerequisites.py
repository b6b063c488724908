"""Without a browser or a client the tests need, the run fails and says what to install
(README's prerequisites): a run that skipped the browser tests would look green with no
browser coverage. Only make test-clients' TeX and Zotero may be missing."""

from __future__ import annotations

import subprocess
import sys

import conftest
from browser import lighthouse_audit
from conftest import ROOT

# A test module of its own, run by a pytest of its own: the session's browser fixture,
# with Chromium where there is none.
WITHOUT_CHROMIUM = """
import sys
from pathlib import Path

sys.path.insert(0, {tests!r})
import conftest

conftest.CHROMIUM = Path({missing!r})
from conftest import browser  # noqa: F401  (the fixture, as the browser tests use it)


def test_a_page(browser):
    pass
"""


def test_without_chromium_the_browser_tests_fail_saying_what_to_install(tmp_path):
    module = tmp_path / "test_without_chromium.py"
    missing = tmp_path / "no-chromium"
    module.write_text(WITHOUT_CHROMIUM.format(tests=str(ROOT / "tests"), missing=str(missing)))
    result = subprocess.run(
        [sys.executable, "-m", "pytest", "-q", "-p", "no:cacheprovider", str(module)],
        cwd=tmp_path,
        capture_output=True,
        text=True,
    )
    said = result.stdout + result.stderr
    assert result.returncode == 1, said
    assert "1 error" in said and "skipped" not in said, said
    assert f"{missing} is missing: apt-get install chromium" in said, said


def test_without_node_or_chromium_lighthouse_says_what_to_install(monkeypatch, tmp_path):
    monkeypatch.setattr(conftest, "CHROMIUM", tmp_path / "no-chromium")
    assert lighthouse_audit.missing_tools() == (
        f"{tmp_path / 'no-chromium'} is missing: apt-get install chromium fonts-noto-cjk "
        "fonts-noto-color-emoji (README, Prerequisites)"
    )
    monkeypatch.setenv("PATH", str(tmp_path))
    assert lighthouse_audit.missing_tools() == (
        "node is not installed: apt-get install nodejs npm (README, Prerequisites)"
    )
