"""The apps depend one way (docs/architecture.md): a module imports only its own layer
and the layers below it, and inside an app the services and selectors import neither
the jobs nor the views that call them."""

import ast
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]

# Lowest first. `config` is the shared base (settings, error shape, Celery app, hooks),
# except `config/urls.py`, which wires every app's URLs and sits on top.
LAYERS = ["yatzy", "config", "accounts", "daily", "games", "leaderboards", "web", "client"]
TOP = {"config/urls.py"}
CALLED_ONLY_FROM_ABOVE = {"tasks", "jobs", "views", "admin", "urls", "pages", "forms"}


def project_imports(path: Path) -> set[str]:
    """Dotted names of the project modules ``path`` imports (whatever the position)."""
    tree = ast.parse(path.read_text(), filename=str(path))
    names = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            names |= {alias.name for alias in node.names}
        elif isinstance(node, ast.ImportFrom) and node.module and node.level == 0:
            names.add(node.module)
            names |= {f"{node.module}.{alias.name}" for alias in node.names}
    return {name for name in names if name.split(".")[0] in LAYERS}


def modules() -> list[Path]:
    return sorted(
        path
        for layer in LAYERS
        if (ROOT / layer).is_dir()
        for path in (ROOT / layer).rglob("*.py")
        if "migrations" not in path.parts
    )


@pytest.mark.parametrize("path", modules(), ids=lambda p: str(p.relative_to(ROOT)))
def test_no_module_imports_a_higher_layer(path):
    relative = path.relative_to(ROOT).as_posix()
    if relative in TOP:
        return
    own = LAYERS.index(relative.split("/")[0])
    higher = sorted(
        name for name in project_imports(path) if LAYERS.index(name.split(".")[0]) > own
    )
    assert not higher, f"{relative} imports a higher layer: {', '.join(higher)}"


@pytest.mark.parametrize(
    "path",
    [p for p in modules() if p.stem in {"services", "selectors"}],
    ids=lambda p: str(p.relative_to(ROOT)),
)
def test_services_and_selectors_never_import_their_callers(path):
    app = path.relative_to(ROOT).parts[0]
    callers = sorted(
        name
        for name in project_imports(path)
        if name.split(".")[0] == app and set(name.split(".")[1:]) & CALLED_ONLY_FROM_ABOVE
    )
    assert not callers, f"{path.relative_to(ROOT)} imports what calls it: {', '.join(callers)}"


@pytest.mark.parametrize(
    "path", sorted((ROOT / "client").rglob("*.py")), ids=lambda p: str(p.relative_to(ROOT))
)
def test_the_terminal_client_imports_the_engine_and_nothing_of_the_server(path):
    # It plays any server over the public API only; it ships alone with the engine.
    server = sorted(
        name for name in project_imports(path) if name.split(".")[0] not in ("client", "yatzy")
    )
    assert not server, f"{path.relative_to(ROOT)} imports the server: {', '.join(server)}"


def test_the_layer_check_sees_a_violation(tmp_path):
    # The check itself can fail: an import of a higher layer is found wherever it hides.
    module = tmp_path / "sample.py"
    module.write_text("def f():\n    from leaderboards.services import board_rebuild\n")
    assert project_imports(module) == {
        "leaderboards.services",
        "leaderboards.services.board_rebuild",
    }
