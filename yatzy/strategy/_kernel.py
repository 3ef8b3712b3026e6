# mypy: allow-untyped-defs
# (numba compiles these for the array types it is called with; annotations would only
# restate them.)
"""The numba kernels: one turn of backward induction for all upper totals of a mask.

A turn is evaluated on one array ``A[keep, column]``.  Its last block (the outcomes)
first holds the value of each final roll: the best box, points plus the value of the
state it leads to.  Then twice: a keep's value is the mean over the six faces of the
keep with one more die (rolling the free dice one at a time gives the same
distribution), and an outcome's value is the best of its sub-keeps, found by taking
maxima upwards through "one die fewer".  Both passes work in place, so the array is
the only buffer; the column axis is innermost so the loops vectorise.
"""

from __future__ import annotations

import numba as nb
import numpy as np

from yatzy.strategy._multisets import FACES

#: Value of an illegal choice; finite so comparisons stay cheap and exact.
ILLEGAL = -1.0e18


@nb.njit(cache=True, nogil=True)
def box_points(
    mask, c, o, yf, scores, joker, upper_face, n_boxes, yatzy_box, has_joker, forced_order
):
    """Points of outcome ``o`` (all dice showing face index ``yf``, or -1) in open box
    ``c``, and whether the box may take it.

    Only Yahtzee's joker rule, once the yahtzee box is filled, changes either: fixed-value
    boxes score in full, and the yahtzee must go to its upper box if open, else to an
    open lower box if any.  Forced order names the box itself, so only the points change.
    """
    if not (has_joker and yf >= 0 and (mask >> yatzy_box) & 1 == 1):
        return scores[c, o], True
    points = joker[c, yf] if upper_face[c] == 0 else scores[c, o]
    if forced_order:
        return points, True
    if (mask >> yf) & 1 == 0:
        return points, c == yf
    lower_open = False
    for b in range(n_boxes):
        if (mask >> b) & 1 == 0 and upper_face[b] == 0:
            lower_open = True
    return points, upper_face[c] == 0 or not lower_open


@nb.njit(cache=True, nogil=True)
def fill_box(
    a, mask, c, uvals, ucols, w, base, base_full, colmap, scores, joker, upper_face, counts,
    first_outcome, yatzy_face, n_boxes, threshold, yatzy_box, extra_points, has_joker,
    forced_order, take_max,
):  # fmt: skip
    """Value of putting each outcome (rows of ``a``) into box ``c``, for each upper total.

    Column j of ``a`` is upper total ``uvals[j]``, which is column ``ucols[j]`` of the
    mask in the layout (a lower box keeps the upper total, hence the column).

    ``w[base + column]`` is the value of the state after filling ``c``; ``base_full`` the
    same when ``c`` is the yatzy box filled with its full score, if the state tracks it.
    With ``take_max`` the values are maxed into ``a`` (the solver), otherwise written
    (the advice, which lists boxes one by one); an illegal choice gets ``ILLEGAL``.
    """
    n_out = counts.shape[0] - first_outcome
    ncol = uvals.shape[0]
    flag = extra_points > 0 and (mask >> n_boxes) & 1 == 1
    face = upper_face[c]
    # The value after the box depends on the outcome only through the points (upper box:
    # the count of its face) or, for the yatzy box, whether it scored: tabulate it once.
    if face > 0:
        um2 = (mask | (1 << c)) & 63
        after = np.empty((counts[-1].sum() + 1, ncol))
        for cnt in range(after.shape[0]):
            for j in range(ncol):
                after[cnt, j] = w[base + colmap[um2, min(uvals[j] + cnt * face, threshold)]]
    else:
        after = np.empty((2, ncol))
        for j in range(ncol):
            after[0, j] = w[base + ucols[j]]
            after[1, j] = w[base_full + ucols[j]]
    for o in range(n_out):
        row = first_outcome + o
        yf = yatzy_face[o]
        points, legal = box_points(
            mask, c, o, yf, scores, joker, upper_face, n_boxes, yatzy_box, has_joker,
            forced_order,
        )  # fmt: skip
        if not legal:
            if not take_max:
                a[row, :] = ILLEGAL
            continue
        gain = points + (extra_points if (flag and yf >= 0) else 0)
        # An upper box scores face x count, so the count picks the row of ``after``.
        full = c == yatzy_box and points > 0
        g = counts[row, face - 1] if face > 0 else int(full)
        if take_max:
            for j in range(ncol):
                v = gain + after[g, j]
                a[row, j] = v if v > a[row, j] else a[row, j]
        else:
            for j in range(ncol):
                a[row, j] = gain + after[g, j]


@nb.njit(cache=True, nogil=True)
def expect(a, add, first_outcome):
    """Keep values from outcome values: each keep is the mean of its one-more-die keeps."""
    ncol = a.shape[1]
    for k in range(first_outcome - 1, -1, -1):
        # Six named rows rather than a loop over faces: the column loop then vectorises
        # (4x faster at 44 columns, measured).
        r0, r1, r2, r3, r4, r5 = add[k, 0], add[k, 1], add[k, 2], add[k, 3], add[k, 4], add[k, 5]
        for j in range(ncol):
            a[k, j] = (a[r0, j] + a[r1, j] + a[r2, j] + a[r3, j] + a[r4, j] + a[r5, j]) / FACES


@nb.njit(cache=True, nogil=True)
def best_subkeep(a, sub):
    """Replace each keep's value by the best value among its sub-keeps (itself included)."""
    ncol = a.shape[1]
    for k in range(1, a.shape[0]):
        for f in range(FACES):
            s = sub[k, f]
            if s >= 0:
                for j in range(ncol):
                    a[k, j] = a[s, j] if a[s, j] > a[k, j] else a[k, j]


@nb.njit(cache=True, nogil=True)
def open_boxes(mask, n_boxes, forced_order):
    """Boxes a player may fill at ``mask``: all open ones, or the next one in forced order."""
    out = np.empty(n_boxes, dtype=np.int64)
    n = 0
    for b in range(n_boxes):
        if (mask >> b) & 1 == 0:
            out[n] = b
            n += 1
            if forced_order:
                break
    return out[:n]


@nb.njit(cache=True, parallel=True)
def solve_layer(
    masks, w, offsets, ncols, colval, colmap, scores, joker, upper_face, counts, add, sub,
    first_outcome, p_roll, yatzy_face, n_boxes, threshold, yatzy_box, extra_points,
    has_joker, forced_order,
):  # fmt: skip
    """Fill ``w`` for every state of ``masks``, given ``w`` of all states one box later."""
    n_keeps = counts.shape[0]
    n_out = n_keeps - first_outcome
    for i in nb.prange(masks.shape[0]):
        mask = masks[i]
        um = mask & 63
        ncol = ncols[um]
        uvals = colval[um, :ncol]
        ucols = np.arange(ncol)
        a = np.empty((n_keeps, ncol))
        a[first_outcome:, :] = ILLEGAL
        for c in open_boxes(mask, n_boxes, forced_order):
            m2 = mask | (1 << c)
            base = offsets[m2]
            base_full = offsets[m2 | (1 << n_boxes)] if extra_points > 0 else base
            fill_box(
                a, mask, c, uvals, ucols, w, base, base_full, colmap, scores, joker, upper_face,
                counts, first_outcome, yatzy_face, n_boxes, threshold, yatzy_box,
                extra_points, has_joker, forced_order, True,
            )  # fmt: skip
        for _ in range(2):
            expect(a, add, first_outcome)
            best_subkeep(a, sub)
        base = offsets[mask]
        for j in range(ncol):
            s = 0.0
            for o in range(n_out):
                s += p_roll[o] * a[first_outcome + o, j]
            w[base + j] = s


@nb.njit(cache=True, nogil=True)
def plan_turn(
    mask, upper, boxes, w, bases, bases_full, colmap, scores, joker, upper_face, counts, add,
    sub, first_outcome, p_roll, yatzy_face, n_boxes, threshold, yatzy_box, extra_points,
    has_joker, forced_order,
):  # fmt: skip
    """Every choice of one turn from a state, for the advice and the bots.

    Returns ``(box_values, before2, before3, start)``: ``box_values[i, o]`` the value of
    putting outcome o into ``boxes[i]``; ``before2[k]`` / ``before3[k]`` the value of
    keeping k and rolling the rest for the 2nd / 3rd time; ``start`` the turn's value.
    ``w[bases[i] + column]`` is the value after filling ``boxes[i]``, as in the solver.
    """
    n_keeps = counts.shape[0]
    uvals = np.full(1, min(upper, threshold))
    ucols = np.full(1, colmap[mask & 63, uvals[0]])
    box_values = np.empty((boxes.shape[0], n_keeps - first_outcome))
    a = np.full((n_keeps, 1), ILLEGAL)
    one = np.empty((n_keeps, 1))
    for i in range(boxes.shape[0]):
        fill_box(
            one, mask, boxes[i], uvals, ucols, w, bases[i], bases_full[i], colmap, scores, joker,
            upper_face, counts, first_outcome, yatzy_face, n_boxes, threshold, yatzy_box,
            extra_points, has_joker, forced_order, False,
        )  # fmt: skip
        for r in range(first_outcome, n_keeps):
            box_values[i, r - first_outcome] = one[r, 0]
            if one[r, 0] > a[r, 0]:
                a[r, 0] = one[r, 0]
    expect(a, add, first_outcome)
    before3 = a[:, 0].copy()
    best_subkeep(a, sub)
    expect(a, add, first_outcome)
    before2 = a[:, 0].copy()
    best_subkeep(a, sub)
    start = 0.0
    for r in range(first_outcome, n_keeps):
        start += p_roll[r - first_outcome] * a[r, 0]
    return box_values, before2, before3, start
