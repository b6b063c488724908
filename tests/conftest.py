"""Shared fixtures: copies of the site in temporary folders, built with the real Sphinx."""

from __future__ import annotations

import contextlib
import faulthandler
import gc
import io
import os
import pickle
import shutil
import subprocess
import sys
import tomllib
from collections.abc import Callable, Iterator
from functools import partial
from pathlib import Path
from typing import Any, TypeVar, cast

import pytest
from filelock import FileLock
from hypothesis import settings

from juju_radar.accel.register import FROZEN_OBJECTS
from juju_radar.build.preview import forget_loaded_catalogues
from juju_radar.build.staged import sphinx_command
from juju_radar.model.messages import use_language
from juju_radar.model.site_layout import NOT_SITE
from juju_radar.model.vocabulary import Vocabulary, vocabulary_from_config
from juju_radar.outputs.siteurl import DEPLOY_ENV, SITE_URL_ENV
from juju_radar.sphinx_ext.config import ACCEL_OFF_ENV

sys.path.insert(0, str(Path(__file__).resolve().parent / "guard"))
import live_content_guard  # noqa: E402  (on the path just above)

FAST_RUN = "RADAR_TEST_FAST"


def examples(count: int) -> int:
    """How many examples a property test draws: ``count`` in make test, a quarter of
    them (at least 25) in make test-fast, which is the quick loop while editing."""
    return max(25, count // 4) if os.environ.get(FAST_RUN) == "1" else count


# No per-example deadline: the suite runs on every core at once (make test), so an
# example's time measures the machine's load, not the code; speed is the benchmark's.
settings.register_profile("radar", deadline=None, max_examples=examples(100))
settings.load_profile("radar")

# The suite reads the tools' messages in English, their msgids (and so does every
# sphinx-build and radar it starts); tests of the Chinese messages ask for them
# (tests/test_messages.py). The seed site's conf.py sets Chinese, as the archive's does.
os.environ["LANGUAGE"] = "en"

CHROMIUM = Path("/usr/bin/chromium")
# How long a browser test waits for a page, a script or a selector: a guard against a hang
# only. A loaded machine is slow, not wrong; how fast the pages are is measured by make
# bench (Lighthouse's performance), not tested.
BROWSER_WAIT_MS = 300_000
CHROMIUM_ARGS = [
    "--headless",
    "--no-sandbox",
    "--disable-gpu",
    "--disable-quic",
    "--no-first-run",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
]

ROOT = Path(__file__).resolve().parent.parent
ROOTS = ROOT / "tests" / "roots"
# The tests' own site: the seed issue, its references and the site's pages and
# configuration as of the first issue. The live issues/ and references.bib grow every
# day and are never read by a test.
SEED_SITE = ROOTS / "test-seed"
# The editors' export of the first issue (shared/seeds/000_40a489d524cf73b1.txt), kept
# with the tests so they run wherever the repository is cloned.
SEED_EXPORT = ROOT / "tests" / "fixtures" / "seed" / "2026-09-08.txt"


@pytest.fixture(autouse=True)
def english_messages() -> Iterator[None]:
    """A test that asked radar for Chinese in this process leaves English behind."""
    use_language("en")
    yield
    use_language("en")


def seed_conf_vocabulary() -> dict[str, Any]:
    """The seed site's ``radar_topics`` and ``radar_verdicts``, as conf.py writes them."""
    conf: dict[str, Any] = {}
    exec((SEED_SITE / "conf.py").read_text(encoding="utf-8"), conf)
    return {name: conf[name] for name in ("radar_topics", "radar_verdicts")}


def seed_vocabulary() -> Vocabulary:
    conf = seed_conf_vocabulary()
    return vocabulary_from_config(conf["radar_topics"], conf["radar_verdicts"])


def copy_site(dest: Path) -> Path:
    """A copy of the tests' seed site (without what a command run in it left)."""
    shutil.copytree(SEED_SITE, dest, ignore=shutil.ignore_patterns("_build"))
    return dest


def deprecations_fail() -> str:
    """pytest's ``filterwarnings`` from pyproject.toml as PYTHONWARNINGS, so that a
    deprecation met inside a sphinx-build subprocess fails the test too."""
    project = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))
    return ",".join(project["tool"]["pytest"]["ini_options"]["filterwarnings"])


# Seconds: a guard against a hang only (the 300-issue archive builds in under two minutes
# on a quiet machine; a loaded one is slow, not wrong).
BUILD_TIMEOUT = 1800
# Variables a build reads while it runs, not when Python starts: a build given an
# environment that differs from this process's in these alone can run in this process.
# The site's address is read by the extension's setup, once per build.
READ_WHILE_BUILDING = frozenset({"SOURCE_DATE_EPOCH", SITE_URL_ENV, DEPLOY_ENV})
IN_PROCESS_OFF = FROZEN_OBJECTS.name  # sphinx_build_in_process says why


def sphinx_build(
    srcdir: Path,
    outdir: Path,
    *extra: str,
    check: bool = True,
    env: dict | None = None,
    timeout: float = BUILD_TIMEOUT,
) -> subprocess.CompletedProcess[str]:
    """Build with warnings as errors, as sphinx-build does; return its exit status and
    messages, which are plain text even where CI sets FORCE_COLOR.

    A serial build runs in this process, as the preview runs its builds, which spares
    the start of Python, Sphinx and the extension (a third of a small site's build). A
    build with workers (``-j``), or with an environment of its own beyond
    ``READ_WHILE_BUILDING``, runs as a process of its own: ``sphinx_build_process``.
    A build still running after ``timeout`` seconds fails the test: its process is
    stopped, or this one ends with every thread's traceback (a hang is never waited out)."""
    refuse_in_a_fast_run()
    options = ("-W", "--keep-going", "-q", "--no-color", *extra)
    if in_process(options, env):
        result = sphinx_build_in_process(srcdir, outdir, options, env, timeout)
    else:
        result = sphinx_build_process(srcdir, outdir, options, env, timeout)
    if check and result.returncode != 0:
        raise AssertionError(f"sphinx-build failed:\n{result.stdout}\n{result.stderr}")
    return result


# make test-fast runs the unit tests and those reading a site built once for their
# module or session; a test building a site of its own is marked `site` (or `slow`), and
# make test runs it. The mark is kept true by refusing, in a fast run, a build of an
# unmarked test.
OWN_BUILD_MARKS = frozenset({"site", "slow", "browser", "clients"})
RUNNING: dict[str, Any] = {"test": "", "marks": frozenset(), "shared_fixtures": 0}


class RunningTest:
    """Notes the test running and whether a fixture shared by several tests is being
    set up. A plugin of its own: a conftest's hooks do not see session fixtures."""

    @pytest.hookimpl(wrapper=True)
    def pytest_runtest_protocol(self, item: pytest.Item, nextitem: pytest.Item | None) -> Any:
        marks = frozenset(mark.name for mark in item.iter_markers())
        RUNNING.update(test=item.nodeid, marks=marks)
        return (yield)

    @pytest.hookimpl(wrapper=True)
    def pytest_fixture_setup(self, fixturedef: pytest.FixtureDef[Any], request: Any) -> Any:
        shared = fixturedef.scope != "function"
        RUNNING["shared_fixtures"] += shared
        try:
            return (yield)
        finally:
            RUNNING["shared_fixtures"] -= shared


def pytest_configure(config: pytest.Config) -> None:
    config.pluginmanager.register(RunningTest(), "radar-running-test")
    # The live archive is what the site's layout keeps at the root (but the repository's
    # hidden folders: .github's workflows), and the live build.
    not_live = [pattern for pattern in NOT_SITE if not pattern.startswith("_build")] + [".*"]
    os.environ[live_content_guard.ROOT_ENV] = str(ROOT)
    os.environ[live_content_guard.NOT_LIVE_ENV] = live_content_guard.SEPARATOR.join(not_live)
    config.pluginmanager.register(live_content_guard, "radar-live-content")


# The longest modules first: xdist hands out whole modules (--dist loadfile) in the order
# collected (--no-loadscope-reorder; its own order, by number of tests, started the
# modules of a few whole-archive tests last, where one worker ran on alone).
LONGEST_FIRST = ("slow", "browser", "site")


def pytest_collection_modifyitems(items: list[pytest.Item]) -> None:
    rank: dict[Path, int] = {}
    for item in items:
        marks = {mark.name for mark in item.iter_markers()}
        own = next((n for n, mark in enumerate(LONGEST_FIRST) if mark in marks), len(LONGEST_FIRST))
        rank[item.path] = min(rank.get(item.path, own), own)
    items.sort(key=lambda item: rank[item.path])


def refuse_in_a_fast_run() -> None:
    if os.environ.get(FAST_RUN) != "1" or RUNNING["shared_fixtures"]:
        return
    if not RUNNING["marks"] & OWN_BUILD_MARKS:
        message = f"{RUNNING['test']} builds a site of its own: mark it @pytest.mark.site"
        pytest.fail(message, pytrace=False)


def in_process(options: tuple[str, ...], env: dict | None) -> bool:
    if any(option.startswith("-j") or option == "--jobs" for option in options):
        return False
    if env is None:
        return True
    differing = {name for name in {*env, *os.environ} if env.get(name) != os.environ.get(name)}
    return {name for name in differing if not name.startswith("PYTEST_")} <= READ_WHILE_BUILDING


def doctrees_of(outdir: Path) -> Path:
    return outdir.parent / f"{outdir.name}.doctrees"


def sphinx_build_process(
    srcdir: Path, outdir: Path, options: tuple[str, ...], env: dict | None, timeout: float
) -> subprocess.CompletedProcess[str]:
    command = sphinx_command(srcdir, outdir, doctrees_of(outdir), *options)
    env = {**(os.environ if env is None else env), "PYTHONWARNINGS": deprecations_fail()}
    return subprocess.run(command, capture_output=True, text=True, env=env, timeout=timeout)


def sphinx_build_in_process(
    srcdir: Path, outdir: Path, options: tuple[str, ...], env: dict | None, timeout: float
) -> subprocess.CompletedProcess[str]:
    """sphinx-build's own main in this process, its output captured. pytest's warning
    filters (pyproject.toml) apply here as PYTHONWARNINGS does in a process. The
    process-wide accelerations of ``accel/sphinxbuild.py`` (when memory is freed, how a
    crash is reported) are left out, and so is ``frozen-objects``, written for a process
    that builds once: its collection before freezing walked this worker's whole heap
    (about a tenth of test_incremental's and test_bounds' time, measured in alternation).
    None changes a file the build writes."""
    from sphinx.cmd.build import build_main

    command = sphinx_command(srcdir, outdir, doctrees_of(outdir), *options)
    argv = command[command.index("-b") :]  # what follows ``python -m <entry>``
    stdout, stderr = io.StringIO(), io.StringIO()
    saved = {name: os.environ.get(name) for name in (*READ_WHILE_BUILDING, ACCEL_OFF_ENV)}
    # To the worker's own stderr: a test's captured one (capsys) has no file descriptor.
    faulthandler.dump_traceback_later(timeout, exit=True, file=sys.__stderr__)
    try:
        for name in READ_WHILE_BUILDING:
            set_variable(name, (env or os.environ).get(name))
        named_off = os.environ.get(ACCEL_OFF_ENV, "")
        set_variable(ACCEL_OFF_ENV, ",".join(filter(None, (named_off, IN_PROCESS_OFF))))
        # The worker's own objects (pytest's, other tests' fixtures, the garbage of earlier
        # builds) are left out of the build's collections, as a process of its own has none.
        # Over the suite, the workers collected 24 s instead of 30 to 34; what garbage the
        # freeze holds is collected after (a worker's peak memory: 530 MB instead of 340).
        gc.freeze()
        with contextlib.redirect_stdout(stdout), contextlib.redirect_stderr(stderr):
            try:
                status = build_main(argv)
            except SystemExit as stop:  # the extension ends a build it cannot go on with
                status = stop.code if isinstance(stop.code, int) else 1
    finally:
        gc.unfreeze()
        faulthandler.cancel_dump_traceback_later()
        for name, value in saved.items():
            set_variable(name, value)
        forget_loaded_catalogues()  # as a process of its own would
    return subprocess.CompletedProcess(argv, status, stdout.getvalue(), stderr.getvalue())


def set_variable(name: str, value: str | None) -> None:
    if value is None:
        os.environ.pop(name, None)
    else:
        os.environ[name] = value


T = TypeVar("T")


def built_once(factory: pytest.TempPathFactory, name: str, make: Callable[[Path], T]) -> T:
    """``make(folder)``, once for the whole run: under xdist the first worker to ask makes
    it in the workers' common temporary folder, holding a lock the others wait on, and
    they read what it made (a site built for reading, never for changing)."""
    if not os.environ.get("PYTEST_XDIST_WORKER"):
        return make(factory.mktemp(name))
    folder = factory.getbasetemp().parent / f"shared-{name}"
    made = folder.with_name(f"{folder.name}.pickle")
    with FileLock(folder.with_name(f"{folder.name}.lock")):
        if made.exists():
            return cast(T, pickle.loads(made.read_bytes()))
        shutil.rmtree(folder, ignore_errors=True)
        folder.mkdir()
        result = make(folder)
        made.write_bytes(pickle.dumps(result))
        return result


def build_seed_site(base: Path) -> Path:
    outdir = base / "html"
    sphinx_build(copy_site(base / "src"), outdir)
    return outdir


@pytest.fixture(scope="session")
def built_seed_site(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """The seed site, built once per test run."""
    return built_once(tmp_path_factory, "seed-site", build_seed_site)


@pytest.fixture(scope="session")
def published_site(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, Path]:
    """(sources, output) of the published site (``publishing_site.build_published``),
    built once per test run for the modules that only read it."""
    from publishing_site import build_published

    return built_once(tmp_path_factory, "published", build_published)


def build_root_site(root: str, base: Path, options: tuple[str, ...] = ()) -> Path:
    """The seed site with ``tests/roots/test-<root>`` laid over it, built into
    ``base``/html (for ``built_once``, with the root bound)."""
    outdir = base / "html"
    sphinx_build(site_with_root(root, base / "src"), outdir, *options)
    return outdir


@pytest.fixture(scope="session")
def built_years_site(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """The seed site with the older years of ``test-years``, built once per test run;
    its doctrees (search records and pieces) beside it."""
    return built_once(tmp_path_factory, "years", partial(build_root_site, "years"))


# The address the completed-references site is built for: a percent-encoded path, which
# the pages' metadata and every url field must keep as written.
COMPLETED_SITE_URL = "https://example.org/%E6%9C%9F%E5%88%8A/"


@pytest.fixture(scope="session")
def completed_site(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """The seed site with one reference completed, built for ``COMPLETED_SITE_URL``, once
    per test run."""
    options = ("-D", f"radar_site_url={COMPLETED_SITE_URL}")
    build = partial(build_root_site, "completed-refs", options=options)
    return built_once(tmp_path_factory, "completed-refs", build)


@pytest.fixture
def started_processes(monkeypatch: pytest.MonkeyPatch) -> list[list[str]]:
    """The commands ``subprocess.run`` starts during the test, in order (each still runs)."""
    started: list[list[str]] = []
    real_run = subprocess.run

    def run(command: list[str], *args: Any, **kwargs: Any) -> Any:
        started.append([str(part) for part in command])
        return real_run(command, *args, **kwargs)

    monkeypatch.setattr(subprocess, "run", run)
    return started


@pytest.fixture
def site_copy(tmp_path: Path) -> Path:
    return copy_site(tmp_path / "src")


@pytest.fixture
def build() -> Callable[..., subprocess.CompletedProcess[str]]:
    return sphinx_build


def site_with_root(name: str, dest: Path) -> Path:
    """The seed site with the files of ``tests/roots/test-<name>`` laid over it."""
    copy_site(dest)
    shutil.copytree(ROOTS / f"test-{name}", dest, dirs_exist_ok=True)
    return dest


def page_text(html_file: Path) -> str:
    """What a reader reads in the article body: text without permalink characters and
    without the English labels the site adds beside topic names (so that the editors'
    category lines can be compared as they wrote them)."""
    from bs4 import BeautifulSoup

    soup = BeautifulSoup(html_file.read_text(encoding="utf-8"), "html.parser")
    for decoration in soup.select("a.headerlink, .radar-topic-en"):
        decoration.decompose()
    article = soup.select_one("article")
    assert article is not None, f"{html_file} has no article body"
    return article.get_text("")


def chromium_missing() -> str | None:
    """What to install for the browser tests (README's prerequisites), if Chromium is
    missing."""
    if CHROMIUM.exists():
        return None
    return (
        f"{CHROMIUM} is missing: apt-get install chromium fonts-noto-cjk "
        "fonts-noto-color-emoji (README, Prerequisites)"
    )


@pytest.fixture(scope="session")
def browser() -> Iterator[Any]:
    """Debian's headless Chromium through Playwright, one per test session. Without it
    the browser tests fail, saying what to install: a run that skipped them would look
    green with no browser coverage."""
    missing = chromium_missing()
    if missing:
        pytest.fail(missing, pytrace=False)
    from playwright import sync_api  # the test extra's, which make test installs

    with sync_api.sync_playwright() as playwright:
        chromium = launched_chromium(playwright)
        yield chromium
        chromium.close()


def launched_chromium(playwright: Any) -> Any:
    """Debian's headless Chromium, launched by ``playwright`` (the tests' and the
    benchmarks'), its contexts and tabs waiting ``BROWSER_WAIT_MS`` at most."""
    chromium = playwright.chromium.launch(executable_path=str(CHROMIUM), args=CHROMIUM_ARGS)
    for opener in ("new_context", "new_page"):
        setattr(chromium, opener, waiting_at_most(getattr(chromium, opener)))
    return chromium


def waiting_at_most(open_: Callable[..., Any]) -> Callable[..., Any]:
    """``open_`` (a browser's ``new_context`` or ``new_page``), whose contexts and tabs wait
    ``BROWSER_WAIT_MS`` for anything (Playwright's default is 30 s), in every test."""

    def opened(**options: Any) -> Any:
        made = open_(**options)
        made.set_default_timeout(BROWSER_WAIT_MS)
        return made

    return opened


def watch_errors(page: Any) -> list[str]:
    """Script errors and console errors the page reports from now on."""
    errors: list[str] = []
    page.on("pageerror", lambda error: errors.append(f"pageerror: {error}"))
    page.on(
        "console",
        lambda message: (
            errors.append(f"console.{message.type}: {message.text}")
            if message.type == "error"
            else None
        ),
    )
    return errors


def open_filters(page: Any, timeout_ms: float = BROWSER_WAIT_MS) -> None:
    """Open the search page's filter panel and wait for its filters (Pagefind loaded)."""
    page.click(".radar-search-page .radar-search-filters summary")
    page.wait_for_selector(".radar-search-page .radar-search-filter", timeout=timeout_ms)


def topic_page_uri(docname: str, anchor: str) -> str:
    """Links as from a topic's page (``topics/3d`` links to itself as "")."""
    if docname == "topics/3d":
        return ""
    return f"../{docname}.html" + (f"#{anchor}" if anchor else "")
