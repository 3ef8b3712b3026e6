"""Today's daily: the front page, and starting a day's round."""

from __future__ import annotations

import datetime as dt

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.http import HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.urls import reverse
from django.utils import timezone
from django.views.decorators.http import require_safe

from config.api_errors import ServiceError, error_text
from daily import clock
from daily.services import challenge_for_play
from games import selectors as game_selectors
from games import services as game_services
from games.models import Round
from leaderboards import boards
from leaderboards import selectors as board_selectors
from web.helpers import form_address, page_errors, player_or_none


def _seconds_until(moment: dt.datetime) -> int:
    return max(0, int((moment - timezone.now()).total_seconds()))


@require_safe
@page_errors
def home(request: HttpRequest) -> HttpResponse:
    today = clock.today()
    player = player_or_none(request)
    daily = game_selectors.challenge_payload(challenge=challenge_for_play(day=today), player=player)
    standing = None
    mine = daily["my_round"]
    if player is not None and mine is not None and mine["status"] == Round.Status.COMPLETED:
        line = board_selectors.board_rank(board=boards.daily_key(today), player_id=player.pk)
        standing = None if line is None else {"rank": line[0], "value": line[1]}
    calendar = None
    if boards.advent_showing(today):  # a visitor's doors show no scores
        calendar = board_selectors.advent_calendar(player=player, year=today.year)
    return render(
        request,
        "web/home.html",
        {
            "daily": daily,
            "today": today,
            "seconds_left": _seconds_until(daily["closes_at"]),
            # In UTC for timeuntil, which measures in the deadline's own zone by the wall
            # clock: an hour off on a day the clocks change.
            "closes_at_utc": daily["closes_at"].astimezone(dt.UTC),
            "standing": standing,
            "calendar": calendar,
            "yesterday": today - dt.timedelta(days=1),
            "previous_day": board_selectors.board_days(day=today)[0],
        },
    )


@login_required
@form_address(lambda day: reverse("web:home"))
def daily_play(request: HttpRequest, day: dt.date) -> HttpResponse:
    """Start (or resume) the player's round of a day: ranked on the day itself if it is
    their first, else practice; then play it."""
    try:
        rnd, _created = game_services.round_start_daily(player=request.user, day=day)  # type: ignore[arg-type]
    except ServiceError as exc:
        messages.error(request, error_text(exc))
        return redirect("web:home")
    return redirect("web:play", round_id=rnd.id)
