"""The cache kept between builds, and formatted entries stored in it as plain data."""

from __future__ import annotations

from pathlib import Path

import pytest
from conftest import sphinx_build
from docutils import nodes
from sphinx import addnodes

from juju_radar.sphinx_ext.bibliography import FORMATTED, node_data, node_from_data
from juju_radar.store.cache import FOLDER_NAME, BuildCache


def test_values_survive_a_new_process_and_forgotten_keys_are_dropped(tmp_path: Path) -> None:
    cache = BuildCache(tmp_path / "cache")
    assert cache.get("entries", "a", lambda: ["formatted a"]) == ["formatted a"]
    assert cache.get("entries", "a", lambda: ["never computed"]) == ["formatted a"]
    cache.put("entries", "b", "formatted b")
    cache.save()

    later = BuildCache(tmp_path / "cache")
    assert later.peek("entries", "a") == ["formatted a"]
    later.keep_only("entries", ["b"])
    later.save()
    assert BuildCache(tmp_path / "cache").store("entries") == {"b": "formatted b"}


def test_a_damaged_file_is_an_empty_cache(tmp_path: Path) -> None:
    (tmp_path / "cache").mkdir()
    (tmp_path / "cache" / "entries.pickle").write_bytes(b"not a pickle")
    assert BuildCache(tmp_path / "cache").peek("entries", "a") is None


def test_an_altered_file_that_still_unpickles_is_recomputed(tmp_path: Path) -> None:
    import pickle

    cache = BuildCache(tmp_path / "cache")
    cache.put("entries", "a", "<p>good</p>")
    cache.save()
    path = tmp_path / "cache" / "entries.pickle"
    data = path.read_bytes()
    altered = data.replace(b"<p>good</p>", b"<p>evil</p>")  # same length: still a pickle
    assert altered != data and pickle.loads(altered[altered.index(b"\n") + 1 :])["a"] == (
        "<p>evil</p>"
    ), "the altered file still loads as a pickle"
    path.write_bytes(altered)
    later = BuildCache(tmp_path / "cache")
    assert later.get("entries", "a", lambda: "<p>recomputed</p>") == "<p>recomputed</p>"
    path.write_bytes(pickle.dumps({"a": "<p>evil</p>"}))  # a pickle without its digest
    assert BuildCache(tmp_path / "cache").peek("entries", "a") is None


def test_formatted_entry_round_trips_through_plain_data() -> None:
    paragraph = nodes.paragraph()
    paragraph += nodes.Text("Sierra. ")
    paragraph += nodes.emphasis("", "Nature Biotechnology")
    paragraph += nodes.reference("", "doi", refuri="https://doi.org/10.1/x", classes=["doi"])
    data = node_data(paragraph)
    assert data is not None
    rebuilt = node_from_data(data)
    assert rebuilt.pformat() == paragraph.pformat()
    assert rebuilt["classes"] is not paragraph["classes"]


def test_an_entry_starting_with_a_link_keeps_its_link() -> None:
    paragraph = nodes.paragraph()
    paragraph += nodes.reference("", "doi:10.1/x", refuri="https://doi.org/10.1/x")
    paragraph += nodes.Text(".")
    rebuilt = node_from_data(node_data(paragraph))  # type: ignore[arg-type]
    assert rebuilt.pformat() == paragraph.pformat()
    assert isinstance(rebuilt.children[0], nodes.reference)


def test_nodes_of_other_packages_are_not_stored_as_data() -> None:
    paragraph = nodes.paragraph()
    paragraph += addnodes.pending_xref("", nodes.Text("x"), reftarget="y")
    assert node_data(paragraph) is None


@pytest.mark.site
def test_formatted_entries_of_an_edited_entry_are_dropped_once_per_version_of_the_bib(
    site_copy: Path, tmp_path: Path
) -> None:
    outdir = tmp_path / "html"
    formatted = tmp_path / "html.doctrees" / FOLDER_NAME / f"{FORMATTED}.pickle"

    def formatted_keys() -> set[str]:
        return set(BuildCache(formatted.parent).store(FORMATTED))

    sphinx_build(site_copy, outdir)
    before = formatted_keys()
    bib = site_copy / "references.bib"
    bib.write_text(bib.read_text("utf-8").replace("RISE 论文", "RISE 论文（修订）"), "utf-8")
    sphinx_build(site_copy, outdir)
    after = formatted_keys()
    assert len(after) == len(before) and len(after - before) == 1  # the edited entry's
    stamp = formatted.stat().st_mtime_ns
    sphinx_build(site_copy, outdir)
    assert formatted_keys() == after and formatted.stat().st_mtime_ns == stamp
