"""The network rule: the editors' tools connect only to public addresses.

Fakes listen on 127.0.0.1 and are reached through the documented setting that admits
named hosts (``RADAR_TRUSTED_HOSTS`` / ``radar_trusted_hosts``); names are answered by a
fake resolver (:func:`fake_services.fake_names`), never by DNS. Without the setting the
same fake is refused and receives no request. ``radar check`` and ``radar import`` judge
the literal host of the addresses in references.bib and in exports.
"""

from __future__ import annotations

import ipaddress
import json
import socket
import ssl
import threading
from collections.abc import Iterator
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path
from typing import Any

import httpcore
import httpx
import pytest
import trustme
from conftest import copy_site, examples, seed_vocabulary, sphinx_build
from fake_services import FAKES_HOST, Reply, fake_names, fake_services, serving, trust_fakes
from hypothesis import given, settings
from hypothesis import strategies as st
from import_cases import GOOD, run_import, site_files

from juju_radar.bib.check import check_bib_text
from juju_radar.editors import cli
from juju_radar.editors.export_reader import parse_export
from juju_radar.editors.public_net import (
    NameNotResolved,
    NetworkRule,
    PublicTransport,
    RefusedAddress,
    RefusedURL,
    followed,
    public_client,
)
from juju_radar.model.public_address import ip_literal, ip_refusal, private_host

BIB = "references.bib"
SEED_VOCABULARY = seed_vocabulary()
PUBLIC = "93.184.216.34"  # never connected to: the tests stop before or record instead


# --- the judgement of a literal host ------------------------------------------------------

PRIVATE = [
    ("http://localhost/paper", "localhost"),
    ("http://LOCALHOST./paper", "localhost"),
    ("http://papers.localhost:8080/", "localhost"),
    ("http://127.0.0.1/", "loopback"),
    ("http://127.1/", "loopback"),
    ("http://2130706433/", "loopback"),
    ("http://0x7f000001/", "loopback"),
    ("http://0x7f.1/", "loopback"),
    ("http://0177.0.0.1/", "loopback"),
    ("http://127.0.0.1./", "loopback"),
    ("http://127\u30020\u30020\u30021/", "loopback"),
    ("http://\uff11\uff12\uff17.0.0.1/", "loopback"),
    ("http://[::1]/", "loopback"),
    ("http://[::ffff:127.0.0.1]/", "ipv4-mapped"),
    ("http://[::ffff:7f00:1]/", "ipv4-mapped"),
    ("http://[::127.0.0.1]/", "ipv4-mapped"),
    ("http://[64:ff9b::7f00:1]/", "loopback"),
    ("http://[64:ff9b::10.0.0.1]/", "private"),
    ("http://[2002:7f00:1::1]/", "loopback"),
    ("http://[2001:0:4136:e378::80ff:fffe]/", "loopback"),  # Teredo, client 127.0.0.1
    ("http://[2002:a00:1::]/", "private"),
    ("http://[fe80::1%25eth0]/", "link-local"),
    ("http://[fd12:3456::1]/", "unique-local"),
    ("http://10.0.0.1/", "private"),
    ("http://172.16.5.4/", "private"),
    ("http://192.168.1.1/", "private"),
    ("http://169.254.169.254/latest/meta-data/", "link-local"),
    ("http://100.64.0.1/", "shared"),
    ("http://224.0.0.1/", "multicast"),
    ("http://0/", "unspecified"),
    ("http://0.0.0.0/", "unspecified"),
    ("http://240.0.0.1/", "reserved"),
    ("http://example.com@127.0.0.1/", "userinfo"),
    ("https://user:secret@example.org/", "userinfo"),
]
PUBLIC_URLS = [
    "https://example.org/paper",
    "https://arxiv.org/abs/2609.01234",
    "http://8.8.8.8/",
    "http://[2606:4700:4700::1111]/",
    "http://[64:ff9b::8.8.8.8]/",  # NAT64 to a public address (an IPv6-only network)
    "http://[2002:808:808::1]/",  # 6to4 of a public address
    "https://localhost.example.org/",
    "https://example.org/path@127.0.0.1",
    "http://999.0.0.1/",  # not an address: a name, resolved (and judged) when fetched
]


@pytest.mark.parametrize("url, reason", PRIVATE, ids=[url for url, _ in PRIVATE])
def test_a_private_host_is_told_in_any_spelling(url, reason):
    assert private_host(url) == reason


@pytest.mark.parametrize("url", PUBLIC_URLS)
def test_a_public_host_passes(url):
    assert private_host(url) is None


# --- what the tools connect to -------------------------------------------------------------


class Fake:
    """A web server on 127.0.0.1: each path answers a status and a Location."""

    def __init__(self) -> None:
        self.port = 0
        self.requests: list[tuple[str, str, str]] = []  # method, path, Host header
        self.routes: dict[str, tuple[int, str]] = {}


@pytest.fixture
def fake() -> Iterator[Fake]:
    state = Fake()

    class Handler(BaseHTTPRequestHandler):
        def answer(self) -> None:
            state.requests.append((self.command, self.path, self.headers.get("Host", "")))
            status, location = state.routes.get(self.path, (200, ""))
            self.send_response(status)
            if location:
                self.send_header("Location", location.format(port=state.port))
            self.send_header("Content-Length", "0")
            self.end_headers()

        do_GET = do_HEAD = answer  # noqa: N815 - the standard library's names

        def log_message(self, *args: object) -> None:
            pass

    with serving(Handler) as port:
        state.port = port
        yield state


def fetch(rule: NetworkRule, url: str) -> tuple[list[httpx.Response], httpx.Response]:
    with public_client(rule) as client:
        return followed(lambda method, hop: client.request(method, hop), "GET", url)


TRUSTING_FAKES = NetworkRule(frozenset({FAKES_HOST}))


def test_the_setting_admits_the_fake(fake):
    _hops, response = fetch(TRUSTING_FAKES, f"http://127.0.0.1:{fake.port}/ok")
    assert response.status_code == 200
    assert fake.requests == [("GET", "/ok", f"127.0.0.1:{fake.port}")]


@pytest.mark.parametrize(
    "host", ["127.0.0.1", "localhost", "127.1", "2130706433", "0x7f000001", "0177.0.0.1"]
)
def test_without_the_setting_the_fake_is_refused_and_asked_nothing(fake, monkeypatch, host):
    """Refused by the rule, or (``0177.0.0.1``) by httpx's reading of the address."""
    fake_names(monkeypatch, {"localhost": FAKES_HOST})
    with pytest.raises((RefusedAddress, RefusedURL), match="loopback address|not an address"):
        fetch(NetworkRule(), f"http://{host}:{fake.port}/ok")
    assert fake.requests == []


def test_a_name_is_trusted_as_written_not_as_resolved(fake):
    """127.0.0.1 is admitted; 127.1, the same address spelled otherwise, is not."""
    with pytest.raises(RefusedAddress):
        fetch(TRUSTING_FAKES, f"http://127.1:{fake.port}/ok")
    assert fake.requests == []


@pytest.mark.parametrize(
    "location",
    [
        "http://127.0.0.1:{port}/secret",
        "http://localhost:{port}/secret",
        "http://2130706433:{port}/secret",
        "http://[::ffff:127.0.0.1]:{port}/secret",
        "http://private.test:{port}/secret",
    ],
)
def test_a_redirect_from_a_trusted_host_to_a_private_one_is_refused(fake, monkeypatch, location):
    """public.test is admitted by the setting (and resolves to the fake); where it
    redirects is judged again, and the fake never sees the second request."""
    fake_names(monkeypatch, {"public.test": FAKES_HOST, "private.test": "10.1.2.3"})
    fake.routes["/hop"] = (302, location)
    rule = NetworkRule(frozenset({"public.test"}))
    with pytest.raises(httpx.ConnectError):
        fetch(rule, f"http://public.test:{fake.port}/hop")
    assert [path for _, path, _ in fake.requests] == ["/hop"]


@pytest.mark.parametrize(
    "location, refused",
    [
        ("http://example.com@127.0.0.1:{port}/secret", "user name or password"),
        ("file:///etc/passwd", "only http\\(s\\)"),
        ("ftp://127.0.0.1:{port}/secret", "only http\\(s\\)"),
    ],
)
def test_a_redirect_to_userinfo_or_another_scheme_is_refused(fake, location, refused):
    fake.routes["/hop"] = (301, location)
    with pytest.raises(RefusedURL, match=refused):
        fetch(TRUSTING_FAKES, f"http://127.0.0.1:{fake.port}/hop")
    assert [path for _, path, _ in fake.requests] == ["/hop"]


def test_an_address_with_userinfo_is_refused_even_on_a_trusted_host(fake):
    with pytest.raises(RefusedURL, match="user name or password"):
        fetch(TRUSTING_FAKES, f"http://example.com@127.0.0.1:{fake.port}/ok")
    assert fake.requests == []


def test_redirects_are_bounded(fake):
    """Five redirects are followed (the documented bound), the sixth is not."""
    fake.routes["/loop"] = (302, "/loop")
    with pytest.raises(httpx.TooManyRedirects, match="more than 5 redirects"):
        fetch(TRUSTING_FAKES, f"http://127.0.0.1:{fake.port}/loop")
    assert len(fake.requests) == 6
    fake.requests.clear()
    fake.routes.update({f"/{n}": (302, f"/{n + 1}") for n in range(5)})
    hops, response = fetch(TRUSTING_FAKES, f"http://127.0.0.1:{fake.port}/0")
    assert (len(hops), response.status_code, str(response.url).rsplit("/", 1)[1]) == (5, 200, "5")


@pytest.mark.parametrize(
    "answer", ["::ffff:127.0.0.1", "::1", "fe80::1%eth0", "10.0.0.7", "169.254.169.254"]
)
def test_a_name_resolving_to_a_private_address_is_refused(fake, monkeypatch, answer):
    fake_names(monkeypatch, {"innocent.test": answer})
    with pytest.raises(RefusedAddress, match="innocent.test resolves to "):
        fetch(NetworkRule(), f"http://innocent.test:{fake.port}/ok")
    assert fake.requests == []


class Sockets:
    """Where connections go, instead of the network: each one recorded, then refused."""

    def __init__(self) -> None:
        self.connected: list[str] = []

    def connect_tcp(self, host: str, *args: object, **options: object) -> httpcore.NetworkStream:
        self.connected.append(host)
        raise httpcore.ConnectError("recorded, not connected")


def test_rebinding_cannot_swap_the_checked_address(monkeypatch):
    """The name answers a public address, then a private one: the connection goes to the
    address that was checked, and the name is asked once."""
    answers = iter([PUBLIC, FAKES_HOST])
    asked = fake_names(monkeypatch, {"rebind.test": lambda: next(answers)})
    sockets = Sockets()
    monkeypatch.setattr(httpcore.SyncBackend, "connect_tcp", sockets.connect_tcp)
    with pytest.raises(httpx.ConnectError, match="recorded"):
        fetch(NetworkRule(), "http://rebind.test/paper")
    assert asked == ["rebind.test"]
    assert sockets.connected == [PUBLIC]


def test_a_trusted_name_is_still_resolved_once_and_keeps_its_host_header(fake, monkeypatch):
    answers = iter([FAKES_HOST, "10.9.9.9"])
    asked = fake_names(monkeypatch, {"mirror.test": lambda: next(answers)})
    _hops, response = fetch(
        NetworkRule(frozenset({"mirror.test"})), f"http://mirror.test:{fake.port}/ok"
    )
    assert response.status_code == 200
    assert asked == ["mirror.test"]
    assert fake.requests == [("GET", "/ok", f"mirror.test:{fake.port}")]


def test_a_name_that_does_not_resolve_raises_name_not_resolved(monkeypatch):
    fake_names(monkeypatch, {})
    with pytest.raises(NameNotResolved, match="cannot resolve nowhere.test") as raised:
        fetch(NetworkRule(), "https://nowhere.test/")
    assert raised.value.host == "nowhere.test"


# --- the commands --------------------------------------------------------------------------


def entry(key: str, url: str) -> str:
    return f"\n@misc{{{key},\n  title = {{{key}}},\n  url = {{{url}}},\n}}\n"


def with_entries(root: Path, *entries: str) -> int:
    bib = root / BIB
    text = bib.read_text(encoding="utf-8")
    bib.write_text(text + "".join(entries), encoding="utf-8")
    return text.count("\n") + 1


@pytest.fixture
def site(tmp_path: Path) -> Path:
    return copy_site(tmp_path / "src")


def test_links_external_without_the_setting_asks_the_fake_nothing(site, fake, monkeypatch, capsys):
    monkeypatch.setenv("RADAR_LINKS_INTERVAL", "0")
    monkeypatch.delenv("RADAR_TRUSTED_HOSTS", raising=False)
    with_entries(site, entry("local", f"http://127.0.0.1:{fake.port}/ok"))
    assert cli.main(["--root", str(site), "links", "--external"]) == 0
    out = capsys.readouterr().out
    [line] = [line for line in out.splitlines() if " local " in line]
    assert "127.0.0.1 is a loopback address" in line and line.endswith("[source-dead]")
    assert fake.requests == []


def test_links_external_with_the_setting_in_conf_py_asks_the_fake(site, fake, monkeypatch, capsys):
    monkeypatch.setenv("RADAR_LINKS_INTERVAL", "0")
    monkeypatch.delenv("RADAR_TRUSTED_HOSTS", raising=False)
    trust_fakes(site)
    with_entries(site, entry("local", f"http://127.0.0.1:{fake.port}/ok"))
    assert cli.main(["--root", str(site), "links", "--external"]) == 0
    assert " local " not in capsys.readouterr().out
    assert ("HEAD", "/ok", f"127.0.0.1:{fake.port}") in fake.requests


def test_links_external_says_the_network_is_unavailable(site, monkeypatch, capsys):
    """No name resolves: one line, exit 3, and no report that calls every source dead."""
    fake_names(monkeypatch, {})
    monkeypatch.setenv("RADAR_LINKS_INTERVAL", "0")
    monkeypatch.setenv("RADAR_DOI_URL", "https://doi.test")
    with_entries(site, entry("one", "https://one.test/a"), entry("two", "https://two.test/b"))
    assert cli.main(["--lang", "zh", "--root", str(site), "links", "--external"]) == 3
    out, err = capsys.readouterr()
    assert out == ""
    [line] = err.splitlines()
    assert "网络不可用：没有一个主机名能够解析（" in line
    assert "one.test" in line and "two.test" in line
    assert not (site / "_build/external-links.json").exists()


def test_links_external_with_one_host_resolved_reports_the_others_dead(
    site, fake, monkeypatch, capsys
):
    fake_names(monkeypatch, {})
    monkeypatch.setenv("RADAR_LINKS_INTERVAL", "0")
    trust_fakes(site)
    bib = (site / BIB).read_text(encoding="utf-8")
    (site / BIB).write_text(bib.split("@", 1)[0], encoding="utf-8")  # no seed sources
    with_entries(
        site, entry("up", f"http://127.0.0.1:{fake.port}/ok"), entry("x", "https://x.test/")
    )
    assert cli.main(["--root", str(site), "links", "--external"]) == 0
    out = capsys.readouterr().out
    [line] = out.splitlines()
    assert ": x https://x.test/ (cannot resolve x.test" in line and line.endswith("[source-dead]")
    report = json.loads((site / "_build/external-links.json").read_text(encoding="utf-8"))
    assert report["checked"] == 2


def test_refs_lookup_says_the_network_is_unavailable(site, monkeypatch, capsys):
    fake_names(monkeypatch, {})
    with fake_services() as services:
        for name, value in services.environment().items():
            monkeypatch.setenv(name, value)
        monkeypatch.setenv("RADAR_CROSSREF_URL", "https://crossref.test/")
        monkeypatch.setenv("RADAR_HTTP_RETRIES", "0")
        assert cli.main(["--root", str(site), "refs", "lookup", "spc2026release"]) == 3
    [line] = capsys.readouterr().err.splitlines()
    assert line == (
        "radar refs: error: the network is unavailable: no host name could be resolved "
        "(crossref.test); nothing was checked"
    )


def test_refs_lookup_refuses_a_redirect_to_a_private_address(site, monkeypatch, capsys):
    with fake_services() as services:
        for name, value in services.environment().items():
            monkeypatch.setenv(name, value)
        monkeypatch.setenv("RADAR_HTTP_RETRIES", "0")
        services.routes["/crossref/works"] = Reply(302, location="http://10.0.0.1/works")
        assert cli.main(["--root", str(site), "refs", "lookup", "spc2026release"]) == 1
        assert [request.path for request in services.requests] == ["/crossref/works"]
    err = capsys.readouterr().err
    assert "lookup of 'spc2026release' failed: cannot reach Crossref" in err
    assert "10.0.0.1 is a private address" in err


def test_refs_archive_says_the_network_is_unavailable(site, monkeypatch, capsys):
    fake_names(monkeypatch, {})
    monkeypatch.setenv("RADAR_ARCHIVE_URL", "https://archive.test")
    assert (
        cli.main(
            ["--root", str(site), "refs", "set", "rise2026paper", "--url", "https://example.org/r"]
        )
        == 0
    )
    capsys.readouterr()
    bib = (site / BIB).read_bytes()
    assert cli.main(["--root", str(site), "refs", "archive", "rise2026paper"]) == 3
    [line] = capsys.readouterr().err.splitlines()
    assert "the network is unavailable: no host name could be resolved (archive.test)" in line
    assert (site / BIB).read_bytes() == bib


# --- radar check and radar import ----------------------------------------------------------


def test_radar_check_reports_private_addresses_in_references_bib(site, capsys):
    first = with_entries(
        site,
        "\n@misc{looped,\n  title = {L},\n  url = {http://127.1:8080/x},\n}\n",
        "\n@misc{noted,\n  title = {N},\n  url = {https://example.org/n},\n"
        "  note = {see \\url{http://[::ffff:127.0.0.1]/a} and \\url{https://example.org/}},\n}\n",
        "\n@misc{kept,\n  title = {K},\n  archiveurl = {http://example.com@10.0.0.1/web/x},\n}\n",
    )
    assert cli.main(["--root", str(site), "check"]) == 1
    out = capsys.readouterr().out.splitlines()
    found = [line for line in out if line.endswith("[private-address]")]
    assert found == [
        f"{BIB}:{first + 3}: error: entry 'looped' has a url that leads off the public internet "
        "(a loopback address): 'http://127.1:8080/x' [private-address]",
        f"{BIB}:{first + 9}: error: entry 'noted' has a note that leads off the public "
        "internet (an IPv4-mapped or IPv4-compatible address): 'http://[::ffff:127.0.0.1]/a' "
        "[private-address]",
        f"{BIB}:{first + 14}: error: entry 'kept' has a archiveurl that leads off the public "
        "internet (a user name or password before its host): "
        "'http://example.com@10.0.0.1/web/x' [private-address]",
    ]


def test_radar_import_reports_a_private_address_in_an_export(site, tmp_path, capsys):
    before = site_files(site)
    text = GOOD.replace(
        "论文 · 代码\n", "论文 <https://example.org/p> · 代码 <http://0x7f000001/c>\n"
    )
    assert run_import(site, tmp_path, text.encode("utf-8")) == 1
    err = capsys.readouterr().err
    [line] = [line for line in err.splitlines() if line.endswith("[private-address]")]
    assert line.startswith(f"{tmp_path / 'export.txt'}:")
    assert "the address of '代码' leads off the public internet: a loopback address" in line
    assert site_files(site) == before


# --- TLS: the name is kept ------------------------------------------------------------------


@pytest.fixture
def tls_fake() -> Iterator[tuple[int, list[str], Any]]:
    """An HTTPS server on 127.0.0.1 with a certificate for ``tls.test`` alone: its port,
    the server names clients sent (SNI), and a client context trusting its authority."""
    authority = trustme.CA()
    server_context = ssl.create_default_context(ssl.Purpose.CLIENT_AUTH)
    authority.issue_cert("tls.test").configure_cert(server_context)
    names: list[str] = []
    server_context.sni_callback = lambda sock, name, context: names.append(name) and None

    class Handler(BaseHTTPRequestHandler):
        def do_GET(self) -> None:  # noqa: N802 - the standard library's name
            self.send_response(200)
            self.send_header("Content-Length", "0")
            self.end_headers()

        def log_message(self, *args: object) -> None:
            pass

    server = ThreadingHTTPServer((FAKES_HOST, 0), Handler)
    server.socket = server_context.wrap_socket(server.socket, server_side=True)
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    client_context = ssl.create_default_context()
    authority.configure_trust(client_context)
    try:
        yield server.server_address[1], names, client_context
    finally:
        server.shutdown()
        server.server_close()
        thread.join()


def tls_get(rule: NetworkRule, context: Any, url: str) -> httpx.Response:
    with httpx.Client(transport=PublicTransport(rule, verify=context)) as client:
        return client.get(url)


def test_tls_checks_the_certificate_for_the_name_not_the_address(tls_fake, monkeypatch):
    """Connected to the checked address (127.0.0.1), the client still sends the name as
    SNI and checks the certificate against it: a name the certificate lacks is refused."""
    port, names, context = tls_fake
    fake_names(monkeypatch, {"tls.test": FAKES_HOST, "other.test": FAKES_HOST})
    rule = NetworkRule(frozenset({"tls.test", "other.test"}))
    assert tls_get(rule, context, f"https://tls.test:{port}/").status_code == 200
    assert names == ["tls.test"]
    with pytest.raises(httpx.ConnectError, match="CERTIFICATE_VERIFY_FAILED|certificate"):
        tls_get(rule, context, f"https://other.test:{port}/")
    assert names == ["tls.test", "other.test"]


def test_every_tool_connects_through_the_network_rule():
    """No module but public_net makes a client, a transport or a socket of its own."""
    package = Path(__file__).resolve().parent.parent / "juju_radar"
    own = ("httpx.Client(", "httpx.AsyncClient(", "HTTPTransport(", "ConnectionPool(")
    own += ("urlopen(", "http.client", "create_connection(", "getaddrinfo(")
    found = [
        f"{path.relative_to(package)}: {word}"
        for path in sorted(package.rglob("*.py"))
        if path.name != "public_net.py"
        for word in own
        if word in path.read_text(encoding="utf-8")
    ]
    assert found == []


def spelled(number: int, style: str) -> str:
    return {"dec": str(number), "oct": f"0{number:o}", "hex": f"0x{number:x}"}[style]


@st.composite
def numeric_hosts(draw: st.DrawFn) -> str:
    """One to four numbers, each decimal, octal or hexadecimal, around the limits of
    their place (a byte, or the bytes left for the last)."""
    count = draw(st.integers(1, 4))
    parts = []
    for place in range(count):
        room = 8 * (5 - count) if place == count - 1 else 8
        limit = 2**room
        number = draw(st.one_of(st.integers(0, 300), st.integers(limit - 2, limit + 1)))
        parts.append(spelled(max(0, number), draw(st.sampled_from(["dec", "oct", "hex"]))))
    return ".".join(parts)


@settings(max_examples=examples(1000), deadline=None)
@given(
    st.one_of(
        numeric_hosts(),
        st.text(alphabet="0123456789xX.abcdefABCDEF", min_size=1, max_size=16),
    )
)
def test_an_address_literal_is_read_as_the_resolver_reads_it(host):
    """Wherever the C library's ``inet_aton`` (what ``getaddrinfo`` does with a numeric
    host) reads an IPv4 address, the check reads the same one, and judges it so. The
    check also reads the WHATWG spellings a browser adds (``127.0.0.1.``, ``0x``)."""
    try:
        resolved = ipaddress.IPv4Address(socket.inet_aton(host))
    except OSError:
        browsers_only = host.endswith(".") or "0x" in host.lower().split(".")
        assert browsers_only or ip_literal(host) is None
        return
    assert ip_literal(host) == resolved
    assert private_host(f"http://{host}/") == ip_refusal(resolved)


@pytest.mark.parametrize("setting", ["42", "[1, 2]", "['']", "{'a': 1}"])
def test_a_wrong_trusted_hosts_setting_stops_the_command(site, monkeypatch, capsys, setting):
    monkeypatch.setenv("RADAR_LINKS_INTERVAL", "0")
    with (site / "conf.py").open("a", encoding="utf-8") as conf:
        conf.write(f"\nradar_trusted_hosts = {setting}\n")
    assert cli.main(["--root", str(site), "links", "--external"]) == 2
    [line] = capsys.readouterr().err.splitlines()
    assert line.startswith("radar: error: radar_trusted_hosts in conf.py must be a list of host")


# --- generated spellings, where content holds them ----------------------------------------

NOT_PUBLIC = [
    "127.0.0.1",
    "127.255.0.9",
    "10.20.30.40",
    "172.31.0.1",
    "192.168.0.10",
    "169.254.169.254",
    "100.64.3.4",
    "0.0.0.0",
    "224.1.2.3",
]


@st.composite
def private_spellings(draw: st.DrawFn) -> str:
    """A non-public IPv4 address as a URL's host: dotted in one to four numbers of mixed
    bases, IPv6-mapped, NAT64, or a name under localhost; maybe with a port, a trailing
    dot or a user name before it."""
    address = ipaddress.IPv4Address(draw(st.sampled_from(NOT_PUBLIC)))
    value, count = int(address), draw(st.integers(1, 4))
    numbers = [*address.packed[: count - 1], value & (2 ** (8 * (5 - count)) - 1)]
    styles = draw(st.lists(st.sampled_from(["dec", "oct", "hex"]), min_size=count, max_size=count))
    dotted = ".".join(spelled(n, style) for n, style in zip(numbers, styles, strict=True))
    host = draw(
        st.sampled_from(
            [
                dotted,
                dotted + ".",
                f"[::ffff:{address}]",
                f"[::ffff:{value >> 16:x}:{value & 0xFFFF:x}]",
                f"[64:ff9b::{address}]",
                "localhost",
                "a.b.LOCALHOST",
            ]
        )
    )
    port = draw(st.sampled_from(["", ":80", ":8443"]))
    user = draw(st.sampled_from(["", "example.com@", "u:p@"]))
    return f"{draw(st.sampled_from(['http', 'https', 'HTTP']))}://{user}{host}{port}/p"


def bib_with(field: str, url: str) -> tuple[str, int]:
    values = {
        "url": f"url = {{{url}}}",
        "archiveurl": f"archiveurl = {{{url}}}",
        "note": f"note = {{see \\url{{{url}}}}}",
        "howpublished": f"howpublished = {{\\href{{{url}}}{{x}}}}",
    }
    text = (
        f"@misc{{k,\n  title = {{T}},\n  url = {{https://example.org/}},\n  {values[field]},\n}}\n"
    )
    return text, 4


@settings(max_examples=examples(300), deadline=None)
@given(
    url=private_spellings(),
    field=st.sampled_from(["url", "archiveurl", "note", "howpublished"]),
)
def test_a_generated_private_address_is_refused_at_its_field(url, field):
    text, line = bib_with(field, url)
    if field == "url":
        text = text.replace("  url = {https://example.org/},\n", "")
        line = 3
    found = [p for p in check_bib_text(text, BIB) if p.code == "private-address"]
    assert [(p.line, p.severity) for p in found] == [(line, "error")], (url, field)
    assert private_host(url) is not None


@settings(max_examples=examples(200), deadline=None)
@given(url=private_spellings())
def test_a_generated_private_address_is_refused_in_an_export(url):
    text = GOOD.replace("论文 · 代码\n", f"论文 <https://example.org/p> · 代码 <{url}>\n")
    _issue, problems = parse_export(text, "export.txt", SEED_VOCABULARY)
    codes = {problem.code for problem in problems if problem.severity == "error"}
    # A user name before the host was refused before this rule (bad-address).
    assert ("bad-address" if "@" in url else "private-address") in codes, url


def test_refs_complete_stops_when_the_network_is_unavailable(site, monkeypatch, capsys):
    fake_names(monkeypatch, {})
    monkeypatch.setenv("RADAR_CROSSREF_URL", "https://crossref.test/")
    monkeypatch.setenv("RADAR_ARXIV_URL", "https://arxiv.test/api")
    monkeypatch.setenv("RADAR_HTTP_RETRIES", "0")
    bib = (site / BIB).read_bytes()
    status = cli.main(["--root", str(site), "refs", "complete", "spc2026release", "spc2026opinion"])
    assert status == 3
    err = capsys.readouterr().err
    assert (
        "lookup of 'spc2026release' failed: the network is unavailable: no host name could be "
        "resolved (crossref.test); nothing was checked; stopped, what was written stays"
    ) in err
    assert err.strip().endswith("0 skipped, 1 failed, 1 left")
    assert (site / BIB).read_bytes() == bib


@pytest.mark.site
def test_the_build_refuses_a_private_address_at_its_line(site, tmp_path):
    """The build reads references.bib with the same rule as radar check."""
    first = with_entries(site, entry("looped", "http://0x7f.1/paper"))
    result = sphinx_build(site, tmp_path / "html", check=False)
    assert result.returncode != 0
    assert (
        f"{site / BIB}:{first + 3}: ERROR: entry 'looped' has a url that leads off the public "
        "internet (a loopback address): 'http://0x7f.1/paper' [radar.private-address]"
    ) in result.stderr
