"""Lighthouse's scores of the built site, on a phone (its default, mobile preset).

Lighthouse 12.2.3 (``tests/browser/lighthouse``, installed by ``make test`` from its lock
file) drives Debian's Chromium over the seed site plus the second issue, served gzipped
on 127.0.0.1 under ``/archive/``: the front page, an issue, a topic, the archive, the
search page and the statistics page. Issue 29 asks for accessibility, best practices
and SEO at 100 and performance at 98 or more.
"""

from __future__ import annotations

import json
import subprocess
from collections.abc import Callable
from typing import Any

import pytest
from conftest import ROOT

pytestmark = pytest.mark.browser

LIGHTHOUSE_DIR = ROOT / "tests" / "browser" / "lighthouse"
CHROMIUM = "/usr/bin/chromium"
PAGES = [
    "index.html",
    "issues/2026/2026-09-08.html",
    "topics/agent.html",
    "issues/index.html",
    "search.html?q=Agent",
    "stats.html",
]
CATEGORIES = ("performance", "accessibility", "best-practices", "seo")
FULL_MARKS = ("accessibility", "best-practices", "seo")
# A timing, so issue 29's target (98) is measured on a quiet machine, not tested (README);
# the test keeps a floor against regressions. It runs beside the rest of the suite:
# Lighthouse simulates the phone from what it observed (its default, "simulate"), and
# every page scored 97 to 100 under the suite's full load (five runs of the six pages).
PERFORMANCE_FLOOR = 90
# Lighthouse's own advice for a score that varies between runs (docs/variability.md): run
# it several times and take the median. A page under the floor is audited twice more, and
# the median of its three scores is held to it: once, under a slow hour's load, the search
# page scored 87 (its total blocking time 470 ms).
RUNS_BELOW_THE_FLOOR = 3


@pytest.fixture(scope="module")
def reports(two_issue_site_url: str) -> Callable[[str], dict[str, Any]]:
    """Lighthouse's report of each page, all run at once (about 10 s a page)."""
    if not (LIGHTHOUSE_DIR / "node_modules" / "lighthouse").is_dir():
        pytest.fail(f"Lighthouse is not installed: make test installs it into {LIGHTHOUSE_DIR}")
    by_url = run_lighthouse([two_issue_site_url + path for path in PAGES])
    return lambda path: by_url[two_issue_site_url + path]


def run_lighthouse(
    urls: list[str], categories: tuple[str, ...] = CATEGORIES
) -> dict[str, dict[str, Any]]:
    """Each page's report, audited in turn in one Chromium (``lighthouse/audit.mjs``)."""
    result = subprocess.run(
        ["node", str(LIGHTHOUSE_DIR / "audit.mjs"), CHROMIUM, ",".join(categories), *urls],
        capture_output=True,
        text=True,
        timeout=120 * len(urls),
    )
    assert result.returncode == 0, result.stderr[-3000:]
    by_url: dict[str, dict[str, Any]] = json.loads(result.stdout)
    assert [by_url[url]["finalDisplayedUrl"] for url in urls] == urls
    return by_url


def scores(report: dict[str, Any]) -> dict[str, int]:
    return {key: round(category["score"] * 100) for key, category in report["categories"].items()}


def failing_audits(report: dict[str, Any], category: str) -> list[str]:
    """The weighted audits of ``category`` short of full marks, with what they found."""
    audits = report["audits"]
    return [
        f"{ref['id']} ({audits[ref['id']]['score']}: {audits[ref['id']].get('displayValue', '')})"
        for ref in report["categories"][category]["auditRefs"]
        if ref["weight"] > 0
        and audits[ref["id"]]["score"] is not None
        and audits[ref["id"]]["score"] < 1
    ]


@pytest.mark.parametrize("path", PAGES)
def test_accessibility_best_practices_and_seo_score_100(reports: Any, path: str) -> None:
    report = reports(path)
    assert {key: scores(report)[key] for key in FULL_MARKS} == dict.fromkeys(FULL_MARKS, 100), {
        key: failing_audits(report, key) for key in FULL_MARKS
    }


@pytest.mark.parametrize("path", PAGES)
def test_performance_stays_above_its_floor(
    reports: Any, two_issue_site_url: str, path: str
) -> None:
    url = two_issue_site_url + path
    found = [reports(path)]
    if scores(found[0])["performance"] < PERFORMANCE_FLOOR:
        found += [
            run_lighthouse([url], ("performance",))[url] for _ in range(RUNS_BELOW_THE_FLOOR - 1)
        ]
    performance = sorted(scores(report)["performance"] for report in found)
    assert performance[len(performance) // 2] >= PERFORMANCE_FLOOR, (
        performance,
        [failing_audits(report, "performance") for report in found],
    )
