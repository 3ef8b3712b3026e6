"""The board jobs: incremental updates, day-close freezing, reconciliation."""

import datetime as dt
from concurrent.futures import ThreadPoolExecutor
from threading import Barrier

import pytest
import time_machine
from django.db import IntegrityError, connection, transaction
from django.test.utils import CaptureQueriesContext
from rest_framework.test import APIClient

from accounts.services import user_token_create
from games import services as game_services
from games import tasks as game_tasks
from games.models import Round
from leaderboards import jobs, selectors, services, tasks
from leaderboards.models import (
    BoardEntry,
    BoardHistogram,
    BoardHistogramBlock,
    PendingBoardUpdate,
    Season,
)
from tests.factories import make_player, play_round
from tests.leaderboards.conftest import (
    board,
    broker_down,
    noon,
    play,
    ranked,
    ranked_start,
    scripted_dice,
    travel,
)
from tests.leaderboards.state import boards_state

pytestmark = pytest.mark.django_db(transaction=True)

DAY = dt.date(2026, 12, 3)


def closing_time(day: dt.date) -> dt.datetime:
    """A minute after the day's grace period (30 minutes past midnight) has ended."""
    return dt.datetime.combine(day + dt.timedelta(days=1), dt.time(0, 31), tzinfo=dt.UTC)


def close(day: dt.date) -> list[str]:
    with travel(closing_time(day)):
        return game_tasks.days_close_due.delay().get()


def daily_ranks(day: dt.date) -> dict[str, int]:
    return {
        entry.player.username: selectors.board_rank(board=entry.board, player_id=entry.player_id)[0]
        for entry in BoardEntry.objects.filter(board=f"daily:{day}").select_related("player")
    }


def test_day_close_freezes_the_board_once():
    players = [make_player(f"p{i}")[0] for i in range(5)]
    for user, score in zip(players, [300, 250, 250, 200], strict=False):
        ranked(user, DAY, score)
    ranked(players[4], DAY, 260, record=False)  # its board job could not be sent
    assert daily_ranks(DAY) == {"p0": 1, "p1": 2, "p2": 2, "p3": 4}
    assert close(DAY) == [DAY.isoformat()]
    frozen = boards_state()
    # The closed board holds exactly the day's ranked rounds: its ranks are final.
    assert daily_ranks(DAY) == {"p0": 1, "p4": 2, "p1": 3, "p2": 3, "p3": 5}
    assert close(DAY) == []
    with travel(closing_time(DAY)):
        assert game_services.day_close(day=DAY) is False
    for user in players:  # every job of the day again: the closed board stays as it is
        services.board_player_refresh(player_id=user.pk, day=DAY)
    assert boards_state() == frozen


def test_the_api_shows_a_closed_days_board_as_frozen():
    user, client = make_player()
    other, _ = make_player()
    ranked(other, DAY, 200)
    ranked(user, DAY, 123, record=False)  # its board job could not be sent
    with travel(noon(DAY, 30)):
        open_day = board(client, f"daily/{DAY}/")
    close(DAY)
    with travel(noon(DAY + dt.timedelta(days=2))):
        body = board(client, f"daily/{DAY}/")
    assert (open_day["frozen"], open_day["me"], open_day["count"]) == (False, None, 1)
    assert (body["frozen"], body["count"]) == (True, 2)
    assert (body["me"]["rank"], body["me"]["value"]) == (2, 123)


def test_a_day_closed_while_the_broker_is_down_has_its_whole_board_at_once():
    # The freeze itself repairs the day's board inside the close; the player's other
    # boards are repaired by the jobs it enqueues, or, with the broker down, by the
    # catch-up of the update the round still owes.
    on_time, _ = make_player("on-time")
    lost, _ = make_player("lost")
    ranked(on_time, DAY, 200)
    ranked(lost, DAY, 250, record=False)
    with broker_down():
        assert close(DAY) == [DAY.isoformat()]
    assert daily_ranks(DAY) == {"lost": 1, "on-time": 2}
    assert not BoardEntry.objects.filter(player=lost).exclude(board=f"daily:{DAY}").exists()
    with travel(noon(DAY + dt.timedelta(days=1))):
        assert tasks.boards_catch_up.delay().get() == 1
    lines = dict(BoardEntry.objects.filter(player=lost).values_list("board", "value"))
    assert lines == {f"daily:{DAY}": 250, "best": 250, "streak": 1, "advent:2026": 250}


def test_a_late_job_for_a_closed_day_still_lands_on_its_board():
    first, _ = make_player("first")
    late, _ = make_player("late")
    ranked(first, DAY, 200)
    ranked(late, DAY, 300, record=False)  # its job could not be sent
    with pytest.MonkeyPatch.context() as patch:
        # Day close sees nothing missing if its check is disabled…
        patch.setattr("leaderboards.sql.daily_mismatched_players", lambda *a: [])
        close(DAY)
    assert daily_ranks(DAY) == {"first": 1}
    with travel(noon(DAY + dt.timedelta(days=1))):  # …and the catch-up runs it afterwards.
        assert tasks.boards_catch_up.delay().get() == 1
    assert daily_ranks(DAY) == {"late": 1, "first": 2}


def test_day_close_catches_up_on_board_jobs_that_never_ran():
    season = Season.objects.create(
        name="Early December", slug="early", start_date=DAY, end_date=DAY
    )
    Season.objects.create(
        name="Later", slug="later", start_date=DAY + dt.timedelta(1), end_date=DAY + dt.timedelta(9)
    )
    recorded, _ = make_player("recorded")
    lost, client = make_player("lost")
    ranked(recorded, DAY, 200)
    ranked(lost, DAY, 250, record=False)  # its job was lost with its worker
    assert not BoardEntry.objects.filter(player=lost).exists()
    assert close(DAY) == [DAY.isoformat()]
    lines = dict(BoardEntry.objects.filter(player=lost).values_list("board", "value"))
    assert lines == {
        f"daily:{DAY}": 250,
        "best": 250,
        "streak": 1,
        "advent:2026": 250,
        f"season:{season.pk}:best": 250,
        f"season:{season.pk}:streak": 1,
        f"season:{season.pk}:advent:2026": 250,
    }
    caught_up = boards_state()
    services.boards_reconcile()
    assert boards_state() == caught_up
    with travel(noon(DAY + dt.timedelta(days=1))):
        assert board(client, f"daily/{DAY}/")["me"]["rank"] == 1


def test_the_freeze_finds_exactly_the_players_whose_line_on_the_day_is_wrong():
    on_time, lost, removed = (make_player(name)[0] for name in ("on-time", "lost", "removed"))
    for user in (on_time, removed):
        ranked(user, DAY - dt.timedelta(days=1), 180)
    ranked(on_time, DAY, 200)
    ranked(lost, DAY, 250, record=False)  # its board job was lost
    gone = ranked(removed, DAY, 300)
    Round.objects.filter(pk=gone.pk).delete()  # not through round_delete: its line stays
    with travel(closing_time(DAY)), transaction.atomic():
        missed = services.board_day_freeze(day=DAY)
    assert sorted(missed) == sorted([lost.pk, removed.pk])
    assert daily_ranks(DAY) == {"lost": 1, "on-time": 2}
    with travel(closing_time(DAY)), transaction.atomic():
        assert services.board_day_freeze(day=DAY) == []


def test_a_day_close_that_missed_more_updates_than_the_limit_has_every_board_reconciled(
    monkeypatch,
):
    monkeypatch.setattr(jobs, "CATCH_UP_PER_PLAYER_LIMIT", 1)
    players = [make_player(f"m{i}")[0] for i in range(2)]
    for i, user in enumerate(players):
        ranked(user, DAY, 200 + i, record=False)
    assert close(DAY) == [DAY.isoformat()]
    assert set(BoardEntry.objects.values_list("board", "player__username", "value")) == {
        (board, f"m{i}", value)
        for i in range(2)
        for board, value in [
            (f"daily:{DAY}", 200 + i),
            ("best", 200 + i),
            ("streak", 1),
            ("advent:2026", 200 + i),
        ]
    }


def _season_data():
    Season.objects.create(
        name="Winter", slug="winter", start_date=DAY, end_date=DAY + dt.timedelta(9)
    )
    Season.objects.create(
        name="Dec", slug="dec", start_date=dt.date(2026, 12, 1), end_date=dt.date(2026, 12, 31)
    )
    users = [make_player(f"u{i}")[0] for i in range(6)]
    for i, user in enumerate(users):
        for n in range(12):
            if (i * 5 + n * 3) % 7 < 4 + i % 3:
                day = dt.date(2026, 11, 28) + dt.timedelta(days=n)
                ranked(user, day, 150 + (i * 37 + n * 11) % 90, minute=(i + n) % 3)


def test_reconcile_rebuilds_exactly_what_the_incremental_updates_built():
    _season_data()
    incremental = boards_state()
    assert len(incremental[0]) > 40
    BoardEntry.objects.filter(pk__in=BoardEntry.objects.values("pk")[:10]).delete()
    BoardEntry.objects.filter(board="best").update(value=1)
    BoardHistogram.objects.filter(board="streak").delete()
    BoardHistogram.objects.create(board="daily:2020-01-01", value=5, count=3)  # stale board
    BoardHistogramBlock.objects.create(board="daily:2020-01-02", block=0, count=3)  # stale too
    assert tasks.boards_reconcile.delay().get() > 0
    assert boards_state() == incremental
    for model in (BoardEntry, BoardHistogram, BoardHistogramBlock):  # from the rounds alone
        model.objects.all().delete()
    services.boards_reconcile()
    assert boards_state() == incremental


def test_reconcile_keeps_closed_days_frozen():
    _season_data()
    day = dt.date(2026, 11, 28)
    ranked(make_player("lost")[0], day, 640, minute=5, record=False)
    close(day)
    before = boards_state()
    rounds = Round.objects.filter(challenge__date=day, ranked=True, status=Round.Status.COMPLETED)
    closed_board = {
        (player, value, at) for key, player, value, at, *_ in before[0] if key == f"daily:{day}"
    }
    assert closed_board == set(rounds.values_list("player_id", "total", "completed_at"))
    services.boards_reconcile()
    assert boards_state() == before


def test_parallel_and_repeated_jobs_build_what_a_rebuild_builds():
    players = [make_player(f"c{i}")[0] for i in range(6)]
    rounds = [
        ranked(user, DAY + dt.timedelta(days=n), 150 + 7 * i + 13 * n, minute=n, record=False)
        for i, user in enumerate(players)
        for n in range(4)
        if (i + n) % 3
    ]
    jobs = [str(rnd.id) for rnd in rounds] * 2  # every job twice, in no particular order

    def run(round_id: str) -> None:
        try:
            services.board_record_round(round_id=round_id)
        finally:
            connection.close()  # each thread has its own connection

    with ThreadPoolExecutor(max_workers=6) as pool:
        list(pool.map(run, reversed(jobs)))
    incremental = boards_state()
    assert len(incremental[0]) > 30
    services.boards_reconcile()
    assert boards_state() == incremental


def test_a_value_nobody_holds_any_more_counts_for_no_rank():
    (a, client), (b, _), (c, _) = (make_player(n) for n in ("a", "b", "c"))
    ranked(a, DAY, 200)
    ranked(c, DAY, 150)
    ranked(a, DAY + dt.timedelta(days=1), 300)  # a's best moves from 200 to 300
    ranked(b, DAY + dt.timedelta(days=1), 250)
    with travel(noon(DAY + dt.timedelta(days=1), 30)):
        body = board(client, "best-day/")
    assert [(line["username"], line["rank"]) for line in body["results"]] == [
        ("a", 1),
        ("b", 2),
        ("c", 3),
    ]
    assert body["count"] == 3


def test_a_board_job_the_broker_lost_is_run_by_the_catch_up():
    # The broker is down at the moment a ranked round completes: the round is stored,
    # its job cannot be sent, and the periodic catch-up runs the update it owes.
    _, client = make_player("unlucky")
    with travel(noon(DAY)):
        state = client.post(f"/api/v1/daily/{DAY}/rounds/").json()

    with time_machine.travel(noon(DAY, 1), tick=True):
        with broker_down():
            final = play_round(client, state["id"])
        assert final["status"] == "completed"
        assert not BoardEntry.objects.exists()
        assert tasks.boards_catch_up.delay().get() == 0  # too soon: the job may yet come
    with travel(noon(DAY, 2)):
        assert tasks.boards_catch_up.delay().get() == 1
        assert tasks.boards_catch_up.delay().get() == 0
        body = board(client, "best-day/")
    assert body["me"]["value"] == final["total"]
    assert not PendingBoardUpdate.objects.exists()


def test_a_repeated_job_changes_nothing():
    user, _ = make_player()
    rnd = ranked(user, DAY, 321)
    before = boards_state()
    assert tasks.board_record_round.delay(str(rnd.id)).get() is None
    assert services.board_player_refresh(player_id=user.pk, day=DAY) == []
    assert boards_state() == before


def test_the_api_answers_with_the_cache_unreachable(settings):
    settings.CACHES = {
        "default": {
            "BACKEND": "django.core.cache.backends.redis.RedisCache",
            "LOCATION": "redis://127.0.0.1:1/0",
            "OPTIONS": {"socket_connect_timeout": 0.2, "socket_timeout": 0.2},
        }
    }
    user, client = make_player()
    ranked(user, DAY, 222)
    with travel(noon(DAY, 30)):
        values = {
            path: board(client, path)["me"]["value"]
            for path in (f"daily/{DAY}/", "best-day/", "streaks/", "advent/2026/")
        }
        assert client.get("/api/v1/advent/2026/").json()["total"] == 222
    assert values == {f"daily/{DAY}/": 222, "best-day/": 222, "streaks/": 1, "advent/2026/": 222}


def test_the_catch_up_runs_the_oldest_owed_updates_first_and_at_most_limit_a_run():
    players = [make_player(f"o{i}")[0] for i in range(3)]
    for i, user in enumerate(players):  # completed at 12:00, 12:10 and 12:20
        ranked(user, DAY, 200 + i, minute=10 * i, record=False)

    def on_board() -> set[str]:
        entries = BoardEntry.objects.filter(board="best")
        return set(entries.values_list("player__username", flat=True))

    with travel(noon(DAY, 30)):
        assert services.boards_catch_up(older_than=dt.timedelta(minutes=15), limit=1) == 1
        assert on_board() == {"o0"}
        assert services.boards_catch_up(older_than=dt.timedelta(minutes=15)) == 1
        assert on_board() == {"o0", "o1"}  # o2's update is only 10 minutes overdue
        assert services.boards_catch_up() == 1
        assert services.boards_catch_up() == 0
    assert on_board() == {"o0", "o1", "o2"}
    assert not PendingBoardUpdate.objects.exists()


RACERS = 8


def test_racing_final_scores_complete_a_ranked_round_once_and_owe_its_boards_one_update():
    # Every request has read the round before any of them stores (they meet at the
    # dice), and the broker is down, so the owed update stays for the catch-up to run.
    user, _ = make_player("racer")
    key = user_token_create(user=user)
    with travel(noon(DAY)):
        rnd, plan = ranked_start(user, DAY, 300)
        last = len(plan) - 1
        with scripted_dice([dice for _, dice in plan]):
            play(user, rnd, plan, range(last))
            game_services.round_roll(round_id=rnd.id, player=user, hold=(), turn=last, roll=0)

    def final_score(_index: int) -> int:
        http = APIClient()
        http.credentials(HTTP_AUTHORIZATION=f"Token {key}")
        try:
            body = {"category": plan[last][0], "turn": last}
            return http.post(f"/api/v1/rounds/{rnd.id}/score/", body, format="json").status_code
        finally:
            connection.close()

    meet = Barrier(RACERS)
    racing = scripted_dice([dice for _, dice in plan], rendezvous=meet)
    with travel(noon(DAY, 1)), broker_down(), racing, ThreadPoolExecutor(RACERS) as pool:
        statuses = sorted(pool.map(final_score, range(RACERS)))
    assert not meet.broken
    assert statuses == [200] + [409] * (RACERS - 1)
    rnd.refresh_from_db()
    assert (rnd.status, rnd.total, len(rnd.actions)) == ("completed", 300, 2 * len(plan))
    assert list(PendingBoardUpdate.objects.values_list("round_id", flat=True)) == [rnd.id]
    with travel(noon(DAY, 2)):
        assert tasks.boards_catch_up.delay().get() == 1
    assert set(BoardHistogram.objects.values_list("board", "value", "count")) == {
        (f"daily:{DAY}", 300, 1),
        ("best", 300, 1),
        ("streak", 1, 1),
        ("advent:2026", 300, 1),
    }


def test_a_ranked_round_completes_only_together_with_the_board_update_it_owes():
    # The owed update is recorded in the transaction that completes the round: when
    # that insert fails (here: a row for the round is already there), the round is not
    # completed either, and a retry completes it.
    user, _ = make_player()
    with travel(noon(DAY)):
        rnd, plan = ranked_start(user, DAY, 321)
        last = len(plan) - 1

        def final_score() -> None:
            game_services.round_score(
                round_id=rnd.id, player=user, category=plan[last][0], turn=last
            )

        with scripted_dice([dice for _, dice in plan]):
            play(user, rnd, plan, range(last))
            game_services.round_roll(round_id=rnd.id, player=user, hold=(), turn=last, roll=0)
            PendingBoardUpdate.objects.create(round=rnd)
            with pytest.raises(IntegrityError):
                final_score()
            rnd.refresh_from_db()
            assert (rnd.status, rnd.total, len(rnd.actions)) == ("in_progress", None, 2 * last + 1)
            assert not BoardEntry.objects.exists()
            PendingBoardUpdate.objects.all().delete()
            final_score()
    rnd.refresh_from_db()
    assert (rnd.status, rnd.total) == ("completed", 321)
    assert BoardEntry.objects.get(board=f"daily:{DAY}").value == 321
    assert not PendingBoardUpdate.objects.exists()


def test_one_job_runs_a_backlog_of_owed_updates_and_the_later_jobs_find_them_done(monkeypatch):
    # Five rounds completed while the broker was down; their jobs then arrive in the
    # order sent. The first runs its own update and the two oldest others in one
    # transaction (a batch of 3 here), their own jobs then find nothing owed.
    monkeypatch.setattr(services, "BOARD_BATCH_ROUNDS", 3)
    rounds = [
        ranked(make_player(f"b{i}")[0], DAY, 200 + i, minute=i, record=False) for i in range(5)
    ]
    statements = []
    with travel(noon(DAY, 10)):
        done = []
        for rnd in rounds:
            with CaptureQueriesContext(connection) as queries:
                done.append(services.board_record_round(round_id=str(rnd.id)))
            statements.append(len(queries))
    assert done == [3, 0, 0, 2, 0]
    # A batch's statements are shared by its rounds: three rounds cost what two cost.
    assert statements[0] == statements[3] > statements[1]
    assert not PendingBoardUpdate.objects.exists()
    assert daily_ranks(DAY) == {f"b{i}": 5 - i for i in range(5)}
    built = boards_state()
    services.boards_reconcile()
    assert boards_state() == built


def test_a_batch_of_one_player_s_two_owed_days_brings_both_days_lines():
    user, _ = make_player("twice")
    first = ranked(user, DAY, 210, record=False)
    ranked(user, DAY + dt.timedelta(days=1), 260, record=False)
    with travel(noon(DAY + dt.timedelta(days=1), 30)):
        assert services.board_record_round(round_id=str(first.id)) == 2
    lines = dict(BoardEntry.objects.filter(player=user).values_list("board", "value"))
    next_day = DAY + dt.timedelta(days=1)
    assert lines == {
        f"daily:{DAY}": 210,
        f"daily:{next_day}": 260,
        "best": 260,
        "streak": 2,
        "advent:2026": 470,
    }


def test_a_season_rebuild_the_broker_lost_is_run_by_the_catch_up():
    # A season created while the broker is down (or whose job a wiped Redis lost, or a
    # killed worker took with it): its boards were left without the rounds played before
    # it, until the nightly reconcile. The rebuild is owed in PostgreSQL; the catch-up
    # runs it once it has been owed too long for its job to come.
    early, _ = make_player("early")
    ranked(early, DAY, 250)
    with travel(noon(DAY, 5)):
        with broker_down(), transaction.atomic():
            season = Season.objects.create(
                name="December", slug="december", start_date=DAY, end_date=DAY
            )
            jobs.season_boards_schedule(season=season)
        assert not BoardEntry.objects.filter(board=f"season:{season.pk}:best").exists()
        tasks.boards_catch_up.delay().get()  # too soon: the job may yet come
        assert not BoardEntry.objects.filter(board=f"season:{season.pk}:best").exists()
    with travel(noon(DAY, 11)):
        tasks.boards_catch_up.delay().get()
    lines = dict(BoardEntry.objects.filter(player=early).values_list("board", "value"))
    assert lines[f"season:{season.pk}:best"] == 250
    season.refresh_from_db()
    assert season.boards_owed_at is None
    before = boards_state()
    services.boards_reconcile()
    assert boards_state() == before


def test_a_season_changed_during_its_rebuild_stays_owed():
    season = Season.objects.create(name="S", slug="s", start_date=DAY, end_date=DAY)
    with broker_down():
        jobs.season_boards_schedule(season=season)
    asked = Season.objects.get(pk=season.pk).boards_owed_at
    assert asked is not None
    real_reconcile = services.boards_reconcile

    def reconcile_while_asked_again(**kwargs):
        done = real_reconcile(**kwargs)
        with broker_down():
            jobs.season_boards_schedule(season=season)  # new dates saved meanwhile
        return done

    with pytest.MonkeyPatch.context() as patch:
        patch.setattr(services, "boards_reconcile", reconcile_while_asked_again)
        services.season_boards_rebuild(season_id=season.pk)
    assert Season.objects.get(pk=season.pk).boards_owed_at not in (None, asked)
    services.season_boards_rebuild(season_id=season.pk)
    assert Season.objects.get(pk=season.pk).boards_owed_at is None
