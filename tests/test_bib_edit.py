"""One entry changed in place (bib/edit.py): the fields added line up with the entry's
own, and every other entry stays byte for byte."""

from __future__ import annotations

from juju_radar.bib.edit import set_fields

TEXT = """% kept
@misc{a,
  title = {A},
  note  = {N},
}

@misc{b,
  title={B}, note={M}
}
"""


def test_added_fields_line_up_with_the_entrys_own():
    edited = set_fields(TEXT, "a", {"url": "https://example.org/a", "urldate": "2026-12-03"})
    assert edited.split("@misc{b,")[0] == (
        "% kept\n@misc{a,\n"
        "  title   = {A},\n"
        "  note    = {N},\n"
        "  url     = {https://example.org/a},\n"
        "  urldate = {2026-12-03},\n"
        "}\n\n"
    )
    assert edited.endswith(TEXT[TEXT.index("@misc{b,") :])


def test_a_field_no_wider_than_the_others_changes_no_other_line():
    edited = set_fields(TEXT, "a", {"doi": "10.5555/x"})
    assert "  title = {A},\n  note  = {N},\n  doi   = {10.5555/x},\n}" in edited


def test_an_entry_laid_out_otherwise_keeps_its_layout():
    edited = set_fields(TEXT, "b", {"urldate": "2026-12-03"})
    assert "  title={B}, note={M}" in edited
