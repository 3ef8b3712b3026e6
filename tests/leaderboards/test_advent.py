"""The advent calendar's doors and the advent board."""

import datetime as dt

import pytest

from daily.services import challenge_get_or_create
from games.skill import round_exclude, round_reinstate
from leaderboards import services
from leaderboards.models import Season
from tests.factories import make_player
from tests.leaderboards.conftest import board, names, noon, ranked, ranks, travel

pytestmark = pytest.mark.django_db(transaction=True)


def dec(n: int) -> dt.date:
    return dt.date(2026, 12, n)


def doors(client) -> dict:
    response = client.get("/api/v1/advent/2026/")
    assert response.status_code == 200, response.content
    return response.json()


def test_doors_are_locked_open_played_or_missed_with_score_and_rank():
    me, client = make_player("me")
    rival, _ = make_player("rival")
    ranked(rival, dec(1), 400)
    ranked(me, dec(1), 300)
    ranked(me, dec(3), 350)
    for n in range(1, 8):  # the beat job creates days ahead
        challenge_get_or_create(day=dec(n))
    with travel(noon(dec(5))):
        client.post(f"/api/v1/daily/{dec(2)}/rounds/")  # a replay of a past day: unranked
        body = doors(client)
    states = [door["state"] for door in body["doors"]]
    assert states == ["played", "missed", "played", "missed", "open"] + ["locked"] * 19
    assert body["doors"][0] | {"replay": None} == {
        "day": 1,
        "date": "2026-12-01",
        "state": "played",
        "score": 300,
        "rank": 2,
        "replay": None,
    }
    assert (body["doors"][2]["score"], body["doors"][2]["rank"]) == (350, 1)
    assert body["doors"][1]["score"] is None and body["doors"][4]["rank"] is None
    assert body["doors"][1]["replay"] == f"/api/v1/daily/{dec(2)}/rounds/"
    assert body["doors"][4]["replay"] is None and body["doors"][5]["replay"] is None
    assert (body["year"], body["theme"], body["total"]) == (2026, "christmas", 650)
    assert len(body["doors"]) == 24 and body["doors"][23]["date"] == "2026-12-24"


def test_a_door_stays_open_while_its_ranked_round_may_still_be_finished():
    _, client = make_player()
    with travel(dt.datetime(2026, 12, 5, 23, 50, tzinfo=dt.UTC)):
        client.post(f"/api/v1/daily/{dec(5)}/rounds/")
    with travel(dt.datetime(2026, 12, 6, 0, 10, tzinfo=dt.UTC)):
        grace = doors(client)["doors"]
    with travel(dt.datetime(2026, 12, 6, 0, 31, tzinfo=dt.UTC)):
        after = doors(client)["doors"]
    assert [d["state"] for d in grace[4:6]] == ["open", "open"]
    assert [d["state"] for d in after[4:6]] == ["missed", "open"]


def test_a_door_open_in_the_grace_period_offers_no_replay_until_its_round_is_over():
    # Its "replay" would resume the ranked round, not start a practice replay.
    _, client = make_player()
    with travel(dt.datetime(2026, 12, 5, 23, 50, tzinfo=dt.UTC)):
        ranked_id = client.post(f"/api/v1/daily/{dec(5)}/rounds/").json()["id"]
    with travel(dt.datetime(2026, 12, 6, 0, 10, tzinfo=dt.UTC)):
        grace = doors(client)["doors"][4]
    with travel(dt.datetime(2026, 12, 6, 0, 31, tzinfo=dt.UTC)):
        after = doors(client)["doors"][4]
        replay = client.post(after["replay"]).json()
    assert (grace["state"], grace["replay"]) == ("open", None)
    assert after["state"] == "missed"
    assert replay["id"] != ranked_id and replay["ranked"] is False


def test_the_door_of_an_excluded_round_is_missed_on_its_own_day_too():
    # docs/leaderboards.md: an excluded round is on no board and its door is missed. On
    # its own day the door said "open" (its "Open: play" starts a practice round: the
    # day's ranked round is spent) and reinstating it brings the door back.
    me, client = make_player("me")
    rnd = ranked(me, dec(5), 300)
    assert round_exclude(rnd=rnd)
    with travel(noon(dec(5), 30)):
        excluded = doors(client)
    assert round_reinstate(rnd=rnd)
    with travel(noon(dec(5), 30)):
        reinstated = doors(client)
    door = excluded["doors"][4]
    assert (door["state"], door["score"], door["rank"], door["replay"]) == (
        "missed",
        None,
        None,
        None,
    )
    assert (excluded["total"], excluded["rank"]) == (0, None)
    assert (reinstated["doors"][4]["state"], reinstated["doors"][4]["score"]) == ("played", 300)
    assert (reinstated["total"], reinstated["rank"]) == (300, 1)


def test_a_past_door_starts_an_unranked_replay():
    _, client = make_player()
    challenge_get_or_create(day=dec(1))
    with travel(noon(dec(3))):
        replay = doors(client)["doors"][0]["replay"]
        response = client.post(replay)
    assert response.status_code == 201
    assert response.json()["ranked"] is False and response.json()["theme"] == "christmas"


def test_the_advent_board_sums_december_1_to_24_only():
    a, client = make_player("ann")
    b, _ = make_player("bob")
    ranked(a, dt.date(2026, 11, 30), 600)
    ranked(a, dec(1), 300)
    ranked(a, dec(2), 300)
    ranked(b, dec(2), 600)
    ranked(b, dec(25), 600)
    with travel(noon(dec(26))):
        body = board(client, "advent/2026/")
        calendar = doors(client)
    assert names(body) == ["ann", "bob"]  # 600 each; ann reached it first (same minute, id)
    assert [line["value"] for line in body["results"]] == [600, 600]
    assert ranks(body) == [1, 1]
    assert calendar["total"] == 600 and calendar["rank"] == 1


def test_a_seasons_advent_board_sums_the_advent_days_inside_the_season():
    # SPEC §8 and §10: the advent board has ?season= like every board.
    season = Season.objects.create(
        name="Early advent", slug="early", start_date=dec(2), end_date=dec(10)
    )
    autumn = Season.objects.create(
        name="Autumn", slug="autumn", start_date=dt.date(2026, 9, 1), end_date=dt.date(2026, 11, 30)
    )
    a, client = make_player("ann")
    b, _ = make_player("bob")
    ranked(a, dec(1), 500)  # in the advent, before the season
    ranked(a, dec(2), 200)
    ranked(a, dec(3), 100)
    ranked(b, dec(4), 250)
    ranked(b, dec(11), 600)  # in the advent, after the season
    with travel(noon(dec(12))):
        whole = board(client, "advent/2026/")
        early = board(client, "advent/2026/", season=season.slug)
        outside = client.get("/api/v1/leaderboards/advent/2026/", {"season": autumn.slug})
        next_year = client.get("/api/v1/leaderboards/advent/2027/", {"season": season.slug})
    assert [(x["username"], x["value"]) for x in whole["results"]] == [("bob", 850), ("ann", 800)]
    assert [(x["username"], x["value"]) for x in early["results"]] == [("ann", 300), ("bob", 250)]
    assert early["me"]["rank"] == 1
    for answer in (outside, next_year):
        assert answer.status_code == 404 and answer.json()["code"] == "advent_not_in_season"

    # The season moved (the admin's save rebuilds its boards): its advent follows it.
    Season.objects.filter(pk=season.pk).update(start_date=dec(1), end_date=dec(3))
    services.season_boards_rebuild(season_id=season.pk)
    with travel(noon(dec(12))):
        moved = board(client, "advent/2026/", season=season.slug)
    assert [(x["username"], x["value"]) for x in moved["results"]] == [("ann", 800)]


def test_a_bad_year_is_404():
    _, client = make_player()
    assert client.get("/api/v1/advent/0000/").status_code == 404
    assert client.get("/api/v1/leaderboards/advent/26/").status_code == 404
