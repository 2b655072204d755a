"""A selection of hall boards: the ``boards=SPEC`` query of ``/ws/live`` and ``GET /`` (which boards a
spectator follows) and ``venue gateway --boards SPEC`` (which boards a gateway shard decides for).

SPEC is a comma list of items, each a board label (a GAME's ``board`` string, e.g. ``3`` or ``12a``)
or a range of board numbers ``LO-HI`` (both ends included, ``LO <= HI``): ``1-20,25,31-40``. Spaces
around items are ignored. A range stands for the labels ``str(n)`` for each n in it, so it selects the
boards numbered in plain decimal (``7``, not ``07``). Labels are 1 to 32 characters of letters,
digits, ``.`` and ``_``; a label containing ``-`` cannot be selected (``-`` makes a range).

``parse(text)`` returns a ``BoardSet`` or raises ``BoardSpecError`` naming the problem: an empty list
or item, a backwards range (``5-2``), a range whose ends are not numbers (``x-y``), a bad label, or
more than ``MAX_BOARDS`` boards in all (ranges counted board by board).

Why: a 1,000-board round has about as many spectators, each watching one game or one page of
boards; sending every spectator every board's deltas costs the dashboard O(spectators) per delta.
"""

from __future__ import annotations

import re

MAX_BOARDS = 2000
MAX_LABEL = 32
_LABEL = re.compile(r"[A-Za-z0-9._]{1,%d}" % MAX_LABEL)
_RANGE = re.compile(r"(\d{1,9})-(\d{1,9})")


class BoardSpecError(ValueError):
    """A ``boards=`` SPEC that cannot be used; ``str(error)`` is a short reason for the client."""


class BoardSet:
    """An immutable, hashable set of board labels (``labels``, a frozenset of str) with its
    canonical SPEC text (``spec``: sorted, ranges merged), so equal selections share caches."""

    __slots__ = ("labels", "spec", "_hash")

    def __init__(self, labels):
        self.labels: frozenset[str] = frozenset(labels)
        self.spec = canonical(self.labels)
        self._hash = hash(self.labels)

    def __contains__(self, board: object) -> bool:
        return board in self.labels

    def __len__(self) -> int:
        return len(self.labels)

    def __iter__(self):
        return iter(sorted(self.labels, key=hall_order))

    def __eq__(self, other: object) -> bool:
        return isinstance(other, BoardSet) and other.labels == self.labels

    def __hash__(self) -> int:
        return self._hash

    def __repr__(self) -> str:
        return f"BoardSet({self.spec!r})"


def hall_order(label: str) -> tuple:
    """Sort key of a board label in hall order: numbered boards by number, then the other labels
    by text (as ``HallView`` orders games)."""
    return (0, int(label), label) if label.isdigit() else (1, 0, label)


def _short(item: str) -> str:
    return item if len(item) <= 20 else item[:17] + "..."


def parse(text: str) -> BoardSet:
    """The ``BoardSet`` of SPEC ``text``; raises ``BoardSpecError`` (a ``ValueError``) when the text
    is empty, has an empty item, a backwards or non-numeric range, a bad label, or selects more
    than ``MAX_BOARDS`` boards."""
    if text is None or not text.strip():
        raise BoardSpecError("boards: empty list")
    labels: set[str] = set()
    for raw in text.split(","):
        item = raw.strip()
        if not item:
            raise BoardSpecError("boards: empty item")
        if "-" in item:
            m = _RANGE.fullmatch(item)
            if m is None:
                raise BoardSpecError(f"boards: {_short(item)!r} is not a range of board numbers (LO-HI)")
            lo, hi = int(m.group(1)), int(m.group(2))
            if lo > hi:
                raise BoardSpecError(f"boards: range {lo}-{hi} is backwards")
            if hi - lo + 1 + len(labels) > MAX_BOARDS:
                raise BoardSpecError(f"boards: more than {MAX_BOARDS} boards")
            labels.update(str(n) for n in range(lo, hi + 1))
        else:
            if _LABEL.fullmatch(item) is None:
                raise BoardSpecError(f"boards: {_short(item)!r} is not a board label")
            labels.add(item)
        if len(labels) > MAX_BOARDS:
            raise BoardSpecError(f"boards: more than {MAX_BOARDS} boards")
    return BoardSet(labels)


def canonical(labels) -> str:
    """The SPEC text of ``labels``: numbers in order with runs of 3+ merged into ranges, then the
    other labels sorted (``{"3","1","2","5","b"}`` -> ``"1-3,5,b"``); ``parse(canonical(x))`` gives x."""
    nums = sorted({int(b) for b in labels if b.isdigit() and str(int(b)) == b})
    others = sorted(b for b in labels if not (b.isdigit() and str(int(b)) == b))
    parts: list[str] = []
    i = 0
    while i < len(nums):
        j = i
        while j + 1 < len(nums) and nums[j + 1] == nums[j] + 1:
            j += 1
        if j - i >= 2:
            parts.append(f"{nums[i]}-{nums[j]}")
        else:
            parts.extend(str(n) for n in nums[i:j + 1])
        i = j + 1
    return ",".join(parts + others)


def pages(labels: list[str], size: int) -> list[BoardSet]:
    """``labels`` (in hall order) cut into pages of ``size`` boards each; raises ValueError when
    ``size < 1``."""
    if size < 1:
        raise ValueError(f"page size must be >= 1, not {size}")
    return [BoardSet(labels[i:i + size]) for i in range(0, len(labels), size)]
