"""The docs name only commands and files that exist: every `make` target, `manage.py`
command, `python -m` module and repository path written as code in README.md and
docs/*.md is checked against the tree."""

import importlib.util
import re
from pathlib import Path

import pytest
from django.core.management import get_commands

ROOT = Path(__file__).resolve().parents[1]
DOCS = [ROOT / "README.md", *sorted((ROOT / "docs").glob("*.md"))]

_CODE = re.compile(r"```.*?```|`[^`\n]+`", re.DOTALL)
_MAKE = re.compile(r"\bmake ([a-z][a-z-]*)")
_MANAGE = re.compile(r"manage\.py ([a-z_]+)")
_MODULE = re.compile(r"python -m ([a-z_][a-z_.]*)")
_PATH = re.compile(r"\b((?:[a-z_]+/)+[A-Za-z_.-]+\.(?:py|md|yml|toml|lua|conf\.py))\b")


def code_of(path: Path) -> str:
    return "\n".join(_CODE.findall(path.read_text()))


def make_targets() -> set[str]:
    text = (ROOT / "Makefile").read_text()
    return set(re.findall(r"^([a-z][a-z-]*):", text, re.MULTILINE))


def named(pattern: re.Pattern[str]) -> list[tuple[str, str]]:
    return sorted(
        {
            (doc.relative_to(ROOT).as_posix(), m)
            for doc in DOCS
            for m in pattern.findall(code_of(doc))
        }
    )


@pytest.mark.parametrize(("doc", "target"), named(_MAKE))
def test_make_targets_named_in_the_docs_exist(doc, target):
    assert target in make_targets(), f"{doc} names `make {target}`, which the Makefile lacks"


@pytest.mark.parametrize(("doc", "command"), named(_MANAGE))
def test_management_commands_named_in_the_docs_exist(doc, command):
    assert command in get_commands(), f"{doc} names `manage.py {command}`, which does not exist"


@pytest.mark.parametrize(("doc", "module"), named(_MODULE))
def test_modules_named_in_the_docs_exist(doc, module):
    assert importlib.util.find_spec(module) is not None, f"{doc} names `python -m {module}`"


@pytest.mark.parametrize(("doc", "path"), named(_PATH))
def test_repository_paths_named_in_the_docs_exist(doc, path):
    assert (ROOT / path).exists(), f"{doc} names `{path}`, which is not in the repository"


def test_the_docs_check_finds_what_it_looks_for():
    # The checks cannot pass vacuously: the README's own commands are found.
    assert ("README.md", "test") in named(_MAKE)
    assert any(command == "solve" for _, command in named(_MANAGE))


def test_the_testing_page_names_the_coverage_floor_that_the_configuration_holds():
    import tomllib

    floor = tomllib.loads((ROOT / "pyproject.toml").read_text())["tool"]["coverage"]["report"][
        "fail_under"
    ]
    named = re.findall(r"`fail_under = (\d+)`", (ROOT / "docs" / "testing.md").read_text())
    assert named == [str(floor)]
