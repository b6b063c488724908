"""An export item's last line: its source link labels, separated by ``' · '``, each
with the address the editors may write after it (``论文 <https://…>``), checked."""

from __future__ import annotations

import re
import unicodedata
from collections.abc import Sequence
from dataclasses import dataclass
from urllib.parse import urlsplit

from juju_radar.editors.export_blocks import Block
from juju_radar.editors.export_problems import Report, shorten
from juju_radar.model.item_options import check_visible
from juju_radar.model.messages import _
from juju_radar.model.public_address import REASONS, private_host
from juju_radar.model.urls import is_web_address

SOURCE_SEPARATOR_RE = re.compile(r"\s+[·・]\s+")
SENTENCE_END = "。！？!?"
CLAUSE_PUNCTUATION = "，；："  # in sentences, never in a link's label
MAX_LABEL_CHARS = 60
# A label followed by its address, as pages write a label and its key: ``论文 <https://…>``.
LABEL_ADDRESS_RE = re.compile(r"^(?P<label>.+?)\s+<(?P<address>[^<>]*)>$")
MISPLACED_ADDRESS_RE = re.compile(r"^\S*://\S*$")
MAX_ADDRESS_CHARS = 2000
ADDRESS_REFUSED_CHARS = "\"'`{}\\<>"


@dataclass(frozen=True)
class ExportSource:
    """A source link label, and the address the editors wrote after it, if any."""

    label: str
    address: str | None = None


def read_sources(
    content: list[Block], heading: Block, report: Report
) -> tuple[ExportSource, ...] | None:
    if not content:
        message = _("the item has no body text and no line of source labels")
        report.error(heading.line, "missing-body", message)
        return None
    last = content[-1]
    sources = tuple(_split_address(part) for part in SOURCE_SEPARATOR_RE.split(last.text))
    labels = tuple(source.label for source in sources)
    # A word holding "://" is a misplaced address, refused below as such.
    label_text = " · ".join(label for label in labels if not MISPLACED_ADDRESS_RE.match(label))
    clause = any(char in CLAUSE_PUNCTUATION for char in label_text)
    if not last.is_single_line or clause or any(char in SENTENCE_END for char in label_text):
        # A one-line last paragraph with a comma is body text: the labels line is missing.
        if clause:
            message = _(
                "an item must end with its line of source link labels, separated by ' · ' "
                "(found '{found}': labels have no '，', '；' or '：')"
            )
        else:
            message = _(
                "an item must end with its line of source link labels, separated by ' · ' "
                "(found '{found}')"
            )
        report.error(last.line, "missing-sources", message.format(found=shorten(last.text)))
        return None
    reasons = [reason for label in labels if (reason := _label_problem(label))]
    reasons += [
        _("the label '{label}' is given twice; each label names its own link").format(label=label)
        for position, label in enumerate(labels)
        if label in labels[:position]
    ]
    if reasons:
        message = _("source labels '{labels}': {reason}").format(
            labels=shorten(last.text), reason=reasons[0]
        )
        report.error(last.line, "bad-label", message)
        return None
    if not all([check_visible(label, last.line, report) for label in labels]):
        return None
    return sources if _addresses_ok(sources, last.line, report) else None


def _split_address(part: str) -> ExportSource:
    match = LABEL_ADDRESS_RE.match(part)
    return ExportSource(match["label"], match["address"]) if match else ExportSource(part)


def _addresses_ok(sources: Sequence[ExportSource], line: int, report: Report) -> bool:
    ok = True
    for source in sources:
        if source.address is not None and (reason := address_problem(source.address)):
            message = _("the address of '{label}' {reason}").format(
                label=source.label, reason=reason
            )
            report.error(line, "bad-address", message)
            ok = False
        elif source.address is not None and (private := private_host(source.address)):
            message = _("the address of '{label}' leads off the public internet: {reason}")
            message = message.format(label=source.label, reason=_(REASONS[private]))
            report.error(line, "private-address", message)
            ok = False
    return ok


def address_problem(address: str) -> str | None:
    """Why ``address`` cannot be a source's url, or None when it can."""
    if len(address) > MAX_ADDRESS_CHARS:
        return _("has {count} characters, at most {limit}").format(
            count=len(address), limit=MAX_ADDRESS_CHARS
        )
    bad = [char for char in address if _refused_in_address(char)]
    if bad:
        return _("holds {char!r}, which an address cannot hold (encode it)").format(char=bad[0])
    try:
        parts = urlsplit(address)
        host, user = parts.hostname, parts.username
    except ValueError:
        return _("'{address}' cannot be read as an address").format(address=shorten(address))
    if not is_web_address(address) or not host:
        return _("'{address}' is not a full http(s) address (https://…)").format(
            address=shorten(address)
        )
    if user is not None:
        return _("'{address}' names a user or password before its host").format(
            address=shorten(address)
        )
    return None


def _refused_in_address(char: str) -> bool:
    return char.isspace() or char in ADDRESS_REFUSED_CHARS or unicodedata.category(char)[0] == "C"


def _label_problem(label: str) -> str | None:
    """Why ``label`` cannot be a source label, or None when it can."""
    if not label.strip("·・ "):
        return _("a label is empty (a stray ' · '?)")
    if label.strip("·・ ") != label:
        return _("'{label}' starts or ends with '·' (a stray separator?)").format(
            label=shorten(label)
        )
    if "://" in label:
        return _("'{label}' holds an address: write it after a label, 'LABEL <https://…>'").format(
            label=shorten(label)
        )
    if len(label) > MAX_LABEL_CHARS:
        return _("a label has at most {limit} characters, '{label}' has {count}").format(
            limit=MAX_LABEL_CHARS, label=shorten(label), count=len(label)
        )
    return None
