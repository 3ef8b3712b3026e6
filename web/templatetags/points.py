"""Template filters for expected points: ``{{ luck|signed }}`` writes a number of points
with two decimals in the page's language and its sign always shown (``+12.30``,
``-4.05`` with the minus sign U+2212; ``+0.00`` for what rounds to nothing)."""

from __future__ import annotations

from decimal import ROUND_HALF_UP, Decimal

from django import template
from django.utils import formats

register = template.Library()


@register.filter
def signed(value: float | None) -> str:
    """``value`` with its sign, to the hundredth; empty for ``None``.

    >>> signed(12.3), signed(-4.049) == "\N{MINUS SIGN}4.05", signed(-0.004), signed(None)
    ('+12.30', True, '+0.00', '')
    >>> signed(0.125), signed(2.675), signed(-1.005) == "\N{MINUS SIGN}1.01"
    ('+0.13', '+2.68', True)
    """
    if value is None:
        return ""
    # Half up, as the decisions board and ``floatformat`` round a loss (0.125 is +0.13).
    hundredths = Decimal(repr(value)).quantize(Decimal("0.01"), rounding=ROUND_HALF_UP)
    sign = "\N{MINUS SIGN}" if hundredths < 0 else "+"
    return sign + formats.number_format(abs(hundredths), 2)
