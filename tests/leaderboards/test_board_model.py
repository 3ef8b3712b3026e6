"""Every board against a plain model of SPEC §5/§6, step by step.

A Hypothesis state machine drives the real services (rounds started, played to the end,
left unfinished, practice and replays, friend rounds, days closing, seasons created,
moved and deleted, players renamed and deleted, the clock moving across days and into
December) and after each step reads every board through the API: all its pages by
number and by the ``next`` links, the caller's ``me``, and ``?around=me``. The expected
boards come from the model below, written from the spec's text: a player's first round
started on a challenge's own day is ranked and counts once completed; competition
ranks (1, 2, 2, 4); within a tie the earlier achievement first (then the player id, as
``docs/leaderboards.md`` decides).
"""

from __future__ import annotations

import datetime as dt
import os
from dataclasses import dataclass, field

import pytest
from django.db import transaction
from hypothesis import HealthCheck, settings
from hypothesis import strategies as st
from hypothesis.stateful import (
    RuleBasedStateMachine,
    initialize,
    invariant,
    precondition,
    rule,
    run_state_machine_as_test,
)
from rest_framework.test import APIClient

import yatzy
from accounts.models import User
from accounts.services import user_delete, user_update
from daily.models import Challenge
from games import services as game_services
from games import tasks as game_tasks
from games.models import Round
from leaderboards import jobs, selectors, services
from leaderboards.models import BoardEntry, BoardHistogram, BoardHistogramBlock, Season
from tests.factories import make_player
from tests.leaderboards.conftest import box_plan, play, scripted_dice, travel
from tests.leaderboards.state import boards_state

pytestmark = pytest.mark.django_db(transaction=True)

UTC = dt.UTC
GRACE = dt.timedelta(minutes=30)
PAGE = 2  # small pages, so ties span page boundaries
AROUND = 3
START = dt.datetime(2026, 11, 28, 23, 0, tzinfo=UTC)
TOTALS = [150, 200, 200, 250]
PLAYS = st.lists(
    st.tuples(st.sampled_from(TOTALS), st.sampled_from(["finish", "finish", "leave", "skip"])),
    min_size=6,
    max_size=6,
)


# ---------------------------------------------------------------- the model (SPEC §5/§6)


@dataclass
class Done:
    day: dt.date
    total: int
    at: dt.datetime


@dataclass
class MPlayer:
    user: User
    client: APIClient
    name: str
    started: set[dt.date] = field(default_factory=set)  # days they started a round on the day
    ranked: dict[dt.date, Done] = field(default_factory=dict)
    open_round: tuple[Round, dt.date, bool, list] | None = None  # (round, day, ranked, plan)


def _order(lines: dict[int, tuple[int, dt.datetime]]) -> list[tuple[int, int, int]]:
    """[(player id, value, rank)] in board order: value desc, earlier achievement, id."""
    ordered = sorted(lines.items(), key=lambda kv: (-kv[1][0], kv[1][1], kv[0]))
    out = []
    for position, (pid, (value, _)) in enumerate(ordered):
        rank = position + 1 if position == 0 or out[-1][1] != value else out[-1][2]
        out.append((pid, value, rank))
    return out


def _runs(days: list[Done]) -> list[tuple[int, dt.date, dt.datetime]]:
    runs: list[tuple[int, dt.date, dt.datetime]] = []
    for d in sorted(days, key=lambda d: d.day):
        if runs and runs[-1][1] == d.day - dt.timedelta(days=1):
            n, _, at = runs[-1]
            runs[-1] = (n + 1, d.day, max(at, d.at))
        else:
            runs.append((1, d.day, d.at))
    return runs


class Model:
    def __init__(self) -> None:
        self.players: dict[int, MPlayer] = {}

    def _played(self, p: MPlayer, first: dt.date, last: dt.date) -> list[Done]:
        return [d for d in p.ranked.values() if first <= d.day <= last]

    def daily(self, day: dt.date) -> dict[int, tuple[int, dt.datetime]]:
        return {
            pid: (p.ranked[day].total, p.ranked[day].at)
            for pid, p in self.players.items()
            if day in p.ranked
        }

    def best(self, first=dt.date.min, last=dt.date.max):
        lines = {}
        for pid, p in self.players.items():
            mine = self._played(p, first, last)
            if mine:
                top = max(d.total for d in mine)
                lines[pid] = (top, min(d.at for d in mine if d.total == top))
        return lines

    def streak(self, today: dt.date, first=dt.date.min, last=dt.date.max):
        lines, current = {}, {}
        for pid, p in self.players.items():
            runs = _runs(self._played(p, first, last))
            if runs:
                longest = max(r[0] for r in runs)
                lines[pid] = (longest, min(r[2] for r in runs if r[0] == longest))
                n, end, _ = runs[-1]
                # The run ending today, or yesterday while today's round can still count.
                possible = today <= last
                ok = end == today or (end == today - dt.timedelta(days=1) and possible)
                current[pid] = n if ok else 0
        return lines, current

    def advent(self, year: int, first=dt.date.min, last=dt.date.max):
        lo, hi = max(dt.date(year, 12, 1), first), min(dt.date(year, 12, 24), last)
        lines = {}
        for pid, p in self.players.items():
            mine = self._played(p, lo, hi)
            if mine:
                lines[pid] = (sum(d.total for d in mine), max(d.at for d in mine))
        return lines


# ---------------------------------------------------------------- the machine


def _get(client: APIClient, url: str, **params) -> tuple[int, dict]:
    response = client.get(url, params)
    return response.status_code, response.json()


class Boards(RuleBasedStateMachine):
    def __init__(self) -> None:
        super().__init__()
        for model in (BoardEntry, BoardHistogram, BoardHistogramBlock, Season, Round, Challenge):
            model.objects.all().delete()
        User.objects.all().delete()
        self.now = START
        self.model = Model()
        self.seasons: dict[int, tuple[dt.date, dt.date]] = {}
        self.count = 0
        self.observer, self.observer_client = make_player("observer")

    # -- clock

    def today(self) -> dt.date:
        return self.now.date()

    def playable(self, day: dt.date) -> bool:
        """A round of ``day`` may still be finished (the day, then the grace period)."""
        end = dt.datetime.combine(day + dt.timedelta(days=1), dt.time.min, tzinfo=UTC)
        return self.now < end + GRACE

    @initialize(n=st.integers(3, 5))
    def players(self, n: int) -> None:
        for _ in range(n):
            self._new_player()

    def _new_player(self) -> None:
        self.count += 1
        name = f"p{self.count}"
        user, client = make_player(name)
        self.model.players[user.pk] = MPlayer(user, client, name)

    @rule(minutes=st.sampled_from([1, 20, 40, 6 * 60, 24 * 60, 24 * 60, 48 * 60]), plays=PLAYS)
    def advance(self, minutes: int, plays: list[tuple[int, str]]) -> None:
        """The clock moves on (the beat closes the days due), and players play."""
        self.now += dt.timedelta(minutes=minutes)
        with travel(self.now):
            game_tasks.days_close_due.delay().get()
        self.today_rounds(plays)

    @precondition(lambda self: self.now >= dt.datetime(2026, 12, 20, tzinfo=UTC))
    @rule()
    def next_december(self) -> None:
        """Jump to the end of next November (across a year's boundary)."""
        year = self.now.year + (1 if self.now.month >= 11 else 0)
        target = dt.datetime(year, 11, 30, 23, 45, tzinfo=UTC)
        if target > self.now:
            self.now = target
        with travel(self.now):
            game_tasks.days_close_due.delay().get()

    # -- rounds

    def _pick(self, data, want_open: bool | None = None) -> MPlayer | None:
        players = [
            p
            for p in self.model.players.values()
            if want_open is None or (p.open_round is not None) == want_open
        ]
        return data.draw(st.sampled_from(players)) if players else None

    def _start(self, p: MPlayer, day: dt.date, total: int, share_code: str | None = None) -> None:
        ranked = day == self.today() and day not in p.started
        with travel(self.now):
            if share_code is None:
                rnd, created = game_services.round_start_daily(player=p.user, day=day)
            else:
                rnd, created = game_services.friend_round_start(
                    code=share_code, player=p.user, view="blind"
                )
        assert created and rnd.ranked == ranked, (rnd.ranked, ranked)
        if day == self.today():
            p.started.add(day)
        plan = box_plan(yatzy.Game.from_snapshot(rnd.snapshot).ruleset, total)
        p.open_round = (rnd, day, ranked, plan)

    def _finish(self, p: MPlayer) -> None:
        assert p.open_round is not None
        rnd, day, ranked, plan = p.open_round
        with travel(self.now), scripted_dice([dice for _, dice in plan]):
            play(p.user, rnd, plan, range(len(plan)))
        rnd.refresh_from_db()
        assert rnd.status == Round.Status.COMPLETED
        if ranked:
            p.ranked[day] = Done(day, rnd.total, self.now)
        p.open_round = None

    @rule(plays=PLAYS)
    def today_rounds(self, plays: list[tuple[int, str]]) -> None:
        """Players without an unfinished round start today's (ranked if their first of
        the day, else practice) and play it to the end, or leave it unfinished; each
        finishes a minute after the one before, every second one in the same minute."""
        idle = [p for p in self.model.players.values() if p.open_round is None]
        for n, (p, (total, how)) in enumerate(zip(idle, plays, strict=False)):
            if how == "skip":
                continue
            self._start(p, self.today(), total)
            if how == "finish":
                self._finish(p)
            if n % 2:
                self.now += dt.timedelta(minutes=1)

    @rule(data=st.data())
    def finish_open_round(self, data) -> None:
        """Finish an unfinished round, if it still may be (else it expired: forget it)."""
        p = self._pick(data, want_open=True)
        if p is None:
            return
        _, day, ranked, _ = p.open_round
        if ranked and not self.playable(day):
            p.open_round = None  # expired without a score; the day's close stores it so
            return
        self._finish(p)

    @rule(data=st.data(), back=st.integers(1, 5), total=st.sampled_from(TOTALS))
    def replay(self, data, back: int, total: int) -> None:
        """An unranked replay of a past day that had a challenge."""
        p = self._pick(data, want_open=False)
        day = self.today() - dt.timedelta(days=back)
        if p is None or not Challenge.objects.filter(date=day).exists():
            return
        self._start(p, day, total)
        self._finish(p)

    @rule(data=st.data(), total=st.sampled_from(TOTALS))
    def friend_round(self, data, total: int) -> None:
        """A friend plays a shared ranked round of today: their daily round."""
        sharers = [
            (p, done)
            for p in self.model.players.values()
            if (done := p.ranked.get(self.today())) is not None
        ]
        friends = [p for p in self.model.players.values() if p.open_round is None]
        if not sharers or not friends:
            return
        sharer, _ = data.draw(st.sampled_from(sharers))
        friend = data.draw(st.sampled_from(friends))
        if friend is sharer:
            return
        rnd = Round.objects.get(player=sharer.user, challenge__date=self.today(), ranked=True)
        with travel(self.now):
            code = game_services.share_create(round_id=rnd.id, player=sharer.user).code
        self._start(friend, self.today(), total, share_code=code)
        self._finish(friend)

    # -- players

    @rule(data=st.data())
    def rename(self, data) -> None:
        p = self._pick(data)
        if p is None:
            return
        self.count += 1
        p.name = f"renamed{self.count}"
        with travel(self.now):
            user_update(user=p.user, data={"display_name": p.name})

    @precondition(lambda self: len(self.model.players) > 2)
    @rule(data=st.data())
    def delete_player(self, data) -> None:
        p = self._pick(data)
        assert p is not None
        pid = p.user.pk
        with travel(self.now):
            user_delete(user=p.user)
        del self.model.players[pid]

    @precondition(lambda self: len(self.model.players) < 6)
    @rule()
    def join(self) -> None:
        self._new_player()

    # -- seasons (as the admin saves them: the rebuild enqueued on commit)

    @rule(start=st.integers(-6, 2), length=st.integers(0, 8))
    def season_create(self, start: int, length: int) -> None:
        first = self.today() + dt.timedelta(days=start)
        last = first + dt.timedelta(days=length)
        with travel(self.now), transaction.atomic():
            self.count += 1
            season = Season.objects.create(
                name=f"S{self.count}", slug=f"s{self.count}", start_date=first, end_date=last
            )
            jobs.season_boards_schedule(season=season)
        self.seasons[season.pk] = (first, last)

    @precondition(lambda self: bool(self.seasons))
    @rule(data=st.data(), shift=st.integers(-3, 3), length=st.integers(0, 8))
    def season_edit(self, data, shift: int, length: int) -> None:
        pk = data.draw(st.sampled_from(sorted(self.seasons)))
        first = self.seasons[pk][0] + dt.timedelta(days=shift)
        last = first + dt.timedelta(days=length)
        with travel(self.now), transaction.atomic():
            season = Season.objects.get(pk=pk)
            season.start_date, season.end_date = first, last
            season.save()
            jobs.season_boards_schedule(season=season)
        self.seasons[pk] = (first, last)

    @precondition(lambda self: bool(self.seasons))
    @rule(data=st.data())
    def season_remove(self, data) -> None:
        pk = data.draw(st.sampled_from(sorted(self.seasons)))
        with travel(self.now):
            services.season_delete(season=Season.objects.get(pk=pk))
        del self.seasons[pk]

    # -- checks

    def _expect(self, path: str, lines, current=None, season: int | None = None) -> None:
        order = _order(lines)
        params = {} if season is None else {"season": str(season)}
        with travel(self.now):
            got, url, page = [], f"/api/v1/leaderboards/{path}", 1
            while True:  # by number
                status, body = _get(self.observer_client, url, page=page, **params)
                assert status == 200, (path, body)
                assert body["count"] == len(order), (path, body)
                assert body["me"] is None
                got += body["results"]
                assert len(body["results"]) <= PAGE
                if body["next"] is None:
                    break
                page += 1
            status, body = _get(self.observer_client, url, page=page + 1, **params)
            assert status == 404 and body["code"] == "invalid_page", (path, page, body)
            linked, link = [], f"{url}?{'&'.join(f'{k}={v}' for k, v in params.items())}"
            while link:  # by the next links
                response = self.observer_client.get(link)
                assert response.status_code == 200, response.content
                linked += response.json()["results"]
                link = response.json()["next"]
            assert linked == got, path
            expected = [(self.model.players[pid].name, value, rank) for pid, value, rank in order]
            assert [(g["display_name"], g["value"], g["rank"]) for g in got] == expected, path
            if current is not None:
                want = [current[pid] for pid, _, _ in order]
                assert [g["current"] for g in got] == want, (path, self.now)
            # around=me and me, for every player
            position = {pid: i for i, (pid, _, _) in enumerate(order)}
            for pid, p in self.model.players.items():
                status, body = _get(p.client, url, around="me", **params)
                assert status == 200, body
                if pid not in position:
                    assert body["results"] == [] and body["me"] is None, (path, p.name)
                    continue
                i = position[pid]
                n = min(AROUND, len(order))
                first = min(max(i - (AROUND - 1) // 2, 0), len(order) - n)
                window = [got[j]["display_name"] for j in range(first, first + n)]
                assert [r["display_name"] for r in body["results"]] == window, (path, p.name)
                assert body["me"] == got[i], (path, p.name)

    @invariant()
    def boards_match_the_model(self) -> None:
        today = self.today()
        days = sorted({d for p in self.model.players.values() for d in p.ranked})
        for day in days:
            self._expect(f"daily/{day}/", self.model.daily(day))
        self._expect("best-day/", self.model.best())
        lines, current = self.model.streak(today)
        self._expect("streaks/", lines, current)
        years = {d.year for d in days if d.month == 12} | {today.year}
        for year in years:
            self._expect(f"advent/{year}/", self.model.advent(year))
        for pk, (first, last) in self.seasons.items():
            self._expect("best-day/", self.model.best(first, last), season=pk)
            lines, current = self.model.streak(today, first, last)
            self._expect("streaks/", lines, current, season=pk)
            for year in years:
                if first <= dt.date(year, 12, 24) and last >= dt.date(year, 12, 1):
                    self._expect(f"advent/{year}/", self.model.advent(year, first, last), season=pk)
                else:
                    with travel(self.now):
                        status, body = _get(
                            self.observer_client,
                            f"/api/v1/leaderboards/advent/{year}/",
                            season=str(pk),
                        )
                    assert status == 404 and body["code"] == "advent_not_in_season"
            for day in days:
                with travel(self.now):
                    status, body = _get(
                        self.observer_client, f"/api/v1/leaderboards/daily/{day}/", season=str(pk)
                    )
                if first <= day <= last:
                    assert status == 200 and body["count"] == len(self.model.daily(day))
                else:
                    assert status == 404 and body["code"] == "date_not_in_season"

    def teardown(self) -> None:
        # What the incremental updates built is what a rebuild from the rounds builds.
        if not hasattr(self, "model"):
            return
        incremental = boards_state()
        with travel(self.now):
            services.boards_reconcile()
        assert boards_state() == incremental


def test_every_board_follows_the_spec_model(settings, monkeypatch):
    settings.REST_FRAMEWORK = {**settings.REST_FRAMEWORK, "PAGE_SIZE": PAGE}
    monkeypatch.setattr(selectors, "AROUND_SIZE", AROUND)
    settings.DAILY_GRACE = GRACE
    run_state_machine_as_test(
        Boards,
        settings=settings_profile,
    )


settings_profile = settings(
    max_examples=int(os.environ.get("BOARD_MODEL_EXAMPLES", "20")),
    stateful_step_count=25,
    deadline=None,
    derandomize=not os.environ.get("BOARD_MODEL_EXAMPLES"),
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.filter_too_much],
)
