from typing import Any

from django.conf import settings
from django.core.validators import RegexValidator
from django.utils.translation import gettext_lazy as _
from drf_spectacular.utils import extend_schema_field
from rest_framework import serializers

import yatzy
from accounts.models import User, validate_time_zone
from accounts.names import (
    USERNAME_CHARACTERS,
    display_name_clean,
    username_check,
    username_normalize,
)
from accounts.services import user_authenticate
from config.fields import (
    ClosedBodySerializer,
    OptionsField,
    StrictCharField,
    StrictChoiceField,
)


class UsernameField(StrictCharField):
    """Letters, digits and ``. @ + - _``, each visible, one letter or digit at least;
    stored NFKC-normalised (the pattern is for the schema, ``username_check`` decides)."""

    def __init__(self, **kwargs: object) -> None:
        kwargs.setdefault("max_length", 150)
        super().__init__(**kwargs)  # type: ignore[arg-type]
        # At least one letter or digit ([^\W_]) among them.
        pattern = r"^(?=.*[^\W_])[\w.@+-]+\Z"
        self.validators.append(RegexValidator(pattern, USERNAME_CHARACTERS, "invalid"))

    def to_internal_value(self, data: object) -> str:
        name = username_normalize(super().to_internal_value(data))
        username_check(name)
        return name


class DisplayNameField(StrictCharField):
    """Shown on boards; blank shows the username. Invisible characters are dropped, and
    a name of nothing visible is refused (``accounts.names``)."""

    def __init__(self, **kwargs: object) -> None:
        kwargs.setdefault("max_length", 40)
        kwargs.setdefault("allow_blank", True)
        kwargs.setdefault("trim_whitespace", True)
        super().__init__(**kwargs)  # type: ignore[arg-type]

    def to_internal_value(self, data: object) -> str:
        return display_name_clean(super().to_internal_value(data))


def _password_field() -> StrictCharField:
    """A password as typed, spaces at its ends included, as the log-in page takes it:
    trimmed here (sign-up on the API and on the page, whose form this checks too, and
    the API's log-in), a password ending in a space did not log in on the page as typed
    (``accounts.services.user_authenticate`` for those stored so)."""
    return StrictCharField(write_only=True, max_length=128, trim_whitespace=False)


class RegisterSerializer(ClosedBodySerializer):
    username = UsernameField()
    password = _password_field()
    display_name = DisplayNameField(required=False, default="")


class LoginSerializer(ClosedBodySerializer):
    username = StrictCharField(max_length=150)
    password = _password_field()

    def validate(self, attrs: dict) -> dict:
        user = user_authenticate(
            request=self.context.get("request"),
            username=attrs["username"],
            password=attrs["password"],
        )
        if user is None:
            raise serializers.ValidationError(
                _("Unknown username or wrong password."), code="invalid_credentials"
            )
        attrs["user"] = user
        return attrs


class TokenSerializer(serializers.Serializer):
    token = serializers.CharField()


class LanguageChoiceSerializer(serializers.Serializer):
    code = serializers.CharField(help_text="What `language` takes, e.g. `nl`.")
    name = serializers.CharField(help_text="The language's name in itself, e.g. `Nederlands`.")


# A player's profile: a plain serializer with the model's fields declared, since a
# ModelSerializer builds its fields from the model again on every instance, a third of
# GET accounts/me/'s CPU (bench.api, docs/benchmarks.md). No docstring: it would become
# the schema's description.
class MeSerializer(ClosedBodySerializer):
    id = serializers.IntegerField(read_only=True)
    username = serializers.CharField(
        read_only=True, help_text=User._meta.get_field("username").help_text
    )
    display_name = DisplayNameField(required=False)
    language = StrictChoiceField(
        choices=settings.LANGUAGES,
        required=False,
        allow_blank=True,
        help_text=(
            "The language of every answer to you; blank (the default) follows your "
            "browser's `Accept-Language`, English when it names none of `languages`."
        ),
    )
    time_zone = StrictCharField(max_length=64, validators=[validate_time_zone], required=False)
    ruleset = StrictChoiceField(
        choices=list(yatzy.RULESETS),
        required=False,
        help_text="The ruleset of your next new game (not of a running one).",
    )
    options = OptionsField(
        required=False,
        help_text=(
            "Options of that ruleset for your next new game; checked by the engine. "
            "Changing `ruleset` alone resets them."
        ),
    )

    date_joined = serializers.DateTimeField(read_only=True)
    languages = serializers.SerializerMethodField(help_text="The languages `language` takes.")

    @extend_schema_field(LanguageChoiceSerializer(many=True))
    def get_languages(self, user: User) -> list[dict[str, str]]:
        return [{"code": code, "name": name} for code, name in settings.LANGUAGES]

    def to_representation(self, instance: User) -> dict[str, Any]:
        # The profile is read on every start of the terminal client and the pages'
        # API calls: built here without DRF's copies of every declared field for each
        # instance (a quarter of GET accounts/me/'s CPU, docs/benchmarks.md). The fields
        # above still validate and describe it; tests/accounts/test_me.py checks this
        # against DRF's own rendering of them.
        return {
            "id": instance.pk,
            "username": instance.username,
            "display_name": instance.display_name,
            "language": instance.language,
            "time_zone": instance.time_zone,
            "ruleset": instance.ruleset,
            "options": {str(key): value for key, value in instance.options.items()},
            "date_joined": serializers.DateTimeField().to_representation(instance.date_joined),
            "languages": self.get_languages(instance),
        }


class RegisteredSerializer(MeSerializer):
    token = serializers.CharField()

    def to_representation(self, instance: User) -> dict[str, Any]:
        return serializers.Serializer.to_representation(self, instance)
