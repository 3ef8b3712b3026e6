"""What a player may call themselves: usernames compared as people read them, display
names without invisible characters that could disguise or reorder the text."""

from __future__ import annotations

import re
import unicodedata

# Control characters, and the bidirectional embeddings, overrides, isolates and marks
# that make a name render in another order than it is written ("evil\u202egnp.exe").
_INVISIBLE = re.compile(r"[\x00-\x1f\x7f-\x9f\u061c\u200e\u200f\u202a-\u202e\u2066-\u2069]")


def username_normalize(username: str) -> str:
    """The form a username is stored and compared in (NFKC, as Django normalises it):
    full-width letters are plain ones. Comparisons are case-insensitive on top.

    >>> username_normalize("\uff41\uff4c\uff49\uff43\uff45")
    'alice'
    """
    return unicodedata.normalize("NFKC", username)


def display_name_clean(name: str) -> str:
    """A display name without control or bidi-override characters, trimmed; blank means
    "show the username".

    >>> display_name_clean("  Ada\\u202e Lovelace\\n ")
    'Ada Lovelace'
    """
    return _INVISIBLE.sub("", unicodedata.normalize("NFC", name)).strip()
