"""docs/events.md (with docs/tournament-log.md and docs/arbiter.md for the organiser's and arbiters'
entries) against the log's vocabulary, services/events: issue 10 "`docs/events.md` generated from or
checked against it"."""

from __future__ import annotations

import re
from pathlib import Path

import services.events as events

DOCS = Path(__file__).resolve().parents[2] / "docs"


def documented() -> str:
    return "".join((DOCS / name).read_text() for name in ("events.md", "tournament-log.md", "arbiter.md"))


def test_every_entry_type_is_documented():
    words = set(re.findall(r"`([a-z]+(?:_[a-z]+)+)`", documented()))
    assert sorted(set(events.REGISTRY) - words) == []


def test_every_entry_type_in_the_tables_exists():
    """The first column of docs/events.md's tables names entry types: each has its record."""
    rows = re.findall(r"^\| `([a-z_]+)`(?:, `([a-z_]+)`)*", (DOCS / "events.md").read_text(), re.M)
    named = {word for row in rows for word in row if word}
    table_firsts = set(re.findall(r"^\| ((?:`[a-z_]+`(?:, )?)+) \|", (DOCS / "events.md").read_text(), re.M))
    for cell in table_firsts:
        named |= set(re.findall(r"`([a-z_]+)`", cell))
    named.discard("type")
    assert sorted(named - set(events.REGISTRY)) == []


def test_the_records_round_trip_what_they_write():
    """Each record reads back what it writes (``decode(encode(x)) == x``), for a record built with
    only its required fields and every optional field at its default."""
    import msgspec

    for name, cls in events.REGISTRY.items():
        required = {f.encode_name: _example(f.type) for f in msgspec.structs.fields(cls)
                    if f.required}
        record = events.decode(name, required)
        assert events.decode(*record.encode()) == record, name


def _example(kind):
    import enum
    import typing

    origin = typing.get_origin(kind)
    if kind is str or kind is typing.Any:
        return "x"
    if kind is int:
        return 1
    if kind is bool:
        return True
    if origin is typing.Literal:
        return typing.get_args(kind)[0]
    if isinstance(kind, type) and issubclass(kind, enum.Enum):  # a closed set of the vocabulary
        return next(iter(kind)).value
    if origin in (list,):
        return []
    if origin in (dict,) or kind is dict:
        return {}
    if origin is typing.Union or str(origin) == "<class 'types.UnionType'>":
        return _example(typing.get_args(kind)[0])
    if isinstance(kind, type) and issubclass(kind, object) and hasattr(kind, "__struct_fields__"):
        import msgspec as m

        return {f.encode_name: _example(f.type) for f in m.structs.fields(kind) if f.required}
    return "x"
