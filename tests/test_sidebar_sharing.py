"""Pages that no toctree lists share one rendering of the navigation per folder."""

from __future__ import annotations

from types import SimpleNamespace

from juju_radar.accel.shared_toctree import reset_shared_toctrees, share_toctree_html


def fake_app() -> SimpleNamespace:
    env = SimpleNamespace(
        found_docs={"index", "topics/agent", "issues/2026/2026-09-08", "issues/2026/2026-09-09"},
        files_to_rebuild={"topics/agent": {"topics/index"}},
    )
    app = SimpleNamespace(
        env=env, builder=SimpleNamespace(), config=SimpleNamespace(root_doc="index")
    )
    reset_shared_toctrees(app, env)
    return app


def page_navigation(app: SimpleNamespace, pagename: str, calls: list[str]) -> str:
    def generate(kind: str, **kwargs: object) -> str:
        calls.append(pagename)
        return f"<nav for {pagename}>"

    context = {"generate_toctree_html": generate}
    share_toctree_html(app, pagename, "page.html", context, None)
    return context["generate_toctree_html"](kind="sidebar", startdepth=0)


def test_unlisted_pages_of_one_folder_share_and_listed_pages_keep_their_own():
    app, calls = fake_app(), []
    first = page_navigation(app, "issues/2026/2026-09-08", calls)
    second = page_navigation(app, "issues/2026/2026-09-09", calls)
    assert first == second and calls == ["issues/2026/2026-09-08"]
    assert page_navigation(app, "topics/agent", calls) == "<nav for topics/agent>"
    assert page_navigation(app, "index", calls) == "<nav for index>"
    assert page_navigation(app, "404", calls) == "<nav for 404>"
    # A new build starts afresh.
    reset_shared_toctrees(app, app.env)
    page_navigation(app, "issues/2026/2026-09-09", calls)
    assert calls[-1] == "issues/2026/2026-09-09"
