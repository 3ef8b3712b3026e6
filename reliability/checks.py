"""End-of-run checks against PostgreSQL (import after ``django.setup()``).

- every round: the stored action log is what the client applied, once each, and a
  replay of the log with the engine gives the stored snapshot and total;
- every board: equal to an independent recomputation from the Round table (plain
  Python over ``Round`` rows, not the leaderboards code), entries and histograms, and
  the API's pages show the same ranks;
- every collected response: no seed before its reveal, no die that was not rolled yet.
"""

from __future__ import annotations

import base64
import datetime as dt
import itertools
import json
from collections import Counter, defaultdict
from pathlib import Path
from typing import Any

import httpx
from django.db import close_old_connections
from django.db.models import Q

import yatzy
from daily import clock
from daily.models import Challenge
from games.models import Round
from leaderboards import boards
from leaderboards.models import BoardEntry, BoardHistogram, BoardHistogramBlock
from reliability.player import API, Exchange, PlayedRound


def check_rounds(played: list[PlayedRound], usernames: set[str]) -> tuple[int, list[str]]:
    """Compare each client's rounds with PostgreSQL and replay every stored round of
    the run's players. Returns (rounds checked, failures)."""
    close_old_connections()
    failures: list[str] = []
    stored = {
        str(r.id): r
        for r in Round.objects.filter(player__username__in=usernames).select_related("player")
    }
    for rnd in stored.values():
        ruleset = yatzy.get_ruleset(rnd.ruleset, **rnd.options)
        try:
            game = yatzy.Game.replay(ruleset, bytes(rnd.seed), rnd.actions)
        except yatzy.YatzyError as exc:
            failures.append(f"round {rnd.id}: its action log does not replay: {exc}")
            continue
        if game.snapshot() != rnd.snapshot:
            failures.append(f"round {rnd.id}: the stored snapshot differs from its replay")
        over = rnd.status == Round.Status.COMPLETED
        if game.is_over != over or (over and rnd.total != game.total):
            failures.append(
                f"round {rnd.id}: status {rnd.status} total {rnd.total}, replay "
                f"is_over={game.is_over} total {game.total}"
            )
    seen = set()
    for mine in played:
        seen.add(mine.id)
        rnd = stored.get(mine.id)
        if rnd is None:
            failures.append(f"round {mine.id} of {mine.username} is not stored")
            continue
        if rnd.actions != mine.actions:
            failures.append(
                f"round {mine.id}: stored {len(rnd.actions)} actions, the client applied "
                f"{len(mine.actions)}; first difference at "
                f"{_first_difference(rnd.actions, mine.actions)}"
            )
        if rnd.total != mine.total or rnd.status != mine.status or rnd.ranked != mine.ranked:
            failures.append(
                f"round {mine.id}: stored {rnd.status}/{rnd.total}/ranked={rnd.ranked}, "
                f"client saw {mine.status}/{mine.total}/ranked={mine.ranked}"
            )
    for extra in set(stored) - seen:
        failures.append(f"round {extra} is stored but no client played it")
    return len(stored), failures


def _first_difference(a: list, b: list) -> int:
    differ = (i for i, (x, y) in enumerate(zip(a, b, strict=False)) if x != y)
    return next(differ, min(len(a), len(b)))


def expected_boards() -> dict[str, dict[int, tuple[int, dt.datetime]]]:
    """The daily, best-day and streak boards recomputed from the Round table:
    ``{board: {player_id: (value, achieved_at)}}`` (streaks: achieved_at unchecked)."""
    close_old_connections()
    played: dict[int, list[tuple[dt.date, int, dt.datetime]]] = defaultdict(list)
    for player_id, day, total, at in Round.objects.filter(
        ranked=True, status=Round.Status.COMPLETED
    ).values_list("player_id", "challenge__date", "total", "completed_at"):
        played[player_id].append((day, total, at))
    expected: dict[str, dict[int, tuple[int, Any]]] = defaultdict(dict)
    for player_id, rounds in played.items():
        for day, total, at in rounds:
            expected[boards.daily_key(day)][player_id] = (total, at)
        best = min(rounds, key=lambda r: (-r[1], r[2]))
        expected[boards.BEST][player_id] = (best[1], best[2])
        days = sorted(d for d, _, _ in rounds)
        longest = run = 1
        for previous, day in itertools.pairwise(days):
            run = run + 1 if day == previous + dt.timedelta(days=1) else 1
            longest = max(longest, run)
        expected[boards.STREAK][player_id] = (longest, None)
    return expected


def board_differences() -> list[str]:
    """How the stored boards (entries and histograms) differ from the recomputation."""
    close_old_connections()
    expected = expected_boards()
    differences = []
    for key, want in sorted(expected.items()):
        have = {
            pid: (value, at)
            for pid, value, at in BoardEntry.objects.filter(board=key).values_list(
                "player_id", "value", "achieved_at"
            )
        }
        check_time = key != boards.STREAK
        for pid in sorted(set(want) | set(have)):
            w, h = want.get(pid), have.get(pid)
            if w is None or h is None or w[0] != h[0] or (check_time and w[1] != h[1]):
                differences.append(f"{key} player {pid}: stored {h}, recomputed {w}")
        histogram = dict(
            BoardHistogram.objects.filter(board=key, count__gt=0).values_list("value", "count")
        )
        if histogram != dict(Counter(v for v, _ in want.values())):
            differences.append(f"{key}: histogram {histogram} differs from the entries")
        blocks = dict(
            BoardHistogramBlock.objects.filter(board=key, count__gt=0).values_list("block", "count")
        )
        if blocks != dict(Counter(BoardHistogramBlock.of(v) for v, _ in want.values())):
            differences.append(f"{key}: histogram blocks {blocks} differ from the entries")
    return differences


def api_board_differences(url: str, token: str, day: str) -> tuple[int, list[str]]:
    """Page through the API's board of ``day`` and compare order, values and competition
    ranks with the recomputation. Returns (entries read, differences)."""
    want = expected_boards().get(boards.daily_key(dt.date.fromisoformat(day)), {})
    names = dict(
        Round.objects.filter(player_id__in=want).values_list("player_id", "player__username")
    )
    order = sorted(want, key=lambda pid: (-want[pid][0], want[pid][1], pid))
    expected = []
    for pid in order:
        value = want[pid][0]
        rank = 1 + sum(1 for v, _ in want.values() if v > value)
        expected.append((names[pid], value, rank))
    got = []
    path: str | None = f"{url}{API}/leaderboards/daily/{day}/"
    with httpx.Client(headers={"Authorization": f"Token {token}"}, timeout=30) as http:
        while path:
            page = http.get(path)
            if page.status_code != 200:
                return len(got), [f"GET {path}: {page.status_code} {page.text[:200]}"]
            body = page.json()
            got += [(e["username"], e["value"], e["rank"]) for e in body["results"]]
            path = body["next"]
    if got == expected and body["count"] == len(expected):
        return len(got), []
    missing = [e for e in expected if e not in got][:5]
    unexpected = [e for e in got if e not in expected][:5]
    return len(got), [
        f"API board {day}: {len(got)} entries (count {body['count']}), recomputed "
        f"{len(expected)}; missing {missing}, unexpected {unexpected}"
    ]


def scan_for_leaks(exchanges: list[Exchange]) -> tuple[int, list[str]]:
    """Every collected response of the (unrevealed) day: the seed appears nowhere, and
    every round view shows only dice its own action log has rolled."""
    close_old_connections()
    failures: list[str] = []
    day = clock.today()
    challenge = Challenge.objects.get(date=day)
    if clock.is_revealed(day):
        return 0, ["the day under test is already revealed; nothing to scan"]
    seed = bytes(challenge.seed)
    secrets_ = {seed.hex(), seed.hex().upper(), base64.b64encode(seed).decode()}
    # Every round of the run: the day's, and the solo and computer games, whose seeds
    # are their own (shown once the game is over).
    final = {
        str(r.id): (r.actions, bytes(r.seed), r.ruleset, r.options, r.challenge_id is None)
        for r in Round.objects.filter(Q(challenge=challenge) | Q(challenge__isnull=True))
    }
    unfinished_seeds = {
        stored[1].hex() for stored in final.values() if stored[4] and not _is_over(stored)
    }
    for exchange in exchanges:
        where = f"{exchange.method} {exchange.path} ({exchange.status})"
        if any(secret in exchange.body for secret in unfinished_seeds):
            failures.append(f"{where}: the body contains the seed of an unfinished game")
        if any(secret in exchange.body for secret in secrets_):
            failures.append(f"{where}: the body contains the unrevealed seed")
        try:
            body = json.loads(exchange.body)
        except ValueError:
            continue
        for view in _round_views(body):
            problem = _round_view_problem(view, final)
            if problem:
                failures.append(f"{where}: {problem}")
        # A day's challenge (GET daily/): never its seed before the reveal. (Round views
        # are checked above: a game's own seed is shown once it is over.)
        challenge = isinstance(body, dict) and "commitment" in body and "actions" not in body
        if challenge and body.get("seed") is not None:
            failures.append(f"{where}: a seed is shown before the reveal")
    return len(exchanges), failures


def scan_logs_for_seed(paths: list[Path]) -> tuple[int, list[str]]:
    """Every log of the stack (PostgreSQL, web, worker, beat): the unrevealed seed of
    the day appears in none, in any of the forms it could be written in."""
    close_old_connections()
    seed = bytes(Challenge.objects.get(date=clock.today()).seed)
    secrets_ = [seed.hex(), seed.hex().upper(), base64.b64encode(seed).decode()]
    failures = []
    for path in paths:
        text = path.read_text(errors="replace")
        if any(secret in text for secret in secrets_):
            failures.append(f"{path.name}: contains the unrevealed seed of the day")
    return len(paths), failures


def _is_over(stored: tuple) -> bool:
    actions, seed, ruleset, options, _ = stored
    return yatzy.Game.replay(yatzy.get_ruleset(ruleset, **options), seed, actions).is_over


def _round_views(body: Any) -> list[dict[str, Any]]:
    if not isinstance(body, dict):
        return []
    views = []
    for candidate in (body, body.get("current")):
        if isinstance(candidate, dict) and "actions" in candidate and "dice" in candidate:
            views.append(candidate)
    return views


def _round_view_problem(view: dict[str, Any], final: dict[str, tuple]) -> str | None:
    stored = final.get(view.get("id", ""))
    if stored is None:
        return f"round {view.get('id')} is not a round of the day"
    actions, seed, ruleset, options, own_seed = stored
    shown = view["actions"]
    if shown != actions[: len(shown)]:
        return f"round {view['id']}: the shown log is not a prefix of the stored log"
    game = yatzy.Game.replay(yatzy.get_ruleset(ruleset, **options), seed, shown)
    if view["dice"] != list(game.dice):
        return f"round {view['id']}: shows dice {view['dice']}, its log rolled {list(game.dice)}"
    if view.get("seed") is not None and not (own_seed and game.is_over):
        return f"round {view['id']}: shows its seed before the reveal"
    return None
