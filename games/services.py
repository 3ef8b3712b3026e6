"""Round writes: start a round of any mode, roll or score on it one action at a time
(a computer round's opponent plays its turn in the same write), close a day.

Each action is an optimistic, versioned write: read the round, check the client's
``turn``/``roll`` against it, let the engine apply the action, then store the new state
with ``UPDATE … WHERE version = <the version read>``. Of two concurrent requests only
one can store; the other (like any retried or duplicated request) is answered 409 with
the current state, so no action is ever applied twice and no request waits on a lock.

What the boards must do when a ranked round completes, is deleted, or its day closes is
announced through :mod:`games.hooks` inside the same transaction.
"""

from __future__ import annotations

import datetime as dt
import hashlib
import json
import logging
import re
import secrets
from collections.abc import Callable, Sequence
from contextlib import nullcontext
from dataclasses import dataclass
from functools import cache
from typing import Any
from uuid import UUID

from django.db import connections, router, transaction
from django.db.models import F, QuerySet
from django.utils import timezone
from django.utils.translation import gettext_lazy as _
from django.utils.translation import ngettext_lazy

import yatzy
from accounts.models import User
from accounts.names import INVISIBLE_NAME, name_clean, name_key, name_visible
from accounts.services import player_lock
from config.api_errors import ConflictError, NotFoundError, ServiceError
from config.db import json_dumps, prepared_cursor
from daily import clock
from daily.models import Challenge
from daily.services import challenge_for_play
from games import hooks, selectors, tables
from games.codes import code_new
from games.models import NewGameRequest, Party, Round, ShareCode
from yatzy.strategy import Table, bot_play, bot_turn

logger = logging.getLogger(__name__)


# A player may have this many unfinished games outside the daily at once.
MAX_UNFINISHED_GAMES = 20


def round_create(
    *,
    player: User,
    ruleset: yatzy.Ruleset,
    seed: bytes,
    mode: str = Round.Mode.DAILY,
    challenge: Challenge | None = None,
    ranked: bool = False,
    level: str = "",
    **fields: Any,
) -> Round | None:
    """Store a new round at its first turn, before any die is rolled (a computer round
    with its opponent's game on the same seed). ``fields`` are a party seat's or a friend
    round's (``party``, ``seat``, ``seat_name``; ``share``, ``view``).

    Returns ``None`` when a unique constraint refused it (a concurrent start won): the
    insert is ``INSERT … ON CONFLICT DO NOTHING``, so losing that race is no database
    error and the server never logs the refused statement, seed included.
    """
    game = yatzy.Game(ruleset, seed)
    rnd = Round(
        player=player,
        mode=mode,
        challenge=challenge,
        ranked=ranked,
        ruleset=ruleset.name,
        options=ruleset.options,
        seed=seed,
        snapshot=game.snapshot(),
        level=level,
        opponent={"snapshot": game.snapshot(), "turns": []} if level else None,
        **fields,
    )
    Round.objects.bulk_create([rnd], ignore_conflicts=True)
    return Round.objects.filter(pk=rnd.pk).first()


def game_ruleset(
    *, player: User, ruleset: str | None, options: dict[str, Any] | None
) -> yatzy.Ruleset:
    """The ruleset of a new game: the request's, else the player's settings (their
    options apply to their ruleset only). Bad names and options raise the engine's
    ``RulesetError`` (400 with its code)."""
    name = ruleset or player.ruleset
    if options is None:
        options = player.options if name == player.ruleset else {}
    return yatzy.get_ruleset(name, **options)


def game_create(
    *,
    player: User,
    mode: str,
    ruleset: str | None = None,
    options: dict[str, Any] | None = None,
    level: str | None = None,
    once: NewGameKey | None = None,
) -> Round:
    """Start a solo or computer game on 32 random bytes from the server: its commitment
    is shown from the start, the seed once the game is over. The ruleset and options
    are fixed now; the player's settings change only later games.

    The game's strategy table is requested with it, so the hints are ready when the
    player asks: over the custom-table quotas this is 400 (``tables.table_request``)
    and no game starts without its hints. At most ``MAX_UNFINISHED_GAMES`` unfinished
    games per player, checked and stored under the player's lock with the table's
    request, so concurrent creates cannot pass it and a refused one queues no table."""
    rs = game_ruleset(player=player, ruleset=ruleset, options=options)
    if mode == Round.Mode.COMPUTER:
        level = level or Round.Level.MEDIUM
        if level == Round.Level.EXPERT and rs.saved_rolls:
            raise ServiceError(
                _("The expert plays an exact strategy, and none exists for saved rolls."),
                code="expert_unsupported",
            )
    _unfinished_games_precheck(player, once)
    if level == Round.Level.EXPERT:
        # 503 table_building until the expert can play; the table stays queued for then.
        tables.table_request(rs, player=player)
        tables.table_get(rs)
    with transaction.atomic():
        player_lock(player=player)
        if once is not None and (started := once.game(player)) is not None:
            assert isinstance(started, Round)  # the fingerprint holds the mode
            return started  # the same request, sent again while the first one ran
        _unfinished_games_check(player)
        # Queued with the game, under the player's lock: a refused game queues nothing
        # (a concurrent create past the limit had used up the player's table quota).
        tables.table_request(rs, player=player)
        rnd = round_create(
            player=player, ruleset=rs, seed=secrets.token_bytes(32), mode=mode, level=level or ""
        )
        assert rnd is not None  # a random seed and no challenge: no constraint can refuse it
        if once is not None:
            once.keep(player, rnd)
    return rnd


def _unfinished_games_check(player: User) -> None:
    """400 ``too_many_unfinished_games`` at ``MAX_UNFINISHED_GAMES`` unfinished games
    outside the daily; a party is one game, whatever its seats."""
    playing = Round.Status.IN_PROGRESS
    rounds = Round.objects.filter(player=player, status=playing, party__isnull=True).exclude(
        mode=Round.Mode.DAILY
    )
    parties = Party.objects.filter(owner=player, status=Party.Status.IN_PROGRESS)
    if rounds.count() + parties.count() >= MAX_UNFINISHED_GAMES:
        raise ServiceError(
            ngettext_lazy(
                "You have %(count)d unfinished game; finish it first.",
                "You have %(count)d unfinished games; finish one first.",
                "count",
            ),
            code="too_many_unfinished_games",
            params={"count": MAX_UNFINISHED_GAMES},
        )


def _unfinished_games_precheck(player: User, once: NewGameKey | None) -> None:
    """:func:`_unfinished_games_check` before the player's lock (an expert's table is
    queued only for a game that may start), letting by a request whose
    ``Idempotency-Key`` has started its game: the same request sent at once, whose game
    filled the quota since this one looked its key up, is answered that game under the
    lock, not refused."""
    try:
        _unfinished_games_check(player)
    except ServiceError:
        if once is None or once.game(player) is None:
            raise


# Visible ASCII but the comma: a header sent twice arrives joined by one ("k,k").
_REQUEST_KEY = re.compile(r"[\x21-\x2b\x2d-\x7e]{1,100}")


@dataclass(frozen=True)
class NewGameKey:
    """A new-game request's ``Idempotency-Key`` with what the request asked for: the
    game it started is kept under it (:class:`games.models.NewGameRequest`), in the
    transaction that starts the game, under the player's lock."""

    key: str
    fingerprint: str

    def game(self, player: User) -> Round | Party | None:
        """The game this key started, or None; 409 ``idempotency_key_reused`` where it
        started one for another request."""
        found = (
            NewGameRequest.objects.filter(player=player, key=self.key)
            .select_related("round", "party")
            .first()
        )
        if found is None:
            return None
        if found.fingerprint != self.fingerprint:
            raise ConflictError(
                _("This Idempotency-Key started a game with other settings; use a new key."),
                code="idempotency_key_reused",
            )
        return found.party or found.round

    def keep(self, player: User, game: Round | Party) -> None:
        game_field = "party" if isinstance(game, Party) else "round"
        NewGameRequest.objects.create(
            player=player, key=self.key, fingerprint=self.fingerprint, **{game_field: game}
        )


def game_start(
    *,
    player: User,
    mode: str,
    ruleset: str | None = None,
    options: dict[str, Any] | None = None,
    level: str | None = None,
    seats: Sequence[str] | None = None,
    request_key: str | None = None,
) -> Round | Party:
    """Start a game of any mode outside the daily (``POST games/``, the new-game pages):
    a party for ``party`` (its ``seats``), else a solo or computer round. Which mode
    takes which fields is decided here: a level outside a computer game is 400
    ``level_not_applicable``, seats outside a party ``seats_not_applicable``.

    With ``request_key`` (the ``Idempotency-Key`` header: 1-100 visible ASCII
    characters but the comma, else 400 ``invalid_idempotency_key``), the request is done
    once: sent again with the same key asking for the same game (its fields as resolved:
    the profile's ruleset named or not), it answers the game the first one started (even
    past the quota it now fills); asking for another, 409 ``idempotency_key_reused``."""
    once = None
    if request_key is not None:
        if not _REQUEST_KEY.fullmatch(request_key):
            raise ServiceError(
                _("An Idempotency-Key is 1 to 100 visible ASCII characters, no comma."),
                code="invalid_idempotency_key",
            )
        # What the request asks for, resolved: the profile's ruleset named or left out,
        # a computer's default level given or not, are one request.
        rs = game_ruleset(player=player, ruleset=ruleset, options=options)
        asked = {
            "mode": mode,
            "ruleset": rs.name,
            "options": rs.options,
            "level": level or (Round.Level.MEDIUM if mode == Round.Mode.COMPUTER else None),
            "seats": list(seats) if seats is not None else None,
        }
        canonical = json.dumps(asked, sort_keys=True, separators=(",", ":"))
        once = NewGameKey(request_key, hashlib.sha256(canonical.encode()).hexdigest())
        if (started := once.game(player)) is not None:
            return started
    if level and mode != Round.Mode.COMPUTER:
        raise ServiceError(_("Only computer games have a level."), code="level_not_applicable")
    if mode == Round.Mode.PARTY:
        return party_create(
            player=player, seats=seats or [], ruleset=ruleset, options=options, once=once
        )
    if seats is not None:
        raise ServiceError(_("Only party games have seats."), code="seats_not_applicable")
    return game_create(
        player=player, mode=mode, ruleset=ruleset, options=options, level=level, once=once
    )


def round_start_daily(*, player: User, day: dt.date) -> tuple[Round, bool]:
    """Start the player's round on ``day``'s challenge, or return their unfinished one.

    The first round a player starts on the challenge's own day is ranked; any later
    round, and any round on a past day, is practice. Returns ``(round, created)``.
    """
    challenge = challenge_for_play(day=day)

    def create() -> Round | None:
        return round_create(
            player=player,
            challenge=challenge,
            ranked=selectors.daily_round_ranked(player=player, challenge=challenge),
            ruleset=yatzy.get_ruleset(challenge.ruleset, **challenge.options),
            seed=bytes(challenge.seed),
        )

    return _resume_or_start(Round.objects.filter(player=player, challenge=challenge), create=create)


def _resume_or_start(
    rounds: QuerySet[Round], *, create: Callable[[], Round | None]
) -> tuple[Round, bool]:
    """The unfinished round among ``rounds``, else a new one from ``create`` (``None``
    when a concurrent start won a unique constraint: its round is read next time).
    Returns ``(round, created)``."""
    for _attempt in range(3):
        unfinished = rounds.filter(status=Round.Status.IN_PROGRESS).first()
        # A ranked daily round left unfinished at its day's reveal is over, even before
        # the day's close job has stored it so: a new start is a practice replay.
        if unfinished is not None and not _round_expire_if_due(unfinished):
            return unfinished, False
        rnd = create()
        if rnd is not None:
            return rnd, True
    raise ConflictError(
        _("Another start of this round is under way; try again."), code="start_conflict"
    )


def _round_expire_if_due(rnd: Round) -> bool:
    """Whether the round is expired as every read shows it (``selectors.round_status``);
    if so, store it so (conditionally: the day's close may store it at the same time)."""
    if selectors.round_status(rnd) != Round.Status.EXPIRED:
        return False
    if rnd.status != Round.Status.EXPIRED:
        Round.objects.filter(pk=rnd.pk, status=Round.Status.IN_PROGRESS).update(
            status=Round.Status.EXPIRED, updated_at=timezone.now(), version=F("version") + 1
        )
    return True


class _PartyMoved(Exception):
    """The party moved on between our read and our write (rolls the write back)."""


def _round_act(
    *,
    round_id: UUID,
    player: User,
    expect: dict[str, int],
    act: Callable[[yatzy.Game], Any],
    scores: bool = False,
) -> tuple[Round, yatzy.Game]:
    rnd = selectors.round_get_for_player(round_id=round_id, player=player)
    if _round_expire_if_due(rnd):
        raise ServiceError(
            _("The day of this ranked round has ended and its grace period is over."),
            code="round_expired",
        )
    party = rnd.party
    # A finished party has no seat whose turn it is: each seat's round is over, and is
    # answered as any finished round (a stale turn 409, else the engine's game_over).
    if (
        party is not None
        and party.status == Party.Status.IN_PROGRESS
        and party.current_seat != rnd.seat
    ):
        raise _party_stale(party)
    game = selectors.round_game(rnd)
    # Checked before the engine sees the action: a retry of an action that was applied
    # (even the one that finished the round) is a 409 with the current state.
    seen = {"turn": game.turn, "roll": game.rolls_used}
    if any(seen[key] != value for key, value in expect.items()):
        # The seat is right (checked above): the turn or roll seen is behind.
        raise _party_stale(party, moved_on=True) if party is not None else _stale(rnd, game)
    # The expert's table is looked up before anything changes: a 503 changes nothing.
    opponent_table = _opponent_table(rnd) if scores else None
    act(game)
    if scores and rnd.opponent is not None:
        rnd.opponent = _opponent_play(rnd, table=opponent_table)
    now = timezone.now()
    if game.is_over:
        rnd.status, rnd.total, rnd.completed_at = Round.Status.COMPLETED, game.total, now
    owes_boards = game.is_over and rnd.ranked
    try:
        with transaction.atomic() if owes_boards or party else nullcontext():
            stored = _round_store(
                rnd,
                snapshot=game.snapshot(),
                opponent=rnd.opponent,
                status=rnd.status,
                total=rnd.total,
                completed_at=rnd.completed_at,
                updated_at=now,
                version=rnd.version + 1,
            )
            if stored and owes_boards:
                hooks.ranked_round_completed(round_id=rnd.pk)
            if stored and party is not None and not _party_advance(party, rnd, scored=scores):
                raise _PartyMoved
    except _PartyMoved:
        stored = False
    if not stored:
        # Another request on this round (or party) stored its action between our read
        # and write.
        current = selectors.round_get_for_player(round_id=round_id, player=player)
        if current.party is not None:
            raise _party_stale(current.party)
        raise _stale(current, selectors.round_game(current))
    rnd.version += 1
    rnd.updated_at = now
    return rnd, game


# What an action stores: every column it can change, in this order.
_ACTION_FIELDS = (
    "snapshot",
    "opponent",
    "status",
    "total",
    "completed_at",
    "updated_at",
    "version",
)


@cache
def _round_store_sql(db: str) -> str:
    quote = connections[db].ops.quote_name
    columns = ", ".join(
        f"{quote(selectors.model_column(Round, name))} = %s" for name in _ACTION_FIELDS
    )
    return (
        f"UPDATE {quote(Round._meta.db_table)} SET {columns}"
        f" WHERE {quote(selectors.model_column(Round))} = %s"
        f" AND {quote(selectors.model_column(Round, 'version'))} = %s"
    )


# The engine's JSON (plain dicts, lists, strings, ints, booleans): written by orjson.
_ENGINE_JSON_FIELDS = frozenset({"snapshot", "opponent"})


def _round_store(rnd: Round, **values: Any) -> bool:
    """``UPDATE … WHERE id = <round> AND version = <the version read>``: the action's
    one write, true when it stored (no other request stored first). The statement is
    the ORM's ``filter(pk=…, version=…).update(…)``, written once per database instead
    of compiled on every action; values go through the fields as the ORM sends them,
    but for the engine's JSON, which :func:`config.db.json_dumps` writes as
    :mod:`json` would, at a tenth of its CPU."""
    db = router.db_for_write(Round)
    connection = connections[db]
    params = [
        json_dumps(values[name])
        if name in _ENGINE_JSON_FIELDS and values[name] is not None
        else Round._meta.get_field(name).get_db_prep_save(values[name], connection)  # type: ignore[union-attr]
        for name in _ACTION_FIELDS
    ]
    params += [Round._meta.pk.get_db_prep_value(rnd.pk, connection), rnd.version]
    with prepared_cursor(connection) as cursor:
        cursor.execute(_round_store_sql(db), params)
        return bool(cursor.rowcount == 1)


def _party_advance(party: Party, rnd: Round, *, scored: bool) -> bool:
    """Store the party's move after an action of its current seat: a score passes the
    turn to the next seat, the last seat's last score ends the party. Conditional on the
    party's version, so of two racing actions only one moves it."""
    seats = selectors.party_seat_count(party)
    changes: dict[str, Any] = {"version": party.version + 1}
    if scored:
        if rnd.seat == seats - 1 and rnd.status == Round.Status.COMPLETED:
            changes.update(status=Party.Status.COMPLETED, completed_at=timezone.now())
        else:
            changes["current_seat"] = (party.current_seat + 1) % seats
    return bool(Party.objects.filter(pk=party.pk, version=party.version).update(**changes))


def _party_stale(party: Party, *, moved_on: bool = False) -> ConflictError:
    """409 with the party's state: over, another seat's turn, or (``moved_on``, the seat
    being right) a turn or roll behind the one the client saw, as after a double submit."""
    party.refresh_from_db()
    if party.status == Party.Status.COMPLETED:
        return ConflictError(
            _("The party is over; here is its current state."),
            extra=selectors.party_payload(party),
        )
    if moved_on:
        return ConflictError(
            _("The party has moved on since you last saw it; here is its current state."),
            extra=selectors.party_payload(party),
        )
    return ConflictError(
        _("It is %(name)s's turn (seat %(seat)d); here is the party's current state."),
        extra=selectors.party_payload(party),
        params={
            "name": party.seats.get(seat=party.current_seat).seat_name,
            "seat": party.current_seat,
        },
    )


def _opponent_table(rnd: Round) -> Table | None:
    if rnd.level != Round.Level.EXPERT:
        return None
    return tables.table_get(yatzy.get_ruleset(rnd.ruleset, **rnd.options))


def _opponent_play(rnd: Round, *, table: Table | None) -> dict[str, Any]:
    """The computer plays the turn the player has just finished, on the same seed: the
    same first roll, and the same new dice wherever it keeps the same dice."""
    assert rnd.opponent is not None
    bot = yatzy.Game.from_snapshot(rnd.opponent["snapshot"])
    played = bot_turn(bot, rnd.level, table=table)  # type: ignore[arg-type]
    turn = {
        "turn": played.turn,
        "rolls": [list(dice) for dice in played.rolls],
        "holds": [list(hold) for hold in played.holds],
        "category": played.category,
        "points": played.points,
    }
    return {"snapshot": bot.snapshot(), "turns": [*rnd.opponent["turns"], turn]}


def _stale(rnd: Round, game: yatzy.Game) -> ConflictError:
    return ConflictError(
        _("The round has moved on since you last saw it; here is its current state."),
        extra=selectors.round_payload(rnd, game),
    )


def round_roll(
    *, round_id: UUID, player: User, hold: Sequence[int], turn: int, roll: int
) -> tuple[Round, yatzy.Game]:
    """Roll the dice not held. ``turn``/``roll`` are what the client last saw.
    Returns the stored round and its game after the roll."""
    return _round_act(
        round_id=round_id,
        player=player,
        expect={"turn": turn, "roll": roll},
        act=lambda game: game.roll(hold=tuple(hold)),
    )


def round_score(
    *, round_id: UUID, player: User, category: str, turn: int, roll: int | None = None
) -> tuple[Round, yatzy.Game]:
    """Fill one open box with the current dice. ``turn`` (and ``roll``, when given) is
    what the client last saw: with ``roll``, dice rolled since it looked are a 409, not
    scored. Returns the stored round and its game after the score."""
    return _round_act(
        round_id=round_id,
        player=player,
        expect={"turn": turn} if roll is None else {"turn": turn, "roll": roll},
        act=lambda game: game.score(category),
        scores=True,
    )


def round_delete(*, rnd: Round) -> None:
    """Delete a round (an operator removing a bad record). A ranked daily round's boards
    are brought up to date in the same transaction, so no board shows a round that no
    longer exists."""
    with transaction.atomic():
        rnd.delete()
        if rnd.ranked and rnd.challenge is not None:
            hooks.ranked_round_removed(player_id=rnd.player_id, day=rnd.challenge.date)


def _game_finished() -> ConflictError:
    return ConflictError(_("This game is over; there is nothing to give up."), code="game_finished")


def game_abandon(*, game_id: UUID, player: User) -> None:
    """Give up one of the player's unfinished games outside the daily, by its id in the
    games list: a solo or computer round, or a party (:func:`party_abandon`). The game
    is deleted with everything of it (its seed is never shown), which frees its place
    among the ``MAX_UNFINISHED_GAMES``. 404 ``game_not_found`` for another player's or
    no game (a seat's round is its party's), 400 ``abandon_not_allowed`` for a daily or
    friend round, 409 ``game_finished`` for a game that is over.

    Of an action and the abandon racing on one round, one wins cleanly: the abandon
    first bumps the round's version while it is in progress (``UPDATE … WHERE status =
    'in_progress'``), so an action stored before it finishes the game first (409 here),
    and one that read the round before loses its versioned write and finds no round
    (404)."""
    rnd = Round.objects.filter(pk=game_id, player=player, party__isnull=True).first()
    if rnd is None:
        if Party.objects.filter(pk=game_id, owner=player).exists():
            party_abandon(party_id=game_id, player=player)
            return
        raise NotFoundError(_("No such game."), code="game_not_found")
    if rnd.mode not in selectors.ABANDONABLE_MODES:
        raise ServiceError(
            _("Daily and friend rounds cannot be given up; play them to the end."),
            code="abandon_not_allowed",
        )
    with transaction.atomic():
        claimed = Round.objects.filter(pk=rnd.pk, status=Round.Status.IN_PROGRESS).update(
            version=F("version") + 1, updated_at=timezone.now()
        )
        if not claimed:
            if Round.objects.filter(pk=rnd.pk).exists():
                raise _game_finished()
            raise NotFoundError(_("No such game."), code="game_not_found")
        Round.objects.filter(pk=rnd.pk).delete()


def party_abandon(*, party_id: UUID, player: User) -> None:
    """Give up the player's unfinished party: it is deleted with its seats' rounds.
    404 ``party_not_found`` for another player's or no party, 409 ``game_finished`` once
    it is over, 400 ``abandon_not_allowed`` while a finished seat's round is shared as a
    friend challenge (revoked or not: the friends who played it keep their comparison).
    The seats' rounds are bumped before the party, in the order an action takes them
    (its round, then its party), so a racing action and the abandon never wait on each
    other: one wins (an action that loses finds no round, 404)."""
    party = selectors.party_get_for_player(party_id=party_id, player=player)
    with transaction.atomic():
        Round.objects.filter(party=party).update(version=F("version") + 1)
        claimed = Party.objects.filter(pk=party.pk, status=Party.Status.IN_PROGRESS).update(
            version=F("version") + 1
        )
        if not claimed:
            if Party.objects.filter(pk=party.pk).exists():
                raise _game_finished()
            raise NotFoundError(_("No such party."), code="party_not_found")
        # A seat that has played its last turn may be shared while the party goes on:
        # its code, and the comparison of every friend who played it, would go with it.
        # (Refused here, the transaction takes the claim back.)
        if selectors.party_shared(party):
            raise ServiceError(
                _(
                    "A seat's round of this party is shared as a friend challenge, so the "
                    "party cannot be given up; play it to the end."
                ),
                code="abandon_not_allowed",
            )
        Party.objects.filter(pk=party.pk).delete()


def day_close(*, day: dt.date) -> bool:
    """Close a day whose grace period is over: expire its unfinished ranked rounds and
    settle its boards. Idempotent; returns True only for the call that closed it."""
    if not clock.is_revealed(day):
        return False
    with transaction.atomic():
        challenge = Challenge.objects.select_for_update().filter(date=day).first()
        if challenge is None or challenge.closed_at is not None:
            return False
        expired = Round.objects.filter(
            challenge=challenge, ranked=True, status=Round.Status.IN_PROGRESS
        ).update(status=Round.Status.EXPIRED, updated_at=timezone.now(), version=F("version") + 1)
        hooks.day_closing(day=day)
        challenge.closed_at = timezone.now()
        challenge.save(update_fields=["closed_at"])
    logger.info("closed daily %s (%d unfinished ranked rounds expired)", day, expired)
    return True


def days_close_due() -> list[dt.date]:
    """Close every day whose grace period has ended and that is not closed yet."""
    pending = Challenge.objects.filter(closed_at__isnull=True, date__lt=clock.today())
    return [c.date for c in pending.only("date") if day_close(day=c.date)]


def experts_play_due(*, limit: int = 10) -> list[dt.date]:
    """Let the expert (the exact table) play every revealed day's dice that it has not
    played yet, and record its total on the day; a day waits while the table is being
    built. Idempotent: the total is stored only where none is."""
    due = Challenge.objects.filter(
        expert_total__isnull=True, date__lte=clock.last_revealed_day()
    ).order_by("-date")[:limit]
    played = []
    for challenge in due:
        rs = yatzy.get_ruleset(challenge.ruleset, **challenge.options)
        try:
            table = tables.table_get(rs)
        except tables.TableBuilding:
            break
        game = bot_play(yatzy.Game(rs, bytes(challenge.seed)), "expert", table=table)
        if Challenge.objects.filter(pk=challenge.pk, expert_total__isnull=True).update(
            expert_total=game.total
        ):
            played.append(challenge.date)
    return played


# -- parties ----------------------------------------------------------------------------

SEATS_MIN, SEATS_MAX, SEAT_NAME_MAX = 2, 4, 30


def party_seat_names(names: Sequence[str]) -> list[str]:
    """The seat names of a new party, cleaned as every name is (``accounts.names``:
    trimmed, no invisible characters), each with a visible character, 1-30 characters,
    distinct as usernames are (NFKC + case folding), 2-4 of them; else 400
    ``invalid_seats``.

    >>> party_seat_names([" Ann ", "Bo\u200b"])
    ['Ann', 'Bo']
    """
    cleaned = [name_clean(name) for name in names]
    if not SEATS_MIN <= len(cleaned) <= SEATS_MAX:
        raise ServiceError(
            _("A party has %(min)d to %(max)d seats, not %(count)d."),
            code="invalid_seats",
            params={"min": SEATS_MIN, "max": SEATS_MAX, "count": len(cleaned)},
        )
    # A seat whose name was typed but is all invisible (a zero-width space): that, not
    # its length, is what is wrong with it.
    if any(raw.strip() and not name for raw, name in zip(names, cleaned, strict=True)):
        raise ServiceError(INVISIBLE_NAME, code="invalid_seats")
    if not all(1 <= len(name) <= SEAT_NAME_MAX for name in cleaned):
        raise ServiceError(
            ngettext_lazy(
                "Every seat needs a name of 1 to %(max)d character.",
                "Every seat needs a name of 1 to %(max)d characters.",
                "max",
            ),
            code="invalid_seats",
            params={"max": SEAT_NAME_MAX},
        )
    if not all(name_visible(name) for name in cleaned):
        raise ServiceError(INVISIBLE_NAME, code="invalid_seats")
    if len({name_key(name) for name in cleaned}) != len(cleaned):
        raise ServiceError(_("Every seat needs a name of its own."), code="invalid_seats")
    return cleaned


def party_create(
    *,
    player: User,
    seats: Sequence[str],
    ruleset: str | None = None,
    options: dict[str, Any] | None = None,
    once: NewGameKey | None = None,
) -> Party:
    """A party of 2-4 seats on the player's account, one ruleset for all, each seat a
    round on its own random seed; seat 0 starts. A party is one of the player's
    ``MAX_UNFINISHED_GAMES``, checked under their lock like :func:`game_create`."""
    names = party_seat_names(seats)
    rs = game_ruleset(player=player, ruleset=ruleset, options=options)
    _unfinished_games_precheck(player, once)
    with transaction.atomic():
        player_lock(player=player)
        if once is not None and (started := once.game(player)) is not None:
            assert isinstance(started, Party)  # the fingerprint holds the mode
            return started
        _unfinished_games_check(player)
        tables.table_request(rs, player=player)  # with the party, as in game_create
        party = Party.objects.create(owner=player, ruleset=rs.name, options=rs.options)
        for seat, name in enumerate(names):
            round_create(
                player=player,
                ruleset=rs,
                seed=secrets.token_bytes(32),
                mode=Round.Mode.PARTY,
                party=party,
                seat=seat,
                seat_name=name,
            )
        if once is not None:
            once.keep(player, party)
    return party


def party_act(
    *,
    party_id: UUID,
    player: User,
    seat: int,
    turn: int,
    action: str,
    roll: int | None = None,
    hold: Sequence[int] = (),
    category: str = "",
) -> Party:
    """Roll or score for the seat whose turn it is. ``seat``, ``turn`` and ``roll`` are
    what the client last saw: acting for another seat, or on a stale turn, is 409 with
    the party's state."""
    party = selectors.party_get_for_player(party_id=party_id, player=player)
    round_id = party.seats.filter(seat=seat).values_list("pk", flat=True).first()
    if round_id is None:
        raise ServiceError(
            _("This party has no seat %(seat)d."), code="invalid_seat", params={"seat": seat}
        )
    # Whose turn it is, is checked once, where every action on a seat's round passes
    # (``_round_act``): acting for another seat is a 409 with the party's state; on a
    # finished party, as on any finished round, a stale turn is a 409 and the current
    # one the engine's 400 game_over.
    if action == "roll":
        assert roll is not None
        round_roll(round_id=round_id, player=player, hold=hold, turn=turn, roll=roll)
    else:
        round_score(round_id=round_id, player=player, category=category, turn=turn, roll=roll)
    party.refresh_from_db()
    return party


# -- friend challenges ------------------------------------------------------------------


def share_create(*, round_id: UUID, player: User) -> ShareCode:
    """The live code of the player's finished round, created on first share: the same
    round shared twice gives the same code."""
    rnd = selectors.round_get_for_player(round_id=round_id, player=player)
    if not selectors.round_shareable(rnd):
        raise ServiceError(_("Only a finished round can be shared."), code="round_not_finished")
    for _attempt in range(5):
        with transaction.atomic():
            # The round taken as an action takes it: a give-up of its party that came
            # first has deleted it (404, where the code's insert failed on it), and one
            # that comes after waits, then finds the code (abandon_not_allowed).
            if not Round.objects.select_for_update(no_key=True).filter(pk=rnd.pk).exists():
                raise NotFoundError(_("No such round."), code="round_not_found")
            live = ShareCode.objects.filter(round=rnd, revoked_at__isnull=True).first()
            if live is not None:
                return live
            # ON CONFLICT DO NOTHING: a code already taken (40 random bits: rare) or a
            # concurrent share of this round refuses it without a database error.
            ShareCode.objects.bulk_create(
                [ShareCode(code=code_new(), round=rnd)], ignore_conflicts=True
            )
    raise ConflictError(
        _("Could not make a code for this round; try again."), code="share_conflict"
    )


def share_revoke(*, code: str, player: User) -> None:
    """The sharer ends a code: from now on it is 404 to everyone but the friends who
    played it. Rounds already started from it can still be finished. Revoking a code
    already revoked changes nothing and is no error (a retried ``DELETE``)."""
    share = selectors.share_get_for_sharer(code=code, player=player)
    share_codes_revoke(codes=ShareCode.objects.filter(pk=share.pk))


def share_codes_revoke(*, codes: QuerySet[ShareCode]) -> int:
    """Revoke codes (the sharer's DELETE, or an operator in the admin); returns how many
    were live."""
    return codes.filter(revoked_at__isnull=True).update(revoked_at=timezone.now())


def friend_round_start(*, code: str, player: User, view: str) -> tuple[Round, bool]:
    """Start (or return) the friend's round on a shared round's dice, ruleset and options.

    A shared daily is a challenge to that day's dice: the friend's round is their daily
    round of that date (ranked if it is their first on the day itself, practice after
    it), under every daily rule. Any other shared round gives a ``friend`` round on the
    same seed. One unfinished round per code and player; a second start returns it.
    One unfinished round per seed and player too, whichever code led to it: another
    code on the same dice (a friend who played this code and shared their round) is 409
    ``same_dice_unfinished`` while the first is unfinished, since finishing the second
    would show the seed, and so every die of the first. A new friend round counts to
    ``MAX_UNFINISHED_GAMES`` like any game outside the daily. Returns ``(round, created)``.
    """
    share = selectors.share_get(code=code)
    shared = share.round
    if shared.player_id == player.pk:
        raise ServiceError(_("This is your own round's code."), code="own_share")
    if shared.challenge is not None:
        rnd, created = round_start_daily(player=player, day=shared.challenge.date)
        # The daily round becomes this challenge's round, unless another code has it:
        # then, as for any dice, the unfinished round of another code is to be finished
        # first (returned as this code's, its comparison would never show here).
        Round.objects.filter(pk=rnd.pk, share__isnull=True).update(share=share, view=view)
        rnd.refresh_from_db()
        if rnd.share_id != share.pk:
            raise ConflictError(
                _("You have an unfinished round on these same dice; finish it first."),
                code="same_dice_unfinished",
                extra=selectors.round_payload(rnd),
            )
        return rnd, created
    with transaction.atomic():
        # The player's row lock: of two racing starts on two codes of one seed, the
        # second sees the first's round.
        player_lock(player=player)
        other = selectors.seed_unfinished(player_id=player.pk, seed=bytes(shared.seed))
        if other is not None and other.share_id != share.pk:
            raise ConflictError(
                _("You have an unfinished round on these same dice; finish it first."),
                code="same_dice_unfinished",
                extra=selectors.round_payload(other),
            )

        def create() -> Round | None:
            # A friend round is a game outside the daily: it counts to the quota, which
            # a second start of the same code (its round returned) never meets.
            _unfinished_games_check(player)
            return round_create(
                player=player,
                ruleset=yatzy.get_ruleset(shared.ruleset, **shared.options),
                seed=bytes(shared.seed),
                mode=Round.Mode.FRIEND,
                share=share,
                view=view,
            )

        return _resume_or_start(Round.objects.filter(player=player, share=share), create=create)
