"""Strategy benchmark: solver, best-move latency and bot strength, with baselines.

    python -m bench.strategy                     # Yatzy solve, kernel vs numpy, queries
    python -m bench.strategy --maxi              # also solve Maxi (about 4-10 minutes)
    python -m bench.strategy --games 10000       # bot means per level and ruleset

1. Solve: ``python -m yatzy.strategy solve`` in a child process on a scratch directory,
   wall time and the child's peak RSS, table file size and value.
2. Hot loop: the two-roll recursion of one turn (keep values, best sub-keep, twice) for
   the states of one Yatzy layer, by the numba kernels (one die at a time, in place)
   beside a pure-numpy reference (dense keep-to-outcome transition matrix and padded
   sub-keep max) on the same input; the outputs must agree.
3. Best move: ``best_move`` on random positions with the table loaded, p50/p95.
4. Bots (``--games``): mean score and standard error per level and ruleset over the
   same seeds, played through ``yatzy.Game``; expert beside the table's value.
"""

from __future__ import annotations

import argparse
import hashlib
import math
import os
import random
import resource
import statistics
import subprocess
import sys
import tempfile
import time
from concurrent.futures import ProcessPoolExecutor
from pathlib import Path

import numpy as np

import yatzy
from bench.machine import describe
from yatzy.strategy import LEVELS, TableMissing, _kernel, best_move, bot_play, load_table
from yatzy.strategy._multisets import multisets, sub_keeps


def bench_solve(name: str, directory: Path) -> None:
    before = resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss
    started = time.perf_counter()
    subprocess.run(
        [sys.executable, "-m", "yatzy.strategy", "solve", name, "--dir", str(directory)],
        check=True,
        stderr=subprocess.DEVNULL,
    )
    elapsed = time.perf_counter() - started
    peak = max(before, resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss) / 1024
    table = load_table(yatzy.get_ruleset(name), directory=directory)
    size = table.path.stat().st_size / 1e6
    print(
        f"solve {name:8} {elapsed:7.1f} s  peak RSS {peak:6.0f} MB  file {size:6.1f} MB  "
        f"value {table.start_value:.7f}"
    )


def _numpy_turns(v3: np.ndarray, n: int) -> tuple[np.ndarray, float]:
    """Reference: the same recursion with a dense transition matrix, all in numpy."""
    ms = multisets(n)
    fo = ms.first_outcome
    outcomes = ms.counts[fo:]
    trans = np.zeros((ms.n_keeps, ms.n_outcomes))
    for k in range(ms.n_keeps):
        rest = outcomes - ms.counts[k]
        ok = np.all(rest >= 0, axis=1)
        free = n - int(ms.sizes[k])
        for o in np.flatnonzero(ok):
            ways = math.factorial(free)
            for c in rest[o]:
                ways //= math.factorial(int(c))
            trans[k, o] = ways / 6**free
    subs = [[*sub_keeps(n, fo + o), fo + o] for o in range(ms.n_outcomes)]
    width = max(map(len, subs))
    padded = np.array([s + [s[-1]] * (width - len(s)) for s in subs])
    started = time.perf_counter()
    v = v3
    for _ in range(2):
        e = np.einsum("ko,bo->bk", trans, v)  # batch of states x keeps
        v = e[:, padded].max(axis=2)
    return v, time.perf_counter() - started


def bench_kernel(states: int = 6435) -> None:
    """The recursion is the same whatever the outcome values are: use random ones."""
    ms = multisets(5)
    v3 = np.random.default_rng(0).uniform(0, 250, (states, ms.n_outcomes))
    a = np.zeros((ms.n_keeps, states))
    a[ms.first_outcome :] = v3.T
    _kernel.expect(a[:, :1].copy(), ms.add, ms.first_outcome)  # compile outside the timing
    _kernel.best_subkeep(a[:, :1].copy(), ms.sub)
    started = time.perf_counter()
    for _ in range(2):
        _kernel.expect(a, ms.add, ms.first_outcome)
        _kernel.best_subkeep(a, ms.sub)
    numba_s = time.perf_counter() - started
    reference, numpy_s = _numpy_turns(v3, ms.n)
    assert np.allclose(a[ms.first_outcome :].T, reference)
    print(
        f"turn recursion, {states} states x 252 outcomes: numba {numba_s * 1e3:.1f} ms, "
        f"numpy reference {numpy_s * 1e3:.1f} ms ({numpy_s / numba_s:.1f}x)"
    )


def _random_positions(rs: yatzy.Ruleset, count: int) -> list[yatzy.Game]:
    rng = random.Random(7)
    games = []
    while len(games) < count:
        game = yatzy.Game(rs, rng.randbytes(32))
        for _ in range(rng.randrange(len(rs.categories))):
            game.roll()
            game.score(rng.choice(list(game.options())))
        for _ in range(rng.randrange(1, 4)):
            game.roll([p for p in range(rs.dice_count) if game.rolls_used and rng.random() < 0.5])
        games.append(game)
    return games


def bench_best_move(name: str, directory: Path | None, count: int = 1000) -> None:
    rs = yatzy.get_ruleset(name)
    table = load_table(rs, directory=directory)
    games = _random_positions(rs, count)
    best_move(games[0], table=table)
    times = []
    for game in games:
        started = time.perf_counter()
        best_move(game, table=table)
        times.append(time.perf_counter() - started)
    p50, p95 = np.percentile(times, [50, 95]) * 1e3
    print(f"best_move {name:8} {count} positions: p50 {p50:.2f} ms, p95 {p95:.2f} ms")


def _play(job: tuple[str, str, int, int]) -> list[int]:
    name, level, start, stop = job
    rs = yatzy.get_ruleset(name)
    return [
        bot_play(yatzy.Game(rs, hashlib.sha256(f"bench/{i}".encode()).digest()), level).total
        for i in range(start, stop)
    ]


def bench_bots(games: int, workers: int) -> None:
    print(f"\n| ruleset | {' | '.join(LEVELS)} | table |")
    print(f"|---|{'---|' * len(LEVELS)}---|")
    for name in ("yatzy", "yahtzee", "maxi"):
        cells = []
        for level in LEVELS:
            step = math.ceil(games / workers)
            jobs = [(name, level, i, min(games, i + step)) for i in range(0, games, step)]
            with ProcessPoolExecutor(workers) as pool:
                scores = [s for part in pool.map(_play, jobs) for s in part]
            error = statistics.stdev(scores) / math.sqrt(len(scores))
            cells.append(f"{statistics.mean(scores):.2f} ± {error:.2f}")
        value = load_table(yatzy.get_ruleset(name)).start_value
        print(f"| {name} | {' | '.join(cells)} | {value:.4f} |", flush=True)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--maxi", action="store_true", help="also solve Maxi from scratch")
    parser.add_argument("--games", type=int, default=0, help="bot games per level and ruleset")
    parser.add_argument("--workers", type=int, default=os.cpu_count() or 1)
    args = parser.parse_args()
    print(f"machine: {describe()}")
    with tempfile.TemporaryDirectory() as scratch:
        for name in ("yatzy", "yahtzee") + (("maxi",) if args.maxi else ()):
            bench_solve(name, Path(scratch))
        bench_kernel()
        bench_best_move("yatzy", Path(scratch))
        if args.maxi:
            bench_best_move("maxi", Path(scratch))
    if not args.maxi:
        try:
            bench_best_move("maxi", None)
        except TableMissing:
            print("best_move maxi: no table in the default directory (solve maxi first)")
    if args.games:
        bench_bots(args.games, args.workers)


if __name__ == "__main__":
    main()
