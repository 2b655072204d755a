"""Every test module's file name is unique across tests/ (pytest imports them by basename: two
``test_x.py`` in two folders stop the whole run at collection, "import file mismatch"; CI found it
when tests/browser and tests/unit both had test_engine_evaluation.py)."""

from __future__ import annotations

from collections import Counter
from pathlib import Path

TESTS = Path(__file__).resolve().parents[1]


def test_no_two_test_modules_share_a_file_name() -> None:
    names = Counter(p.name for p in TESTS.rglob("test_*.py"))
    assert [n for n, k in names.items() if k > 1] == []
