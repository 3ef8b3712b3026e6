"""Friend-challenge codes: 8 characters of Crockford base32 from a CSPRNG (40 bits), read
as people type them: any case, hyphens and spaces ignored, ``O`` as 0 and ``I``/``L``
as 1 (Crockford's decoding)."""

from __future__ import annotations

import secrets

ALPHABET = "0123456789ABCDEFGHJKMNPQRSTVWXYZ"
LENGTH = 8
_READ_AS = str.maketrans({"O": "0", "I": "1", "L": "1", "-": None, " ": None})


def code_new() -> str:
    """A fresh random code.

    >>> code = code_new()
    >>> len(code), set(code) <= set(ALPHABET)
    (8, True)
    """
    return "".join(secrets.choice(ALPHABET) for _ in range(LENGTH))


def code_read(text: str) -> str | None:
    """The code ``text`` spells, or ``None`` if it spells none.

    >>> code_read("7kq3-0ilo"), code_read("7KQ30110"), code_read("UUUUUUUU")
    ('7KQ30110', '7KQ30110', None)
    """
    code = text.upper().translate(_READ_AS)
    if len(code) != LENGTH or not set(code) <= set(ALPHABET):
        return None
    return code
