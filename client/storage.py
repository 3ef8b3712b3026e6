"""What the client keeps on the player's machine.

* The API token of each server, in the user's config directory (``$XDG_CONFIG_HOME``
  honoured, through platformdirs), in a file only its owner may read (mode 0600).
* A journal of what the client was shown of each round before its seed was revealed:
  the commitment and the dice of every roll, in the user's data directory. ``verify``
  checks the revealed seed against these, so a server cannot change its story later.

Both are small JSON files, written whole and renamed into place, so a crash never
leaves half a file.
"""

from __future__ import annotations

import contextlib
import datetime as dt
import json
import os
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import platformdirs

APP_NAME = "yatzy-play"
DEFAULT_SERVER = "http://127.0.0.1:8000"


def config_dir() -> Path:
    """The user's config directory for the client, e.g. ``~/.config/yatzy-play``."""
    return Path(platformdirs.user_config_dir(APP_NAME, appauthor=False))


def data_dir() -> Path:
    """The user's data directory for the client, e.g. ``~/.local/share/yatzy-play``."""
    return Path(platformdirs.user_data_dir(APP_NAME, appauthor=False))


def server_key(server: str) -> str:
    """One spelling per server: no trailing slash.

    >>> server_key("http://127.0.0.1:8000/")
    'http://127.0.0.1:8000'
    """
    return server.rstrip("/")


def write_private(path: Path, data: object) -> None:
    """Write ``data`` as JSON to ``path``, readable and writable by its owner only.

    The file is created with mode 0600 (whatever the umask) under a temporary name and
    renamed over ``path``, so no reader ever sees a partial file or wider permissions.
    """
    path.parent.mkdir(parents=True, exist_ok=True, mode=0o700)
    temporary = path.with_name(f".{path.name}.{os.getpid()}.tmp")
    fd = os.open(temporary, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o600)
    try:
        os.fchmod(fd, 0o600)
        with os.fdopen(fd, "w", encoding="utf-8") as file:
            fd = -1
            json.dump(data, file, indent=2, sort_keys=True)
            file.write("\n")
            file.flush()
            os.fsync(file.fileno())
        os.replace(temporary, path)
    finally:
        if fd != -1:
            os.close(fd)
        with contextlib.suppress(FileNotFoundError):
            temporary.unlink()


def _read_json(path: Path) -> dict[str, Any]:
    try:
        data = json.loads(path.read_text(encoding="utf-8"))
    except FileNotFoundError:
        return {}
    except (OSError, ValueError) as error:
        raise StorageError(f"cannot read {path}: {error}") from error
    if not isinstance(data, dict):
        raise StorageError(f"cannot read {path}: not a JSON object")
    return data


class StorageError(Exception):
    """A file of the client's is unreadable."""


@dataclass(frozen=True)
class Credentials:
    """A player's token on one server."""

    server: str
    username: str
    token: str


class CredentialStore:
    """The tokens, one per server, in ``credentials.json`` of the config directory."""

    def __init__(self, directory: Path | None = None) -> None:
        self.path = (directory or config_dir()) / "credentials.json"

    def get(self, server: str) -> Credentials | None:
        """The saved token for ``server``, or None."""
        entry = _read_json(self.path).get("servers", {}).get(server_key(server))
        if not isinstance(entry, dict):
            return None
        username, token = entry.get("username"), entry.get("token")
        if not isinstance(username, str) or not isinstance(token, str):
            return None
        return Credentials(server_key(server), username, token)

    def save(self, credentials: Credentials) -> None:
        """Keep ``credentials`` (replacing any earlier token for that server)."""
        data = _read_json(self.path)
        servers = data.setdefault("servers", {})
        servers[server_key(credentials.server)] = {
            "username": credentials.username,
            "token": credentials.token,
        }
        write_private(self.path, data)

    def remove(self, server: str) -> bool:
        """Forget the token for ``server``; the file goes once it holds none. Returns
        whether there was one."""
        data = _read_json(self.path)
        servers = data.get("servers", {})
        found = servers.pop(server_key(server), None) is not None
        if servers:
            write_private(self.path, data)
        else:
            with contextlib.suppress(FileNotFoundError):
                self.path.unlink()
        return found


def _now() -> str:
    return dt.datetime.now(dt.UTC).isoformat(timespec="seconds")


@dataclass
class RoundRecord:
    """What this client was shown of one round while it was played."""

    round_id: str
    commitment: str | None = None
    commitment_seen_at: str | None = None
    seed_hidden_when_seen: bool = False
    rolls: dict[str, list[int]] | None = None
    """``"turn/rolls_used"`` → the dice shown after that roll."""

    def dice_seen(self, turn: int, rolls_used: int) -> list[int] | None:
        """The dice shown after roll ``rolls_used`` (1-based) of ``turn``, if recorded."""
        return (self.rolls or {}).get(f"{turn}/{rolls_used}")


class Journal:
    """Round records, one JSON file per round under ``rounds/`` of the data directory."""

    def __init__(self, directory: Path | None = None) -> None:
        self.directory = (directory or data_dir()) / "rounds"

    def _path(self, round_id: str) -> Path:
        # Round ids are UUIDs; anything else must not name a path outside the directory.
        safe = "".join(c for c in round_id if c.isalnum() or c == "-")
        return self.directory / f"{safe}.json"

    def get(self, round_id: str) -> RoundRecord | None:
        """The record of ``round_id``, or None when this client never played it."""
        data = _read_json(self._path(round_id))
        if not data:
            return None
        rolls = data.get("rolls")
        return RoundRecord(
            round_id=round_id,
            commitment=data.get("commitment"),
            commitment_seen_at=data.get("commitment_seen_at"),
            seed_hidden_when_seen=bool(data.get("seed_hidden_when_seen")),
            rolls=rolls if isinstance(rolls, dict) else {},
        )

    def record(self, state: dict[str, Any]) -> None:
        """Note what a round's state shows: the first commitment seen, and the dice after
        each roll. Nothing already recorded is overwritten, so a later answer that
        disagrees is caught by ``verify`` rather than papered over."""
        round_id = str(state.get("id", ""))
        if not round_id:
            return
        record = self.get(round_id) or RoundRecord(round_id=round_id, rolls={})
        rolls = record.rolls if record.rolls is not None else {}
        changed = False
        if record.commitment is None and isinstance(state.get("commitment"), str):
            record.commitment = state["commitment"]
            record.commitment_seen_at = _now()
            record.seed_hidden_when_seen = state.get("seed") is None
            changed = True
        dice, turn, used = state.get("dice"), state.get("turn"), state.get("roll")
        if dice and isinstance(turn, int) and isinstance(used, int) and used > 0:
            key = f"{turn}/{used}"
            if key not in rolls:
                rolls[key] = list(dice)
                changed = True
        if changed:
            write_private(
                self._path(round_id),
                {
                    "commitment": record.commitment,
                    "commitment_seen_at": record.commitment_seen_at,
                    "seed_hidden_when_seen": record.seed_hidden_when_seen,
                    "rolls": rolls,
                },
            )

    def _day_path(self, day: str) -> Path:
        safe = "".join(c for c in day if c.isdigit() or c == "-")
        return self.directory.parent / "days" / f"{safe}.json"

    def record_day(self, challenge: dict[str, Any]) -> None:
        """Note a daily challenge's commitment the first time it is seen unrevealed."""
        day, commitment = challenge.get("date"), challenge.get("commitment")
        if not isinstance(day, str) or not isinstance(commitment, str):
            return
        path = self._day_path(day)
        if _read_json(path) or challenge.get("seed") is not None:
            return
        write_private(path, {"commitment": commitment, "commitment_seen_at": _now()})

    def day_commitment(self, day: str) -> tuple[str, str] | None:
        """The commitment of ``day`` as first seen before its reveal, and when."""
        data = _read_json(self._day_path(day))
        commitment, seen = data.get("commitment"), data.get("commitment_seen_at")
        if isinstance(commitment, str) and isinstance(seen, str):
            return commitment, seen
        return None
