"""The API client's policy for answers that are not a success, over a fake transport."""

import gzip
import itertools

import httpx
import pytest

from client.api import (
    MAX_ANSWER_BYTES,
    ApiClient,
    ApiError,
    Conflict,
    ConnectionLost,
    NotTheApi,
    accept_language,
)


def client_for(handler, **kwargs):
    """An ApiClient on ``handler``; its notices and waits are collected, not slept."""
    notices, waits = [], []
    api = ApiClient(
        "http://yatzy.test",
        "tok",
        notify=notices.append,
        sleep=waits.append,
        transport=httpx.MockTransport(handler),
        language="da-DK, da;q=0.9",
        **kwargs,
    )
    return api, notices, waits


def answers(*responses):
    """A handler that gives these answers in turn and records the requests."""
    queue = list(responses)
    seen = []

    def handler(request):
        seen.append(request)
        answer = queue.pop(0)
        if isinstance(answer, Exception):
            raise answer
        return answer

    return handler, seen


def test_429_waits_as_long_as_retry_after_says_then_sends_again():
    handler, seen = answers(
        httpx.Response(
            429, json={"code": "throttled", "message": "Slow down."}, headers={"Retry-After": "7"}
        ),
        httpx.Response(200, json={"ok": True}),
    )
    api, notices, waits = client_for(handler)
    assert api.request("GET", "daily/") == {"ok": True}
    assert waits == [7.0]
    assert len(seen) == 2
    assert "waiting 7 s" in notices[0] and "Slow down." in notices[0]


def test_503_retries_with_growing_backoff_and_says_so_each_time():
    unavailable = httpx.Response(
        503,
        json={"code": "database_unavailable", "message": "Try later."},
        headers={"Retry-After": "1"},
    )
    handler, seen = answers(unavailable, unavailable, unavailable, httpx.Response(200, json={}))
    api, notices, waits = client_for(handler)
    assert api.request("GET", "daily/") == {}
    assert len(seen) == 4
    assert waits == [1.0, 2.0, 4.0]
    assert [n.split("(attempt ")[1] for n in notices] == ["2 of 5).", "3 of 5).", "4 of 5)."]
    assert all("unavailable" in n and "Try later." in n for n in notices)


def test_503_gives_up_after_the_last_attempt_with_the_servers_message():
    unavailable = httpx.Response(503, json={"code": "database_unavailable", "message": "Down."})
    handler, _ = answers(*[unavailable] * 3)
    api, _, waits = client_for(handler, max_attempts=3)
    with pytest.raises(ApiError) as caught:
        api.request("GET", "daily/")
    assert (caught.value.status, caught.value.code, caught.value.message) == (
        503,
        "database_unavailable",
        "Down.",
    )
    assert waits == [1.0, 2.0]


def test_a_wait_longer_than_max_wait_is_reported_not_waited():
    building = httpx.Response(
        503, json={"code": "table_building", "message": "Building."}, headers={"Retry-After": "300"}
    )
    handler, seen = answers(building)
    api, _, waits = client_for(handler, max_wait=60)
    with pytest.raises(ApiError) as caught:
        api.hint("r1")
    assert caught.value.code == "table_building" and caught.value.retry_after == 300
    assert waits == [] and len(seen) == 1


def test_409_raises_a_conflict_carrying_the_current_state():
    handler, _ = answers(
        httpx.Response(
            409, json={"code": "stale_state", "message": "Stale.", "current": {"turn": 3}}
        )
    )
    api, _, _ = client_for(handler)
    with pytest.raises(Conflict) as caught:
        api.roll("r1", hold=[], turn=2, roll=0)
    assert caught.value.current == {"turn": 3} and caught.value.message == "Stale."


def test_an_error_message_is_passed_on_exactly_as_the_server_wrote_it():
    handler, _ = answers(
        httpx.Response(400, json={"code": "category_used", "message": "Chance er brugt"})
    )
    api, _, _ = client_for(handler)
    with pytest.raises(ApiError) as caught:
        api.score("r1", category="chance", turn=0, roll=1)
    assert (caught.value.code, caught.value.message) == ("category_used", "Chance er brugt")


def test_an_unreachable_server_is_retried_then_reported_as_a_lost_connection():
    refused = httpx.ConnectError("Connection refused")
    handler, seen = answers(refused, refused, refused)
    api, notices, waits = client_for(handler, max_attempts=3)
    with pytest.raises(ConnectionLost, match="Connection refused"):
        api.round("r1")
    assert len(seen) == 3 and waits == [1.0, 2.0] and len(notices) == 2


def test_a_server_slow_to_answer_is_not_called_unreachable():
    """A read timeout: the server was reached (it may even apply the request; a retry's
    preconditions make that safe). It waits longer than the server's own 20 s wait for
    SQLite's lock."""
    slow = httpx.ReadTimeout("timed out")
    handler, seen = answers(slow, slow)
    api, notices, _ = client_for(handler, max_attempts=2)
    with pytest.raises(ConnectionLost) as caught:
        api.round("r1")
    assert len(seen) == 2
    assert str(caught.value) == "no answer from http://yatzy.test within 25 s"
    assert notices == [
        "No answer from http://yatzy.test within 25 s; retrying in 1 s (attempt 2 of 2)."
    ]


def test_an_answer_that_trickles_past_the_deadline_counts_as_none():
    """A server sending a byte now and then, each within the per-read timeout, does not
    hold the client: the whole answer has ``deadline`` seconds (on the client's clock,
    here one that moves 7 s per look), and is then retried as a missing one."""
    sent = []

    def trickle():
        for byte in itertools.repeat(b" "):
            sent.append(byte)
            yield byte

    def handler(request):
        return httpx.Response(200, headers={"Content-Type": "application/json"}, content=trickle())

    ticks = itertools.count(step=7.0)
    api, notices, waits = client_for(handler, max_attempts=2, clock=lambda: next(ticks))
    with pytest.raises(ConnectionLost) as caught:
        api.round("r1")
    assert str(caught.value) == "no whole answer from http://yatzy.test within 60 s"
    assert notices == [
        "No whole answer from http://yatzy.test within 60 s; retrying in 1 s (attempt 2 of 2)."
    ]
    assert waits == [1.0]
    assert len(sent) < 40  # read until the deadline, then let go


def test_an_answer_larger_than_any_the_api_gives_is_not_read_to_its_end():
    chunk = b"x" * 2**20
    sent = []

    def flood():
        while True:
            sent.append(chunk)
            yield chunk

    def handler(request):
        return httpx.Response(200, headers={"Content-Type": "application/json"}, content=flood())

    api, notices, _ = client_for(handler)
    with pytest.raises(NotTheApi, match="sent more than 4 MiB"):
        api.round("r1")
    assert len(sent) * len(chunk) <= MAX_ANSWER_BYTES + len(chunk)
    assert notices == []  # not retried: another try would flood again


def test_a_compressed_answer_is_read_as_its_json():
    body = gzip.compress(b'{"code": "round_not_found", "message": "No such round."}')
    handler, _ = answers(
        httpx.Response(404, headers={"Content-Encoding": "gzip"}, content=body),
        httpx.Response(200, headers={"Content-Encoding": "gzip"}, content=gzip.compress(b"{}")),
    )
    api, _, _ = client_for(handler)
    with pytest.raises(ApiError) as caught:
        api.round("r1")
    assert (caught.value.status, caught.value.code) == (404, "round_not_found")
    assert caught.value.message == "No such round."
    assert api.round("r1") == {}


def test_requests_carry_the_token_the_language_and_the_turn_and_roll_last_seen():
    handler, seen = answers(httpx.Response(200, json={}))
    api, _, _ = client_for(handler)
    api.roll("r1", hold=[0, 2], turn=4, roll=1)
    request = seen[0]
    assert request.url == "http://yatzy.test/api/v1/rounds/r1/roll/"
    assert request.headers["Authorization"] == "Token tok"
    assert request.headers["Accept-Language"] == "da-DK, da;q=0.9"
    assert request.read() == b'{"hold":[0,2],"turn":4,"roll":1}'


@pytest.mark.parametrize(
    ("environ", "header"),
    [
        ({"LANG": "sv_SE.UTF-8"}, "sv-SE, sv;q=0.9"),
        ({"LC_ALL": "de_DE.UTF-8", "LANG": "en_US.UTF-8"}, "de-DE, de;q=0.9"),
        ({"LANG": "POSIX"}, None),
        ({}, None),
        # LC_ALL=C (what scripts set for plain English) is the C locale whatever LANG
        # says; it was skipped, and LANG's language asked for.
        ({"LC_ALL": "C", "LANG": "de_DE.UTF-8"}, None),
        ({"LC_ALL": "C.UTF-8", "LANG": "fi_FI.UTF-8"}, None),
        ({"LC_MESSAGES": "POSIX", "LANG": "ja_JP.UTF-8"}, None),
        ({"LANGUAGE": "fi", "LC_ALL": "C"}, None),  # as gettext: LANGUAGE is not for C
        ({"LANGUAGE": "sv:en", "LANG": "C.UTF-8"}, "sv"),
        ({"LC_MESSAGES": "fi_FI.UTF-8", "LANG": "de_DE.UTF-8"}, "fi-FI, fi;q=0.9"),
        # A value no header can carry failed every request (UnicodeEncodeError).
        ({"LANG": "ü_Ü.UTF-8"}, None),
        ({"LANGUAGE": "s\tv", "LANG": "da_DK.UTF-8"}, "da-DK, da;q=0.9"),
        ({"LC_ALL": "de_DE\x01"}, None),
    ],
)
def test_accept_language_follows_the_locale(environ, header):
    assert accept_language(environ) == header


@pytest.mark.parametrize("status", [200, 400])
def test_an_answer_nested_deeper_than_any_the_api_gives_is_not_the_api(status):
    nested = b"[" * 100_000 + b"]" * 100_000
    handler, _ = answers(httpx.Response(status, content=nested))
    api, _, _ = client_for(handler)
    with pytest.raises(NotTheApi, match="does not answer like a Maxi Yatzy Daily server"):
        api.request("GET", "daily/")


def test_bidi_overrides_in_an_answer_do_not_reach_the_terminal():
    # U+202E reverses what follows on a terminal that lays out bidi text ("Trojan
    # Source"): a name could show another score beside it than the board's.
    name = "ada\u202e001\u202c \u2067x\u2069"
    handler, _ = answers(httpx.Response(200, json={"results": [{"display_name": name}]}))
    api, _, _ = client_for(handler)
    shown = api.request("GET", "leaderboards/daily/")["results"][0]["display_name"]
    assert shown == "ada001 x"


@pytest.mark.parametrize("status", [500, 501])
def test_a_server_failing_in_html_is_said_to_fail_not_to_be_another_site(status):
    """An error page of the site's own (or of a proxy before it) is no sign of a wrong
    --server: the client said "--server takes the address of the site itself"."""
    page = b"<!DOCTYPE html><h1>Server Error (500)</h1>"
    handler, _ = answers(
        httpx.Response(status, content=page, headers={"Content-Type": "text/html"})
    )
    api, _, _ = client_for(handler)
    with pytest.raises(NotTheApi, match="could not answer") as raised:
        api.request("GET", "daily/")
    assert "--server" not in str(raised.value) and "Try again later" in str(raised.value)


@pytest.mark.parametrize(
    ("first", "logs_in"),
    [
        (httpx.Response(429, json={"code": "throttled", "message": "Slow down."}), False),
        (httpx.Response(503, json={"code": "unavailable", "message": "Down."}), False),
        (httpx.ConnectError("refused"), False),  # never reached the server
        (httpx.Response(502, text="Bad gateway"), True),  # the app may have created it
        (httpx.ReadTimeout("timed out"), True),
    ],
)
def test_a_registration_logs_in_to_a_taken_name_only_after_an_attempt_that_may_have_made_it(
    first, logs_in
):
    """sent_again was true after any retry: a registration throttled (429) or refused
    (503) at first, then finding its name taken, tried the password on that account as
    if its own first attempt had created it."""
    taken = httpx.Response(400, json={"code": "username_taken", "message": "Name taken."})
    refused = httpx.Response(400, json={"code": "bad_credentials", "message": "No."})
    handler, seen = answers(first, taken, refused)
    api, _, _ = client_for(handler)
    with pytest.raises(ApiError) as raised:
        api.register("ada", "a long passphrase")
    assert raised.value.code == "username_taken"
    paths = [request.url.path.removeprefix("/api/v1/") for request in seen]
    assert paths == ["accounts/register/"] * 2 + ["accounts/token/"] * logs_in
