"""docs/laws.md's checklist (issue 29): every article of the FIDE Laws of Chess 2023 Articles 5, 6, 7
and 9, Appendices A and B and Guidelines III has its row, with the tests that cover it or why the
system leaves it to the arbiter, and every test it names exists (a renamed test must not leave the
checklist pointing at nothing). The articles are the 2023 text's (FIDE Handbook E.01), as quoted in
services/rules/penalties.py and services/regulations/both_flags.py."""

from __future__ import annotations

import re
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
DOC = (ROOT / "docs" / "laws.md").read_text()
CHECKLIST = DOC[DOC.index("## Checklist"):]
ARTICLES = """5.1.1 5.1.2 5.2.1 5.2.2 5.2.3 6.1 6.1.1 6.2.1 6.2.1.1 6.2.1.2 6.2.2 6.2.3 6.2.4 6.2.5 6.2.6 6.3.1 6.3.2 6.4
6.5 6.6 6.7.1 6.7.2 6.8 6.9 6.10.1 6.10.2 6.11.1 6.11.2 6.11.3 6.11.4 6.12.1 6.12.2 7.1 7.2.1 7.2.2 7.3 7.4.1 7.4.2
7.4.3 7.5.1 7.5.2 7.5.3 7.5.4 7.5.5 7.6 9.1.1 9.1.2.1 9.1.2.2 9.1.2.3 9.2 9.2.1 9.2.2 9.2.3 9.3 9.3.1 9.3.2 9.4 9.5.1
9.5.2 9.5.3 9.6.1 9.6.2 A.1 A.2 A.3 A.4 A.4.1 A.4.3 A.5.1.1 A.5.1.2 A.5.2 A.5.3 A.5.4 A.5.5 A.6 B.1 B.2 B.2.1 B.2.2
B.2.3 B.3 B.4 III.1 III.2.1 III.2.2 III.3.1.1 III.3.1.2 III.4 III.5 III.6 X.A.a X.A.b X.A.c X.A.d X.A.e X.A.f X.A.g
X.A.h X.A.i X.B.a X.B.b X.B.c X.B.d X.B.e XII""".split()


def _rows() -> list[str]:
    return [line for line in CHECKLIST.splitlines() if line.startswith("| ") and not line.startswith("| ---")]


def test_every_article_has_its_row():
    firsts = " ".join(row.split("|")[1] for row in _rows())
    missing = [a for a in ARTICLES if not re.search(r"(?<![\w.])" + re.escape(a) + r"(?![\d])", firsts)]
    assert missing == []


def test_every_row_names_a_test_or_why_the_arbiter_decides():
    for row in _rows()[1:]:
        cells = [c.strip() for c in row.strip("|").split("|")]
        if cells[0] in ("article", "rule"):
            continue
        assert "test_" in cells[1] or cells[2], row


def test_every_test_named_exists():
    refs = set(re.findall(r"((?:integration/|browser/)?test_[a-z0-9_]+\.py)(?:::([A-Za-z0-9_]+))?", CHECKLIST))
    assert len(refs) > 100
    for name, test in sorted(refs):
        path = ROOT / "tests" / (name if "/" in name else f"unit/{name}")
        assert path.exists(), name
        if test:
            assert re.search(rf"def {re.escape(test)}\b", path.read_text()), f"{name}::{test}"
