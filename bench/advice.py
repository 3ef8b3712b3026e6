"""The strategy-table requests of ``bench.api``: hints, analyses and the computer's turn,
each request timed one at a time over one keep-alive connection, beside the trivial
DRF endpoint timed the same way in the same run (so the client's own cost cancels in
the differences), and the web workers' memory with the Maxi table mapped.

Targets (issue #12): a hint on a Maxi round p95 ≤ 15 ms; a score that also plays the
computer's turn ≤ 10 ms p95 more than one without; the analysis of a Maxi game ≤ 200 ms;
the Maxi table adds ≤ 50 MB RSS per web worker.
"""

from __future__ import annotations

import logging
import statistics
import time
from pathlib import Path
from typing import Any

import httpx

API = "/api/v1"
logging.getLogger("httpx").setLevel(logging.WARNING)  # one INFO line per request otherwise


def percentile(values: list[float], q: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(q * len(ordered)))]


def timed(http: httpx.Client, method: str, path: str, **kwargs: Any) -> tuple[float, Any]:
    started = time.perf_counter()
    response = http.request(method, path, **kwargs)
    elapsed = (time.perf_counter() - started) * 1000
    response.raise_for_status()
    return elapsed, response.json()


def memory_kb(pid: int) -> dict[str, int]:
    """Rss, Pss and private memory of one process, from /proc (Linux)."""
    figures = {}
    for line in Path(f"/proc/{pid}/smaps_rollup").read_text().splitlines()[1:]:
        name, value = line.split(":", 1)
        figures[name] = int(value.split()[0])
    return {
        "rss": figures["Rss"],
        "pss": figures["Pss"],
        "private": figures["Private_Clean"] + figures["Private_Dirty"],
    }


def workers_of(master: int) -> list[int]:
    return [
        int(stat.parent.name)
        for stat in Path("/proc").glob("[0-9]*/stat")
        if stat.read_text().rsplit(")", 1)[1].split()[1] == str(master)
    ]


def summary(name: str, values: list[float]) -> dict[str, Any]:
    return {
        "name": name,
        "n": len(values),
        "p50": statistics.median(values),
        "p95": percentile(values, 0.95),
        "p99": percentile(values, 0.99),
    }


def run(url: str, token: str, master: int, *, games: int = 6) -> list[dict[str, Any]]:
    """Play Maxi games through the API: solo games asking for a hint before every move,
    computer (expert) games, then each game's analysis. Returns the figures."""
    headers = {"Authorization": f"Token {token}"}
    before = {pid: memory_kb(pid) for pid in workers_of(master)}
    trivial: list[float] = []
    hints: list[float] = []
    scores: dict[str, list[float]] = {"solo": [], "computer": []}
    analyses: list[float] = []
    with httpx.Client(base_url=url, headers=headers, timeout=60) as http:
        for _ in range(50):
            trivial.append(timed(http, "GET", f"{API}/accounts/me/")[0])
        finished = []
        for index in range(games):
            for mode in ("solo", "computer"):
                body = {"mode": mode, "ruleset": "maxi"}
                if mode == "computer":
                    body["level"] = "expert"
                state = timed(http, "POST", f"{API}/games/", json=body)[1]
                while state["status"] == "in_progress":
                    trivial.append(timed(http, "GET", f"{API}/accounts/me/")[0])
                    if mode == "solo":
                        elapsed, advice = timed(http, "GET", f"{API}/rounds/{state['id']}/hint/")
                        hints.append(elapsed)
                    base = f"{API}/rounds/{state['id']}"
                    roll = {"hold": [], "turn": state["turn"], "roll": state["roll"]}
                    state = timed(http, "POST", f"{base}/roll/", json=roll)[1]
                    if mode == "solo":
                        advice = timed(http, "GET", f"{base}/hint/")
                        hints.append(advice[0])
                        best = advice[1]["best"]
                        if best["kind"] == "hold":
                            roll = {"hold": best["hold"], "turn": state["turn"], "roll": 1}
                            state = timed(http, "POST", f"{base}/roll/", json=roll)[1]
                    box = max(state["options"], key=state["options"].get)
                    elapsed, state = timed(
                        http,
                        "POST",
                        f"{base}/score/",
                        json={"category": box, "turn": state["turn"]},
                    )
                    scores[mode].append(elapsed)
                finished.append(state["id"])
            del index
        for round_id in finished:
            analyses.append(timed(http, "GET", f"{API}/rounds/{round_id}/analysis/")[0])
    after = {pid: memory_kb(pid) for pid in workers_of(master)}
    figures = [
        summary("GET accounts/me/ (baseline)", trivial),
        summary("GET rounds/{id}/hint/ (Maxi)", hints),
        summary("POST score, solo", scores["solo"]),
        summary("POST score + expert's turn", scores["computer"]),
        summary("GET rounds/{id}/analysis/ (Maxi)", analyses),
    ]
    memory = [
        {
            "pid": pid,
            **{f"{key}_mb": (after[pid][key] - before[pid][key]) / 1024 for key in after[pid]},
        }
        for pid in after
        if pid in before
    ]
    return [*figures, {"memory_after_minus_before": memory}]


def report(figures: list[dict[str, Any]]) -> None:
    print("\nStrategy tables (one request at a time, one keep-alive connection, Maxi table loaded)")
    print(f"  {'request':<36} {'n':>5} {'p50 ms':>8} {'p95 ms':>8} {'p99 ms':>8}")
    rows = [f for f in figures if "name" in f]
    for row in rows:
        print(
            f"  {row['name']:<36} {row['n']:>5} {row['p50']:>8.1f} {row['p95']:>8.1f} "
            f"{row['p99']:>8.1f}"
        )
    by_name = {row["name"]: row for row in rows}
    solo, computer = by_name["POST score, solo"], by_name["POST score + expert's turn"]
    baseline = by_name["GET accounts/me/ (baseline)"]
    hint = by_name["GET rounds/{id}/hint/ (Maxi)"]
    print(
        f"  the expert's turn adds p95 {computer['p95'] - solo['p95']:+.1f} ms "
        f"(target ≤ 10); hint p95 {hint['p95']:.1f} ms = {hint['p95'] / baseline['p95']:.1f}x "
        f"the trivial endpoint (target ≤ 15 ms)"
    )
    for worker in figures[-1]["memory_after_minus_before"]:
        print(
            f"  web worker {worker['pid']}: +{worker['rss_mb']:.1f} MB RSS, "
            f"+{worker['pss_mb']:.1f} MB PSS, +{worker['private_mb']:.1f} MB private "
            "(target: the table adds ≤ 50 MB RSS)"
        )
