"""The party screen passed around the table, and its roll and score forms."""

from __future__ import annotations

from uuid import UUID

from django.contrib.auth.decorators import login_required
from django.http import HttpRequest, HttpResponse
from django.shortcuts import render
from django.views.decorators.http import require_safe

from accounts.models import User
from games import selectors as game_selectors
from games import services as game_services
from web import presenters
from web.forms import PartyRollForm, PartyScoreForm
from web.helpers import action_view, hint_asked, page_errors


@require_safe
@login_required
@page_errors
def party_page(request: HttpRequest, party_id: UUID) -> HttpResponse:
    player: User = request.user  # type: ignore[assignment]
    asked, refused = hint_asked(request)
    view = game_selectors.party_page_view(party_id=party_id, player=player, hint=asked)
    if refused:
        view = {**view, "hint_refused": refused}
    return render(request, "web/party.html", presenters.party_screen(view, request.GET))


def _party_back(held: list[str], party_id: UUID) -> str:
    return presenters.party_url(str(party_id), held)


party_roll = action_view(
    PartyRollForm,
    back=_party_back,
    find=lambda player, party_id: game_selectors.party_get_for_player(
        party_id=party_id, player=player
    ),
    run=lambda player, data, party_id: game_services.party_act(
        party_id=party_id, player=player, action="roll", **data
    ),
    keep_holds=True,
)
party_score = action_view(
    PartyScoreForm,
    back=_party_back,
    find=lambda player, party_id: game_selectors.party_get_for_player(
        party_id=party_id, player=player
    ),
    run=lambda player, data, party_id: game_services.party_act(
        party_id=party_id, player=player, action="score", **data
    ),
    keep_holds=False,
)
