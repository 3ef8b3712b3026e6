"""Helpers for board tests: completed ranked rounds with chosen scores and times.

A round is played through the same services the API calls (``games.services``), so
completing it runs the production path: the hook ``games.hooks.ranked_round_completed``
records the owed update (``PendingBoardUpdate``) and sends the board job once the
round's transaction commits. These tests run with real commits (``transaction=True``),
and in-process jobs run eagerly, so the job runs at that commit, as in production.
"""

from __future__ import annotations

import datetime as dt
import functools
import itertools
import threading
from collections.abc import Iterable, Iterator
from contextlib import ExitStack, contextmanager, nullcontext
from unittest import mock

import celery
import pytest
import time_machine
from django.db import connection
from kombu.exceptions import OperationalError as KombuOperationalError

import yatzy
from accounts.models import User
from games import services as game_services
from games.models import Round
from leaderboards import tasks
from leaderboards.models import PendingBoardUpdate
from tests.live.conftest import (  # noqa: F401  (the live-stack fixtures, for test_live_workers)
    live_stack,
    live_stack_factory,
    settings_override_for_live,
)
from yatzy.rules import FACES, UPPER_CATEGORIES, Dice

UTC = dt.UTC


def noon(day: dt.date, minute: int = 0) -> dt.datetime:
    return dt.datetime.combine(day, dt.time(12, minute), tzinfo=UTC)


def travel(moment: dt.datetime):
    return time_machine.travel(moment, tick=False)


def ranked(
    player: User,
    day: dt.date,
    total: int,
    minute: int = 0,
    *,
    at: dt.datetime | None = None,
    record: bool = True,
) -> Round:
    """``player``'s ranked round of ``day``, started and completed at noon+``minute`` UTC
    of that day (or at ``at``, which must lie on ``day`` in the daily time zone) and worth
    exactly ``total``: played box by box through ``round_roll``/``round_score`` with the
    dice scripted (one roll a turn) so each box scores what :func:`box_plan` chose.

    ``record=False`` is a broker outage at that moment: the round completes and owes its
    board update (the ``PendingBoardUpdate`` row stays), but the job cannot be sent
    (``enqueue_on_commit`` logs the failure), so no board hears of it until a catch-up,
    a day close or a reconcile.
    """
    moment = at or noon(day, minute)
    with travel(moment), broker_down() if not record else nullcontext():
        rnd, plan = ranked_start(player, day, total)
        with scripted_dice([dice for _, dice in plan]):
            play(player, rnd, plan, range(len(plan)))
    rnd.refresh_from_db()
    assert (rnd.status, rnd.total, rnd.completed_at) == (Round.Status.COMPLETED, total, moment)
    owed = PendingBoardUpdate.objects.filter(round=rnd).exists()
    assert owed is not record, f"board update still owed: {owed}"
    return rnd


def ranked_start(player: User, day: dt.date, total: int) -> tuple[Round, list[tuple[str, Dice]]]:
    """Start ``player``'s ranked round of ``day`` now, and plan it to end at ``total``
    (:func:`box_plan`)."""
    rnd, created = game_services.round_start_daily(player=player, day=day)
    assert created and rnd.ranked, f"{player} already has a round on {day}"
    return rnd, box_plan(yatzy.Game.from_snapshot(rnd.snapshot).ruleset, total)


def play(player: User, rnd: Round, plan: list[tuple[str, Dice]], turns: Iterable[int]) -> None:
    """Play these turns of the plan through the services the API calls: one roll, then
    the planned box (inside :func:`scripted_dice` of the plan's dice)."""
    for turn in turns:
        game_services.round_roll(round_id=rnd.id, player=player, hold=(), turn=turn, roll=0)
        game_services.round_score(round_id=rnd.id, player=player, category=plan[turn][0], turn=turn)


@contextmanager
def broker_down() -> Iterator[None]:
    """A broker outage for the board jobs: sending any of them fails as a refused Redis
    connection does (``enqueue_on_commit`` logs it; the data has committed)."""

    def refused(*args: object) -> None:
        raise KombuOperationalError("Error 111 connecting to redis: Connection refused.")

    jobs = [job for job in vars(tasks).values() if isinstance(job, celery.Task)]
    with ExitStack() as stack:
        for job in jobs:
            stack.enter_context(mock.patch.object(job, "delay", refused))
        yield


@contextmanager
def scripted_dice(
    turns: list[Dice], *, rendezvous: threading.Barrier | None = None
) -> Iterator[None]:
    """Every roll of turn ``n`` shows ``turns[n]``, through the engine's one source of
    dice (``yatzy.Game._draw``), also when a round is restored from its snapshot.

    With ``rendezvous``, each thread's first draw waits for the barrier: a request draws
    between reading the round and storing its action (restoring a rolled turn draws its
    dice again), so every racing request has read the round before any of them writes."""
    waited = threading.local()

    def draw(game: yatzy.Game, turn: int, roll: int, count: int) -> Dice:
        if rendezvous is not None and not getattr(waited, "done", False):
            waited.done = True
            rendezvous.wait(timeout=10)
        return turns[turn][:count]

    with mock.patch.object(yatzy.Game, "_draw", draw):
        yield


def waiting_on_me() -> bool:
    """PostgreSQL: whether another connection waits for a lock this one holds."""
    with connection.cursor() as cursor:
        cursor.execute(
            "SELECT COUNT(*) FROM pg_locks WHERE NOT granted"
            " AND pg_backend_pid() = ANY(pg_blocking_pids(pid))"
        )
        return cursor.fetchone()[0] > 0


def box_plan(rules: yatzy.Ruleset, total: int) -> list[tuple[str, Dice]]:
    """Boxes in the order to fill them, each with dice that score the points chosen for
    it, so the round ends at exactly ``total`` (upper bonus included). The yatzy box is
    filled last, so no later all-equal throw can earn an extra-yatzy bonus."""
    table = _dice_by_points(rules)
    upper = [box for box in rules.categories if box in UPPER_CATEGORIES]
    lower = [box for box in rules.categories if box not in UPPER_CATEGORIES]
    lower.sort(key=lambda box: box == rules.yatzy_category)
    threshold, bonus = rules.upper_bonus
    upper_sums, lower_sums = _sums(rules, tuple(upper)), _sums(rules, tuple(lower))
    for upper_sum, upper_points in upper_sums.items():
        lower_points = lower_sums.get(total - upper_sum - (bonus if upper_sum >= threshold else 0))
        if lower_points is not None:
            points = [*upper_points, *lower_points]
            return [(box, table[box][p]) for box, p in zip(upper + lower, points, strict=True)]
    raise ValueError(f"no {rules.name} round totals {total}")


@functools.cache
def _dice_by_points(rules: yatzy.Ruleset) -> dict[str, dict[int, Dice]]:
    """For every box, each score it can get and dice that give it (not all equal where
    other dice give the same score)."""
    table: dict[str, dict[int, Dice]] = {box: {} for box in rules.categories}
    throws = itertools.combinations_with_replacement(FACES, rules.dice_count)
    for dice in sorted(throws, key=lambda d: d[0] == d[-1]):
        for box, points in rules.scores(dice).items():
            table[box].setdefault(points, dice)
    return table


@functools.cache
def _sums(rules: yatzy.Ruleset, boxes: tuple[str, ...]) -> dict[int, tuple[int, ...]]:
    """Every sum these boxes can reach, with one choice of points per box."""
    table = _dice_by_points(rules)
    reach: dict[int, tuple[int, ...]] = {0: ()}
    for box in boxes:
        reach = {
            s + p: (*chosen, p)
            for s, chosen in sorted(reach.items(), reverse=True)
            for p in sorted(table[box], reverse=True)
        }
    return reach


@pytest.fixture(autouse=True)
def _fast_passwords(settings):
    settings.PASSWORD_HASHERS = ["django.contrib.auth.hashers.MD5PasswordHasher"]


def board(client, path: str, **params) -> dict:
    response = client.get(f"/api/v1/leaderboards/{path}", params)
    assert response.status_code == 200, response.content
    return response.json()


def names(body: dict) -> list[str]:
    return [line["username"] for line in body["results"]]


def ranks(body: dict) -> list[int]:
    return [line["rank"] for line in body["results"]]
