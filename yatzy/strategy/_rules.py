"""The rules of a ruleset as the arrays the solver needs.

Scoring lives in the engine: every points value here comes from ``rs.score``.  This
module only tabulates it over all outcomes and reads the few facts the state space
depends on (upper bonus, the yatzy box, extra-yatzy bonus, joker, forced order).
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from typing import Any, Protocol

import numpy as np

from yatzy.strategy._multisets import FACES, IntArray, Multisets, multisets

UPPER_BOXES = ("ones", "twos", "threes", "fours", "fives", "sixes")


class RulesetLike(Protocol):
    """The part of the engine's ruleset the solver reads (SPEC §9)."""

    @property
    def name(self) -> str: ...
    @property
    def dice_count(self) -> int: ...
    @property
    def categories(self) -> tuple[str, ...]: ...
    @property
    def options(self) -> Any: ...
    @property
    def yatzy_category(self) -> str: ...
    def score(self, category: str, dice: tuple[int, ...], /) -> int: ...


class UnsupportedRules(ValueError):
    """The solver has no exact model for this ruleset's options (e.g. saved rolls)."""

    code = "unsupported_rules"


@dataclass(frozen=True, eq=False)
class Rules:
    """A ruleset flattened into arrays.

    ``scores[c, o]``: points of outcome o in box c; ``yatzy_face[o]``: the face index
    (0-5) if all dice of outcome o are equal, else -1; ``joker[c, f]``: points of lower box
    c for a joker of face f+1 (only used when ``has_joker``); ``upper_face[c]``: the face
    box c counts (0 for lower boxes).  ``extra_points`` is the bonus for each further
    yatzy while the yatzy box holds its full score; when it is non-zero the state
    carries one more bit, "the yatzy box holds its full score".
    """

    name: str
    options: dict[str, Any]
    categories: tuple[str, ...]
    ms: Multisets
    scores: IntArray
    yatzy_face: IntArray
    joker: IntArray
    upper_face: IntArray
    threshold: int
    bonus: int
    yatzy_box: int
    extra_points: int
    has_joker: bool
    forced_order: bool

    @property
    def n_boxes(self) -> int:
        """Number of boxes on the scorecard."""
        return len(self.categories)

    @property
    def has_flag(self) -> bool:
        """Whether the state needs the "yatzy box holds its full score" bit."""
        return self.extra_points > 0

    @property
    def key(self) -> str:
        """A stable identity for table files: ruleset name and options, canonical JSON."""
        return json.dumps({"ruleset": self.name, "options": self.options}, sort_keys=True)


def rules_of(rs: RulesetLike) -> Rules:
    """Tabulate ``rs`` for the solver.

    >>> import yatzy
    >>> r = rules_of(yatzy.get_ruleset("yatzy"))
    >>> r.n_boxes, r.threshold, r.bonus, r.scores.shape
    (15, 63, 50, (15, 252))
    """
    options = dict(rs.options)
    key = json.dumps({"ruleset": rs.name, "options": options}, sort_keys=True)
    if key not in _CACHE:
        _CACHE[key] = _tabulate(rs, options)
    return _CACHE[key]


#: Tabulating calls ``rs.score`` some 10^4 times; rulesets are immutable, so once per
#: name and options is enough.
_CACHE: dict[str, Rules] = {}


def _tabulate(rs: RulesetLike, options: dict[str, Any]) -> Rules:
    if options.get("saved_rolls"):
        raise UnsupportedRules("saved rolls carry rolls between turns; no exact table for them")
    categories = tuple(rs.categories)
    if categories[:FACES] != UPPER_BOXES:
        raise UnsupportedRules(f"expected the upper boxes first, got {categories[:FACES]}")
    ms = multisets(rs.dice_count)
    outcomes = [ms.faces(k) for k in range(ms.first_outcome, ms.n_keeps)]
    scores = np.array([[rs.score(c, d) for d in outcomes] for c in categories], dtype=np.int64)
    has_joker = rs.name == "yahtzee"
    joker = np.zeros((len(categories), FACES), dtype=np.int64)
    if has_joker:
        for c, row in enumerate(scores):
            if c >= FACES:
                # Fixed-value boxes (full house, straights) score their full value under
                # the joker rule; the others score the dice as usual.
                fixed = len(set(row[row > 0].tolist())) == 1
                for f in range(FACES):
                    dice = (f + 1,) * rs.dice_count
                    joker[c, f] = int(row.max()) if fixed else rs.score(categories[c], dice)
    threshold, bonus = _upper_bonus(options, rs.dice_count)
    # Yahtzee's 100 per further yahtzee is a rule, the Scandinavian one an option.
    extra = getattr(rs, "extra_yahtzee_points", None) or options.get("extra_yatzy_bonus") or 0
    return Rules(
        name=rs.name,
        options=options,
        categories=categories,
        ms=ms,
        scores=scores,
        yatzy_face=np.array(
            [d[0] - 1 if len(set(d)) == 1 else -1 for d in outcomes], dtype=np.int64
        ),
        joker=joker,
        upper_face=np.array(
            [i + 1 if i < FACES else 0 for i in range(len(categories))], dtype=np.int64
        ),
        threshold=threshold,
        bonus=bonus,
        yatzy_box=categories.index(rs.yatzy_category),
        extra_points=int(extra),
        has_joker=has_joker,
        forced_order=bool(options.get("forced_order")),
    )


def _upper_bonus(options: dict[str, Any], dice_count: int) -> tuple[int, int]:
    """The bonus threshold and points. A threshold above the most the upper boxes can
    total (every die on its face in each: 21 per die) is never reached, whatever it is:
    it is capped one above that, which keeps the state layout small."""
    threshold, points = options["upper_bonus"]
    return min(int(threshold), 21 * dice_count + 1), int(points)
