"""Whether an address is on the public internet: the network rule's judgement, pure.

Two questions, one answer each:

* :func:`ip_refusal`: why an IP address (after name resolution) is not one the editors'
  tools may connect to: loopback, private, link-local, unique-local, shared (100.64/10),
  multicast, reserved, unspecified, IPv4-mapped or IPv4-compatible, or an IPv6 address
  embedding such an IPv4 address (6to4 ``2002::/16``, Teredo). A NAT64 address
  (``64:ff9b::/96``, what a DNS64 resolver answers on an IPv6-only network) is judged by
  the IPv4 address it reaches.
* :func:`private_host`: why a URL, read literally and with no name resolution, names
  such an address: a user name before its host (``http://example.com@127.0.0.1/``),
  ``localhost`` or a name under it, or an IP address in any spelling a resolver or a
  browser reads (``127.1``, ``2130706433``, ``0x7f000001``, ``0177.0.0.1``,
  ``[::ffff:127.0.0.1]``).

The reasons are message keys of :data:`REASONS`, translated where they are shown.
"""

from __future__ import annotations

import ipaddress
import unicodedata
from urllib.parse import unquote, urlsplit

from juju_radar.model.messages import N_

IPAddress = ipaddress.IPv4Address | ipaddress.IPv6Address

REASONS: dict[str, str] = {
    "loopback": N_("a loopback address"),
    "private": N_("a private address"),
    "link-local": N_("a link-local address"),
    "unique-local": N_("a unique-local address"),
    "shared": N_("a shared (carrier-grade NAT) address"),
    "multicast": N_("a multicast address"),
    "reserved": N_("a reserved address"),
    "unspecified": N_("the unspecified address"),
    "ipv4-mapped": N_("an IPv4-mapped or IPv4-compatible address"),
    "not-global": N_("not a public address"),
    "localhost": N_("the name of this machine (localhost)"),
    "userinfo": N_("a user name or password before its host"),
}
"""What each reason says, in English (translated when shown)."""

_SHARED = ipaddress.ip_network("100.64.0.0/10")
_NAT64 = ipaddress.ip_network("64:ff9b::/96")
"""The well-known NAT64 prefix: the last 32 bits are the IPv4 address reached."""
_COMPATIBLE = ipaddress.ip_network("::/96")
_UNIQUE_LOCAL = ipaddress.ip_network("fc00::/7")
# Dots a browser reads as ``.`` in a host name (UTS #46 maps them).
_DOTS = str.maketrans({"\u3002": ".", "\uff0e": ".", "\uff61": "."})


def ip_refusal(address: IPAddress) -> str | None:
    """The reason (a key of :data:`REASONS`) ``address`` is not public, or None."""
    if isinstance(address, ipaddress.IPv6Address):
        if address.ipv4_mapped is not None or (address in _COMPATIBLE and int(address) > 1):
            return "ipv4-mapped"
        if address in _NAT64:  # what a DNS64 resolver answers for an IPv4-only host
            return ip_refusal(ipaddress.IPv4Address(int(address) & 0xFFFFFFFF))
        inner = address.sixtofour or (address.teredo[1] if address.teredo else None)
        if inner is not None and (reason := ip_refusal(inner)) is not None:
            return reason
    checks = (
        ("unspecified", address.is_unspecified),
        ("loopback", address.is_loopback),
        ("link-local", address.is_link_local),
        ("multicast", address.is_multicast),
        ("shared", address in _SHARED),
        ("unique-local", address in _UNIQUE_LOCAL),
        ("reserved", address.is_reserved),
        ("private", address.is_private),
        ("not-global", not address.is_global),
    )
    return next((reason for reason, refused in checks if refused), None)


def private_host(url: str) -> str | None:
    """Why ``url``, read literally, leads off the public internet (a key of
    :data:`REASONS`), or None. No name is resolved: ``example.org`` is never refused."""
    try:
        parts = urlsplit(url.strip())
    except ValueError:
        return None
    if "@" in parts.netloc:
        return "userinfo"
    try:
        raw = parts.hostname
    except ValueError:
        return None
    if raw is None:
        return None
    host = unicodedata.normalize("NFKC", unquote(raw)).translate(_DOTS).lower().rstrip(".")
    return host_refusal(host)


def host_refusal(host: str) -> str | None:
    """Why the host name or address ``host`` (no brackets) is not public, literally."""
    if host == "localhost" or host.endswith(".localhost"):
        return "localhost"
    address = ip_literal(host)
    return None if address is None else ip_refusal(address)


def ip_literal(host: str) -> IPAddress | None:
    """The IP address ``host`` spells, as resolvers and browsers read it, or None."""
    try:
        return ipaddress.ip_address(host.split("%", 1)[0] if ":" in host else host)
    except ValueError:
        pass
    return _ipv4_numbers(host)


def _ipv4_numbers(host: str) -> ipaddress.IPv4Address | None:
    """An IPv4 address written with one to four numbers, each decimal, octal (``0177``)
    or hexadecimal (``0x7f``), the last filling the bytes left (``127.1``, ``2130706433``),
    as ``inet_aton`` and the WHATWG URL standard read it."""
    labels = host.split(".")
    if len(labels) > 1 and labels[-1] == "":
        labels.pop()
    if not 1 <= len(labels) <= 4:
        return None
    numbers = []
    for label in labels:
        number = _ipv4_number(label)
        if number is None:
            return None
        numbers.append(number)
    *leading, last = numbers
    if any(number > 255 for number in leading) or last >= 256 ** (5 - len(numbers)):
        return None
    value = last
    for position, number in enumerate(leading):
        value += number << (8 * (3 - position))
    return ipaddress.IPv4Address(value)


def _ipv4_number(label: str) -> int | None:
    digits, base = label, 10
    if label[:2].lower() == "0x":
        digits, base = label[2:], 16
    elif len(label) > 1 and label.startswith("0"):
        digits, base = label[1:], 8
    if digits == "":
        return 0 if base == 16 else None
    allowed = {10: "0123456789", 8: "01234567", 16: "0123456789abcdefABCDEF"}[base]
    if not all(char in allowed for char in digits):
        return None
    return int(digits, base)
