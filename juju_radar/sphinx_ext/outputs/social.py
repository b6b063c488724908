"""What a page tells feed readers, search engines and link previews, and the 404 page.

sphinxext-opengraph writes the ``og:``/``twitter:`` meta tags; an issue page's
description is its lead (set here, before opengraph runs). Every page links the
archive's Atom feed in its head, and a topic page its topic's feed too.
sphinx-notfound-page writes ``404.html`` with links rooted at the site URL's path.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from markupsafe import Markup

from juju_radar.model.issue_records import plain_text
from juju_radar.outputs.feeds import ALL_FEED, feed_path
from juju_radar.outputs.siteurl import SiteUrl
from juju_radar.sphinx_ext.collector import radar_data
from juju_radar.sphinx_ext.config import vocabulary

if TYPE_CHECKING:
    from sphinx.application import Sphinx
    from sphinx.config import Config

DESCRIPTION_LENGTH = 160
TOPIC_PAGE_PREFIX = "topics/"
FEED_LINK = Markup('\n<link rel="alternate" type="application/atom+xml" title="{}" href="{}" />')
NOT_FOUND_TITLE = "页面不存在"
NOT_FOUND_LINKS = (
    ("index.html", "首页"),
    ("issues/index.html", "往期归档"),
    ("topics/index.html", "按主题浏览"),
    ("search.html", "搜索"),
)


def shorten(text: str, length: int = DESCRIPTION_LENGTH) -> str:
    text = " ".join(text.split())
    return text if len(text) <= length else text[: length - 1].rstrip() + "…"


def not_found_body(prefix: str) -> str:
    links = Markup("").join(
        Markup('<li><a href="{}{}">{}</a></li>').format(prefix, path, label)
        for path, label in NOT_FOUND_LINKS
    )
    return str(
        Markup("<h1>{}</h1><p>{}</p><ul>{}</ul>").format(
            NOT_FOUND_TITLE, "这个地址没有页面：它可能已被移动或删除。可以从这些地方继续：", links
        )
    )


def configure_extensions(app: Sphinx, config: Config) -> None:
    """Settings of the publishing extensions that follow from ``radar_site_url``."""
    site = SiteUrl.from_config(config)
    config.notfound_urls_prefix = site.path
    config.notfound_context = {"title": NOT_FOUND_TITLE, "body": not_found_body(site.path)}
    if not site:
        return
    config.html_baseurl = site.base
    config.ogp_site_url = site.base
    config.ogp_site_name = config.html_title or config.project
    config.ogp_social_cards = {"enable": False}
    config.ogp_custom_meta_tags = [
        '<meta property="og:locale" content="zh_CN" />',
        '<meta name="twitter:card" content="summary" />',
    ]


def page_description(app: Sphinx, pagename: str, meta: dict[str, Any]) -> str:
    """An issue's lead, or the ``description`` its front matter gives a page, or ""."""
    issue = radar_data(app.env).issues.get(pagename)
    if issue is not None and issue.lead:
        return shorten(" ".join(plain_text(paragraph) for paragraph in issue.lead))
    return shorten(str(meta.get("description", "")))


def topic_description(app: Sphinx, pagename: str) -> str:
    """A topic page's topic, as the vocabulary describes it, or ""."""
    if not pagename.startswith(TOPIC_PAGE_PREFIX):
        return ""
    topic = vocabulary(app.config).topic(pagename.removeprefix(TOPIC_PAGE_PREFIX))
    return shorten(topic.description) if topic is not None else ""


def describe_page(
    app: Sphinx, pagename: str, templatename: str, context: dict[str, Any], doctree: Any
) -> None:
    """``og:description`` and ``description`` from the page's own summary, when it has
    one; otherwise opengraph takes the start of the page text (and a topic page's
    ``description`` is its topic's)."""
    meta = context.get("meta") or {}
    description = page_description(app, pagename, meta)
    if "metatags" not in context:
        return
    if not description:
        # Search engines read ``description``; a topic page's link previews keep the
        # start of its text (its items), its search snippet says what the topic is.
        if topic := topic_description(app, pagename):
            context["metatags"] += str(
                Markup('\n<meta name="description" content="{}" />').format(topic)
            )
        return
    # A copy: context["meta"] is the environment's own metadata of the page.
    context["meta"] = {**meta, "og:description": description}
    if pagename in radar_data(app.env).issues:
        context["meta"]["og:type"] = "article"
    context["metatags"] += str(
        Markup('\n<meta name="description" content="{}" />').format(description)
    )


def keep_drafts_unindexed(
    app: Sphinx, pagename: str, templatename: str, context: dict[str, Any], doctree: Any
) -> None:
    """A draft is built for its editors to preview, at an address anyone could guess;
    search engines are asked not to list it."""
    issue = radar_data(app.env).issues.get(pagename)
    if issue is not None and not issue.published and "metatags" in context:
        context["metatags"] += '\n<meta name="robots" content="noindex" />'


def feed_links(app: Sphinx, pagename: str) -> list[tuple[str, str]]:
    """(title, output path) of the feeds a page announces."""
    title = app.config.html_title or app.config.project
    links = [(f"{title} · 全部各期", feed_path(ALL_FEED))]
    topic = vocabulary(app.config).topic(pagename.removeprefix(TOPIC_PAGE_PREFIX))
    if pagename.startswith(TOPIC_PAGE_PREFIX) and topic is not None:
        links.append((f"{title} · {topic.title}", feed_path(topic.key)))
    return links


def add_feed_links(
    app: Sphinx, pagename: str, templatename: str, context: dict[str, Any], doctree: Any
) -> None:
    """Absolute with the site's address, else relative to the page (every build has
    feeds)."""
    if "metatags" not in context:
        return
    site = SiteUrl.from_config(app.config)
    context["metatags"] += "".join(
        str(FEED_LINK.format(title, site.url(path) if site else context["pathto"](path, 1)))
        for title, path in feed_links(app, pagename)
    )
