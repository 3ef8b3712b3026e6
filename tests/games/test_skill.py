"""Skill and luck after the reveal (SPEC §12): hints and analyses of a revealed daily
round from the Maxi table, the analysis job (chunks, claims, idempotence, waiting for
the table, a dead worker's chunk taken over), `manage.py analyse_day`, the decisions
boards, and fair play in the admin.

The daily is Maxi: these tests have its table through the ``maxi_table`` fixture (built
once per machine into a shared cache, ``tests/shared_tables.py``), except the one that
checks the job waits while the table is missing."""

from __future__ import annotations

import datetime as dt
from decimal import ROUND_HALF_UP, Decimal

import pytest
import time_machine
from django.contrib.admin.models import LogEntry
from django.core.management import CommandError, call_command

import yatzy
from games import skill, tasks
from games.models import AnalysisChunk, Round, StrategyTable
from leaderboards import selectors as board_selectors
from leaderboards.models import BoardEntry
from tests.factories import make_player
from tests.games.conftest import hint, roll
from tests.games.skill_rounds import after_reveal, bot, expert, play_ranked, travel, worst
from yatzy.strategy import best_move

pytestmark = pytest.mark.django_db(transaction=True)  # board jobs run on commit

DAY = dt.date(2026, 11, 20)
MAXI_START = 394.5575068  # docs/strategy.md: the Maxi table's value of a new game


def analysis_of(client, rnd: Round) -> dict:
    response = client.get(f"/api/v1/rounds/{rnd.id}/analysis/")
    assert response.status_code == 200, response.json()
    return response.json()


def hundredths(loss: float) -> float:
    """The loss as the decisions board compares it: to the hundredth, half up."""
    return float(Decimal(repr(loss)).quantize(Decimal("0.01"), rounding=ROUND_HALF_UP))


def test_hints_on_a_revealed_daily_round_are_the_maxi_tables_best_moves(maxi_table):
    player, client = make_player()
    play_ranked(player, DAY, worst)
    with travel(after_reveal(DAY)):
        practice = client.post(f"/api/v1/daily/{DAY}/rounds/").json()
        assert practice["ranked"] is False and practice["ruleset"] == "maxi"
        first = hint(client, practice)
        assert [move["kind"] for move in first["moves"]] == ["roll"]
        assert first["best"]["expected"] == pytest.approx(MAXI_START, abs=1e-4)
        state = roll(client, practice)
        advice = hint(client, state)
        game = yatzy.Game(yatzy.get_ruleset("maxi"), bytes.fromhex(state["seed"]))
        game.roll()
        assert advice["dice"] == list(game.dice) == state["dice"]
        engine = best_move(game, table=maxi_table)
    expected = [move["expected"] for move in advice["moves"]]
    assert expected == sorted(expected, reverse=True)
    assert advice["best"]["expected"] == pytest.approx(engine.best.expected, abs=1e-4)
    assert (advice["best"]["category"], tuple(advice["best"]["keep"])) == (
        engine.best.category,
        engine.best.keep,
    )
    # One roll in, the expected final score has moved off the start by the dice alone.
    assert 250 < advice["best"]["expected"] < 550


def test_the_analysis_of_a_revealed_daily_round_grades_each_decision(maxi_table):
    cheat, cheat_client = make_player()
    dunce, dunce_client = make_player()
    perfect = play_ranked(cheat, DAY, expert(maxi_table))
    careless = play_ranked(dunce, DAY, worst)
    with travel(after_reveal(DAY)):
        best = analysis_of(cheat_client, perfect)
        bad = analysis_of(dunce_client, careless)
    assert best["expected_start"] == bad["expected_start"] == pytest.approx(MAXI_START, abs=1e-4)
    assert (best["total"], bad["total"]) == (perfect.total, careless.total)
    assert best["loss"] == 0 and {d["loss"] for d in best["decisions"]} == {0}
    # The worst box every turn, one roll each: 20 decisions, all boxes, most of them bad.
    assert [d["kind"] for d in bad["decisions"]] == ["score"] * 20
    assert bad["loss"] == pytest.approx(sum(d["loss"] for d in bad["decisions"]), abs=1e-3)
    assert bad["loss"] > 100
    for decision in bad["decisions"]:
        assert decision["played"]["expected"] <= decision["best"]["expected"] + 1e-9


def test_the_job_analyses_a_revealed_day_in_chunks_once_and_fills_the_decisions_board(
    maxi_table, settings
):
    settings.SKILL_CHUNK_ROUNDS = 2
    players = [make_player(f"p{i}") for i in range(5)]
    policies = [expert(maxi_table), expert(maxi_table), bot("hard"), bot("medium"), worst]
    rounds = [
        play_ranked(user, DAY, policy) for (user, _), policy in zip(players, policies, strict=True)
    ]
    with travel(after_reveal(DAY) - dt.timedelta(minutes=2)):
        assert tasks.skill_analyses_due.delay().get() == 0  # not revealed yet
    assert not AnalysisChunk.objects.exists()
    _, first_client = players[0]
    with travel(after_reveal(DAY)):
        before = first_client.get(f"/api/v1/rounds/{rounds[0].id}/").json()
        assert (before["loss"], before["luck"]) == (None, None)
        assert board(first_client, f"decisions/{DAY}/")["analysed"] is False
        # The sweep plans the day and starts the relays (in-process jobs run inline).
        assert tasks.skill_analyses_due.delay().get() == settings.SKILL_RELAYS
        chunks = list(AnalysisChunk.objects.order_by("first_id"))
        assert [(c.status, c.rounds, c.analysed) for c in chunks] == [
            ("done", 2, 2),
            ("done", 2, 2),
            ("done", 1, 1),
        ]
        analyses = {
            rnd.pk: analysis_of(client, rnd)
            for rnd, (_, client) in zip(rounds, players, strict=True)
        }
        payloads = {
            rnd.pk: client.get(f"/api/v1/rounds/{rnd.id}/").json()
            for rnd, (_, client) in zip(rounds, players, strict=True)
        }
        day_board = board(first_client, f"decisions/{DAY}/")
        around = board(players[4][1], f"decisions/{DAY}/", around="me")
    stored = {rnd.pk: rnd for rnd in Round.objects.filter(pk__in=[r.pk for r in rounds])}
    for pk, rnd in stored.items():
        analysis = analyses[pk]
        assert rnd.loss == analysis["loss"] >= 0
        # total = start - loss + luck, start being the table's value of the empty card
        assert rnd.total == pytest.approx(analysis["expected_start"] - rnd.loss + rnd.luck)
        assert rnd.total == pytest.approx(MAXI_START - rnd.loss + rnd.luck, abs=1e-4)
        assert (payloads[pk]["loss"], payloads[pk]["luck"]) == (rnd.loss, rnd.luck)
    losses = [stored[r.pk].loss for r in rounds]
    assert losses[0] == losses[1] == 0 and 0 < losses[2] < losses[3] < losses[4]

    # Lowest loss first; the two perfect rounds tie for first.
    assert day_board["analysed"] is True and day_board["count"] == 5
    assert [line["username"] for line in day_board["results"]][2:] == ["p2", "p3", "p4"]
    assert {line["username"] for line in day_board["results"][:2]} == {"p0", "p1"}
    assert [line["rank"] for line in day_board["results"]] == [1, 1, 3, 4, 5]
    assert [line["value"] for line in day_board["results"]] == [
        hundredths(x) for x in sorted(losses)
    ]
    assert day_board["me"]["rank"] == 1 and day_board["name"] == "Best decisions"
    assert around["me"] == {**day_board["results"][4]} and len(around["results"]) == 5

    # Idempotent: a second sweep plans nothing and changes no round.
    analysed_at = dict(Round.objects.values_list("pk", "analysed_at"))
    with travel(after_reveal(DAY) + dt.timedelta(minutes=5)):
        assert tasks.skill_analyses_due.delay().get() == 0
    assert AnalysisChunk.objects.count() == 3
    assert dict(Round.objects.values_list("pk", "analysed_at")) == analysed_at


def board(client, path: str, **params) -> dict:
    response = client.get(f"/api/v1/leaderboards/{path}", params)
    assert response.status_code == 200, response.json()
    return response.json()


def test_the_job_waits_while_the_maxi_table_is_missing(settings):
    # No maxi_table here: the daily's table is missing, as on a fresh deployment.
    player, client = make_player()
    rnd = play_ranked(player, DAY, bot("hard"))
    with travel(after_reveal(DAY)):
        assert tasks.skill_analyses_due.delay().get() == 0
        waiting = board(client, f"decisions/{DAY}/")
        assert (waiting["analysed"], waiting["count"], waiting["me"]) == (False, 0, None)
        with pytest.raises(CommandError, match="not built yet"):
            call_command("analyse_day", DAY.isoformat())
    assert not AnalysisChunk.objects.exists()
    rnd.refresh_from_db()
    assert (rnd.loss, rnd.luck, rnd.analysed_at) == (None, None, None)
    # ... and the table it waits for is queued for the tables worker.
    maxi = StrategyTable.objects.get(ruleset="maxi")
    assert maxi.status == StrategyTable.Status.QUEUED


def test_a_chunk_whose_worker_died_is_taken_over_and_no_round_is_analysed_twice(
    maxi_table, settings
):
    settings.SKILL_CHUNK_ROUNDS = 2
    users = [make_player()[0] for _ in range(4)]
    for user in users:
        play_ranked(user, DAY, bot("medium"))
    moment = after_reveal(DAY)
    with travel(moment):
        assert skill.day_plan(day=DAY) == 2
        assert skill.day_plan(day=DAY) == 0  # its chunks are open: planned once
        # A worker claims the first chunk, stores one round, and dies.
        dead = skill.chunk_claim()
        assert dead is not None
        first = Round.objects.filter(challenge__date=DAY, id__gte=dead.first_id).order_by("id")[0]
        assert skill.round_skill_store(rnd=first)
        first.refresh_from_db()
        # The chunk looks alive: the sweep starts nothing, a relay takes the other chunk.
        assert skill.analyses_due() == 0
        taken = skill.chunk_analyse_next()
        assert taken is not None and taken.pk != dead.pk
        assert skill.chunk_analyse_next() is None
    with travel(moment + dt.timedelta(seconds=settings.SKILL_STALE_SECONDS + 1)):
        # Nothing has moved for the stale period: the sweep starts the relays again, and
        # one takes the dead worker's chunk over, from the round it had not stored.
        assert tasks.skill_analyses_due.delay().get() == settings.SKILL_RELAYS
    dead.refresh_from_db()
    assert (dead.status, dead.analysed) == ("done", 1)
    assert Round.objects.get(pk=first.pk).analysed_at == first.analysed_at
    assert not skill.rounds_unanalysed().exists()
    assert sum(AnalysisChunk.objects.values_list("analysed", flat=True)) == 3


def test_a_round_is_stored_once_however_often_it_is_analysed(maxi_table):
    # Two workers that both believe they own a chunk (one was judged dead, but was only
    # slow) analyse the same round from the same read: one store wins.
    user, _ = make_player()
    rnd = play_ranked(user, DAY, bot("hard"))
    with travel(after_reveal(DAY)):
        slow = Round.objects.select_related("challenge").get(pk=rnd.pk)
        assert skill.round_skill_store(rnd=Round.objects.select_related("challenge").get(pk=rnd.pk))
        first = Round.objects.get(pk=rnd.pk).analysed_at
    with travel(after_reveal(DAY) + dt.timedelta(minutes=1)):
        assert not skill.round_skill_store(rnd=slow)
    assert Round.objects.get(pk=rnd.pk).analysed_at == first


def test_a_damaged_round_is_left_for_analyse_day_and_does_not_hold_up_the_day(maxi_table, settings):
    settings.SKILL_CHUNK_ROUNDS = 10
    good, bad = (play_ranked(make_player()[0], DAY, bot("hard")) for _ in range(2))
    # A damaged record: its stored action log no longer replays on its seed.
    snapshot = {**bad.snapshot, "actions": [{"type": "score", "category": "chance"}] * 2}
    Round.objects.filter(pk=bad.pk).update(snapshot=snapshot)
    with travel(after_reveal(DAY)):
        assert tasks.skill_analyses_due.delay().get() == settings.SKILL_RELAYS
    chunk = AnalysisChunk.objects.get()
    assert (chunk.status, chunk.analysed, chunk.failed) == ("done", 1, 1)
    assert Round.objects.get(pk=good.pk).loss is not None
    assert Round.objects.get(pk=bad.pk).loss is None
    with travel(after_reveal(DAY) + dt.timedelta(minutes=5)):
        assert tasks.skill_analyses_due.delay().get() == 0  # not tried every minute
        assert AnalysisChunk.objects.count() == 1
        call_command("analyse_day", DAY.isoformat())  # by hand: tried again
    assert AnalysisChunk.objects.count() == 2
    assert sum(AnalysisChunk.objects.values_list("failed", flat=True)) == 2


def test_analyse_day_by_hand(maxi_table, settings, capsys):
    settings.SKILL_CHUNK_ROUNDS = 1
    users = [make_player()[0] for _ in range(2)]
    for user in users:
        play_ranked(user, DAY, bot("hard"))
    with (
        travel(after_reveal(DAY) - dt.timedelta(minutes=2)),
        pytest.raises(CommandError, match="not revealed"),
    ):
        call_command("analyse_day", DAY.isoformat())
    with travel(after_reveal(DAY)):
        with pytest.raises(CommandError, match="no daily challenge"):
            call_command("analyse_day", "2026-11-01")
        call_command("analyse_day", DAY.isoformat())
    out = capsys.readouterr().out
    assert "2 chunks analysed here" in out and "2 of 2 ranked rounds have their loss" in out
    assert not skill.rounds_unanalysed().exists()


def test_the_decisions_board_is_404_for_a_future_day_and_knows_unknown_seasons():
    _, client = make_player()
    with time_machine.travel(dt.datetime(2026, 11, 20, 12, tzinfo=dt.UTC), tick=False):
        future = client.get("/api/v1/leaderboards/decisions/2026-11-22/")
        unknown = client.get("/api/v1/leaderboards/decisions/", {"season": "nope"})
        overall = board(client, "decisions/")
    assert (future.status_code, future.json()["code"]) == (404, "no_challenge")
    assert (unknown.status_code, unknown.json()["code"]) == (404, "season_not_found")
    assert overall["min_days"] == 5 and overall["name"] == "Best decisions on average"


# -- fair play ----------------------------------------------------------------------------


DECEMBER = [dt.date(2026, 12, d) for d in range(1, 6)]


def entries() -> list[tuple]:
    return sorted(BoardEntry.objects.values_list("board", "player_id", "value", "achieved_at"))


def admin_act(client, action: str, rnd: Round, reason: str | None):
    data = {"action": action, "_selected_action": [str(rnd.pk)]}
    if reason is not None:
        data |= {"reason": reason, "apply": "1"}
    return client.post("/admin/games/round/", data)


def test_a_round_played_by_the_best_moves_is_flagged_and_an_excluded_round_counts_nowhere(
    maxi_table, settings, admin_client
):
    from leaderboards.models import Season

    season = Season.objects.create(
        name="Winter", slug="winter", start_date=DECEMBER[0], end_date=dt.date(2026, 12, 31)
    )
    cheat, cheat_client = make_player("cheat")
    honest, honest_client = make_player("honest")
    cheated = [play_ranked(cheat, day, expert(maxi_table)) for day in DECEMBER]
    for day in DECEMBER:
        play_ranked(honest, day, bot("hard"))
    with travel(after_reveal(DECEMBER[-1])):
        tasks.skill_analyses_due.delay()
        flagged = admin_client.get("/admin/games/round/", {"fair_play": "flagged"})
        mean = board(honest_client, "decisions/", season=str(season.pk))
        by_slug = board(honest_client, "decisions/", season="winter")
    assert not skill.rounds_unanalysed().exists()
    listed = set(flagged.context["cl"].result_list)
    assert listed == set(cheated)  # every perfect round, no round of the honest player
    assert mean == by_slug and [line["username"] for line in mean["results"]] == [
        "cheat",
        "honest",
    ]
    assert mean["results"][0]["value"] == 0 and mean["results"][1]["value"] > 0
    before = entries()
    counted = {board for board, player, *_ in before if player == cheat.pk}
    last = cheated[-1]

    with travel(after_reveal(DECEMBER[-1])):
        form = admin_act(admin_client, "exclude_from_boards", last, None)
        assert form.status_code == 200 and "reason" in form.context["form"].fields
        refused = admin_act(admin_client, "exclude_from_boards", last, "")
        assert refused.status_code == 200 and refused.context["form"].errors
        assert Round.objects.get(pk=last.pk).excluded_at is None
        done = admin_act(admin_client, "exclude_from_boards", last, "all 20 boxes optimal")
        assert done.status_code == 302
        mine = cheat_client.get(f"/api/v1/rounds/{last.id}/").json()
        theirs = honest_client.get(f"/api/v1/rounds/{last.id}/")
        day = cheat_client.get(f"/api/v1/daily/{DECEMBER[-1]}/").json()
        calendar = cheat_client.get("/api/v1/advent/2026/").json()
        record = board_selectors.player_record(player=cheat)
        daily_board = board(honest_client, f"daily/{DECEMBER[-1]}/")
    assert mine["excluded"] is True and day["my_round"]["excluded"] is True
    assert theirs.status_code == 404  # nobody else sees the round, nor that it is excluded
    assert "excluded" not in str(daily_board) and len(daily_board["results"]) == 1
    log = LogEntry.objects.get(object_id=str(last.pk))
    assert log.get_change_message() == "Excluded from every board: all 20 boxes optimal"

    # Counted nowhere: every board the round was on now has the cheat's line without it.
    after = {(board, value) for board, player, value, _ in entries() if player == cheat.pk}
    boards_now = {board for board, _ in after}
    assert counted - boards_now == {
        f"daily:{DECEMBER[-1]}",
        f"decisions:{DECEMBER[-1]}",
        "decisions",  # four analysed days left, under the five a mean board needs
        f"season:{season.pk}:decisions",
    }
    assert ("streak", 4) in after and (f"season:{season.pk}:streak", 4) in after
    advent = sum(rnd.total for rnd in cheated[:-1])
    assert ("advent:2026", advent) in after and calendar["total"] == advent
    assert [door["state"] for door in calendar["doors"][:5]] == ["played"] * 4 + ["missed"]
    assert record["days_played"] == 4 and len(record["history"]) == 4
    # What the boards hold is exactly what a rebuild from the rounds that count gives.
    excluded = entries()
    from leaderboards import services as board_services

    board_services.boards_reconcile()
    assert entries() == excluded

    with travel(after_reveal(DECEMBER[-1])):
        assert (
            admin_act(admin_client, "reinstate_on_boards", last, "a strong player").status_code
            == 302
        )
        assert cheat_client.get(f"/api/v1/rounds/{last.id}/").json()["excluded"] is False
    assert entries() == before
    assert LogEntry.objects.filter(object_id=str(last.pk)).count() == 2


def test_only_an_admin_with_the_exclusion_permission_sees_the_fair_play_actions(
    client, django_user_model
):
    from django.contrib.auth.models import Permission

    staff = django_user_model.objects.create_user(
        username="staff", password="correct-horse-battery-9", is_staff=True
    )
    staff.user_permissions.add(Permission.objects.get(codename="view_round"))
    client.force_login(staff)
    assert not {"exclude_from_boards", "reinstate_on_boards"} & actions(client)
    staff.user_permissions.add(Permission.objects.get(codename="exclude_round"))
    client.force_login(django_user_model.objects.get(pk=staff.pk))
    assert {"exclude_from_boards", "reinstate_on_boards"} <= actions(client)


def actions(client) -> set[str]:
    listing = client.get("/admin/games/round/")
    assert listing.status_code == 200
    form = listing.context["action_form"]
    return set() if form is None else {name for name, _ in form.fields["action"].choices}
