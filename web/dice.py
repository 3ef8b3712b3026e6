"""How a die face is drawn: where its pips sit on a 60 by 60 die (presentation only;
which faces are rolled is the engine's ``yatzy.dice``)."""

from __future__ import annotations

import functools

from django.utils.safestring import SafeString, mark_safe

_L, _M, _H = 16, 30, 44
PIPS: dict[int, tuple[tuple[int, int], ...]] = {
    1: ((_M, _M),),
    2: ((_L, _L), (_H, _H)),
    3: ((_L, _L), (_M, _M), (_H, _H)),
    4: ((_L, _L), (_H, _L), (_L, _H), (_H, _H)),
    5: ((_L, _L), (_H, _L), (_M, _M), (_L, _H), (_H, _H)),
    6: ((_L, _L), (_H, _L), (_L, _M), (_H, _M), (_L, _H), (_H, _H)),
}


def pips(face: int) -> tuple[tuple[int, int], ...]:
    """The pip centres of ``face``.

    >>> len(pips(5)), pips(1)
    (5, ((30, 30),))
    """
    return PIPS[face]


@functools.cache
def die_svg(face: int) -> SafeString:
    """The inline SVG of a die showing ``face`` (its colours come from the page's theme
    in the stylesheet). Built once per face: a page of dice renders no template per die.

    >>> die_svg(2).count("<circle")
    2
    """
    circles = "".join(f'<circle class="pip" cx="{x}" cy="{y}" r="6"/>' for x, y in PIPS[face])
    # Fixed markup and numbers only: nothing from a request goes into it.
    return mark_safe(
        '<svg class="die-face" viewBox="0 0 60 60" aria-hidden="true" focusable="false">'
        '<rect class="die-body" x="2" y="2" width="56" height="56" rx="10"/>'
        f"{circles}</svg>"
    )
