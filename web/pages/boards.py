"""The boards (today's dice, a day's best decisions, best day, streaks, advent, each
season's), the advent calendar and a player's page."""

from __future__ import annotations

import datetime as dt
from collections.abc import Callable
from typing import Any

from django.http import HttpRequest, HttpResponse
from django.shortcuts import render
from django.utils.functional import Promise
from django.utils.http import urlencode
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy
from django.views.decorators.http import require_safe

from accounts.selectors import player_get
from daily import clock
from leaderboards import boards
from leaderboards import selectors as board_selectors
from leaderboards.serializers import BoardQuerySerializer
from web import charts, presenters
from web.helpers import View, error_page, page_errors, player_or_none


def _board_page(
    request: HttpRequest,
    resolve: Callable[[str | None], board_selectors.Board],
    *,
    title: str,
    value_label: str,
    extra: Callable[[str | None], dict[str, Any]] | None = None,
) -> HttpResponse:
    """A board's page; ``extra`` adds what the board's kind shows, from the season (its
    ``seasons``, the picker's, where only some seasons have the board)."""
    query = BoardQuerySerializer(data=request.GET)
    if not query.is_valid():
        return error_page(request, _("That is not a page of this board."), status=400)
    season = query.validated_data.get("season")
    board = resolve(season)
    if season is not None:  # named by its id, the season is still shown and linked by its slug
        season = board_selectors.season_get(slug=season).slug
    player = player_or_none(request)
    # A visitor has no line to be around: they get the board's first page.
    around = query.validated_data.get("around") == "me" and player is not None
    view = board_selectors.board_view(
        board=board,
        player=player,
        around=around,
        page=query.validated_data["page"],
        cursor=query.validated_data.get("cursor"),
    )
    keep = {"season": season} if season else {}
    shown = extra(season) if extra else {}
    if "seasons" not in shown:  # a board's kind may pick the seasons that have it
        shown["seasons"] = board_selectors.season_list()
    context = {
        "title": title,
        "value_label": value_label,
        "board": board,
        "view": view,
        "rows": presenters.board_rows(view, player.username if player else None),
        **presenters.board_links(view, request.get_full_path()),
        "around": around,
        "around_url": f"{request.path}?{urlencode({'around': 'me', **keep})}",
        "first_url": request.path + (f"?{urlencode(keep)}" if keep else ""),
        "season": season,
        # Today's boards (the tabs) have the season only if it holds today: else 404.
        "today_season": season
        if season and board_selectors.season_holds(slug=season, day=clock.today())
        else None,
        "streaks": board.kind == boards.STREAK,
        "decisions": board.kind == boards.DECISIONS,
        **shown,
    }
    if board.kind == boards.DAILY:
        me = view.me and {**view.me, "on_board": True}
        context["chart"] = charts.distribution(sorted(view.histogram), me["value"] if me else None)
        context["chart_me"] = me
        context["chart_count"] = view.count
        context["expert"] = board_selectors.board_expert(board=board)
    return render(request, "web/board.html", context)


def _day_links(day: dt.date) -> Callable[[str | None], dict[str, Any]]:
    """What a day's boards (its scores, its decisions) show beside the board: the day,
    the days before and after it that have a board, and whether its dice are revealed
    (its decisions are judged from then on)."""

    def days(season: str | None) -> dict[str, Any]:
        previous_day, next_day = board_selectors.board_days(day=day, season_slug=season)
        return {
            "day": day,
            "seasons": board_selectors.season_list(day=day),
            "previous_day": previous_day,
            "next_day": next_day,
            "revealed": clock.is_revealed(day),
        }

    return days


@require_safe
@page_errors
def board_daily(request: HttpRequest, day: dt.date) -> HttpResponse:
    return _board_page(
        request,
        lambda season: board_selectors.board_daily(day=day, season_slug=season),
        title=_("Today's dice")
        if day == clock.today()
        else _("The dice of %(date)s") % {"date": presenters.day_text(day)},
        value_label=_("Score"),
        extra=_day_links(day),
    )


@require_safe
@page_errors
def board_decisions(request: HttpRequest, day: dt.date) -> HttpResponse:
    """A day's best decisions (SPEC §12): each analysed ranked round's loss, lowest
    first, once the day is revealed."""
    return _board_page(
        request,
        lambda season: board_selectors.board_decisions(day=day, season_slug=season),
        title=_("Best decisions of %(date)s") % {"date": presenters.day_text(day)},
        value_label=_("Points given away"),
        extra=_day_links(day),
    )


def _ranked_board(kind: str, title: Promise, value_label: Promise) -> View:
    """The best-day or streak board's page, overall or of a season."""

    @require_safe
    @page_errors
    def view(request: HttpRequest) -> HttpResponse:
        return _board_page(
            request,
            lambda season: board_selectors.board_ranked(kind=kind, season_slug=season),
            title=str(title),
            value_label=str(value_label),
        )

    return view


board_best_day = _ranked_board(boards.BEST, gettext_lazy("Best day"), gettext_lazy("Best score"))
board_streaks = _ranked_board(
    boards.STREAK, gettext_lazy("Most days in a row"), gettext_lazy("Longest")
)


@require_safe
@page_errors
def board_advent(request: HttpRequest, year: int) -> HttpResponse:
    return _board_page(
        request,
        lambda season: board_selectors.board_advent(year=year, season_slug=season),
        title=_("Advent %(year)s") % {"year": year},
        value_label=_("Sum of December 1-24"),
        extra=lambda season: {"year": year, "seasons": board_selectors.season_list(advent_of=year)},
    )


@require_safe
@page_errors
def advent(request: HttpRequest, year: int) -> HttpResponse:
    """The 24 doors: a player's with their scores, a visitor's without."""
    calendar = board_selectors.advent_calendar(player=player_or_none(request), year=year)
    return render(request, "web/advent.html", {"calendar": calendar, "year": year})


@require_safe
@page_errors
def player_page(request: HttpRequest, username: str) -> HttpResponse:
    """A player's record, for anyone: their stats, score history and spread."""
    person = player_get(username=username)
    record = board_selectors.player_record(player=person)
    return render(
        request,
        "web/player.html",
        {
            "person": person,
            "record": record,
            **presenters.record_charts(record),
            "mine": person.pk == request.user.pk,
        },
    )
