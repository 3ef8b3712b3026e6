"""The API's edge under hostile input (issue #10): every answer under /api/ is small JSON
with a code, bodies are bounded and strictly typed, throttles key on the real client."""

import datetime as dt
import io
import json
import re
import time
import uuid

import pytest
import time_machine
from django.db import connection
from knox.models import AuthToken
from rest_framework.test import APIClient

from accounts.models import User
from config.parsers import BODY_METHODS
from games.models import Round, ShareCode
from tests.factories import make_player

pytestmark = pytest.mark.django_db

NOON = dt.datetime(2026, 11, 20, 12, tzinfo=dt.UTC)


@pytest.fixture
def at_noon():
    with time_machine.travel(NOON, tick=False):
        yield


@pytest.fixture
def started(at_noon):
    _, client = make_player()
    state = client.post("/api/v1/daily/2026-11-20/rounds/").json()
    return client, state


def post_raw(client, url, body: bytes | str, content_type="application/json"):
    return client.generic("POST", url, body, content_type=content_type)


def assert_error(response, status, code):
    assert response.status_code == status, response.content[:300]
    assert response["Content-Type"].startswith("application/json")
    body = response.json()
    assert body["code"] == code, body
    assert body["message"]
    return body


# 1. Deeply nested JSON ----------------------------------------------------------------


@pytest.mark.parametrize("url", ["/api/v1/accounts/token/", "/api/v1/accounts/register/"])
@pytest.mark.parametrize("depth", [17, 1000, 100_000])
def test_deeply_nested_json_is_a_parse_error_without_logging_in(settings, url, depth):
    settings.API_MAX_BODY_BYTES = 1_000_000  # the depth is checked, not only the size
    response = post_raw(APIClient(), url, "[" * depth + "]" * depth)
    assert_error(response, 400, "parse_error")


def test_deeply_nested_json_on_a_roll_is_a_parse_error_and_changes_nothing(started):
    client, state = started
    nested = '{"hold": ' + "[" * 1000 + "]" * 1000 + ', "turn": 0, "roll": 0}'
    assert_error(
        post_raw(client, f"/api/v1/rounds/{state['id']}/roll/", nested), 400, "parse_error"
    )
    assert Round.objects.get(pk=state["id"]).actions == []


@pytest.mark.parametrize(
    "body",
    [
        '{"hold": [], "turn": 7, "turn": 0, "roll": 0}',
        '{"hold": [], "turn": 0, "roll": 0, "roll": 0}',  # the same value twice is one too
        '{"hold": [], "turn": 0, "roll": 0, "x": {"a": 1, "a": 2}}',
    ],
)
def test_a_name_twice_in_one_object_is_a_parse_error_and_changes_nothing(started, body):
    """Which of the two a server takes is a guess (RFC 7493 §2.3), here a precondition's."""
    client, state = started
    response = post_raw(client, f"/api/v1/rounds/{state['id']}/roll/", body)
    assert_error(response, 400, "parse_error")
    assert "appears twice in one object" in response.json()["message"]
    assert Round.objects.get(pk=state["id"]).actions == []


def test_a_number_the_decoder_refuses_is_not_said_to_nest_too_deep(started, settings):
    """Past 4,300 digits the decoder refuses an integer with a plain ValueError, which was
    answered "it nests deeper than 16 levels"."""
    settings.API_MAX_BODY_BYTES = 20_000
    client, state = started
    body = '{"hold": [], "turn": ' + "1" * 5000 + ', "roll": 0}'
    response = post_raw(client, f"/api/v1/rounds/{state['id']}/roll/", body)
    assert_error(response, 400, "parse_error")
    assert response.json()["message"] == "The body is not valid JSON."
    assert Round.objects.get(pk=state["id"]).actions == []


def test_nesting_inside_strings_does_not_count(started):
    client, state = started
    body = json.dumps({"category": "[" * 3000, "turn": 0})
    response = post_raw(client, f"/api/v1/rounds/{state['id']}/score/", body)
    # Parsed: the answer is about the box (too long a name), not the body's nesting.
    assert response.status_code == 400
    assert response.json()["details"] == {
        "category": ["Ensure this field has no more than 32 characters."]
    }


# 2. The client address of the per-IP throttles ----------------------------------------


def _rates(settings, **rates):
    settings.REST_FRAMEWORK = {
        **settings.REST_FRAMEWORK,
        "DEFAULT_THROTTLE_RATES": {**settings.REST_FRAMEWORK["DEFAULT_THROTTLE_RATES"], **rates},
    }


def bad_login(client, **headers):
    return client.post(
        "/api/v1/accounts/token/",
        {"username": "nobody", "password": "wrong password"},
        format="json",
        **headers,
    )


def test_rotating_x_forwarded_for_does_not_escape_the_login_throttle(settings):
    _rates(settings, login="5/minute")
    client = APIClient()
    codes = [bad_login(client, HTTP_X_FORWARDED_FOR=f"10.0.0.{i}").status_code for i in range(8)]
    assert codes[:5] == [400] * 5
    assert codes[5:] == [429] * 3


def test_registrations_from_one_address_are_throttled_whatever_the_header_says(settings):
    _rates(settings, register="3/hour")
    client = APIClient()
    codes = [
        client.post(
            "/api/v1/accounts/register/",
            {"username": f"rotor{i}", "password": "a-long-enough-passphrase"},
            format="json",
            HTTP_X_FORWARDED_FOR=f"192.0.2.{i}",
        ).status_code
        for i in range(5)
    ]
    assert codes == [201, 201, 201, 429, 429]
    assert User.objects.filter(username__startswith="rotor").count() == 3


def test_with_one_trusted_proxy_the_address_it_saw_is_the_client(settings):
    _rates(settings, login="2/minute")
    settings.REST_FRAMEWORK = {**settings.REST_FRAMEWORK, "NUM_PROXIES": 1}
    client = APIClient()
    # The proxy appends the address it saw; what the client wrote before it is ignored.
    first = [bad_login(client, HTTP_X_FORWARDED_FOR=f"6.6.6.{i}, 198.51.100.7") for i in range(3)]
    other = bad_login(client, HTTP_X_FORWARDED_FOR="6.6.6.6, 198.51.100.8")
    assert [r.status_code for r in first] == [400, 400, 429]
    assert other.status_code == 400


# 3. Lists, bodies and answers stay small ----------------------------------------------


def test_a_hold_longer_than_the_dice_is_refused_by_its_length_alone(started, settings):
    client, state = started
    settings.API_MAX_BODY_BYTES = 10_000_000
    body = json.dumps({"hold": list(range(100_000)), "turn": 0, "roll": 0})
    started_at = time.perf_counter()
    response = post_raw(client, f"/api/v1/rounds/{state['id']}/roll/", body)
    elapsed = time.perf_counter() - started_at
    error = assert_error(response, 400, "invalid_input")
    assert "no more than 10" in error["message"]
    assert len(response.content) < 1000
    # Not a timing assertion of speed, a bound on work: one length check, no per-element
    # validation (which took seconds for a million elements).
    assert elapsed < 5


def test_a_body_over_the_limit_is_413_json_before_it_is_read(started):
    client, state = started
    body = json.dumps({"hold": [0] * 3000, "turn": 0, "roll": 0})
    response = post_raw(client, f"/api/v1/rounds/{state['id']}/roll/", body)
    assert_error(response, 413, "request_too_large")
    assert Round.objects.get(pk=state["id"]).actions == []


def test_a_body_over_the_limit_is_413_even_without_credentials():
    response = post_raw(APIClient(), "/api/v1/accounts/register/", "x" * 5000)
    assert_error(response, 413, "request_too_large")


def test_error_details_are_bounded_whatever_the_body(settings):
    settings.API_MAX_BODY_BYTES = 1_000_000
    body = json.dumps({"username": ["a"] * 5000, "password": {str(i): i for i in range(5000)}})
    response = post_raw(APIClient(), "/api/v1/accounts/register/", body)
    assert_error(response, 400, "invalid_input")
    assert len(response.content) < 2000


# 5. Every answer under /api/ is JSON with a code, DEBUG or not ------------------------


@pytest.mark.parametrize("debug", [True, False])
@pytest.mark.parametrize(
    "url",
    [
        "/api/v1/rounds/not-a-uuid/",
        "/api/v1/daily/2026-02-30/",
        "/api/v1/leaderboards/advent/0999/",
        "/api/v1/nothing/",
        "/api/nothing/",
    ],
)
def test_malformed_paths_are_json_404s(settings, debug, url):
    settings.DEBUG = debug
    _, client = make_player()
    assert_error(client.get(url), 404, "not_found")


@pytest.mark.parametrize("debug", [True, False])
def test_a_nul_in_the_address_or_query_is_a_json_400_that_changes_nothing(settings, debug, started):
    """PostgreSQL refuses a NUL in a query's text (a 500 wherever one reached a lookup):
    config.nul_guard answers first, in the API's error shape."""
    settings.DEBUG = debug
    client, state = started
    before = Round.objects.get(pk=state["id"]).version
    for response in (
        client.get("/api/v1/leaderboards/today/?player=a%00b"),
        client.get("/api/v1/players/a%00b/"),
        client.post(f"/api/v1/rounds/{state['id']}/roll/?x=%00", {"hold": [], "turn": 1}),
    ):
        assert_error(response, 400, "bad_request")
    assert Round.objects.get(pk=state["id"]).version == before


@pytest.mark.parametrize("debug", [True, False])
def test_a_json_404_declares_the_length_of_its_own_body(settings, debug):
    # The HTML page it replaces was longer: a client trusting the old Content-Length
    # waited for bytes that never came.
    settings.DEBUG = debug
    response = APIClient().get("/api/v1/nothing/")
    assert response.status_code == 404
    assert response["Content-Length"] == str(len(response.content))


@pytest.mark.parametrize("debug", [True, False])
def test_a_command_without_its_trailing_slash_is_a_308_that_keeps_it(settings, debug, started):
    """Django's APPEND_SLASH answered a POST without the slash with a 500 with DEBUG on
    (its RuntimeError) and a 301 with it off, which clients follow as a GET (a 405, the
    command lost). Under /api/ the redirect is a 308: the same method and body again."""
    settings.DEBUG = debug
    client, state = started
    client.raise_request_exception = False
    url = f"/api/v1/rounds/{state['id']}/roll/"
    response = client.post(url[:-1], {"hold": [], "turn": 0, "roll": 0}, format="json")
    assert response.status_code == 308, response.content[:300]
    assert response["Location"] == url
    assert Round.objects.get(pk=state["id"]).actions == []
    for method in ("get", "head"):
        answer = getattr(client, method)(f"/api/v1/rounds/{state['id']}")
        assert answer.status_code == 308
        assert answer["Location"] == f"/api/v1/rounds/{state['id']}/"
    assert client.post(url, {"hold": [], "turn": 0, "roll": 0}, format="json").status_code == 200


@pytest.mark.parametrize("debug", [True, False])
def test_a_form_posted_to_a_page_without_its_slash_is_a_308_too(settings, client, debug):
    """With DEBUG on (``make run``) Django raised its RuntimeError for a POST to a page
    missing its slash (a 500); with it off a 301, which browsers follow as a GET: the
    form shown again, unsent. A GET keeps Django's 301."""
    settings.DEBUG = debug
    client.raise_request_exception = False
    posted = client.post("/accounts/login", {"username": "ada", "password": "x"})
    assert posted.status_code == 308, posted.content[:300]
    assert posted["Location"] == "/accounts/login/"
    got = client.get("/accounts/login?next=/games/")
    assert (got.status_code, got["Location"]) == (301, "/accounts/login/?next=/games/")


def test_wrong_method_is_json_405_with_allow(started):
    client, state = started
    response = client.delete(f"/api/v1/rounds/{state['id']}/roll/")
    assert_error(response, 405, "method_not_allowed")
    assert "POST" in response["Allow"]


def test_allow_lists_the_methods_answered_not_options(started):
    """OPTIONS is 405 (no metadata): no answer lists it among the methods allowed."""
    client, state = started
    round_url = f"/api/v1/rounds/{state['id']}/"
    assert client.get(round_url)["Allow"] == "GET, HEAD"
    refused = client.options(round_url)
    assert_error(refused, 405, "method_not_allowed")
    assert refused["Allow"] == "GET, HEAD"
    assert client.delete(f"{round_url}roll/")["Allow"] == "POST"


def test_a_chunked_body_is_411_and_changes_nothing(started):
    """Django reads a body by its Content-Length only: a chunked one would be taken as
    empty (tests/live/test_body_limit.py sends a real one through both servers)."""
    client, state = started
    response = client.post(
        f"/api/v1/rounds/{state['id']}/roll/",
        data=json.dumps({"turn": 0, "roll": 0, "hold": []}),
        content_type="application/json",
        HTTP_TRANSFER_ENCODING="chunked",
    )
    assert_error(response, 411, "length_required")
    assert Round.objects.get(pk=state["id"]).version == 0


def _body_operations():
    """Every operation whose body the API reads (the schema's POST, PUT, PATCH and
    DELETE), its path parameters filled with values of the right shape."""
    from django.core.management import call_command

    out = io.StringIO()
    call_command("spectacular", "--format", "openapi-json", stdout=out)
    filled = {"round_id": str(uuid.uuid4()), "party_id": str(uuid.uuid4())}
    filled["game_id"] = str(uuid.uuid4())
    filled |= {"day": "2026-11-20", "code": "ABCDEFGH"}
    for path, item in json.loads(out.getvalue())["paths"].items():
        for method in item:
            if method.upper() in BODY_METHODS:
                yield method, re.sub(r"{(\w+)}", lambda m: filled[m.group(1)], path)


@pytest.mark.parametrize(
    ("body", "content_type", "status", "code"),
    [
        ("hello", "text/plain", 415, "unsupported_media_type"),
        ('{"x":', "application/json", 400, "parse_error"),
        ('{"x": "\\ud800"}', "application/json", 400, "parse_error"),
    ],
)
def test_every_operation_holds_a_body_to_the_api_rules_even_one_that_takes_none(
    started, body, content_type, status, code
):
    """Operations without a request body (a daily start, a share, a logout, a revoke)
    never read one, so DRF never parsed it: text or broken JSON started rounds."""
    client, _ = started
    operations = list(_body_operations())
    assert ("post", "/api/v1/daily/2026-11-20/rounds/") in operations
    assert ("delete", "/api/v1/friend/ABCDEFGH/") in operations
    before = (Round.objects.count(), ShareCode.objects.count(), AuthToken.objects.count())
    for method, path in operations:
        response = client.generic(method.upper(), path, body, content_type=content_type)
        assert_error(response, status, code)
    assert (Round.objects.count(), ShareCode.objects.count(), AuthToken.objects.count()) == before


def test_a_body_a_bodiless_operation_reads_nothing_of_is_no_error(started):
    client, _ = started
    for body in ("", "{}", '{"unknown": 1}'):
        started_again = client.generic(
            "POST", "/api/v1/daily/2026-11-20/rounds/", body, content_type="application/json"
        )
        assert started_again.status_code == 200, started_again.content[:200]


def test_a_get_body_is_never_read_so_never_refused(started, settings):
    client, state = started
    url = f"/api/v1/rounds/{state['id']}/"
    big = "x" * (settings.API_MAX_BODY_BYTES + 1)
    assert client.generic("GET", url, big, content_type="text/plain").status_code == 200
    assert client.get(url, HTTP_TRANSFER_ENCODING="chunked").status_code == 200


def test_a_page_past_the_end_is_invalid_page_on_every_list(started):
    client, _ = started
    assert_error(client.get("/api/v1/games/", {"page": 2}), 404, "invalid_page")


@pytest.mark.parametrize("url", ["/api/v1/games/", "/api/v1/leaderboards/best-day/"])
@pytest.mark.parametrize("page", ["1.0", " 1", "1 ", "+1", "1_0", "\u0661", "\u00b2", "0x1", "-1"])
def test_a_page_is_a_number_written_in_ascii_digits_on_every_list(started, url, page):
    client, _ = started
    assert client.get(url, {"page": "1"}).status_code == 200
    assert_error(client.get(url, {"page": page}), 400, "invalid_input")


@pytest.mark.parametrize(
    ("body", "content_type"),
    [
        ("hold=1&turn=0&roll=0", "application/x-www-form-urlencoded"),
        (
            "--b\r\nContent-Disposition: form-data; name=turn\r\n\r\n0\r\n--b--",
            "multipart/form-data; boundary=b",
        ),
        ("turn: 0", "text/plain"),
    ],
)
def test_bodies_that_are_not_json_are_415_and_change_nothing(started, body, content_type):
    client, state = started
    response = post_raw(client, f"/api/v1/rounds/{state['id']}/roll/", body, content_type)
    assert_error(response, 415, "unsupported_media_type")
    assert Round.objects.get(pk=state["id"]).actions == []


def test_throttled_answers_are_json_429_with_retry_after(settings):
    _rates(settings, login="1/minute")
    client = APIClient()
    bad_login(client)
    response = bad_login(client)
    assert_error(response, 429, "throttled")
    assert int(response["Retry-After"]) > 0


def test_an_unhandled_error_is_a_json_500_with_debug_on(settings, started, monkeypatch):
    from games import views

    def boom(**kwargs):
        raise RuntimeError("a bug")

    settings.DEBUG = True
    client, state = started
    monkeypatch.setattr(views.selectors, "round_get_for_player", boom)
    client.raise_request_exception = False
    response = client.get(f"/api/v1/rounds/{state['id']}/")
    assert_error(response, 500, "server_error")
    assert b"Traceback" not in response.content


def test_pages_outside_the_api_keep_their_html_errors(settings):
    settings.DEBUG = False
    response = APIClient().get("/no-such-page/")
    assert response.status_code == 404
    assert not response["Content-Type"].startswith("application/json")


# 6. Strict input --------------------------------------------------------------------


@pytest.mark.parametrize(
    "body",
    [
        {"hold": ["1"], "turn": 0, "roll": 1},
        {"hold": [1.0], "turn": 0, "roll": 1},
        {"hold": [True], "turn": 0, "roll": 1},
        {"hold": [], "turn": "0", "roll": 1},
        {"hold": [], "turn": 0, "roll": "1"},
        {"hold": [], "turn": False, "roll": 1},
    ],
)
def test_numbers_are_json_numbers(started, body):
    client, state = started
    client.post(
        f"/api/v1/rounds/{state['id']}/roll/", {"hold": [], "turn": 0, "roll": 0}, format="json"
    )
    before = Round.objects.get(pk=state["id"]).actions
    response = client.post(f"/api/v1/rounds/{state['id']}/roll/", body, format="json")
    assert_error(response, 400, "invalid_input")
    assert Round.objects.get(pk=state["id"]).actions == before


def test_a_box_is_a_json_string(started):
    client, state = started
    client.post(
        f"/api/v1/rounds/{state['id']}/roll/", {"hold": [], "turn": 0, "roll": 0}, format="json"
    )
    response = client.post(
        f"/api/v1/rounds/{state['id']}/score/", {"category": 7, "turn": 0}, format="json"
    )
    assert_error(response, 400, "invalid_input")


def register(username, display_name=None, client=None):
    body = {"username": username, "password": "a-long-enough-passphrase"}
    if display_name is not None:
        body["display_name"] = display_name
    return (client or APIClient()).post("/api/v1/accounts/register/", body, format="json")


def test_usernames_are_nfkc_normalised_and_unique_regardless_of_case():
    assert register("alice").status_code == 201
    for lookalike in ("\uff41\uff4c\uff49\uff43\uff45", "ALICE", "Alice"):
        assert_error(register(lookalike), 409, "username_taken")
    assert User.objects.count() == 1


def test_login_is_case_insensitive_and_nfkc_like_registration():
    register("Bob")
    for spelling in ("bob", "BOB", "\uff42\uff4f\uff42"):
        response = APIClient().post(
            "/api/v1/accounts/token/",
            {"username": spelling, "password": "a-long-enough-passphrase"},
            format="json",
        )
        assert response.status_code == 200, (spelling, response.json())


def test_display_names_lose_control_and_bidi_override_characters():
    response = register("carol", display_name="  car\u202eol\x07 \u2066x\u2069 ")
    assert response.status_code == 201
    assert response.json()["display_name"] == "carol x"
    token = response.json()["token"]
    client = APIClient()
    client.credentials(HTTP_AUTHORIZATION=f"Token {token}")
    patched = client.patch("/api/v1/accounts/me/", {"display_name": "\u202dEve\r\n"}, format="json")
    assert patched.json()["display_name"] == "Eve"


@pytest.mark.django_db(transaction=True)  # board jobs run on commit
def test_a_blank_display_name_on_register_shows_the_username(at_noon):
    response = register("dave", display_name="")
    assert response.status_code == 201
    assert response.json()["display_name"] == ""
    client = APIClient()
    client.credentials(HTTP_AUTHORIZATION=f"Token {response.json()['token']}")
    from tests.factories import play_round

    state = client.post("/api/v1/daily/2026-11-20/rounds/").json()
    play_round(client, state["id"])
    board = client.get("/api/v1/leaderboards/daily/2026-11-20/").json()
    assert board["results"][0]["display_name"] == "dave"


# 4. Expected races are not database errors --------------------------------------------


class FailedStatements:
    """Every statement the database refused, as Django sent it."""

    def __init__(self):
        self.failed = []

    def __call__(self, execute, sql, params, many, context):
        try:
            return execute(sql, params, many, context)
        except Exception:
            self.failed.append(sql)
            raise


def test_a_taken_username_and_a_repeated_start_send_no_failing_statement(at_noon):
    register("erin")
    _, client = make_player()
    watcher = FailedStatements()
    with connection.execute_wrapper(watcher):
        assert register("erin").status_code == 409
        assert register("ERIN").status_code == 409
        from daily import services

        services.challenge_get_or_create(day=dt.date(2026, 11, 20))
        client.post("/api/v1/daily/2026-11-20/rounds/")
        client.post("/api/v1/daily/2026-11-20/rounds/")
    assert watcher.failed == []


def test_a_lost_round_start_race_sends_no_failing_statement(at_noon):
    from daily.services import challenge_get_or_create
    from games import services

    user, _ = make_player()
    challenge = challenge_get_or_create(day=dt.date(2026, 11, 20))
    import yatzy

    first = services.round_create(
        player=user,
        challenge=challenge,
        ranked=True,
        ruleset=yatzy.get_ruleset("maxi"),
        seed=bytes(challenge.seed),
    )
    watcher = FailedStatements()
    with connection.execute_wrapper(watcher):
        # What a concurrent start that lost the unique constraint does.
        second = services.round_create(
            player=user,
            challenge=challenge,
            ranked=True,
            ruleset=yatzy.get_ruleset("maxi"),
            seed=bytes(challenge.seed),
        )
    assert first is not None and second is None
    assert watcher.failed == []
    assert Round.objects.filter(player=user).count() == 1


# 9. Expired reads as expired ----------------------------------------------------------


def test_an_unfinished_ranked_round_reads_expired_from_the_reveal(settings):
    settings.DAILY_GRACE = dt.timedelta(minutes=30)
    with time_machine.travel(NOON, tick=False):
        _, client = make_player()
        state = client.post("/api/v1/daily/2026-11-20/rounds/").json()
    reveal = dt.datetime(2026, 11, 21, 0, 30, tzinfo=dt.UTC)
    with time_machine.travel(reveal - dt.timedelta(seconds=1), tick=False):
        assert client.get(f"/api/v1/rounds/{state['id']}/").json()["status"] == "in_progress"
    with time_machine.travel(reveal, tick=False):
        view = client.get(f"/api/v1/rounds/{state['id']}/").json()
        day = client.get("/api/v1/daily/2026-11-20/").json()
    assert view["status"] == "expired"
    assert view["options"] == {} and view["rolls_left"] == 0
    assert view["seed"] is not None
    assert day["my_round"]["status"] == "expired"
    # Nothing wrote it: the read alone says so.
    assert Round.objects.get(pk=state["id"]).status == "in_progress"


def test_options_on_every_api_route_is_never_a_server_error():
    # Found by schemathesis: OPTIONS on a generic view without a serializer was a 500.
    from django.urls import URLPattern, URLResolver, get_resolver

    def routes(resolver=None, prefix=""):
        for entry in (resolver or get_resolver()).url_patterns:
            if isinstance(entry, URLResolver):
                yield from routes(entry, prefix + str(entry.pattern))
            elif isinstance(entry, URLPattern):
                yield prefix + str(entry.pattern)

    _, client = make_player()
    client.raise_request_exception = False
    checked = 0
    for route in routes():
        if not route.startswith("api/v1/"):
            continue
        url = "/" + (
            route.replace("<uuid:round_id>", "00000000-0000-0000-0000-000000000000")
            .replace("<uuid:party_id>", "00000000-0000-0000-0000-000000000000")
            .replace("<isodate:day>", "2026-11-20")
            .replace("<year:year>", "2026")
            .replace("<str:code>", "ZZZZZZZZ")
        )
        response = client.options(url)
        assert response.status_code < 500, (url, response.status_code, response.content[:200])
        assert response["Content-Type"].startswith("application/json")
        checked += 1
    assert checked > 20


@pytest.mark.parametrize(
    ("level", "shown"), [(3, '"3"'), (True, '"true"'), (2.5, '"2.5"'), ([1] * 500, '"array"')]
)
def test_a_choice_that_is_no_string_is_named_as_sent_never_by_its_python_type(level, shown):
    _, client = make_player()
    response = client.post("/api/v1/games/", {"mode": "computer", "level": level}, format="json")
    assert_error(response, 400, "invalid_input")
    assert response.json()["message"] == f"level: {shown} is not a valid choice."
