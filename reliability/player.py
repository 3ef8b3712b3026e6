"""Simulated players: register, start the day's rounds and play them to the end over
HTTP, retrying through outages the way a careful client must.

A request whose outcome is unknown (a timeout, a dropped connection, a 503) is sent
again unchanged: its ``turn``/``roll`` precondition makes the retry safe. A 409 then
means "an earlier attempt was applied": the client resyncs from the ``current`` state
in the answer and checks that the action appears in the log exactly once. Everything the
client believes it applied is kept, to be compared with what PostgreSQL stored.
"""

from __future__ import annotations

import asyncio
import json
import random
import secrets
import time
from collections import Counter
from dataclasses import dataclass, field
from typing import Any

import httpx

API = "/api/v1"
# An action may be retried for this long before the client gives up (a failure).
ACTION_DEADLINE_S = 90.0
BACKOFF_MAX_S = 2.0


@dataclass
class Exchange:
    """One HTTP response as the client saw it (kept for the leak scan)."""

    method: str
    path: str
    status: int
    body: str


@dataclass
class PlayedRound:
    id: str
    username: str
    ranked: bool
    actions: list[dict[str, Any]]
    total: int | None
    status: str
    day: str | None = None  # a daily round's date


@dataclass
class Tally:
    """What all clients saw, shared by every player of a run."""

    requests: int = 0
    statuses: Counter = field(default_factory=Counter)
    transport_errors: Counter = field(default_factory=Counter)
    unavailable_codes: Counter = field(default_factory=Counter)
    retries: int = 0
    resynced_409: int = 0
    resynced_other: int = 0
    duplicates: int = 0
    failures: list[str] = field(default_factory=list)
    # (seconds since the start, what happened) for each timeout or dropped connection
    incidents: list[tuple[float, str]] = field(default_factory=list)
    started: float = field(default_factory=time.monotonic)
    exchanges: list[Exchange] = field(default_factory=list)
    rounds: list[PlayedRound] = field(default_factory=list)
    # Friend codes the players shared (with who shared them), for others to play.
    codes: list[tuple[str, str]] = field(default_factory=list)
    players: int = 0
    usernames: set[str] = field(default_factory=set)

    def fail(self, message: str) -> None:
        if len(self.failures) < 200:
            self.failures.append(message)

    def errors(self) -> int:
        """Responses that are never acceptable: any 5xx but a 503 with a code."""
        bad = sum(n for status, n in self.statuses.items() if status >= 500 and status != 503)
        return bad + self.statuses.get(503, 0) - sum(self.unavailable_codes.values())

    def figures(self, elapsed: float) -> dict[str, Any]:
        """What the report shows of a phase's play."""
        return {
            "players": self.players,
            "rounds_played": len(self.rounds),
            "requests": self.requests,
            "elapsed_s": round(elapsed, 1),
            "requests_per_s": round(self.requests / elapsed, 1) if elapsed else None,
            "statuses": {str(k): v for k, v in sorted(self.statuses.items())},
            "transport_errors": dict(self.transport_errors),
            "unavailable_503_codes": dict(self.unavailable_codes),
            "retries": self.retries,
            "resynced_after_409": self.resynced_409,
            "resynced_otherwise": self.resynced_other,
            "duplicates_sent": self.duplicates,
            "server_errors": self.errors(),
        }


class Player:
    """One simulated player. ``strict`` (the plain load run) treats any retry as a
    failure: with no fault injected, every request must succeed the first time."""

    def __init__(
        self,
        http: httpx.AsyncClient,
        tally: Tally,
        *,
        name: str,
        rng: random.Random,
        strict: bool,
        duplicate_rate: float = 0.0,
    ) -> None:
        self.http = http
        self.tally = tally
        self.name = name
        self.password = secrets.token_urlsafe(16)
        self.rng = rng
        self.strict = strict
        self.duplicate_rate = duplicate_rate
        self.headers: dict[str, str] = {}

    async def call(
        self, method: str, path: str, body: dict | None = None
    ) -> tuple[httpx.Response, bool]:
        """Send until a definite answer; returns it and whether an earlier attempt's
        outcome was unknown (it may have been applied)."""
        uncertain = False
        deadline = time.monotonic() + ACTION_DEADLINE_S
        attempt = 0
        while True:
            attempt += 1
            if attempt > 1:
                self.tally.retries += 1
                if self.strict:
                    self.tally.fail(f"retry needed without a fault: {method} {path}")
            if time.monotonic() > deadline:
                raise RuntimeError(f"{method} {path}: no definite answer in {ACTION_DEADLINE_S} s")
            self.tally.requests += 1
            try:
                response = await self.http.request(method, path, json=body, headers=self.headers)
            except httpx.TransportError as exc:
                self.tally.transport_errors[type(exc).__name__] += 1
                if len(self.tally.incidents) < 100:
                    at = round(time.monotonic() - self.tally.started, 1)
                    self.tally.incidents.append((at, f"{type(exc).__name__} {method} {path}"))
                uncertain = True
                await asyncio.sleep(min(BACKOFF_MAX_S, 0.1 * 2**attempt))
                continue
            self.tally.statuses[response.status_code] += 1
            self.tally.exchanges.append(Exchange(method, path, response.status_code, response.text))
            status = response.status_code
            if status >= 500 or status == 429:
                code = _code(response)
                if status == 503 and code:
                    self.tally.unavailable_codes[code] += 1
                elif status != 429:
                    self.tally.fail(f"{status} on {method} {path} {body}: {response.text[:300]}")
                uncertain = True
                retry_after = float(response.headers.get("Retry-After", "0") or 0)
                await asyncio.sleep(min(BACKOFF_MAX_S, max(retry_after, 0.1 * 2**attempt)))
                continue
            return response, uncertain

    async def register(self) -> None:
        body = {"username": self.name, "password": self.password}
        response, uncertain = await self.call("POST", f"{API}/accounts/register/", body)
        if response.status_code in (400, 409) and uncertain:
            # The lost attempt created the account: log in instead.
            response, _ = await self.call("POST", f"{API}/accounts/token/", body)
            self.tally.resynced_other += 1
        if response.status_code not in (200, 201):
            raise RuntimeError(f"register {self.name}: {response.status_code} {response.text}")
        self.headers = {"Authorization": f"Token {response.json()['token']}"}
        self.tally.players += 1
        self.tally.usernames.add(self.name)

    async def get(self, path: str) -> dict[str, Any]:
        response, _ = await self.call("GET", path)
        if response.status_code != 200:
            self.tally.fail(f"GET {path}: {response.status_code} {response.text[:300]}")
            return {}
        return response.json()

    async def play_day(self, *, rounds: int) -> None:
        """The day's ranked round, then ``rounds - 1`` practice rounds, then the boards."""
        daily = await self.get(f"{API}/daily/")
        day = daily["date"]
        last_id = None
        for index in range(rounds):
            response, _ = await self.call("POST", f"{API}/daily/{day}/rounds/")
            if response.status_code not in (200, 201):
                self.tally.fail(f"start round: {response.status_code} {response.text[:300]}")
                return
            state = response.json()
            if state["ranked"] != (index == 0):
                self.tally.fail(f"round {index} of {self.name} has ranked={state['ranked']}")
            if state["actions"]:
                self.tally.fail(f"a new round of {self.name} already has actions")
            await self.play_round(state)
            last_id = state["id"]
        solo = await self.play_game({"mode": "solo", "ruleset": "yatzy"}, hints=True)
        if solo is not None:
            await self.share(solo)
        level = self.rng.choice(["easy", "medium", "hard", "expert"])
        await self.play_game({"mode": "computer", "ruleset": "yahtzee", "level": level})
        others = [code for code, sharer in self.tally.codes if sharer != self.name]
        if others:
            await self.play_friend(self.rng.choice(others))
        await self.play_party(self.rng.randint(2, 4))
        await self.get(f"{API}/games/")
        for path in (
            f"{API}/rounds/{last_id}/",
            f"{API}/daily/{day}/",
            f"{API}/leaderboards/daily/{day}/?around=me",
            f"{API}/leaderboards/daily/{day}/",
            f"{API}/leaderboards/best-day/",
            f"{API}/leaderboards/streaks/",
            f"{API}/accounts/me/",
        ):
            await self.get(path)

    async def play_short_day(self) -> None:
        """The day's ranked round and a solo Yatzy game played by the hints: the short
        day of the embedded phase's quick form (its board jobs, its tables)."""
        daily = await self.get(f"{API}/daily/")
        response, _ = await self.call("POST", f"{API}/daily/{daily['date']}/rounds/")
        if response.status_code not in (200, 201):
            self.tally.fail(f"start round: {response.status_code} {response.text[:300]}")
            return
        await self.play_round(response.json())
        await self.play_game({"mode": "solo", "ruleset": "yatzy"}, hints=True)

    async def play_game(self, body: dict[str, Any], *, hints: bool = False) -> str | None:
        """A solo or computer game (tables for Yatzy and Yahtzee are built before the
        run); with ``hints``, the hint is asked before each action and often followed."""
        response, uncertain = await self.call("POST", f"{API}/games/", body)
        if response.status_code != 201:
            self.tally.fail(f"start game {body}: {response.status_code} {response.text[:300]}")
            return None
        state = response.json()
        if uncertain:
            # A lost attempt may have started another game: it is this player's too.
            games = await self.get(f"{API}/games/?status=in_progress")
            for other in games.get("results", []):
                if other["id"] != state["id"] and other["turn"] == 0:
                    self.tally.rounds.append(
                        PlayedRound(other["id"], self.name, False, [], None, "in_progress")
                    )
        await self.play_round(state, hints=hints)
        if state["mode"] == "computer":
            final = await self.get(f"{API}/rounds/{state['id']}/")
            if final and len(final["opponent"]["turns"]) != final["turn"]:
                self.tally.fail(f"game {state['id']}: the computer is not one turn behind")
        await self.get(f"{API}/rounds/{state['id']}/analysis/")
        return str(state["id"])

    async def share(self, round_id: str) -> None:
        """Share a finished game; sharing it again must give the same code."""
        first, _ = await self.call("POST", f"{API}/rounds/{round_id}/share/")
        again, _ = await self.call("POST", f"{API}/rounds/{round_id}/share/")
        if first.status_code != 200 or again.status_code != 200:
            self.tally.fail(f"share {round_id}: {first.status_code}/{again.status_code}")
            return
        if first.json()["code"] != again.json()["code"]:
            self.tally.fail(f"share {round_id}: two codes for one round")
        self.tally.codes.append((first.json()["code"], self.name))

    async def play_friend(self, code: str) -> None:
        """Play another player's code (a start retried after an unknown outcome returns
        the same round: one unfinished round per code and player)."""
        view = await self.get(f"{API}/friend/{code}/")
        if not view:
            return
        body = {"view": self.rng.choice(["blind", "target"])}
        response, _ = await self.call("POST", f"{API}/friend/{code}/rounds/", body)
        if response.status_code not in (200, 201):
            self.tally.fail(f"friend {code}: {response.status_code} {response.text[:300]}")
            return
        await self.play_round(response.json())
        after = await self.get(f"{API}/friend/{code}/")
        if after and after.get("sharer_round") is None:
            self.tally.fail(f"friend {code}: both finished, but no sharer_round")

    async def play_party(self, seats: int) -> None:
        """A party: seats in strict order through the party endpoints. A 409 after an
        attempt whose outcome was unknown resyncs from the party's state, and each seat's
        log must then hold the action exactly once."""
        body = {"mode": "party", "ruleset": "yatzy", "seats": [f"seat {i}" for i in range(seats)]}
        response, uncertain = await self.call("POST", f"{API}/games/", body)
        if response.status_code != 201:
            self.tally.fail(f"start party: {response.status_code} {response.text[:300]}")
            return
        party = response.json()
        if uncertain:  # a lost attempt may have created another party: adopt its seats
            listed = await self.get(f"{API}/games/?mode=party&status=in_progress")
            for other in listed.get("results", []):
                if other["id"] != party["id"]:
                    theirs = await self.get(f"{API}/parties/{other['id']}/")
                    for seat in theirs.get("seats", []):
                        self.tally.rounds.append(
                            PlayedRound(
                                seat["round"]["id"], self.name, False, [], None, "in_progress"
                            )
                        )
        logs: dict[int, list[dict[str, Any]]] = {s["seat"]: [] for s in party["seats"]}
        while party["status"] == "in_progress":
            seat = party["current_seat"]
            state = party["seats"][seat]["round"]
            if state["roll"] == 0 or (state["rolls_left"] > 0 and self.rng.random() < 0.5):
                hold = self._hold(state["dice"]) if state["roll"] else []
                action: dict[str, Any] = {"type": "roll", "hold": hold}
                payload = {"seat": seat, "hold": hold, "turn": state["turn"], "roll": state["roll"]}
                path = f"{API}/parties/{party['id']}/roll/"
            else:
                category = max(state["options"], key=state["options"].get)
                action = {"type": "score", "category": category}
                payload = {"seat": seat, "category": category, "turn": state["turn"]}
                path = f"{API}/parties/{party['id']}/score/"
            response, uncertain = await self.call("POST", path, payload)
            if response.status_code == 200:
                party = response.json()
            elif response.status_code == 409 and uncertain:
                party = response.json()["current"]
                self.tally.resynced_409 += 1
            else:
                self.tally.fail(
                    f"party {path} {payload}: {response.status_code} {response.text[:300]}"
                )
                break
            logs[seat].append(action)
            shown = party["seats"][seat]["round"]["actions"]
            if shown != logs[seat]:
                self.tally.fail(
                    f"party {party['id']} seat {seat}: log {shown}, expected {logs[seat]}"
                )
                break
        for entry in party["seats"]:
            rnd = entry["round"]
            self.tally.rounds.append(
                PlayedRound(
                    rnd["id"],
                    self.name,
                    False,
                    logs[entry["seat"]],
                    rnd["total"] if rnd["status"] == "completed" else None,
                    rnd["status"],
                )
            )

    async def play_round(self, state: dict[str, Any], *, hints: bool = False) -> None:
        round_id = state["id"]
        log: list[dict[str, Any]] = []
        while state["status"] == "in_progress":
            if hints:
                advice = await self.get(f"{API}/rounds/{round_id}/hint/")
                best = advice.get("best")
                if best and self.rng.random() < 0.7:
                    state = await self._follow(round_id, state, best, log)
                    if state is None:
                        break
                    continue
            if state["roll"] == 0 or (state["rolls_left"] > 0 and self.rng.random() < 0.6):
                hold = self._hold(state["dice"]) if state["roll"] else []
                action = {"type": "roll", "hold": hold}
                body = {"hold": hold, "turn": state["turn"], "roll": state["roll"]}
                path = f"{API}/rounds/{round_id}/roll/"
            else:
                best = max(state["options"].values())
                top = [box for box, points in state["options"].items() if points >= best - 2]
                category = self.rng.choice(top)
                action = {"type": "score", "category": category}
                body = {"category": category, "turn": state["turn"]}
                path = f"{API}/rounds/{round_id}/score/"
            state = await self._act(round_id, path, body, action, log)
            if state is None:
                break
        self.tally.rounds.append(
            PlayedRound(
                id=round_id,
                username=self.name,
                ranked=bool(state and state["ranked"]),
                actions=log,
                total=state["total"] if state else None,
                status=state["status"] if state else "unknown",
                day=state.get("date") if state else None,
            )
        )

    async def _follow(
        self,
        round_id: str,
        state: dict[str, Any],
        best: dict[str, Any],
        log: list[dict[str, Any]],
    ) -> dict[str, Any] | None:
        """Make the hint's move."""
        if best["kind"] == "score":
            action = {"type": "score", "category": best["category"]}
            body = {"category": best["category"], "turn": state["turn"]}
            path = f"{API}/rounds/{round_id}/score/"
        else:
            action = {"type": "roll", "hold": best["hold"]}
            body = {"hold": best["hold"], "turn": state["turn"], "roll": state["roll"]}
            path = f"{API}/rounds/{round_id}/roll/"
        return await self._act(round_id, path, body, action, log)

    async def _act(
        self,
        round_id: str,
        path: str,
        body: dict[str, Any],
        action: dict[str, Any],
        log: list[dict[str, Any]],
    ) -> dict[str, Any] | None:
        response, uncertain = await self.call("POST", path, body)
        status = response.status_code
        if status == 200:
            state = response.json()
        elif status == 409 and uncertain:
            state = response.json()["current"]
            self.tally.resynced_409 += 1
        else:
            self.tally.fail(
                f"{status} on {path} {body} (uncertain={uncertain}): {response.text[:300]}"
            )
            return None
        expected = [*log, action]
        if state.get("actions") != expected:
            self.tally.fail(
                f"round {round_id}: after {action} the log is {json.dumps(state.get('actions'))}"
                f", expected {json.dumps(expected)}"
            )
            return None
        log.append(action)
        if self.rng.random() < self.duplicate_rate:
            await self._duplicate(round_id, path, body, log)
        return state

    async def _duplicate(
        self, round_id: str, path: str, body: dict[str, Any], log: list[dict[str, Any]]
    ) -> None:
        """Send an applied action again, as a client does whose answer was lost after the
        commit: it must come back 409 with the current state, and the log must not
        change."""
        self.tally.duplicates += 1
        response, _ = await self.call("POST", path, body)
        if response.status_code == 409:
            current = response.json()["current"]["actions"]
        else:
            self.tally.fail(f"a duplicate of {path} {body}: {response.status_code}")
            return
        if current != log:
            self.tally.fail(f"round {round_id}: a duplicate of {body} changed the log")

    def _hold(self, dice: list[int]) -> list[int]:
        """Keep the most common face (the highest on a tie), sometimes a random set."""
        if self.rng.random() < 0.2:
            return sorted(self.rng.sample(range(len(dice)), self.rng.randint(0, len(dice))))
        face = max(set(dice), key=lambda f: (dice.count(f), f))
        return [i for i, d in enumerate(dice) if d == face]


def _code(response: httpx.Response) -> str | None:
    try:
        body = response.json()
    except ValueError:
        return None
    return body.get("code") if isinstance(body, dict) else None


async def run_players(
    url: str,
    tally: Tally,
    *,
    clients: int,
    rounds: int,
    run_id: str,
    seed: int,
    strict: bool,
    duplicate_rate: float = 0.0,
    until: asyncio.Event | None = None,
    short: bool = False,
) -> float:
    """``clients`` concurrent players. Without ``until`` each plays one account's day;
    with it each keeps registering new accounts and playing until the event is set (the
    current account's rounds are always finished). ``short``: each account plays
    :meth:`Player.play_short_day` instead. Returns the elapsed seconds."""
    limits = httpx.Limits(max_connections=clients, max_keepalive_connections=clients)
    # gunicorn's own worker timeout: a slower answer never comes.
    timeout = httpx.Timeout(30.0, connect=5.0)
    started = time.monotonic()
    async with httpx.AsyncClient(base_url=url, limits=limits, timeout=timeout) as http:

        async def client(index: int) -> None:
            await asyncio.sleep(index * 0.2)  # players arrive over a few seconds
            rng = random.Random(seed * 1000 + index)
            account = 0
            while True:
                name = f"rel-{run_id}-{index}-{account}"
                player = Player(
                    http, tally, name=name, rng=rng, strict=strict, duplicate_rate=duplicate_rate
                )
                try:
                    await player.register()
                    if short:
                        await player.play_short_day()
                    else:
                        await player.play_day(rounds=rounds)
                except Exception as exc:
                    tally.fail(f"{name}: {type(exc).__name__}: {exc}")
                account += 1
                if until is None or until.is_set():
                    return

        await asyncio.gather(*(client(i) for i in range(clients)))
    return time.monotonic() - started
