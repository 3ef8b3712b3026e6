"""Friend fairness (issue #22, 3; SPEC §7): a seed is shown to a player only when they
have no unfinished round on it, whichever code led to it; a shared daily shows no
sharer's dice before its reveal; revoking keeps the comparison of who played."""

import datetime as dt
import json

import pytest
import time_machine

import yatzy
from games.models import Round
from tests.factories import make_player, play_round
from tests.games.conftest import new_game, play_worst_boxes, roll

pytestmark = pytest.mark.django_db

NOON = dt.datetime(2026, 11, 20, 12, tzinfo=dt.UTC)


def share(client, state):
    return client.post(f"/api/v1/rounds/{state['id']}/share/").json()["code"]


def start(client, code, view="blind"):
    return client.post(f"/api/v1/friend/{code}/rounds/", {"view": view}, format="json")


def test_the_second_account_attack_gets_no_second_round_on_the_same_dice():
    """A plays code X and stops after a roll; accomplice C plays X to the end and
    shares its own round as code Y (the same seed); A starts Y to finish it quickly
    and read the seed. Y is refused while A's round on those dice is unfinished."""
    _, sharer = make_player()
    x = share(sharer, play_worst_boxes(sharer, new_game(sharer, mode="solo", ruleset="yatzy")))
    me, player = make_player()
    first = roll(player, start(player, x).json())
    _, accomplice = make_player()
    accomplice_round = play_worst_boxes(accomplice, start(accomplice, x).json())
    y = share(accomplice, accomplice_round)
    seed = bytes(Round.objects.get(pk=first["id"]).seed).hex()

    refused = start(player, y)
    assert refused.status_code == 409, refused.json()
    assert refused.json()["code"] == "same_dice_unfinished"
    assert refused.json()["current"]["id"] == first["id"]  # the round to finish first
    assert seed not in json.dumps(refused.json())
    assert Round.objects.filter(player=me).count() == 1
    assert player.get(f"/api/v1/friend/{y}/").json()["my_round"] is None

    # Once A's round is over, Y is A's to play like any code.
    done = play_worst_boxes(player, first)
    assert done["seed"] == seed
    assert start(player, y).status_code == 201


def _finished_on_one_of_two_codes():
    """Code X (a solo round) and code Y (a friend's round of X, so the same seed), and a
    player who has finished their round of X: ``(x, y, player, finished)``."""
    _, sharer = make_player()
    x = share(sharer, play_worst_boxes(sharer, new_game(sharer, mode="solo", ruleset="yatzy")))
    _, accomplice = make_player()
    y = share(accomplice, play_worst_boxes(accomplice, start(accomplice, x).json()))
    _, player = make_player()
    finished = play_worst_boxes(player, start(player, x).json())
    return x, y, player, finished


def test_a_finished_round_hides_its_seed_while_another_round_on_it_is_unfinished():
    _, y, player, finished = _finished_on_one_of_two_codes()
    assert finished["seed"] is not None
    again = start(player, y).json()  # allowed: nothing unfinished on these dice
    shown = player.get(f"/api/v1/rounds/{finished['id']}/").json()
    assert shown["seed"] is None and shown["commitment"] == finished["commitment"]
    seed = finished["seed"]
    for body in (again, player.get("/api/v1/games/").json(), shown):
        assert seed not in json.dumps(body)
    play_worst_boxes(player, again)
    assert player.get(f"/api/v1/rounds/{finished['id']}/").json()["seed"] == seed


def _dice_of(turns):
    return [turn["dice"] for turn in turns]


def test_while_a_round_on_the_same_dice_is_unfinished_no_view_tells_its_dice(yatzy_table):
    """The player finished code X, then started code Y on the same seed: until Y is
    over, X's side-by-side view shows boxes and points without dice (the sharer's and
    their own), and the finished round's analysis (every decision's dice and the best
    move) is refused like a hint: both would tell Y's dice to come and how to play
    them."""
    x, y, player, finished = _finished_on_one_of_two_codes()
    analysis = f"/api/v1/rounds/{finished['id']}/analysis/"
    before = player.get(f"/api/v1/friend/{x}/").json()
    assert all(len(dice) == 5 for dice in _dice_of(before["sharer_round"]["turns"]))
    assert player.get(analysis).status_code == 200

    again = roll(player, start(player, y).json())
    view = player.get(f"/api/v1/friend/{x}/").json()
    for side in ("my_round", "sharer_round"):
        turns = view[side]["turns"]
        assert _dice_of(turns) == [[]] * len(turns)
        assert turns == [{**turn, "dice": []} for turn in before[side]["turns"]]
    refused = player.get(analysis)
    assert (refused.status_code, refused.json()["code"]) == (403, "hint_unavailable")

    play_worst_boxes(player, again)
    assert player.get(f"/api/v1/friend/{x}/").json() == before
    assert player.get(analysis).status_code == 200


def test_a_finished_computer_game_shows_no_computer_dice_while_a_round_on_its_seed_is_unfinished():
    """The player's finished computer game was shared as code X, a friend's round of X
    as code Y (the same seed), and the player started Y: until Y is over, the computer's
    turns keep their boxes and points without its rolls and holds. Where the computer
    rerolled more dice than the player did, they are dice the player never saw, and
    exactly the ones Y gives on those holds."""
    _, player = make_player()
    started = new_game(player, mode="computer", ruleset="yatzy", level="easy")
    game = play_worst_boxes(player, started)
    before = game["opponent"]["turns"]
    assert any(turn["holds"] for turn in before)  # the easy computer rerolls
    _, friend = make_player()
    y = share(friend, play_worst_boxes(friend, start(friend, share(player, game)).json()))
    again = roll(player, start(player, y).json())

    shown = player.get(f"/api/v1/rounds/{game['id']}/").json()
    assert shown["seed"] is None
    assert shown["opponent"]["turns"] == [{**turn, "rolls": [], "holds": []} for turn in before]
    assert shown["opponent"]["total"] == game["opponent"]["total"]

    play_worst_boxes(player, again)
    assert player.get(f"/api/v1/rounds/{game['id']}/").json()["opponent"]["turns"] == before


@pytest.mark.django_db(transaction=True)  # board jobs run on commit
def test_before_the_reveal_a_shared_daily_shows_boxes_and_points_not_the_sharers_dice():
    with time_machine.travel(NOON, tick=False):
        _, sharer = make_player()
        ranked = sharer.post("/api/v1/daily/2026-11-20/rounds/").json()
        done = play_round(sharer, ranked["id"])
        code = share(sharer, done)
        _, friend = make_player()
        mine = play_round(friend, start(friend, code).json()["id"])
        view = friend.get(f"/api/v1/friend/{code}/").json()
    theirs = view["sharer_round"]
    assert theirs["total"] == done["total"]
    assert [turn["category"] for turn in theirs["turns"]] == [
        action["category"] for action in done["actions"] if action["type"] == "score"
    ]
    assert sum(turn["points"] for turn in theirs["turns"]) + done["bonus"] == done["total"]
    assert _dice_of(theirs["turns"]) == [[]] * len(theirs["turns"])
    assert all(len(dice) == 6 for dice in _dice_of(view["my_round"]["turns"]))  # their own
    assert view["my_round"]["total"] == mine["total"]
    # From the reveal on, the dice are there for both.
    with time_machine.travel(NOON + dt.timedelta(days=1), tick=False):
        later = friend.get(f"/api/v1/friend/{code}/").json()["sharer_round"]["turns"]
    game = yatzy.Game.replay(
        yatzy.get_ruleset("maxi"), bytes(Round.objects.get(pk=ranked["id"]).seed), done["actions"]
    )
    assert all(len(dice) == 6 for dice in _dice_of(later))
    assert sum(turn["points"] for turn in later) + game.bonus == game.total


def test_a_revoked_code_keeps_the_comparison_for_the_friends_who_played_it():
    _, sharer = make_player()
    shared = play_worst_boxes(sharer, new_game(sharer, mode="solo", ruleset="yatzy"))
    code = share(sharer, shared)
    _, friend = make_player()
    play_worst_boxes(friend, start(friend, code).json())
    before = friend.get(f"/api/v1/friend/{code}/").json()
    assert sharer.delete(f"/api/v1/friend/{code}/").status_code == 204
    after = friend.get(f"/api/v1/friend/{code}/")
    assert after.status_code == 200
    assert after.json() == before
    assert after.json()["sharer_round"]["total"] == shared["total"]
    _, stranger = make_player()
    assert stranger.get(f"/api/v1/friend/{code}/").json()["code"] == "share_not_found"
    assert start(friend, code).status_code == 404  # and no new round
