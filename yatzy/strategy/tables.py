"""Exact strategy tables: building, storing and loading them.

A table holds, for every state between two turns (boxes filled, upper total, and for
rulesets with an extra-yatzy bonus whether the yatzy box holds its full score), the
expected points still to come under optimal play, upper bonus included.  It is built
by backward induction over the number of filled boxes and stored as one file::

    magic "YZTABLE1" | u32 header length | JSON header | padding to 4096 | float64 values

The header names the format version, the ruleset and its options and the SHA-256 of
the values, so a stale, foreign or damaged file is never trusted.  While building,
values go to ``<file>.partial`` and finished layers are recorded (with their digests)
in ``<file>.progress``; an interrupted build resumes from the last finished layer, and
the finished file appears only through an atomic rename.  A lock file serialises
builds of the same table by several processes.

>>> import yatzy
>>> table = load_table(yatzy.get_ruleset("yatzy"), build=True, progress=False)
>>> round(table.start_value, 7)
248.4399894
"""

from __future__ import annotations

import fcntl
import hashlib
import json
import os
import struct
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import numpy as np
import numpy.typing as npt
from tqdm import tqdm

from yatzy.strategy import _kernel
from yatzy.strategy._layout import Layout
from yatzy.strategy._rules import Rules, RulesetLike, rules_of

FORMAT_VERSION = 1
MAGIC = b"YZTABLE1"
DATA_OFFSET = 4096
#: Masks per kernel call: small enough for a lively progress bar, large enough that the
#: call overhead does not show.
CHUNK = 4096
ENV_DIR = "YATZY_TABLES_DIR"


class TableMissing(LookupError):
    """No valid table file exists for this ruleset (build it with ``solve``)."""

    code = "table_missing"


def tables_dir() -> Path:
    """Directory of table files: ``$YATZY_TABLES_DIR``, else ``var/tables`` in the repo."""
    env = os.environ.get(ENV_DIR)
    if env:
        return Path(env)
    return Path(__file__).resolve().parents[2] / "var" / "tables"


@dataclass(frozen=True)
class Table:
    """A loaded strategy table: ``values[layout.index(...)]`` is a state's future value.

    ``values`` is a read-only memory map, so loading costs no copy and several
    processes share the pages.
    """

    rules: Rules
    layout: Layout
    values: npt.NDArray[np.float64]
    path: Path

    @property
    def start_value(self) -> float:
        """Expected final score of a new game under optimal play."""
        return float(self.values[self.layout.index(0, 0, self.rules.threshold)])

    def value(self, mask: int, upper_total: int) -> float:
        """Expected points still to come from a state between turns."""
        return float(self.values[self.layout.index(mask, upper_total, self.rules.threshold)])


def table_path(rules: Rules, directory: Path | None = None) -> Path:
    """File name of a ruleset's table: readable name plus a hash of the options."""
    digest = hashlib.sha256(rules.key.encode()).hexdigest()[:10]
    forced = "-forced" if rules.forced_order else ""
    return (directory or tables_dir()) / f"{rules.name}{forced}-{digest}.v{FORMAT_VERSION}.table"


Progress = Callable[[int, int], None]
"""Called during a build with ``(states done, states in all)``."""


def solve(
    rs: RulesetLike | Rules,
    *,
    directory: Path | None = None,
    progress: bool = True,
    on_progress: Progress | None = None,
) -> Path:
    """Build the table of ``rs`` unless a valid one exists; return its path.

    Resumes an interrupted build from its last finished layer. ``progress`` shows a
    bar on the terminal; ``on_progress`` is called as states are solved (a service
    records it for operators).
    """
    rules = rs if isinstance(rs, Rules) else rules_of(rs)
    path = table_path(rules, directory)
    path.parent.mkdir(parents=True, exist_ok=True)
    # Two processes asked for the same table at once: the second waits for the first's
    # file rather than writing the same partial file beside it.
    with open(path.with_name(path.name + ".lock"), "w") as lock:
        fcntl.flock(lock, fcntl.LOCK_EX)
        if _read_header(path, rules, verify=True) is None:
            _build(rules, path, progress, on_progress)
    return path


def _build(rules: Rules, path: Path, progress: bool, on_progress: Progress | None) -> None:
    layout = Layout.of(rules)
    partial = path.with_name(path.name + ".partial")
    journal = path.with_name(path.name + ".progress")
    done = _resume(partial, journal, rules, layout)
    if done is None:
        _write_file(partial, _header(rules, layout.size), layout.size)
        done = {}
    values = np.memmap(partial, dtype="<f8", mode="r+", offset=DATA_OFFSET, shape=(layout.size,))
    args = _kernel_args(rules, layout)
    n_boxes = rules.n_boxes
    todo = [k for k in range(n_boxes, -1, -1) if k not in done]
    states = {k: int(layout.ncols[layout.layers[k] & 63].sum()) for k in range(n_boxes + 1)}
    total = sum(states.values())
    solved = total - sum(states[k] for k in todo)
    label = f"solve {rules.name}{' forced' if rules.forced_order else ''}"
    with tqdm(
        total=total, initial=solved, unit="state", unit_scale=True, desc=label, disable=not progress
    ) as bar:

        def advance(count: int) -> None:
            nonlocal solved
            solved += count
            bar.update(count)
            if on_progress is not None:
                on_progress(solved, total)

        for k in todo:
            masks = layout.layers[k]
            if k == n_boxes:
                _terminal(values, masks, rules, layout)
            else:
                for chunk in _chunks(masks):
                    _kernel.solve_layer(chunk, values, *args)
                    advance(int(layout.ncols[chunk & 63].sum()))
            values.flush()
            done[k] = _layer_digest(values, masks, layout)
            _atomic_write_text(journal, json.dumps({"key": rules.key, "done": done}))
            if k == n_boxes:
                advance(states[k])
    start = float(values[layout.index(0, 0, rules.threshold)])
    del values
    header = _header(rules, layout.size)
    header.update(start_value=start, sha256=_file_digest(partial))
    _write_header(partial, header)
    os.replace(partial, path)
    journal.unlink()
    _LOADED.pop(path, None)


def load_table(
    rs: RulesetLike | Rules,
    *,
    directory: Path | None = None,
    build: bool = False,
    progress: bool = False,
) -> Table:
    """Memory-map the table of ``rs``, building it first if ``build`` is true.

    Raises ``TableMissing`` if there is no valid file (and ``build`` is false).  Tables
    are cached per process; the first load of a file checks its digest.
    """
    rules = rs if isinstance(rs, Rules) else rules_of(rs)
    path = table_path(rules, directory)
    if build:
        solve(rules, directory=directory, progress=progress)
    table = _LOADED.get(path)
    if table is None or table.rules.key != rules.key:
        if _read_header(path, rules, verify=True) is None:
            raise TableMissing(f"no valid table at {path}; build it with: {_solve_command(rules)}")
        layout = Layout.of(rules)
        values = np.memmap(path, dtype="<f8", mode="r", offset=DATA_OFFSET, shape=(layout.size,))
        table = _LOADED[path] = Table(rules, layout, values, path)
    return table


def table_exists(rs: RulesetLike | Rules, *, directory: Path | None = None) -> bool:
    """Whether a finished table file for ``rs`` is on disk (header and size checked;
    the digest is checked when it is loaded)."""
    rules = rs if isinstance(rs, Rules) else rules_of(rs)
    return _read_header(table_path(rules, directory), rules, verify=False) is not None


#: Loaded tables by path: a process maps each file once and checks its digest once.
_LOADED: dict[Path, Table] = {}


def _solve_command(rules: Rules) -> str:
    forced = " --forced-order" if rules.forced_order else ""
    return f"python -m yatzy.strategy solve {rules.name}{forced}"


def _kernel_args(rules: Rules, layout: Layout) -> tuple[Any, ...]:
    ms = rules.ms
    return (
        layout.offsets, layout.ncols, layout.colval, layout.colmap, rules.scores, rules.joker,
        rules.upper_face, ms.counts, ms.add, ms.sub, ms.first_outcome, ms.p_roll,
        rules.yatzy_face, rules.n_boxes, rules.threshold, rules.yatzy_box,
        rules.extra_points, rules.has_joker, rules.forced_order,
    )  # fmt: skip


def _terminal(values: npt.NDArray[np.float64], masks: Any, rules: Rules, layout: Layout) -> None:
    for mask in masks:
        um = int(mask) & 63
        base = int(layout.offsets[mask])
        for j in range(int(layout.ncols[um])):
            values[base + j] = rules.bonus if layout.colval[um, j] >= rules.threshold else 0.0


def _chunks(masks: npt.NDArray[np.int64]) -> Iterator[npt.NDArray[np.int64]]:
    for i in range(0, len(masks), CHUNK):
        yield masks[i : i + CHUNK]


def _layer_digest(values: npt.NDArray[np.float64], masks: Any, layout: Layout) -> str:
    h = hashlib.sha256()
    for chunk in _chunks(masks):
        starts = layout.offsets[chunk]
        lengths = layout.ncols[chunk & 63]
        idx = np.repeat(starts, lengths) + _ranges(lengths)
        h.update(np.ascontiguousarray(values[idx]).tobytes())
    return h.hexdigest()


def _ranges(lengths: npt.NDArray[np.int64]) -> npt.NDArray[np.int64]:
    """Concatenated aranges: [0..l0), [0..l1), ..."""
    ends = np.cumsum(lengths)
    return np.arange(int(ends[-1])) - np.repeat(ends - lengths, lengths)


def _resume(partial: Path, journal: Path, rules: Rules, layout: Layout) -> dict[int, str] | None:
    """Finished layers of an interrupted build, or None to start afresh."""
    try:
        state = json.loads(journal.read_text())
        header = _parse_header(partial)
    except (OSError, ValueError):
        return None
    if state.get("key") != rules.key or header != _header(rules, layout.size):
        return None
    done = {int(k): v for k, v in state["done"].items()}
    values = np.memmap(partial, dtype="<f8", mode="r", offset=DATA_OFFSET, shape=(layout.size,))
    for k, digest in done.items():
        if _layer_digest(values, layout.layers[k], layout) != digest:
            return None
    # Only a contiguous run of layers from the end is usable: each needs the next one.
    n = rules.n_boxes
    usable: dict[int, str] = {}
    while n in done:
        usable[n] = done[n]
        n -= 1
    return usable


def _header(rules: Rules, size: int) -> dict[str, Any]:
    return {
        "format": FORMAT_VERSION,
        "key": rules.key,
        "categories": list(rules.categories),
        "states": size,
    }


def _write_file(path: Path, header: dict[str, Any], size: int) -> None:
    with open(path, "wb") as f:
        f.truncate(DATA_OFFSET + 8 * size)
    _write_header(path, header)


def _write_header(path: Path, header: dict[str, Any]) -> None:
    blob = json.dumps(header, sort_keys=True).encode()
    if len(MAGIC) + 4 + len(blob) > DATA_OFFSET:
        raise ValueError("table header too long")
    with open(path, "r+b") as f:
        f.write(MAGIC + struct.pack("<I", len(blob)) + blob)
        f.write(b"\0" * (DATA_OFFSET - f.tell()))
        f.flush()
        os.fsync(f.fileno())


def _parse_header(path: Path) -> dict[str, Any]:
    with open(path, "rb") as f:
        head = f.read(DATA_OFFSET)
    if len(head) < DATA_OFFSET or not head.startswith(MAGIC):
        raise ValueError(f"{path} is not a table file")
    (length,) = struct.unpack_from("<I", head, len(MAGIC))
    header: dict[str, Any] = json.loads(head[len(MAGIC) + 4 : len(MAGIC) + 4 + length])
    return header


def _read_header(path: Path, rules: Rules, *, verify: bool) -> dict[str, Any] | None:
    """The header of a valid, finished table for ``rules``, else None."""
    try:
        header = _parse_header(path)
        size = path.stat().st_size
    except (OSError, ValueError):
        return None
    expected = _header(rules, Layout.of(rules).size)
    if any(header.get(k) != v for k, v in expected.items()):
        return None
    if size != DATA_OFFSET + 8 * header["states"] or "sha256" not in header:
        return None
    if verify and _file_digest(path) != header["sha256"]:
        return None
    return header


def _file_digest(path: Path) -> str:
    h = hashlib.sha256()
    with open(path, "rb") as f:
        f.seek(DATA_OFFSET)
        while block := f.read(1 << 22):
            h.update(block)
    return h.hexdigest()


def _atomic_write_text(path: Path, text: str) -> None:
    tmp = path.with_name(path.name + ".tmp")
    tmp.write_text(text)
    os.replace(tmp, path)
