"""What story cards cost a build (issue 54), side by side (not a test).

``.venv/bin/python bench/story_bench.py 300 --runs 3``: one synthetic archive of N issues
(``radar synth``, as ``bench/build_bench.py`` makes it), copied twice: one site as it is,
one with ``radar_story_cards = False`` in its ``conf.py``. Each run builds both clean
(``python -m juju_radar.build.staged -j auto``, as ``make html``), then adds one issue to
each (a copy of the newest as the next day's) and builds again; the side that goes
first is swapped every run. It prints the medians of wall and CPU time of each side and
their ratio; ``--json`` keeps every sample. The machine is shared: only the ratios of
alternated runs mean anything.
"""

from __future__ import annotations

import argparse
import json
import shutil
import statistics
import sys
import tempfile
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

from build_bench import Run, next_issue, staged_build, synthesize  # noqa: E402

SIDES = ("cards", "no cards")
WITHOUT_CARDS = "\nradar_story_cards = False\n"


def sites(issues: int, workdir: Path) -> dict[str, Path]:
    """The archive, and a copy of it that draws no cards."""
    archive = workdir / "archive"
    synthesize(issues, archive)
    without = workdir / "without-cards"
    shutil.copytree(archive, without)
    conf = without / "conf.py"
    conf.write_text(conf.read_text(encoding="utf-8") + WITHOUT_CARDS, encoding="utf-8")
    return {"cards": archive, "no cards": without}


def one_run(srcdir: Path) -> tuple[Run, Run]:
    """A clean build of ``srcdir``, then one more issue and its build (both undone)."""
    shutil.rmtree(srcdir / "_build", ignore_errors=True)
    clean = staged_build(srcdir, "auto")
    before = set((srcdir / "issues").rglob("*.md"))
    next_issue(srcdir)
    added = staged_build(srcdir, "auto")
    for path in set((srcdir / "issues").rglob("*.md")) - before:
        path.unlink()
    return clean, added


def table(samples: dict[str, dict[str, list[Run]]]) -> str:
    rows = ["| step | time | cards | no cards | ratio |", "|---|---|---|---|---|"]
    for step in ("clean build", "add one issue"):
        for measure in ("cpu", "wall"):
            medians = [
                statistics.median(getattr(run, measure) for run in samples[side][step])
                for side in SIDES
            ]
            rows.append(
                f"| {step} | {measure.upper() if measure == 'cpu' else measure} "
                f"| {medians[0]:.1f} s | {medians[1]:.1f} s | {medians[0] / medians[1]:.2f} |"
            )
    return "\n".join(rows)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("issues", type=int)
    parser.add_argument("--runs", type=int, default=3)
    parser.add_argument("--json", type=Path, help="write every sample here")
    args = parser.parse_args()
    samples: dict[str, dict[str, list[Run]]] = {
        side: {"clean build": [], "add one issue": []} for side in SIDES
    }
    with tempfile.TemporaryDirectory(prefix="story-bench-") as folder:
        trees = sites(args.issues, Path(folder))
        for run in range(args.runs):
            for side in SIDES if run % 2 == 0 else tuple(reversed(SIDES)):
                clean, added = one_run(trees[side])
                samples[side]["clean build"].append(clean)
                samples[side]["add one issue"].append(added)
                print(
                    f"run {run + 1} {side}: clean {clean.cpu:.1f} s CPU {clean.wall:.1f} s"
                    f" wall, add {added.cpu:.1f} s CPU {added.wall:.1f} s wall",
                    flush=True,
                )
    print(table(samples))
    if args.json:
        as_dicts = {
            side: {step: [vars(run) for run in runs] for step, runs in steps.items()}
            for side, steps in samples.items()
        }
        args.json.write_text(json.dumps(as_dicts, indent=1), encoding="utf-8")


if __name__ == "__main__":
    main()
