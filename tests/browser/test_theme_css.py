"""The theme's style sheets cut to the rules the site uses draw every page as the full
sheets do: in Chromium, each element's computed style (and its ``::before`` and
``::after``) is compared on the built site with the subset sheets, and with the full
sheets a preview build keeps (``radar_preview``), in light and dark, phone and desktop,
with the drawer open, a story landed on and search results shown."""

from __future__ import annotations

import re
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest
import tinycss2
from bs4 import BeautifulSoup
from conftest import site_with_root, sphinx_build

from .conftest import kept_context, sized_tab
from .search_results import wait_for_results

pytestmark = pytest.mark.browser

SHEETS = ("_static/styles/pydata-sphinx-theme.css", "_static/styles/sphinx-book-theme.css")
SHEETS += ("_static/basic.css",)
SHEET_URL = re.compile(
    r".*/_static/(styles/pydata-sphinx-theme|styles/sphinx-book-theme|basic)\.css"
)
ISSUE_PAGE = "issues/2026/2026-09-08.html"

# Each element's computed style, and its ::before's and ::after's where drawn, as text.
# Custom properties are left out: the subset drops those nothing reads. Every computed
# style lists the same properties, custom ones after the others.
STYLES_JS = """() => {
  const root = getComputedStyle(document.documentElement);
  const names = [];
  for (let j = 0; j < root.length; j++) {
    if (!root[j].startsWith('--')) names.push(root[j]);
  }
  const out = {};
  const all = document.querySelectorAll('*');
  for (let i = 0; i < all.length; i++) {
    const element = all[i];
    const name = element.tagName.toLowerCase() + (element.id ? '#' + element.id : '')
      + (element.classList.length ? '.' + [...element.classList].join('.') : '');
    for (const pseudo of [null, '::before', '::after']) {
      const style = getComputedStyle(element, pseudo);
      if (pseudo && ['none', 'normal'].includes(style.content)) continue;
      out[i + ' ' + name + (pseudo || '')] =
        names.map(property => property + ':' + style.getPropertyValue(property)).join(';');
    }
  }
  return out;
}"""


@pytest.fixture(scope="module")
def full_sheets(tmp_path_factory: pytest.TempPathFactory) -> dict[str, bytes]:
    """The sheets as the theme and Sphinx ship them: a preview build keeps them whole."""
    base = tmp_path_factory.mktemp("full-sheets")
    outdir = base / "html"
    sphinx_build(site_with_root("second-issue", base / "src"), outdir, "-D", "radar_preview=1")
    return {name: (outdir / name).read_bytes() for name in SHEETS}


@pytest.fixture(scope="module")
def archive(two_issue_site_url: str) -> str:
    return two_issue_site_url


@pytest.fixture(scope="module")
def sheet_contexts(browser: Any, full_sheets: dict[str, bytes]) -> Iterator[tuple[Any, Any]]:
    """A context whose tabs get the site's own sheets, and one whose tabs get the full
    sheets in their place: neither reads a sheet from the other's cache."""
    by_name = {name.removeprefix("_static/"): body for name, body in full_sheets.items()}

    def serve_full(route: Any) -> None:
        name = SHEET_URL.match(route.request.url)
        assert name is not None
        body = by_name[f"{name.group(1)}.css"]
        route.fulfill(status=200, body=body, content_type="text/css")

    with kept_context(browser) as subset, kept_context(browser) as full:
        full.route(SHEET_URL, serve_full)
        yield subset, full


def opened(context: Any, url: str, width: int, scheme: str) -> Any:
    """A tab loading ``url``, returned as soon as it answered."""
    tab = sized_tab(context, width, color_scheme=scheme, reduced_motion="reduce")
    tab.goto(url, wait_until="commit")
    return tab


def styles_drawn(tab: Any, then: Callable[[Any], None]) -> dict[str, str]:
    """Every element's computed style on the tab's page, after ``then`` has acted on it."""
    tab.wait_for_load_state("networkidle")
    then(tab)
    # Two frames drawn after the action: its styles applied, however slow the machine.
    tab.evaluate(
        "() => new Promise(done => requestAnimationFrame(() => requestAnimationFrame(done)))"
    )
    return tab.evaluate(STYLES_JS)


def nothing(tab: Any) -> None:
    pass


def open_drawer(tab: Any) -> None:
    tab.locator(".bd-header-article .primary-toggle").click()
    tab.wait_for_selector(".radar-drawer-close", state="visible")


def search_results(tab: Any) -> None:
    wait_for_results(tab, ".radar-search-page", "Agent")


CASES = [
    ("index.html", 1280, "light", nothing),
    (ISSUE_PAGE, 390, "dark", open_drawer),
    (f"{ISSUE_PAGE}#tau-bench-customer-service", 1280, "dark", nothing),
    ("search.html?q=Agent", 1280, "light", search_results),
    ("references/2026-09.html", 390, "light", nothing),
    ("stats.html", 1280, "light", nothing),
]


@pytest.mark.parametrize(("path", "width", "scheme", "then"), CASES)
def test_the_subset_draws_what_the_full_sheets_draw(
    sheet_contexts: tuple[Any, Any],
    archive: str,
    path: str,
    width: int,
    scheme: str,
    then: Callable[[Any], None],
) -> None:
    url = f"{archive}{path}"
    # Both loaded side by side: their waits for network silence overlap.
    tabs: list[Any] = []
    try:
        tabs += (opened(context, url, width, scheme) for context in sheet_contexts)
        with_subset, with_full = (styles_drawn(tab, then) for tab in tabs)
    finally:
        for tab in tabs:
            tab.close()
    assert with_subset.keys() == with_full.keys() and len(with_full) > 100
    differences = [
        (element, sorted(set(subset.split(";")) ^ set(with_full[element].split(";")))[:6])
        for element, subset in with_subset.items()
        if subset != with_full[element]
    ]
    assert not differences, differences[:5]


def test_the_site_serves_the_subset(built_seed_site: Path, full_sheets: dict[str, bytes]) -> None:
    for name in SHEETS:
        served = (built_seed_site / name).read_bytes()
        assert len(served) < len(full_sheets[name]) / 1.4, name
    theme = (built_seed_site / SHEETS[0]).read_text(encoding="utf-8")
    assert ".bd-header" in theme
    assert ".accordion" not in theme and ".placeholder-glow" not in theme


def selectors(css: str) -> dict[str, set[str]]:
    """Each selector of ``css`` (its text) with the classes, ids and elements it names
    outside functions, in style rules that declare something and grouping at-rules."""
    found: dict[str, set[str]] = {}

    def named(tokens: list[Any]) -> set[str]:
        names, previous = set(), None
        for token in tokens:
            if token.type == "ident" and previous in (None, "whitespace", ".", ">", "+", "~"):
                names.add(token.value if previous == "." else token.lower_value)
            elif token.type == "hash":
                names.add(token.value)
            previous = token.value if token.type == "literal" else token.type
        return names

    def read(rules: list[Any]) -> None:
        for rule in rules:
            if rule.type not in ("qualified-rule", "at-rule"):
                continue
            declarations = tinycss2.parse_blocks_contents(
                rule.content or [], skip_whitespace=True, skip_comments=True
            )
            if rule.type == "qualified-rule" and declarations:  # an empty rule does nothing
                parts: list[list[Any]] = [[]]
                for token in rule.prelude:
                    if token.type == "literal" and token.value == ",":
                        parts.append([])
                    else:
                        parts[-1].append(token)
                for part in parts:
                    found[tinycss2.serialize(part).strip()] = named(part)
            elif rule.type == "at-rule" and rule.content and rule.lower_at_keyword != "keyframes":
                read(tinycss2.parse_blocks_contents(rule.content, skip_whitespace=True))

    read(tinycss2.parse_stylesheet(css, skip_comments=True, skip_whitespace=True))
    return found


def test_no_page_uses_a_rule_the_subset_lacks(
    built_seed_site: Path, full_sheets: dict[str, bytes]
) -> None:
    """Every selector of the full sheets whose names all occur in a page, read with
    another parser than the build's, is in the subset."""
    used: set[str] = set()
    for page in built_seed_site.rglob("*.html"):
        if not page.relative_to(built_seed_site).parts[0].startswith("_"):
            soup = BeautifulSoup(page.read_text(encoding="utf-8"), "html.parser")
            for element in soup.find_all(True):
                used.add(element.name)
                used.update(element.get("class", []))
                used.update([element["id"]] if element.get("id") else [])
    assert {"bd-header", "radar-item", "article"} <= used
    for name in SHEETS:
        full = selectors(full_sheets[name].decode("utf-8"))
        needed = {text for text, names in full.items() if names <= used}
        kept = set(selectors((built_seed_site / name).read_text(encoding="utf-8")))
        assert len(needed) > 10 and needed <= kept, (name, sorted(needed - kept)[:10])
