"""The boards over HTTP: competition ranks, pages, the caller's line, around-me, seasons."""

import base64
import datetime as dt

import pytest

from leaderboards.models import PendingBoardUpdate, Season
from leaderboards.selectors import AROUND_SIZE, Cursor
from tests.factories import make_player
from tests.leaderboards.conftest import board, names, noon, ranked, ranks, travel

pytestmark = pytest.mark.django_db(transaction=True)

DAY = dt.date(2026, 11, 10)


def test_equal_scores_share_a_rank_and_the_earlier_one_is_listed_first():
    a, client = make_player("ann")
    b, _ = make_player("bob")
    c, _ = make_player("cy")
    d, _ = make_player("dee")
    ranked(a, DAY, 300, minute=9)
    ranked(b, DAY, 250, minute=5)
    ranked(c, DAY, 250, minute=1)
    ranked(d, DAY, 200, minute=0)
    with travel(noon(DAY, 30)):
        body = board(client, f"daily/{DAY}/")
    assert names(body) == ["ann", "cy", "bob", "dee"]
    assert ranks(body) == [1, 2, 2, 4]
    assert [line["value"] for line in body["results"]] == [300, 250, 250, 200]
    assert body["count"] == 4 and body["next"] is None and body["previous"] is None
    assert body["me"]["rank"] == 1 and body["me"]["value"] == 300
    assert body["frozen"] is False


def test_a_line_shows_the_display_name_or_else_the_username():
    named, client = make_player("ann", display_name="Annie")
    plain, _ = make_player("bob")
    ranked(named, DAY, 300)
    ranked(plain, DAY, 200)
    with travel(noon(DAY, 30)):
        body = board(client, f"daily/{DAY}/")
    assert [(line["username"], line["display_name"]) for line in body["results"]] == [
        ("ann", "Annie"),
        ("bob", "bob"),
    ]
    assert body["me"]["display_name"] == "Annie"


def test_best_day_keeps_each_players_best_score_reached_first():
    a, client = make_player("ann")
    b, _ = make_player("bob")
    ranked(a, DAY, 280)
    ranked(a, DAY + dt.timedelta(days=1), 310)
    ranked(b, DAY, 310, minute=5)  # reached 310 a day before ann did
    ranked(b, DAY + dt.timedelta(days=1), 200)
    with travel(noon(DAY + dt.timedelta(days=1), 30)):
        body = board(client, "best-day/")
    assert names(body) == ["bob", "ann"]
    assert ranks(body) == [1, 1]
    assert body["me"] == body["results"][1]


def test_a_player_without_a_line_gets_an_empty_board_and_me_null():
    _, client = make_player()
    with travel(noon(DAY)):
        body = board(client, f"daily/{DAY}/")
    assert body == {
        "name": "Today's dice",
        "count": 0,
        "next": None,
        "previous": None,
        "results": [],
        "me": None,
        "frozen": False,
        "expert": None,
    }


def test_a_future_days_board_is_404_like_the_daily_itself():
    _, client = make_player()
    with travel(noon(DAY)):
        client.post(f"/api/v1/daily/{DAY}/rounds/")
        from daily.services import challenge_get_or_create

        challenge_get_or_create(day=DAY + dt.timedelta(days=1))  # the row exists already
        response = client.get(f"/api/v1/leaderboards/daily/{DAY + dt.timedelta(days=1)}/")
    assert response.status_code == 404
    assert response.json()["code"] == "no_challenge"


def test_pages_follow_the_board_order_with_links_and_bad_pages_are_refused(settings):
    settings.REST_FRAMEWORK = {**settings.REST_FRAMEWORK, "PAGE_SIZE": 2}
    players = [make_player(f"p{i}") for i in range(5)]
    for (user, _), (score, minute) in zip(
        players, [(500, 0), (400, 3), (400, 1), (400, 2), (100, 0)], strict=True
    ):
        ranked(user, DAY, score, minute=minute)
    client = players[4][1]
    with travel(noon(DAY, 30)):
        first = board(client, "best-day/")
        second = client.get(first["next"]).json()
        third = client.get(second["next"]).json()
        assert client.get(second["previous"]).json() == first
        past_end = client.get("/api/v1/leaderboards/best-day/", {"page": 4})
        not_a_number = client.get("/api/v1/leaderboards/best-day/", {"page": "x"})
        zero = client.get("/api/v1/leaderboards/best-day/", {"page": 0})
    assert [names(first), names(second), names(third)] == [["p0", "p2"], ["p3", "p1"], ["p4"]]
    assert [ranks(first), ranks(second), ranks(third)] == [[1, 2], [2, 2], [5]]
    assert first["count"] == 5 and first["previous"] is None and third["next"] is None
    assert first["me"] == {**third["results"][0]}
    assert past_end.status_code == 404 and past_end.json()["code"] == "invalid_page"
    assert not_a_number.status_code == 400 and not_a_number.json()["code"] == "invalid_input"
    assert zero.status_code == 400


def test_next_and_previous_links_read_by_cursor_and_agree_with_numbered_pages(settings):
    settings.REST_FRAMEWORK = {**settings.REST_FRAMEWORK, "PAGE_SIZE": 3}
    players = [make_player(f"p{i:02d}") for i in range(11)]
    for i, (user, _) in enumerate(players):
        # One big tie group with equal completion times, so pages split inside it.
        ranked(user, DAY, 200 if 1 <= i <= 8 else 100 + i, minute=i % 2)
    client = players[0][1]
    with travel(noon(DAY, 30)):
        numbered = [board(client, "best-day/", page=n) for n in range(1, 5)]
        forward = [board(client, "best-day/")]
        while forward[-1]["next"]:
            forward.append(client.get(forward[-1]["next"]).json())
        backward = [forward[-1]]
        while backward[-1]["previous"]:
            backward.append(client.get(backward[-1]["previous"]).json())
        forged = [
            client.get("/api/v1/leaderboards/best-day/", {"page": 2, "cursor": token})
            for token in (
                "x!",
                Cursor(True, 10**12, dt.datetime.now(dt.UTC), 1).encode(),
                # Moments no database column holds in UTC (they were a 500).
                _token("a|1|0001-01-01T00:00:00+00:01|1"),
                _token("b|1|9999-12-31T23:59:59-23:59|1"),
            )
        ]
        # After the last entry (a stale next link once the board shrank): no page there,
        # as for a number past the end (it was an empty page whose previous link was 404).
        past_end = client.get(
            "/api/v1/leaderboards/best-day/",
            {"page": 5, "cursor": Cursor(True, 0, dt.datetime.now(dt.UTC), 1).encode()},
        )
    assert "cursor=" in forward[1]["next"] and "cursor=" not in forward[1]["previous"]
    assert [names(b) for b in forward] == [names(b) for b in numbered]
    assert [names(b) for b in reversed(backward)] == [names(b) for b in numbered]
    assert [ranks(b) for b in forward] == [[1, 1, 1], [1, 1, 1], [1, 1, 9], [10, 11]]
    assert forward[-1]["next"] is None and backward[-1] == forward[0]
    assert [(r.status_code, r.json()["code"]) for r in forged] == [(400, "invalid_input")] * 4
    assert (past_end.status_code, past_end.json()["code"]) == (404, "invalid_page")


def _token(text):
    return base64.urlsafe_b64encode(text.encode()).decode().rstrip("=")


def _full_order(client, path):
    lines, url = [], f"/api/v1/leaderboards/{path}"
    while url:
        body = client.get(url).json()
        lines += body["results"]
        url = body["next"]
    return lines


@pytest.mark.parametrize("position", [0, 3, 20, 34, 39])
def test_around_me_is_the_window_of_the_full_board_centred_on_the_caller(position):
    players = [make_player(f"p{i:02d}") for i in range(40)]
    for i, (user, _) in enumerate(players):
        # Many ties, and ties on the exact completion time too (then player id decides).
        ranked(user, DAY, 100 + (i * 7) % 5 * 10, minute=(i * 3) % 4)
    with travel(noon(DAY, 30)):
        full = _full_order(players[0][1], f"daily/{DAY}/")
        me_name = full[position]["username"]
        me_client = next(c for u, c in players if u.username == me_name)
        body = board(me_client, f"daily/{DAY}/", around="me")
    half = (AROUND_SIZE - 1) // 2
    above = min(position, half)
    below = min(len(full) - 1 - position, AROUND_SIZE - 1 - above)
    above = min(position, AROUND_SIZE - 1 - below)
    assert body["results"] == full[position - above : position + below + 1]
    assert body["me"] == full[position]
    assert body["count"] == 40


def test_around_me_without_a_line_is_empty():
    other, _ = make_player()
    ranked(other, DAY, 100)
    _, client = make_player()
    with travel(noon(DAY, 30)):
        body = board(client, f"daily/{DAY}/", around="me")
    assert body["results"] == [] and body["me"] is None and body["count"] == 1


def test_season_boards_only_count_the_seasons_dates():
    season = Season.objects.create(
        name="Late autumn", slug="late-autumn", start_date=DAY, end_date=DAY + dt.timedelta(2)
    )
    a, client = make_player("ann")
    b, _ = make_player("bob")
    ranked(a, DAY - dt.timedelta(days=1), 600)  # before the season
    ranked(a, DAY, 200)
    ranked(b, DAY, 250)
    ranked(b, DAY + dt.timedelta(days=1), 150)
    with travel(noon(DAY + dt.timedelta(days=1), 30)):
        overall = board(client, "best-day/")
        seasonal = board(client, "best-day/", season=season.slug)
        streaks = board(client, "streaks/", season=season.slug)
        day_in = board(client, f"daily/{DAY}/", season=season.slug)
        day_out = client.get(
            f"/api/v1/leaderboards/daily/{DAY - dt.timedelta(1)}/", {"season": season.slug}
        )
        unknown = client.get("/api/v1/leaderboards/best-day/", {"season": "nope"})
        advent = client.get("/api/v1/leaderboards/advent/2026/", {"season": season.slug})
    assert [(x["username"], x["value"]) for x in overall["results"]] == [("ann", 600), ("bob", 250)]
    assert [(x["username"], x["value"]) for x in seasonal["results"]] == [
        ("bob", 250),
        ("ann", 200),
    ]
    assert [(x["username"], x["value"], x["current"]) for x in streaks["results"]] == [
        ("bob", 2, 2),
        ("ann", 1, 1),  # ann ended yesterday: still current
    ]
    assert names(day_in) == ["bob", "ann"]
    assert day_out.status_code == 404 and day_out.json()["code"] == "date_not_in_season"
    assert unknown.status_code == 404 and unknown.json()["code"] == "season_not_found"
    # A season without a day of the advent has no advent board (November's here).
    assert advent.status_code == 404 and advent.json()["code"] == "advent_not_in_season"


@pytest.mark.parametrize("season", ["9" * 19, "9" * 5000])
def test_a_season_that_is_no_id_is_not_found_on_the_api_and_the_pages(season):
    """Digits that are not an id (past 64 bits, past int()'s 4,300 digits) are a
    season slug like any other: 404, never a 500."""
    from rest_framework.test import APIClient

    _, client = make_player()
    for kind in ("best-day", "streaks"):
        api = client.get(f"/api/v1/leaderboards/{kind}/?season={season}")
        assert (api.status_code, api.json()["code"]) == (404, "season_not_found")
        page = APIClient().get(f"/boards/{kind}/?season={season}")
        assert page.status_code == 404
        assert "There is no season" in page.content.decode()


def test_boards_need_credentials():
    from rest_framework.test import APIClient

    assert APIClient().get("/api/v1/leaderboards/best-day/").status_code == 401


def test_a_round_played_through_the_api_is_on_the_boards_when_it_completes():
    from tests.factories import play_round

    _, client = make_player("live")
    with travel(noon(DAY)):
        state = client.post(f"/api/v1/daily/{DAY}/rounds/").json()
    with time_machine_ticking(noon(DAY, 1)):
        final = play_round(client, state["id"])
        daily = board(client, f"daily/{DAY}/")
        best = board(client, "best-day/")
        streak = board(client, "streaks/")
    assert daily["me"]["value"] == best["me"]["value"] == final["total"]
    assert daily["me"]["rank"] == 1
    assert streak["me"]["value"] == streak["me"]["current"] == 1
    assert not PendingBoardUpdate.objects.exists()  # the job ran and cleared what it owed


def time_machine_ticking(moment):
    import time_machine

    return time_machine.travel(moment, tick=True)
