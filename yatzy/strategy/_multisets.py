"""Dice multisets and the transitions between them.

The solver never looks at dice positions: a roll is a multiset of faces, stored as a
count vector, and every multiset of 0..n dice is one *keep*.  Keeps are numbered by
size (all keeps of 0 dice, then of 1 die, ...) so that one pass upwards or downwards
over the index visits smaller keeps before (or after) larger ones; the outcomes of a
full roll are the keeps of size n, the last block of the numbering.

>>> ms = multisets(5)
>>> ms.n_keeps, ms.n_outcomes
(462, 252)
>>> ms.counts[ms.index_of((6, 6, 1))].tolist()
[1, 0, 0, 0, 0, 2]
"""

from __future__ import annotations

import functools
import itertools
import math
from collections.abc import Iterable
from dataclasses import dataclass

import numpy as np
import numpy.typing as npt

FACES = 6

IntArray = npt.NDArray[np.int64]
FloatArray = npt.NDArray[np.float64]


@dataclass(frozen=True)
class Multisets:
    """All multisets of 0..n dice with the tables the turn recursion walks.

    ``counts[k]`` is keep k's count vector (index 0 = face 1); ``add[k, f]`` the keep
    with one more die showing face f+1 (-1 if k already has n dice); ``sub[k, f]`` the
    keep with one die of face f+1 removed (-1 if k has none); ``first_outcome`` the index
    of the first keep of size n; ``p_roll[o]`` the probability that rolling all n dice
    gives outcome o.
    """

    n: int
    counts: IntArray
    sizes: IntArray
    add: IntArray
    sub: IntArray
    first_outcome: int
    p_roll: FloatArray

    @classmethod
    def build(cls, n: int) -> Multisets:
        """Enumerate the keeps of an n-dice game."""
        vectors: list[tuple[int, ...]] = []
        for size in range(n + 1):
            for combo in itertools.combinations_with_replacement(range(FACES), size):
                vectors.append(tuple(combo.count(f) for f in range(FACES)))
        index = {v: i for i, v in enumerate(vectors)}
        counts = np.array(vectors, dtype=np.int64)
        add = np.full((len(vectors), FACES), -1, dtype=np.int64)
        sub = np.full((len(vectors), FACES), -1, dtype=np.int64)
        for i, v in enumerate(vectors):
            for f in range(FACES):
                if sum(v) < n:
                    add[i, f] = index[(*v[:f], v[f] + 1, *v[f + 1 :])]
                if v[f] > 0:
                    sub[i, f] = index[(*v[:f], v[f] - 1, *v[f + 1 :])]
        first_outcome = len(vectors) - math.comb(n + FACES - 1, FACES - 1)
        p_roll = np.array(
            [_multinomial(v) / FACES**n for v in vectors[first_outcome:]], dtype=np.float64
        )
        return cls(n, counts, counts.sum(axis=1), add, sub, first_outcome, p_roll)

    @property
    def n_keeps(self) -> int:
        """Number of multisets of 0..n dice."""
        return len(self.counts)

    @property
    def n_outcomes(self) -> int:
        """Number of multisets of exactly n dice."""
        return len(self.counts) - self.first_outcome

    def index_of(self, dice: Iterable[int]) -> int:
        """Keep index of a multiset of faces (1..6), in any order."""
        k = 0
        for face in dice:
            k = int(self.add[k, face - 1])
        return k

    def faces(self, k: int) -> tuple[int, ...]:
        """The faces of keep k in ascending order."""
        return tuple(f + 1 for f in range(FACES) for _ in range(int(self.counts[k, f])))


def _multinomial(counts: tuple[int, ...]) -> int:
    result = math.factorial(sum(counts))
    for c in counts:
        result //= math.factorial(c)
    return result


@functools.cache
def multisets(n: int) -> Multisets:
    """The keeps of an n-dice game, built once per process."""
    return Multisets.build(n)


@functools.cache
def sub_keeps(n: int, k: int) -> tuple[int, ...]:
    """Every keep inside keep k of an n-dice game, k itself included: what may be held to
    roll again (holding every die is a legal roll, if never a better one).

    >>> ms = multisets(5)
    >>> sorted(ms.faces(s) for s in sub_keeps(5, ms.index_of((2, 2))))
    [(), (2,), (2, 2)]
    """
    ms = multisets(n)
    counts = ms.counts[k].tolist()
    return tuple(
        ms.index_of(f + 1 for f in range(FACES) for _ in range(sub[f]))
        for sub in itertools.product(*(range(c + 1) for c in counts))
    )
