"""The embedded broker (config/broker.py): a consumer never takes a message that is
still being written (kombu's own filesystem transport fails here, celery/kombu#1551), and
a file that does not decode is skipped instead of stopping the worker."""

from __future__ import annotations

import logging
import multiprocessing
import os
import subprocess
import sys
import time
from pathlib import Path
from queue import Empty

import pytest
from kombu import Connection

from config.broker import Transport
from reliability.embedded import embedded_env
from tests.live.conftest import BIN, ROOT, wait_for

MESSAGES = 20
# Large enough that encoding one takes milliseconds: kombu's own transport has its empty
# file in the folder all that time.
PAYLOAD = ["x" * 100] * 20000


def _options(folder: Path) -> dict[str, object]:
    return {
        "data_folder_in": str(folder),
        "data_folder_out": str(folder),
        "control_folder": str(folder),
        "store_processed": False,
    }


def _publish(folder: Path) -> None:
    with Connection(
        "filesystem://localhost/", transport=Transport, transport_options=_options(folder)
    ) as conn:
        for index in range(MESSAGES):
            conn.default_channel._put("celery", {"index": index, "pad": PAYLOAD})


def test_the_embedded_default_uses_this_transport(tmp_path):
    env = embedded_env(os.environ, tmp_path, DJANGO_SETTINGS_MODULE="config.settings")
    code = "from django.conf import settings; print(settings.CELERY_BROKER_TRANSPORT)"
    result = subprocess.run(
        [sys.executable, "-c", code], cwd=ROOT, env=env, capture_output=True, text=True, check=True
    )
    assert result.stdout.strip() == "config.broker:Transport"


def test_a_consumer_racing_a_publisher_gets_every_message_whole(tmp_path):
    producer = multiprocessing.get_context("fork").Process(target=_publish, args=(tmp_path,))
    producer.start()
    received = []
    with Connection(
        "filesystem://localhost/", transport=Transport, transport_options=_options(tmp_path)
    ) as conn:
        channel = conn.default_channel
        deadline = time.monotonic() + 120
        # As a worker's poll does, as fast as it can while the publisher writes.
        while len(received) < MESSAGES and time.monotonic() < deadline:
            try:
                received.append(channel._get("celery"))
            except Empty:
                if not producer.is_alive() and not list(tmp_path.glob("*.msg")):
                    break
    producer.join()
    assert [message["index"] for message in received] == list(range(MESSAGES))
    assert all(message["pad"] == PAYLOAD for message in received)
    assert not list(tmp_path.glob("*.part"))


def test_a_file_that_does_not_decode_is_skipped_with_a_log_line(tmp_path, caplog):
    with Connection(
        "filesystem://localhost/", transport=Transport, transport_options=_options(tmp_path)
    ) as conn:
        channel = conn.default_channel
        (tmp_path / "0_broken.celery.msg").write_bytes(b"")  # first in the queue's order
        channel._put("celery", {"after": "the broken one"})
        with caplog.at_level(logging.ERROR, logger="config.broker"), pytest.raises(Empty):
            channel._get("celery")
        assert channel._get("celery") == {"after": "the broken one"}
    assert "does not decode" in caplog.text


@pytest.mark.live
def test_a_worker_with_an_empty_message_file_in_its_queue_keeps_running_jobs(tmp_path):
    env = embedded_env(os.environ, tmp_path)
    queue = tmp_path / "var" / "celery-broker" / "queue"
    queue.mkdir(parents=True)
    # What kombu's own publisher leaves for a moment (and a machine crash for good).
    (queue / f"0_{'0' * 8}.celery.msg").write_bytes(b"")
    heartbeat = tmp_path / "var" / "celery-broker" / "worker-heartbeat"
    log = tmp_path / "worker.log"
    with log.open("wb") as out:
        worker = subprocess.Popen(
            [str(BIN / "celery"), "-A", "config", "worker", "--pool=solo", "--loglevel=INFO"],
            cwd=ROOT,
            env=env,
            stdout=out,
            stderr=subprocess.STDOUT,
        )
    try:
        # The worker sends itself a heartbeat job when it is ready, queued behind the
        # empty file.
        wait_for(lambda: heartbeat.exists() or worker.poll() is not None, timeout=90)
        assert worker.poll() is None and heartbeat.exists(), log.read_text()[-3000:]
    finally:
        worker.terminate()
        worker.wait(timeout=30)
    output = log.read_text()
    assert "does not decode" in output and "JSONDecodeError" not in output, output[-3000:]
