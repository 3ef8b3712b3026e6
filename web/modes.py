"""The pages of the other modes (SPEC §7, §10): starting a solo, computer or party game,
the player's games, a finished round's analysis, friend challenges (share, ``/f/{code}``,
revoke) and the party screen passed around the table. Thin like ``web.views``: each
reads a form, calls the API's own service or selector, and renders or redirects."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any
from uuid import UUID

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.core.paginator import Paginator
from django.http import HttpRequest, HttpResponse, HttpResponseRedirect, QueryDict
from django.shortcuts import redirect, render
from django.urls import reverse
from django.utils.translation import gettext as _
from django.views.decorators.http import require_http_methods, require_POST

import yatzy
from accounts.models import User
from config.api_errors import NotFoundError, ServiceError, error_text
from games import selectors as game_selectors
from games import services as game_services
from games.models import Party, Round
from games.rules import box_name, ruleset_title
from web import charts
from web.forms import FriendStartForm, NewGameForm, PartyRollForm, PartyScoreForm
from web.views import (
    act,
    error_page,
    mini_dice,
    move_view,
    page_errors,
    play_context,
    throttled,
    with_holds,
)

# -- new games --------------------------------------------------------------------------

NEW_MODES = (Round.Mode.SOLO, Round.Mode.COMPUTER, Round.Mode.PARTY)
# Finished games per page of the games list.
GAMES_PAGE = 20


def _new_title(mode: str) -> str:
    if mode == Round.Mode.COMPUTER:
        return _("Play against the computer")
    if mode == Round.Mode.PARTY:
        return _("A party at one table")
    return _("A solo game with hints")


@login_required
@require_http_methods(["GET", "POST"])
def game_new(request: HttpRequest, mode: str) -> HttpResponse:
    """The form of a new game: the ruleset (links above the form), its options from the
    player's settings, the computer's level or the party's seats; posting starts it."""
    if mode not in NEW_MODES:
        return error_page(request, _("There is no such kind of game."), status=404)
    player: User = request.user  # type: ignore[assignment]
    name = request.POST.get("ruleset") or request.GET.get("ruleset") or player.ruleset
    if name not in yatzy.RULESETS:
        name = player.ruleset
    # The player's settings when it is their ruleset, else the ruleset's defaults.
    rs = game_services.game_ruleset(player=player, ruleset=name, options=None)
    form = NewGameForm(request.POST or None, mode=mode, rs=rs)
    status = 200
    if request.method == "POST":
        refused = throttled(request, "play")
        if refused:
            form.add_error(None, refused)
            status = 429
        elif form.is_valid():
            data = form.cleaned_data
            try:
                if mode == Round.Mode.PARTY:
                    party = game_services.party_create(
                        player=player, seats=data["seats"], ruleset=name, options=data["options"]
                    )
                    return redirect("web:party", party_id=party.id)
                rnd = game_services.game_create(
                    player=player,
                    mode=mode,
                    ruleset=name,
                    options=data["options"],
                    level=data.get("level"),
                )
                return redirect("web:play", round_id=rnd.id)
            except (ServiceError, yatzy.YatzyError) as exc:
                form.add_error(None, error_text(exc))
                status = getattr(exc, "status_code", 400)
        else:
            status = 400
    path = reverse("web:game-new", kwargs={"mode": mode})
    return render(
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


# -- the player's games -----------------------------------------------------------------


def _game_line(summary: dict[str, Any]) -> dict[str, Any]:
    """One line of the games list, with its mode and ruleset named and its link."""
    party = summary["mode"] == Round.Mode.PARTY
    url = reverse("web:party" if party else "web:play", args=[summary["id"]])
    mode = str(Round.Mode(summary["mode"]).label)
    if summary["level"]:
        mode = _("%(mode)s (%(level)s)") % {
            "mode": mode,
            "level": Round.Level(summary["level"]).label,
        }
    return {
        **summary,
        "mode_name": mode,
        "ruleset_name": ruleset_title(summary["ruleset"]),
        "url": url,
    }


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
                _game_line(game_selectors.game_summary(rnd))
                for rnd in unfinished[: game_services.MAX_UNFINISHED_GAMES + 10]
            ],
            "finished": [_game_line(game_selectors.game_summary(rnd)) for rnd in finished],
            "page": finished,
            "modes": NEW_MODES,
        },
    )


# -- the analysis of a finished round ---------------------------------------------------


@login_required
@page_errors
def analysis(request: HttpRequest, round_id: UUID) -> HttpResponse:
    """Each decision of a finished round against the best one, turn by turn, and the
    final score the exact table expected after each turn."""
    player: User = request.user  # type: ignore[assignment]
    rnd = game_selectors.round_get_for_player(round_id=round_id, player=player)
    refused = throttled(request, "play")
    if refused:
        return error_page(request, refused, status=429)
    report = game_selectors.round_analysis(rnd)
    turns: dict[int, dict[str, Any]] = {}
    for decision in report["decisions"]:
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
    after_turns = [d["played"]["expected"] for d in report["decisions"] if d["kind"] == "score"]
    return render(
        request,
        "web/analysis.html",
        {
            "round": game_selectors.round_payload(rnd),
            "report": report,
            "turns": list(turns.values()),
            "chart": charts.expectation(report["expected_start"], after_turns),
            "ruleset_name": ruleset_title(rnd.ruleset),
        },
    )


# -- friend challenges ------------------------------------------------------------------


@login_required
@require_POST
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


def _friend_missing(request: HttpRequest, code: str) -> HttpResponse:
    return render(request, "web/friend_missing.html", {"code": code}, status=404)


def _comparison(view: dict[str, Any]) -> dict[str, Any] | None:
    """Both scorecards side by side, box by box and turn by turn, once both are done."""
    mine, theirs = view["my_round"], view["sharer_round"]
    if mine is None or theirs is None:
        return None
    return {
        "boxes": [
            {"name": box_name(box), "mine": points, "theirs": theirs["scorecard"][box]}
            for box, points in mine["scorecard"].items()
        ],
        "turns": [
            {
                "number": a["turn"] + 1,
                "sides": [
                    {
                        **side,
                        "box": box_name(side["category"]),
                        "dice_shown": mini_dice(side["dice"]),
                    }
                    for side in (a, b)
                ],
            }
            for a, b in zip(mine["turns"], theirs["turns"], strict=True)
        ],
        "mine": mine["total"],
        "theirs": theirs["total"],
        "result": yatzy.result_of(mine["total"], theirs["total"]),
    }


@login_required
def friend(request: HttpRequest, code: str) -> HttpResponse:
    """``/f/{code}``: who challenged you and on which rules, blind or target, and both
    scorecards once both are finished. The sharer sees who played and can revoke."""
    refused = throttled(request, "friend")  # the API's budget against guessing, shared
    if refused:
        return error_page(request, refused, status=429)
    player: User = request.user  # type: ignore[assignment]
    try:
        share = game_selectors.share_get(code=code)
    except NotFoundError:
        return _friend_missing(request, code)
    view = game_selectors.friend_view(share=share, player=player)
    own = share.round.player_id == player.pk
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
                reverse("web:rules", args=[view["ruleset"]]), **_query(view["options"])
            ),
            "form": FriendStartForm(),
            "comparison": _comparison(view),
        },
    )


def _query(options: dict[str, Any]) -> dict[str, str]:
    """Options as the rules page's query takes them (``upper_bonus=75,50``)."""
    return {
        name: ",".join(map(str, value)) if isinstance(value, list) else str(value).lower()
        for name, value in options.items()
    }


@login_required
@require_POST
def friend_play(request: HttpRequest, code: str) -> HttpResponse:
    """Start (or resume) the friend's round on the shared dice."""
    back = reverse("web:friend", kwargs={"code": code})
    refused = throttled(request, "friend")
    if refused:
        messages.error(request, refused)
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


@login_required
@require_POST
def friend_revoke(request: HttpRequest, code: str) -> HttpResponse:
    """The sharer ends a code; back to the shared round's page."""
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


# -- parties ----------------------------------------------------------------------------


def _party_url(party_id: UUID | str, held: Sequence[int | str] = ()) -> str:
    return with_holds(reverse("web:party", kwargs={"party_id": party_id}), held)


def party_context(party: Party, player: User, query: Any) -> dict[str, Any]:
    """The party screen: whose turn it is, that seat's dice and scorecard (its forms act
    for that seat), every seat's scorecard, and the standings with draws."""
    payload = game_selectors.party_payload(party)
    url = _party_url(party.id)
    roll_url = reverse("web:party-roll", kwargs={"party_id": party.id})
    score_url = reverse("web:party-score", kwargs={"party_id": party.id})
    seats = []
    for rnd in game_selectors.party_rounds(party):
        current = rnd.seat == payload["current_seat"]
        card = play_context(
            rnd,
            player,
            query if current else QueryDict(),
            play_url=url,
            roll_url=roll_url,
            score_url=score_url,
            seat=rnd.seat,
        )
        seats.append({"seat": rnd.seat, "name": rnd.seat_name, "current": current, "card": card})
    ranks = [line["rank"] for line in payload["standings"]]
    standings = [{**line, "draw": ranks.count(line["rank"]) > 1} for line in payload["standings"]]
    current = next((seat for seat in seats if seat["current"]), None)
    first = [line for line in standings if line["rank"] == 1]
    return {
        "winners": [line["name"] for line in first],
        "winners_total": first[0]["total"] if first else None,
        "party": payload,
        "seats": seats,
        "current": current,
        "card": current["card"] if current else None,
        "standings": standings,
        "ruleset_name": ruleset_title(payload["ruleset"]),
        "theme": seats[0]["card"]["round"]["theme"],
        "play_url": url,
    }


@login_required
@page_errors
def party_page(request: HttpRequest, party_id: UUID) -> HttpResponse:
    player: User = request.user  # type: ignore[assignment]
    party = game_selectors.party_get_for_player(party_id=party_id, player=player)
    return render(request, "web/party.html", party_context(party, player, request.GET))


@login_required
@require_POST
def party_roll(request: HttpRequest, party_id: UUID) -> HttpResponse:
    return act(
        request,
        PartyRollForm,
        lambda held: _party_url(party_id, held),
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
        lambda held: _party_url(party_id, held),
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
