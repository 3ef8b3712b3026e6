"""Rules from the server's rulesets endpoint (the shape the client expects) and, where a
server has none, from the local engine."""

import pytest

from client.rules import from_engine, from_server

SERVER_ANSWER = {
    "name": "yatzy",
    "title": "Yatzy",
    "dice": 5,
    "turns": 15,
    "boxes": [
        {
            "id": "chance",
            "name": "Sjans",
            "description": "Summen av alle terningene.",
            "example": {"dice": [6, 5, 4, 2, 1], "points": 18},
        }
    ],
    "upper_bonus": {"threshold": 63, "points": 50},
    "max_total": 374,
    "options": [
        {"name": "forced_order", "default": False, "allowed": [True, False], "value": True},
        {"name": "upper_bonus", "default": [63, 50], "allowed": "[threshold, points]"},
    ],
}


def test_the_servers_description_is_shown_as_the_server_words_it():
    rules = from_server(SERVER_ANSWER)
    assert (rules.name, rules.title, rules.dice, rules.turns, rules.max_total) == (
        "yatzy",
        "Yatzy",
        5,
        15,
        374,
    )
    assert rules.upper_bonus == (63, 50) and rules.source == "server"
    box = rules.boxes[0]
    assert (box.id, box.name, box.example, box.points) == ("chance", "Sjans", (6, 5, 4, 2, 1), 18)
    forced, bonus = rules.options
    assert (forced.value, forced.default, forced.allowed) == (True, False, "true, false")
    assert (bonus.value, bonus.allowed) == ([63, 50], "[threshold, points]")


def test_options_may_also_come_as_a_mapping_and_the_bonus_as_a_pair():
    answer = {
        **SERVER_ANSWER,
        "upper_bonus": [84, 100],
        "options": {"forced_order": {"default": False, "allowed": [True, False]}},
    }
    rules = from_server(answer)
    assert rules.upper_bonus == (84, 100)
    assert [(o.name, o.value, o.allowed) for o in rules.options] == [
        ("forced_order", False, "true, false")
    ]


@pytest.mark.parametrize(
    ("name", "boxes", "total"), [("yatzy", 15, 374), ("maxi", 20, 649), ("yahtzee", 13, 1575)]
)
def test_the_engine_describes_every_ruleset_with_its_maximum(name, boxes, total):
    rules = from_engine(name)
    assert (len(rules.boxes), rules.max_total, rules.source) == (boxes, total, "engine")
    # Every example scores in its own box.
    assert all(box.points > 0 for box in rules.boxes)


def test_the_engine_describes_the_options_in_force():
    rules = from_engine("maxi", {"upper_bonus": [75, 50], "extra_yatzy_bonus": 100})
    assert rules.upper_bonus == (75, 50)
    assert {o.name: (o.value, o.default) for o in rules.options}["upper_bonus"] == (
        [75, 50],
        [84, 100],
    )
    assert rules.notes == ["Not counting extra yatzy bonuses."]
