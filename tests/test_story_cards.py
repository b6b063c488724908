"""A story's share card and QR code (``outputs/story_cards``), and how a story's text is
read back from its issue page (``sphinx_ext/outputs/story_bodies``): no Sphinx build."""

from __future__ import annotations

import io
import shutil
from pathlib import Path

import pytest
from PIL import Image

from juju_radar.outputs import story_cards
from juju_radar.outputs.story_cards import CardText, card_key, card_png, find_fonts, wrapped
from juju_radar.sphinx_ext.outputs.story_bodies import relocated, story_texts

CARD = CardText(
    title="RISE：沿着刚刚学会的方向，再往前走一点",
    topic="模型训练 Training",
    score="8.5/10",
    verdict="建议深挖",
    date="2026-09-08",
    archive="Juju Radar 归档",
)


@pytest.fixture(scope="module")
def fonts() -> story_cards.CardFonts:
    found = find_fonts()
    assert found is not None, "README's fonts-noto-cjk is not installed"
    return found


def test_a_card_is_a_1200_by_630_png_without_metadata(fonts):
    data = card_png(CARD, fonts)
    image = Image.open(io.BytesIO(data))
    assert image.format == "PNG" and image.size == (1200, 630)
    assert not image.info.keys() - {"dpi"}, image.info  # no text, time or profile chunk
    for chunk in (b"tEXt", b"iTXt", b"zTXt", b"tIME", b"eXIf"):
        assert chunk not in data


def test_the_same_card_gives_the_same_bytes_and_another_text_others(fonts):
    assert card_png(CARD, fonts) == card_png(CARD, fonts)
    other = CardText(**{**CARD.__dict__, "verdict": "持续观察"})
    assert card_png(other, fonts) != card_png(CARD, fonts)
    assert card_key(other, fonts) != card_key(CARD, fonts)
    assert card_key(CARD, fonts) == card_key(CARD, fonts)


def test_the_card_shows_its_title_in_ink(fonts):
    """The title's lines are drawn: the card is not one colour where they stand."""
    image = Image.open(io.BytesIO(card_png(CARD, fonts))).convert("RGB")
    title_band = image.crop((72, 150, 1128, 220))
    assert story_cards.INK in {colour for _, colour in title_band.getcolors(1 << 20)}


def test_a_long_title_wraps_and_ends_with_an_ellipsis(fonts):
    font = story_cards._font(fonts.bold, story_cards.TITLE_SIZE)
    lines = wrapped("很长的标题" * 40 + " Qwen3-8B", font, 1056, 4)
    assert len(lines) == 4 and lines[-1].endswith("…")
    assert all(font.getlength(line) <= 1056 for line in lines)
    assert wrapped("RISE Qwen3-8B", font, 1056, 4) == ["RISE Qwen3-8B"]


def test_without_the_cjk_fonts_no_fonts_are_found(tmp_path: Path):
    assert find_fonts((tmp_path,)) is None
    for name in story_cards.FONT_FILES:
        shutil.copy(story_cards.FONT_FOLDERS[0] / name, tmp_path / name)
    assert find_fonts((tmp_path,)) == story_cards.CardFonts(
        *(tmp_path / name for name in story_cards.FONT_FILES)
    )


def test_the_qr_code_is_inline_svg_of_the_address():
    svg = story_cards.qr_svg("https://example.org/a.html", "二维码")
    assert svg.startswith("<svg") and "<title>二维码</title>" in svg
    assert "<script" not in svg and "style=" not in svg
    assert svg != story_cards.qr_svg("https://example.org/b.html", "二维码")


ISSUE_HTML = """<html><body>
<section class="radar-item" id="one"><h2>One<a class="headerlink" href="#one">#</a></h2>
<p class="radar-item-meta"><a href="../../topics/agent.html">Agent</a></p>
<p>第一句。<a href="#cite-key">1</a> 见 <a href="https://example.org/x">x</a>
和 <a href="../../topics/agent.html">主题</a>。</p>
<ul><li>一点</li></ul>
<p class="radar-sources"><a href="#cite-key">来源</a></p>
<div class="radar-item-extras"><p class="radar-story-page-line">页</p></div>
</section>
<section class="radar-item"><p>no id: not a story</p></section>
</body></html>"""


def test_a_storys_text_is_read_back_without_what_its_page_shows_its_own_way():
    texts = story_texts(ISSUE_HTML, "2026-09-08.html")
    assert list(texts) == ["one"]
    text = texts["one"]
    assert text.startswith("<p>第一句。") and "<ul><li>一点</li></ul>" in text
    for left_out in ("radar-item-meta", "radar-sources", "radar-item-extras", "<h2"):
        assert left_out not in text
    # Links made relative to the story's page, one folder deeper.
    assert 'href="../2026-09-08.html#cite-key"' in text
    assert 'href="https://example.org/x"' in text
    assert 'href="../../../topics/agent.html"' in text


@pytest.mark.parametrize(
    ("address", "expected"),
    [
        ("#cite-a", "../2026-09-08.html#cite-a"),
        ("../../topics/a.html", "../../../topics/a.html"),
        ("2026-09-09.html#x", "../2026-09-09.html#x"),
        ("https://example.org/", "https://example.org/"),
        ("mailto:a@example.org", "mailto:a@example.org"),
        ("/abs.html", "/abs.html"),
    ],
)
def test_an_address_is_relocated_to_the_storys_folder(address, expected):
    assert relocated(address, "2026-09-08.html") == expected
