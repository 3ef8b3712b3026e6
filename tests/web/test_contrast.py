"""The stylesheet's colour pairs meet WCAG AA for text (4.5:1), in both die themes."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

CSS = (Path(__file__).resolve().parents[2] / "web/static/web/site.css").read_text()


def variables(block: str) -> dict[str, str]:
    body = re.search(re.escape(block) + r"\s*\{(.*?)\}", CSS, re.S)
    assert body is not None, block
    return dict(re.findall(r"--([\w-]+):\s*(#[0-9a-fA-F]{6})", body.group(1)))


def luminance(colour: str) -> float:
    channels = [int(colour[i : i + 2], 16) / 255 for i in (1, 3, 5)]
    linear = [c / 12.92 if c <= 0.03928 else ((c + 0.055) / 1.055) ** 2.4 for c in channels]
    return 0.2126 * linear[0] + 0.7152 * linear[1] + 0.0722 * linear[2]


def contrast(a: str, b: str) -> float:
    high, low = sorted([luminance(a), luminance(b)], reverse=True)
    return (high + 0.05) / (low + 0.05)


ROOT = variables(":root")
CHRISTMAS = {**ROOT, **variables(".theme-christmas")}
WHITE = "#ffffff"

PAIRS = [
    ("ink", "paper"),
    ("ink", "wash"),
    ("ink", "me"),
    ("muted", "paper"),
    ("muted", "wash"),
    ("accent", "paper"),
    ("accent", "wash"),
    ("good-ink", "good-wash"),
    ("good-ink", "paper"),
    ("ink", "good-wash"),
    ("bad-ink", "bad-wash"),
    ("bad-ink", "paper"),
]


@pytest.mark.parametrize(("text", "background"), PAIRS)
def test_text_colours_meet_aa(text, background):
    assert contrast(ROOT[text], ROOT[background]) >= 4.5


def test_white_on_the_accent_and_pips_on_both_dice_meet_aa():
    assert contrast(WHITE, ROOT["accent"]) >= 4.5  # the buttons
    for theme in (ROOT, CHRISTMAS):
        assert contrast(theme["die-pip"], theme["die-body"]) >= 4.5
        assert contrast(theme["die-pip"], theme["die-held"]) >= 4.5
