"""A round in the browser: its page (dice, scorecard, hint, result, share), the roll and
score forms, sharing it, and its analysis once over."""

from __future__ import annotations

import datetime as dt
from collections.abc import Sequence
from uuid import UUID

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.http import HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.urls import reverse
from django.utils.translation import gettext as _
from django.views.decorators.http import require_safe

from accounts.models import User
from config.api_errors import NotFoundError, ServiceError, error_text
from games import selectors as game_selectors
from games import services as game_services
from games.models import Round
from games.rules import ruleset_title
from leaderboards import selectors as board_selectors
from web import presenters
from web.forms import RollForm, ScoreForm
from web.helpers import (
    action_view,
    error_page,
    form_address,
    hint_asked,
    page_errors,
    throttled,
    with_holds,
)


def _play_url(round_id: UUID | str, held: Sequence[int | str] = ()) -> str:
    return with_holds(reverse("web:play", kwargs={"round_id": round_id}), held)


@require_safe
@login_required
@page_errors
def play(request: HttpRequest, round_id: UUID) -> HttpResponse:
    player: User = request.user  # type: ignore[assignment]
    asked, refused = hint_asked(request)
    view = game_selectors.round_view(round_id=round_id, player=player, hint=asked)
    state = view["round"]
    standing = None
    if state["date"] and state["status"] == Round.Status.COMPLETED:
        standing = board_selectors.day_standing(
            day=dt.date.fromisoformat(state["date"]),
            player=player,
            total=state["total"],
            ranked=state["ranked"],
        )
    card = presenters.round_card(
        state, request.GET, standing=standing, last_score=view["last_score"]
    )
    title = presenters.round_title(state, card["ruleset_name"])
    hint = None
    if view["advice"] and state["status"] == Round.Status.IN_PROGRESS and (asked or refused):
        hint = presenters.hint_panel(
            view["hint"], refused or view["hint_refused"], card, view["hint_wait"]
        )
    context = {
        **card,
        "card": card,
        "title": title,
        "advice": view["advice"],
        "hint": hint,
        "share": presenters.share_card(view["share"], request.build_absolute_uri),
        "challenge": view["challenge"],
        "result_text": presenters.result_text(
            card, title, request.build_absolute_uri(reverse("web:home"))
        ),
        "dice_check": presenters.dice_check(card),
    }
    return render(request, "web/play.html", context)


play_roll = action_view(
    RollForm,
    back=lambda held, round_id: _play_url(round_id, held),
    find=lambda player, round_id: game_selectors.round_get_for_player(
        round_id=round_id, player=player
    ),
    run=lambda player, data, round_id: game_services.round_roll(
        round_id=round_id, player=player, **data
    ),
    keep_holds=True,
)
play_score = action_view(
    ScoreForm,
    back=lambda held, round_id: _play_url(round_id, held),
    find=lambda player, round_id: game_selectors.round_get_for_player(
        round_id=round_id, player=player
    ),
    run=lambda player, data, round_id: game_services.round_score(
        round_id=round_id, player=player, **data
    ),
    keep_holds=False,
)


def _round_missing(request: HttpRequest, round_id: UUID) -> HttpResponse | None:
    """A round the player cannot see: its 404 page, as sharing it answers (a visitor is
    sent to the round's page, which asks them to log in)."""
    if not request.user.is_authenticated:
        return None
    try:
        game_selectors.round_get_for_player(round_id=round_id, player=request.user)
    except NotFoundError as exc:
        return error_page(request, error_text(exc), status=exc.status_code)
    return None


@login_required
@form_address(lambda round_id: reverse("web:play", args=[round_id]), missing=_round_missing)
def share(request: HttpRequest, round_id: UUID) -> HttpResponse:
    """Share a finished round: its code (the same one every time) shows on its page."""
    try:
        game_services.share_create(round_id=round_id, player=request.user)  # type: ignore[arg-type]
    except NotFoundError as exc:
        return error_page(request, error_text(exc), status=exc.status_code)
    except ServiceError as exc:
        messages.error(request, error_text(exc))
    else:
        messages.success(request, _("Your challenge is ready: send the link to a friend."))
    return redirect("web:play", round_id=round_id)


@require_safe
@login_required
@page_errors
def analysis(request: HttpRequest, round_id: UUID) -> HttpResponse:
    """Each decision of a finished round against the best one, turn by turn, and the
    final score the exact table expected after each turn."""
    player: User = request.user  # type: ignore[assignment]
    refused = throttled(request, "advice")
    if refused:
        return refused.page(request)
    view = game_selectors.round_analysis_view(round_id=round_id, player=player)
    return render(
        request,
        "web/analysis.html",
        {
            "round": view["round"],
            "report": view["analysis"],
            "turns": presenters.analysis_turns(view["analysis"]),
            "chart": presenters.analysis_chart(view["analysis"]),
            "ruleset_name": ruleset_title(view["round"]["ruleset"]),
        },
    )
