"""The API client: one method per endpoint the terminal client uses, and the one place
that decides what to do with an answer that is not a success.

* 409 (stale ``turn``/``roll``) raises :class:`Conflict`, carrying the round's current
  state from the answer, so the caller shows that state instead of its own.
* 429 waits as long as ``Retry-After`` says, then sends the request again.
* 502/503/504 retry with exponential backoff (at least ``Retry-After``), telling the
  player each time; a wait longer than ``max_wait`` is not waited out but reported.
* A request that could not reach the server is retried the same way, then raises
  :class:`ConnectionLost`. Retrying a roll or a score is safe: ``turn``/``roll`` are
  preconditions, so a request the server did apply answers 409 the second time.
* A registration retried after its answer was lost finds its name taken by the account
  it created: the same password logging in makes that the registration's answer; a
  give-up (``DELETE games/{id}/``) retried so finds no game, and that 404 is its answer.
* Any other error raises :class:`ApiError` with the server's ``code`` and ``message``,
  the message exactly as the server wrote it (in the player's language).
* An answer that is not the API's (a redirect, a page that is not JSON: ``--server``
  names some other site, or a path under it) raises :class:`NotTheApi`, saying so.
"""

from __future__ import annotations

import datetime as dt
import email.utils
import re
import time
import urllib.parse
import uuid
from collections.abc import Callable, Iterator, Mapping
from typing import Any

import httpx

from client import __version__, i18n
from client.i18n import _

Notify = Callable[[str], None]
JSON = dict[str, Any]

RETRIED_STATUSES = frozenset({502, 503, 504})
# The most an answer may hold, decoded: the largest the API gives (a round's state with
# its log, a page of a board, the rulesets) is a few kilobytes. A server that sends more
# is not the API, and the client does not hold it in memory to find out.
MAX_ANSWER_BYTES = 4 * 1024 * 1024


class ApiError(Exception):
    """The server refused a request: its status, ``code`` and ``message``."""

    def __init__(
        self,
        status: int,
        code: str,
        message: str,
        *,
        details: object = None,
        retry_after: float | None = None,
    ) -> None:
        super().__init__(message)
        self.status = status
        self.code = code
        self.message = message
        self.details = details
        self.retry_after = retry_after


class Conflict(ApiError):
    """409: the round moved on since the client last saw it; ``current`` is its state."""

    def __init__(self, status: int, code: str, message: str, *, current: JSON | None) -> None:
        super().__init__(status, code, message)
        self.current = current


class NotTheApi(ApiError):
    """The answer did not come from a Maxi Yatzy Daily API (every answer of its, errors
    included, is a JSON object; it never redirects)."""


MISSHAPEN = (TypeError, KeyError, AttributeError, IndexError, ValueError, ArithmeticError)
"""What reading an answer of another shape than the API's raises (a list for an object,
a string for a number; ArithmeticError: a number JSON allows but Python cannot take,
1e400 read as an int): said in one line, not a traceback."""


class ConnectionLost(Exception):
    """The server could not be reached, even after retrying."""


def accept_language(environ: Mapping[str, str] | None = None) -> str | None:
    """The ``Accept-Language`` header for the locale of the environment, or None.

    >>> accept_language({"LANG": "da_DK.UTF-8"})
    'da-DK, da;q=0.9'
    >>> accept_language({"LANGUAGE": "sv:en", "LANG": "C.UTF-8"})
    'sv'
    >>> accept_language({"LANG": "C.UTF-8"}) is None
    True
    """
    tag = i18n.locale_tag(environ)
    if tag is None:
        return None
    language, _sep, region = tag.partition("_")
    if region:
        return f"{language}-{region}, {language};q=0.9"
    return language


def retry_after_seconds(value: str | None) -> float | None:
    """``Retry-After`` in seconds: a number, or an HTTP date from now.

    >>> retry_after_seconds("7")
    7.0
    >>> retry_after_seconds("Wed, 21 Oct 2015 07:28:00 GMT")
    0.0
    >>> retry_after_seconds(None) is None
    True
    """
    if not value:
        return None
    try:
        return max(0.0, float(value))
    except ValueError:
        pass
    try:
        when = email.utils.parsedate_to_datetime(value)
    except (TypeError, ValueError):
        return None
    return max(0.0, (when - dt.datetime.now(dt.UTC)).total_seconds())


def _not_the_api(server: str, response: httpx.Response) -> NotTheApi:
    if response.status_code >= 500 and not response.is_redirect:
        # The site's own failure, or a proxy's before it: the address may well be right.
        return NotTheApi(
            response.status_code,
            "not_the_api",
            _("{server} could not answer: {url} gave {status} {reason}. Try again later.").format(
                server=server,
                url=response.request.url,
                status=response.status_code,
                reason=response.reason_phrase,
            ),
        )
    where = response.headers.get("Location")
    text = (
        _(
            "{server} does not answer like a Maxi Yatzy Daily server: {url} gave {status} "
            "{reason}, sending the client on to {location}. --server takes the address of the "
            "site itself, e.g. http://127.0.0.1:8000."
        )
        if where
        else _(
            "{server} does not answer like a Maxi Yatzy Daily server: {url} gave {status} "
            "{reason}. --server takes the address of the site itself, e.g. "
            "http://127.0.0.1:8000."
        )
    )
    return NotTheApi(
        response.status_code,
        "not_the_api",
        text.format(
            server=server,
            url=response.request.url,
            status=response.status_code,
            reason=response.reason_phrase,
            location=where,
        ),
    )


# What a terminal obeys rather than shows: C0 controls but tab and newline (ESC starts
# the sequences that clear the screen, set the window title or make links), DEL and the
# C1 controls (U+009B is a one-character CSI); and the bidi embeddings, overrides and
# isolates, which reorder the rest of a line on a terminal that lays out bidi text.
_TERMINAL_CONTROLS = re.compile("[\x00-\x08\x0b-\x1f\x7f-\x9f\u202a-\u202e\u2066-\u2069]")


# What a token can be to travel in a header: visible ASCII (the server's are hex).
_SENDABLE_TOKEN = re.compile("[!-~]{1,500}")


def sendable_token(token: object) -> bool:
    """Whether ``token`` can be sent in the ``Authorization`` header.

    >>> sendable_token("0a1b2c"), sendable_token("0a1b\\n2c"), sendable_token("pøl")
    (True, False, False)
    """
    return isinstance(token, str) and _SENDABLE_TOKEN.fullmatch(token) is not None


def _check_token(token: object) -> str:
    """A token a server gave, or ``ValueError`` (an answer not in the API's form): one
    that no header can carry would be kept, then fail every request as a lost network."""
    if not sendable_token(token):
        raise ValueError(_("the server's token cannot be sent in a request"))
    return str(token)


def terminal_safe(value: Any) -> Any:
    """A decoded answer with every string (object keys too) stripped of terminal control
    characters, so nothing a server sends can rewrite the player's screen or title.

    >>> terminal_safe({"name\x1b[2J": ["EVIL\x1b]0;pwned\x07", 3, None]})
    {'name[2J': ['EVIL]0;pwned', 3, None]}
    """
    if isinstance(value, str):
        return _TERMINAL_CONTROLS.sub("", value)
    if isinstance(value, list):
        return [terminal_safe(item) for item in value]
    if isinstance(value, dict):
        return {terminal_safe(key): terminal_safe(item) for key, item in value.items()}
    return value


def _json_of(response: httpx.Response) -> Any:
    """The answer's JSON, terminal-safe (:func:`terminal_safe`); ``ValueError`` if none
    (also for one nested deeper than Python's recursion reads: no answer of the API is)."""
    try:
        return terminal_safe(response.json())
    except RecursionError:
        raise ValueError(_("an answer nested too deeply")) from None


def _error_from(server: str, response: httpx.Response) -> ApiError:
    try:
        body = _json_of(response)
    except ValueError:
        body = None
    api_answer = isinstance(body, dict) and "code" in body
    gateway = response.status_code in RETRIED_STATUSES or response.status_code == 429
    if response.is_redirect or not (api_answer or gateway):
        return _not_the_api(server, response)
    if not isinstance(body, dict):
        body = {}
    code = str(body.get("code") or f"http_{response.status_code}")
    message = str(body.get("message") or response.reason_phrase or _("The server refused."))
    if response.status_code == 409:
        current = body.get("current")
        return Conflict(409, code, message, current=current if isinstance(current, dict) else None)
    return ApiError(
        response.status_code,
        code,
        message,
        details=body.get("details"),
        retry_after=retry_after_seconds(response.headers.get("Retry-After")),
    )


def _describe(error: httpx.TransportError) -> str:
    return str(error) or type(error).__name__


class _AnswerTooSlow(httpx.ReadTimeout):
    """An answer still arriving at the client's deadline for a whole answer."""


def _trouble(server: str, error: httpx.TransportError, timeout: float | None) -> str:
    """What went wrong, in words: a server that was reached but did not answer in time
    is not one that cannot be reached."""
    if isinstance(error, _AnswerTooSlow):
        return str(error)
    if isinstance(error, httpx.TimeoutException) and not isinstance(error, httpx.ConnectTimeout):
        return _("no answer from {server} within {seconds} s").format(
            server=server, seconds=f"{timeout:g}"
        )
    return _("cannot reach {server} ({error})").format(server=server, error=_describe(error))


def sentence(text: str) -> str:
    """``text`` with its first letter capitalised (and nothing else touched)."""
    return text[:1].upper() + text[1:]


class ApiClient:
    """The public REST API of one server (``/api/v1/``), over httpx.

    ``notify`` is told, in words, whenever the client waits or retries; ``sleep`` is
    what it waits with and ``clock`` what it times answers with (tests pass fakes).
    ``transport`` replaces the network.

    ``timeout`` bounds each wait for the network (to connect, or for the next bytes);
    ``deadline`` bounds the whole answer, so a server that sends a byte now and then
    cannot hold the client: an answer whose body is still arriving after ``deadline``
    seconds counts as no answer (and is retried as one). An answer larger than
    :data:`MAX_ANSWER_BYTES` is not the API's (:class:`NotTheApi`).
    """

    def __init__(
        self,
        server: str,
        token: str | None = None,
        *,
        notify: Notify | None = None,
        language: str | None = None,
        max_attempts: int = 5,
        max_wait: float = 60.0,
        # Longer than the server takes to give up by itself (SQLite's wait for its write
        # lock: 20 s, then a 503), so a slow answer is read rather than sent again.
        timeout: float = 25.0,
        deadline: float = 60.0,
        sleep: Callable[[float], None] = time.sleep,
        clock: Callable[[], float] = time.monotonic,
        transport: httpx.BaseTransport | None = None,
    ) -> None:
        self.server = server.rstrip("/")
        headers = {
            "Accept": "application/json",
            "User-Agent": f"yatzy-play/{__version__} httpx/{httpx.__version__}",
        }
        language = language if language is not None else accept_language()
        if language:
            headers["Accept-Language"] = language
        if token:
            headers["Authorization"] = f"Token {token}"
        self._http = httpx.Client(
            base_url=f"{self.server}/api/v1/",
            headers=headers,
            timeout=timeout,
            transport=transport,
        )
        self.notify: Notify = notify or (lambda message: None)
        """Told of each wait and retry (a round's screen puts it among its messages)."""
        self._sleep = sleep
        self.max_attempts = max_attempts
        self.max_wait = max_wait
        self.timeout = timeout
        self.deadline = deadline
        self._clock = clock
        # Whether the last request was sent again after an attempt that may have been
        # applied, its answer lost (a lost connection, a 502 or 504; not a 429 or 503,
        # which refused it, nor a connection never made).
        self.sent_again = False

    def close(self) -> None:
        """Close the connection pool."""
        self._http.close()

    def __enter__(self) -> ApiClient:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    # -- the policy ------------------------------------------------------------------

    def _backoff(self, attempt: int) -> float:
        return float(min(self.max_wait, 2 ** (attempt - 1)))

    def _exchange(
        self,
        method: str,
        path: str,
        json: JSON | None,
        params: Mapping[str, str | int] | None,
        headers: Mapping[str, str] | None,
    ) -> httpx.Response:
        """One request and its whole answer, read within ``deadline`` seconds and
        :data:`MAX_ANSWER_BYTES` (decoded); the answer comes back read."""
        started = self._clock()
        request = self._http.build_request(method, path, json=json, params=params, headers=headers)
        response = self._http.send(request, stream=True)
        body = bytearray()
        try:
            for chunk in response.iter_bytes():
                body += chunk
                if len(body) > MAX_ANSWER_BYTES:
                    raise NotTheApi(
                        response.status_code,
                        "not_the_api",
                        _(
                            "{server} does not answer like a Maxi Yatzy Daily server: {url} "
                            "sent more than {size} MiB."
                        ).format(
                            server=self.server, url=request.url, size=MAX_ANSWER_BYTES // 2**20
                        ),
                    )
                if self._clock() - started > self.deadline:
                    raise _AnswerTooSlow(
                        _("no whole answer from {server} within {seconds} s").format(
                            server=self.server, seconds=f"{self.deadline:g}"
                        ),
                        request=request,
                    )
        finally:
            response.close()
        # The body as decoded, under the headers that still describe it.
        described = [
            (name, value)
            for name, value in response.headers.multi_items()
            if name not in ("content-encoding", "content-length", "transfer-encoding")
        ]
        answer = httpx.Response(
            response.status_code,
            headers=described,
            content=bytes(body),
            request=request,
            extensions=response.extensions,
        )
        answer.read()
        # The client's own words follow the language the server answers in (the
        # player's profile language, else Accept-Language), as its box names do.
        if language := answer.headers.get("Content-Language"):
            i18n.activate(language)
        return answer

    def request(
        self,
        method: str,
        path: str,
        *,
        json: JSON | None = None,
        params: Mapping[str, str | int] | None = None,
        headers: Mapping[str, str] | None = None,
    ) -> Any:
        """Send one request under the retry policy (each attempt with the same
        ``headers``); the decoded JSON answer (None for an empty one), or
        :class:`ApiError` / :class:`ConnectionLost`."""
        attempt = 0
        self.sent_again = False
        maybe_applied = False
        while True:
            attempt += 1
            self.sent_again = maybe_applied
            last = attempt >= self.max_attempts
            try:
                response = self._exchange(method, path, json, params, headers)
            except httpx.TransportError as error:
                unsent = isinstance(error, httpx.ConnectError | httpx.ConnectTimeout)
                maybe_applied = maybe_applied or not unsent
                trouble = _trouble(self.server, error, self.timeout)
                if last:
                    raise ConnectionLost(trouble) from error
                wait = self._backoff(attempt)
                self.notify(
                    _(
                        "{trouble}; retrying in {seconds} s (attempt {attempt} of {attempts})."
                    ).format(
                        trouble=sentence(trouble),
                        seconds=f"{wait:g}",
                        attempt=attempt + 1,
                        attempts=self.max_attempts,
                    )
                )
                self._sleep(wait)
                continue
            if response.is_success:
                try:
                    return _json_of(response) if response.content else None
                except ValueError:
                    raise _not_the_api(self.server, response) from None
            failure = _error_from(self.server, response)
            status = response.status_code
            if status == 429 and not last:
                asked = failure.retry_after
                wait = self._backoff(attempt) if asked is None else asked
                if wait <= self.max_wait:
                    self.notify(
                        _(
                            "The server is throttling requests ({message}); waiting {seconds} s "
                            "as it asks."
                        ).format(message=failure.message, seconds=f"{wait:g}")
                    )
                    self._sleep(wait)
                    continue
            if status in RETRIED_STATUSES and not last:
                maybe_applied = maybe_applied or status != 503
                wait = max(failure.retry_after or 0.0, self._backoff(attempt))
                if wait <= self.max_wait:
                    self.notify(
                        _(
                            "The server is unavailable ({status}: {message}); retrying in "
                            "{seconds} s (attempt {attempt} of {attempts})."
                        ).format(
                            status=status,
                            message=failure.message,
                            seconds=f"{wait:g}",
                            attempt=attempt + 1,
                            attempts=self.max_attempts,
                        )
                    )
                    self._sleep(wait)
                    continue
            raise failure

    # -- accounts --------------------------------------------------------------------

    def register(self, username: str, password: str) -> JSON:
        """Create an account; the answer carries its ``token``. A retry whose first
        attempt created the account (its answer lost) finds the name taken: when the
        password logs in, the account is this registration's, and the answer is its
        profile with the log-in's token."""
        body = {"username": username, "password": password}
        try:
            result: JSON = self.request("POST", "accounts/register/", json=body)
        except ApiError as error:
            if error.code != "username_taken" or not self.sent_again:
                raise
            try:
                token = self.login(username, password)
            except ApiError:
                raise error from None
            auth = {"Authorization": f"Token {token}"}
            result = {**self.request("GET", "accounts/me/", headers=auth), "token": token}
        _check_token(result["token"])
        return result

    def login(self, username: str, password: str) -> str:
        """The token for ``username``."""
        body = {"username": username, "password": password}
        return _check_token(self.request("POST", "accounts/token/", json=body)["token"])

    def logout(self) -> None:
        """Revoke the token on the server."""
        self.request("POST", "accounts/logout/")

    def me(self) -> JSON:
        """The player's profile."""
        result: JSON = self.request("GET", "accounts/me/")
        return result

    # -- the daily ---------------------------------------------------------------------

    def daily(self, day: dt.date | str | None = None) -> JSON:
        """Today's challenge, or that of ``day``."""
        path = "daily/" if day is None else f"daily/{day}/"
        result: JSON = self.request("GET", path)
        return result

    def daily_start(self, day: dt.date | str) -> JSON:
        """Start a round on ``day``'s challenge, or get the unfinished one."""
        result: JSON = self.request("POST", f"daily/{day}/rounds/")
        return result

    # -- rounds ----------------------------------------------------------------------

    def round(self, round_id: str) -> JSON:
        """A round's state."""
        result: JSON = self.request("GET", f"rounds/{round_id}/")
        return result

    def roll(self, round_id: str, *, hold: list[int], turn: int, roll: int) -> JSON:
        """Roll the dice not at the ``hold`` positions; ``turn``/``roll`` as last seen."""
        body = {"hold": hold, "turn": turn, "roll": roll}
        result: JSON = self.request("POST", f"rounds/{round_id}/roll/", json=body)
        return result

    def score(self, round_id: str, *, category: str, turn: int, roll: int) -> JSON:
        """Fill box ``category`` with the current dice; ``turn``/``roll`` as last seen
        (dice rolled since, from another device, are a 409, not scored)."""
        body = {"category": category, "turn": turn, "roll": roll}
        result: JSON = self.request("POST", f"rounds/{round_id}/score/", json=body)
        return result

    def hint(self, round_id: str) -> JSON:
        """The best move now and every other legal move."""
        result: JSON = self.request("GET", f"rounds/{round_id}/hint/")
        return result

    def share(self, round_id: str) -> JSON:
        """The friend code of a finished round."""
        result: JSON = self.request("POST", f"rounds/{round_id}/share/")
        return result

    # -- other modes -------------------------------------------------------------------

    def game_create(
        self,
        mode: str,
        *,
        ruleset: str | None = None,
        level: str | None = None,
        options: JSON | None = None,
    ) -> JSON:
        """Start a solo or computer game."""
        body: JSON = {"mode": mode}
        if ruleset is not None:
            body["ruleset"] = ruleset
        if level is not None:
            body["level"] = level
        if options:
            body["options"] = options
        # One key per game: a retry of this request (its answer lost) starts no second.
        once = {"Idempotency-Key": str(uuid.uuid4())}
        result: JSON = self.request("POST", "games/", json=body, headers=once)
        return result

    def games(self, *, mode: str | None = None, status: str | None = None) -> list[JSON]:
        """The first page of the player's games, newest first."""
        return self._games_page(mode, status, 1)[0]

    def games_each(self, *, mode: str | None = None, status: str | None = None) -> Iterator[JSON]:
        """The player's games, newest first, page after page as they are read (the
        first page holds 50: a day's round further back was not found)."""
        number, more = 1, True
        while more:
            results, more = self._games_page(mode, status, number)
            yield from results
            number += 1

    def games_page(
        self, *, mode: str | None = None, status: str | None = None, page: int = 1
    ) -> JSON:
        """Page ``page`` of the player's games as the API answers it (``results``,
        ``count``, ``next``), newest first."""
        params: dict[str, str | int] = {
            key: value for key, value in (("mode", mode), ("status", status)) if value
        }
        if page != 1:
            params["page"] = page
        result: JSON = self.request("GET", "games/", params=params)
        return result

    def game_abandon(self, game_id: str) -> None:
        """Give up an unfinished solo, computer or party game (``DELETE games/{id}/``,
        the id the games list shows). A retry whose first attempt may have deleted it
        (its answer lost) finds no game: that 404 is the give-up's answer, not an error."""
        try:
            self.request("DELETE", f"games/{game_id}/")
        except ApiError as error:
            if error.status != 404 or not self.sent_again:
                raise

    def _games_page(
        self, mode: str | None, status: str | None, number: int
    ) -> tuple[list[JSON], bool]:
        """Page ``number`` of the player's games, and whether another follows."""
        page = self.games_page(mode=mode, status=status, page=number)
        if not isinstance(page, dict):
            return page, False
        results: list[JSON] = page["results"]
        return results, bool(page.get("next")) and bool(results)

    def friend(self, code: str) -> JSON:
        """A friend challenge as the player sees it."""
        result: JSON = self.request("GET", f"friend/{code}/")
        return result

    def friend_start(self, code: str, *, view: str) -> JSON:
        """Start (or resume) the player's round on a friend's code."""
        result: JSON = self.request("POST", f"friend/{code}/rounds/", json={"view": view})
        return result

    # -- boards, advent, rules -----------------------------------------------------------

    def board(
        self,
        kind: str,
        *,
        day: dt.date | str | None = None,
        year: int | None = None,
        page: int | None = None,
        around_me: bool = False,
        season: str | None = None,
    ) -> JSON:
        """A page of a board (``daily``, ``decisions``, ``best-day``, ``streaks`` or
        ``advent``); ``decisions`` without a ``day`` is the mean loss over the days."""
        if kind == "daily" or (kind == "decisions" and day):
            path = f"leaderboards/{kind}/{day}/"
        elif kind == "advent":
            path = f"leaderboards/advent/{year}/"
        else:
            path = f"leaderboards/{kind}/"
        params: dict[str, str | int] = {}
        if page is not None:
            params["page"] = page
        if around_me:
            params["around"] = "me"
        if season:
            params["season"] = season
        result: JSON = self.request("GET", path, params=params)
        return result

    def advent(self, year: int) -> JSON:
        """The player's advent calendar of ``year``."""
        result: JSON = self.request("GET", f"advent/{year}/")
        return result

    def rulesets(self) -> list[JSON]:
        """The rules of every ruleset with its default options, in the player's language
        (box names and titles included)."""
        result: list[JSON] = self.request("GET", "rulesets/")
        return result

    def ruleset(self, name: str, options: Mapping[str, str] | None = None) -> JSON:
        """The rules of a ruleset in the player's language (``GET rulesets/{name}/``),
        with ``options`` as the query gives them (``forced_order=true``). The name is one
        segment of the path whatever it holds (``../accounts/me`` asked for the profile
        and showed it as the rules of ``None``)."""
        segment = urllib.parse.quote(name, safe="").replace(".", "%2E")
        result: JSON = self.request("GET", f"rulesets/{segment}/", params=dict(options or {}))
        return result
