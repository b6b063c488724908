"""Preview benchmark (not a test): ``.venv/bin/python bench/preview_bench.py SITE``.

Starts ``radar serve`` on SITE (waiting for its first build: on a site never previewed,
a full build), saves an edit of one sentence of the newest issue, and polls the served
page over HTTP until the new sentence shows; then a second edit the same way. Prints
the seconds from each save to the page showing it. The edits are undone afterwards.
"""

from __future__ import annotations

import argparse
import json
import re
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path[:0] = [str(ROOT / "tests")]

from live_preview import radar_serve, replace_once  # noqa: E402

from juju_radar.model.issue_records import is_issue_path  # noqa: E402

# A sentence of an issue's body: Chinese text ending with 。 on a line of its own text.
SENTENCE_RE = re.compile(r"^[^:%#\-\s`>][^\n]*?。", re.MULTILINE)


def newest_issue(srcdir: Path) -> Path:
    issues = [
        path
        for path in (srcdir / "issues").rglob("*.md")
        if is_issue_path(path.relative_to(srcdir).as_posix())
    ]
    return max(issues, key=lambda path: path.name)


def body_sentence(text: str) -> str:
    """The first sentence after the front matter."""
    body_start = text.index("\n---", 3) + 4
    found = SENTENCE_RE.search(text, body_start)
    assert found is not None, "no sentence in the issue's body"
    return found.group(0)


def preview_seconds(srcdir: Path) -> dict[str, float]:
    """Seconds from saving an edit of the newest issue to ``radar serve`` serving it: the
    first save after the preview started, and a second one."""
    issue = newest_issue(srcdir)
    page = issue.relative_to(srcdir).with_suffix(".html").as_posix()
    original = issue.read_text(encoding="utf-8")
    sentence = body_sentence(original)
    seconds: dict[str, float] = {}
    try:
        with radar_serve(srcdir, start_timeout=3600) as preview:
            current = sentence
            for run in ("first_edit_s", "second_edit_s"):
                edited = f"{sentence.removesuffix('。')}（预览基准 {run} {time.time_ns()}）。"
                saved = replace_once(issue, current, edited)
                # live_preview's hang guard (its tests and the bench's smoke run share it)
                seconds[run] = preview.seconds_until_shown(page, edited, saved)
                current = edited
    finally:
        issue.write_text(original, encoding="utf-8")
    return seconds


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("site", type=Path, help="a site folder (holding conf.py)")
    args = parser.parse_args()
    print(json.dumps(preview_seconds(args.site.resolve()), indent=2))


if __name__ == "__main__":
    main()
