"""Preview mode: what ``radar serve`` builds, and what it leaves out.

``radar serve`` (``build.preview``) keeps one Sphinx application alive and sets the
configuration value ``radar_preview``; ``make html`` never does. A preview build writes
every page as ``make html`` does, with a banner saying what the preview leaves out, and
skips the outputs written from the whole archive at the end of a build (search index,
feeds, data export, sitemap) and the statistics charts. After the session's first build
it also defers, until the next session, what a save changes only on other pages:
listings, period pages and issue pages that merely link to the edited one (their
neighbours and related items); an issue page is still rewritten when the references it
cites change. A deferred page keeps its old signature (``collector.pages_to_rewrite``),
so the next session's first build rewrites it.
"""

from __future__ import annotations

import functools
from collections.abc import Callable
from typing import TYPE_CHECKING, Any, TypeVar

from juju_radar.store.build_state import build_state

if TYPE_CHECKING:
    from sphinx.application import Sphinx
    from sphinx.config import Config

BANNER = (
    "本地预览（radar serve）：保存后只重建改动的页面。搜索索引、订阅源、数据导出、"
    "站点地图和统计图表在预览中不生成；归档、专题、参考文献等列表页和相邻各期的链接"
    "要到重新启动预览后才更新。正式网站以 make html 的结果为准。"
)
# Printed in the head (``radar_head_styles``) and allowed by hash (``csp``).
BANNER_STYLE = (
    ".radar-preview-banner { padding: 0.5rem 1rem; font-size: 0.9rem; line-height: 1.5; "
    "background: var(--pst-color-warning-bg, #fff3cd); "
    "border-bottom: 1px solid var(--pst-color-warning, #b58100); }"
)
CHARTS_LEFT_OUT = "预览中不绘制统计图表：make html 构建的网站里有。"
# Emitted before each build of a preview application after its first
# (``build.preview.check_again``).
BUILD_AGAIN = "radar-build-again"

Handler = TypeVar("Handler", bound=Callable[..., None])


def is_preview(config: Config) -> bool:
    return bool(config.radar_preview)


def start_deferring(app: Sphinx) -> None:
    """From now on a build rewrites only the pages a save changed (see above)."""
    build_state(app).deferring = True


def defers_other_pages(app: Sphinx) -> bool:
    return is_preview(app.config) and build_state(app).deferring


def skipped_in_preview(handler: Handler) -> Handler:
    """A ``build-finished`` handler writing an output the preview leaves out."""

    @functools.wraps(handler)
    def unless_preview(app: Sphinx, *args: Any) -> None:
        if not is_preview(app.config):
            handler(app, *args)

    return unless_preview  # type: ignore[return-value]


def deferred_in_preview(handler: Handler) -> Handler:
    """A handler the preview runs in a session's first build only: a full collection
    before reading, and the build-finished ones whose work waits until the session
    stops (``build.preview``) or the next session."""

    @functools.wraps(handler)
    def unless_deferring(app: Sphinx, *args: Any) -> None:
        if not defers_other_pages(app):
            handler(app, *args)

    return unless_deferring  # type: ignore[return-value]


def add_banner(
    app: Sphinx, pagename: str, templatename: str, context: dict[str, Any], doctree: Any
) -> None:
    """``layout.html`` shows ``radar_preview_banner`` above the page header."""
    if is_preview(app.config):
        context["radar_preview_banner"] = BANNER
        context.setdefault("radar_head_styles", []).append(BANNER_STYLE)
