"""Schemathesis against the served OpenAPI schema, as an authenticated player.

Runs the ``schemathesis`` CLI (a dev dependency) on the private stack and reads its
JSON report. The checks that gate: no server error, and every response conforms to the
schema (body, status code, content type, headers). Checks that the server is not
stricter than the schema (``positive_data_acceptance``: a password the validators
refuse, a time zone that does not exist) are not run: a schema cannot say everything a
validator does. Logout is excluded: it would revoke the token the run authenticates
with.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
from dataclasses import dataclass, field
from pathlib import Path

import httpx

CHECKS = (
    # schemathesis's not_a_server_error, except a documented temporary 503 (its own
    # module: reliability/schemathesis_hooks.py).
    "not_a_server_error_but_a_documented_503",
    "response_schema_conformance",
    "status_code_conformance",
    "content_type_conformance",
    "response_headers_conformance",
)
EXCLUDED_PATHS = ("/api/v1/accounts/logout/",)
ROOT = Path(__file__).resolve().parents[1]


@dataclass
class SchemaResult:
    cases: int = 0
    operations: int = 0
    elapsed_s: float = 0.0
    failures: list[str] = field(default_factory=list)
    output_tail: str = ""


def run_schemathesis(
    url: str, *, token: str, max_examples: int, seed: int, workdir: Path
) -> SchemaResult:
    cli = Path(sys.executable).parent / "schemathesis"
    if not cli.exists():
        return SchemaResult(failures=["schemathesis is not installed (a dev dependency)"])
    report = workdir / "schemathesis.json"
    command = [
        str(cli),
        "run",
        f"{url}/api/schema/",
        "--header",
        f"Authorization: Token {token}",
        "--checks",
        ",".join(CHECKS),
        "--max-examples",
        str(max_examples),
        "--seed",
        str(seed),
        "--workers",
        "2",
        "--request-timeout",
        "30",
        "--suppress-health-check",
        "all",
        "--no-color",
        "--report",
        "json",
        "--report-json-path",
        str(report),
    ]
    for path in EXCLUDED_PATHS:
        command += ["--exclude-path", path]
    # Its working folder (Hypothesis database, default report folder) is the run's own.
    env = {
        **os.environ,
        "SCHEMATHESIS_HOOKS": "reliability.schemathesis_hooks",
        "PYTHONPATH": str(ROOT),
    }
    done = subprocess.run(command, capture_output=True, text=True, cwd=workdir, env=env)
    result = SchemaResult(output_tail=done.stdout[-8000:])
    if not report.exists():
        result.failures.append(f"schemathesis exited {done.returncode} without a report")
        return result
    data = json.loads(report.read_text())
    result.cases = data["test_cases"]["generated"]
    result.operations = data["operations"]["tested"]
    result.elapsed_s = round(data["running_time"], 1)
    for failure in data["failures"]:
        result.failures.append(
            f"{failure['code']} {failure['title']} ({failure['count']}): "
            + ", ".join(failure["operations"])
        )
    for error in data["errors"]:
        result.failures.append(f"schemathesis error: {json.dumps(error)[:300]}")
    if done.returncode != 0 and not result.failures:
        result.failures.append(f"schemathesis exited {done.returncode}: {done.stderr[-1000:]}")
    return result


def register_token(url: str, username: str, password: str) -> str:
    """A new player's API token."""
    response = httpx.post(
        f"{url}/api/v1/accounts/register/",
        json={"username": username, "password": password},
        timeout=30,
    )
    response.raise_for_status()
    return response.json()["token"]
