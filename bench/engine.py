"""Engine speed beside naive baselines measured in the same run.

    python -m bench.engine

Figures (median of many repetitions, time.perf_counter_ns):

- all 20 Maxi boxes of one roll: ``Ruleset.scores`` (one lookup in the table of the 462
  sorted rolls) against straightforward Counter-based scoring functions;
- one full random Maxi game: ``Game`` against the same Game scoring through those naive
  functions instead of the table;
- restoring a finished Maxi game: ``Game.from_snapshot`` against ``Game.replay``.
"""

import dataclasses
import itertools
import random
import statistics
import time
from collections import Counter
from collections.abc import Callable, Sequence
from typing import TypeVar

from bench.machine import describe
from yatzy import Game, get_ruleset
from yatzy.rules import Category, Dice, MaxiRuleset

T = TypeVar("T")
TARGETS_NS = {"scores": 5_000, "game": 1_000_000}


def naive_maxi_scores(dice: Sequence[int]) -> dict[str, int]:
    """Every Maxi box scored from scratch, the obvious way."""
    counts = Counter(dice)

    def of_a_kind(n: int) -> int:
        return max((n * face for face, count in counts.items() if count >= n), default=0)

    def pairs(k: int) -> int:
        faces = sorted((face for face, count in counts.items() if count >= 2), reverse=True)
        return 2 * sum(faces[:k]) if len(faces) >= k else 0

    def set_and_set(big: int, small: int) -> int:
        return max(
            (
                big * a + small * b
                for a in counts
                for b in counts
                if a != b and counts[a] >= big and counts[b] >= small
            ),
            default=0,
        )

    faces = set(dice)
    upper = MaxiRuleset.categories[:6]
    scores: dict[str, int] = {name: face * counts[face] for face, name in enumerate(upper, 1)}
    return {
        **scores,
        "one_pair": of_a_kind(2),
        "two_pairs": pairs(2),
        "three_pairs": pairs(3),
        "three_of_a_kind": of_a_kind(3),
        "four_of_a_kind": of_a_kind(4),
        "five_of_a_kind": of_a_kind(5),
        "small_straight": 15 if {1, 2, 3, 4, 5} <= faces else 0,
        "large_straight": 20 if {2, 3, 4, 5, 6} <= faces else 0,
        "full_straight": 21 if len(faces) == 6 else 0,
        "full_house": set_and_set(3, 2),
        "villa": set_and_set(3, 3),
        "tower": set_and_set(4, 2),
        "chance": sum(dice),
        "maxi_yatzy": 100 if len(faces) == 1 else 0,
    }


@dataclasses.dataclass(frozen=True)
class NaiveMaxiRuleset(MaxiRuleset):
    """Maxi scoring every box from scratch on each call instead of reading the table."""

    def _points(self, key: Dice, card: Sequence[int | None]) -> tuple[int, ...]:
        scores = naive_maxi_scores(key)
        return tuple(scores[category] for category in self.categories)


def play_random_game(game: Game, rnd: random.Random) -> Game:
    """Random but legal play: up to three rolls with random holds, then a random open box."""
    while not game.is_over:
        game.roll()
        while game.rolls_left and rnd.random() < 0.7:
            game.roll([position for position in range(6) if rnd.random() < 0.5])
        boxes: list[Category] = list(game.options())
        game.score(rnd.choice(boxes))
    return game


def median_ns(run: Callable[[], object], calls: int, samples: int) -> float:
    """Median over ``samples`` of the mean time of ``calls`` consecutive calls."""
    timings = []
    for _ in range(samples):
        start = time.perf_counter_ns()
        for _ in range(calls):
            run()
        timings.append((time.perf_counter_ns() - start) / calls)
    return statistics.median(timings)


def cycle(items: Sequence[T]) -> Callable[[], T]:
    """A function handing out ``items`` in turn, so each call works on fresh input."""
    endless = itertools.cycle(items)
    return lambda: next(endless)


def main() -> None:
    rnd = random.Random(2026)
    maxi = get_ruleset("maxi")
    naive_maxi = NaiveMaxiRuleset()

    rolls = [tuple(rnd.randint(1, 6) for _ in range(6)) for _ in range(1000)]
    for dice in rolls:  # the baseline must be right to be a baseline
        assert naive_maxi_scores(dice) == maxi.scores(dice), dice
    next_roll = cycle(rolls)
    scores = median_ns(lambda: maxi.scores(next_roll()), calls=1000, samples=200)
    scores_naive = median_ns(lambda: naive_maxi_scores(next_roll()), calls=1000, samples=200)

    seeds = [rnd.randbytes(32) for _ in range(50)]
    next_seed = cycle(seeds)
    game = median_ns(
        lambda: play_random_game(Game(maxi, next_seed()), random.Random(1)), calls=10, samples=60
    )
    game_naive = median_ns(
        lambda: play_random_game(Game(naive_maxi, next_seed()), random.Random(1)),
        calls=10,
        samples=60,
    )

    finished = play_random_game(Game(maxi, seeds[0]), random.Random(1))
    snapshot, actions = finished.snapshot(), finished.actions
    restore = median_ns(lambda: Game.from_snapshot(snapshot), calls=100, samples=60)
    replay = median_ns(lambda: Game.replay(maxi, seeds[0], actions), calls=100, samples=60)

    print(f"machine: {describe()}")
    print(f"{'figure':<38}{'engine':>12}{'baseline':>12}{'ratio':>8}  target")
    for label, key, engine_ns, baseline_ns in [
        ("all 20 Maxi boxes, one roll", "scores", scores, scores_naive),
        ("one random Maxi game", "game", game, game_naive),
        ("restore finished game (vs replay)", None, restore, replay),
    ]:
        target = TARGETS_NS.get(key or "")
        verdict = "" if target is None else f"<= {target / 1000:g} us: "
        verdict += "" if target is None else ("ok" if engine_ns <= target else "MISSED")
        print(
            f"{label:<38}{engine_ns / 1000:>9.2f} us{baseline_ns / 1000:>9.2f} us"
            f"{baseline_ns / engine_ns:>7.1f}x  {verdict}"
        )


if __name__ == "__main__":
    main()
