"""How a die face is drawn: where its pips sit on a 60 by 60 die (presentation only;
which faces are rolled is the engine's ``yatzy.dice``)."""

from __future__ import annotations

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
