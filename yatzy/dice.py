"""Dice stream v1: the one place that turns a seed into dice (SPEC §3).

The values of roll ``r`` (0-based within the turn) of turn ``t`` (0-based) are read from
``HMAC-SHA256(key=seed, msg=f"yatzy-dice/v1/{t}/{r}/{k}")`` for k = 0, 1, 2, …
concatenated: each byte b < 252 gives the die value ``b % 6 + 1``; bytes >= 252 are
skipped so that every face is equally likely (252 is 42 times 6).
"""

import datetime
import hashlib
import hmac

SEED_SIZE = 32
"""Bytes in a game seed."""

_UNBIASED_LIMIT = 252
# Byte -> face, or 0 for the bytes the stream skips; `bytes.translate` applies it in C.
_FACES = bytes(b % 6 + 1 if b < _UNBIASED_LIMIT else 0 for b in range(256))


def draw(seed: bytes, turn: int, roll: int, count: int) -> tuple[int, ...]:
    """The first ``count`` die values of the stream of roll ``roll`` in turn ``turn``.

    A roll hands these values to its non-held dice in ascending position order.

    >>> draw(bytes(32), 0, 0, 6)
    (6, 5, 2, 4, 5, 4)
    >>> draw(bytes(32), 0, 0, 3)  # a prefix of the same stream
    (6, 5, 2)
    """
    values = b""
    block = 0
    while len(values) < count:
        message = f"yatzy-dice/v1/{turn}/{roll}/{block}".encode("ascii")
        digest = hmac.digest(seed, message, "sha256")
        values += digest.translate(_FACES).replace(b"\0", b"")
        block += 1
    return tuple(values[:count])


def daily_seed(secret: str, day: datetime.date) -> bytes:
    """The seed of the daily challenge of ``day``: HMAC-SHA256 of the date under the secret.

    >>> daily_seed("not-a-real-secret", datetime.date(2026, 12, 1)).hex()[:16]
    'b9959838a825d62b'
    """
    if isinstance(day, datetime.datetime):
        # A datetime's isoformat() carries the time, which would silently give another seed.
        raise TypeError("daily_seed takes a datetime.date, not a datetime.datetime")
    message = f"yatzy-daily/v1/{day.isoformat()}".encode("ascii")
    return hmac.digest(secret.encode("utf-8"), message, "sha256")


def commitment(seed: bytes) -> str:
    """The public commitment to a seed: its SHA-256 hex digest.

    >>> commitment(bytes(32))
    '66687aadf862bd776c8fc18b8e9f8e20089714856ee233b3902a591d0d5f2925'
    """
    return hashlib.sha256(seed).hexdigest()
