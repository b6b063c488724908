"""A page saved while the build read it shows after the next build, which then leaves
it alone (Sphinx alone would keep the first reading until the page is saved again)."""

from __future__ import annotations

from pathlib import Path

import pytest
from conftest import doctrees_of, page_text, sphinx_build

SEED = "issues/2026/2026-09-08"
SENTENCE = "部署还有预算限制。"
SAVED = "这一句是构建读这一页时存下的。"

# An editor's save, landing after Sphinx read the file and before it finished the page.
SAVE_WHILE_READING = f"""
from pathlib import Path

def save_while_reading(app, docname, source):
    if docname != {SEED!r}:
        return
    path = Path(app.env.doc2path(docname))
    text = path.read_text(encoding="utf-8")
    if {SAVED!r} not in text:
        path.write_text(text.replace({SENTENCE!r}, {SENTENCE + SAVED!r}, 1), encoding="utf-8")

def setup(app):
    app.connect("source-read", save_while_reading)
    return {{"parallel_read_safe": True, "parallel_write_safe": True}}
"""


def saving_site(src: Path) -> Path:
    (src / "radar_test_save_while_reading.py").write_text(SAVE_WHILE_READING, encoding="utf-8")
    conf = src / "conf.py"
    conf.write_text(
        conf.read_text(encoding="utf-8")
        + "\nimport sys\nsys.path.insert(0, str(__import__('pathlib').Path(__file__).parent))\n"
        + 'extensions.append("radar_test_save_while_reading")\n',
        encoding="utf-8",
    )
    return src


@pytest.mark.site
def test_a_page_saved_while_the_build_read_it_shows_after_the_next_build(site_copy, tmp_path):
    src, out = saving_site(site_copy), tmp_path / "html"
    page = out / f"{SEED}.html"

    sphinx_build(src, out)
    assert SAVED in (src / f"{SEED}.md").read_text(encoding="utf-8")
    assert SAVED not in page_text(page)  # read before the save

    sphinx_build(src, out)
    assert SAVED in page_text(page)

    doctree = doctrees_of(out) / f"{SEED}.doctree"
    read_last = doctree.stat().st_mtime_ns
    sphinx_build(src, out)
    assert doctree.stat().st_mtime_ns == read_last  # read again once, not every build
