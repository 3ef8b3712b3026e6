"""Round reads: the one place that turns a stored round into what a player may see,
the hint and the analysis of a round, and the player's list of games."""

from __future__ import annotations

from typing import Any
from uuid import UUID

from django.db.models import Q, QuerySet

import yatzy
from accounts.models import User
from config.api_errors import ForbiddenError, NotFoundError, ServiceError
from daily import clock
from daily.models import Challenge
from daily.selectors import challenge_seed_shown
from games import tables
from games.models import Round
from yatzy.strategy import Move, analyse, best_move


def round_game(rnd: Round) -> yatzy.Game:
    """The engine game of a stored round."""
    return yatzy.Game.from_snapshot(rnd.snapshot)


def round_get_for_player(*, round_id: UUID, player: User) -> Round:
    """The player's round; another player's round is indistinguishable from none (404)."""
    # The action log is also in the snapshot, so the hot path does not load it.
    rounds = Round.objects.select_related("challenge").defer("actions")
    try:
        return rounds.get(pk=round_id, player=player)
    except Round.DoesNotExist:
        raise NotFoundError("No such round.", code="round_not_found") from None


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
    any other game's once it is over (until then it would tell the dice to come)."""
    if rnd.challenge is not None:
        return challenge_seed_shown(rnd.challenge)
    return bytes(rnd.seed).hex() if rnd.status != Round.Status.IN_PROGRESS else None


def round_theme(rnd: Round) -> str:
    """The die skin: the daily's day decides, else the day the game started."""
    day = rnd.challenge.date if rnd.challenge is not None else clock.today(rnd.started_at)
    return clock.theme(day)


def round_result(rnd: Round, game: yatzy.Game) -> str | None:
    """``win``, ``loss`` or ``draw`` for the player, once a computer game is over."""
    if rnd.opponent is None or rnd.status != Round.Status.COMPLETED:
        return None
    theirs = rnd.opponent["snapshot"]["total"]
    return "win" if game.total > theirs else "loss" if game.total < theirs else "draw"


def _opponent_view(rnd: Round) -> dict[str, Any] | None:
    if rnd.opponent is None:
        return None
    bot = rnd.opponent["snapshot"]
    return {
        "level": rnd.level,
        "scorecard": bot["scorecard"],
        "upper_total": bot["upper_total"],
        "bonus": bot["bonus"],
        "total": bot["total"],
        "turns": rnd.opponent["turns"],
    }


def round_payload(rnd: Round, game: yatzy.Game | None = None) -> dict[str, Any]:
    """Everything a player may see of a round. Dice appear only once rolled."""
    game = game or round_game(rnd)
    day = rnd.challenge.date if rnd.challenge else None
    status = round_status(rnd)
    return {
        "id": str(rnd.id),
        "mode": rnd.mode,
        "date": day.isoformat() if day else None,
        "ruleset": rnd.ruleset,
        "rules": rnd.options,
        "ranked": rnd.ranked,
        "status": status,
        "theme": round_theme(rnd),
        "turn": game.turn,
        "turns": len(game.ruleset.categories),
        "roll": game.rolls_used,
        "rolls_left": game.rolls_left if status == Round.Status.IN_PROGRESS else 0,
        "dice": list(game.dice),
        "scorecard": dict(game.scorecard),
        "options": game.options() if status == Round.Status.IN_PROGRESS else {},
        "upper_total": game.upper_total,
        "bonus": game.bonus,
        "extra_bonus": game.extra_bonus,
        "total": game.total,
        "actions": game.actions,
        "commitment": yatzy.commitment(bytes(rnd.seed)),
        "seed": round_seed_shown(rnd),
        "started_at": rnd.started_at,
        "completed_at": rnd.completed_at,
        "level": rnd.level or None,
        "opponent": _opponent_view(rnd),
        "result": round_result(rnd, game),
    }


def _round_summary(rnd: Round | None) -> dict[str, Any] | None:
    if rnd is None:
        return None
    return {
        "id": str(rnd.id),
        "status": round_status(rnd),
        "ranked": rnd.ranked,
        "total": rnd.total,
    }


def challenge_payload(*, challenge: Challenge, player: User) -> dict[str, Any]:
    """A day's challenge as the player sees it: ``my_round`` is their ranked round (its
    total is their score of the day), ``practice_round`` their unfinished practice round."""
    rounds = Round.objects.filter(challenge=challenge, player=player).select_related("challenge")
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
        "my_round": _round_summary(ranked),
        "practice_round": _round_summary(practice),
        "expert_total": challenge.expert_total if challenge.is_revealed else None,
    }


# -- hints and analysis ---------------------------------------------------------------


def round_advice_check(rnd: Round) -> None:
    """Hints and analysis come from the exact table, so they are refused (403
    ``hint_unavailable``) on every round of a daily whose seed is not revealed yet:
    they would help a ranked score. Any other round, and every round of a revealed day,
    may have them."""
    if rnd.challenge is not None and not clock.is_revealed(rnd.challenge.date):
        raise ForbiddenError(
            "There are no hints or analysis for the daily until its day is over.",
            code="hint_unavailable",
        )


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
        raise ServiceError("The round is over: there is no move to advise.", code="game_over")
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
            "The analysis is ready once the round is over.", code="round_in_progress"
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


# -- the player's games -----------------------------------------------------------------


def games_for_player(
    *, player: User, mode: str | None = None, status: str | None = None
) -> QuerySet[Round]:
    """The player's rounds of every mode, newest first; ``status`` as reads show it (a
    ranked round unfinished at its day's reveal is ``expired``)."""
    rounds = Round.objects.filter(player=player).select_related("challenge").defer("actions")
    if mode is not None:
        rounds = rounds.filter(mode=mode)
    lapsed = Q(
        status=Round.Status.IN_PROGRESS,
        ranked=True,
        challenge__date__lte=clock.last_revealed_day(),
    )
    if status == Round.Status.IN_PROGRESS:
        rounds = rounds.filter(status=status).exclude(lapsed)
    elif status == Round.Status.EXPIRED:
        rounds = rounds.filter(Q(status=status) | lapsed)
    elif status is not None:
        rounds = rounds.filter(status=status)
    return rounds.order_by("-started_at", "-id")


def game_summary(rnd: Round) -> dict[str, Any]:
    """One line of the games list."""
    opponent = rnd.opponent["snapshot"]["total"] if rnd.opponent is not None else None
    game = round_game(rnd)
    return {
        "id": str(rnd.id),
        "mode": rnd.mode,
        "ruleset": rnd.ruleset,
        "date": rnd.challenge.date.isoformat() if rnd.challenge else None,
        "ranked": rnd.ranked,
        "status": round_status(rnd),
        "turn": game.turn,
        "total": game.total,
        "level": rnd.level or None,
        "opponent_total": opponent,
        "result": round_result(rnd, game),
        "started_at": rnd.started_at,
        "completed_at": rnd.completed_at,
    }
