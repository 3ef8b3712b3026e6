"""The one place where an error becomes text in the reader's language.

Errors carry a stable ``code`` and the arguments of their message; the text is made
here, in the language active when the answer is built (``config.i18n`` chooses it):

- an engine error (:class:`yatzy.YatzyError`, no Django, English only) is worded from
  its ``code`` (and ``params["reason"]`` where one code has several messages) by the
  table :data:`ENGINE_MESSAGES` of gettext templates, filled with its ``params``;
- a service error (:class:`config.api_errors.ServiceError`) carries its own template,
  marked with ``gettext_lazy``/``ngettext_lazy`` where it is raised, and its params.

Box ids in a message are shown by their names where a higher layer registered a label
for them (:func:`label_register`; ``games`` does, with its box names), else as the id.

>>> import yatzy
>>> from django.utils import translation
>>> error = yatzy.InvalidHoldError("hold lists distinct positions", reason="positions", last=5)
>>> with translation.override("nl"):
...     error.code, engine_message(error)
('invalid_hold', 'Vasthouden noemt verschillende posities van dobbelstenen, van 0 tot 5.')
"""

from __future__ import annotations

import json
from collections.abc import Callable, Mapping
from typing import Any

from django.utils.functional import Promise
from django.utils.translation import gettext_lazy as _
from django.utils.translation import gettext_noop, ngettext_lazy

import yatzy

# Message ids are English; the arguments are named, so a translation can reorder them.
ENGINE_MESSAGES: dict[str, Promise] = {
    "yatzy_error": _("The rules do not allow this."),
    "ruleset_error": _("These rules cannot be used."),
    "unknown_ruleset": _("There is no ruleset %(name)s (the rulesets are %(known)s)."),
    "unknown_option": _("There is no option %(option)s (%(ruleset)s takes %(accepted)s)."),
    "option_not_applicable": _(
        "The option %(option)s does not apply to %(ruleset)s (it takes %(accepted)s)."
    ),
    "invalid_option": _("The option %(option)s cannot be %(value)s."),
    "invalid_option.flag": _("The option %(option)s must be true or false, not %(value)s."),
    "invalid_option.points": _(
        "The option %(option)s must be a whole number from 0 to %(max)s, not %(value)s."
    ),
    "invalid_option.choice": _("The option %(option)s must be one of %(choices)s, not %(value)s."),
    "invalid_option.repeated": _("Give the option %(option)s once, not %(count)d times."),
    "invalid_option.pair": _(
        "The option %(option)s must be two whole numbers from 0 to %(max)s, "
        "[threshold, points], not %(value)s."
    ),
    "invalid_dice": ngettext_lazy(
        "Score %(count)d die, a whole number from 1 to 6.",
        "Score %(count)d dice, whole numbers from 1 to 6.",
        "count",
    ),
    "invalid_seed": _("A game seed is %(size)d bytes."),
    "invalid_snapshot": _("The stored game could not be read."),
    "illegal_action": _("This move is not allowed."),
    "invalid_action": _("An action is a roll with the dice to hold, or a box to fill."),
    "game_over": _("The game is over: every box is filled."),
    "no_roll_yet": _("Roll the dice before you fill a box."),
    "no_rolls_left": _("No rolls are left in this turn: fill a box."),
    "invalid_hold": _("These dice cannot be held."),
    "invalid_hold.positions": _("Hold lists different die positions, from 0 to %(last)d."),
    "invalid_hold.first_roll": _("The first roll of a turn throws all the dice: hold none."),
    "unknown_category": _("%(category)s is not a box of %(ruleset)s."),
    "category_used": _("The box %(category)s is already filled."),
    "out_of_order": _("With forced order the next box is %(boxes)s, not %(category)s."),
    "joker_rule": _("The joker rule sends this extra Yahtzee to %(boxes)s."),
}

# DRF's and Django's own messages that the API and the pages answer with and that their
# catalogues leave untranslated in some of the 12 languages (Danish, Italian, Swedish,
# Norwegian, Finnish, Dutch, Polish, Japanese): a list too long, a value that is not a
# string, the wait of a throttled request; a password too short (Django 5.2 words it with
# ``%d``, which its Italian, Dutch and Norwegian catalogues have only in an earlier wording
# and its Finnish one leaves empty). DRF and Django look each up by this id, and the
# project's catalogues (LOCALE_PATHS) are read before theirs, so translating them there
# is enough; marked here so that ``make messages`` extracts them and keeps them.
FRAMEWORK_MESSAGES = (
    gettext_noop("Ensure this field has no more than {max_length} elements."),
    gettext_noop("Ensure this field has at least {min_length} elements."),
    gettext_noop("Not a valid string."),
    gettext_noop("Must be a valid boolean."),
    gettext_noop("Invalid input."),
    gettext_noop("Expected available in {wait} second."),
    gettext_noop("Expected available in {wait} seconds."),
    ngettext_lazy(  # django.contrib.auth.password_validation.MinimumLengthValidator
        "This password is too short. It must contain at least %d character.",
        "This password is too short. It must contain at least %d characters.",
        0,
    ),
)

# What a client sent can be anything: a message shows at most this much of it.
_MAX_SHOWN = 60

_labels: dict[str, Callable[[str], str]] = {}


def label_register(param: str, label: Callable[[str], str]) -> None:
    """Show the values of ``param`` (and of each item of a list under it) through
    ``label``, e.g. box ids by their names in the active language. Called by a higher
    layer's ``AppConfig.ready()``."""
    _labels[param] = label


def _shown(name: str, value: Any) -> str:
    if name == "value":  # an option value as the client sent it: as JSON
        text = json.dumps(value, ensure_ascii=False, default=repr)
    elif isinstance(value, list | tuple):
        return ", ".join(_shown(name, item) for item in value)
    elif isinstance(value, str):
        label = _labels.get(name)
        text = value if label is None else label(value)
    else:
        text = str(value)
    return text if len(text) <= _MAX_SHOWN else text[: _MAX_SHOWN - 1] + "…"


def render(template: str | Promise, params: Mapping[str, Any] | None = None) -> str:
    """``template`` in the active language with ``params`` filled in (lists joined,
    long client input cut, registered labels applied); no params: the template as is.

    >>> render("Hold lists positions from 0 to %(last)d.", {"last": 5})
    'Hold lists positions from 0 to 5.'
    """
    if not params:
        return str(template)
    shown = {
        key: value if isinstance(value, int | float) else _shown(key, value)
        for key, value in params.items()
    }
    return str(template % shown)


def engine_message(error: yatzy.YatzyError) -> str:
    """The engine error's message in the active language, from its code and params;
    an unknown code keeps the engine's English message."""
    reason = error.params.get("reason")
    template = ENGINE_MESSAGES.get(f"{error.code}.{reason}") or ENGINE_MESSAGES.get(error.code)
    if template is None:
        return error.message
    try:
        return render(template, error.params)
    except (KeyError, TypeError, ValueError):
        # A template whose params the engine no longer sends: the generic wording.
        return str(ENGINE_MESSAGES["yatzy_error"])
