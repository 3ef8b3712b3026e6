"""New solo, computer and party games, the player's games, and the rules."""

from __future__ import annotations

from uuid import UUID

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.core.paginator import Paginator
from django.http import HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.urls import reverse
from django.utils.translation import gettext as _
from django.views.decorators.cache import never_cache
from django.views.decorators.http import require_http_methods, require_safe

import yatzy
from accounts.models import User
from config.api_errors import ServiceError, error_text
from games import selectors as game_selectors
from games import services as game_services
from games.models import Party, Round
from games.rules import ruleset_from_query, ruleset_rules, ruleset_title
from web import presenters
from web.dice import die_svg
from web.forms import REQUEST_KEY_USED, NewGameForm, new_request_key
from web.helpers import (
    answers_stale_form,
    back_when_stale,
    error_page,
    form_address,
    form_throttled,
    throttled,
)

NEW_MODES = (Round.Mode.SOLO, Round.Mode.COMPUTER, Round.Mode.PARTY)
# Finished games per page of the games list.
GAMES_PAGE = 20


def _new_title(mode: str) -> str:
    if mode == Round.Mode.COMPUTER:
        return _("Play against the computer")
    if mode == Round.Mode.PARTY:
        return _("A party at one table")
    return _("A solo game with hints")


def _no_such_mode(request: HttpRequest, mode: str) -> HttpResponse | None:
    """The 404 page of a kind of game there is not (the form's and its stale post's)."""
    if mode not in NEW_MODES:
        return error_page(request, _("There is no such kind of game."), status=404)
    return None


def _new_game_form(request: HttpRequest, mode: str) -> str:
    """The new game's form, on the ruleset it was posted with."""
    path = reverse("web:game-new", kwargs={"mode": mode})
    ruleset = request.POST.get("ruleset", "")
    return f"{path}?ruleset={ruleset}" if ruleset in yatzy.RULESETS else path


@login_required
@require_http_methods(["GET", "HEAD", "POST"])
@never_cache  # back to the form shows it anew, with a new key: a new game
@answers_stale_form(back_when_stale(_new_game_form, missing=_no_such_mode))
def game_new(request: HttpRequest, mode: str) -> HttpResponse:
    """The form of a new game: the ruleset (links above the form), its options from the
    player's settings, the computer's level or the party's seats; posting starts it."""
    missing = _no_such_mode(request, mode)
    if missing:
        return missing
    player: User = request.user  # type: ignore[assignment]
    name = request.POST.get("ruleset") or request.GET.get("ruleset") or player.ruleset
    if name not in yatzy.RULESETS:
        name = player.ruleset
    # The player's settings when it is their ruleset, else the ruleset's defaults.
    rs = game_services.game_ruleset(player=player, ruleset=name, options=None)
    form = NewGameForm(request.POST if request.method == "POST" else None, mode=mode, rs=rs)
    status = 200
    refused = form_throttled(request, form, "play")
    if refused:
        status = 429
    elif request.method == "POST":
        if form.is_valid():
            data = form.cleaned_data
            try:
                game = game_services.game_start(
                    player=player,
                    mode=mode,
                    ruleset=name,
                    options=data["options"],
                    level=data.get("level"),
                    seats=data.get("seats"),
                    request_key=data.get("request_key") or None,
                )
            except ServiceError as exc:
                if exc.code == "idempotency_key_reused":
                    # This showing of the form started a game with other choices (going
                    # back to it, changing them): these choices, a new key.
                    posted = request.POST.copy()
                    posted["request_key"] = new_request_key()
                    form = NewGameForm(posted, mode=mode, rs=rs)
                    form.add_error(None, REQUEST_KEY_USED)
                else:
                    form.add_error(None, error_text(exc))
                status = exc.status_code
            except yatzy.YatzyError as exc:
                form.add_error(None, error_text(exc))
                status = getattr(exc, "status_code", 400)
            else:
                kind = Round.Mode.PARTY if isinstance(game, Party) else mode
                if mode == Round.Mode.SOLO and not game_selectors.ruleset_advice_modelled(
                    yatzy.get_ruleset(name, **data["options"])
                ):
                    messages.warning(
                        request,
                        _(
                            "This game's options leave it without hints and analysis: "
                            "no exact strategy covers them."
                        ),
                    )
                return redirect(presenters.game_url(kind, str(game.id)))
        else:
            status = 400
    path = reverse("web:game-new", kwargs={"mode": mode})
    response = render(
        request,
        "web/game_new.html",
        {
            "form": form,
            "mode": mode,
            "title": _new_title(mode),
            "rs": rs,
            "ruleset_name": ruleset_title(name),
            "rulesets": [
                (other, ruleset_title(other), f"{path}?ruleset={other}") for other in yatzy.RULESETS
            ],
            "profile_ruleset": player.ruleset == name,
        },
        status=status,
    )
    return refused.answer(response) if refused else response


@login_required
@form_address(lambda game_id: reverse("web:games"))
def game_give_up(request: HttpRequest, game_id: UUID) -> HttpResponse:
    """Give up an unfinished solo, computer or party game (``game_abandon``, as the
    API's ``DELETE games/{id}/``); back to the games list, with what happened."""
    player: User = request.user  # type: ignore[assignment]
    refused = throttled(request, "play")  # the API's DELETE games/{id}/ budget, shared
    if refused:
        messages.error(request, refused.message)
        return redirect("web:games")
    try:
        game_services.game_abandon(game_id=game_id, player=player)
    except ServiceError as exc:
        messages.error(request, error_text(exc))
    else:
        messages.success(request, _("The game is given up."))
    return redirect("web:games")


@require_safe
@login_required
def games_list(request: HttpRequest) -> HttpResponse:
    player: User = request.user  # type: ignore[assignment]
    unfinished = game_selectors.games_for_player(player=player, status=Round.Status.IN_PROGRESS)
    finished = Paginator(
        game_selectors.games_for_player(player=player, status=game_selectors.FINISHED), GAMES_PAGE
    ).get_page(request.GET.get("page"))
    return render(
        request,
        "web/games.html",
        {
            # A player has at most MAX_UNFINISHED_GAMES outside the daily, and one daily
            # round per date unfinished.
            "unfinished": [
                presenters.game_line(game_selectors.game_summary(rnd))
                for rnd in unfinished[: game_services.MAX_UNFINISHED_GAMES + 10]
            ],
            "finished": [
                presenters.game_line(game_selectors.game_summary(rnd)) for rnd in finished
            ],
            "page": finished,
            "modes": NEW_MODES,
        },
    )


@require_safe
def rules(request: HttpRequest, ruleset: str) -> HttpResponse:
    """The rules as the API's ``rulesets/<name>/`` gives them (games.rules), with the
    options of the query string in force, so the page and the API never disagree."""
    try:
        rs = ruleset_from_query(ruleset, request.GET)
    except yatzy.UnknownRulesetError:
        return error_page(request, _("There is no such ruleset."), status=404)
    except yatzy.YatzyError as exc:
        return error_page(request, error_text(exc), status=400)
    text = ruleset_rules(rs)
    for box in text["boxes"]:
        box["dice"] = [{"face": face, "svg": die_svg(face)} for face in box["example"]["dice"]]
        box["points"] = box["example"]["points"]
    return render(
        request,
        "web/rules.html",
        {
            "rs": rs,
            "text": text,
            "rulesets": [(name, ruleset_title(name)) for name in yatzy.RULESETS],
            "per_face": yatzy.bonus_par(rs),
            "options": presenters.rules_options(text["options"]),
        },
    )


@require_safe
def rules_index(request: HttpRequest) -> HttpResponse:
    return redirect("web:rules", ruleset="maxi")
