"""Dice stream v1 (SPEC §3), daily seeds and commitments."""

import datetime
import hashlib
import hmac
from collections import Counter

import pytest
from hypothesis import given
from hypothesis import strategies as st

from yatzy import commitment, daily_seed
from yatzy.dice import draw

seeds = st.binary(min_size=32, max_size=32)


def spec_stream(seed: bytes, turn: int, roll: int, count: int) -> tuple[int, ...]:
    """SPEC §3 written out byte by byte, independently of yatzy.dice."""
    values: list[int] = []
    block = 0
    while len(values) < count:
        message = f"yatzy-dice/v1/{turn}/{roll}/{block}".encode()
        for byte in hmac.new(seed, message, hashlib.sha256).digest():
            if byte < 252:
                values.append(byte % 6 + 1)
        block += 1
    return tuple(values[:count])


def test_stream_is_pinned() -> None:
    # Pinned values: a change here changes every published game.
    assert draw(bytes(32), 0, 0, 6) == (6, 5, 2, 4, 5, 4)
    assert draw(bytes(range(32)), 19, 4, 6) == spec_stream(bytes(range(32)), 19, 4, 6)


def test_bytes_from_252_up_are_skipped() -> None:
    # Find a stream whose first block holds a byte >= 252, then check it is not a die.
    for turn in range(100):
        digest = hmac.new(bytes(32), f"yatzy-dice/v1/{turn}/0/0".encode(), "sha256").digest()
        skip_at = next((i for i, byte in enumerate(digest) if byte >= 252), None)
        if skip_at is not None:
            break
    assert skip_at is not None
    kept = [byte % 6 + 1 for byte in digest if byte < 252]
    assert draw(bytes(32), turn, 0, len(kept)) == tuple(kept)


@given(
    seed=seeds,
    turn=st.integers(0, 20),
    roll=st.integers(0, 8),
    count=st.integers(0, 80),
)
def test_stream_is_deterministic_and_follows_the_spec(
    seed: bytes, turn: int, roll: int, count: int
) -> None:
    values = draw(seed, turn, roll, count)
    assert values == draw(seed, turn, roll, count) == spec_stream(seed, turn, roll, count)
    assert draw(seed, turn, roll, count // 2) == values[: count // 2]


def test_stream_is_uniform_within_tolerance() -> None:
    counts = Counter(
        value
        for seed_index in range(100)
        for turn in range(20)
        for roll in range(3)
        for value in draw(seed_index.to_bytes(32, "big"), turn, roll, 6)
    )
    expected = sum(counts.values()) / 6
    chi_square = sum((counts[face] - expected) ** 2 / expected for face in range(1, 7))
    assert set(counts) == {1, 2, 3, 4, 5, 6}
    assert chi_square < 20.5  # 5 degrees of freedom, p = 0.001


def test_daily_seed_is_hmac_of_the_iso_date() -> None:
    expected = hmac.new(b"s3cret", b"yatzy-daily/v1/2026-12-01", hashlib.sha256).digest()
    assert daily_seed("s3cret", datetime.date(2026, 12, 1)) == expected
    assert daily_seed("s3cret", datetime.date(2026, 12, 2)) != expected
    assert daily_seed("other", datetime.date(2026, 12, 1)) != expected


def test_daily_seed_refuses_a_datetime() -> None:
    with pytest.raises(TypeError):
        daily_seed("s3cret", datetime.datetime(2026, 12, 1, 0, 0))


def test_commitment_is_sha256_hex_of_the_seed() -> None:
    seed = daily_seed("s3cret", datetime.date(2026, 12, 1))
    assert commitment(seed) == hashlib.sha256(seed).hexdigest()
    assert len(commitment(seed)) == 64
