"""Quotas that hold (issue #22, 4): custom strategy tables per player and in all,
unfinished games per player, under concurrent requests on SQLite and PostgreSQL (real
threads, each with its own connection, against the configured database); an operator
deleting a custom table deletes its file.

Each race makes every request wait, between its quota check and its write, for the
others (up to a moment): without the lock that serialises them, all of them would check
before any writes, and the quota would be passed every time, not by chance.
"""

from __future__ import annotations

import contextlib
import threading
from concurrent.futures import ThreadPoolExecutor
from typing import Any
from unittest import mock

import pytest
from django.db import connection

import yatzy
from accounts.services import user_token_create
from games import services, tables
from games.models import Party, Round, StrategyTable
from tests.factories import make_player
from tests.games.conftest import new_game, play_worst_boxes

PARALLEL = 10


def _meet_between_check_and_write(target: Any, attribute: str) -> Any:
    """Patch ``target.attribute`` (called after a quota check, before its write) to
    wait for every other request first, for at most a moment: serialised requests
    cannot meet, and each then goes on alone."""
    barrier = threading.Barrier(PARALLEL)
    original = getattr(target, attribute)

    def meet(*args: Any, **kwargs: Any) -> Any:
        with contextlib.suppress(threading.BrokenBarrierError):
            barrier.wait(timeout=1.5)
        return original(*args, **kwargs)

    return mock.patch.object(target, attribute, meet)


def in_threads(work):
    def run(index):
        try:
            return work(index)
        finally:
            connection.close()

    with ThreadPoolExecutor(max_workers=PARALLEL) as pool:
        return list(pool.map(run, range(PARALLEL)))


def _client_of(user):
    from rest_framework.test import APIClient

    client = APIClient()
    client.credentials(HTTP_AUTHORIZATION=f"Token {user_token_create(user=user)}")
    return client


def custom(threshold: int) -> dict[str, Any]:
    return {"mode": "solo", "ruleset": "yatzy", "options": {"upper_bonus": [threshold, 50]}}


@pytest.mark.django_db
def test_one_player_cannot_fill_the_custom_tables(settings):
    settings.STRATEGY_TABLES_MAX_CUSTOM, settings.STRATEGY_TABLES_MAX_CUSTOM_PER_PLAYER = 6, 2
    me, client = make_player()
    for threshold in (40, 41):
        new_game(client, **custom(threshold))
    refused = client.post("/api/v1/games/", custom(42), format="json")
    assert refused.status_code == 400 and refused.json()["code"] == "custom_tables_quota"
    assert "2" in refused.json()["message"]
    # Nothing changed: no game, no table queued.
    assert Round.objects.filter(player=me).count() == 2
    assert StrategyTable.objects.count() == 2
    # A table already there costs no quota, and other players keep theirs.
    new_game(client, **custom(40))
    _, other = make_player()
    new_game(other, **custom(42))
    assert new_game(other, **custom(41))["rules"]["upper_bonus"] == [41, 50]


@pytest.mark.django_db
def test_a_party_over_the_quota_is_refused_too(settings):
    settings.STRATEGY_TABLES_MAX_CUSTOM_PER_PLAYER = 1
    _, client = make_player()
    new_game(client, **custom(40))
    body = {**custom(41), "mode": "party", "seats": ["Ann", "Bo"]}
    refused = client.post("/api/v1/games/", body, format="json")
    assert refused.status_code == 400 and refused.json()["code"] == "custom_tables_quota"


@pytest.mark.django_db(transaction=True)
def test_the_global_cap_holds_under_two_bursts_of_parallel_requests(settings):
    settings.STRATEGY_TABLES_MAX_CUSTOM, settings.STRATEGY_TABLES_MAX_CUSTOM_PER_PLAYER = 6, 2
    players = [make_player()[0] for _ in range(PARALLEL)]
    statuses = []
    for burst in range(2):
        clients = [_client_of(user) for user in players]

        def create(index, burst=burst, clients=clients):
            return clients[index].post(
                "/api/v1/games/", custom(30 + 10 * burst + index), format="json"
            )

        with _meet_between_check_and_write(StrategyTable.objects, "create"):
            responses = in_threads(create)
        statuses += [r.status_code for r in responses]
        assert {r.json()["code"] for r in responses if r.status_code == 400} <= {
            "custom_tables_full"
        }
    defaults = [tables.table_key(yatzy.get_ruleset(name)) for name in tables.DEFAULT_RULESETS]
    assert StrategyTable.objects.exclude(key__in=defaults).count() == 6
    assert statuses.count(201) == 6 and statuses.count(400) == 2 * PARALLEL - 6
    assert Round.objects.count() == 6


@pytest.mark.django_db(transaction=True)
def test_one_players_parallel_requests_hold_their_quota(settings):
    settings.STRATEGY_TABLES_MAX_CUSTOM, settings.STRATEGY_TABLES_MAX_CUSTOM_PER_PLAYER = 20, 2
    user, _ = make_player()
    clients = [_client_of(user) for _ in range(PARALLEL)]
    with _meet_between_check_and_write(StrategyTable.objects, "create"):
        responses = in_threads(
            lambda i: clients[i].post("/api/v1/games/", custom(30 + i), format="json")
        )
    assert sorted(r.status_code for r in responses) == [201] * 2 + [400] * (PARALLEL - 2)
    assert StrategyTable.objects.filter(requested_by=user).count() == 2


@pytest.mark.django_db(transaction=True)
def test_unfinished_games_stay_within_the_limit_under_parallel_creates(monkeypatch):
    monkeypatch.setattr(services, "MAX_UNFINISHED_GAMES", 5)
    user, client = make_player()
    new_game(client, mode="solo", ruleset="yatzy")
    clients = [_client_of(user) for _ in range(PARALLEL)]
    body = {"mode": "solo", "ruleset": "yatzy"}
    with _meet_between_check_and_write(services.secrets, "token_bytes"):
        responses = in_threads(lambda i: clients[i].post("/api/v1/games/", body, format="json"))
    statuses = sorted(r.status_code for r in responses)
    assert statuses == [201] * 4 + [400] * (PARALLEL - 4)
    assert {r.json()["code"] for r in responses if r.status_code == 400} == {
        "too_many_unfinished_games"
    }
    assert Round.objects.filter(player=user, status="in_progress").count() == 5


@pytest.mark.django_db(transaction=True)
def test_parallel_creates_past_the_limit_queue_no_table_for_a_refused_game(monkeypatch, settings):
    """The table was queued before the locked check: refused games used up the player's
    custom-table quota with tables no game of theirs needs."""
    settings.STRATEGY_TABLES_MAX_CUSTOM, settings.STRATEGY_TABLES_MAX_CUSTOM_PER_PLAYER = 50, 50
    monkeypatch.setattr(services, "MAX_UNFINISHED_GAMES", 2)
    user, client = make_player()
    new_game(client, mode="solo", ruleset="yatzy")
    clients = [_client_of(user) for _ in range(PARALLEL)]
    with _meet_between_check_and_write(services.secrets, "token_bytes"):
        responses = in_threads(
            lambda i: clients[i].post("/api/v1/games/", custom(30 + i), format="json")
        )
    created = [r.json() for r in responses if r.status_code == 201]
    assert len(created) == 1
    assert {r.json()["code"] for r in responses if r.status_code == 400} == {
        "too_many_unfinished_games"
    }
    (queued,) = StrategyTable.objects.filter(requested_by=user)  # the created game's
    assert queued.options["upper_bonus"] == created[0]["rules"]["upper_bonus"]


@pytest.mark.django_db(transaction=True)
def test_one_new_game_sent_ten_times_at_once_with_its_key_starts_one_game():
    user, _ = make_player()
    clients = [_client_of(user) for _ in range(PARALLEL)]
    body = {"mode": "solo", "ruleset": "yatzy"}
    with _meet_between_check_and_write(services.secrets, "token_bytes"):
        responses = in_threads(
            lambda i: clients[i].post(
                "/api/v1/games/", body, format="json", HTTP_IDEMPOTENCY_KEY="once"
            )
        )
    assert [r.status_code for r in responses] == [201] * PARALLEL
    assert len({r.json()["id"] for r in responses}) == 1
    assert Round.objects.filter(player=user).count() == 1


@pytest.mark.parametrize(
    "body",
    [
        {"mode": "solo", "ruleset": "yatzy"},
        {"mode": "computer", "ruleset": "yatzy"},
        {"mode": "party", "ruleset": "yatzy", "seats": ["Ann", "Bo"]},
    ],
    ids=["solo", "computer", "party"],
)
@pytest.mark.django_db(transaction=True)
def test_a_new_game_sent_twice_at_once_that_fills_the_quota_is_answered_to_both(monkeypatch, body):
    """The second sending looks its key up before the first commits, and counts the
    games after: the game the first started is its answer, not 400
    ``too_many_unfinished_games`` (found racing 40 sendings at gunicorn)."""
    monkeypatch.setattr(services, "MAX_UNFINISHED_GAMES", 1)
    user, _ = make_player()
    first_client, second_client = _client_of(user), _client_of(user)
    lookup = services.NewGameKey.game
    answers = []

    def first_commits_after_the_lookup(self, player):
        found = lookup(self, player)
        if not answers:  # the second sending's first look-up: the first one runs now
            answers.append(None)
            answers[0] = in_other_thread(
                lambda: first_client.post(
                    "/api/v1/games/", body, format="json", HTTP_IDEMPOTENCY_KEY="both"
                )
            )
        return found

    monkeypatch.setattr(services.NewGameKey, "game", first_commits_after_the_lookup)
    second = second_client.post("/api/v1/games/", body, format="json", HTTP_IDEMPOTENCY_KEY="both")
    first = answers[0]
    assert first.status_code == 201, first.json()
    assert second.status_code == 201, second.json()
    assert second.json()["id"] == first.json()["id"]
    assert Round.objects.filter(player=user, party__isnull=True).count() == (
        0 if body["mode"] == "party" else 1
    )
    assert Party.objects.filter(owner=user).count() == (1 if body["mode"] == "party" else 0)


def in_other_thread(work):
    def run():
        try:
            return work()
        finally:
            connection.close()

    with ThreadPoolExecutor(max_workers=1) as pool:
        return pool.submit(run).result()


@pytest.mark.django_db(transaction=True)
def test_parallel_log_ins_keep_the_player_within_their_tokens(monkeypatch):
    from knox.models import AuthToken

    from accounts import services as account_services

    monkeypatch.setattr(account_services, "TOKENS_PER_PLAYER", 3)
    user, _ = make_player()
    with _meet_between_check_and_write(AuthToken.objects, "create"):
        keys = in_threads(lambda i: user_token_create(user=user))
    assert len(set(keys)) == PARALLEL
    assert AuthToken.objects.filter(user=user).count() == 3


@pytest.mark.django_db(transaction=True)
def test_a_ruleset_and_options_changed_at_once_never_store_options_the_ruleset_lacks():
    """Each change was checked against the profile its request had read: the ruleset
    Maxi beside Yatzy's five_of_a_kind_full_house was stored, and every page that reads
    the settings was a 500."""
    user, client = make_player()
    client.patch("/api/v1/accounts/me/", {"ruleset": "yatzy"}, format="json")
    clients = [_client_of(user) for _ in range(PARALLEL)]
    changes = [{"ruleset": "maxi"}, {"options": {"five_of_a_kind_full_house": True}}]
    with _meet_between_check_and_write(yatzy, "get_ruleset"):
        responses = in_threads(
            lambda i: clients[i].patch("/api/v1/accounts/me/", changes[i % 2], format="json")
        )
    assert {r.status_code for r in responses} <= {200, 400}
    assert {r.json()["code"] for r in responses if r.status_code == 400} <= {
        "option_not_applicable"
    }
    user.refresh_from_db()
    yatzy.get_ruleset(user.ruleset, **user.options)  # raised OptionNotApplicableError
    assert client.get("/api/v1/accounts/me/").status_code == 200


@pytest.mark.django_db(transaction=True)
def test_parallel_parties_stay_within_the_limit_and_a_party_is_one_game(monkeypatch):
    monkeypatch.setattr(services, "MAX_UNFINISHED_GAMES", 5)
    user, client = make_player()
    new_game(client, mode="solo", ruleset="yatzy")
    clients = [_client_of(user) for _ in range(PARALLEL)]
    body = {"mode": "party", "ruleset": "yatzy", "seats": ["Ann", "Bo", "Cy"]}
    with _meet_between_check_and_write(Party.objects, "create"):
        responses = in_threads(lambda i: clients[i].post("/api/v1/games/", body, format="json"))
    statuses = sorted(r.status_code for r in responses)
    # Four parties of three seats each fit beside the solo game: five games, 13 rounds.
    assert statuses == [201] * 4 + [400] * (PARALLEL - 4)
    assert Party.objects.filter(owner=user).count() == 4
    refused = client.post("/api/v1/games/", {"mode": "solo", "ruleset": "yatzy"}, format="json")
    assert refused.status_code == 400 and refused.json()["code"] == "too_many_unfinished_games"


@pytest.mark.django_db(transaction=True)
def test_parallel_starts_of_two_codes_on_one_seed_make_one_round():
    _, sharer = make_player()
    shared = new_game(sharer, mode="solo", ruleset="yatzy")
    done = play_worst_boxes(sharer, shared)
    x = sharer.post(f"/api/v1/rounds/{done['id']}/share/").json()["code"]
    _, accomplice = make_player()
    theirs = play_worst_boxes(
        accomplice,
        accomplice.post(f"/api/v1/friend/{x}/rounds/", {"view": "blind"}, format="json").json(),
    )
    y = accomplice.post(f"/api/v1/rounds/{theirs['id']}/share/").json()["code"]
    user, _ = make_player()
    clients = [_client_of(user) for _ in range(PARALLEL)]
    with _meet_between_check_and_write(services, "round_create"):
        responses = in_threads(
            lambda i: clients[i].post(
                f"/api/v1/friend/{(x, y)[i % 2]}/rounds/", {"view": "blind"}, format="json"
            )
        )
    assert {r.status_code for r in responses} <= {200, 201, 409}
    assert Round.objects.filter(player=user).count() == 1
    assert len({r.json().get("id") or r.json()["current"]["id"] for r in responses}) == 1


@pytest.mark.django_db
def test_an_operator_deleting_a_custom_table_deletes_its_file(admin_client, settings):
    rs = yatzy.get_ruleset("yatzy", upper_bonus=[55, 50])
    _, client = make_player()
    game = new_game(client, **custom(55))
    row = StrategyTable.objects.get(key=tables.table_key(rs))
    assert tables.tables_build_due() == [row.key]
    assert client.get(f"/api/v1/rounds/{game['id']}/hint/").status_code == 200  # loaded
    path = tables.table_path(tables.rules_of(rs))
    assert path.exists()
    defaults = StrategyTable.objects.exclude(pk=row.pk)
    tables.tables_queue_defaults()
    for default in defaults:  # the rulesets' usual tables are kept
        page = admin_client.get(f"/admin/games/strategytable/{default.pk}/delete/")
        assert page.status_code == 403
    response = admin_client.post(
        f"/admin/games/strategytable/{row.pk}/delete/", {"post": "yes"}, follow=False
    )
    assert response.status_code == 302
    assert not StrategyTable.objects.filter(pk=row.pk).exists()
    assert not path.exists()
    # This process had the table mapped; it serves it no more.
    hint = client.get(f"/api/v1/rounds/{game['id']}/hint/")
    assert hint.status_code == 400 and hint.json()["code"] == "hint_unsupported"
    # A new game with those options queues it again (a quota slot like any).
    new_game(client, **custom(55))
    assert StrategyTable.objects.filter(key=row.key, status="queued").exists()


@pytest.mark.django_db
def test_a_custom_table_an_unfinished_expert_game_plays_is_kept(admin_client):
    # The expert reads its table on every turn: without it the game could not go on.
    rs = yatzy.get_ruleset("yatzy", upper_bonus=[56, 50])
    _, client = make_player()
    body = {**custom(56), "mode": "computer", "level": "expert"}
    assert client.post("/api/v1/games/", body, format="json").status_code == 503  # queued
    row = StrategyTable.objects.get(key=tables.table_key(rs))
    assert tables.tables_build_due() == [row.key]
    game = new_game(client, **body)
    row.refresh_from_db()
    assert not tables.table_deletable(row)
    page = admin_client.get(f"/admin/games/strategytable/{row.pk}/delete/")
    assert page.status_code == 403
    assert StrategyTable.objects.filter(pk=row.pk).exists()
    # Once the game is over, the operator may delete it.
    play_worst_boxes(client, game)
    assert tables.table_deletable(row)
