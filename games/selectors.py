"""Round reads: the one place that turns a stored round into what a player may see,
the hint and the analysis of a round, and the player's list of games."""

from __future__ import annotations

import contextlib
import json
from collections.abc import Callable, Sequence
from functools import cache
from typing import Any
from uuid import UUID

from django.db import connections, router
from django.db.models import JSONField, Model, Q, QuerySet
from django.db.models.base import ModelState
from django.db.models.signals import post_init, pre_init
from django.utils.translation import gettext_lazy as _

import yatzy
from accounts.models import User
from config.api_errors import ForbiddenError, NotFoundError, ServiceError, error_text
from config.db import json_loads, prepared_cursor
from daily import clock
from daily.models import Challenge
from daily.selectors import challenge_seed_shown
from games import tables
from games.codes import code_read
from games.models import Party, Round, ShareCode
from yatzy.strategy import Move, UnsupportedRules, analyse, best_move


def round_game(rnd: Round) -> yatzy.Game:
    """The engine game of a stored round."""
    return yatzy.Game.from_snapshot(rnd.snapshot)


def game_seen(game: Round | Party, *, turn: int, roll: int | None, seat: int | None = None) -> bool:
    """Whether ``game`` is still where a client saw it: in play at turn ``turn`` with
    ``roll`` rolls used (for a party, in seat ``seat``'s turn), so dice the client held
    still apply to the same roll. The pages ask it of a form they could not act on."""
    if isinstance(game, Party):
        if game.status != Party.Status.IN_PROGRESS or game.current_seat != seat:
            return False
        game = game.seats.get(seat=seat)
    if game.status != Round.Status.IN_PROGRESS:
        return False
    now = round_game(game)
    return (now.turn, now.rolls_used) == (turn, roll)


def model_column(model: type[Model], name: str | None = None) -> str:
    """The column of a model's field (its primary key without ``name``), for SQL built
    from the models."""
    field = model._meta.pk if name is None else model._meta.get_field(name)
    column = getattr(field, "column", None)
    assert isinstance(column, str), (model, name)
    return column


def _json_from_db(value: Any, expression: Any, connection: Any) -> Any:
    """``JSONField.from_db_value`` without a decoder, by :func:`config.db.json_loads`."""
    if value is None:
        return value
    try:
        return json_loads(value)
    except json.JSONDecodeError:
        return value


class _Loader:
    """Instances of a model from rows of all its concrete columns (``alias.column``,
    in :attr:`select`'s order), as ``model.from_db`` makes them: each value converted as
    the ORM converts it (the engine's JSON by orjson, to the same values). Without
    ``pre_init`` or ``post_init`` receivers for the model, what ``Model.__init__`` does
    for a loaded row (each value set under its field's attribute name, a new
    ``ModelState``) is done directly, a tenth of the CPU of its checks and descriptors."""

    def __init__(self, model: type[Model], alias: str, db: str) -> None:
        connection = connections[db]
        quote = connection.ops.quote_name
        self.model, self.db = model, db
        fields = model._meta.concrete_fields
        self.select = [f"{alias}.{quote(model_column(model, field.name))}" for field in fields]
        self.attnames = [field.attname for field in fields]
        # (position, column expression, converters) of the values that need converting.
        self.converters: list[tuple[int, Any, list[Callable[..., Any]]]] = []
        for position, field in enumerate(fields):
            col = field.get_col(alias)
            converters = connection.ops.get_db_converters(col) + field.get_db_converters(connection)
            if isinstance(field, JSONField) and field.decoder is None:
                converters = [
                    _json_from_db if converter == field.from_db_value else converter
                    for converter in converters
                ]
            if converters:
                self.converters.append((position, col, converters))

    def load(self, row: Sequence[Any]) -> Any:
        connection = connections[self.db]
        values = list(row)
        for position, col, converters in self.converters:
            value = values[position]
            for converter in converters:
                value = converter(value, col, connection)
            values[position] = value
        if pre_init.has_listeners(self.model) or post_init.has_listeners(self.model):
            return self.model.from_db(self.db, self.attnames, values)
        instance = self.model.__new__(self.model)
        instance._state = ModelState()
        instance._state.adding = False
        instance._state.db = self.db
        instance.__dict__.update(zip(self.attnames, values, strict=True))
        return instance


@cache
def _round_read(db: str) -> tuple[str, _Loader, _Loader, _Loader]:
    """The round read of every action, hint and detail: the round with its challenge
    and party, by id and player, in one statement. Built once per database from the
    models, as the ORM would write it, so each request skips the ORM's query
    compilation (a third of a roll's CPU)."""
    quote = connections[db].ops.quote_name
    loaders = (_Loader(Round, "r", db), _Loader(Challenge, "c", db), _Loader(Party, "p", db))
    sql = (
        f"SELECT {', '.join(column for loader in loaders for column in loader.select)}"
        f" FROM {quote(Round._meta.db_table)} r"
        f" LEFT JOIN {quote(Challenge._meta.db_table)} c"
        f" ON c.{quote(model_column(Challenge))} = r.{quote(model_column(Round, 'challenge'))}"
        f" LEFT JOIN {quote(Party._meta.db_table)} p"
        f" ON p.{quote(model_column(Party))} = r.{quote(model_column(Round, 'party'))}"
        f" WHERE r.{quote(model_column(Round))} = %s"
        f" AND r.{quote(model_column(Round, 'player'))} = %s"
    )
    return sql, *loaders


def round_get_for_player(*, round_id: UUID, player: User) -> Round:
    """The player's round, with its challenge and party; another player's round is
    indistinguishable from none (404)."""
    db = router.db_for_read(Round)
    sql, rounds, challenges, parties = _round_read(db)
    connection = connections[db]
    with prepared_cursor(connection) as cursor:
        cursor.execute(sql, [Round._meta.pk.get_db_prep_value(round_id, connection), player.pk])
        row = cursor.fetchone()
    if row is None:
        raise NotFoundError(_("No such round."), code="round_not_found")
    split = (len(rounds.attnames), len(rounds.attnames) + len(challenges.attnames))
    rnd: Round = rounds.load(row[: split[0]])
    challenge = challenges.load(row[split[0] : split[1]]) if rnd.challenge_id is not None else None
    party = parties.load(row[split[1] :]) if rnd.party_id is not None else None
    # Cached as select_related caches them: read without a query (none when empty).
    Round._meta.get_field("challenge").set_cached_value(rnd, challenge)
    Round._meta.get_field("party").set_cached_value(rnd, party)
    return rnd


def rounds_counting() -> QuerySet[Round]:
    """The rounds that count on the boards: completed ranked daily rounds that no
    administrator has excluded (``games.skill.round_exclude``). The boards' raw SQL
    says the same (``leaderboards.sql``)."""
    return Round.objects.filter(
        ranked=True, status=Round.Status.COMPLETED, excluded_at__isnull=True
    )


def round_status(rnd: Round) -> str:
    """The status every read shows: a ranked round still unfinished at its day's reveal
    is ``expired`` from that moment, before any job or action has stored it so."""
    if (
        rnd.status == Round.Status.IN_PROGRESS
        and rnd.ranked
        and rnd.challenge is not None
        and clock.is_revealed(rnd.challenge.date)
    ):
        return Round.Status.EXPIRED
    return rnd.status


def round_seed_shown(rnd: Round) -> str | None:
    """The round's seed in hex once a player may see it: a daily round's with its day's,
    any other game's once it is over (until then it would tell the dice to come) and
    only while the player has no unfinished round on the same seed, whichever friend
    code led to it (SPEC §7): a finished round must not tell the dice of another."""
    if rnd.challenge is not None:
        return challenge_seed_shown(rnd.challenge)
    if rnd.status == Round.Status.IN_PROGRESS or seed_unfinished(
        player_id=rnd.player_id, seed=bytes(rnd.seed)
    ):
        return None
    return bytes(rnd.seed).hex()


def seed_unfinished(*, player_id: int, seed: bytes) -> Round | None:
    """The player's unfinished round on ``seed``, if any (there is at most one: starting
    a friend round refuses a second, ``games.services.friend_round_start``)."""
    return (
        Round.objects.filter(player_id=player_id, seed=seed, status=Round.Status.IN_PROGRESS)
        .select_related("challenge", "party", "share")
        .first()
    )


def round_shareable(rnd: Round) -> bool:
    """Whether the player may share this round of theirs as a friend challenge: any
    finished round (SPEC §7), of every mode, a party seat's included."""
    return round_status(rnd) == Round.Status.COMPLETED


def round_theme(rnd: Round) -> str:
    """The die skin: the day the round started decides (SPEC §6: every round played in
    December is Christmas, and none other). A ranked daily round starts on its own date;
    a replay of a past day is played now, so November's dice replayed in December are
    Christmas and December's replayed in January are not."""
    return clock.theme(clock.today(rnd.started_at))


def round_result(rnd: Round, game: yatzy.Game) -> str | None:
    """``win``, ``loss`` or ``draw`` for the player, once a computer game is over."""
    if rnd.opponent is None or rnd.status != Round.Status.COMPLETED:
        return None
    return yatzy.result_of(game.total, rnd.opponent["snapshot"]["total"])


def _opponent_view(rnd: Round, *, dice: bool = True) -> dict[str, Any] | None:
    """The computer's game; without ``dice`` its turns keep their boxes and points but
    not their rolls, holds and extra bonuses (``[]``, 0: which turn's dice were a further
    yahtzee tells of the dice; the card's ``extra_bonus`` and total still add up)."""
    if rnd.opponent is None:
        return None
    bot = rnd.opponent["snapshot"]
    turns = rnd.opponent["turns"]
    # Each turn's extra bonus (Yahtzee's joker: 100 for a further yahtzee) beside the
    # box's points: replayed only for a computer that earned one.
    extras = (
        [extra for _, _, extra in scores_spoken(yatzy.Game.from_snapshot(bot))]
        if bot["extra_bonus"] and dice
        else [0] * len(turns)
    )
    turns = [{**turn, "extra_bonus": extra} for turn, extra in zip(turns, extras, strict=True)]
    return {
        "level": rnd.level,
        "scorecard": bot["scorecard"],
        "upper_total": bot["upper_total"],
        "bonus": bot["bonus"],
        "extra_bonus": bot["extra_bonus"],
        "total": bot["total"],
        "turns": turns if dice else [{**turn, "rolls": [], "holds": []} for turn in turns],
    }


def round_payload(rnd: Round, game: yatzy.Game | None = None) -> dict[str, Any]:
    """Everything a player may see of a round. Dice appear only once rolled."""
    game = game or round_game(rnd)
    day = rnd.challenge.date if rnd.challenge else None
    status = round_status(rnd)
    theme = round_theme(rnd)
    seed = round_seed_shown(rnd)
    # The computer rolled on the round's seed, so its dice tell that seed's dice stream:
    # shown during the game (its turns are past ones) and afterwards like the seed, not
    # while the player has an unfinished round on these dice (another code's, SPEC §7).
    opponent_dice = status == Round.Status.IN_PROGRESS or seed is not None
    return {
        "id": str(rnd.id),
        "mode": rnd.mode,
        "date": day.isoformat() if day else None,
        "ruleset": rnd.ruleset,
        "rules": rnd.options,
        "ranked": rnd.ranked,
        "status": status,
        "theme": theme,
        "theme_name": clock.theme_name(theme),
        "turn": game.turn,
        "turns": len(game.ruleset.categories),
        "roll": game.rolls_used,
        "rolls_left": game.rolls_left if status == Round.Status.IN_PROGRESS else 0,
        "dice": list(game.dice),
        "scorecard": game.scorecard,
        "options": game.options() if status == Round.Status.IN_PROGRESS else {},
        "upper_total": game.upper_total,
        "bonus": game.bonus,
        "extra_bonus": game.extra_bonus,
        "total": game.total,
        "actions": game.actions,
        "commitment": yatzy.commitment(bytes(rnd.seed)),
        "seed": seed,
        "started_at": rnd.started_at,
        "completed_at": rnd.completed_at,
        "level": rnd.level or None,
        "opponent": _opponent_view(rnd, dice=opponent_dice),
        "result": round_result(rnd, game),
        "party": str(rnd.party_id) if rnd.party_id else None,
        "seat": rnd.seat,
        "share": rnd.share.code if rnd.share_id and rnd.share else None,
        "shareable": round_shareable(rnd),
        # Skill and luck (games.skill): null until the day's analysis reached the round.
        "loss": rnd.loss,
        "luck": rnd.luck,
        "excluded": rnd.excluded_at is not None,
    }


def _round_summary(rnd: Round | None) -> dict[str, Any] | None:
    if rnd is None:
        return None
    return {
        "id": str(rnd.id),
        "status": round_status(rnd),
        "ranked": rnd.ranked,
        "total": rnd.total,
        "excluded": rnd.excluded_at is not None,
    }


def challenge_payload(*, challenge: Challenge, player: User | None) -> dict[str, Any]:
    """A day's challenge as the player sees it: ``my_round`` is their ranked round (its
    total is their score of the day), ``practice_round`` their unfinished practice round.
    Without a player (a visitor of the front page) both are ``None``."""
    ranked = practice = None
    if player is not None:
        rounds = Round.objects.filter(challenge=challenge, player=player).select_related(
            "challenge"
        )
        ranked = rounds.filter(ranked=True).first()
        practice = rounds.filter(ranked=False, status=Round.Status.IN_PROGRESS).first()
    return {
        "date": challenge.date.isoformat(),
        "ruleset": challenge.ruleset,
        "rules": challenge.options,
        "commitment": challenge.commitment,
        "seed": challenge_seed_shown(challenge),
        "opens_at": clock.opens_at(challenge.date),
        "closes_at": clock.closes_at(challenge.date),
        "reveal_at": clock.reveal_at(challenge.date),
        "time_zone": clock.daily_zone().key,
        "theme": challenge.theme,
        "theme_name": clock.theme_name(challenge.theme),
        "my_round": _round_summary(ranked),
        "practice_round": _round_summary(practice),
        "expert_total": challenge.expert_total if challenge.is_revealed else None,
    }


# -- hints and analysis ---------------------------------------------------------------


def round_advice_check(rnd: Round) -> None:
    """Hints and analysis come from the exact table, so they are refused (403
    ``hint_unavailable``) on every round of a daily whose seed is not revealed yet:
    they would help a ranked score; on a friend round until it is over; and on any other
    finished round while the player has an unfinished round on its seed. Any other
    round, and every round of a revealed day, may have them."""
    if rnd.challenge is not None and not clock.is_revealed(rnd.challenge.date):
        raise ForbiddenError(
            _("There are no hints or analysis for the daily until its day is over."),
            code="hint_unavailable",
        )
    if (rnd.mode == Round.Mode.FRIEND and rnd.status == Round.Status.IN_PROGRESS) or (
        rnd.challenge is None
        and rnd.status != Round.Status.IN_PROGRESS
        and seed_unfinished(player_id=rnd.player_id, seed=bytes(rnd.seed)) is not None
    ):
        # The second: a finished round's analysis while the player has a friend round on
        # the same seed unfinished (another code's) would be hints for it.
        raise ForbiddenError(
            _("A friend challenge is played without hints; the analysis is there afterwards."),
            code="hint_unavailable",
        )


def round_advice_allowed(rnd: Round) -> bool:
    """Whether hints and the analysis exist for this round: ``round_advice_check``
    allows them and the exact table models its rules (not with saved rolls, whose hint
    and analysis are 400 ``hint_unsupported``)."""
    try:
        round_advice_check(rnd)
    except ServiceError:
        return False
    return ruleset_advice_modelled(_round_ruleset(rnd))


def ruleset_advice_modelled(rs: yatzy.Ruleset) -> bool:
    """Whether the exact table, which gives the hints and the analysis, models ``rs``:
    it does not with saved rolls (those games have neither).

    >>> ruleset_advice_modelled(yatzy.get_ruleset("yatzy", saved_rolls=True))
    False
    """
    try:
        tables.table_key(rs)
    except UnsupportedRules:
        return False
    return True


def _round_ruleset(rnd: Round) -> yatzy.Ruleset:
    return yatzy.get_ruleset(rnd.ruleset, **rnd.options)


def _expected(value: float) -> float:
    return round(value, 4)


def _move(move: Move, *, rolled: bool) -> dict[str, Any]:
    kind = "score" if move.category is not None else "hold" if rolled else "roll"
    return {
        "kind": kind,
        "hold": list(move.hold),
        "keep": list(move.keep),
        "category": move.category,
        "points": move.points,
        "expected": _expected(move.expected),
    }


def round_hint(rnd: Round) -> dict[str, Any]:
    """Every distinct legal move now, best first, each with the final score expected
    after it under optimal play (SPEC §7)."""
    round_advice_check(rnd)
    if round_status(rnd) != Round.Status.IN_PROGRESS:
        raise ServiceError(_("The round is over: there is no move to advise."), code="game_over")
    game = round_game(rnd)
    advice = best_move(game, table=tables.table_get(_round_ruleset(rnd)))
    moves = [_move(move, rolled=game.rolls_used > 0) for move in advice.moves]
    return {
        "turn": game.turn,
        "roll": game.rolls_used,
        "dice": list(game.dice),
        "best": moves[0],
        "moves": moves,
    }


def round_analysis(rnd: Round) -> dict[str, Any]:
    """Each decision of a finished round against the best one, with the expected points
    it gave away; a turn's first roll is no decision (SPEC §7)."""
    round_advice_check(rnd)
    if round_status(rnd) == Round.Status.IN_PROGRESS:
        raise ServiceError(
            _("The analysis is ready once the round is over."), code="round_in_progress"
        )
    rs = _round_ruleset(rnd)
    game = round_game(rnd)
    analysis = analyse(rs, bytes(rnd.seed), game.actions, table=tables.table_get(rs))
    decisions = []
    for decision in analysis.decisions:
        action = decision.action
        hold = tuple(action.get("hold", ()))
        played = {
            "kind": "score" if action["type"] == "score" else "hold",
            "hold": list(hold),
            "keep": sorted(decision.dice[p] for p in hold),
            "category": action.get("category"),
            "points": decision.points,
            "expected": _expected(decision.chosen),
        }
        decisions.append(
            {
                "turn": decision.turn,
                "roll": decision.rolls_used,
                "dice": list(decision.dice),
                "kind": played["kind"],
                "played": played,
                "best": _move(decision.best, rolled=True),
                "loss": _expected(decision.loss),
            }
        )
    return {
        "total": analysis.total,
        "expected_start": _expected(analysis.expected_start),
        "loss": _expected(analysis.loss),
        "decisions": decisions,
    }


def round_analysis_view(*, round_id: UUID, player: User) -> dict[str, Any]:
    """The analysis page in one call: the player's finished round as the API shows it,
    and its analysis (:func:`round_analysis`)."""
    rnd = round_get_for_player(round_id=round_id, player=player)
    return {"round": round_payload(rnd), "analysis": round_analysis(rnd)}


# -- a round's page ---------------------------------------------------------------------


def _advice_view(rnd: Round, state: dict[str, Any], *, hint: bool) -> dict[str, Any]:
    """Whether ``rnd`` has hints (``advice``) and, when asked for, its hint (``hint``),
    else why there is none as the player reads it (``hint_refused``) and, while its table
    is being built, how far the build is and when to ask again (``hint_wait``:
    ``{percent, retry_after}``)."""
    advice = round_advice_allowed(rnd)
    view: dict[str, Any] = {"advice": advice, "hint": None, "hint_refused": None, "hint_wait": None}
    if hint and advice and state["status"] == Round.Status.IN_PROGRESS:
        try:
            view["hint"] = round_hint(rnd)
        except ServiceError as exc:
            view["hint_refused"] = error_text(exc)
            if isinstance(exc, tables.TableBuilding):
                percent = (exc.params or {}).get("percent")
                view["hint_wait"] = {"percent": percent, "retry_after": exc.retry_after}
    return view


def round_view(*, round_id: UUID, player: User, hint: bool = False) -> dict[str, Any]:
    """What a page shows of one of the player's rounds, in one call: the round as the
    API shows it (``round``), whether it has hints and an analysis (``advice``), the
    hint when asked for and allowed (``hint``, else ``hint_refused``: why there is none,
    as the player reads it), the live friend code of a finished round with who played
    it (``share``), the friend challenge the round was started from (``challenge``:
    what :func:`friend_view` lets the friend see), and at a turn's start the box the
    last turn scored with its points and any extra bonus the score earned
    (``last_score``: a joker's 100 included, the upper bonus being its own line)."""
    rnd = round_get_for_player(round_id=round_id, player=player)
    game = round_game(rnd)
    state = round_payload(rnd, game)
    turn_start = state["status"] == Round.Status.IN_PROGRESS and game.rolls_used == 0
    view: dict[str, Any] = {
        "round": state,
        "last_score": _last_score(game) if turn_start else None,
        **_advice_view(rnd, state, hint=hint),
        "share": None,
        "challenge": None,
    }
    if state["status"] == Round.Status.COMPLETED:
        share = _live_share_of(rnd)
        view["share"] = share_plays(share) if share is not None else None
    if state["share"] is not None:
        # Revoked since or not, the friend who played a code keeps its comparison (SPEC
        # §7); a code that is gone leaves the round playing on without it.
        with contextlib.suppress(NotFoundError):
            shared = share_get(code=state["share"], player=player)
            view["challenge"] = friend_view(share=shared, player=player)
    return view


def _last_score(game: yatzy.Game) -> dict[str, Any] | None:
    """The box the game's last action scored and its points as :func:`scores_spoken`
    counts them; ``None`` unless the last action is a score."""
    actions = game.actions
    if not actions or actions[-1]["type"] != "score":
        return None
    category, points, extra = scores_spoken(game)[-1]
    return {"category": category, "points": points + extra}


def scores_spoken(game: yatzy.Game) -> list[tuple[str, int, int]]:
    """Each box the game's actions scored, in order, with its points and the extra bonus
    that score earned (Yahtzee's joker: 100 for a further yahtzee; else 0), so what a
    page or the client says a score was is what the scorecard adds in that box's row and
    the extra bonus's (the upper section's bonus is its own line): the player's last
    score and each of the computer's turns alike.

    >>> game = yatzy.Game(yatzy.get_ruleset("yahtzee"), bytes(32))
    >>> _ = game.roll(); _ = game.score("chance")
    >>> scores_spoken(game) == [("chance", game.total, 0)]
    True
    """
    scored = [action["category"] for action in game.actions if action["type"] == "score"]
    if not game.extra_bonus:  # no score earned one: each box's points are the scorecard's
        return [(category, game.scorecard[category] or 0, 0) for category in scored]
    replay = yatzy.Game(game.ruleset, game.seed)
    spoken = []
    for action in game.actions:
        if action["type"] == "roll":
            replay.roll(action["hold"])
        else:
            before = replay.extra_bonus
            points = replay.score(action["category"])
            spoken.append((action["category"], points, replay.extra_bonus - before))
    return spoken


# -- the player's games -----------------------------------------------------------------


FINISHED = "finished"


def games_for_player(
    *, player: User, mode: str | None = None, status: str | None = None
) -> QuerySet[Round]:
    """The player's rounds of every mode, newest first; ``status`` as reads show it (a
    ranked round unfinished at its day's reveal is ``expired``), or ``FINISHED`` for
    every game that is no longer in progress (completed or expired)."""
    # A party is listed once, by its first seat.
    rounds = (
        Round.objects.filter(player=player).exclude(seat__gt=0).select_related("challenge", "party")
    )
    if mode is not None:
        rounds = rounds.filter(mode=mode)
    lapsed = Q(
        status=Round.Status.IN_PROGRESS,
        ranked=True,
        challenge__date__lte=clock.last_revealed_day(),
    )
    single = Q(party__isnull=True)
    if status == Round.Status.IN_PROGRESS:
        rounds = rounds.filter((single & Q(status=status) & ~lapsed) | Q(party__status=status))
    elif status == Round.Status.EXPIRED:
        rounds = rounds.filter(single & (Q(status=status) | lapsed))
    elif status == FINISHED:
        playing = Round.Status.IN_PROGRESS
        rounds = rounds.filter(
            (single & (~Q(status=playing) | lapsed))
            | (Q(party__isnull=False) & ~Q(party__status=playing))
        )
    elif status is not None:
        rounds = rounds.filter((single & Q(status=status)) | Q(party__status=status))
    return rounds.order_by("-started_at", "-id")


# The modes of the games a player may give up (``services.game_abandon``,
# ``services.party_abandon``): not a daily round (it counts, or expires, on its day), nor
# a friend round (its seed would be shown, SPEC §7, and the friend's dice replayed
# knowing them).
ABANDONABLE_MODES = frozenset({Round.Mode.SOLO, Round.Mode.COMPUTER, Round.Mode.PARTY})


def party_shared(party: Party) -> bool:
    """Whether a seat's round of the party is shared as a friend challenge (revoked or
    not): such a party cannot be given up, as the code and the comparison of every
    friend who played it would go with it."""
    return ShareCode.objects.filter(round__party=party).exists()


def game_can_give_up(rnd: Round, status: str) -> bool:
    """Whether the player may give up the game of this games-list line (``status`` as
    the line shows it): what ``DELETE games/{id}/`` then does, so the pages and the
    client ask only about a game the server would give up."""
    if status != Round.Status.IN_PROGRESS or rnd.mode not in ABANDONABLE_MODES:
        return False
    return rnd.party is None or not party_shared(rnd.party)


def game_summary(rnd: Round) -> dict[str, Any]:
    """One line of the games list (a party's line is the party: its id and its seats)."""
    opponent = rnd.opponent["snapshot"]["total"] if rnd.opponent is not None else None
    game = round_game(rnd)
    seats = None
    turn, completed_at = game.turn, rnd.completed_at
    if rnd.party is not None:
        games = [(seat, round_game(seat)) for seat in party_rounds(rnd.party)]
        seats = [
            {"seat": seat.seat, "name": seat.seat_name, "total": seat_game.total}
            for seat, seat_game in games
        ]
        # The party's turn is its current seat's: the seats before it are a turn ahead.
        turn = min(seat_game.turn for _seat, seat_game in games)
        completed_at = rnd.party.completed_at
    status = rnd.party.status if rnd.party is not None else round_status(rnd)
    return {
        "id": str(rnd.party_id or rnd.id),
        "mode": rnd.mode,
        "ruleset": rnd.ruleset,
        "date": rnd.challenge.date.isoformat() if rnd.challenge else None,
        "ranked": rnd.ranked,
        "status": status,
        "can_give_up": game_can_give_up(rnd, status),
        "turn": turn,
        "total": game.total,
        "level": rnd.level or None,
        "opponent_total": opponent,
        "result": round_result(rnd, game),
        "seats": seats,
        "started_at": rnd.started_at,
        "completed_at": completed_at,
    }


# -- parties ----------------------------------------------------------------------------


def party_get_for_player(*, party_id: UUID, player: User) -> Party:
    """The player's party; another player's is indistinguishable from none (404)."""
    try:
        return Party.objects.get(pk=party_id, owner=player)
    except Party.DoesNotExist:
        raise NotFoundError(_("No such party."), code="party_not_found") from None


def game_payload(game: Round | Party) -> dict[str, Any]:
    """A new game as the API shows it: a party with its seats, else the round."""
    return party_payload(game) if isinstance(game, Party) else round_payload(game)


def party_view(*, party_id: UUID, player: User) -> dict[str, Any]:
    """The player's party as the API shows it (:func:`party_payload`)."""
    return party_payload(party_get_for_player(party_id=party_id, player=player))


def party_page_view(*, party_id: UUID, player: User, hint: bool = False) -> dict[str, Any]:
    """The party screen in one call: the party as the API shows it (``party``) and, for
    the seat whose turn it is, whether its round has hints and its hint when asked for
    (as :func:`round_view` gives them: ``advice``, ``hint``, ``hint_refused``,
    ``hint_wait``)."""
    party = party_get_for_player(party_id=party_id, player=player)
    seats = party_rounds(party)
    payload = party_payload(party, seats)
    current = next((rnd for rnd in seats if rnd.seat == payload["current_seat"]), None)
    advice: dict[str, Any] = {
        "advice": False,
        "hint": None,
        "hint_refused": None,
        "hint_wait": None,
    }
    if current is not None:
        state = next(s["round"] for s in payload["seats"] if s["seat"] == current.seat)
        advice = _advice_view(current, state, hint=hint)
    return {"party": payload, **advice}


def party_seat_count(party: Party) -> int:
    return party.seats.count()


def party_rounds(party: Party) -> list[Round]:
    """The rounds of a party's seats, in seat order."""
    return list(party.seats.select_related("challenge", "party").order_by("seat"))


def party_payload(party: Party, seats: list[Round] | None = None) -> dict[str, Any]:
    """The party: its seats (each a round; ``seats`` when already read) and the
    standings, equal totals sharing a rank (a draw)."""
    seats = party_rounds(party) if seats is None else seats
    games = [round_game(rnd) for rnd in seats]
    totals = [game.total for game in games]
    ranks = yatzy.competition_ranks(totals)
    order = sorted(range(len(seats)), key=lambda i: (ranks[i], i))
    standings = [
        {
            "seat": seats[i].seat,
            "name": seats[i].seat_name,
            "total": totals[i],
            "rank": ranks[i],
        }
        for i in order
    ]
    return {
        "id": str(party.id),
        "mode": "party",
        "ruleset": party.ruleset,
        "rules": party.options,
        "status": party.status,
        "current_seat": party.current_seat if party.status == Party.Status.IN_PROGRESS else None,
        "seats": [
            {"seat": rnd.seat, "name": rnd.seat_name, "round": round_payload(rnd, game)}
            for rnd, game in zip(seats, games, strict=True)
        ],
        "standings": standings,
        "created_at": party.created_at,
        "completed_at": party.completed_at,
    }


# -- friend challenges ------------------------------------------------------------------


def share_get(*, code: str, player: User | None = None) -> ShareCode:
    """A live code, read as people type it; unknown, malformed and revoked codes are all
    404 (never 403), so nothing tells a guesser how close they came. With ``player``, a
    revoked code is still found for a friend who played it: revoking stops new rounds,
    not the comparison of those who played (SPEC §7)."""
    share = _share_by_code(code)
    if share is not None and share.revoked_at is not None:
        played = player is not None and share.plays.filter(player=player).exists()
        share = share if played else None
    if share is None:
        raise NotFoundError(_("No such friend challenge."), code="share_not_found")
    return share


def share_get_for_sharer(*, code: str, player: User) -> ShareCode:
    """One of the player's own codes, revoked ones included (a sharer knows their code,
    so revoking it again is no news to them: ``DELETE friend/{code}/`` is idempotent);
    anyone else's is 404 like an unknown code."""
    share = _share_by_code(code)
    if share is None or share.round.player_id != player.pk:
        raise NotFoundError(_("No such friend challenge."), code="share_not_found")
    return share


def _share_by_code(code: str) -> ShareCode | None:
    """The code as people type it (any case, Crockford's look-alikes), with its round,
    its player and its day; ``None`` for a malformed or unknown one."""
    normalized = code_read(code)
    if not normalized:
        return None
    return (
        ShareCode.objects.filter(code=normalized)
        .select_related("round__player", "round__challenge")
        .first()
    )


def share_url(share: ShareCode) -> str:
    """The page a friend opens: ``/f/{code}`` on the site."""
    return f"/f/{share.code}"


def _live_share_of(rnd: Round) -> ShareCode | None:
    return ShareCode.objects.filter(round=rnd, revoked_at__isnull=True).first()


def share_of_round(*, round_id: UUID, player: User) -> ShareCode:
    share = _live_share_of(round_get_for_player(round_id=round_id, player=player))
    if share is None:
        raise NotFoundError(_("This round is not shared."), code="share_not_found")
    return share


def share_plays(share: ShareCode) -> dict[str, Any]:
    """For the sharer: who played the code, and their scores."""
    plays = share.plays.select_related("player", "challenge").order_by("started_at")
    return {
        "code": share.code,
        "url": share_url(share),
        "created_at": share.created_at,
        "plays": [
            {
                "username": rnd.player.username,
                "display_name": rnd.player.display_name or rnd.player.username,
                "view": rnd.view or None,
                "status": round_status(rnd),
                "total": rnd.total,
                "started_at": rnd.started_at,
            }
            for rnd in plays
        ],
    }


def _turn_by_turn(rnd: Round, *, dice: bool = True) -> list[dict[str, Any]]:
    """Each turn of a finished round: the box, its points and the dice that filled it
    (``[]`` without ``dice``)."""
    game = yatzy.Game(_round_ruleset(rnd), bytes(rnd.seed))
    turns = []
    for action in round_game(rnd).actions:
        if action["type"] == "roll":
            game.roll(action["hold"])
        else:
            shown = list(game.dice)
            turn = game.turn
            points = game.score(action["category"])
            turns.append(
                {
                    "turn": turn,
                    "category": action["category"],
                    "points": points,
                    "dice": shown if dice else [],
                }
            )
    return turns


def daily_round_ranked(*, player: User | None, challenge: Challenge) -> bool:
    """Whether a round ``player`` starts now on ``challenge`` would be their ranked one:
    the first they start on the challenge's own day (SPEC §4); any later round, and any
    round of a past day, is practice. A visitor's first round (once registered) would be.
    A closed day is past for good: its seed has been shown, so it takes no ranked round
    even where it is today again (``DAILY_TIME_ZONE`` moved west since it closed)."""
    if challenge.date != clock.today() or challenge.closed_at is not None:
        return False
    if player is None:
        return True
    return not Round.objects.filter(player=player, challenge=challenge, ranked=True).exists()


def _scored(game: yatzy.Game) -> dict[str, Any]:
    """A finished game's scorecard with the sums the engine adds to it."""
    return {
        "scorecard": dict(game.scorecard),
        "upper_total": game.upper_total,
        "bonus": game.bonus,
        "extra_bonus": game.extra_bonus,
    }


def friend_view(*, share: ShareCode, player: User | None) -> dict[str, Any]:
    """What a friend sees of a code (a visitor, ``player`` ``None``, sees what a friend
    who has not played sees). The sharer's total only once the friend chose ``target``
    or has finished; both scorecards, turn by turn, once both are finished. A shared
    daily shows the sharer's boxes and points turn by turn, but not their dice until
    the day is revealed: the friend never rolled those dice (their own holds differed),
    and before the reveal they would tell more of the day's dice stream. No dice at
    all, the friend's own included, while the friend has an unfinished round on the
    same seed (another code's): they would tell its dice to come. ``counts`` says, for
    a shared daily, whether the friend's round of it is (or would be) their ranked
    round of the day (``ranked``) or practice; ``None`` for other games."""
    shared = share.round
    mine = (
        None
        if player is None
        else share.plays.filter(player=player)
        .select_related("challenge")
        .order_by("-started_at")
        .first()
    )
    finished = mine is not None and round_status(mine) != Round.Status.IN_PROGRESS
    both = finished and shared.status == Round.Status.COMPLETED
    # The dice turn by turn tell the seed's dice stream: like the seed (round_seed_shown),
    # none while the player has an unfinished round on these dice (another code's).
    dice = not (
        both
        and player is not None
        and shared.challenge is None
        and seed_unfinished(player_id=player.pk, seed=bytes(shared.seed)) is not None
    )
    sharers_dice = dice and (
        shared.challenge is None or challenge_seed_shown(shared.challenge) is not None
    )
    sharer = shared.player
    counts = None
    if shared.challenge is not None:
        # Playing the code takes the player's unfinished round of the day if they have
        # one (round_start_daily), so that round is the one that counts or not; unless
        # another code has it: that one is finished first (409 same_dice_unfinished),
        # and this code's round comes after it, as practice.
        resumed, later = mine, False
        if resumed is None and player is not None:
            unfinished = seed_unfinished(player_id=player.pk, seed=bytes(shared.seed))
            if unfinished is not None and round_status(unfinished) == Round.Status.IN_PROGRESS:
                resumed = unfinished
                later = unfinished.share_id not in (None, share.pk)
        ranked = not later and (
            resumed.ranked
            if resumed is not None
            else daily_round_ranked(player=player, challenge=shared.challenge)
        )
        counts = "ranked" if ranked else "practice"
    return {
        "code": share.code,
        "url": share_url(share),
        "sharer": sharer.display_name or sharer.username,
        "mode": shared.mode,
        "date": shared.challenge.date.isoformat() if shared.challenge else None,
        "ruleset": shared.ruleset,
        "options": shared.options,
        "counts": counts,
        "view": mine.view or None if mine is not None else None,
        "target": shared.total
        if mine is not None and (mine.view == "target" or finished)
        else None,
        "my_round": None
        if mine is None
        else {
            "id": str(mine.id),
            "status": round_status(mine),
            "theme": round_theme(mine),
            "total": mine.total if finished else None,
            **(_scored(round_game(mine)) if finished else {"scorecard": None}),
            "turns": _turn_by_turn(mine, dice=dice) if both else None,
        },
        "sharer_round": None
        if not both
        else {
            **_scored(round_game(shared)),
            "theme": round_theme(shared),
            "total": shared.total,
            "turns": _turn_by_turn(
                shared,
                dice=sharers_dice,
            ),
        },
    }
