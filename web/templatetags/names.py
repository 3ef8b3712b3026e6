"""Template filter for player-chosen names: ``{{ row.display_name|name }}`` writes the
name in its own ``<bdi>``, so a name in Arabic or Hebrew keeps its direction to itself
and the rank, score or other name beside it keep their order (SPEC §10). Every place a
page shows a display name, username or seat name goes through it; ``<title>`` (text
only) is the exception. A list (a party's winners) gives a list of isolated names."""

from __future__ import annotations

from typing import Any

from django import template
from django.utils.html import format_html
from django.utils.safestring import SafeString

register = template.Library()


def isolated(value: Any) -> SafeString:
    """``value`` escaped inside ``<bdi>``.

    >>> str(isolated("لاعب")), str(isolated("<b>&")) == "<bdi>&lt;b&gt;&amp;</bdi>"
    ('<bdi>لاعب</bdi>', True)
    """
    return format_html("<bdi>{}</bdi>", value)


@register.filter
def name(value: Any) -> SafeString | list[SafeString]:
    """``value`` isolated (see the module); each item of a list isolated."""
    if isinstance(value, (list, tuple)):
        return [isolated(item) for item in value]
    return isolated(value)
