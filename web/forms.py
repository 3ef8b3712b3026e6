"""The pages' forms: they turn posted form fields into typed values and show errors
next to their fields. The rules for names, passwords and profile fields stay in the
API's serializers and the services, which these forms call."""

from __future__ import annotations

import functools
import zoneinfo
from typing import Any

from django import forms
from django.conf import settings
from django.forms.utils import flatatt
from django.utils.html import escape, format_html
from django.utils.safestring import SafeString, mark_safe
from django.utils.translation import gettext_lazy as _

import yatzy
from accounts.models import User
from accounts.serializers import MeSerializer, RegisterSerializer
from games.rules import ruleset_title


def _serializer_errors(form: forms.Form, errors: dict[str, Any]) -> None:
    for name, problems in errors.items():
        field = name if name in form.fields else None
        for problem in problems if isinstance(problems, list) else [problems]:
            form.add_error(field, str(problem))


class RegisterForm(forms.Form):
    username = forms.CharField(
        label=_("Username"),
        max_length=150,
        help_text=_("Letters, digits and . @ + - _ only. Shown on the boards."),
        widget=forms.TextInput(attrs={"autocomplete": "username", "autocapitalize": "none"}),
    )
    display_name = forms.CharField(
        label=_("Display name"),
        max_length=40,
        required=False,
        help_text=_("Optional: shown on the boards instead of your username."),
    )
    password = forms.CharField(
        label=_("Password"),
        max_length=128,
        strip=False,
        widget=forms.PasswordInput(attrs={"autocomplete": "new-password"}),
    )

    def clean(self) -> dict[str, Any]:
        data = super().clean() or {}
        if self.errors:
            return data
        serializer = RegisterSerializer(data=data)
        if not serializer.is_valid():
            _serializer_errors(self, serializer.errors)
            return data
        return dict(serializer.validated_data)


class LongSelect(forms.Select):
    """A select of many options (600 time zones) built in one pass: Django's widget
    renders a template per option, which made the settings page take 90 ms."""

    def render(
        self, name: str, value: Any, attrs: dict[str, Any] | None = None, renderer: Any = None
    ) -> SafeString:
        chosen = "" if value is None else str(value)
        options = "".join(
            f'<option value="{escape(key)}"{" selected" if str(key) == chosen else ""}>'
            f"{escape(label)}</option>"
            for key, label in self.choices
        )
        final = self.build_attrs(self.attrs, {**(attrs or {}), "name": name})
        return format_html("<select{}>{}</select>", flatatt(final), mark_safe(options))


@functools.cache
def _time_zones() -> list[tuple[str, str]]:
    return [(name, name) for name in sorted(zoneinfo.available_timezones())]


class SettingsForm(forms.Form):
    display_name = forms.CharField(
        label=_("Display name"),
        max_length=40,
        required=False,
        help_text=_("Shown on the boards; leave empty to show your username."),
    )
    language = forms.ChoiceField(label=_("Language"), choices=settings.LANGUAGES, widget=LongSelect)
    time_zone = forms.ChoiceField(
        label=_("Time zone"),
        choices=_time_zones,
        widget=LongSelect,
        help_text=_("Times on the pages are shown in this zone."),
    )
    ruleset = forms.ChoiceField(
        label=_("Ruleset for new games"),
        choices=[(name, ruleset_title(name)) for name in yatzy.RULESETS],
        widget=LongSelect,
        help_text=_("Applies from your next new game, never to one you are playing."),
    )

    def __init__(self, *args: Any, user: User, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.user = user

    def clean(self) -> dict[str, Any]:
        data = super().clean() or {}
        if self.errors:
            return data
        serializer = MeSerializer(self.user, data=data, partial=True)
        if not serializer.is_valid():
            _serializer_errors(self, serializer.errors)
            return data
        return dict(serializer.validated_data)


class RollForm(forms.Form):
    hold = forms.TypedMultipleChoiceField(
        choices=[(str(i), str(i)) for i in range(10)], coerce=int, required=False
    )
    turn = forms.IntegerField(min_value=0, max_value=99)
    roll = forms.IntegerField(min_value=0, max_value=99)


class ScoreForm(forms.Form):
    category = forms.CharField(max_length=32)
    turn = forms.IntegerField(min_value=0, max_value=99)
