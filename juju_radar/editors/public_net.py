"""The network rule: the editors' tools (``radar links --external``, ``radar refs archive``,
``refs lookup``, ``refs complete``) connect only to the public internet.

* Only ``http`` and ``https`` addresses are fetched, and none with a user name or
  password before its host (``http://example.com@127.0.0.1/``).
* A host name is resolved once; the connection is refused when any of its addresses is
  not public (:func:`juju_radar.model.public_address.ip_refusal`), and otherwise goes to
  the address that was checked, so a name that answers differently the second time (DNS
  rebinding) cannot swap it. The request keeps the host name: its ``Host`` header, its
  TLS server name and the certificate's check.
* Redirects are followed by :func:`followed`, at most :data:`MAX_REDIRECTS`, each hop
  judged again the same way.
* The hosts named by ``radar_trusted_hosts`` in ``conf.py`` (a list) or
  ``RADAR_TRUSTED_HOSTS`` (names separated by commas) are admitted whatever their
  addresses, for an intranet mirror of a service; they are still resolved once.
* A name that cannot be resolved raises :class:`NameNotResolved`: when every host a
  command asked fails so, the network is unavailable (:data:`EXIT_OFFLINE`).

Public httpx and httpcore APIs only: an :class:`httpx.BaseTransport` over an
:class:`httpcore.ConnectionPool` whose network backend resolves and checks.
"""

from __future__ import annotations

import ipaddress
import os
import socket
import ssl
from collections.abc import Callable, Iterable, Iterator, Mapping
from contextlib import contextmanager
from dataclasses import dataclass
from typing import Any

import httpcore
import httpx

from juju_radar.editors.site_files import SiteError
from juju_radar.model.messages import _
from juju_radar.model.public_address import REASONS, ip_literal, ip_refusal

MAX_REDIRECTS = 5
SCHEMES = frozenset({"http", "https"})
TRUSTED_SETTING = "radar_trusted_hosts"
TRUSTED_VARIABLE = "RADAR_TRUSTED_HOSTS"


class RefusedAddress(httpx.ConnectError):
    """The host is, or resolves to, an address off the public internet."""


class NameNotResolved(httpx.ConnectError):
    """The host name could not be resolved."""

    def __init__(self, message: str, host: str) -> None:
        super().__init__(message)
        self.host = host


class RefusedURL(httpx.UnsupportedProtocol):
    """An address that is not fetched at all: not http(s), or with a user name."""


class NetworkUnavailable(Exception):
    """No host a command asked could be resolved: the network is down, not the sources."""

    def __init__(self, hosts: Iterable[str]) -> None:
        self.hosts = sorted(set(hosts))
        super().__init__(", ".join(self.hosts))

    def line(self) -> str:
        """The one line a command says, in the current language."""
        return _(
            "the network is unavailable: no host name could be resolved ({hosts}); "
            "nothing was checked"
        ).format(hosts=", ".join(self.hosts))


def normal_host(host: str) -> str:
    return host.strip().strip("[]").rstrip(".").lower()


@dataclass(frozen=True)
class NetworkRule:
    """Which hosts are admitted whatever their addresses (none unless configured)."""

    trusted: frozenset[str] = frozenset()

    @classmethod
    def from_config(
        cls, config: Mapping[str, object], environ: Mapping[str, str] | None = None
    ) -> NetworkRule:
        """``RADAR_TRUSTED_HOSTS`` and conf.py's ``radar_trusted_hosts``, together."""
        env = os.environ if environ is None else environ
        named = [part for part in env.get(TRUSTED_VARIABLE, "").split(",") if part.strip()]
        configured = config.get(TRUSTED_SETTING) or ()
        if isinstance(configured, str):
            configured = [configured]
        if not isinstance(configured, list | tuple | set | frozenset) or not all(
            isinstance(host, str) and host.strip() for host in configured
        ):
            message = _("{setting} in conf.py must be a list of host names, not {value!r}")
            raise SiteError(message.format(setting=TRUSTED_SETTING, value=configured))
        named += configured
        return cls(frozenset(normal_host(host) for host in named))

    def trusts(self, host: str) -> bool:
        return normal_host(host) in self.trusted

    def addresses(self, host: str, port: int) -> list[str]:
        """The addresses to connect to for ``host``, every one of them judged."""
        found = resolve(host, port)
        if self.trusts(host):
            return found
        for address in found:
            reason = ip_refusal(ipaddress.ip_address(address))
            if reason is not None:
                raise RefusedAddress(refused_message(host, address, reason))
        return found


def refused_message(host: str, address: str, reason: str) -> str:
    what = _(REASONS[reason])
    if normal_host(host) == address:
        message = _("{host} is {reason}: the tools connect only to public addresses")
        return message.format(host=host, reason=what)
    message = _(
        "{host} resolves to {address}, {reason}: the tools connect only to public addresses"
    )
    return message.format(host=host, address=address, reason=what)


def lookup_name(host: str, port: int) -> list[str]:
    """The addresses the system's resolver gives ``host`` (tests put a fake here)."""
    answers = socket.getaddrinfo(host, port, type=socket.SOCK_STREAM)
    return [str(answer[4][0]) for answer in answers]


def resolve(host: str, port: int) -> list[str]:
    """``host``'s addresses, once: an address literal in any spelling is read, a name is
    asked of :func:`lookup_name`."""
    literal = ip_literal(normal_host(host))
    if literal is not None:
        return [str(literal)]
    try:
        found = lookup_name(host, port)
    except (OSError, UnicodeError) as error:
        message = _("cannot resolve {host}: {error}").format(host=host, error=error)
        raise NameNotResolved(message, host) from error
    addresses = [str(ipaddress.ip_address(address.split("%", 1)[0])) for address in found]
    if not addresses:
        raise NameNotResolved(_("cannot resolve {host}: no address").format(host=host), host)
    return list(dict.fromkeys(addresses))


def url_refusal(url: httpx.URL) -> str | None:
    """Why ``url`` is not fetched at all, or None."""
    if url.scheme not in SCHEMES:
        return _("{url}: only http(s) addresses are fetched").format(url=url)
    if url.userinfo:
        return _("{url}: an address with a user name or password is not fetched").format(url=url)
    return None


class PublicBackend(httpcore.NetworkBackend):
    """Connects to the checked address of each host (httpcore then speaks TLS with the
    host's name)."""

    def __init__(self, rule: NetworkRule) -> None:
        self.rule = rule
        self._sockets = httpcore.SyncBackend()

    def connect_tcp(
        self,
        host: str,
        port: int,
        timeout: float | None = None,
        local_address: str | None = None,
        socket_options: Iterable[Any] | None = None,
    ) -> httpcore.NetworkStream:
        *others, last = self.rule.addresses(host, port)
        options = (timeout, local_address, socket_options)
        for address in others:
            try:
                return self._sockets.connect_tcp(address, port, *options)
            except httpcore.ConnectError:
                continue
        return self._sockets.connect_tcp(last, port, *options)

    def connect_unix_socket(
        self, path: str, timeout: float | None = None, socket_options: Iterable[Any] | None = None
    ) -> httpcore.NetworkStream:
        raise RefusedAddress(_("the tools connect only to public addresses"))

    def sleep(self, seconds: float) -> None:
        self._sockets.sleep(seconds)


# httpcore's errors as httpx raises them (the most specific first).
_ERRORS: tuple[tuple[type[Exception], type[httpx.HTTPError]], ...] = (
    (httpcore.ConnectTimeout, httpx.ConnectTimeout),
    (httpcore.ReadTimeout, httpx.ReadTimeout),
    (httpcore.WriteTimeout, httpx.WriteTimeout),
    (httpcore.PoolTimeout, httpx.PoolTimeout),
    (httpcore.TimeoutException, httpx.TimeoutException),
    (httpcore.ConnectError, httpx.ConnectError),
    (httpcore.ReadError, httpx.ReadError),
    (httpcore.WriteError, httpx.WriteError),
    (httpcore.NetworkError, httpx.NetworkError),
    (httpcore.UnsupportedProtocol, httpx.UnsupportedProtocol),
    (httpcore.LocalProtocolError, httpx.LocalProtocolError),
    (httpcore.RemoteProtocolError, httpx.RemoteProtocolError),
    (httpcore.ProtocolError, httpx.ProtocolError),
    (httpcore.ProxyError, httpx.ProxyError),
)


@contextmanager
def httpx_errors() -> Iterator[None]:
    try:
        yield
    except httpx.HTTPError:
        raise
    except Exception as error:
        for core, mapped in _ERRORS:
            if isinstance(error, core):
                raise mapped(str(error)) from error
        raise


class _Body(httpx.SyncByteStream):
    def __init__(self, stream: Iterable[bytes]) -> None:
        self._stream = stream

    def __iter__(self) -> Iterator[bytes]:
        with httpx_errors():
            yield from self._stream

    def close(self) -> None:
        close = getattr(self._stream, "close", None)
        if close is not None:
            with httpx_errors():
                close()


class PublicTransport(httpx.BaseTransport):
    """HTTP/1.1 to public addresses only (see the module)."""

    def __init__(self, rule: NetworkRule, verify: ssl.SSLContext | bool = True) -> None:
        self._pool = httpcore.ConnectionPool(
            ssl_context=httpx.create_ssl_context(verify=verify),
            network_backend=PublicBackend(rule),
            max_connections=10,
            max_keepalive_connections=10,
            keepalive_expiry=5.0,
        )

    def handle_request(self, request: httpx.Request) -> httpx.Response:
        refusal = url_refusal(request.url)
        if refusal is not None:
            raise RefusedURL(refusal, request=request)
        assert isinstance(request.stream, httpx.SyncByteStream)
        core_request = httpcore.Request(
            method=request.method,
            url=httpcore.URL(
                scheme=request.url.raw_scheme,
                host=request.url.raw_host,
                port=request.url.port,
                target=request.url.raw_path,
            ),
            headers=request.headers.raw,
            content=request.stream,
            extensions=request.extensions,
        )
        with httpx_errors():
            answer = self._pool.handle_request(core_request)
        assert isinstance(answer.stream, Iterable)
        return httpx.Response(
            status_code=answer.status,
            headers=answer.headers,
            stream=_Body(answer.stream),
            extensions=answer.extensions,
        )

    def close(self) -> None:
        with httpx_errors():
            self._pool.close()


def public_client(rule: NetworkRule, **options: Any) -> httpx.Client:
    """An httpx client bound by the network rule; it follows no redirect itself (see
    :func:`followed`) and reads no proxy, ``.netrc`` or certificate setting from the
    environment."""
    return httpx.Client(
        transport=PublicTransport(rule), follow_redirects=False, trust_env=False, **options
    )


def followed(
    send: Callable[[str, str], httpx.Response], method: str, url: str
) -> tuple[list[httpx.Response], httpx.Response]:
    """The redirects on the way and the last answer, each hop sent by ``send(method,
    url)`` and so judged again; more than :data:`MAX_REDIRECTS` raise
    :class:`httpx.TooManyRedirects`."""
    hops: list[httpx.Response] = []
    response = _sent(send, method, url)
    while response.is_redirect and response.next_request is not None:
        if len(hops) == MAX_REDIRECTS:
            message = _("more than {count} redirects").format(count=MAX_REDIRECTS)
            raise httpx.TooManyRedirects(message, request=response.next_request)
        hops.append(response)
        following = response.next_request
        response = _sent(send, following.method, str(following.url))
    return hops, response


def _sent(send: Callable[[str, str], httpx.Response], method: str, url: str) -> httpx.Response:
    try:
        return send(method, url)
    except httpx.InvalidURL as error:  # httpx reads no such address: nothing was sent
        raise RefusedURL(
            _("{url}: not an address ({error})").format(url=url, error=error)
        ) from error


def unresolved_only(errors: Iterable[BaseException | None]) -> list[str] | None:
    """The hosts, when every one of ``errors`` (at least one) is a name not resolved;
    else None."""
    hosts = []
    for error in errors:
        if not isinstance(error, NameNotResolved):
            return None
        hosts.append(error.host)
    return hosts or None
