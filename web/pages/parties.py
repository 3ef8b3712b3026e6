"""The party screen passed around the table, and its roll and score forms."""

from __future__ import annotations

from uuid import UUID

from django.contrib.auth.decorators import login_required
from django.http import HttpRequest, HttpResponse
from django.shortcuts import render
from django.views.decorators.http import require_POST

from accounts.models import User
from games import selectors as game_selectors
from games import services as game_services
from web import presenters
from web.forms import PartyRollForm, PartyScoreForm
from web.helpers import act, hint_asked, page_errors


@login_required
@page_errors
def party_page(request: HttpRequest, party_id: UUID) -> HttpResponse:
    player: User = request.user  # type: ignore[assignment]
    asked, refused = hint_asked(request)
    view = game_selectors.party_page_view(party_id=party_id, player=player, hint=asked)
    if refused:
        view = {**view, "hint_refused": refused}
    return render(request, "web/party.html", presenters.party_screen(view, request.GET))


@login_required
@require_POST
def party_roll(request: HttpRequest, party_id: UUID) -> HttpResponse:
    return act(
        request,
        PartyRollForm,
        lambda held: presenters.party_url(str(party_id), held),
        lambda data: game_services.party_act(
            party_id=party_id,
            player=request.user,  # type: ignore[arg-type]
            seat=data["seat"],
            turn=data["turn"],
            roll=data["roll"],
            hold=data["hold"],
            action="roll",
        ),
        keep_holds=True,
    )


@login_required
@require_POST
def party_score(request: HttpRequest, party_id: UUID) -> HttpResponse:
    return act(
        request,
        PartyScoreForm,
        lambda held: presenters.party_url(str(party_id), held),
        lambda data: game_services.party_act(
            party_id=party_id,
            player=request.user,  # type: ignore[arg-type]
            seat=data["seat"],
            turn=data["turn"],
            category=data["category"],
            action="score",
        ),
        keep_holds=False,
    )
