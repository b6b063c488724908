"""Lighthouse (``tests/browser/lighthouse``, installed by ``make test`` from its lock
file) over pages of a served site, in one Chromium (``lighthouse/audit.mjs``).

Used by ``tests/browser/test_lighthouse.py`` (accessibility, best practices and SEO) and
``bench/lighthouse_bench.py`` (performance, a timing).
"""

from __future__ import annotations

import json
import shutil
import subprocess
from pathlib import Path
from typing import Any

from conftest import CHROMIUM, chromium_missing

LIGHTHOUSE_DIR = Path(__file__).resolve().parent / "lighthouse"
# The front page, an issue, a topic, the archive, the search page and the statistics page
# of the seed site with the second issue.
PAGES = [
    "index.html",
    "issues/2026/2026-09-08.html",
    "issues/2026/2026-09-08/tau-bench-customer-service.html",
    "topics/agent.html",
    "issues/index.html",
    "search.html?q=Agent",
    "stats.html",
    "subscribe.html",
]
# A hang guard, not a measure: a page takes about 10 s (audit.mjs gives Chromium and the
# page minutes of their own before Lighthouse gives up on them).
SECONDS_A_PAGE = 600


def missing_tools() -> str | None:
    """What to install for Lighthouse to run (README's prerequisites), if anything."""
    if shutil.which("node") is None:
        return "node is not installed: apt-get install nodejs npm (README, Prerequisites)"
    if not (LIGHTHOUSE_DIR / "node_modules" / "lighthouse").is_dir():
        return f"Lighthouse is not installed: make test installs it into {LIGHTHOUSE_DIR}"
    return chromium_missing()


def run_lighthouse(urls: list[str], categories: tuple[str, ...]) -> dict[str, dict[str, Any]]:
    """Each page's report, audited in turn in one Chromium."""
    result = subprocess.run(
        ["node", str(LIGHTHOUSE_DIR / "audit.mjs"), str(CHROMIUM), ",".join(categories), *urls],
        capture_output=True,
        text=True,
        timeout=SECONDS_A_PAGE * len(urls),
    )
    if result.returncode != 0:
        raise RuntimeError(f"Lighthouse failed:\n{result.stderr[-3000:]}")
    by_url: dict[str, dict[str, Any]] = json.loads(result.stdout)
    shown = [by_url[url]["finalDisplayedUrl"] for url in urls]
    if shown != urls:
        raise RuntimeError(f"Lighthouse audited {shown}, not {urls}")
    return by_url


def scores(report: dict[str, Any]) -> dict[str, int]:
    """Each category's score out of 100 (a page Lighthouse could not audit fails here)."""
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
