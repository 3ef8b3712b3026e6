"""The boards (today's dice, best day, streaks, advent, each season's), the advent
calendar and a player's page."""

from __future__ import annotations

import datetime as dt
from collections.abc import Callable
from typing import Any

from django.contrib.auth.decorators import login_required
from django.http import HttpRequest, HttpResponse
from django.shortcuts import render
from django.utils.functional import Promise
from django.utils.http import urlencode
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy

from accounts.models import User
from accounts.selectors import player_get
from daily import clock
from leaderboards import boards
from leaderboards import selectors as board_selectors
from leaderboards.serializers import BoardQuerySerializer
from web import charts, presenters
from web.helpers import View, error_page, page_errors


def _board_page(
    request: HttpRequest,
    resolve: Callable[[str | None], board_selectors.Board],
    *,
    title: str,
    value_label: str,
    extra: dict[str, Any] | None = None,
) -> HttpResponse:
    query = BoardQuerySerializer(data=request.GET)
    if not query.is_valid():
        return error_page(request, _("That is not a page of this board."), status=400)
    season = query.validated_data.get("season")
    board = resolve(season)
    player: User = request.user  # type: ignore[assignment]
    around = query.validated_data.get("around") == "me"
    view = board_selectors.board_view(
        board=board,
        player=player,
        around=around,
        page=query.validated_data["page"],
        cursor=query.validated_data.get("cursor"),
    )
    keep = {"season": season} if season else {}
    context = {
        "title": title,
        "value_label": value_label,
        "board": board,
        "view": view,
        "rows": presenters.board_rows(view, player.username),
        **presenters.board_links(view, request.get_full_path()),
        "around": around,
        "around_url": f"{request.path}?{urlencode({'around': 'me', **keep})}",
        "first_url": request.path + (f"?{urlencode(keep)}" if keep else ""),
        "season": season,
        "seasons": board_selectors.season_list(),
        "streaks": board.kind == boards.STREAK,
        **(extra or {}),
    }
    if board.kind == boards.DAILY:
        me = view.me and {**view.me, "on_board": True}
        context["chart"] = charts.distribution(sorted(view.histogram), me["value"] if me else None)
        context["chart_me"] = me
        context["chart_count"] = view.count
        context["expert"] = board_selectors.board_expert(board=board)
    return render(request, "web/board.html", context)


@login_required
@page_errors
def board_daily(request: HttpRequest, day: dt.date) -> HttpResponse:
    today = clock.today()
    return _board_page(
        request,
        lambda season: board_selectors.board_daily(day=day, season_slug=season),
        title=_("Today's dice") if day == today else _("The dice of %(date)s") % {"date": day},
        value_label=_("Score"),
        extra={
            "day": day,
            "previous_day": day - dt.timedelta(days=1),
            "next_day": day + dt.timedelta(days=1) if day < today else None,
        },
    )


def _ranked_board(kind: str, title: Promise, value_label: Promise) -> View:
    """The best-day or streak board's page, overall or of a season."""

    @login_required
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


@login_required
@page_errors
def board_advent(request: HttpRequest, year: int) -> HttpResponse:
    return _board_page(
        request,
        lambda season: board_selectors.board_advent(year=year, season_slug=season),
        title=_("Advent %(year)s") % {"year": year},
        value_label=_("Sum of December 1-24"),
        extra={"year": year},
    )


@login_required
@page_errors
def advent(request: HttpRequest, year: int) -> HttpResponse:
    calendar = board_selectors.advent_calendar(player=request.user, year=year)  # type: ignore[arg-type]
    return render(request, "web/advent.html", {"calendar": calendar, "year": year})


@login_required
@page_errors
def player_page(request: HttpRequest, username: str) -> HttpResponse:
    person = player_get(username=username)
    record = board_selectors.player_record(player=person)
    chart = charts.history([(line["date"], line["total"]) for line in record["history"]])
    return render(
        request,
        "web/player.html",
        {"person": person, "record": record, "chart": chart, "mine": person.pk == request.user.pk},
    )
