"""The embedded default's Celery broker: kombu's filesystem transport with an atomic
publish and a read that survives a broken file (``CELERY_BROKER_TRANSPORT`` whenever
``CELERY_BROKER_URL`` is ``filesystem://``).

kombu creates a message file under its final name and only then locks it and writes the
message; a worker listing the folder in that moment moves the empty file away, fails to
decode it, and its consumer stops with ``JSONDecodeError`` (celery/kombu#1551), the
message lost. Here a message is written under a name no consumer takes (``….msg.part``)
and renamed into place: a rename within one folder is atomic, so a consumer finds a
message whole or not at all. A file that still does not decode (one emptied by a machine
crash, as the rename is not synced to disk; one written by some other tool) is logged
and skipped, never allowed to stop the worker. docs/operations.md says why this rather
than a database-backed transport.
"""

from __future__ import annotations

import contextlib
import logging
import os
import uuid
from queue import Empty
from time import monotonic
from typing import Any

from kombu.exceptions import ChannelError
from kombu.transport import filesystem
from kombu.utils.encoding import str_to_bytes
from kombu.utils.json import dumps

logger = logging.getLogger(__name__)


class Channel(filesystem.Channel):
    def _put(self, queue: str, payload: dict[str, Any], **kwargs: Any) -> None:  # type: ignore[override]  # kombu's own (as its stubs say)
        """Put ``payload`` onto ``queue``: written in full, then renamed into place."""
        # kombu's own name: its consumers order the queue by the leading milliseconds.
        name = f"{round(monotonic() * 1000)}_{uuid.uuid4()}.{queue}.msg"
        final = os.path.join(self.data_folder_out, name)
        partial = final + ".part"
        data = str_to_bytes(dumps(payload))
        try:
            with open(partial, "xb") as f:
                f.write(data)
            os.replace(partial, final)
        except OSError as exc:
            with contextlib.suppress(OSError):
                os.remove(partial)
            raise ChannelError(f"Cannot add file {name!r} to directory") from exc

    def _get(self, queue: str, timeout: float | None = None) -> Any:
        """The next message of ``queue``; a file that does not decode is dropped with a
        log line (the next poll takes the messages after it)."""
        try:
            return super()._get(queue)
        except ValueError as exc:  # JSONDecodeError, UnicodeDecodeError
            logger.error("dropped a message file of queue %r that does not decode: %s", queue, exc)
            raise Empty() from None


class Transport(filesystem.Transport):
    Channel = Channel
