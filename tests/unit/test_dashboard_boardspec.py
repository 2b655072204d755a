"""dashboard.boardspec: the ``boards=SPEC`` selection of ``/ws/live`` and the hall page (labels and
numeric ranges; each kind of bad SPEC refused with a reason naming the problem)."""

from __future__ import annotations

import pytest

from dashboard.boardspec import MAX_BOARDS, BoardSet, BoardSpecError, canonical, pages, parse


def test_labels_and_ranges():
    got = parse("1-20,25,31-40")
    assert got.labels == {str(n) for n in [*range(1, 21), 25, *range(31, 41)]}
    assert "20" in got and "21" not in got and "05" not in got
    assert parse(" 3 , 12a,b.2 ,x_1").labels == {"3", "12a", "b.2", "x_1"}
    assert parse("7-7").labels == {"7"}
    assert parse("2,2,1-3").labels == {"1", "2", "3"}  # repeats are harmless


def test_hall_order_and_canonical_text():
    b = parse("12a,10,9,1-3,5")
    assert list(b) == ["1", "2", "3", "5", "9", "10", "12a"]
    assert b.spec == "1-3,5,9,10,12a"
    assert parse(b.spec) == b and hash(parse(b.spec)) == hash(b)
    assert canonical({"07", "7", "8", "9"}) == "7-9,07"


@pytest.mark.parametrize("spec, reason", [
    ("", "empty list"),
    ("   ", "empty list"),
    ("1,,2", "empty item"),
    ("3,", "empty item"),
    ("5-2", "range 5-2 is backwards"),
    ("x-y", "'x-y' is not a range of board numbers"),
    ("1-", "'1-' is not a range"),
    ("1-2-3", "'1-2-3' is not a range"),
    ("-4", "'-4' is not a range"),
    ("a b", "'a b' is not a board label"),
    ("<script>", "is not a board label"),
    ("x" * 40, "is not a board label"),
    (f"1-{MAX_BOARDS + 1}", f"more than {MAX_BOARDS} boards"),
    ("1-999999999", f"more than {MAX_BOARDS} boards"),
    (",".join(f"b{i}" for i in range(MAX_BOARDS + 1)), f"more than {MAX_BOARDS} boards"),
    (f"1-{MAX_BOARDS},a", f"more than {MAX_BOARDS} boards"),
])
def test_bad_specs_are_refused_with_the_reason(spec, reason):
    with pytest.raises(BoardSpecError) as exc:
        parse(spec)
    assert reason in str(exc.value)
    assert str(exc.value).startswith("boards: ")
    assert len(str(exc.value).encode()) <= 120  # fits a websocket close reason (123 bytes)
    assert isinstance(exc.value, ValueError)


def test_the_maximum_is_allowed():
    assert len(parse(f"1-{MAX_BOARDS}")) == MAX_BOARDS


def test_pages():
    labels = [str(n) for n in range(1, 121)]
    got = pages(labels, 50)
    assert [p.spec for p in got] == ["1-50", "51-100", "101-120"]
    assert pages([], 50) == []
    with pytest.raises(ValueError):
        pages(labels, 0)
    assert BoardSet(["1"]) != parse("2")
