"""View models: what a page shows, made from what one selector call returned. Pure
functions of their arguments (no query, no service): the round as a card of dice and
boxes, the hint panel, the computer's turns, an analysis turn by turn, a friend's
comparison, the party screen, a board's rows, a line of the games list. The rules they
show (points, paces, results, ranks) come decided from the selectors and the engine."""

from __future__ import annotations

import datetime as dt
import json
from collections.abc import Sequence
from typing import Any
from urllib.parse import quote

from django.http import QueryDict
from django.urls import reverse
from django.utils import formats, timezone
from django.utils.translation import get_language, ngettext
from django.utils.translation import gettext as _

import yatzy
from games.models import Round
from games.rules import box_name, ruleset_title
from leaderboards.links import page_link
from leaderboards.selectors import BoardView
from web import charts
from web.dice import die_svg
from web.helpers import held_from_query, with_holds
from yatzy.rules import UPPER_CATEGORIES

# How many moves a hint shows: the best and the next alternatives.
HINT_MOVES = 5
# The keys that score the boxes, in printed order (20 for Maxi): letters, without H
# (the hint) and R (the roll); the digits hold the dice.
BOX_KEYS = "abcdefgijklmnopqstuvwxyz"


def day_of(day: dt.date | str) -> dt.date:
    """A day as a date, from a payload's ISO text or a date."""
    return dt.date.fromisoformat(day) if isinstance(day, str) else day


# The languages whose dates Django's own formats write otherwise than their speakers
# do, with the format of a day and of a moment (a day and its time), set in lower case.
# Italian: Django writes "04 Dicembre 2026" and "Sabato 05 Dicembre 2026 00:30" (a
# padded day, capitals Italian does not use, and a weekday only there); Italians write
# "4 dicembre 2026". Its month names come with a capital from Django's catalogue (there
# is no lower-case one to name in a format), and an Italian date has no other word, so
# the whole text is lowered.
DATE_FORMATS: dict[str, tuple[str, str]] = {"it": ("j F Y", "j F Y, H:i")}


def _date_text(value: dt.date | dt.datetime, which: int, django_format: str) -> str:
    own = DATE_FORMATS.get(get_language() or "")
    if own is None:
        return formats.date_format(value, django_format)
    return formats.date_format(value, own[which]).lower()


def day_text(day: dt.date | dt.datetime | str) -> str:
    """A day (a date, its ISO text, or a moment's day in the current time zone) as every
    page writes it: the active language's one date format (the templates' ``|day``),
    never the ISO text of a payload.

    >>> from django.utils import translation
    >>> with translation.override("de"):
    ...     day_text("2026-12-03")
    '3. Dezember 2026'
    >>> with translation.override("it"):
    ...     day_text("2026-12-04")
    '4 dicembre 2026'
    """
    if isinstance(day, dt.datetime):  # a moment's day where the player is
        day = timezone.localtime(day).date()
    return _date_text(day_of(day), 0, "DATE_FORMAT")


def moment_text(when: dt.datetime) -> str:
    """A moment (a reveal, a close) as every page writes it: the day as ``day_text``
    writes it and the time, in the current time zone (the templates' ``|moment``).

    >>> from django.utils import translation
    >>> reveal = dt.datetime(2026, 12, 5, 0, 30, tzinfo=dt.UTC)
    >>> with translation.override("it"):
    ...     moment_text(reveal)
    '5 dicembre 2026, 00:30'
    """
    return _date_text(timezone.localtime(when), 1, "DATETIME_FORMAT")


def mini_dice(faces: Sequence[int], marked: Sequence[int] = ()) -> list[dict[str, Any]]:
    """Small dice for a text (a hint, an analysis, the computer's rolls); ``marked``
    positions are shown as kept."""
    return [
        {"face": face, "svg": die_svg(face), "kept": i in marked} for i, face in enumerate(faces)
    ]


def move_view(move: dict[str, Any]) -> dict[str, Any]:
    """A move of a hint or an analysis as the page words it: the faces it keeps (as
    dice), the box it fills with its points, the final score expected after it."""
    return {
        **move,
        "keep_dice": mini_dice(move["keep"]),
        "box": box_name(move["category"]) if move["category"] else None,
    }


def game_url(mode: str, game_id: str) -> str:
    """The page of a game: a party's screen, else the round's play page."""
    if mode == Round.Mode.PARTY:
        return reverse("web:party", kwargs={"party_id": game_id})
    return reverse("web:play", kwargs={"round_id": game_id})


# -- a round as a card ---------------------------------------------------------------------


def opponent_card(opponent: dict[str, Any] | None) -> dict[str, Any] | None:
    """The computer's card: its scorecard and each of its turns (the dice of every
    roll, with the dice it kept for the next one marked, and the box it filled)."""
    if opponent is None:
        return None
    turns = [
        {
            "number": turn["turn"] + 1,
            "rolls": [
                {
                    "number": r + 1,
                    "dice": mini_dice(dice, turn["holds"][r] if r < len(turn["holds"]) else ()),
                    "kept": r < len(turn["holds"]),
                }
                for r, dice in enumerate(turn["rolls"])
            ],
            "box": box_name(turn["category"]),
            # What the turn added, as the player's own score is read out (_last_score).
            "points": turn["points"] + turn["extra_bonus"],
        }
        for turn in opponent["turns"]
    ]
    return {
        "level": Round.Level(opponent["level"]).label,
        "scorecard": opponent["scorecard"],
        "upper_total": opponent["upper_total"],
        "bonus": opponent["bonus"],
        "extra_bonus": opponent["extra_bonus"],
        "total": opponent["total"],
        "turns": turns,
        "last": turns[-1] if turns else None,
    }


def standing_card(standing: dict[str, Any] | None) -> dict[str, Any] | None:
    """A finished daily round's place on its day (``leaderboards.selectors.day_standing``)
    with the day's score distribution as a chart."""
    if standing is None:
        return None
    me = standing["me"]
    return {
        "board": standing["board"],
        "count": standing["count"],
        "me": me,
        "chart": charts.distribution(standing["values"], me["value"] if me else None),
    }


def round_card(
    state: dict[str, Any],
    query: Any,
    *,
    play_url: str | None = None,
    roll_url: str | None = None,
    score_url: str | None = None,
    seat: int | None = None,
    standing: dict[str, Any] | None = None,
    last_score: dict[str, Any] | None = None,
) -> dict[str, Any]:
    """What the play page shows of a round (``state``: the API's round payload) of any
    mode: the dice with the holds in ``query``, the scorecard with each open box's
    points now, the upper bonus pace, the computer's card, and a finished daily round's
    ``standing``; at a turn's start, the box the last turn scored with its points and
    any extra bonus the score earned (``last_score``, from
    ``games.selectors.round_view``). A party's page passes its own URLs and the
    ``seat`` its forms act for."""
    ruleset = yatzy.get_ruleset(state["ruleset"], **state["rules"])
    pace = yatzy.bonus_pace(ruleset, state["scorecard"])
    playing = state["status"] == Round.Status.IN_PROGRESS
    can_hold = playing and state["roll"] > 0 and state["rolls_left"] > 0
    held = held_from_query(query, len(state["dice"])) if can_hold else []
    dice = [
        {
            "index": i,
            "number": i + 1,
            "face": face,
            "svg": die_svg(face),
            "held": i in held,
            "suggested": False,
        }
        for i, face in enumerate(state["dice"])
    ]
    opponent = opponent_card(state["opponent"])
    boxes = [
        {
            "id": box,
            # Translated once here: the row uses the name three times.
            "name": str(box_name(box)),
            "points": points,
            "now": state["options"].get(box),
            # A box the dice do not fit scores 0: the page asks once before storing it.
            "scratch": state["options"].get(box) == 0,
            "key": BOX_KEYS[i] if i < len(BOX_KEYS) else None,
            "upper": box in pace["par"],
            "par": pace["par"].get(box),
            "pace": pace["boxes"].get(box),
            "opponent": opponent["scorecard"][box] if opponent else None,
            "suggested": False,
        }
        for i, (box, points) in enumerate(state["scorecard"].items())
    ]
    asked = query.get("scratch") if playing else None
    for box in boxes:
        box["armed"] = box["scratch"] and box["id"] == asked
    confirm = next((box for box in boxes if box["armed"]), None)
    round_id = state["id"]
    url = play_url or reverse("web:play", kwargs={"round_id": round_id})
    return {
        "round": state,
        "scored": _scored(last_score) if playing and state["roll"] == 0 and seat is None else None,
        "day": dt.date.fromisoformat(state["date"]) if state["date"] else None,
        "ruleset_name": ruleset_title(state["ruleset"]),
        "dice": dice,
        "dice_count": ruleset.dice_count,
        "held": held,
        "can_hold": can_hold,
        "can_roll": playing and state["rolls_left"] > 0,
        "upper_boxes": [box for box in boxes if box["upper"]],
        "lower_boxes": [box for box in boxes if not box["upper"]],
        "pace": pace,
        "opponent": opponent,
        "finished": standing_card(standing),
        "confirm": confirm,
        "play_url": url,
        "play_url_held": with_holds(url, held),
        "roll_url": roll_url or reverse("web:play-roll", kwargs={"round_id": round_id}),
        "score_url": score_url or reverse("web:play-score", kwargs={"round_id": round_id}),
        "seat": seat,
    }


def _scored(last_score: dict[str, Any] | None) -> dict[str, Any] | None:
    """The box the last turn scored and its points with any extra bonus the score
    earned (a joker's 100), read out at the next turn's start (a screen reader has no
    dice to read there); ``None`` before the first score."""
    if last_score is None:
        return None
    return {"name": str(box_name(last_score["category"])), "points": last_score["points"]}


def hint_panel(
    hint: dict[str, Any] | None,
    refused: str | None,
    card: dict[str, Any],
    wait: dict[str, Any] | None = None,
) -> dict[str, Any] | None:
    """The hint panel: the best move and the next ones with their expected final
    scores; the best move's dice (or box) are marked on ``card``. A refusal (the table
    still being built, a throttle) is the panel's message (a game with saved rolls has no
    Hint button: ``games.selectors.round_advice_allowed``); while the table
    is built, ``wait`` (``{percent, retry_after}``) is how far it is and when to ask
    again, with the link that asks."""
    if refused is not None:
        return {
            "error": refused,
            "wait": wait,
            "retry_url": with_holds(card["play_url"], card["held"], hint=1) if wait else None,
        }
    if hint is None:
        return None
    best = hint["best"]
    moves = []
    for move in hint["moves"][:HINT_MOVES]:
        shown = move_view(move)
        shown["behind"] = best["expected"] - move["expected"]
        if move["kind"] == "hold":
            shown["apply_url"] = with_holds(card["play_url"], move["hold"], hint=1)
        moves.append(shown)
    if best["kind"] == "hold":
        for die in card["dice"]:
            die["suggested"] = die["index"] in best["hold"]
    if best["kind"] == "score":
        for box in card["upper_boxes"] + card["lower_boxes"]:
            box["suggested"] = box["id"] == best["category"]
    return {"best": moves[0], "others": moves[1:], "count": len(hint["moves"])}


def round_title(state: dict[str, Any], ruleset: str) -> str:
    """The play page's title: the daily's date, else the ``ruleset``'s name and the mode."""
    if state["date"]:
        return _("Daily of %(date)s") % {"date": day_text(state["date"])}
    if state["mode"] == Round.Mode.COMPUTER:
        return _("%(ruleset)s against the computer") % {"ruleset": ruleset}
    if state["mode"] == Round.Mode.FRIEND:
        return _("%(ruleset)s: a friend's challenge") % {"ruleset": ruleset}
    if state["mode"] == Round.Mode.SOLO:
        return _("%(ruleset)s: a solo game") % {"ruleset": ruleset}
    return ruleset


def result_text(card: dict[str, Any], title: str, home: str) -> str | None:
    """A finished round's result to paste anywhere, in the player's language and free
    of spoilers (no dice, no seed): the daily's day (else the game's ``title``), the
    total, the upper bonus, the rank of the day once known, and the site's address
    ``home``."""
    state = card["round"]
    if state["status"] != Round.Status.COMPLETED:
        return None
    heading = title
    if card["day"] is not None:
        heading = f"{_('Maxi Yatzy Daily')} {day_text(card['day'])}"
    parts = [
        ngettext("%(total)s point", "%(total)s points", state["total"]) % {"total": state["total"]},
        _("bonus %(bonus)s") % {"bonus": state["bonus"]},
    ]
    me = card["finished"]["me"] if card["finished"] else None
    if me is not None:
        place = {"rank": me["rank"], "players": card["finished"]["count"]}
        if not me["on_board"]:
            parts.append(_("practice: would rank %(rank)s of %(players)s") % place)
        elif state["ranked"]:
            parts.append(_("rank %(rank)s of %(players)s") % place)
        else:  # the day's line is the player's ranked round, not this one
            parts.append(_("practice: not ranked"))
    return "\n".join([heading, " · ".join(parts), home])


def dice_check(card: dict[str, Any]) -> dict[str, Any]:
    """What "Check the dice" needs once the seed is shown: the seed and the commitment,
    the action log and the scorecard as JSON for the page's own check (the browser
    recomputes every die with its own dice stream v1), the boxes' names."""
    state = card["round"]
    if state["seed"] is None:
        return {"commitment": state["commitment"], "seed": None}
    names = {box["id"]: str(box["name"]) for box in card["upper_boxes"] + card["lower_boxes"]}
    return {
        "commitment": state["commitment"],
        "seed": state["seed"],
        "actions": json.dumps(state["actions"], separators=(",", ":")),
        "scorecard": json.dumps(state["scorecard"], separators=(",", ":")),
        "names": json.dumps(names, ensure_ascii=False, separators=(",", ":")),
        "dice_count": card["dice_count"],
    }


def share_card(share: dict[str, Any] | None, absolute: Any) -> dict[str, Any] | None:
    """The live friend code of a finished round, its link (``absolute`` makes it a
    full address) and who played it."""
    if share is None:
        return None
    return {**share, "link": absolute(share["url"])}


# -- an analysis ----------------------------------------------------------------------------


def analysis_turns(analysis: dict[str, Any]) -> list[dict[str, Any]]:
    """The analysis turn by turn: each decision with the dice it was made on, what was
    played and the best move, and the points the turn lost."""
    turns: dict[int, dict[str, Any]] = {}
    for decision in analysis["decisions"]:
        turn = turns.setdefault(
            decision["turn"], {"number": decision["turn"] + 1, "decisions": [], "loss": 0.0}
        )
        turn["decisions"].append(
            {
                **decision,
                "dice_shown": mini_dice(decision["dice"], decision["played"]["hold"]),
                "played": move_view(decision["played"]),
                "best": move_view(decision["best"]),
            }
        )
        turn["loss"] += decision["loss"]
    return list(turns.values())


def analysis_chart(analysis: dict[str, Any]) -> charts.Chart:
    """The final score the exact table expected from the start and after each turn."""
    after_turns = [d["played"]["expected"] for d in analysis["decisions"] if d["kind"] == "score"]
    return charts.expectation(analysis["expected_start"], after_turns)


# -- a friend's challenge ---------------------------------------------------------------------


def comparison(view: dict[str, Any]) -> dict[str, Any] | None:
    """Both scorecards side by side, box by box (with the upper section's sum and its
    bonus after the upper boxes, and any extra bonus, as on a score pad, so each column
    adds up to its total) and turn by turn, once both are done (``view``: the friend
    view of ``games.selectors.friend_view``)."""
    mine, theirs = view["my_round"], view["sharer_round"]
    if mine is None or theirs is None:
        return None
    threshold, points = yatzy.get_ruleset(view["ruleset"], **view["options"]).upper_bonus
    rows: list[dict[str, Any]] = []
    for box, got in mine["scorecard"].items():
        rows.append(
            {"kind": "box", "name": box_name(box), "mine": got, "theirs": theirs["scorecard"][box]}
        )
        if box == UPPER_CATEGORIES[-1]:
            rows.append(
                {"kind": "upper", "mine": mine["upper_total"], "theirs": theirs["upper_total"]}
            )
            rows.append({"kind": "bonus", "mine": mine["bonus"], "theirs": theirs["bonus"]})
    if mine["extra_bonus"] or theirs["extra_bonus"]:
        rows.append({"kind": "extra", "mine": mine["extra_bonus"], "theirs": theirs["extra_bonus"]})
    return {
        "rows": rows,
        "bonus_points": points,
        "bonus_threshold": threshold,
        "turns": [
            {
                "number": a["turn"] + 1,
                "sides": [
                    {
                        **side,
                        "box": box_name(side["category"]),
                        "dice_shown": mini_dice(side["dice"]),
                        # Each side's dice in its own round's skin (December's are red).
                        "theme": theme,
                    }
                    for side, theme in ((a, mine["theme"]), (b, theirs["theme"]))
                ],
            }
            for a, b in zip(mine["turns"], theirs["turns"], strict=True)
        ],
        "mine": mine["total"],
        "theirs": theirs["total"],
        "result": yatzy.result_of(mine["total"], theirs["total"]),
    }


def rules_query(options: dict[str, Any]) -> dict[str, str]:
    """Options as the rules page's query takes them (``upper_bonus=75,50``).

    >>> rules_query({"upper_bonus": [75, 50], "forced_order": True})
    {'upper_bonus': '75,50', 'forced_order': 'true'}
    """
    return {
        name: ",".join(map(str, value)) if isinstance(value, list) else str(value).lower()
        for name, value in options.items()
    }


def option_words(option: dict[str, Any], value: Any) -> str:
    """An option's value as a player reads it (``option``: one of
    ``games.rules.ruleset_options``): a flag is Yes or No, the upper bonus's pair is
    its points at its threshold, a number is itself.

    >>> from django.utils import translation
    >>> with translation.override("en"):
    ...     option_words({"kind": "flag"}, False), option_words({"kind": "pair"}, [84, 100])
    ('No', '100 at 84')
    """
    if option["kind"] == "flag":
        return _("Yes") if value else _("No")
    if option["kind"] == "pair":
        threshold, points = value
        return _("%(points)s at %(threshold)s") % {"points": points, "threshold": threshold}
    return str(value)


def rules_options(options: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """The rules page's options, each with its default and the value in force in words."""
    return [
        {
            **option,
            "default_words": option_words(option, option["default"]),
            "value_words": option_words(option, option["value"]),
        }
        for option in options
    ]


# -- a party ----------------------------------------------------------------------------------


def party_url(party_id: str, held: Sequence[int | str] = ()) -> str:
    return with_holds(reverse("web:party", kwargs={"party_id": party_id}), held)


def party_screen(view: dict[str, Any], query: Any) -> dict[str, Any]:
    """The party screen (``view``: ``games.selectors.party_page_view``, the API's party
    payload and the current seat's hints): whose turn it is, that seat's dice and
    scorecard (its forms act for that seat) with its hint when asked for, every seat's
    scorecard, and the standings with draws."""
    party = view["party"]
    url = party_url(party["id"])
    roll_url = reverse("web:party-roll", kwargs={"party_id": party["id"]})
    score_url = reverse("web:party-score", kwargs={"party_id": party["id"]})
    seats = []
    for seat in party["seats"]:
        current = seat["seat"] == party["current_seat"]
        card = round_card(
            seat["round"],
            query if current else QueryDict(),
            play_url=url,
            roll_url=roll_url,
            score_url=score_url,
            seat=seat["seat"],
        )
        seats.append({"seat": seat["seat"], "name": seat["name"], "current": current, "card": card})
    # A shared rank is a draw only once the party is over: before that, equal totals
    # (every seat's 0 before the first box) are only level for now.
    over = party["current_seat"] is None
    ranks = [line["rank"] for line in party["standings"]]
    standings = [
        {**line, "draw": over and ranks.count(line["rank"]) > 1} for line in party["standings"]
    ]
    current_seat = next((seat for seat in seats if seat["current"]), None)
    first = [line for line in standings if line["rank"] == 1]
    hint = None
    if current_seat is not None and view["advice"] and query.get("hint"):
        hint = hint_panel(
            view["hint"], view["hint_refused"], current_seat["card"], view["hint_wait"]
        )
    return {
        "advice": view["advice"] and current_seat is not None,
        "hint": hint,
        "winners": [line["name"] for line in first],
        "winners_total": first[0]["total"] if first else None,
        "party": party,
        "seats": seats,
        "current": current_seat,
        "card": current_seat["card"] if current_seat else None,
        "standings": standings,
        "ruleset_name": ruleset_title(party["ruleset"]),
        "theme": seats[0]["card"]["round"]["theme"],
        "play_url": url,
    }


# -- boards and the games list -------------------------------------------------------------


def board_rows(view: BoardView, username: str | None) -> list[dict[str, Any]]:
    """A board page's rows, each linked to its player's page; ``username``'s is ``me``."""
    # One reverse for the page, not one per row: the rows' links share the prefix.
    players = reverse("web:player", kwargs={"username": "-"})[:-2]
    return [
        {**row, "me": row["username"] == username, "url": f"{players}{quote(row['username'])}/"}
        for row in view.results
    ]


def board_links(view: BoardView, url: str) -> dict[str, str | None]:
    """A board page's next and previous pages (``url``: the page's own path and query)."""
    return {
        "next_url": page_link(url, view.page, view.after, step=1) if view.has_next else None,
        "previous_url": page_link(url, view.page, view.before, step=-1)
        if view.has_previous
        else None,
    }


def record_charts(record: dict[str, Any]) -> dict[str, Any]:
    """A player page's charts (``record``: ``leaderboards.selectors.player_record``):
    the score history with the expert's line, how the player's scores are spread, and
    the points their decisions gave away on each analysed day (``decision_days``, the
    same days newest first, with the luck of each)."""
    analysed = [line for line in record["history"] if line["loss"] is not None]
    return {
        "history_chart": charts.history(
            [(line["date"], line["total"], line["expert"]) for line in record["history"]],
            label=day_text,
        ),
        "scores_chart": charts.distribution(record["scores"], None, bins=20),
        "decisions_chart": charts.decisions(
            [(line["date"], line["loss"]) for line in analysed], label=day_text
        ),
        "decision_days": analysed[::-1],
    }


def game_line(summary: dict[str, Any]) -> dict[str, Any]:
    """One line of the games list (``games.selectors.game_summary``), with its mode and
    ruleset named and its link."""
    mode = str(Round.Mode(summary["mode"]).label)
    if summary["level"]:
        mode = _("%(mode)s (%(level)s)") % {
            "mode": mode,
            "level": Round.Level(summary["level"]).label,
        }
    return {
        **summary,
        "day": day_of(summary["date"]) if summary["date"] else None,
        "mode_name": mode,
        "ruleset_name": ruleset_title(summary["ruleset"]),
        "url": game_url(summary["mode"], summary["id"]),
    }
