"""The web pages (SPEC §10): server-rendered and thin. Each view reads its input with a
form, calls the same services and selectors as the API, and renders the result; forms
post and redirect. A service's refusal is shown as its message: as an error page for a
page that cannot be shown, as a message on the next page for an action."""

from __future__ import annotations

import datetime as dt
import functools
from collections.abc import Callable, Sequence
from typing import Any
from urllib.parse import quote
from uuid import UUID

from django import forms
from django.conf import settings
from django.contrib import messages
from django.contrib.auth import login, logout
from django.contrib.auth.decorators import login_required
from django.contrib.auth.forms import AuthenticationForm
from django.contrib.auth.views import LoginView
from django.http import HttpRequest, HttpResponse, HttpResponseRedirect
from django.shortcuts import redirect, render
from django.urls import reverse
from django.utils import timezone
from django.utils.http import url_has_allowed_host_and_scheme, urlencode
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy
from django.views.decorators.http import require_http_methods, require_POST

import yatzy
from accounts.models import User
from accounts.selectors import player_get
from accounts.services import user_register, user_update
from config.api_errors import NotFoundError, ServiceError, error_text
from config.throttling import ScopedThrottle
from daily import clock
from daily.services import challenge_for_play
from games import selectors as game_selectors
from games import services as game_services
from games.models import Round
from games.rules import box_name, ruleset_from_query, ruleset_rules, ruleset_title
from leaderboards import boards
from leaderboards import selectors as board_selectors
from leaderboards.serializers import BoardQuerySerializer
from leaderboards.views import AROUND_SIZE, page_link
from web import charts
from web.dice import die_svg
from web.forms import RegisterForm, RollForm, ScoreForm, SettingsForm

View = Callable[..., HttpResponse]


def page_errors(view: View) -> View:
    """A page a service refuses (no such round, day or season; a bad query) is an error
    page with the service's status and message."""

    @functools.wraps(view)
    def wrapper(request: HttpRequest, *args: Any, **kwargs: Any) -> HttpResponse:
        try:
            return view(request, *args, **kwargs)
        except ServiceError as exc:
            return error_page(request, error_text(exc), status=exc.status_code)

    return wrapper


def error_page(request: HttpRequest, message: str, *, status: int) -> HttpResponse:
    return render(request, "web/error.html", {"message": message}, status=status)


def _player(request: HttpRequest) -> User | None:
    return request.user if request.user.is_authenticated else None


def _seconds_until(moment: dt.datetime) -> int:
    return max(0, int((moment - timezone.now()).total_seconds()))


# -- the daily ---------------------------------------------------------------------------


@page_errors
def home(request: HttpRequest) -> HttpResponse:
    today = clock.today()
    player = _player(request)
    daily = game_selectors.challenge_payload(challenge=challenge_for_play(day=today), player=player)
    standing = None
    mine = daily["my_round"]
    if player is not None and mine is not None and mine["status"] == Round.Status.COMPLETED:
        line = board_selectors.board_rank(board=boards.daily_key(today), player_id=player.pk)
        standing = None if line is None else {"rank": line[0], "value": line[1]}
    calendar = None
    if player is not None and boards.advent_showing(today):
        calendar = board_selectors.advent_calendar(player=player, year=today.year)
    return render(
        request,
        "web/home.html",
        {
            "daily": daily,
            "today": today,
            "seconds_left": _seconds_until(daily["closes_at"]),
            "standing": standing,
            "calendar": calendar,
            "yesterday": today - dt.timedelta(days=1),
        },
    )


@login_required
@require_POST
def daily_play(request: HttpRequest, day: dt.date) -> HttpResponse:
    """Start (or resume) the player's round of a day: ranked on the day itself if it is
    their first, else practice; then play it."""
    try:
        rnd, _created = game_services.round_start_daily(player=request.user, day=day)  # type: ignore[arg-type]
    except ServiceError as exc:
        messages.error(request, error_text(exc))
        return redirect("web:home")
    return redirect("web:play", round_id=rnd.id)


# -- playing a round ---------------------------------------------------------------------


def _held(query: Any, dice: int) -> list[int]:
    """The dice held on the page: ``hold`` positions, one ``toggle`` flipped (the
    dice's buttons without JavaScript)."""
    held = {int(p) for p in query.getlist("hold") if p.isdigit() and int(p) < dice}
    toggle = query.get("toggle", "")
    if toggle.isdigit() and int(toggle) < dice:
        held ^= {int(toggle)}
    return sorted(held)


def with_holds(url: str, held: Sequence[int | str] = (), **extra: str | int) -> str:
    """``url`` with the held dice (and any ``extra`` parameters) in its query."""
    query: dict[str, str | int | list[int | str]] = {**extra}
    if held:
        query["hold"] = list(held)
    return f"{url}?{urlencode(query, doseq=True)}" if query else url


def _play_url(round_id: UUID | str, held: Sequence[int | str] = ()) -> str:
    return with_holds(reverse("web:play", kwargs={"round_id": round_id}), held)


def _finished(rnd: Round, state: dict[str, Any], player: User) -> dict[str, Any] | None:
    """A finished daily round's standing and the day's score distribution."""
    if rnd.challenge is None or state["status"] != Round.Status.COMPLETED:
        return None
    board = board_selectors.board_daily(day=rnd.challenge.date)
    spread = board_selectors.board_distribution(
        board=board, player=player, value=None if rnd.ranked else state["total"]
    )
    me = spread["me"]
    return {
        "board": board,
        "count": spread["count"],
        "me": me,
        "chart": charts.distribution(spread["values"], me["value"] if me else None),
    }


def mini_dice(faces: Sequence[int], marked: Sequence[int] = ()) -> list[dict[str, Any]]:
    """Small dice for a text (a hint, an analysis, the computer's rolls); ``marked``
    positions are shown as kept."""
    return [
        {"face": face, "svg": die_svg(face), "kept": i in marked} for i, face in enumerate(faces)
    ]


def _opponent(state: dict[str, Any]) -> dict[str, Any] | None:
    """The computer's card: its scorecard and each of its turns (the dice of every
    roll, with the dice it kept for the next one marked, and the box it filled)."""
    opponent = state["opponent"]
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
            "points": turn["points"],
        }
        for turn in opponent["turns"]
    ]
    return {
        "level": Round.Level(opponent["level"]).label,
        "scorecard": opponent["scorecard"],
        "upper_total": opponent["upper_total"],
        "bonus": opponent["bonus"],
        "total": opponent["total"],
        "turns": turns,
        "last": turns[-1] if turns else None,
    }


def advice_allowed(rnd: Round) -> bool:
    """Whether hints and the analysis exist for this round (the API's own rule)."""
    try:
        game_selectors.round_advice_check(rnd)
    except ServiceError:
        return False
    return True


def play_context(
    rnd: Round,
    player: User,
    query: Any,
    *,
    play_url: str | None = None,
    roll_url: str | None = None,
    score_url: str | None = None,
    seat: int | None = None,
) -> dict[str, Any]:
    """What the play page shows of any round (daily, solo, computer, friend, party):
    the dice with the holds in ``query``, the scorecard with each open box's points
    now, the upper bonus pace, the computer's card, and a finished daily round's
    standing. A party's page passes its own URLs and the ``seat`` its forms act for."""
    game = game_selectors.round_game(rnd)
    state = game_selectors.round_payload(rnd, game)
    pace = yatzy.bonus_pace(game.ruleset, game.scorecard)
    playing = state["status"] == Round.Status.IN_PROGRESS
    can_hold = playing and state["roll"] > 0 and state["rolls_left"] > 0
    held = _held(query, len(state["dice"])) if can_hold else []
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
    opponent = _opponent(state)
    boxes = [
        {
            "id": box,
            "name": box_name(box),
            "points": points,
            "now": state["options"].get(box),
            "upper": box in pace["par"],
            "par": pace["par"].get(box),
            "pace": pace["boxes"].get(box),
            "opponent": opponent["scorecard"][box] if opponent else None,
            "suggested": False,
        }
        for box, points in state["scorecard"].items()
    ]
    return {
        "round": state,
        "day": rnd.challenge.date if rnd.challenge is not None else None,
        "ruleset_name": ruleset_title(state["ruleset"]),
        "dice": dice,
        "dice_count": game.ruleset.dice_count,
        "held": held,
        "can_hold": can_hold,
        "can_roll": playing and state["rolls_left"] > 0,
        "upper_boxes": [box for box in boxes if box["upper"]],
        "lower_boxes": [box for box in boxes if not box["upper"]],
        "pace": pace,
        "opponent": opponent,
        "finished": _finished(rnd, state, player),
        "play_url": play_url or reverse("web:play", kwargs={"round_id": rnd.id}),
        "roll_url": roll_url or reverse("web:play-roll", kwargs={"round_id": rnd.id}),
        "score_url": score_url or reverse("web:play-score", kwargs={"round_id": rnd.id}),
        "seat": seat,
    }


# How many moves a hint shows: the best and the next alternatives.
HINT_MOVES = 5


def move_view(move: dict[str, Any]) -> dict[str, Any]:
    """A move of a hint or an analysis as the page words it: the faces it keeps (as
    dice), the box it fills with its points, the final score expected after it."""
    return {
        **move,
        "keep_dice": mini_dice(move["keep"]),
        "box": box_name(move["category"]) if move["category"] else None,
    }


def _hint(request: HttpRequest, rnd: Round, card: dict[str, Any]) -> dict[str, Any]:
    """The hint panel: the best move and the next ones with their expected final
    scores; the best move's dice (or box) are marked on the card. A refusal (the table
    still being built, saved rolls) is the panel's message."""
    refused = throttled(request, "play")
    if refused:
        return {"error": refused}
    try:
        hint = game_selectors.round_hint(rnd)
    except ServiceError as exc:
        return {"error": error_text(exc)}
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


def _title(state: dict[str, Any], ruleset: str) -> str:
    if state["date"]:
        return _("Daily of %(date)s") % {"date": state["date"]}
    if state["mode"] == Round.Mode.COMPUTER:
        return _("%(ruleset)s against the computer") % {"ruleset": ruleset}
    if state["mode"] == Round.Mode.FRIEND:
        return _("%(ruleset)s: a friend's challenge") % {"ruleset": ruleset}
    if state["mode"] == Round.Mode.SOLO:
        return _("%(ruleset)s: a solo game") % {"ruleset": ruleset}
    return ruleset


def _share(request: HttpRequest, rnd: Round, player: User) -> dict[str, Any] | None:
    """The live friend code of the player's finished round, its link and who played it."""
    try:
        share = game_selectors.share_of_round(round_id=rnd.id, player=player)
    except NotFoundError:
        return None
    plays = game_selectors.share_plays(share)
    return {**plays, "link": request.build_absolute_uri(plays["url"])}


def _challenge(state: dict[str, Any], player: User) -> dict[str, Any] | None:
    """For a round started from a friend's code: who challenged, and the score to beat
    where the friend may see it (the API's friend view decides)."""
    if state["share"] is None:
        return None
    try:
        share = game_selectors.share_get(code=state["share"])
    except NotFoundError:
        return None  # revoked since: the round plays on, the challenge page is gone
    return game_selectors.friend_view(share=share, player=player)


@login_required
@page_errors
def play(request: HttpRequest, round_id: UUID) -> HttpResponse:
    player: User = request.user  # type: ignore[assignment]
    rnd = game_selectors.round_get_for_player(round_id=round_id, player=player)
    card = play_context(rnd, player, request.GET)
    state = card["round"]
    advice = advice_allowed(rnd)
    playing = state["status"] == Round.Status.IN_PROGRESS
    context = {
        **card,
        "card": card,
        "title": _title(state, card["ruleset_name"]),
        "advice": advice,
        "hint": _hint(request, rnd, card)
        if advice and playing and request.GET.get("hint")
        else None,
        "share": _share(request, rnd, player)
        if state["status"] == Round.Status.COMPLETED
        else None,
        "challenge": _challenge(state, player),
    }
    return render(request, "web/play.html", context)


FORM_PROBLEM = gettext_lazy("The form was incomplete; here is the round as it stands.")


def act(
    request: HttpRequest,
    form_class: type[forms.Form],
    back: Callable[[Sequence[int | str]], str],
    action: Callable[[dict[str, Any]], object],
    *,
    keep_holds: bool,
) -> HttpResponse:
    """Check the posted ``form_class``, run a roll or score with its data and go back to
    the page ``back`` makes from the holds: an incomplete form or a refusal (400, 409)
    is shown there as its message, over the current state; the holds stay as they
    were."""
    form = form_class(request.POST)
    if not form.is_valid():
        messages.error(request, FORM_PROBLEM)
        return HttpResponseRedirect(back(()))
    held = request.POST.getlist("hold")
    refused = throttled(request, "play")  # the API's budget per player, shared
    if refused:
        messages.error(request, refused)
        return HttpResponseRedirect(back(held))
    try:
        action(form.cleaned_data)
    except NotFoundError as exc:
        return error_page(request, error_text(exc), status=exc.status_code)
    except (ServiceError, yatzy.YatzyError) as exc:
        messages.error(request, error_text(exc))
        return HttpResponseRedirect(back(held))
    return HttpResponseRedirect(back(held if keep_holds else ()))


@login_required
@require_POST
def play_roll(request: HttpRequest, round_id: UUID) -> HttpResponse:
    return act(
        request,
        RollForm,
        lambda held: _play_url(round_id, held),
        lambda data: game_services.round_roll(
            round_id=round_id,
            player=request.user,  # type: ignore[arg-type]
            hold=data["hold"],
            turn=data["turn"],
            roll=data["roll"],
        ),
        keep_holds=True,
    )


@login_required
@require_POST
def play_score(request: HttpRequest, round_id: UUID) -> HttpResponse:
    return act(
        request,
        ScoreForm,
        lambda held: _play_url(round_id, held),
        lambda data: game_services.round_score(
            round_id=round_id,
            player=request.user,  # type: ignore[arg-type]
            category=data["category"],
            turn=data["turn"],
        ),
        keep_holds=False,
    )


# -- boards ------------------------------------------------------------------------------


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
    if around:
        view = board_selectors.board_around(board=board, player=player, size=AROUND_SIZE)
    else:
        view = board_selectors.board_page(
            board=board,
            player=player,
            page=query.validated_data["page"],
            size=settings.REST_FRAMEWORK["PAGE_SIZE"],
            cursor=query.validated_data.get("cursor"),
        )
    url = request.get_full_path()
    # One reverse for the page, not one per row: the rows' links share the prefix.
    players = reverse("web:player", kwargs={"username": "-"})[:-2]
    keep = {"season": season} if season else {}
    plain = request.path + (f"?{urlencode(keep)}" if keep else "")
    context = {
        "title": title,
        "value_label": value_label,
        "board": board,
        "view": view,
        "rows": [
            {
                **row,
                "me": row["username"] == player.username,
                "url": f"{players}{quote(row['username'])}/",
            }
            for row in view.results
        ],
        "next_url": page_link(url, view.page, view.after, step=1) if view.has_next else None,
        "previous_url": page_link(url, view.page, view.before, step=-1)
        if view.has_previous
        else None,
        "around": around,
        "around_url": f"{request.path}?{urlencode({'around': 'me', **keep})}",
        "first_url": plain,
        "season": season,
        "seasons": board_selectors.season_list(),
        "streaks": board.kind == boards.STREAK,
        **(extra or {}),
    }
    if board.kind == boards.DAILY:
        me = view.me and {**view.me, "on_board": True}
        values = sorted(view.histogram)
        context["chart"] = charts.distribution(values, me["value"] if me else None)
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


@login_required
@page_errors
def board_best_day(request: HttpRequest) -> HttpResponse:
    return _board_page(
        request,
        lambda season: board_selectors.board_ranked(kind=boards.BEST, season_slug=season),
        title=_("Best day"),
        value_label=_("Best score"),
    )


@login_required
@page_errors
def board_streaks(request: HttpRequest) -> HttpResponse:
    return _board_page(
        request,
        lambda season: board_selectors.board_ranked(kind=boards.STREAK, season_slug=season),
        title=_("Most days in a row"),
        value_label=_("Longest"),
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


# -- advent, players, rules ---------------------------------------------------------------


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
        },
    )


def rules_index(request: HttpRequest) -> HttpResponse:
    return redirect("web:rules", ruleset="maxi")


# -- accounts ----------------------------------------------------------------------------


class _Scope:
    """What DRF's throttle reads from a view: its scope. The pages share the API's
    budgets (per client address), so neither door lets more guesses through."""

    def __init__(self, scope: str) -> None:
        self.throttle_scope = scope


def throttled(request: HttpRequest, scope: str) -> str | None:
    throttle = ScopedThrottle()
    if throttle.allow_request(request, _Scope(scope)):  # type: ignore[arg-type]
        return None
    wait = throttle.wait()
    return _("Too many attempts; try again in %(seconds)s seconds.") % {
        "seconds": int(wait or 60) + 1
    }


def _next_url(request: HttpRequest) -> str:
    target = request.POST.get("next") or request.GET.get("next") or ""
    safe = url_has_allowed_host_and_scheme(
        target, allowed_hosts={request.get_host()}, require_https=request.is_secure()
    )
    return target if safe else reverse("web:home")


class PageLoginView(LoginView):
    template_name = "web/login.html"
    authentication_form = AuthenticationForm
    redirect_authenticated_user = True

    def post(self, request: HttpRequest, *args: Any, **kwargs: Any) -> HttpResponse:
        refused = throttled(request, "login")
        if refused:
            form = self.get_form()
            form.is_bound = False
            return self.render_to_response(
                self.get_context_data(form=form, refused=refused), status=429
            )
        return super().post(request, *args, **kwargs)


@require_http_methods(["GET", "POST"])
def register(request: HttpRequest) -> HttpResponse:
    if request.user.is_authenticated:
        return redirect("web:home")
    form = RegisterForm(request.POST or None)
    status = 200
    if request.method == "POST":
        refused = throttled(request, "register")
        if refused:
            form.add_error(None, refused)
            status = 429
        elif form.is_valid():
            try:
                user, _token = user_register(**form.cleaned_data)
            except ServiceError as exc:
                field = "password" if exc.code == "weak_password" else "username"
                form.add_error(field, error_text(exc))
            else:
                login(request, user, backend="django.contrib.auth.backends.ModelBackend")
                return redirect(_next_url(request))
        if status == 200:
            status = 400
    return render(
        request, "web/register.html", {"form": form, "next": _next_url(request)}, status=status
    )


@require_http_methods(["GET", "POST"])
def logout_page(request: HttpRequest) -> HttpResponse:
    if request.method == "POST":
        logout(request)
        return redirect("web:home")
    return render(request, "web/logout.html")


@login_required
@require_http_methods(["GET", "POST"])
def settings_page(request: HttpRequest) -> HttpResponse:
    user: User = request.user  # type: ignore[assignment]
    initial = {
        "display_name": user.display_name,
        "language": user.language,
        "time_zone": user.time_zone,
        "ruleset": user.ruleset,
    }
    form = SettingsForm(request.POST or None, user=user, initial=initial)
    if request.method == "POST" and form.is_valid():
        before = user.ruleset
        try:
            user_update(user=user, data=form.cleaned_data)
        except (ServiceError, yatzy.YatzyError) as exc:
            form.add_error(None, error_text(exc))
        else:
            messages.success(request, _("Your settings are saved."))
            if user.ruleset != before:
                messages.info(
                    request,
                    _(
                        "New games use %(ruleset)s with its usual options now; "
                        "change them below if you like."
                    )
                    % {"ruleset": ruleset_title(user.ruleset)},
                )
            response = redirect("web:settings")
            response.set_cookie(
                settings.LANGUAGE_COOKIE_NAME,
                user.language,
                max_age=settings.LANGUAGE_COOKIE_AGE,
                samesite=settings.LANGUAGE_COOKIE_SAMESITE,
                secure=settings.LANGUAGE_COOKIE_SECURE,
            )
            return response
    status = 400 if request.method == "POST" else 200
    return render(
        request,
        "web/settings.html",
        {"form": form, "ruleset_name": ruleset_title(user.ruleset)},
        status=status,
    )
