"""The latest `make test` figures, from the run itself: ``python -m tests.figures``
(``make test-figures``) reads the JUnit reports that ``make test`` leaves in
``var/test-results/`` and its coverage data, and rewrites the block between the markers
of ``docs/testing.md``, so the counts there are never typed by hand."""

from __future__ import annotations

import datetime as dt
import json
import os
import subprocess
import sys
import xml.etree.ElementTree as ET
from pathlib import Path
from urllib.parse import urlsplit

ROOT = Path(__file__).resolve().parents[1]
RESULTS = ROOT / "var" / "test-results"
DOC = ROOT / "docs" / "testing.md"
BEGIN = "<!-- figures: written by `make test-figures` from the last `make test` -->"
END = "<!-- end of figures -->"
PARTS = {"not-live": "without `live`, on xdist workers", "live": "`live`, one at a time"}


def _suite(path: Path) -> dict[str, float]:
    """Totals of one JUnit report: tests, skipped, failed (failures and errors), time."""
    root = ET.parse(path).getroot()
    suites = [root] if root.tag == "testsuite" else list(root.iter("testsuite"))
    total = {"tests": 0.0, "skipped": 0.0, "failed": 0.0, "time": 0.0}
    for suite in suites:
        total["tests"] += int(suite.get("tests", 0))
        total["skipped"] += int(suite.get("skipped", 0))
        total["failed"] += int(suite.get("failures", 0)) + int(suite.get("errors", 0))
        total["time"] += float(suite.get("time", 0))
    return total


def _duration(seconds: float) -> str:
    minutes, rest = divmod(round(seconds), 60)
    return f"{minutes} min {rest} s" if minutes else f"{rest} s"


def _coverage() -> dict[str, float]:
    report = RESULTS / "coverage.json"
    venv_bin = Path(sys.executable).parent
    subprocess.run(
        [str(venv_bin / "coverage"), "json", "-q", "-o", str(report)], cwd=ROOT, check=True
    )
    totals = json.loads(report.read_text())["totals"]
    return {
        "percent": totals["percent_covered"],
        "statements": totals["num_statements"],
        "branches": totals["num_branches"],
        "missing": totals["missing_lines"],
        "missing_branches": totals["missing_branches"],
    }


def _database() -> str:
    url = os.environ.get("DATABASE_URL", "")
    scheme = urlsplit(url).scheme if url else "sqlite"
    broker = "Redis" if os.environ.get("REDIS_URL") else "the filesystem broker"
    return f"{'PostgreSQL' if scheme.startswith('postgres') else 'SQLite'} + {broker}"


def figures() -> str:
    """The figures block, in Markdown."""
    rows = []
    for name, label in PARTS.items():
        report = RESULTS / f"{name}.xml"
        if not report.exists():
            raise SystemExit(f"{report} is missing: run `make test` first")
        part = _suite(report)
        passed = part["tests"] - part["skipped"] - part["failed"]
        rows.append(
            f"| {label} | {passed:,.0f} passed, {part['skipped']:.0f} skipped, "
            f"{part['failed']:.0f} failed | {_duration(part['time'])} |"
        )
    cover = _coverage()
    load = ", ".join(f"{value:.1f}" for value in os.getloadavg())
    return "\n".join(
        [
            BEGIN,
            f"{dt.date.today().isoformat()}, `make test` on {_database()}, "
            f"{os.cpu_count()} cores (load average at the end: {load}):",
            "",
            "| part | tests | time |",
            "|---|---|---|",
            *rows,
            "",
            f"Coverage: **{cover['percent']:.2f} %** of lines and branches together "
            f"({cover['statements']:,.0f} statements, {cover['branches']:,.0f} branches; "
            f"{cover['missing']:,.0f} statements and {cover['missing_branches']:,.0f} "
            "branches not reached).",
            END,
        ]
    )


def main() -> None:
    text = DOC.read_text()
    before, marker, rest = text.partition(BEGIN)
    if not marker:
        raise SystemExit(f"{DOC} has no figures block ({BEGIN})")
    _old, end, after = rest.partition(END)
    if not end:
        raise SystemExit(f"{DOC}'s figures block has no end ({END})")
    DOC.write_text(before + figures() + after)
    print(f"wrote the figures of the last run into {DOC.relative_to(ROOT)}")


if __name__ == "__main__":
    main()
