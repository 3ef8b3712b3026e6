"""``python -m reliability``: load, faults and schema fuzzing on a private stack.

    python -m reliability                 # the full run (make reliability)
    python -m reliability --quick         # the CI form, a few minutes on 2 cores
    python -m reliability --phases load --clients 48
    python -m reliability --phases embedded --embedded-seconds 120

Starts its own PostgreSQL and Redis on free ports (never the shared 5432/6379),
gunicorn with the deploy settings and a Celery worker, runs the phases, checks
everything against PostgreSQL, prints a summary and writes a JSON report. The embedded
phase runs ``make run``'s supervisor on SQLite and the filesystem broker instead. Exit
status 0 only when every check passed.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import re
import signal
import sys
import time
from collections import Counter
from pathlib import Path
from typing import Any

from bench.machine import describe
from reliability.faults import KINDS, run_schedule
from reliability.player import Tally, run_players
from reliability.stack import ROOT, Stack

# The phases that run on the private PostgreSQL + Redis + gunicorn stack.
STACK_PHASES = ("load", "faults", "schema")


def parse(argv: list[str] | None) -> argparse.Namespace:
    parser = argparse.ArgumentParser(prog="python -m reliability", description=__doc__)
    parser.add_argument("--quick", action="store_true", help="the short CI form")
    parser.add_argument("--phases", default="load,faults,schema,embedded", help="comma-separated")
    parser.add_argument("--clients", type=int, help="concurrent players (24; quick 8)")
    parser.add_argument("--rounds", type=int, help="rounds per player in the load phase (2)")
    parser.add_argument(
        "--faults",
        help=f"fault sequence, of {', '.join(KINDS)} "
        "(full: redis,worker,postgres,web twice; quick: each once)",
    )
    parser.add_argument("--outage", type=float, help="seconds each fault lasts (6; quick 4)")
    parser.add_argument("--gap", type=float, help="healthy seconds between faults (6; quick 4)")
    parser.add_argument(
        "--schema-examples", type=int, help="schemathesis cases per operation (100; quick 40)"
    )
    parser.add_argument(
        "--min-cases", type=int, help="fewest schemathesis cases that count (1000; quick 400)"
    )
    parser.add_argument(
        "--duplicate-rate",
        type=float,
        default=0.05,
        help="faults phase: share of applied actions a client sends again (lost answer)",
    )
    parser.add_argument(
        "--embedded-clients", type=int, help="embedded phase: concurrent players (8; quick 4)"
    )
    parser.add_argument(
        "--embedded-seconds", type=float, help="embedded phase: seconds of play (600; quick 30)"
    )
    parser.add_argument("--web-workers", type=int, default=5, help="gunicorn sync workers")
    parser.add_argument("--seed", type=int, default=20261201)
    parser.add_argument("--report", type=Path, help="JSON report (var/reliability/…)")
    parser.add_argument("--keep", action="store_true", help="keep the stack's folder and logs")
    args = parser.parse_args(argv)
    quick = args.quick
    args.clients = args.clients or (8 if quick else 24)
    args.rounds = args.rounds or 2
    args.faults = (
        args.faults or ("redis,worker,postgres,web" if quick else "redis,worker,postgres,web," * 2)
    ).strip(",")
    args.outage = args.outage or (4.0 if quick else 6.0)
    args.gap = args.gap or (4.0 if quick else 6.0)
    args.schema_examples = args.schema_examples or (40 if quick else 100)
    args.min_cases = args.min_cases if args.min_cases is not None else (400 if quick else 1000)
    args.embedded_clients = args.embedded_clients or (4 if quick else 8)
    args.embedded_seconds = args.embedded_seconds or (30.0 if quick else 600.0)
    args.phases = [p for p in args.phases.split(",") if p]
    for phase in args.phases:
        if phase not in (*STACK_PHASES, "embedded"):
            parser.error(f"unknown phase {phase!r}")
    for kind in args.faults.split(","):
        if kind not in KINDS:
            parser.error(f"unknown fault {kind!r}")
    return args


def _wait_converged(checks: Any, timeout: float) -> list[str]:
    """Poll until the stored boards equal the recomputation; the last differences."""
    deadline = time.monotonic() + timeout
    while True:
        differences = checks.board_differences()
        if not differences or time.monotonic() > deadline:
            return differences
        time.sleep(1)


def _verify(
    checks: Any, stack: Stack, tally: Tally, token: str, *, allow_reconcile: bool
) -> dict[str, Any]:
    """Rounds, boards (stored and through the API) and the leak scan after a phase."""
    from config.celery import app as celery_app
    from daily import clock

    result: dict[str, Any] = {}
    failures = list(tally.failures)
    if tally.errors():
        failures.append(f"{tally.errors()} server errors (5xx other than a 503 with a code)")
    differences = _wait_converged(checks, 45)
    result["boards_converged_by_worker"] = not differences
    if differences:
        result["board_differences_before_reconcile"] = differences[:20]
        if allow_reconcile:
            # What the nightly job does; run it now through the broker and the worker.
            celery_app.send_task("leaderboards.tasks.boards_reconcile")
            differences = _wait_converged(checks, 90)
        result["boards_converged_after_reconcile"] = not differences
        failures += [f"board: {d}" for d in differences[:20]]
    rounds_checked, round_failures = checks.check_rounds(tally.rounds, tally.usernames)
    result["rounds_checked"] = rounds_checked
    failures += round_failures
    entries, api_failures = checks.api_board_differences(
        stack.url, token, clock.today().isoformat()
    )
    result["api_board_entries_checked"] = entries
    failures += api_failures
    scanned, leak_failures = checks.scan_for_leaks(tally.exchanges)
    result["responses_scanned_for_leaks"] = scanned
    failures += leak_failures
    logs, log_failures = checks.scan_logs_for_seed(sorted(stack.base.glob("*.log")))
    result["logs_scanned_for_seeds"] = logs
    failures += log_failures
    result["failures"] = failures
    return result


def phase_load(args: argparse.Namespace, stack: Stack, checks: Any, token: str) -> dict:
    tally = Tally()
    elapsed = asyncio.run(
        run_players(
            stack.url,
            tally,
            clients=args.clients,
            rounds=args.rounds,
            run_id="load",
            seed=args.seed,
            strict=True,
        )
    )
    return {
        **tally.figures(elapsed),
        **_verify(checks, stack, tally, token, allow_reconcile=False),
    }


def phase_faults(args: argparse.Namespace, stack: Stack, checks: Any, token: str) -> dict:
    tally = Tally()
    kinds = args.faults.split(",")

    async def run() -> tuple[float, list]:
        stop = asyncio.Event()
        players = asyncio.create_task(
            run_players(
                stack.url,
                tally,
                clients=args.clients,
                rounds=1,
                run_id="faults",
                seed=args.seed + 1,
                strict=False,
                duplicate_rate=args.duplicate_rate,
                until=stop,
            )
        )
        records = await asyncio.to_thread(
            run_schedule, stack, tally, kinds=kinds, outage_s=args.outage, gap_s=args.gap
        )
        stop.set()
        return await players, records

    elapsed, records = asyncio.run(run())
    result = {
        **tally.figures(elapsed),
        "faults": [vars(r) for r in records],
        "incidents": tally.incidents,
    }
    if stack.worker is None or stack.worker.poll() is not None:
        tally.fail("the Celery worker is not running after the faults")
    return {**result, **_verify(checks, stack, tally, token, allow_reconcile=True)}


def phase_schema(args: argparse.Namespace, stack: Stack, token: str) -> dict:
    from reliability.schema import run_schemathesis

    result = run_schemathesis(
        stack.url,
        token=token,
        max_examples=args.schema_examples,
        seed=args.seed,
        workdir=stack.base,
    )
    if result.cases < args.min_cases:
        result.failures.append(f"only {result.cases} cases ran (at least {args.min_cases})")
    return vars(result)


def _server_log_findings(stack: Stack) -> dict[str, Any]:
    """What gunicorn logged at ERROR and above, and the worker's exception lines, each
    kind counted once with ids blanked. Expected there: the worker's jobs that failed
    while the database was down, and (web) job sends that failed while Redis was down
    (``Error calling send … in on_commit()``: logged, the request still succeeded)."""
    found: dict[str, Any] = {}
    ids = re.compile(r"[0-9a-f]{8}-[0-9a-f-]{27}|port \d+|:\d{4,5}\b")
    web: Counter[str] = Counter()
    path = stack.base / "web.log"
    for line in path.read_text(errors="replace").splitlines() if path.exists() else []:
        try:
            record = json.loads(line)
        except ValueError:
            continue
        if isinstance(record, dict) and record.get("level") in ("ERROR", "CRITICAL"):
            last = (record.get("exc_info") or "").strip().splitlines()[-1:] or [""]
            web[ids.sub("…", f"{record.get('message', '')[:100]} {last[0][:120]}")] += 1
    found["web_error_records"] = dict(web.most_common(10))
    path = stack.base / "worker.log"
    lines = path.read_text(errors="replace").splitlines() if path.exists() else []
    # The worker logs JSON lines (LOG_FORMAT=json): a traceback is inside its record.
    text = "\n".join(_worker_log_text(line) for line in lines)
    worker = Counter(
        ids.sub("…", m)
        for m in re.findall(r"^(?:\w+\.)*\w+(?:Error|Exception): .{0,120}", text, re.M)
    )
    found["worker_exceptions"] = dict(worker.most_common(10))
    return found


def _worker_log_text(line: str) -> str:
    """A worker log line as text: a JSON record's message and traceback, else the line."""
    try:
        record = json.loads(line)
    except ValueError:
        return line
    if not isinstance(record, dict):
        return line
    return "\n".join(str(record.get(key) or "") for key in ("message", "exc_info"))


def _exit_on_sigterm(signum: int, frame: Any) -> None:
    raise SystemExit(143)  # run the cleanup in ``finally``: no server is left behind


def phase_embedded(args: argparse.Namespace, base_env: dict[str, str], stack: Stack | None) -> dict:
    from reliability import embedded

    tables = stack.base / "tables" if stack is not None else None
    return embedded.run(
        base_env,
        clients=args.embedded_clients,
        seconds=args.embedded_seconds,
        short=args.quick,
        seed=args.seed + 2,
        tables_from=tables,
        keep=args.keep,
    )


def main(argv: list[str] | None = None) -> int:
    args = parse(argv)
    signal.signal(signal.SIGTERM, _exit_on_sigterm)
    base_env = dict(os.environ)  # before the private stack's settings: the embedded phase's
    stack = (
        Stack.create(web_workers=args.web_workers, keep=args.keep)
        if any(phase in STACK_PHASES for phase in args.phases)
        else None
    )
    if stack is not None:
        os.environ.update(stack.env)
        os.environ["CONN_MAX_AGE"] = "0"
        os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings")
    report: dict[str, Any] = {
        "machine": describe(),
        "mode": "quick" if args.quick else "full",
        "arguments": {k: (str(v) if isinstance(v, Path) else v) for k, v in vars(args).items()},
        "started": time.strftime("%Y-%m-%dT%H:%M:%SZ", time.gmtime()),
    }
    started = time.monotonic()
    failures: list[str] = []
    try:
        token = ""
        if stack is not None:
            print(f"reliability: starting a private stack under {stack.base}", flush=True)
            stack.start()
            import django

            django.setup()
            from reliability.schema import register_token

            token = register_token(stack.url, "rel-observer", "observer passphrase 2026")
        for phase in args.phases:
            print(f"reliability: phase {phase}", flush=True)
            if phase == "embedded":
                report[phase] = phase_embedded(args, base_env, stack)
            else:
                assert stack is not None
                from reliability import checks

                if phase == "load":
                    report[phase] = phase_load(args, stack, checks, token)
                elif phase == "faults":
                    report[phase] = phase_faults(args, stack, checks, token)
                else:
                    report[phase] = phase_schema(args, stack, token)
            failures += [f"{phase}: {f}" for f in report[phase]["failures"]]
            _print_phase(phase, report[phase])
        if stack is not None:
            report["server_logs"] = _server_log_findings(stack)
    except Exception as exc:
        failures.append(f"the run stopped: {type(exc).__name__}: {exc}")
        raise
    finally:
        report["elapsed_s"] = round(time.monotonic() - started, 1)
        report["failures"] = failures
        path = args.report or ROOT / "var" / "reliability" / f"report-{int(time.time())}.json"
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(json.dumps(report, indent=2, default=str))
        if stack is not None:
            stack.stop()
        print(f"reliability: report in {path}")
    for failure in failures[:50]:
        print(f"FAIL {failure}")
    failed = {f.split(":", 1)[0] for f in failures}
    passed = [p for p in args.phases if p not in failed]
    print(f"reliability: {len(passed)} passed, {len(args.phases) - len(passed)} failed")
    return 1 if failures else 0


def _print_phase(phase: str, result: dict[str, Any]) -> None:
    keep = (
        "players",
        "rounds_played",
        "requests",
        "requests_per_s",
        "statuses",
        "transport_errors",
        "unavailable_503_codes",
        "retries",
        "resynced_after_409",
        "resynced_otherwise",
        "duplicates_sent",
        "server_errors",
        "boards_converged_by_worker",
        "boards_converged_after_reconcile",
        "rounds_checked",
        "api_board_entries_checked",
        "responses_scanned_for_leaks",
        "logs_scanned_for_seeds",
        "cases",
        "operations",
        "start_s",
        "board_converged_after_s",
        "board_entries_checked",
        "crashes_and_exceptions",
        "worker_restarted_after_s",
        "round_after_kill_on_board_after_s",
        "beats_after_kill",
        "stopped_with_status",
        "phase_s",
        "elapsed_s",
    )
    figures = {k: result[k] for k in keep if k in result}
    print(f"  {phase}: {json.dumps(figures)}")
    for fault in result.get("faults", []):
        print(f"    fault {json.dumps(fault)}")
    print(f"  {phase}: {len(result['failures'])} failures", flush=True)


if __name__ == "__main__":
    sys.exit(main())
