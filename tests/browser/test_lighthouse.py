"""Lighthouse's scores of the built site, on a phone (its default, mobile preset).

Lighthouse 12.2.3 (``tests/browser/lighthouse``, installed by ``make test`` from its lock
file) drives Debian's Chromium over the seed site plus the second issue, served gzipped
on 127.0.0.1 under ``/archive/``: the front page, an issue, a topic, the archive, the
search page and the statistics page. Issue 29 asks for accessibility, best practices
and SEO at 100, which do not depend on the machine's load, and performance at 98 or
more: a timing, measured by ``make bench`` (``bench/lighthouse_bench.py``), not tested.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import pytest

from .lighthouse_audit import PAGES, failing_audits, missing_tools, run_lighthouse, scores

pytestmark = pytest.mark.browser

FULL_MARKS = ("accessibility", "best-practices", "seo")


@pytest.fixture(scope="module")
def reports(two_issue_site_url: str) -> Callable[[str], dict[str, Any]]:
    """Lighthouse's report of each page, all run at once (about 10 s a page)."""
    missing = missing_tools()
    if missing:
        pytest.fail(missing, pytrace=False)
    by_url = run_lighthouse([two_issue_site_url + path for path in PAGES], FULL_MARKS)
    return lambda path: by_url[two_issue_site_url + path]


@pytest.mark.parametrize("path", PAGES)
def test_accessibility_best_practices_and_seo_score_100(reports: Any, path: str) -> None:
    report = reports(path)
    assert {key: scores(report)[key] for key in FULL_MARKS} == dict.fromkeys(FULL_MARKS, 100), {
        key: failing_audits(report, key) for key in FULL_MARKS
    }
