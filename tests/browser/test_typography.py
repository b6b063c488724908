"""Issue 55: the archive set as a Chinese publication, in Debian's Chromium, at a
phone's and a desktop's width, in light and dark mode.

1. body text in a named CJK font stack, at 17 px or more and a line height of 1.75 or
   more; the quotation marks “” drawn full width;
2. no heading line ends inside a word of the site's segmentation
   (``juju_radar.model.segmentation``, as the search index cuts Chinese);
3. an issue page shows its previous and next issue on the first screen of a phone, and
   one length and reading time; the search page's box is dark in dark mode (that the
   rest of an issue page comes after every story a query finds is test_reader's).
"""

from __future__ import annotations

from itertools import accumulate
from typing import Any

import pytest

from juju_radar.model.segmentation import words

from .colours import contrast, luminance
from .conftest import opened

pytestmark = pytest.mark.browser

ISSUE_PAGE = "issues/2026/2026-09-08.html"
PAGES = ["index.html", ISSUE_PAGE, "issues/2026/2026-09-09.html"]
SIZES = [(390, 844), (1280, 900)]
SCHEMES = ["light", "dark"]
CJK_FONTS = ["PingFang SC", "Hiragino Sans GB", "Noto Sans CJK SC", "Microsoft YaHei"]

# The body text's computed style, from the paragraphs of the article's sections (not
# their meta lines, sources or notes).
BODY_STYLE_JS = """() => Array.from(
  document.querySelectorAll('article.bd-article :is(section > p:not([class]), p.radar-lead)')
).filter(p => p.getClientRects().length).slice(0, 8).map(p => {
  const style = getComputedStyle(p);
  return {size: parseFloat(style.fontSize), line: parseFloat(style.lineHeight),
          family: style.fontFamily, background: getComputedStyle(document.body).backgroundColor};
})"""

# Each “ and ” of the article: its drawn width and its font size.
QUOTE_WIDTHS_JS = """() => {
  const range = document.createRange();
  const found = [];
  const walker = document.createTreeWalker(document.querySelector('article.bd-article'),
                                           NodeFilter.SHOW_TEXT);
  for (let node = walker.nextNode(); node; node = walker.nextNode()) {
    for (let i = 0; i < node.length; i++) {
      if (!'“”'.includes(node.data[i])) continue;
      range.setStart(node, i);
      range.setEnd(node, i + 1);
      const width = range.getBoundingClientRect().width;
      if (width) found.push({width, size: parseFloat(getComputedStyle(node.parentElement).fontSize)});
    }
  }
  return found;
}"""

# Each heading of the article: its text (without the permalink mark) and the offsets in
# it (in UTF-16 code units) after which a line ends (a character whose next one is drawn
# lower).
HEADING_LINES_JS = """() => {
  const range = document.createRange();
  return Array.from(document.querySelectorAll('article.bd-article :is(h1, h2, h3)'))
    .filter(h => h.getClientRects().length).map(heading => {
      const walker = document.createTreeWalker(heading, NodeFilter.SHOW_TEXT, {
        acceptNode: n => n.parentElement.closest('.headerlink') ? NodeFilter.FILTER_REJECT
                                                                  : NodeFilter.FILTER_ACCEPT});
      let text = '', tops = [];
      for (let node = walker.nextNode(); node; node = walker.nextNode()) {
        for (let i = 0; i < node.length; i++) {
          range.setStart(node, i);
          range.setEnd(node, i + 1);
          const boxes = range.getClientRects();
          text += node.data[i];
          tops.push(boxes.length ? boxes[boxes.length - 1].top : null);
        }
      }
      const ends = [];
      let last = null, lastIndex = -1;
      tops.forEach((top, index) => {
        if (top === null || /\\s/.test(text[index])) return;
        if (last !== null && top > last + 4) ends.push(lastIndex + 1);
        last = top;
        lastIndex = index;
      });
      return {text, ends};
    });
}"""


@pytest.fixture(scope="module")
def archive(two_issue_site_url: str) -> str:
    """The seed site with the second issue: two issue pages, each with a neighbour."""
    return two_issue_site_url


def word_boundaries(text: str) -> set[int]:
    """The offsets (in UTF-16 code units, as a script counts) between two words of the
    site's segmentation, and the text's ends."""
    return {0, *accumulate(utf16_length(word) for word in words(text))}


def utf16_length(text: str) -> int:
    return len(text.encode("utf-16-le")) // 2


@pytest.mark.parametrize("scheme", SCHEMES)
@pytest.mark.parametrize("size", SIZES, ids=["390px", "1280px"])
@pytest.mark.parametrize("path", PAGES[:2])
def test_body_text_is_set_in_a_cjk_font_at_17_px_and_1_75(
    module_context: Any, archive: str, path: str, size: tuple[int, int], scheme: str
) -> None:
    with opened(module_context, archive + path, size, scheme) as tab:
        styles = tab.evaluate(BODY_STYLE_JS)
    assert len(styles) >= 3
    for style in styles:
        assert style["size"] >= 17
        assert style["line"] / style["size"] >= 1.75
        names = [name.strip().strip('"') for name in style["family"].split(",")]
        assert names[: len(CJK_FONTS)] == CJK_FONTS
        assert names[-1] == "sans-serif"
    # Dark mode is dark: the same rules hold on the theme's dark page.
    assert (luminance(styles[0]["background"]) < 0.1) == (scheme == "dark")


@pytest.mark.parametrize("size", SIZES, ids=["390px", "1280px"])
def test_quotation_marks_are_drawn_full_width(
    module_context: Any, archive: str, size: tuple[int, int]
) -> None:
    with opened(module_context, archive + ISSUE_PAGE, size, "light") as tab:
        quotes = tab.evaluate(QUOTE_WIDTHS_JS)
    assert len(quotes) >= 4
    assert [quote for quote in quotes if quote["width"] < 0.9 * quote["size"]] == []


@pytest.mark.parametrize("scheme", SCHEMES)
@pytest.mark.parametrize("size", SIZES, ids=["390px", "1280px"])
def test_no_heading_line_ends_inside_a_word(
    module_context: Any, archive: str, size: tuple[int, int], scheme: str
) -> None:
    broken, wrapped = [], 0
    for path in PAGES:
        with opened(module_context, archive + path, size, scheme) as tab:
            headings = tab.evaluate(HEADING_LINES_JS)
        assert headings, path
        for heading in headings:
            wrapped += bool(heading["ends"])
            inside = set(heading["ends"]) - word_boundaries(heading["text"])
            broken += [(path, heading["text"], sorted(inside))] if inside else []
    assert broken == []
    if size[0] == 390:
        assert wrapped >= 3  # the phone wraps headings: their breaks were measured


@pytest.mark.parametrize("scheme", SCHEMES)
def test_the_previous_and_next_issue_are_on_a_phones_first_screen(
    module_context: Any, archive: str, scheme: str
) -> None:
    with opened(module_context, archive + ISSUE_PAGE, (390, 844), scheme) as tab:
        top = tab.locator(".radar-issue-nav-top a.radar-next")
        bottom = tab.locator(".radar-issue-nav:not(.radar-issue-nav-top) a.radar-next")
        box = top.bounding_box()
        hrefs = top.get_attribute("href"), bottom.get_attribute("href")
        meta = tab.locator(".radar-issue-meta").inner_text()
    assert box is not None and box["y"] + box["height"] <= 844
    assert hrefs[0] == hrefs[1] and hrefs[0].endswith("2026-09-09.html")
    assert meta.count("字") == 1 and meta.count("分钟") == 1 and ";" not in meta


@pytest.mark.parametrize("scheme", SCHEMES)
@pytest.mark.parametrize("size", SIZES, ids=["390px", "1280px"])
def test_the_search_box_takes_the_pages_colours(
    module_context: Any, archive: str, size: tuple[int, int], scheme: str
) -> None:
    with opened(module_context, archive + "search.html", size, scheme) as tab:
        box = tab.locator(".radar-search-input")
        box.wait_for()
        box.fill("智能体")
        colours = box.evaluate(
            "e => [getComputedStyle(e).backgroundColor, getComputedStyle(e).color,"
            " getComputedStyle(document.body).backgroundColor]"
        )
    background, text, page = colours
    assert (luminance(background) < 0.1) == (scheme == "dark")
    assert contrast(background, page) < 1.5  # the box is the page's colour, not white on dark
    assert contrast(text, background) >= 4.5
