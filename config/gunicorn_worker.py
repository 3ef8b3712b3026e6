"""gunicorn's sync worker, answering the API's clients in the API's error shape.

gunicorn answers some requests itself, before Django sees them: a request it cannot parse
(a malformed header, a request line over 4094 bytes, headers over its limits, a bad
``Content-Length``, an ``Expect`` or ``Transfer-Encoding`` it does not know) and a
request its worker was killed in the middle of (the worker timeout, 30 s: a database
that froze). Its answer is a small HTML page, which an API client cannot read. Under
``/api/`` this worker keeps gunicorn's handling (the status, its log lines, the closed
connection) and sends the body as ``{"code", "message"}``
(``config.api_guard.status_error``); a request killed by the worker timeout is a 504
``timeout``: it may have been applied before the timeout came (a commit, then a slow
answer), so it must not read as refused (503). Elsewhere gunicorn's page is kept.

Which requests are the API's: once the request is parsed, its path; before that (a
request whose line or headers could not be parsed leaves no other trace of its path),
its target, peeked from the socket before gunicorn's parser reads it. A request's first
packet nearly always holds its whole request line (one peek); where it ends before the
target does (``GET /api/v1/da``, the rest in the next packet), the worker waits for more
bytes to arrive, which gunicorn's parser would wait for too, at most ``PEEK_WAIT``
seconds in all (on TCP, as deployed: a Unix socket's readiness ignores ``SO_RCVLOWAT``,
so there the first packet decides). A target still cut after that (a client that
slow), a PROXY protocol
header longer than the peek, or TLS terminated by gunicorn itself (``certfile``; the
deploy terminates it in the proxy) get gunicorn's page for a request it could not
parse. ``deploy/gunicorn.conf.py`` names this class.
"""

from __future__ import annotations

import contextlib
import json
import socket
import time
from typing import Any
from urllib.parse import unquote, urlsplit

from gunicorn import util
from gunicorn.workers.sync import SyncWorker

# Enough for a PROXY protocol line, the method and the start of an absolute-form target.
PEEK_BYTES = 256
# How long, in seconds, a request whose first packet ends inside its target may take to
# send the rest before the worker decides from what has arrived.
PEEK_WAIT = 1.0


def _request_line(head: bytes) -> tuple[bytes, bool]:
    """The request line at the start of ``head`` (after a PROXY protocol line), and
    whether it has ended."""
    lines = head.lstrip(b"\r\n").split(b"\r\n", 2)
    if lines[0].startswith(b"PROXY ") and len(lines) > 1:
        return lines[1], len(lines) > 2
    return lines[0], len(lines) > 1


def target_arrived(head: bytes) -> bool:
    """Whether ``head``, a request's first bytes, tells whose the request is: its
    target has ended (the line goes on or ends), or the peek can hold no more.

    >>> target_arrived(b"GET /api/v1/daily/ HTTP/1.1\\r\\n"), target_arrived(b"GET /api/v1/da")
    (True, False)
    >>> target_arrived(b"PROXY TCP4 1.2.3.4 5.6.7.8 1 2\\r\\nGET /api"), target_arrived(b"PO")
    (False, False)
    >>> target_arrived(b"GET /\\r\\n"), target_arrived(b"GET /" + b"a" * PEEK_BYTES)
    (True, True)
    """
    if len(head) >= PEEK_BYTES:
        return True
    line, ended = _request_line(head)
    return ended or line.count(b" ") >= 2


def peek_target(client: socket.socket) -> bytes:
    """The first bytes of the request on ``client`` (a blocking socket), left for
    gunicorn to read: the first packet's, and where that ends inside the target, more as
    they arrive, until it has ended or for ``PEEK_WAIT`` seconds (module docstring)."""
    head = client.recv(PEEK_BYTES, socket.MSG_PEEK)
    if not head or target_arrived(head):
        return head
    deadline = time.monotonic() + PEEK_WAIT
    try:
        while not target_arrived(head) and (left := deadline - time.monotonic()) > 0:
            # Readable once more than what is there has arrived (or the client closed).
            client.setsockopt(socket.SOL_SOCKET, socket.SO_RCVLOWAT, len(head) + 1)
            client.settimeout(left)
            more = client.recv(PEEK_BYTES, socket.MSG_PEEK)
            if len(more) <= len(head):
                break  # closed, or nothing more
            head = more
    except TimeoutError:
        pass
    finally:
        client.settimeout(None)  # blocking again, as gunicorn's worker made it
        with contextlib.suppress(OSError):
            client.setsockopt(socket.SOL_SOCKET, socket.SO_RCVLOWAT, 1)
    return head


def is_api_target(head: bytes) -> bool:
    """Whether the request whose first bytes are ``head`` asks for a path under
    ``/api/``.

    >>> is_api_target(b"GET /api/v1/daily/ HTTP/1.1\\r\\n")
    True
    >>> is_api_target(b"POST http://example.com/%61pi/v1/x HTTP/1.1")
    True
    >>> is_api_target(b"PROXY TCP4 1.2.3.4 5.6.7.8 1 2\\r\\nGET /api/v1/ HTTP/1.1")
    True
    >>> is_api_target(b"GET /play/1/ HTTP/1.1"), is_api_target(b"GET /api")
    (False, False)

    A target no URL parser reads is no API path (it stopped the worker):

    >>> is_api_target(b"GET http://[::1/api/ HTTP/1.1")
    False
    """
    from config.api_guard import API_PREFIX

    line, _ended = _request_line(head)
    parts = line.split(b" ", 2)
    if len(parts) < 2:
        return False
    target = parts[1].decode("latin-1")
    try:
        path = urlsplit(target).path if not target.startswith("/") else target.split("?", 1)[0]
    except ValueError:
        return False
    return unquote(path).startswith(API_PREFIX)


class _Captured:
    """Stands for the client socket while gunicorn writes its error page: keeps the
    bytes instead of sending them."""

    def __init__(self) -> None:
        self.data = b""

    def gettimeout(self) -> float:
        return 0.0

    def setblocking(self, flag: bool) -> None:
        pass

    def sendall(self, data: bytes) -> None:
        self.data += data


def json_error(status: int, reason: str) -> bytes:
    """The whole HTTP answer (status line, headers, body) in the API's error shape."""
    from config.api_errors import error_body
    from config.api_guard import status_error

    body = json.dumps(error_body(*status_error(status))).encode()
    head = (
        f"HTTP/1.1 {status} {reason}\r\nConnection: close\r\n"
        f"Content-Type: application/json\r\nContent-Length: {len(body)}\r\n\r\n"
    )
    return head.encode("latin-1") + body


class ApiErrorsWorker(SyncWorker):
    """gunicorn's sync worker; only the bodies of its own error answers under ``/api/``
    differ (module docstring)."""

    wsgi: Any  # the app, set by gunicorn's load_wsgi
    _api_request = False
    _client: socket.socket | None = None
    # Whether the app has returned its answer (gunicorn may be sending it) or this
    # worker has sent one: nothing more may be written to the client.
    _answering = False

    def load_wsgi(self) -> None:
        from config.api_guard import API_PREFIX

        super().load_wsgi()
        app: Any = self.wsgi

        def wsgi(environ: dict[str, Any], start_response: Any) -> Any:
            # The parsed path decides from here on (the peek saw what had arrived).
            self._api_request = environ.get("PATH_INFO", "").startswith(API_PREFIX)
            try:
                return app(environ, start_response)
            finally:
                self._answering = True

        self.wsgi = wsgi

    def handle(self, listener: Any, client: socket.socket, addr: Any) -> None:
        self._api_request, self._answering, self._client = False, False, client
        if not self.cfg.is_ssl:
            # An error here is met again by gunicorn's own read, which handles it.
            with contextlib.suppress(OSError):
                self._api_request = is_api_target(peek_target(client))
        try:
            super().handle(listener, client, addr)
        finally:
            self._client = None

    def handle_abort(self, sig: int, frame: Any) -> None:
        """The worker timeout: the arbiter's SIGABRT, then its SIGKILL a moment later
        (psycopg, interrupted in a query to a frozen server, spends seconds trying to
        cancel it, so gunicorn's own error answer never came: the client's connection
        was closed without a word). The API's client gets its 504 first."""
        if self._api_request and self._client is not None and not self._answering:
            self._answering = True
            try:
                util.write_nonblock(self._client, json_error(504, "Gateway Timeout"))
            except Exception:
                self.log.debug("Failed to send error message.")
        super().handle_abort(sig, frame)

    def handle_error(self, req: Any, client: Any, addr: Any, exc: BaseException) -> None:
        if not self._api_request:
            super().handle_error(req, client, addr, exc)
            return
        # gunicorn decides the status and logs as ever; its page is kept here, not sent.
        page = _Captured()
        super().handle_error(req, page, addr, exc)
        if self._answering and isinstance(exc, SystemExit):
            return  # the timeout's 504 is sent (handle_abort)
        status_line = page.data.split(b"\r\n", 1)[0].decode("latin-1").split(" ", 2)
        try:
            util.write_nonblock(client, json_error(int(status_line[1]), status_line[2]))
        except Exception:
            self.log.debug("Failed to send error message.")
