"""What a player may call themselves: the one place for names (usernames, display names,
a party's seat names).

- A username is stored in NFKC (full-width letters are plain ones) and compared by its
  **key**, NFKC + case folding (:func:`name_key`, stored with a unique constraint),
  the same on every database: SQLite's ``lower()`` folds ASCII only.
- Any name loses its control characters, its format characters (Unicode category Cf:
  zero-width spaces and joiners, the soft hyphen, bidirectional embeddings, overrides
  and isolates that make "evil\\u202egnp.exe" render in another order) and the other
  default-ignorable code points (the Hangul fillers U+115F, U+1160, U+3164 and U+FFA0,
  variation selectors, the grapheme joiner), all of which show nothing on their own.
- What is left must hold a **visible** character: a letter, digit, punctuation mark or
  symbol. Spaces (every ``Z*`` separator), the braille blank U+2800 and combining marks
  alone are not visible; a name of nothing else is refused, so "Bob\\u200b" is "Bob"
  and "\\u3164" is no name at all.
- A line or paragraph separator (U+2028, U+2029) is a space: a name is one line.
"""

from __future__ import annotations

import re
import unicodedata

from django.core.exceptions import ValidationError
from django.utils.translation import gettext_lazy as _

# Default_Ignorable_Code_Point (Unicode's DerivedCoreProperties.txt) outside category Cf,
# which is removed by its category: what renders as nothing though it is a "letter" or
# a mark (the Hangul fillers, variation selectors, CGJ, Khmer inherent vowels).
_IGNORABLE = re.compile(
    "[\u034f\u115f\u1160\u17b4\u17b5\u180b-\u180f\u3164\ufe00-\ufe0f\uffa0\ufff0-\ufff8"
    "\U0001bca0-\U0001bca3\U0001d173-\U0001d17a\U000e0000-\U000e0fff]"
)
_USERNAME = re.compile(r"[\w.@+-]+")
# Shown as blank space though neither whitespace nor a separator to Unicode.
_BLANK = "\u2800"
# Nonspacing marks kept on one letter (name_clean).
MARKS_PER_LETTER = 3

INVISIBLE_NAME = _("A name needs at least one visible character (a letter, digit or sign).")
USERNAME_CHARACTERS = _("Letters, digits and . @ + - _ only.")
USERNAME_NEEDS_LETTER = _("A username needs at least one letter or digit.")


def username_normalize(username: str) -> str:
    """The form a username is stored in (NFKC, as Django normalises it): full-width
    letters are plain ones.

    >>> username_normalize("\\uff21lice")
    'Alice'
    """
    return unicodedata.normalize("NFKC", username)


def name_key(name: str) -> str:
    """What names are compared by (usernames at log-in, registration and on player
    pages; a party's seat names): NFKC with full case folding, the same on every
    database.

    >>> name_key("Ärne") == name_key("ärne") == name_key("A\\u0308RNE")
    True
    >>> name_key("Straße") == name_key("STRASSE")
    True
    """
    return unicodedata.normalize("NFKC", unicodedata.normalize("NFKC", name).casefold())


def _shown(char: str) -> bool:
    return (
        char != _BLANK and unicodedata.category(char)[0] not in "ZCM" and not _IGNORABLE.match(char)
    )


def name_visible(name: str) -> bool:
    """Whether ``name`` shows anything: a character that is not a space, a blank, a
    control or format character or a combining mark alone.

    >>> name_visible("Bo"), name_visible(" \\u2800\\u3000"), name_visible("\\u0301")
    (True, False, False)
    """
    return any(_shown(char) for char in name)


def name_clean(name: str) -> str:
    """``name`` in NFC without control, format or other default-ignorable characters,
    trimmed of blanks at both ends (a blank inside stays).

    >>> name_clean("  Ada\\u202e Love\\u00adlace\\u200b\\n ")
    'Ada Lovelace'
    >>> name_clean("\\u2800Bob\\u3164")
    'Bob'

    A line or paragraph separator (U+2028, U+2029) is a space: a name is one line on a
    board, in a terminal and in the admin.

    >>> name_clean("Ada\\u2028Lovelace\\u2029")
    'Ada Lovelace'

    At most ``MARKS_PER_LETTER`` nonspacing marks follow one letter (Vietnamese, Thai or
    Hebrew with its points need two or three):

    >>> len(name_clean("Z" + "\\u0351" * 39))
    4
    """
    text = unicodedata.normalize("NFC", name)
    kept, marks = [], 0
    for char in text:
        category = unicodedata.category(char)
        if category in ("Cc", "Cf", "Cs", "Co"):
            continue
        if category in ("Zl", "Zp"):
            char = " "
        # A tower of combining marks on one letter is drawn over the lines above the
        # name (other players' names on a board): a few are kept, as writing needs.
        marks = marks + 1 if category in ("Mn", "Me") else 0
        if marks <= MARKS_PER_LETTER:
            kept.append(char)
    return _IGNORABLE.sub("", "".join(kept)).strip().strip(_BLANK).strip()


def display_name_clean(name: str) -> str:
    """A display name as stored and shown: :func:`name_clean`; blank (nothing but
    spaces) means "show the username". A name that held something but shows nothing
    raises ``ValidationError`` (code ``invisible_name``).

    >>> display_name_clean("  Ada\\u202e Lovelace\\n "), display_name_clean("  ")
    ('Ada Lovelace', '')
    >>> display_name_clean("\\u200b")  # doctest: +ELLIPSIS
    Traceback (most recent call last):
    ...
    django.core.exceptions.ValidationError: ['A name needs at least one visible character...']
    """
    cleaned = name_clean(name)
    if name.strip() and not name_visible(cleaned):
        raise ValidationError(INVISIBLE_NAME, code="invisible_name")
    return cleaned


def username_check(username: str) -> None:
    """Refuse (``ValidationError``, code ``invalid``) a username with anything but
    letters, digits and ``. @ + - _``, each of them visible: "bob\\u3164" (a Hangul
    filler is a letter to Unicode) would pass for "bob" on every board.

    >>> username_check("Ärne_2")
    >>> username_check("bob\\u3164")
    Traceback (most recent call last):
    ...
    django.core.exceptions.ValidationError: ['Letters, digits and . @ + - _ only.']

    A name of signs alone is refused too: ``..`` is a player whose page's address
    (``/players/../``) every browser reads as the site's root.

    >>> username_check("..")
    Traceback (most recent call last):
    ...
    django.core.exceptions.ValidationError: ['A username needs at least one letter or digit.']
    """
    if not _USERNAME.fullmatch(username) or not all(_shown(char) for char in username):
        raise ValidationError(USERNAME_CHARACTERS, code="invalid")
    if not any(char.isalnum() for char in username):
        raise ValidationError(USERNAME_NEEDS_LETTER, code="invalid")


def name_free(base: str, number: int, taken: set[str], max_length: int) -> str:
    """A name made from ``base`` and ``number`` whose key is not in ``taken``, at most
    ``max_length`` characters: ``base-number``, else ``base-number-2``, ``-3``, … (for
    the migrations that rename a player whose name an older one has; a plain
    ``base-number`` can be a later player's name as it stands).

    >>> name_free("Bob", 7, {"bob-7", "bob-7-2"}, 40)
    'Bob-7-3'
    >>> name_free("x" * 45, 12, set(), 40) == "x" * 37 + "-12"
    True
    """
    attempt = 1
    while True:
        suffix = f"-{number}" if attempt == 1 else f"-{number}-{attempt}"
        name = base[: max_length - len(suffix)] + suffix
        if name_key(name) not in taken:
            return name
        attempt += 1
