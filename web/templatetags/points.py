"""Template filters for expected points: ``{{ luck|signed }}`` writes a number of points
with two decimals in the page's language and its sign always shown (``+12.30``,
``-4.05`` with the minus sign U+2212; ``+0.00`` for what rounds to nothing)."""

from __future__ import annotations

from django import template
from django.utils import formats

register = template.Library()


@register.filter
def signed(value: float | None) -> str:
    """``value`` with its sign, to the hundredth; empty for ``None``.

    >>> signed(12.3), signed(-4.049) == "\N{MINUS SIGN}4.05", signed(-0.004), signed(None)
    ('+12.30', True, '+0.00', '')
    """
    if value is None:
        return ""
    hundredths = round(value, 2)
    sign = "\N{MINUS SIGN}" if hundredths < 0 else "+"
    return sign + formats.number_format(abs(hundredths), 2)
