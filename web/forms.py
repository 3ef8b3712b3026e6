"""The pages' forms: they turn posted form fields into typed values and show errors
next to their fields. The rules for names, passwords and profile fields stay in the
API's serializers and the services, which these forms call."""

from __future__ import annotations

import functools
import uuid
import zoneinfo
from typing import Any

from django import forms
from django.conf import settings
from django.contrib.auth.forms import AuthenticationForm
from django.core.exceptions import ValidationError
from django.forms.utils import flatatt
from django.utils.html import escape, format_html
from django.utils.safestring import SafeString, mark_safe
from django.utils.translation import gettext_lazy as _

import yatzy
from accounts.models import User
from accounts.serializers import MeSerializer, RegisterSerializer
from accounts.services import user_authenticate
from config.api_errors import error_text
from config.fields import written_as_integer
from games.models import Round
from games.rules import ruleset_options, ruleset_title
from games.selectors import ruleset_advice_modelled
from games.services import SEAT_NAME_MAX, SEATS_MAX


def _serializer_errors(form: forms.Form, errors: dict[str, Any]) -> None:
    for name, problems in errors.items():
        field = name if name in form.fields else None
        for problem in problems if isinstance(problems, list) else [problems]:
            form.add_error(field, str(problem))


class IntegerTextField(forms.IntegerField):
    """A whole number written as one (ASCII digits): Django's field also takes ``0.0``,
    `` 1`` and other scripts' digits (``٨٤`` for 84), which the API refuses."""

    def to_python(self, value: Any) -> int | None:
        if value not in self.empty_values and not (type(value) is int or written_as_integer(value)):
            raise ValidationError(self.error_messages["invalid"], code="invalid")
        result: int | None = super().to_python(value)
        return result


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
    # A new key each time the form is shown: the same form posted again (a double
    # click, a post retried after a lost answer) logs in the player it created
    # (accounts.services.user_create) instead of saying the name is taken.
    form_key = forms.CharField(widget=forms.HiddenInput, required=False, max_length=100)

    def __init__(self, data: Any = None) -> None:
        super().__init__(data, initial={"form_key": new_request_key()})

    def clean(self) -> dict[str, Any]:
        data = super().clean() or {}
        if self.errors:
            return data
        fields = {name: value for name, value in data.items() if name != "form_key"}
        serializer = RegisterSerializer(data=fields)
        if not serializer.is_valid():
            _serializer_errors(self, serializer.errors)
            return data
        return {**serializer.validated_data, "form_key": data.get("form_key", "")}


class LoginForm(AuthenticationForm):
    """Django's log-in form, its password checked as the API's log-in checks it
    (``accounts.services.user_authenticate``)."""

    def clean(self) -> dict[str, Any]:
        username = self.cleaned_data.get("username")
        password = self.cleaned_data.get("password")
        if username is not None and password:
            self.user_cache = user_authenticate(
                request=self.request, username=username, password=password
            )
            if self.user_cache is None:
                raise self.get_invalid_login_error()
            self.confirm_login_allowed(self.user_cache)
        return self.cleaned_data


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


# -- the options of a ruleset ----------------------------------------------------------

OPTION_PREFIX = "option_"


def option_fields(
    rs: yatzy.Ruleset,
    *,
    required: bool = True,
    prefix: str = OPTION_PREFIX,
    no_hints: str | None = None,
) -> dict[str, forms.Field]:
    """A form field for each option of ``rs``'s ruleset (two for the upper bonus's
    threshold and points), named ``prefix`` and the option, labelled as the rules page
    words them, starting from the values ``rs`` has. The allowed values are the
    engine's (``yatzy.option_specs``). Fields that are not ``required`` may be left
    out: their option keeps its default. ``no_hints`` is added to the help of each
    option that, turned on, leaves the game without hints (saved rolls: no exact
    table models them)."""
    fields: dict[str, forms.Field] = {}
    for option in ruleset_options(rs):
        key = prefix + option["name"]
        common: dict[str, Any] = {
            "label": option["title"],
            "help_text": option["description"],
            "required": required,
        }
        value = option["value"]
        if option["kind"] == "flag":
            if no_hints and not ruleset_advice_modelled(
                yatzy.get_ruleset(rs.name, **{**rs.options, option["name"]: True})
            ):
                common["help_text"] = f"{common['help_text']} {no_hints}"
            fields[key] = forms.BooleanField(initial=value, **{**common, "required": False})
        elif option["kind"] == "choice":
            choices = [(choice, str(choice)) for choice in option["choices"]]
            fields[key] = forms.TypedChoiceField(
                choices=choices, coerce=int, empty_value=None, initial=value, **common
            )
        elif option["kind"] == "pair":
            bounds = {
                "min_value": option["minimum"],
                "max_value": option["maximum"],
                "required": required,
            }
            fields[f"{key}_0"] = IntegerTextField(
                initial=value[0],
                label=_("%(option)s: threshold") % {"option": option["title"]},
                help_text=option["description"],
                **bounds,
            )
            fields[f"{key}_1"] = IntegerTextField(
                initial=value[1],
                label=_("%(option)s: points") % {"option": option["title"]},
                **bounds,
            )
        else:
            fields[key] = IntegerTextField(
                min_value=option["minimum"], max_value=option["maximum"], initial=value, **common
            )
    return fields


def options_from_form(
    name: str, data: dict[str, Any], *, prefix: str = OPTION_PREFIX
) -> dict[str, Any]:
    """The options a form's cleaned ``data`` sets for ruleset ``name`` (its fields
    named ``prefix`` and the option): only those that differ from the ruleset's
    defaults, as the API would take them (an option left empty keeps its default)."""
    options: dict[str, Any] = {}
    for spec in yatzy.option_specs(name):
        key = prefix + spec.name
        if spec.kind == "pair":
            value: Any = [data.get(f"{key}_0"), data.get(f"{key}_1")]
        else:
            value = data.get(key)
        if value is None or None in (value if isinstance(value, list) else ()):
            continue
        if value != spec.default:
            options[spec.name] = value
    return options


def _engine_check(form: forms.Form, name: str, options: dict[str, Any]) -> None:
    """The engine's own check of a ruleset and its options; its refusal is the form's."""
    try:
        yatzy.get_ruleset(name, **options)
    except yatzy.YatzyError as exc:
        form.add_error(None, error_text(exc))


class SettingsForm(forms.Form):
    display_name = forms.CharField(
        label=_("Display name"),
        max_length=40,
        required=False,
        help_text=_("Shown on the boards; leave empty to show your username."),
    )
    # Blank, as the API takes it: the browser's language (a new player's).
    language = forms.ChoiceField(
        label=_("Language"),
        choices=[("", _("The browser's language")), *settings.LANGUAGES],
        required=False,
        widget=LongSelect,
    )
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
    PROFILE = ("display_name", "language", "time_zone")

    def __init__(self, *args: Any, user: User, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.user = user
        self.fields["ruleset"].widget.attrs["data-ruleset-select"] = ""
        # Every ruleset's options, each group starting from the profile's options for
        # its ruleset and from the defaults for the others: the page shows the group of
        # the ruleset chosen as soon as it is chosen, and one save stores both.
        for name in yatzy.RULESETS:
            options = user.options if name == user.ruleset else {}
            rs = yatzy.get_ruleset(name, **options)
            self.fields.update(option_fields(rs, required=False, prefix=self.option_prefix(name)))

    @staticmethod
    def option_prefix(ruleset: str) -> str:
        return f"{OPTION_PREFIX}{ruleset}_"

    @property
    def profile_fields(self) -> list[forms.BoundField]:
        return [self[name] for name in self.PROFILE]

    @property
    def option_groups(self) -> list[dict[str, Any]]:
        """Each ruleset's option fields: ``name``, ``title`` and ``fields``."""
        return [
            {
                "name": name,
                "title": ruleset_title(name),
                "fields": [
                    self[key] for key in self.fields if key.startswith(self.option_prefix(name))
                ],
            }
            for name in yatzy.RULESETS
        ]

    def clean(self) -> dict[str, Any]:
        data = super().clean() or {}
        if self.errors:
            return data
        fields = {name: data[name] for name in (*self.PROFILE, "ruleset")}
        name = data["ruleset"]
        fields["options"] = options_from_form(name, data, prefix=self.option_prefix(name))
        _engine_check(self, name, fields["options"])
        if self.errors:
            return data
        serializer = MeSerializer(self.user, data=fields, partial=True)
        if not serializer.is_valid():
            _serializer_errors(self, serializer.errors)
            return data
        return dict(serializer.validated_data)


NO_HINTS = _("A game with this option has no hints and no analysis: no exact strategy covers it.")


REQUEST_KEY_USED = _(
    "This form had already started a game with other choices. "
    "Start again for a new game with these."
)


def new_request_key() -> str:
    """A new-game form's key, new each time it is shown."""
    return uuid.uuid4().hex


class NewGameForm(forms.Form):
    """A new solo, computer or party game: the ruleset (chosen on the page before the
    form), its options starting from the player's settings, the computer's level or
    the party's seat names. The services check everything again."""

    ruleset = forms.ChoiceField(
        choices=[(name, name) for name in yatzy.RULESETS], widget=forms.HiddenInput
    )
    # A new key each time the form is shown: the form posted twice (a double click)
    # starts one game (the API's Idempotency-Key); shown again, it starts another.
    request_key = forms.CharField(widget=forms.HiddenInput, required=False, max_length=100)

    def __init__(self, data: Any = None, *, mode: str, rs: yatzy.Ruleset) -> None:
        super().__init__(data, initial={"ruleset": rs.name, "request_key": new_request_key()})
        self.mode = mode
        self.rs = rs
        if mode == Round.Mode.COMPUTER:
            self.fields["level"] = forms.ChoiceField(
                label=_("The computer's level"),
                choices=Round.Level.choices,
                initial=Round.Level.MEDIUM,
                widget=forms.RadioSelect,
                help_text=_("Expert plays every choice perfectly; Easy keeps it simple."),
            )
        if mode == Round.Mode.PARTY:
            for seat in range(SEATS_MAX):
                self.fields[f"seat_{seat}"] = forms.CharField(
                    label=_("Player %(number)d") % {"number": seat + 1},
                    required=False,
                    max_length=SEAT_NAME_MAX,
                    help_text=_("In the order you play. Leave the last ones empty for fewer.")
                    if seat == 0
                    else "",
                )
        no_hints = NO_HINTS if mode == Round.Mode.SOLO else None
        self.fields.update(option_fields(rs, no_hints=str(no_hints) if no_hints else None))

    @property
    def option_fields(self) -> list[forms.BoundField]:
        return [self[name] for name in self.fields if name.startswith(OPTION_PREFIX)]

    @property
    def main_fields(self) -> list[forms.BoundField]:
        return [
            self[name]
            for name in self.fields
            if name not in ("ruleset", "request_key") and not name.startswith(OPTION_PREFIX)
        ]

    def clean(self) -> dict[str, Any]:
        data = super().clean() or {}
        if self.errors:
            return data
        data["options"] = options_from_form(self.rs.name, data)
        _engine_check(self, self.rs.name, data["options"])
        if self.mode == Round.Mode.PARTY:
            names = [data.get(f"seat_{seat}", "") for seat in range(SEATS_MAX)]
            data["seats"] = [name for name in names if name.strip()]
        return data


class FriendStartForm(forms.Form):
    view = forms.ChoiceField(
        label=_("How do you want to play?"),
        choices=[
            (Round.View.BLIND, _("Blind: play first, see their score at the end")),
            (Round.View.TARGET, _("Target: see the score to beat while you play")),
        ],
        initial=Round.View.BLIND,
        widget=forms.RadioSelect,
    )


class RollForm(forms.Form):
    hold = forms.TypedMultipleChoiceField(
        choices=[(str(i), str(i)) for i in range(10)], coerce=int, required=False
    )
    turn = IntegerTextField(min_value=0, max_value=99)
    roll = IntegerTextField(min_value=0, max_value=99)


class ScoreForm(forms.Form):
    category = forms.CharField(max_length=32, strip=False)  # as the API takes it
    turn = IntegerTextField(min_value=0, max_value=99)
    roll = IntegerTextField(min_value=0, max_value=99, required=False)


class PartyRollForm(RollForm):
    seat = IntegerTextField(min_value=0, max_value=SEATS_MAX - 1)


class PartyScoreForm(ScoreForm):
    seat = IntegerTextField(min_value=0, max_value=SEATS_MAX - 1)
