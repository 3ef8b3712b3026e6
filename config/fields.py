"""Strictly typed serializer fields for request bodies: JSON types are not coerced
(``"1"`` is not a number, ``1`` is not a string, ``"true"`` is not a boolean), and a
list's length is checked before any of its elements, so a huge list costs nothing."""

from __future__ import annotations

from typing import Any

from django.utils.translation import ngettext
from rest_framework import serializers


class StrictIntegerField(serializers.IntegerField):
    def to_internal_value(self, data: Any) -> int:
        if type(data) is not int:
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
            self.fail("invalid_choice", input=type(data).__name__)
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
