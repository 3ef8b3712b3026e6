"""Friend challenges through the API: share codes, the friend's view and round on the
same dice, blind and target views, shared dailies, revoking, and guessing."""

import datetime as dt
import json

import pytest
import time_machine

from games.models import Round, ShareCode
from tests.factories import make_player, play_round
from tests.games.conftest import new_game, play_worst_boxes, roll, score

pytestmark = pytest.mark.django_db

NOON = dt.datetime(2026, 11, 20, 12, tzinfo=dt.UTC)


def share(client, state):
    response = client.post(f"/api/v1/rounds/{state['id']}/share/")
    assert response.status_code == 200, response.json()
    return response.json()


def start(client, code, view="blind"):
    return client.post(f"/api/v1/friend/{code}/rounds/", {"view": view}, format="json")


def finished_solo(client, ruleset="yatzy"):
    return play_worst_boxes(client, new_game(client, mode="solo", ruleset=ruleset))


def test_sharing_a_finished_round_gives_one_code_and_a_link():
    _, sharer = make_player()
    state = finished_solo(sharer)
    first = share(sharer, state)
    assert len(first["code"]) == 8 and set(first["code"]) <= set("0123456789ABCDEFGHJKMNPQRSTVWXYZ")
    assert first["url"].endswith(f"/f/{first['code']}")
    assert share(sharer, state) == first
    assert ShareCode.objects.count() == 1


def test_an_unfinished_or_another_players_round_cannot_be_shared():
    _, sharer = make_player()
    _, other = make_player()
    running = new_game(sharer, mode="solo", ruleset="yatzy")
    response = sharer.post(f"/api/v1/rounds/{running['id']}/share/")
    assert response.status_code == 400 and response.json()["code"] == "round_not_finished"
    done = finished_solo(sharer)
    assert other.post(f"/api/v1/rounds/{done['id']}/share/").status_code == 404


def test_codes_are_read_in_any_case_with_crockfords_lookalikes():
    _, sharer = make_player()
    code = share(sharer, finished_solo(sharer))["code"]
    _, friend = make_player()
    typed = code.lower().replace("0", "o").replace("1", "l")
    typed = f"{typed[:4]}-{typed[4:]}"
    response = friend.get(f"/api/v1/friend/{typed}/")
    assert response.status_code == 200 and response.json()["code"] == code


def test_a_friend_mirroring_the_sharers_holds_gets_the_sharers_dice_and_total():
    _, sharer = make_player(display_name="Sharon")
    played = new_game(sharer, mode="solo", ruleset="yatzy")
    while played["status"] == "in_progress":
        played = roll(sharer, played)
        if played["rolls_left"]:
            played = roll(sharer, played, [0, 1])
        played = score(sharer, played, max(played["options"], key=played["options"].get))
    code = share(sharer, played)["code"]

    _, friend = make_player()
    view = friend.get(f"/api/v1/friend/{code}/").json()
    assert (view["sharer"], view["ruleset"], view["mode"]) == ("Sharon", "yatzy", "solo")
    assert view["options"] == played["rules"] and view["my_round"] is None
    started = start(friend, code)
    assert started.status_code == 201
    state = started.json()
    assert (state["mode"], state["share"], state["commitment"]) == (
        "friend",
        code,
        played["commitment"],
    )
    assert state["seed"] is None  # the friend's own round is not over
    # The same actions give the same dice, turn by turn, and the same total.
    for action in played["actions"]:
        if action["type"] == "roll":
            state = roll(friend, state, action["hold"])
        else:
            state = score(friend, state, action["category"])
    assert state["total"] == played["total"]
    assert state["actions"] == played["actions"]


def test_blind_hides_the_target_until_the_friend_finishes_and_target_shows_it():
    _, sharer = make_player()
    shared = finished_solo(sharer)
    code = share(sharer, shared)["code"]
    _, blind = make_player()
    _, aiming = make_player()
    blind_round = start(blind, code, "blind").json()
    assert blind.get(f"/api/v1/friend/{code}/").json()["target"] is None
    start(aiming, code, "target")
    aimed = aiming.get(f"/api/v1/friend/{code}/").json()
    assert (aimed["view"], aimed["target"]) == ("target", shared["total"])
    assert aimed["sharer_round"] is None

    final = play_worst_boxes(blind, blind_round)
    after = blind.get(f"/api/v1/friend/{code}/").json()
    assert after["target"] == shared["total"]
    assert after["my_round"]["total"] == final["total"]
    # Both finished: both scorecards, turn by turn.
    assert after["sharer_round"]["total"] == shared["total"]
    assert after["sharer_round"]["scorecard"] == shared["scorecard"]
    assert len(after["sharer_round"]["turns"]) == len(after["my_round"]["turns"]) == 15
    assert sum(t["points"] for t in after["my_round"]["turns"]) + final["bonus"] == final["total"]


def test_one_unfinished_friend_round_per_code_a_second_start_returns_it():
    _, sharer = make_player()
    code = share(sharer, finished_solo(sharer))["code"]
    _, friend = make_player()
    first = start(friend, code)
    again = start(friend, code, "target")
    assert (first.status_code, again.status_code) == (201, 200)
    assert again.json()["id"] == first.json()["id"]
    assert Round.objects.filter(share__code=code).count() == 1


def test_a_new_friend_round_counts_to_the_unfinished_games_quota(monkeypatch):
    from games import services

    monkeypatch.setattr(services, "MAX_UNFINISHED_GAMES", 2)
    _, sharer = make_player()
    first, second = (share(sharer, finished_solo(sharer))["code"] for _ in range(2))
    friend_user, friend = make_player()
    assert start(friend, first).status_code == 201
    new_game(friend, mode="solo", ruleset="yatzy")
    refused = start(friend, second)
    assert refused.status_code == 400 and refused.json()["code"] == "too_many_unfinished_games"
    assert not Round.objects.filter(player=friend_user, share__code=second).exists()
    # The round already started on a code is still returned at the quota.
    assert start(friend, first).status_code == 200


def test_the_sharer_sees_who_played_and_their_scores():
    _, sharer = make_player()
    shared = finished_solo(sharer)
    code = share(sharer, shared)["code"]
    _, friend = make_player(display_name="Fran")
    play_worst_boxes(friend, start(friend, code, "target").json())
    plays = sharer.get(f"/api/v1/rounds/{shared['id']}/share/").json()
    assert plays["code"] == code
    assert [(p["display_name"], p["view"], p["status"]) for p in plays["plays"]] == [
        ("Fran", "target", "completed")
    ]
    assert plays["plays"][0]["total"] is not None


def test_a_friend_round_has_no_hint_until_it_is_over():
    _, sharer = make_player()
    code = share(sharer, finished_solo(sharer))["code"]
    _, friend = make_player()
    state = start(friend, code).json()
    refused = friend.get(f"/api/v1/rounds/{state['id']}/hint/")
    assert refused.status_code == 403 and refused.json()["code"] == "hint_unavailable"


def test_playing_your_own_code_is_refused():
    _, sharer = make_player()
    code = share(sharer, finished_solo(sharer))["code"]
    response = start(sharer, code)
    assert response.status_code == 400 and response.json()["code"] == "own_share"


@pytest.mark.django_db(transaction=True)  # board jobs run on commit
def test_a_shared_daily_is_the_friends_ranked_daily_while_the_day_is_open():
    with time_machine.travel(NOON, tick=False):
        _, sharer = make_player()
        ranked = sharer.post("/api/v1/daily/2026-11-20/rounds/").json()
        done = play_round(sharer, ranked["id"])
        code = share(sharer, done)["code"]
        _, friend = make_player()
        view = friend.get(f"/api/v1/friend/{code}/")
        state = start(friend, code).json()
        assert (state["mode"], state["ranked"], state["date"]) == ("daily", True, "2026-11-20")
        assert state["share"] == code
        final = play_round(friend, state["id"])
        after = friend.get(f"/api/v1/friend/{code}/").json()
        seed = bytes(Round.objects.get(pk=ranked["id"]).seed).hex()
        # No answer carries the day's seed before its reveal.
        for body in (view.json(), state, final, after):
            assert seed not in json.dumps(body)
        assert final["seed"] is None
        board = friend.get("/api/v1/leaderboards/daily/2026-11-20/").json()
    assert after["sharer_round"]["total"] == done["total"]
    assert board["me"]["value"] == final["total"]  # it counts as the friend's day


def test_a_second_code_on_the_daily_while_the_first_codes_round_is_unfinished_is_409():
    """README: while you have an unfinished round on some dice, a second code on the
    same dice is 409 ``same_dice_unfinished`` with that round in ``current``. Two codes
    of one day's daily are the same dice: the second answered 200 with the first code's
    round, so the player played it as the second code's and its comparison never
    showed there (``my_round`` null, and afterwards only a practice replay)."""
    with time_machine.travel(NOON, tick=False):
        codes = []
        for _ in range(2):
            _, sharer = make_player()
            ranked = sharer.post("/api/v1/daily/2026-11-20/rounds/").json()
            codes.append(share(sharer, play_round(sharer, ranked["id"]))["code"])
        first, second = codes
        _, friend = make_player()
        mine = roll(friend, start(friend, first, view="target").json())
        refused = start(friend, second)
        assert refused.status_code == 409, refused.json()
        assert refused.json()["code"] == "same_dice_unfinished"
        assert refused.json()["current"]["id"] == mine["id"]
        assert refused.json()["current"]["share"] == first
        assert Round.objects.get(pk=mine["id"]).view == "target"  # unchanged
        # The second code's page says its round will be practice: it comes after this one.
        counts = [friend.get(f"/api/v1/friend/{code}/").json()["counts"] for code in codes]
        assert counts == ["ranked", "practice"]
        assert start(friend, first).status_code == 200  # its own code resumes it
        # A daily round started without a code is the first code's to take.
        _, other = make_player()
        own = other.post("/api/v1/daily/2026-11-20/rounds/").json()
        assert other.get(f"/api/v1/friend/{second}/").json()["counts"] == "ranked"
        taken = start(other, second)
        assert taken.status_code == 200 and taken.json()["id"] == own["id"]
        assert taken.json()["share"] == second
        # Once the first code's round is over, the second starts a practice round.
        play_round(friend, mine["id"])
        replay = start(friend, second).json()
        assert (replay["ranked"], replay["share"]) == (False, second)


def test_after_its_day_a_shared_daily_is_an_unranked_replay():
    with time_machine.travel(NOON, tick=False):
        _, sharer = make_player()
        ranked = sharer.post("/api/v1/daily/2026-11-20/rounds/").json()
        code = share(sharer, play_round(sharer, ranked["id"]))["code"]
    with time_machine.travel(NOON + dt.timedelta(days=1), tick=False):
        _, friend = make_player()
        state = start(friend, code).json()
    assert (state["mode"], state["ranked"], state["date"]) == ("daily", False, "2026-11-20")


def test_a_revoked_code_starts_nothing_and_is_404_to_all_but_who_played_it():
    _, sharer = make_player()
    code = share(sharer, finished_solo(sharer))["code"]
    _, friend = make_player()
    _, stranger = make_player()
    started = start(friend, code).json()
    assert friend.delete(f"/api/v1/friend/{code}/").status_code == 404
    assert sharer.delete(f"/api/v1/friend/{code}/").status_code == 204
    for client in (stranger, sharer):
        gone = client.get(f"/api/v1/friend/{code}/")
        assert gone.status_code == 404 and gone.json()["code"] == "share_not_found"
    for client in (friend, stranger, sharer):
        assert start(client, code).status_code == 404
    assert friend.get(f"/api/v1/friend/{code}/").json()["my_round"]["id"] == started["id"]
    # A retried revoke (its answer lost) is done already: 204 to the sharer, who knows
    # the code; to anyone else the code stays 404.
    revoked_at = ShareCode.objects.get(code=code).revoked_at
    assert sharer.delete(f"/api/v1/friend/{code.lower()}/").status_code == 204
    assert ShareCode.objects.get(code=code).revoked_at == revoked_at
    for client in (friend, stranger):
        again = client.delete(f"/api/v1/friend/{code}/")
        assert again.status_code == 404 and again.json()["code"] == "share_not_found"
    # A round already started stays playable.
    assert roll(friend, started)["roll"] == 1


@pytest.mark.parametrize("code", ["ZZZZZZZZ", "UUUUUUUU", "short", "x" * 40])
def test_unknown_and_malformed_codes_are_404_never_403(code):
    _, friend = make_player()
    for response in (friend.get(f"/api/v1/friend/{code}/"), start(friend, code)):
        assert response.status_code == 404 and response.json()["code"] == "share_not_found"


def test_a_guessing_burst_is_throttled(settings):
    settings.REST_FRAMEWORK = {
        **settings.REST_FRAMEWORK,
        "DEFAULT_THROTTLE_RATES": {
            **settings.REST_FRAMEWORK["DEFAULT_THROTTLE_RATES"],
            "friend": "5/minute",
        },
    }
    _, guesser = make_player()
    statuses = [guesser.get(f"/api/v1/friend/AAAAAAA{i}/").status_code for i in range(8)]
    assert statuses == [404] * 5 + [429] * 3
    starts = start(guesser, "BBBBBBBB")
    assert starts.status_code == 429 and "Retry-After" in starts


def test_each_round_of_a_comparison_carries_its_own_die_skin(client):
    """SPEC §6: a round started in December carries the Christmas skin, also side by
    side on the friend page: the sharer's November round keeps the classic one."""
    with time_machine.travel(NOON, tick=False):  # November
        _, sharer = make_player()
        code = share(sharer, finished_solo(sharer))["code"]
    with time_machine.travel(dt.datetime(2026, 12, 5, 12, tzinfo=dt.UTC), tick=False):
        friend_user, friend = make_player()
        play_worst_boxes(friend, start(friend, code).json())
        view = friend.get(f"/api/v1/friend/{code}/").json()
        client.force_login(friend_user)
        page = client.get(f"/f/{code}").content.decode()
    assert (view["my_round"]["theme"], view["sharer_round"]["theme"]) == ("christmas", "classic")
    first_turn = page.split('data-compare-turn="1"')[1].split("</tr>")[0]
    assert first_turn.index('class="theme-christmas"') < first_turn.index('class="theme-classic"')
