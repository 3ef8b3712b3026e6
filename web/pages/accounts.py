"""Log in, register, log out and the player's settings."""

from __future__ import annotations

from typing import Any

from django.conf import settings
from django.contrib import messages
from django.contrib.auth import login, logout
from django.contrib.auth.decorators import login_required
from django.contrib.auth.views import LoginView
from django.http import HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.urls import reverse
from django.utils.translation import gettext as _
from django.views.decorators.http import require_http_methods
from django.views.i18n import set_language

import yatzy
from accounts.models import User
from accounts.services import user_create, user_update
from config.api_errors import ServiceError, error_text
from config.i18n import LANGUAGE_CODES
from web.forms import LoginForm, RegisterForm, SettingsForm
from web.helpers import (
    account_url,
    answers_stale_form,
    back_when_stale,
    form_throttled,
    next_target,
    own_address,
    throttled,
)


def _next_url(request: HttpRequest) -> str:
    return next_target(request) or reverse("web:home")


class PageLoginView(LoginView):
    template_name = "web/login.html"
    authentication_form = LoginForm
    redirect_authenticated_user = True

    def get_redirect_url(self, request: HttpRequest | None = None) -> str:
        # The pages' own check (web.helpers.next_target), which also refuses a next that
        # is the log-in page: Django's sent a logged-in player on to it (a 500, or a
        # loop with a query).
        return next_target(request or self.request) or ""

    def post(self, request: HttpRequest, *args: Any, **kwargs: Any) -> HttpResponse:
        refused = throttled(request, "login")
        if refused:
            form = self.get_form()
            form.is_bound = False
            return refused.answer(
                self.render_to_response(
                    self.get_context_data(form=form, refused=refused.message), status=429
                )
            )
        return super().post(request, *args, **kwargs)


# The log-in form posted with a stale token (the classic: logged out, or in, in another
# tab) goes back to the log-in page, still on its way to where it was going.
login_page = answers_stale_form(
    back_when_stale(lambda request: account_url("login", next_target(request)))
)(PageLoginView.as_view())


# The field of the sign-up form a refusal of the service belongs to (else the username).
_REGISTER_FIELDS = {
    "weak_password": "password",
    "invisible_name": "display_name",
    "display_name_taken": "display_name",
}


@require_http_methods(["GET", "HEAD", "POST"])
@answers_stale_form(back_when_stale(lambda request: account_url("register", next_target(request))))
def register(request: HttpRequest) -> HttpResponse:
    if request.user.is_authenticated:
        return redirect("web:home")
    form = RegisterForm(request.POST if request.method == "POST" else None)
    status = 200
    refused = form_throttled(request, form, "register")
    if refused:
        status = 429
    elif request.method == "POST":
        if form.is_valid():
            try:
                user = user_create(**form.cleaned_data)
            except ServiceError as exc:
                field = _REGISTER_FIELDS.get(exc.code, "username")
                form.add_error(field, error_text(exc))
            else:
                login(request, user, backend="django.contrib.auth.backends.ModelBackend")
                return redirect(_next_url(request))
        if status == 200:
            status = 400
    response = render(
        request, "web/register.html", {"form": form, "next": _next_url(request)}, status=status
    )
    return refused.answer(response) if refused else response


@require_http_methods(["GET", "HEAD", "POST"])
@answers_stale_form(back_when_stale(lambda request: reverse("web:logout")))
def logout_page(request: HttpRequest) -> HttpResponse:
    if request.method == "POST":
        logout(request)
        return redirect("web:home")
    return render(request, "web/logout.html")


@login_required
@require_http_methods(["GET", "HEAD", "POST"])
@answers_stale_form(back_when_stale(lambda request: reverse("web:settings")))
def settings_page(request: HttpRequest) -> HttpResponse:
    user: User = request.user  # type: ignore[assignment]
    initial = {
        "display_name": user.display_name,
        "language": user.language,
        "time_zone": user.time_zone,
        "ruleset": user.ruleset,
    }
    form = SettingsForm(
        request.POST if request.method == "POST" else None, user=user, initial=initial
    )
    if request.method == "POST" and form.is_valid():
        try:
            user_update(user=user, data=form.cleaned_data)
        except (ServiceError, yatzy.YatzyError) as exc:
            form.add_error(None, error_text(exc))
        else:
            messages.success(request, _("Your settings are saved."))
            response = redirect("web:settings")
            if not user.language:  # the browser's: no cookie to decide before it
                response.delete_cookie(
                    settings.LANGUAGE_COOKIE_NAME, samesite=settings.LANGUAGE_COOKIE_SAMESITE
                )
                return response
            response.set_cookie(
                settings.LANGUAGE_COOKIE_NAME,
                user.language,
                max_age=settings.LANGUAGE_COOKIE_AGE,
                samesite=settings.LANGUAGE_COOKIE_SAMESITE,
                secure=settings.LANGUAGE_COOKIE_SECURE,
            )
            return response
    status = 400 if request.method == "POST" else 200
    return render(request, "web/settings.html", {"form": form}, status=status)


def _language_form_page(request: HttpRequest) -> str:
    """The page the language switcher was on (its ``next``, an address of this site)."""
    return own_address(request, request.POST.get("next", "")) or reverse("web:home")


@answers_stale_form(back_when_stale(_language_form_page))
def language_switch(request: HttpRequest) -> HttpResponse:
    """The footer's language switcher (``/i18n/setlang/``, Django's ``set_language``: the
    cookie and the redirect to ``next``). A logged-in player's profile language decides
    their pages over the cookie, so for a player the choice is saved there too: else it
    did nothing for one who had chosen a language in the settings, and was undone for
    one who follows the browser by saving the settings. A language the site does not
    offer changes nothing."""
    language = request.POST.get("language", "")
    if request.method == "POST" and request.user.is_authenticated and language in LANGUAGE_CODES:
        user: User = request.user
        if user.language != language:
            user_update(user=user, data={"language": language})
    return set_language(request)
