"""Production's log lines are JSON from every process, the Celery worker's included."""

import json
import os
import subprocess
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]


def test_a_production_worker_logs_json_lines(tmp_path):
    """With DEBUG=false (LOG_FORMAT=json) the web process logged JSON and the worker and
    beat Celery's text (`[2026-12-05 13:39:34,851: INFO/MainProcess] ... ready.`), which a
    JSON log pipeline cannot read."""
    env = {
        k: v
        for k, v in os.environ.items()
        if k not in {"REDIS_URL", "CELERY_BROKER_URL", "CELERY_TASK_ALWAYS_EAGER"}
    }
    env.update(
        DEBUG="false",
        SECRET_KEY="k" * 50,
        DAILY_SEED_SECRET="s" * 32,
        VAR_DIR=str(tmp_path / "var"),
        STRATEGY_TABLES_BUILD_AT_START="false",
        AUTH_TOKEN_CACHE_SECONDS="0",
    )
    celery = Path(sys.executable).with_name("celery")
    worker = subprocess.Popen(
        [str(celery), "-A", "config", "worker", "--pool=solo", "--loglevel=INFO", "-n", "logs@%h"],
        cwd=ROOT,
        env=env,
        stdout=subprocess.PIPE,
        stderr=subprocess.STDOUT,
        text=True,
    )
    ready = None
    try:
        deadline = time.monotonic() + 60
        assert worker.stdout is not None
        for line in worker.stdout:
            if "logs@" in line and "ready." in line:
                ready = line
                break
            if time.monotonic() > deadline:
                break
    finally:
        worker.terminate()
        worker.wait(timeout=30)
    assert ready is not None
    record = json.loads(ready)
    assert record["level"] == "INFO"
    assert record["message"].endswith("ready.")
    assert "request_id" in record
