"""Where each solver state lives in the flat value array.

A state is a *mask* (bit c set: box c is filled; with ``Rules.has_flag`` one more bit,
"the yatzy box holds its full score") and the upper total.  Only the upper total's
effect on the bonus matters, so it is stored per mask as a *column*: totals are capped
at the threshold, and all totals too low to reach the bonus with the open upper boxes
collapse into one.  Which totals occur depends only on the six upper bits, so the
column tables have 64 rows; unreachable totals (e.g. 1 with only "twos" filled) get no
column.  For Maxi this keeps 33.5 M of the 2^20 x 85 states.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from yatzy.strategy._multisets import FACES, IntArray
from yatzy.strategy._rules import Rules

UPPER_MASKS = 1 << FACES


@dataclass(frozen=True)
class Layout:
    """Offsets and column maps of one ruleset's value array.

    ``offsets[mask]``: index of the mask's first column (-1: mask never occurs);
    ``ncols[um]``, ``colval[um, j]``: how many columns an upper mask has and the upper
    total of column j; ``colmap[um, u]``: the column of capped total u (-1: unreachable);
    ``layers[k]``: the masks with k boxes filled.
    """

    offsets: IntArray
    ncols: IntArray
    colval: IntArray
    colmap: IntArray
    layers: tuple[IntArray, ...]
    size: int

    @classmethod
    def of(cls, rules: Rules) -> Layout:
        """The layout of ``rules`` (computed once per ruleset and options)."""
        if rules.key not in _CACHE:
            _CACHE[rules.key] = cls.build(rules)
        return _CACHE[rules.key]

    @classmethod
    def build(cls, rules: Rules) -> Layout:
        """Lay out the states of ``rules``; deterministic, so files store no layout."""
        n, t = rules.ms.n, rules.threshold
        ncols = np.zeros(UPPER_MASKS, dtype=np.int64)
        colval = np.full((UPPER_MASKS, t + 1), -1, dtype=np.int64)
        colmap = np.full((UPPER_MASKS, t + 1), -1, dtype=np.int64)
        for um in range(UPPER_MASKS):
            sums = {0}
            for f in range(1, FACES + 1):
                if um >> (f - 1) & 1:
                    sums = {min(s + c * f, t) for s in sums for c in range(n + 1)}
            still = sum(n * f for f in range(1, FACES + 1) if not um >> (f - 1) & 1)
            low = max(0, t - still - 1)
            values = sorted({max(s, low) for s in sums})
            ncols[um] = len(values)
            colval[um, : len(values)] = values
            for j, v in enumerate(values):
                colmap[um, v] = j
            if values[0] == low:
                colmap[um, :low] = 0

        nb = rules.n_boxes
        box_bits = (1 << nb) - 1
        if rules.forced_order:
            boxes = np.array([(1 << k) - 1 for k in range(nb + 1)], dtype=np.int64)
        else:
            boxes = np.arange(1 << nb, dtype=np.int64)
        if rules.has_flag:
            with_flag = boxes[(boxes >> rules.yatzy_box) & 1 == 1] | (1 << nb)
            masks = np.sort(np.concatenate([boxes, with_flag]))
        else:
            masks = boxes
        counts = ncols[masks & (UPPER_MASKS - 1)]
        offsets = np.full(1 << (nb + rules.has_flag), -1, dtype=np.int64)
        offsets[masks] = np.concatenate([[0], np.cumsum(counts)[:-1]])
        filled = _popcount(masks & box_bits)
        layers = tuple(masks[filled == k] for k in range(nb + 1))
        return cls(offsets, ncols, colval, colmap, layers, int(counts.sum()))

    def index(self, mask: int, upper_total: int, threshold: int) -> int:
        """Flat index of a state; ``upper_total`` need not be capped.

        Raises ``KeyError`` for a state that cannot occur.
        """
        um = mask & (UPPER_MASKS - 1)
        col = int(self.colmap[um, min(upper_total, threshold)])
        base = int(self.offsets[mask])
        if col < 0 or base < 0:
            raise KeyError((mask, upper_total))
        return base + col


_CACHE: dict[str, Layout] = {}


def _popcount(x: IntArray) -> IntArray:
    count = np.zeros_like(x)
    while np.any(x):
        count += x & 1
        x = x >> 1
    return count
