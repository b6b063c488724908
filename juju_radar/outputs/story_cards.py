"""A story's share card (a 1200x630 PNG, Pillow) and the QR code of its page (segno).

The card shows the story's title, topic, score, verdict, date and the archive's name,
drawn with Noto Sans CJK (Debian's fonts-noto-cjk, which README asks for). The same
inputs give the same bytes: the PNG is written without any metadata chunk (no time, no
text), by one pinned Pillow and one font file, whose bytes are part of the cache key
(``card_key``).
"""

from __future__ import annotations

import io
from dataclasses import dataclass
from functools import lru_cache
from pathlib import Path

import segno
from PIL import Image, ImageDraw, ImageFont

from juju_radar.store.cache import digest

CARD_SIZE = (1200, 630)
CARD_SUFFIX = ".png"
# Debian's fonts-noto-cjk: (regular, bold), the Simplified Chinese face of each collection.
FONT_FOLDERS = (Path("/usr/share/fonts/opentype/noto"), Path("/usr/share/fonts/noto-cjk"))
FONT_FILES = ("NotoSansCJK-Regular.ttc", "NotoSansCJK-Bold.ttc")
SIMPLIFIED_CHINESE_FACE = 2  # the collection's order: JP, KR, SC, TC, HK
MARGIN = 72
TITLE_SIZE = 60
TITLE_LINES = 4
LINE_GAP = 18
TEXT_SIZE = 34
BACKGROUND = (250, 248, 242)
INK = (28, 28, 30)
MUTED = (92, 92, 98)
ACCENT = (176, 36, 36)
RULE = (214, 208, 196)
ELLIPSIS = "…"
RAMP_STEPS = 6  # shades from the background to each colour of text: its antialiasing
NO_DITHER = Image.Dither.NONE
# zlib's level for the card's PNG: 3 encodes in 3.7 ms a card where Pillow's default (6)
# took 7.9 ms, for 26 KB instead of 20 KB (BENCHMARKS.md, issue 54).
PNG_COMPRESS_LEVEL = 3


@dataclass(frozen=True)
class CardText:
    """What a card shows."""

    title: str
    topic: str
    score: str  # as the pages write it: "8.5/10"
    verdict: str
    date: str  # YYYY-MM-DD
    archive: str


@dataclass(frozen=True)
class CardFonts:
    regular: Path
    bold: Path

    def key(self) -> str:
        """Changes with either font file (by size and name: the files are hundreds of MB
        to hash, and a package upgrade changes their size)."""
        return digest(*(f"{path}\0{path.stat().st_size}" for path in (self.regular, self.bold)))


def find_fonts(folders: tuple[Path, ...] | None = None) -> CardFonts | None:
    """The fonts in the first of ``folders`` (``FONT_FOLDERS``) holding both, or None."""
    for folder in FONT_FOLDERS if folders is None else folders:
        regular, bold = (folder / name for name in FONT_FILES)
        if regular.is_file() and bold.is_file():
            return CardFonts(regular, bold)
    return None


def card_key(card: CardText, fonts: CardFonts) -> str:
    """What a card's bytes depend on: its text, the fonts and this module's code."""
    return digest(repr(card), fonts.key(), Path(__file__).read_bytes(), CARD_VERSION)


CARD_VERSION = "2"  # 2: zlib level 3


def wrapped(text: str, font: ImageFont.FreeTypeFont, width: int, lines: int) -> list[str]:
    """``text`` broken into at most ``lines`` lines of at most ``width`` pixels, at any
    character (Chinese has no spaces) but keeping a Latin word whole where it fits; the
    last line cut with "…" when the text does not fit."""
    found: list[str] = []
    line = ""
    for word in _words(text):
        if font.getlength(line + word) <= width:
            line += word
            continue
        if line.strip():
            found.append(line.rstrip())
        line = word.lstrip()
        while font.getlength(line) > width:  # a word longer than the line
            cut = _fitting(line, font, width)
            found.append(line[:cut])
            line = line[cut:]
    if line.strip():
        found.append(line.rstrip())
    if len(found) <= lines:
        return found
    last = found[lines - 1]
    while last and font.getlength(last + ELLIPSIS) > width:
        last = last[:-1]
    return [*found[: lines - 1], last + ELLIPSIS]


def _words(text: str) -> list[str]:
    """Each CJK character alone, runs of other characters (a Latin word and the space
    before it) together."""
    words: list[str] = []
    for char in " ".join(text.split()):
        if words and char.isascii() and char != " " and words[-1][-1:].isascii():
            words[-1] += char
        else:
            words.append(char)
    return words


def _fitting(text: str, font: ImageFont.FreeTypeFont, width: int) -> int:
    end = len(text)
    while end > 1 and font.getlength(text[:end]) > width:
        end -= 1
    return end


def card_png(card: CardText, fonts: CardFonts) -> bytes:
    """The card as PNG bytes: no metadata chunk, so the same text gives the same bytes."""
    image = Image.new("RGB", CARD_SIZE, BACKGROUND)
    draw = ImageDraw.Draw(image)
    bold = _font(fonts.bold, TITLE_SIZE)
    text = _font(fonts.regular, TEXT_SIZE)
    strong = _font(fonts.bold, TEXT_SIZE)
    width = CARD_SIZE[0] - 2 * MARGIN
    draw.rectangle((0, 0, 16, CARD_SIZE[1]), fill=ACCENT)
    draw.text((MARGIN, MARGIN), f"{card.topic}  ·  {card.date}", font=text, fill=MUTED)
    top = MARGIN + TEXT_SIZE + 40
    for line in wrapped(card.title, bold, width, TITLE_LINES):
        draw.text((MARGIN, top), line, font=bold, fill=INK)
        top += TITLE_SIZE + LINE_GAP
    bottom = CARD_SIZE[1] - MARGIN - TEXT_SIZE
    draw.line((MARGIN, bottom - 28, CARD_SIZE[0] - MARGIN, bottom - 28), fill=RULE, width=2)
    draw.text((MARGIN, bottom), f"{card.score}｜{card.verdict}", font=strong, fill=ACCENT)
    name_width = int(strong.getlength(card.archive))
    draw.text((CARD_SIZE[0] - MARGIN - name_width, bottom), card.archive, font=strong, fill=INK)
    # In the card's own palette, undithered: 14 KB, not 46 KB a card in full colour
    # (18,000 cards would be 800 MB), the text as sharp; mapped to a fixed palette in 2 ms
    # (a median-cut palette took 40 ms a card, and an optimised save 20 ms more).
    output = io.BytesIO()
    quantized = image.quantize(palette=_palette(), dither=NO_DITHER)
    quantized.save(output, format="PNG", compress_level=PNG_COMPRESS_LEVEL)
    return output.getvalue()


@lru_cache(maxsize=1)
def _palette() -> Image.Image:
    """The card's colours: the background, shades of it towards each colour of text,
    and the rule's."""
    colours = [
        tuple(
            round(BACKGROUND[i] + (ink[i] - BACKGROUND[i]) * step / (RAMP_STEPS - 1))
            for i in range(3)
        )
        for ink in (INK, ACCENT, MUTED)
        for step in range(RAMP_STEPS)
    ]
    unique = list(dict.fromkeys([*colours, RULE]))
    palette = Image.new("P", (1, 1))
    palette.putpalette([value for colour in unique for value in colour])
    return palette


@lru_cache(maxsize=8)
def _font(path: Path, size: int) -> ImageFont.FreeTypeFont:
    """A face loaded once a process (a quarter of a second each)."""
    return ImageFont.truetype(str(path), size, index=SIMPLIFIED_CHINESE_FACE)


def qr_svg(address: str, title: str) -> str:
    """The QR code of ``address`` as inline SVG (for WeChat, which opens a scanned link)."""
    code = segno.make(address, error="m", micro=False)
    return str(code.svg_inline(scale=4, border=2, title=title, svgclass="radar-qr", light="#fff"))
