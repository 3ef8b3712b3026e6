"""Friend challenges: ``/f/{code}`` (who challenged you, on which rules; both
scorecards once both are done), starting the friend's round, and revoking a code."""

from __future__ import annotations

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.http import HttpRequest, HttpResponse, HttpResponseRedirect
from django.shortcuts import redirect, render
from django.urls import reverse
from django.utils.translation import gettext as _
from django.views.decorators.http import require_safe

from accounts.models import User
from config.api_errors import NotFoundError, ServiceError, error_text
from games import selectors as game_selectors
from games import services as game_services
from games.rules import ruleset_title
from web import presenters
from web.forms import FriendStartForm
from web.helpers import form_address, player_or_none, throttled, with_holds


def _friend_missing(request: HttpRequest, code: str) -> HttpResponse:
    return render(request, "web/friend_missing.html", {"code": code}, status=404)


@require_safe
def friend(request: HttpRequest, code: str) -> HttpResponse:
    """``/f/{code}``: who challenged you and on which rules, blind or target, whether a
    shared daily counts for you, and both scorecards once both are finished. The sharer
    sees who played and can revoke. A visitor reads the challenge, with the ways in
    (register, log in) that come back to it."""
    refused = throttled(request, "friend")  # the API's budget against guessing, shared
    if refused:  # per player, and per address for a visitor
        return refused.page(request)
    player = player_or_none(request)
    try:
        share = game_selectors.share_get(code=code, player=player)
    except NotFoundError:
        return _friend_missing(request, code)
    view = game_selectors.friend_view(share=share, player=player)
    own = player is not None and share.round.player_id == player.pk
    return render(
        request,
        "web/friend.html",
        {
            "view": view,
            "own": own,
            "plays": game_selectors.share_plays(share)["plays"] if own else None,
            "shared_round": share.round_id,
            "link": request.build_absolute_uri(view["url"]),
            "ruleset_name": ruleset_title(view["ruleset"]),
            "rules_url": with_holds(
                reverse("web:rules", args=[view["ruleset"]]),
                **presenters.rules_query(view["options"]),
            ),
            "form": FriendStartForm(),
            "day": presenters.day_of(view["date"]) if view["date"] else None,
            "comparison": presenters.comparison(view),
        },
    )


@login_required
@form_address(lambda code: reverse("web:friend", kwargs={"code": code}))
def friend_play(request: HttpRequest, code: str) -> HttpResponse:
    """Start (or resume) the friend's round on the shared dice."""
    back = reverse("web:friend", kwargs={"code": code})
    refused = throttled(request, "friend")
    if refused:
        messages.error(request, refused.message)
        return HttpResponseRedirect(back)
    form = FriendStartForm(request.POST)
    if not form.is_valid():
        messages.error(request, _("Choose blind or target first."))
        return HttpResponseRedirect(back)
    try:
        rnd, _created = game_services.friend_round_start(
            code=code,
            player=request.user,  # type: ignore[arg-type]
            view=form.cleaned_data["view"],
        )
    except NotFoundError:
        return _friend_missing(request, code)
    except ServiceError as exc:
        messages.error(request, error_text(exc))
        return HttpResponseRedirect(back)
    return redirect("web:play", round_id=rnd.id)


def _not_sharers(request: HttpRequest, code: str) -> HttpResponse | None:
    """A code that is not the player's: the missing code's page, as revoking it answers.
    (Starting a friend's round goes back to the code's page, which answers a missing
    code itself, within the throttle against guessing.)"""
    if not request.user.is_authenticated:
        return None
    try:
        game_selectors.share_get_for_sharer(code=code, player=request.user)
    except NotFoundError:
        return _friend_missing(request, code)
    return None


@login_required
@form_address(lambda code: reverse("web:friend", kwargs={"code": code}), missing=_not_sharers)
def friend_revoke(request: HttpRequest, code: str) -> HttpResponse:
    """The sharer ends a code; back to the shared round's page. A code of theirs that is
    already revoked (the second post of a double click) is done: the same answer."""
    player: User = request.user  # type: ignore[assignment]
    try:
        share = game_selectors.share_get_for_sharer(code=code, player=player)
        game_services.share_revoke(code=code, player=player)
    except NotFoundError:
        return _friend_missing(request, code)
    messages.success(
        request, _("The code %(code)s is revoked: its link no longer works.") % {"code": share.code}
    )
    return redirect("web:play", round_id=share.round_id)
