"""The never-empty templates skip the theme's emptiness check and keep their place."""

from __future__ import annotations

from juju_radar.accel.theme_sections import put_back, take_out


def theme_check(context: dict) -> None:
    """What pydata-sphinx-theme does between the two handlers: suffix the names and drop
    the templates that render empty (here: the ones named ``empty``)."""
    for section in ("sidebars", "theme_article_header_end"):
        value = context.get(section)
        if value:
            names = value.split(",") if isinstance(value, str) else value
            suffixed = [n.strip() if "." in n else f"{n.strip()}.html" for n in names]
            context[section] = [n for n in suffixed if not n.startswith("empty")]


def test_never_empty_templates_are_not_rendered_by_the_check_and_keep_their_place():
    context = {
        "sidebars": ["navbar-logo.html", "empty-links", "sbt-sidebar-nav.html", "search"],
        "theme_article_header_end": "article-header-buttons.html",
    }
    take_out(None, "index", "page.html", context, None)
    assert "sbt-sidebar-nav.html" not in context["sidebars"]
    assert context["theme_article_header_end"] == []
    theme_check(context)
    put_back(None, "index", "page.html", context, None)
    assert context["sidebars"] == ["navbar-logo.html", "sbt-sidebar-nav.html", "search.html"]
    assert context["theme_article_header_end"] == ["article-header-buttons.html"]
