"""What every page shares: a service's refusal as an error page, the API's throttles
applied to the pages, the one way a posted roll or score is checked, run and answered,
and the held dice carried in a page's query string."""

from __future__ import annotations

import functools
import sys
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any, TypeVar
from urllib.parse import quote, urlsplit

from django import forms
from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.contrib.auth.models import AnonymousUser
from django.db import InterfaceError, OperationalError
from django.http import (
    HttpRequest,
    HttpResponse,
    HttpResponseNotAllowed,
    HttpResponseRedirect,
    JsonResponse,
)
from django.shortcuts import render
from django.urls import Resolver404, resolve, reverse
from django.utils.http import url_has_allowed_host_and_scheme, urlencode
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy
from django.views import csrf, defaults

import yatzy
from accounts.models import User
from config.api_errors import (
    DATABASE_RETRY_AFTER,
    DATABASE_UNAVAILABLE,
    NotFoundError,
    ServiceError,
    database_unavailable,
    error_text,
)
from config.api_guard import API_PREFIX, STATUS_ANSWERS
from config.throttling import over_budget
from games import selectors as game_selectors
from games.models import Party, Round

View = Callable[..., HttpResponse]
Response = TypeVar("Response", bound=HttpResponse)
ViewT = TypeVar("ViewT", bound=Callable[..., Any])  # a view, a class-based one's too


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


def error_page(
    request: HttpRequest, message: str, *, status: int, title: str | None = None
) -> HttpResponse:
    """The error page: ``message`` under a heading, titled ``title`` ("Not here" unless
    given)."""
    return render(request, "web/error.html", {"message": message, "title": title}, status=status)


def bad_request(request: HttpRequest, exception: Exception) -> HttpResponse:
    """``handler400``: a request refused before any view (a NUL in its address:
    ``config.nul_guard``; a host not allowed) as the site's error page. Under /api/ the
    API's guard answers its JSON in place of Django's."""
    if request.path.startswith(API_PREFIX):
        return defaults.bad_request(request, exception)
    if not hasattr(request, "user"):  # refused before the player was read
        request.user = AnonymousUser()
    return error_page(
        request, str(STATUS_ANSWERS[400][1]), status=400, title=_("This page cannot be shown")
    )


def not_found(request: HttpRequest, exception: Exception) -> HttpResponse:
    """``handler404``: an unknown address (or any 404 a view did not word itself) is the
    site's error page in the visitor's language, not Django's bare English one. Under
    /api/ no page is drawn: the API's guard answers its JSON in place of Django's."""
    if request.path.startswith(API_PREFIX):
        return defaults.page_not_found(request, exception)
    return error_page(request, str(STATUS_ANSWERS[404][1]), status=404)


def forbidden(request: HttpRequest, exception: Exception) -> HttpResponse:
    """``handler403``: a refusal (a staff page the account may not see) as the site's
    error page. A post without its CSRF token keeps Django's own answer, and under /api/
    the API's guard answers its JSON in place of Django's."""
    if request.path.startswith(API_PREFIX):
        return defaults.permission_denied(request, exception)
    return error_page(
        request, str(STATUS_ANSWERS[403][1]), status=403, title=_("This page cannot be shown")
    )


def server_error(request: HttpRequest) -> HttpResponse:
    """``handler500``: a database that does not answer (a restart, a failover; raised by
    a view or a middleware reading the player) is a 503 with ``Retry-After`` and the
    API's message, laid out for a visitor (the player cannot be read), and under /api/
    the API's JSON 503 ``database_unavailable``; anything else is Django's own 500."""
    exc = sys.exc_info()[1]
    if not isinstance(exc, (OperationalError, InterfaceError)):
        return defaults.server_error(request)
    if request.path.startswith(API_PREFIX):
        body, status, headers = database_unavailable()
        return JsonResponse(body, status=status, headers=headers)
    request.user = AnonymousUser()
    response = error_page(
        request, str(DATABASE_UNAVAILABLE), status=503, title=_("This page cannot be shown")
    )
    response["Retry-After"] = DATABASE_RETRY_AFTER
    return response


def player_or_none(request: HttpRequest) -> User | None:
    """The logged-in player, or ``None`` for a visitor."""
    return request.user if request.user.is_authenticated else None


# -- coming back after logging in ------------------------------------------------------------

# The pages whose own ``next`` is where their log-in and register links come back to.
ACCOUNT_PAGES = ("login", "register")


def own_address(request: HttpRequest, target: str) -> str | None:
    """``target`` when it is an address of this site (Django's check of a redirect's
    target), else ``None``."""
    safe = url_has_allowed_host_and_scheme(
        target, allowed_hosts={request.get_host()}, require_https=request.is_secure()
    )
    return target if target and safe else None


def next_target(request: HttpRequest) -> str | None:
    """The request's ``next`` (posted or in the query) when it is a page of this site,
    else ``None``: nobody is sent elsewhere after logging in."""
    target = own_address(request, request.POST.get("next") or request.GET.get("next") or "")
    return target if target and not _account_page(target) else None


def _account_page(target: str) -> bool:
    """Whether ``target`` is the log-in or register page: after logging in nobody is
    sent back to log in (the log-in page sent a logged-in player on to itself, a loop)."""
    try:
        match = resolve(urlsplit(target).path)
    except Resolver404:
        return False
    return match.namespace == "web" and match.url_name in ACCOUNT_PAGES


def account_links(request: HttpRequest) -> dict[str, str]:
    """The log-in and register links of a page, each bringing the visitor back to it
    (on those two pages themselves, to where they were going).

    >>> from django.test import RequestFactory
    >>> account_links(RequestFactory().get("/f/ABCD2345?x=1&y=2"))["register_url"]
    '/accounts/register/?next=/f/ABCD2345%3Fx%3D1%26y%3D2'
    """
    name = request.resolver_match.url_name if request.resolver_match else None
    if name in ACCOUNT_PAGES:
        back = next_target(request)
    elif name == "logout" or request.method not in ("GET", "HEAD"):
        back = None  # nor is logging out, or a page answering a form's post, to come back to
    else:
        back = request.get_full_path()
    return {"login_url": account_url("login", back), "register_url": account_url("register", back)}


def account_url(name: str, back: str | None) -> str:
    """The address of the account page ``name`` (one of ``ACCOUNT_PAGES``) that comes
    back to ``back`` after logging in.

    >>> account_url("login", "/games/?page=2")
    '/accounts/login/?next=/games/%3Fpage%3D2'
    """
    return reverse(f"web:{name}") + next_query(back)


def next_query(back: str | None) -> str:
    """The query that carries a log-in page on to ``back`` (none without one)."""
    return f"?next={quote(back, safe='/')}" if back else ""


# -- throttles ---------------------------------------------------------------------------


@dataclass(frozen=True)
class Throttled:
    """A page request over its scope's budget: the message to show, and how long to
    wait (sent as ``Retry-After`` where the answer is a 429)."""

    message: str
    retry_after: int

    def answer(self, response: Response) -> Response:
        """``response`` (a 429 page) with its ``Retry-After``."""
        response["Retry-After"] = str(self.retry_after)
        return response

    def page(self, request: HttpRequest) -> HttpResponse:
        """The 429 error page."""
        return self.answer(error_page(request, self.message, status=429))


def throttled(request: HttpRequest, scope: str) -> Throttled | None:
    """``None`` while ``request`` is within the API's ``scope`` budget, else why not."""
    refused = over_budget(request, scope)
    return None if refused is None else Throttled(*refused)


def hint_asked(request: HttpRequest) -> tuple[bool, str | None]:
    """Whether a play or party page asks for a hint (``?hint=1``) within the API's
    ``advice`` budget, and the throttle's message when it is over it."""
    if not request.GET.get("hint"):
        return False, None
    refused = throttled(request, "advice")
    return refused is None, refused.message if refused else None


def form_throttled(request: HttpRequest, form: forms.Form, scope: str) -> Throttled | None:
    """For a page whose form posts: on a POST over ``scope``'s budget, the refusal, with
    its message on ``form``; else ``None``."""
    if request.method != "POST":
        return None
    refused = throttled(request, scope)
    if refused:
        form.add_error(None, refused.message)
    return refused


# -- held dice in the query ----------------------------------------------------------------


def _position(text: str, dice: int) -> int | None:
    # ASCII digits only: str.isdigit() also accepts "²" and "①", which int() refuses;
    # and a few of them, as int() refuses 4,300 digits and more.
    if text.isascii() and text.isdigit() and len(text) <= 3 and int(text) < dice:
        return int(text)
    return None


def held_from_query(query: Any, dice: int) -> list[int]:
    """The dice held on a page: its ``hold`` positions, with one ``toggle`` flipped (the
    dice's buttons without JavaScript); anything else in them is ignored.

    >>> from django.http import QueryDict
    >>> query = "hold=0&hold=4&hold=%C2%B2&hold=9&toggle=4&hold=" + "1" * 5000
    >>> held_from_query(QueryDict(query), 6)
    [0]
    """
    held = {p for p in (_position(text, dice) for text in query.getlist("hold")) if p is not None}
    toggle = _position(query.get("toggle", ""), dice)
    if toggle is not None:
        held ^= {toggle}
    return sorted(held)


def with_holds(url: str, held: Sequence[int | str] = (), **extra: str | int) -> str:
    """``url`` with the held dice (and any ``extra`` parameters) in its query.

    >>> with_holds("/play/1/", [0, 2], hint=1)
    '/play/1/?hint=1&hold=0&hold=2'
    """
    query: dict[str, str | int | list[int | str]] = {**extra}
    if held:
        query["hold"] = list(held)
    return f"{url}?{urlencode(query, doseq=True)}" if query else url


# -- a form posted with a stale CSRF token --------------------------------------------------

STALE_FORM = gettext_lazy(
    "This page was out of date after a change in another window, so nothing was done; "
    "here is the game as it stands."
)
STALE_PAGE = gettext_lazy(
    "This page was out of date after a change in another window, so nothing was done."
)

# A view's answer to its form posted with a stale CSRF token, called as the view is
# (the request and the path's arguments); it must not act on the post.
StaleAnswer = Callable[..., HttpResponse]
Missing = Callable[..., HttpResponse | None]

# The page forms' answers to a post with a stale CSRF token (see :func:`csrf_failure`),
# by view: every page form registers one (``form_address``, ``answers_stale_form``).
_STALE_FORMS: dict[Callable[..., Any], StaleAnswer] = {}

# Django's refusal of a token that does not match the CSRF cookie ("CSRF token from POST
# incorrect."): what a tab whose cookie changed sends. A post without a token or
# without the cookie, and one whose Origin or Referer is another site, stay a 403.
_STALE_REASON = "CSRF token from "


def answers_stale_form(answer: StaleAnswer) -> Callable[[ViewT], ViewT]:
    """Registers ``answer`` as the view's answer to its form posted with a stale CSRF
    token. Any decorator made with ``functools.wraps`` may stand above it."""

    def decorator(view: ViewT) -> ViewT:
        _STALE_FORMS[view] = answer
        return view

    return decorator


def back_when_stale(page: Callable[..., str], *, missing: Missing | None = None) -> StaleAnswer:
    """The usual answer to a form posted with a stale token: nothing is done, and the
    browser goes back to the page the form is on, ``page(request, **path)`` (an address
    of this site: built from the path's arguments, never from the Referer), which says
    so with ``STALE_PAGE``. ``missing(request, **path)``, when given, is the view's own
    answer (its 404 page) where the form's object is not there for this player, else
    ``None``."""

    def answer(request: HttpRequest, **path: Any) -> HttpResponse:
        refused = missing(request, **path) if missing else None
        if refused is not None:
            return refused
        messages.error(request, STALE_PAGE)
        return HttpResponseRedirect(page(request, **path))

    return answer


def _stale_answer(view: Callable[..., Any] | None) -> StaleAnswer | None:
    """The answer registered for ``view`` or for a view it wraps (``__wrapped__``, as
    ``login_required`` and the other ``functools.wraps`` decorators leave it)."""
    while view is not None:
        if view in _STALE_FORMS:
            return _STALE_FORMS[view]
        view = getattr(view, "__wrapped__", None)
    return None


def csrf_failure(request: HttpRequest, reason: str = "") -> HttpResponse:
    """``CSRF_FAILURE_VIEW``. A page form posted with a stale token (the visitor logged
    in in another window, which changes the CSRF cookie; logging out does not) is
    answered by its view's registered answer: nothing done, the page the form is on
    saying so in the page's language (a roll or score: the game, with the held dice;
    ``STALE_FORM``) where Django's bare English 403 said "CSRF verification failed".
    Any other refusal, and every address without a registered answer (the API's), is
    Django's own answer."""
    try:
        match = resolve(request.path_info)
    except Resolver404:
        return csrf.csrf_failure(request, reason)
    stale = _stale_answer(match.func)
    if stale is None or request.method != "POST" or not reason.startswith(_STALE_REASON):
        return csrf.csrf_failure(request, reason)
    return stale(request, **match.kwargs)


def form_address(
    page: Callable[..., str],
    *,
    missing: Missing | None = None,
    stale: StaleAnswer | None = None,
) -> Callable[[View], View]:
    """A form's address (POST only). Opened with GET or HEAD, it redirects to the page
    the form is on, ``page(**path)``: a form posted after the session ended goes to the
    log-in page, whose ``next`` is this address, and the browser comes back to it with a
    GET. Any other method is 405. Posted with a stale CSRF token, it is ``stale``, by
    default ``back_when_stale`` to that page (with ``missing``)."""
    answer = stale or back_when_stale(lambda request, **path: page(**path), missing=missing)

    def decorator(view: View) -> View:
        @answers_stale_form(answer)
        @functools.wraps(view)
        def wrapper(request: HttpRequest, **path: Any) -> HttpResponse:
            if request.method in ("GET", "HEAD"):
                return HttpResponseRedirect(page(**path))
            if request.method != "POST":
                return HttpResponseNotAllowed(["POST"])
            return view(request, **path)

        return wrapper

    return decorator


# -- a posted roll or score ------------------------------------------------------------------

FORM_PROBLEM = gettext_lazy("The form was incomplete; here is the round as it stands.")


def act(
    request: HttpRequest,
    form_class: type[forms.Form],
    back: Callable[[Sequence[int | str]], str],
    action: Callable[[dict[str, Any]], object],
    *,
    find: Callable[[], object],
    keep_holds: bool,
) -> HttpResponse:
    """Check the posted ``form_class``, run a roll or score with its data and go back to
    the page ``back`` makes from the holds: an incomplete form or a refusal (400, 409)
    is shown there as its message, over the current state; the holds stay as they
    were. A game the player cannot see is its 404 page at once, whatever was posted:
    ``find`` looks it up before a form or a throttle is refused (the service looks it
    up itself otherwise), so another player's game is never sent back to as a page."""
    form = form_class(request.POST)
    valid = form.is_valid()
    refused = throttled(request, "play") if valid else None  # the API's budget per player
    held = request.POST.getlist("hold")
    try:
        if valid and not refused:
            action(form.cleaned_data)
        else:
            find()
    except NotFoundError as exc:
        return error_page(request, error_text(exc), status=exc.status_code)
    except (ServiceError, yatzy.YatzyError) as exc:
        messages.error(request, error_text(exc))
        return HttpResponseRedirect(back(held))
    if not valid:
        messages.error(request, FORM_PROBLEM)
        return HttpResponseRedirect(back(()))
    if refused:
        messages.error(request, refused.message)
        return HttpResponseRedirect(back(held))
    return HttpResponseRedirect(back(held if keep_holds else ()))


def action_view(
    form_class: type[forms.Form],
    *,
    back: Callable[..., str],
    find: Callable[..., object],
    run: Callable[..., object],
    keep_holds: bool,
) -> View:
    """A page's roll or score form (POST, logged in): ``act`` with the page the path's
    arguments name, ``back(held, **path)``, the game's look-up ``find(player, **path)``
    (NotFoundError for one the player cannot see) and the service call ``run(player,
    data, **path)``."""

    def stale(request: HttpRequest, **path: Any) -> HttpResponse:
        """The form posted with a stale CSRF token (see :func:`csrf_failure`): nothing
        is done, and the page says so over the game as it stands, with the dice the
        form held where the game is still at the roll it was posted from. A visitor
        (logged out in another window) is sent to the game's page, which asks them to
        log in."""
        if not request.user.is_authenticated:
            return back_when_stale(lambda request, **path: back((), **path))(request, **path)
        try:
            game = find(request.user, **path)
        except NotFoundError as exc:
            return error_page(request, error_text(exc), status=exc.status_code)
        form = form_class(request.POST)
        held: Sequence[str] = ()
        if form.is_valid() and isinstance(game, (Round, Party)):
            data = form.cleaned_data
            if game_selectors.game_seen(
                game, turn=data["turn"], roll=data.get("roll"), seat=data.get("seat")
            ):
                held = request.POST.getlist("hold")
        messages.error(request, STALE_FORM)
        return HttpResponseRedirect(back(held, **path))

    @login_required
    @form_address(lambda **path: back((), **path), stale=stale)
    def view(request: HttpRequest, **path: Any) -> HttpResponse:
        return act(
            request,
            form_class,
            lambda held: back(held, **path),
            lambda data: run(request.user, data, **path),
            find=lambda: find(request.user, **path),
            keep_holds=keep_holds,
        )

    return view
