"""Strictly typed serializer fields for request bodies: JSON types are not coerced
(``"1"`` is not a number, ``1`` is not a string, ``"true"`` is not a boolean), and a
list's length is checked before any of its elements, so a huge list costs nothing."""

from __future__ import annotations

import copy
import json
from collections.abc import Mapping
from typing import Any

from django.utils.translation import gettext, ngettext
from rest_framework import serializers
from rest_framework.utils.formatting import lazy_format


class StrictIntegerField(serializers.IntegerField):
    def to_internal_value(self, data: Any) -> int:
        if type(data) is not int:
            self.fail("invalid")
        return super().to_internal_value(data)


def written_as_integer(text: object) -> bool:
    """Whether ``text`` is an integer as a query string or a form writes one: ASCII
    digits, a minus sign at most. DRF's and Django's integer fields also read ``1.0``,
    `` 1``, ``+1``, ``1_0`` and other scripts' digits (``٣``) as numbers.

    >>> [written_as_integer(t) for t in ("12", "-3", "1.0", " 1", "+1", "1_0", "\u0663", "")]
    [True, True, False, False, False, False, False, False]
    """
    if not isinstance(text, str):
        return False
    digits = text[1:] if text.startswith("-") else text
    return digits.isascii() and digits.isdigit()


class QueryIntegerField(serializers.IntegerField):
    """An integer from a query string, written as one (:func:`written_as_integer`), so
    ``?page=1.0`` is the 400 the docs promise, not page 1."""

    def to_internal_value(self, data: Any) -> int:
        if not written_as_integer(data):
            self.fail("invalid")
        return super().to_internal_value(data)


class StrictCharField(serializers.CharField):
    def to_internal_value(self, data: Any) -> str:
        if not isinstance(data, str):
            self.fail("invalid")
        return super().to_internal_value(data)


class StrictChoiceField(serializers.ChoiceField):
    def to_internal_value(self, data: Any) -> Any:
        if not isinstance(data, str):
            # The value as it was sent when it is a number or a boolean (null is DRF's
            # own refusal), else its JSON type: never a whole array or object.
            if isinstance(data, (bool, int, float)):
                shown = json.dumps(data)[:20]
            else:
                shown = "array" if isinstance(data, list) else "object"
            self.fail("invalid_choice", input=shown)
        return super().to_internal_value(data)


class StrictBooleanField(serializers.BooleanField):
    def to_internal_value(self, data: Any) -> bool:
        if not isinstance(data, bool):
            self.fail("invalid")
        return data


class BoundedListField(serializers.ListField):
    """A JSON array whose length is checked first (``max_length`` is required)."""

    def __init__(self, **kwargs: Any) -> None:
        if kwargs.get("max_length") is None:
            raise TypeError("BoundedListField needs max_length")
        super().__init__(**kwargs)

    def to_internal_value(self, data: Any) -> list[Any]:
        if not isinstance(data, list):
            self.fail("not_a_list", input_type=type(data).__name__)
        if self.max_length is not None and len(data) > self.max_length:
            self.fail("max_length", max_length=self.max_length)
        return super().to_internal_value(data)


class OptionsField(serializers.DictField):
    """A JSON object of ruleset options, at most ``max_keys`` of them; their values are
    checked by the engine (``yatzy.get_ruleset``), which answers with its own codes."""

    def __init__(self, *, max_keys: int = 10, **kwargs: Any) -> None:
        self.max_keys = max_keys
        kwargs.setdefault("child", serializers.JSONField())
        super().__init__(**kwargs)

    def to_internal_value(self, data: Any) -> dict[str, Any]:
        if not isinstance(data, dict):
            self.fail("not_a_dict", input_type=type(data).__name__)
        if len(data) > self.max_keys:
            raise serializers.ValidationError(
                ngettext("At most %(count)d option.", "At most %(count)d options.", self.max_keys)
                % {"count": self.max_keys}
            )
        return dict(data)


class ClosedBodySerializer(serializers.Serializer[Any]):
    # A command body whose every key is one of its fields. DRF drops the others, so a
    # misspelled field would run the command without it (``holds`` for ``hold``: every
    # die rolled again); here it is a 400 naming the field, and nothing runs. (No
    # docstring: the schema would describe every body without one of its own by it.)

    def to_internal_value(self, data: Any) -> Any:
        if isinstance(data, Mapping):
            unknown = [key for key in data if key not in self.fields]
            if unknown:
                # Named as sent, a long name cut short: the answer stays small.
                raise serializers.ValidationError(
                    {_shown(key): [gettext("Unknown field.")] for key in unknown}
                )
        return super().to_internal_value(data)


def _shown(name: str, limit: int = 40) -> str:
    return name if len(name) <= limit else name[: limit - 1] + "…"


class FlatBodySerializer(ClosedBodySerializer):
    """A request body of scalar fields and lists of scalars (the play actions': one per
    request at the service's highest rate). DRF deep-copies a serializer's declared
    fields for each instance, calling every field's ``__init__`` again (its validators
    and their messages included), a third of a roll's body parsing. Such fields keep no
    state of their own while they validate: each instance gets a shallow copy, bound to
    it as DRF binds its deep copies. A list's child stays the declared one, unbound to
    the instance; nothing here reads a child's context. Fields that nest a serializer
    (whose context the copy would lose) do not belong here."""

    def __init_subclass__(cls, **kwargs: Any) -> None:
        super().__init_subclass__(**kwargs)
        for field in cls._declared_fields.values():
            for shared in (field, getattr(field, "child", None)):
                for validator in getattr(shared, "validators", ()):
                    if isinstance(getattr(validator, "message", None), lazy_format):
                        validator.message = _FormattedEachTime(validator.message)

    def get_fields(self) -> dict[str, serializers.Field[Any, Any, Any, Any]]:
        return {name: copy.copy(field) for name, field in self._declared_fields.items()}


class _FormattedEachTime:
    """A validator's message formatted each time it is shown. DRF's ``lazy_format``
    keeps its first result, right for a field used once, wrong for one shared by every
    request: the first request's language would answer all the later ones."""

    def __init__(self, message: lazy_format) -> None:
        self.format_string, self.kwargs = message.format_string, message.kwargs
        if message.args or self.format_string is None:
            raise TypeError("a message already formatted, or with positional arguments")

    def __str__(self) -> str:
        return str(self.format_string).format(**self.kwargs)

    def __mod__(self, value: Any) -> str:
        formatted: str = str(self) % value
        return formatted
