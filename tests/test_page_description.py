"""The theme's page description, read only as far as it needs."""

from __future__ import annotations

from docutils import nodes

from juju_radar.accel.page_description import page_description


def section(title: str, text: str, *children: nodes.section) -> nodes.section:
    return nodes.section("", nodes.title("", title), nodes.paragraph("", text), *children)


def theme_description(doctree: nodes.Node) -> str:
    """sphinx-book-theme's ``add_metadata_to_page``: every section's text, then cut."""
    text = "".join(s.astext().replace("\n", " ") for s in doctree.findall(nodes.section))
    return text[:160]


def test_the_description_is_the_themes_whether_the_first_section_is_long_or_short():
    items = [section(f"条目 {n}", "句子。" * 9) for n in range(6)]
    long_page = nodes.document(None, None)
    long_page += section("第一期", "导语。" * 70, *items)
    short_page = nodes.document(None, None)
    short_page += section("一期", "短。", section("条目", "一句。"), section("结语", "二句。"))
    for doctree in (long_page, short_page):
        assert page_description(doctree) == theme_description(doctree)
    assert len(page_description(long_page)) == 160
    assert page_description(short_page).startswith("一期  短。  条目  一句。")
