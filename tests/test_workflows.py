"""The deploy workflow: linted by actionlint and zizmor, and doing what README says."""

from __future__ import annotations

import re
import shutil
import subprocess
import sys
from pathlib import Path

import yaml
from conftest import ROOT

WORKFLOWS = ROOT / ".github" / "workflows"
DEPLOY = WORKFLOWS / "deploy.yml"
PINNED = re.compile(r"^[\w.-]+/[\w./-]+@[0-9a-f]{40} # v\d+\.\d+\.\d+$")


def tool(name: str) -> str | None:
    """The tool from this environment's bin folder, else from PATH."""
    beside = Path(sys.executable).parent / name
    return str(beside) if beside.exists() else shutil.which(name)


def workflow() -> dict:
    return yaml.safe_load(DEPLOY.read_text(encoding="utf-8"))


def steps(job: str) -> list[dict]:
    return workflow()["jobs"][job]["steps"]


def test_zizmor_reports_nothing():
    zizmor = tool("zizmor")
    assert zizmor, "zizmor is a test dependency"
    result = subprocess.run(
        [zizmor, "--offline", "--no-progress", str(WORKFLOWS)], capture_output=True, text=True
    )
    assert result.returncode == 0, result.stdout + result.stderr
    assert "No findings to report" in result.stdout


def actionlint(*workflows: Path) -> subprocess.CompletedProcess:
    """actionlint over the workflows, with ShellCheck on their `run:` scripts."""
    linter, shellcheck = tool("actionlint"), tool("shellcheck")
    assert linter and shellcheck, "actionlint and ShellCheck are test dependencies"
    return subprocess.run(
        [linter, "-no-color", f"-shellcheck={shellcheck}", *map(str, workflows)],
        capture_output=True,
        text=True,
    )


def test_actionlint_reports_nothing():
    result = actionlint(*sorted(WORKFLOWS.glob("*.yml")))
    assert (result.returncode, result.stdout) == (0, ""), result.stdout + result.stderr


def test_actionlint_reports_a_wrong_expression_and_an_unquoted_shell_variable(tmp_path):
    broken = tmp_path / "broken.yml"
    broken.write_text(
        "on: push\n"
        "jobs:\n"
        "  build:\n"
        "    runs-on: ubuntu-24.04\n"
        "    steps:\n"
        "      - run: echo ${{ site.url }}\n"
        "      - run: cd $HOME/$1\n",
        encoding="utf-8",
    )
    result = actionlint(broken)
    assert result.returncode == 1
    assert 'broken.yml:6:23: undefined variable "site"' in result.stdout, result.stdout
    assert "broken.yml:7:" in result.stdout and "SC2086" in result.stdout, result.stdout


def test_every_action_is_pinned_to_a_commit_with_its_version_named():
    uses = re.findall(r"uses: (.+)", DEPLOY.read_text(encoding="utf-8"))
    assert len(uses) >= 6
    for use in uses:
        assert PINNED.match(use), use
        assert use.startswith("actions/"), "only GitHub's own actions"


def test_the_build_gets_the_address_from_pages_and_refuses_to_deploy_without_it():
    build = steps("build")
    pages = next(step for step in build if step.get("id") == "pages")
    assert pages["uses"].startswith("actions/configure-pages@")
    make = next(step for step in build if step.get("run") == "make html")
    assert make["env"] == {
        "RADAR_SITE_URL": "${{ steps.pages.outputs.base_url }}",
        "RADAR_DEPLOY": "1",
    }
    assert build.index(pages) < build.index(make)


def test_the_build_caches_are_restored_before_and_saved_after_the_build():
    build = steps("build")
    names = [step.get("uses", "").split("@")[0] or step.get("run") for step in build]
    restore = names.index("actions/cache/restore")
    save = names.index("actions/cache/save")
    assert restore < names.index("make html") < save
    assert build[restore]["with"]["path"] == build[save]["with"]["path"] == "_build"
    assert build[restore]["with"]["restore-keys"]  # yesterday's cache when today's is new


def test_the_upload_takes_the_folder_html_links_to_and_deploy_publishes_it():
    build = steps("build")
    locate = next(step for step in build if step.get("id") == "site")
    assert "readlink -f _build/html" in locate["run"]
    upload = next(step for step in build if "upload-pages-artifact" in step.get("uses", ""))
    assert upload["with"]["path"] == "${{ steps.site.outputs.path }}"
    jobs = workflow()["jobs"]
    assert jobs["build"]["needs"] == ["changes", "test"]
    assert jobs["deploy"]["needs"] == "build"
    assert steps("deploy")[0]["uses"].startswith("actions/deploy-pages@")
    assert jobs["deploy"]["permissions"] == {"pages": "write", "id-token": "write"}


def test_links_are_checked_on_a_schedule_and_tests_run_on_push():
    flow = workflow()
    triggers = flow[True]  # YAML 1.1 reads the key `on` as true
    assert triggers["push"]["branches"] == ["main"]
    assert triggers["schedule"]
    links = flow["jobs"]["links"]
    assert links["if"] == "github.event_name == 'schedule'"
    runs = [step.get("run") for step in steps("links")]
    assert ".venv/bin/radar links _build/html" in runs
    external = ".venv/bin/radar links --external --report _build/external-links.json"
    assert runs[-2] == external  # then its report is kept as an artifact
    kept = steps("links")[-1]
    assert kept["uses"].startswith("actions/upload-artifact@")
    assert kept["with"]["path"] == "_build/external-links.json"
    assert any(step.get("run") == "bash .ci/run" for step in steps("test"))


def change_kind():
    sys.path.insert(0, str(ROOT / "tools"))
    try:
        import change_kind

        return change_kind
    finally:
        sys.path.pop(0)


def test_a_push_of_content_only_skips_the_test_suite_and_is_still_checked():
    kinds = change_kind()
    assert kinds.kind(["issues/2026/2026-12-03.md", "references.bib"]) == "content"
    assert kinds.kind(["topics/agent.md", "index.md"]) == "content"
    for code in ("conf.py", "juju_radar/model/issue_reader.py", "tests/test_cli.py", "Makefile"):
        assert kinds.kind(["issues/2026/2026-12-03.md", code]) == "code", code
    for code in ("locales/zh_CN/LC_MESSAGES/sphinx.po", ".github/workflows/deploy.yml"):
        assert kinds.kind([code]) == "code", code
    assert kinds.kind([]) == "code"
    assert kinds.main(["0" * 40, "HEAD"]) == "code"  # a first push: everything runs
    jobs = workflow()["jobs"]
    assert "needs.changes.outputs.kind != 'content'" in jobs["test"]["if"]
    assert "needs.changes.outputs.kind == 'content'" in jobs["build"]["if"]
    runs = [step.get("run") for step in steps("build")]
    assert ".venv/bin/radar check --quiet" in runs
    # The links of the pages the build wrote; the scheduled job checks every page.
    stamp = runs.index("mkdir -p _build && touch _build/build-started")
    assert stamp < runs.index("make html")
    assert ".venv/bin/radar links --newer-than _build/build-started _build/html" in runs


def test_the_kind_of_real_commits(tmp_path):
    git = ["git", "-C", str(tmp_path), "-c", "user.name=t", "-c", "user.email=t@example.org"]
    subprocess.run([*git, "init", "-q"], check=True)

    def commit(path: str) -> str:
        (tmp_path / path).parent.mkdir(parents=True, exist_ok=True)
        (tmp_path / path).write_text(path, encoding="utf-8")
        subprocess.run([*git, "add", "."], check=True)
        subprocess.run([*git, "commit", "-qm", path], check=True)
        return subprocess.run(
            [*git, "rev-parse", "HEAD"], capture_output=True, text=True, check=True
        ).stdout.strip()

    def kind_since(revision: str) -> str:
        script = str(ROOT / "tools" / "change_kind.py")
        result = subprocess.run(
            [sys.executable, script, revision, "HEAD"], cwd=tmp_path, capture_output=True, text=True
        )
        return result.stdout.strip()

    first = commit("issues/2026/a.md")
    commit("issues/2026/b.md")
    assert kind_since(first) == "content"
    commit("conf.py")
    assert kind_since(first) == "code"
    assert kind_since("not-a-revision") == "code"
