"""The admin's lists filter only as their own filters do.

Django lets a list's query string filter on any field of its model (``?seed__startswith=6``
on the challenges, ``?snapshot__seed__startswith=6`` on the rounds), whatever the list
shows: a hidden seed could be read a character at a time before its reveal, and other
lookups are database errors (``__regex=(``, ``__contains`` on JSON under SQLite), 500s.
Here a lookup is allowed only where it follows a path of the list's filters with the
lookups those filters write; any other is Django's 400 (``DisallowedModelAdminLookup``).
A list with a date hierarchy would need its year/month/day lookups added (and checked:
``?date__year=0`` is a 500).

A NUL character in a filter or an object's address (``?status__exact=%00``,
``/admin/knox/authtoken/%00/change/``) never gets here: ``config.nul_guard`` answers 400.
"""

from __future__ import annotations

from typing import Any

from django.contrib import admin
from django.db.models.constants import LOOKUP_SEP
from django.http import HttpRequest

# What Django's field list filters put after a filter's path. No list has a date
# hierarchy (its links for a year near 9999 compute a date past the last one), so the
# year/month/day lookups it writes are none of a list's: a year out of range
# (?date__year=0) was a 500.
_FILTER_LOOKUPS = frozenset(
    {
        "id",
        "pk",
        "exact",
        "isnull",
        "isempty",
        "in",
        "gte",
        "gt",
        "lte",
        "lt",
    }
)


class ListFilterLookupsOnly(admin.ModelAdmin):  # type: ignore[type-arg]
    def lookup_allowed(self, lookup: str, value: Any, request: HttpRequest) -> bool:
        paths: list[str] = []
        for item in self.get_list_filter(request):
            if isinstance(item, str):
                paths.append(item)
            elif isinstance(item, tuple | list) and isinstance(item[0], str):
                paths.append(item[0])
            elif lookup == getattr(item, "parameter_name", None):
                return True  # a SimpleListFilter's own parameter: it filters in code
        parts = lookup.split(LOOKUP_SEP)
        for path in paths:
            head = path.split(LOOKUP_SEP)
            if parts[: len(head)] == head and _FILTER_LOOKUPS.issuperset(parts[len(head) :]):
                return super().lookup_allowed(lookup, value, request)
        return False
