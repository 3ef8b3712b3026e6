"""Party games through the API: seats in strict order, each on its own dice, 409 out of
turn with the party's state, standings with shared ranks, and racing actions."""

import pytest
from rest_framework.test import APIClient

from accounts.services import user_token_create
from games.models import Party, Round
from tests.daily.test_concurrency import PARALLEL, in_threads
from tests.factories import make_player

pytestmark = pytest.mark.django_db


def new_party(client, names, **body):
    response = client.post(
        "/api/v1/games/", {"mode": "party", "seats": names, **body}, format="json"
    )
    assert response.status_code == 201, response.json()
    return response.json()


def party_post(client, party, action, **body):
    return client.post(f"/api/v1/parties/{party['id']}/{action}/", body, format="json")


def seat_round(party, seat):
    return party["seats"][seat]["round"]


def take_turn(client, party, *, box=None):
    """The current seat rolls once and fills the box (default: its best)."""
    seat = party["current_seat"]
    state = seat_round(party, seat)
    party = party_post(client, party, "roll", seat=seat, turn=state["turn"], roll=0, hold=[]).json()
    state = seat_round(party, seat)
    category = box or max(state["options"], key=state["options"].get)
    response = party_post(client, party, "score", seat=seat, turn=state["turn"], category=category)
    assert response.status_code == 200, response.json()
    return response.json()


def test_a_party_has_named_seats_each_on_its_own_dice():
    _, client = make_player()
    party = new_party(client, [" Ann ", "Bo", "Cy"], ruleset="yatzy")
    assert (party["mode"], party["ruleset"], party["status"]) == ("party", "yatzy", "in_progress")
    assert party["current_seat"] == 0
    assert [seat["name"] for seat in party["seats"]] == ["Ann", "Bo", "Cy"]
    rounds = [seat["round"] for seat in party["seats"]]
    assert len({r["commitment"] for r in rounds}) == 3  # three seeds
    assert all(r["mode"] == "party" and r["party"] == party["id"] for r in rounds)
    assert [r["seat"] for r in rounds] == [0, 1, 2]
    assert party["standings"] == [
        {"seat": i, "name": name, "total": 0, "rank": 1}
        for i, name in enumerate(["Ann", "Bo", "Cy"])
    ]
    assert client.get(f"/api/v1/parties/{party['id']}/").json()["seats"] == party["seats"]


def test_seats_take_turns_strictly_in_order_until_every_seat_is_done():
    _, client = make_player()
    party = new_party(client, ["Ann", "Bo"], ruleset="yatzy")
    order = []
    while party["status"] == "in_progress":
        order.append((party["current_seat"], seat_round(party, party["current_seat"])["turn"]))
        party = take_turn(client, party)
    assert order == [(seat, turn) for turn in range(15) for seat in (0, 1)]
    assert party["current_seat"] is None
    assert all(seat["round"]["status"] == "completed" for seat in party["seats"])
    totals = sorted((seat["round"]["total"] for seat in party["seats"]), reverse=True)
    assert [line["total"] for line in party["standings"]] == totals
    assert Party.objects.get(pk=party["id"]).status == "completed"


def test_acting_for_another_seat_is_409_with_the_party_and_changes_nothing():
    _, client = make_player()
    party = new_party(client, ["Ann", "Bo"], ruleset="yahtzee")
    response = party_post(client, party, "roll", seat=1, turn=0, roll=0, hold=[])
    assert response.status_code == 409
    assert response.json()["code"] == "stale_state"
    assert response.json()["current"]["current_seat"] == 0
    # Through the round's own endpoint too: it is not Bo's turn.
    bo = seat_round(party, 1)
    direct = client.post(
        f"/api/v1/rounds/{bo['id']}/roll/", {"hold": [], "turn": 0, "roll": 0}, format="json"
    )
    assert direct.status_code == 409 and direct.json()["current"]["id"] == party["id"]
    assert Round.objects.get(pk=bo["id"]).actions == []
    party = take_turn(client, party)
    assert party["current_seat"] == 1
    stale = party_post(client, party, "score", seat=0, turn=1, category="chance")
    assert stale.status_code == 409


def test_a_seat_score_with_the_roll_it_saw_is_409_after_a_reroll_and_changes_nothing():
    _, client = make_player()
    party = new_party(client, ["Ann", "Bo"], ruleset="yatzy")
    party = party_post(client, party, "roll", seat=0, turn=0, roll=0, hold=[]).json()
    party = party_post(client, party, "roll", seat=0, turn=0, roll=1, hold=[]).json()
    stale = party_post(client, party, "score", seat=0, turn=0, roll=1, category="chance")
    assert (stale.status_code, stale.json()["code"]) == (409, "stale_state")
    assert seat_round(stale.json()["current"], 0)["scorecard"]["chance"] is None
    fresh = party_post(client, party, "score", seat=0, turn=0, roll=2, category="chance")
    assert fresh.status_code == 200 and fresh.json()["current_seat"] == 1


def test_equal_totals_share_a_rank(monkeypatch):
    # Every seat gets the same dice (the engine's one source of dice, scripted to ignore
    # the seed); Ann and Cy play alike and tie, Bo fills the worst boxes.
    import yatzy.game

    real_draw = yatzy.game.draw
    monkeypatch.setattr(
        yatzy.game, "draw", lambda seed, turn, roll, count: real_draw(bytes(32), turn, roll, count)
    )
    _, client = make_player()
    party = new_party(client, ["Ann", "Bo", "Cy"], ruleset="yatzy")
    while party["status"] == "in_progress":
        seat = party["current_seat"]
        if seat == 1:
            rolled = party_post(
                client, party, "roll", seat=1, turn=seat_round(party, 1)["turn"], roll=0, hold=[]
            ).json()
            options = seat_round(rolled, 1)["options"]
            party = take_turn_scored(client, rolled, 1, min(options, key=options.get))
        else:
            party = take_turn(client, party)
    ranks = {line["name"]: line["rank"] for line in party["standings"]}
    totals = {line["name"]: line["total"] for line in party["standings"]}
    assert totals["Ann"] == totals["Cy"] > totals["Bo"]
    assert ranks == {"Ann": 1, "Cy": 1, "Bo": 3}
    assert [line["name"] for line in party["standings"]] == ["Ann", "Cy", "Bo"]


def take_turn_scored(client, party, seat, category):
    state = seat_round(party, seat)
    response = party_post(client, party, "score", seat=seat, turn=state["turn"], category=category)
    assert response.status_code == 200, response.json()
    return response.json()


@pytest.mark.parametrize(
    ("names", "reason"),
    [
        (["Ann"], "2 to 4 seats"),
        (["A", "B", "C", "D", "E"], "2 to 4 seats"),
        (["Ann", "  "], "1 to 30 characters"),
        (["Ann", "x" * 31], "1 to 30 characters"),
        (["Ann", " ann "], "a name of its own"),
        # Something typed, nothing visible: said as such, not as a name too short.
        (["Ann", "\u200b"], "at least one visible character"),
        (["Ann", "\u3164"], "at least one visible character"),
        (["Ann", "\u0301"], "at least one visible character"),
    ],
)
def test_bad_seats_are_400_invalid_seats_and_create_nothing(names, reason):
    _, client = make_player()
    response = client.post("/api/v1/games/", {"mode": "party", "seats": names}, format="json")
    assert response.status_code == 400
    assert response.json()["code"] == "invalid_seats"
    assert reason in response.json()["message"]
    assert not Party.objects.exists() and not Round.objects.exists()


def test_parties_are_in_the_games_list_once():
    _, client = make_player()
    party = new_party(client, ["Ann", "Bo", "Cy"], ruleset="yatzy")
    games = client.get("/api/v1/games/").json()["results"]
    assert [(line["id"], line["mode"]) for line in games] == [(party["id"], "party")]
    assert [seat["name"] for seat in games[0]["seats"]] == ["Ann", "Bo", "Cy"]
    assert (
        client.get("/api/v1/games/", {"mode": "party", "status": "in_progress"}).json()["count"]
        == 1
    )


def test_another_players_party_is_404():
    _, owner = make_player()
    _, other = make_player()
    party = new_party(owner, ["Ann", "Bo"], ruleset="yatzy")
    assert other.get(f"/api/v1/parties/{party['id']}/").status_code == 404
    response = party_post(other, party, "roll", seat=0, turn=0, roll=0, hold=[])
    assert response.status_code == 404 and response.json()["code"] == "party_not_found"
    seat = seat_round(party, 0)
    assert other.get(f"/api/v1/rounds/{seat['id']}/").status_code == 404


@pytest.mark.django_db(transaction=True)
def test_parallel_identical_party_actions_apply_exactly_once():
    user, client = make_player()
    party = new_party(client, ["Ann", "Bo"], ruleset="yatzy")
    party = party_post(client, party, "roll", seat=0, turn=0, roll=0, hold=[]).json()
    key = user_token_create(user=user)

    def score(_index):
        thread_client = APIClient()
        thread_client.credentials(HTTP_AUTHORIZATION=f"Token {key}")
        return party_post(thread_client, party, "score", seat=0, turn=0, category="chance")

    responses = in_threads(score)
    assert sorted(r.status_code for r in responses) == [200] + [409] * (PARALLEL - 1)
    stored = Party.objects.get(pk=party["id"])
    assert (stored.current_seat, stored.version) == (1, 2)
    ann = Round.objects.get(party=stored, seat=0)
    assert [a["type"] for a in ann.actions] == ["roll", "score"]
    assert Round.objects.get(party=stored, seat=1).actions == []


@pytest.mark.parametrize("action", ["roll", "score"])
def test_a_seat_the_party_does_not_have_is_400_invalid_seat_and_changes_nothing(action):
    _, client = make_player()
    party = new_party(client, ["Ann", "Bo"], ruleset="yahtzee")
    body = {"roll": {"roll": 0, "hold": []}, "score": {"category": "chance"}}[action]
    response = party_post(client, party, action, seat=5, turn=0, **body)
    assert response.status_code == 400, response.content
    assert response.json()["code"] == "invalid_seat"
    assert Party.objects.get(pk=party["id"]).version == 0
    assert all(rnd.actions == [] for rnd in Round.objects.filter(party_id=party["id"]))


def test_a_party_seats_finished_round_can_be_shared():
    _, client = make_player()
    party = new_party(client, ["Ann", "Bo"], ruleset="yahtzee")
    while seat_round(party, 0)["status"] == "in_progress":
        party = take_turn(client, party)
    ann = seat_round(party, 0)
    assert ann["status"] == "completed" and ann["shareable"] is True
    assert seat_round(party, 1)["shareable"] is False
    response = client.post(f"/api/v1/rounds/{ann['id']}/share/")
    assert response.status_code == 200, response.json()
    _, friend = make_player("friend")
    started = friend.post(
        f"/api/v1/friend/{response.json()['code']}/rounds/", {"view": "target"}, format="json"
    )
    assert started.status_code == 201 and started.json()["commitment"] == ann["commitment"]


def test_a_finished_party_answers_every_seat_as_a_finished_round_does():
    # As on any finished round: the turn the client saw is current, so the action is
    # 400 game_over; a retry of an earlier action (the last score's answer lost) is a
    # 409 with the party's state. Alike for every seat, through either endpoint.
    _, client = make_player()
    party = new_party(client, ["Ann", "Bo"], ruleset="yatzy", options={"forced_order": True})
    while party["status"] == "in_progress":
        party = take_turn(client, party)
    versions = {rnd.pk: rnd.version for rnd in Round.objects.filter(party_id=party["id"])}
    for seat in (0, 1):
        round_id = seat_round(party, seat)["id"]
        for turn, expected in ((15, (400, "game_over")), (14, (409, "stale_state"))):
            answers = [
                party_post(client, party, "roll", seat=seat, turn=turn, roll=0, hold=[]),
                party_post(client, party, "score", seat=seat, turn=turn, category="chance"),
                client.post(
                    f"/api/v1/rounds/{round_id}/roll/",
                    {"hold": [], "turn": turn, "roll": 0},
                    format="json",
                ),
                client.post(
                    f"/api/v1/rounds/{round_id}/score/",
                    {"category": "chance", "turn": turn},
                    format="json",
                ),
            ]
            for answer in answers:
                assert (answer.status_code, answer.json()["code"]) == expected, (seat, turn)
                if expected[0] == 409:
                    assert answer.json()["current"]["id"] == party["id"]
                    assert answer.json()["current"]["status"] == "completed"
    assert Party.objects.get(pk=party["id"]).version == 2 * 2 * 15
    assert {rnd.pk: rnd.version for rnd in Round.objects.filter(party_id=party["id"])} == versions


def test_a_partys_line_in_the_games_list_is_the_partys_turn_and_completion():
    # The line stands for the party, not for its first seat: seat 0 ahead by a turn
    # (its score passed the turn on) is not the party's turn, nor its finish the party's.
    _, client = make_player()
    party = new_party(client, ["Ann", "Bo"], ruleset="yatzy", options={"forced_order": True})

    def line():
        (found,) = client.get("/api/v1/games/", {"mode": "party"}).json()["results"]
        return found

    party = take_turn(client, party)  # Ann's turn 0; Bo's turn 0 is next
    assert (line()["turn"], line()["completed_at"]) == (0, None)
    while seat_round(party, 0)["status"] == "in_progress":
        party = take_turn(client, party)
    assert party["status"] == "in_progress" and party["current_seat"] == 1  # Bo's last turn
    assert (line()["status"], line()["turn"], line()["completed_at"]) == ("in_progress", 14, None)
    party = take_turn(client, party)
    assert party["status"] == "completed"
    assert (line()["status"], line()["turn"]) == ("completed", 15)
    assert line()["completed_at"] == party["completed_at"]
