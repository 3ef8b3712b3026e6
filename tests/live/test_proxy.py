"""The deploy's reverse proxy: ``deploy/Caddyfile`` run by Debian's caddy in front of
gunicorn with the deploy's settings (``deploy/gunicorn.conf.py``, ``NUM_PROXIES`` and
``FORWARDED_ALLOW_IPS`` from ``deploy/env.example``), as ``deploy/docker-compose.yml``
runs them. TLS ends at the proxy, the per-IP throttles see each client's own address,
and a forged ``X-Forwarded-For`` gets a client nowhere."""

from __future__ import annotations

import os
import re
import secrets
import shutil
import socket
import ssl
import subprocess
import time
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path

import httpx
import pytest
from django.core.management import call_command

from tests.live.conftest import BIN, ROOT, _database_url, _stop, free_port, wait_for

pytestmark = [
    pytest.mark.live,
    pytest.mark.skipif(shutil.which("caddy") is None, reason="needs caddy (Debian package)"),
]

DEPLOY = ROOT / "deploy"
LOGIN = "/api/v1/accounts/token/"
LIMIT = 3  # logins per minute and address in this test


def _env_example() -> dict[str, str]:
    lines = (DEPLOY / "env.example").read_text().splitlines()
    return dict(re.findall(r"^(\w+)=(.*)$", "\n".join(lines), re.M))


def _caddyfile(tmp_path: Path) -> Path:
    """``deploy/Caddyfile``, for a caddy older than 2.6.4 (Debian 12 has 2.6.2) with the
    body buffer in the spelling it knows: ``request_buffers`` came in 2.6.4 and the old
    ``buffer_requests`` (the whole body) went in 2.8, so no one line reads in both; the
    deploy's image (``caddy:2``) reads the file as it is."""
    deployed = DEPLOY / "Caddyfile"
    found = re.search(
        r"(\d+)\.(\d+)\.(\d+)", subprocess.check_output(["caddy", "version"], text=True)
    )
    if found is None or tuple(map(int, found.groups())) >= (2, 6, 4):
        return deployed
    text = deployed.read_text()
    assert "request_buffers 1MiB" in text
    older = tmp_path / "Caddyfile"
    older.write_text(text.replace("request_buffers 1MiB", "buffer_requests"))
    return older


def _caddy(tmp_path: Path, **env: str) -> subprocess.Popen:
    """``deploy/Caddyfile`` run by caddy with ``env`` for its variables (ports, the
    upstream), its own home and no admin endpoint, and the fallback pages written where
    it reads them, as the compose file's migrate service writes them."""
    call_command("fallback_pages", str(tmp_path / "fallback"))
    caddy_home = tmp_path / "caddy"
    return subprocess.Popen(
        ["caddy", "run", "--config", str(_caddyfile(tmp_path)), "--adapter", "caddyfile"],
        cwd=tmp_path,
        env={
            "PATH": os.environ["PATH"],
            "HOME": str(caddy_home),
            "XDG_DATA_HOME": str(caddy_home / "data"),
            "XDG_CONFIG_HOME": str(caddy_home / "config"),
            "CADDY_ADMIN": "off",
            "FALLBACK_DIR": str(tmp_path / "fallback"),
            **env,
        },
        stdout=subprocess.DEVNULL,
        stderr=(tmp_path / "caddy.log").open("wb"),
    )


@dataclass
class Proxied:
    url: str
    http_url: str
    ca: Path
    web: subprocess.Popen

    def client(self, source: str) -> httpx.Client:
        """A client connecting from ``source`` (127.0.0.1, 127.0.0.2, ...)."""
        tls = ssl.create_default_context(cafile=self.ca)
        transport = httpx.HTTPTransport(local_address=source, verify=tls)
        return httpx.Client(base_url=self.url, transport=transport, timeout=30)


@pytest.fixture
def proxied(transactional_db, tmp_path) -> Iterator[Proxied]:
    example = _env_example()
    web_port, http_port, https_port = free_port(), free_port(), free_port()
    web_env = {
        **os.environ,
        "DEBUG": "false",
        "SECRET_KEY": secrets.token_urlsafe(50),
        "DAILY_SEED_SECRET": secrets.token_urlsafe(32),
        "ALLOWED_HOSTS": "127.0.0.1",
        "DATABASE_URL": _database_url(),
        "CONN_MAX_AGE": "0",
        "VAR_DIR": str(tmp_path / "var"),
        "NUM_PROXIES": example["NUM_PROXIES"],
        "FORWARDED_ALLOW_IPS": example["FORWARDED_ALLOW_IPS"],
        "SECURE_SSL_REDIRECT": example["SECURE_SSL_REDIRECT"],
        "GUNICORN_BIND": f"127.0.0.1:{web_port}",
        "WEB_CONCURRENCY": "1",  # one process: the throttle counts hold without Redis too
        "THROTTLE_LOGIN": f"{LIMIT}/minute",
        "LOG_LEVEL": "WARNING",
    }
    web_env.pop("CELERY_TASK_ALWAYS_EAGER", None)
    web = subprocess.Popen(
        [str(BIN / "gunicorn"), "-c", "deploy/gunicorn.conf.py", "config.wsgi:application"],
        cwd=ROOT,
        env=web_env,
    )
    proxy = _caddy(
        tmp_path,
        SITE_ADDRESS="127.0.0.1",  # a certificate from Caddy's own local CA
        HTTP_PORT=str(http_port),
        HTTPS_PORT=str(https_port),
        UPSTREAM=f"127.0.0.1:{web_port}",
    )
    caddy_home = tmp_path / "caddy"
    ca = caddy_home / "data" / "caddy" / "pki" / "authorities" / "local" / "root.crt"
    run = Proxied(f"https://127.0.0.1:{https_port}", f"http://127.0.0.1:{http_port}", ca, web)
    try:

        def through_the_proxy() -> bool:
            if not ca.exists():
                return False
            try:
                with run.client("127.0.0.1") as http:
                    return http.get("/api/v1/nothing/").status_code == 404
            except httpx.TransportError:
                return False

        wait_for(through_the_proxy, timeout=90, interval=0.5)
        yield run
    finally:
        _stop(proxy)
        _stop(web)


def _login(http: httpx.Client, forged: str | None = None) -> int:
    headers = {"X-Forwarded-For": forged} if forged else {}
    body = {"username": "nobody-here", "password": "not the password"}
    return http.post(LOGIN, json=body, headers=headers).status_code


def test_behind_the_proxy_each_client_has_its_own_count_and_a_forged_header_no_other(proxied):
    # Both clients reach gunicorn from the proxy's one address; the app tells them apart.
    with proxied.client("127.0.0.1") as first, proxied.client("127.0.0.2") as second:
        answers = [_login(first, forged=f"203.0.113.{i}") for i in range(LIMIT)]
        assert answers == [400] * LIMIT  # wrong password, each counted against 127.0.0.1
        assert _login(first, forged="203.0.113.99") == 429
        assert _login(first, forged="127.0.0.2") == 429  # nor another client's address
        assert _login(first) == 429
        assert _login(second) == 400  # its own count, untouched by the forgeries


def test_tls_ends_at_the_proxy_and_plain_http_is_redirected(proxied):
    with proxied.client("127.0.0.1") as http:
        answer = http.get("/api/v1/daily/")
    # DEBUG is off with SECURE_SSL_REDIRECT: the app answers, no redirect, because the
    # proxy said the request came over HTTPS.
    assert answer.status_code in (200, 401), answer.text[:200]
    assert answer.headers["Strict-Transport-Security"].startswith("max-age=")
    assert answer.url.scheme == "https"
    plain = httpx.get(f"{proxied.http_url}/api/v1/daily/", follow_redirects=False)
    assert plain.status_code == 308 and plain.headers["Location"].startswith("https://")


@pytest.mark.parametrize(
    ("path", "content_type", "length", "sent"),
    [
        # An API body's head and its first bytes.
        (LOGIN, "application/json", 200, b'{"username": "'),
        # A page's form that says it is 2 MiB long and stops after 300 KiB, past the most
        # the proxy lets through (request_body): the buffer never fills, nothing streams.
        (
            "/accounts/login/",
            "application/x-www-form-urlencoded",
            2 << 20,
            b"a=" + b"x" * (300 << 10),
        ),
    ],
    ids=["api", "page-too-long"],
)
def test_a_client_that_stops_sending_its_body_holds_no_worker(
    proxied, path, content_type, length, sent
):
    """gunicorn's sync worker reads a request's body as the app asks for it: a client that
    sent its head and then stopped (a dropped phone, or on purpose, one per worker) held
    the worker until gunicorn's timeout, and the site waited behind it. The proxy reads a
    body whole before it passes the request on (``request_buffers``), and cuts off one
    longer than any the app takes (``request_body``), so the one worker here goes on
    serving the others meanwhile. (Either alone keeps the second case's worker free: a
    body cut off while it streams ends the upstream request too. Debian's caddy 2.6
    buffers without a limit, so the deploy's 1 MiB buffer is read from Caddy's source:
    a body past it would stream on behind the buffer but for ``request_body``.)"""
    host, port = proxied.url.removeprefix("https://").split(":")
    tls = ssl.create_default_context(cafile=proxied.ca)
    head = (
        f"POST {path} HTTP/1.1\r\nHost: {host}\r\nContent-Type: {content_type}\r\n"
        f"Content-Length: {length}\r\n\r\n"
    )
    with (
        socket.create_connection((host, int(port))) as raw,
        tls.wrap_socket(raw, server_hostname=host) as stalled,
        proxied.client("127.0.0.2") as http,
    ):
        stalled.sendall(head.encode() + sent)
        time.sleep(0.5)  # the proxy has the head: without buffering, so has the worker
        started = time.monotonic()
        answer = http.get("/api/v1/nothing/", timeout=10)
        waited = time.monotonic() - started
    assert answer.status_code == 404
    assert waited < 5, f"the other request waited {waited:.1f} s behind the stalled body"


def test_while_the_app_does_not_answer_the_proxy_says_so_in_each_ones_shape(proxied):
    """A stopped app was Caddy's empty 502. The API's clients get its error shape with a
    Retry-After; a page, a short page that tries again; both carry the header by which
    the service worker shows its kept page instead (web/templates/web/sw.js). The app's
    own answers, errors included, never carry it."""
    with proxied.client("127.0.0.1") as http:
        own = http.get("/api/v1/nothing/")
        assert own.status_code == 404 and "X-Fallback" not in own.headers
        _stop(proxied.web)
        api = http.get("/api/v1/daily/")
        page = http.get("/", headers={"Accept": "text/html"})
    assert api.status_code == 503
    assert api.headers["Content-Type"] == "application/json"
    assert api.json()["code"] == "service_unavailable" and api.json()["message"]
    assert api.headers["Retry-After"] == "5" and api.headers["X-Fallback"] == "proxy"
    assert page.status_code == 503
    assert page.headers["Content-Type"].startswith("text/html")
    assert "<h1>The server is not answering</h1>" in page.text
    assert '<meta http-equiv="refresh" content="10">' in page.text
    assert page.headers["Retry-After"] == "5" and page.headers["X-Fallback"] == "proxy"
    assert page.headers["Cache-Control"] == "no-store"


def test_while_the_app_does_not_answer_the_proxy_answers_in_the_visitors_language(tmp_path):
    """The proxy's page and API error were English whatever the visitor's language. They
    are the app's "server not answering" page and its API 503 in the language the app
    would choose without a player (the language cookie, else Accept-Language, else
    English), rendered ahead by ``manage.py fallback_pages``."""
    http_port = free_port()
    upstream = free_port()  # nothing listens there: the app is down
    proxy = _caddy(
        tmp_path,
        SITE_ADDRESS=f"http://127.0.0.1:{http_port}",
        HTTP_PORT=str(http_port),
        HTTPS_PORT=str(free_port()),
        UPSTREAM=f"127.0.0.1:{upstream}",
    )
    url = f"http://127.0.0.1:{http_port}/play/1/"

    def page(accept_language: str | None = None, **request) -> httpx.Response | None:
        headers = {"Accept": "text/html"}
        if accept_language is not None:
            headers["Accept-Language"] = accept_language
        try:
            return httpx.request(
                request.pop("method", "GET"), url, headers=headers, timeout=10, **request
            )
        except httpx.TransportError:
            return None

    try:
        wait_for(lambda: page() is not None, timeout=30)
        german = page("de-DE,de;q=0.9,en;q=0.8")
        assert german is not None and german.status_code == 503
        assert german.headers["Content-Type"].startswith("text/html")
        assert german.headers["Content-Language"] == "de"
        assert german.headers["X-Fallback"] == "proxy" and german.headers["Retry-After"] == "5"
        assert german.headers["Cache-Control"] == "no-store"
        assert '<html lang="de">' in german.text
        assert "<h1>Der Server antwortet nicht</h1>" in german.text
        assert '<meta http-equiv="refresh" content="10">' in german.text

        def language(answer: httpx.Response | None) -> tuple[int, str] | None:
            if answer is None:
                return None
            found = re.search(r'<html lang="(\w+)">', answer.text)
            return answer.status_code, found.group(1) if found else answer.text[:80]

        assert language(page()) == (503, "en")
        assert language(page("*")) == (503, "en")
        assert language(page("xx, ja-JP;q=0.5")) == (503, "ja")  # the first of the 12
        assert language(page("de;q=0, fr;q=0.5")) == (503, "fr")  # weight 0: not German
        assert language(page("nn-NO, nn;q=0.9")) == (503, "nb")  # Norwegian reads Bokmål
        assert language(page("de", cookies={"django_language": "sv"})) == (503, "sv")
        assert language(page("de", cookies={"django_language": "xx"})) == (503, "de")
        # A form sent while the app is down gets the page too.
        assert language(page("pl", method="POST", data={"box": "chance"})) == (503, "pl")
        # The API's clients get its 503 in their language too.
        api = httpx.post(
            f"http://127.0.0.1:{http_port}/api/v1/daily/2026-12-06/rounds/",
            headers={"Accept-Language": "de"},
            timeout=10,
        )
        assert api.status_code == 503 and api.headers["Content-Type"] == "application/json"
        assert api.headers["Content-Language"] == "de" and api.headers["Retry-After"] == "5"
        assert api.json() == {
            "code": "service_unavailable",
            "message": "Der Dienst antwortet nicht; versuche es gleich noch einmal.",
        }
    finally:
        _stop(proxy)
