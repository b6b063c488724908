"""Links between pages, worked out per pair of folders, are Sphinx's relative links."""

from __future__ import annotations

from hypothesis import given
from hypothesis import strategies as st
from sphinx.util.osutil import relative_uri

from juju_radar.sphinx_ext.transforms import page_link

SEGMENT = st.sampled_from(["issues", "2026", "2027", "topics", "agent", "index", "a", "b"])
DOCNAME = st.lists(SEGMENT, min_size=1, max_size=4).map("/".join)
SUFFIX = st.sampled_from([".html", "/", "", ".htm"])


@given(DOCNAME, DOCNAME, SUFFIX)
def test_a_page_link_is_sphinxs_relative_uri(base, target, suffix):
    assert page_link(base, target, suffix) == relative_uri(base + suffix, target + suffix)
