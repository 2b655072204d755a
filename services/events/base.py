"""The event log's vocabulary: one typed record per entry type, and the one place entries are
encoded and decoded (DESIGN.md "Event log"; docs/events.md lists every type and field).

An entry on the wire is ``{"seq", "at", "type", "data"}`` (``services.eventlog.base.Entry``). Here
each ``type`` has an :class:`Event` subclass (a ``msgspec.Struct``) whose fields are ``data``'s:

- ``decode(type, data) -> Event`` checks and types one entry's data (``UnknownEvent`` for a type this
  version does not know, so an older gateway can read a newer log); raises :class:`BadEvent` for data
  that does not fit its type (a field missing or of the wrong kind);
- ``encode(event) -> (type, data)`` gives what is appended: the fields docs/events.md says every
  entry of the type has (a type's ``KEEP``, e.g. ``claimable`` and ``from`` of ``move_played``),
  and the others only when they say something (not at their default: ``held``, ``resumed``,
  ``forfeit`` appear when true, ``sent_at`` when the device sent one). Reading is lenient: only what
  identifies an entry (its game or board, a move's ply and move, a clock's figures) is required; a
  field an older writer left out takes its default.

Why msgspec: typed records that are checked when read (``msgspec.convert``, ~0.3 us an entry) and
written back to plain JSON without a hand-written ``to_json`` per type, fast enough for the gateway's
per-ply path; dataclasses would need a validator of our own. Unknown fields in ``data`` are kept out of
the typed record but stay in the log (the alerts' evidence shows the raw data).
"""

from __future__ import annotations

from typing import ClassVar, Literal, TypeVar

import msgspec
import msgspec.structs

from .vocabulary import RESULTS_PLAYED, SPECIAL_SCORES, GameResult, Side  # noqa: F401 (re-exported)

Device = Literal["board", "clock"]
"""The device of a hall board that sent a message (DESIGN.md "Device protocol"): the values of
``vocabulary.DeviceKind`` (tests/unit/test_vocabulary.py keeps the two equal)."""

SIDES: tuple[Side, Side] = ("white", "black")

Result = GameResult
"""A game's result as recorded: ``vocabulary.GameResult`` ("1-0", "0-1", "1/2-1/2", "*" and the
arbiter's special scores "0-0", "1/2-0", "0-1/2", ``services.rules.results``)."""


class BadEvent(ValueError):
    """An entry whose data does not fit its type: ``type``, ``reason`` (msgspec's path and problem)."""

    def __init__(self, type: str, reason: str):
        super().__init__(f"{type}: {reason}")
        self.type = type
        self.reason = reason


class Event(msgspec.Struct, kw_only=True):
    """Base of every entry type. ``TYPE`` is the entry's ``type`` word (docs/events.md)."""

    TYPE: ClassVar[str] = ""
    KEEP: ClassVar[tuple[str, ...]] = ()

    def encode(self) -> tuple[str, dict]:
        """``(type, data)`` ready to append (see the module docstring for which fields)."""
        data = msgspec.to_builtins(self)
        for name, default in _droppable(type(self)):
            if name in data and data[name] == default:
                del data[name]
        return self.TYPE, data


_DROPPABLE: dict[type[Event], tuple[tuple[str, object], ...]] = {}


def _droppable(cls: type[Event]) -> tuple[tuple[str, object], ...]:
    """``(encoded name, default)`` of ``cls``'s fields left out of the data when at their default:
    those with a default that are not in ``cls.KEEP``."""
    hit = _DROPPABLE.get(cls)
    if hit is None:
        keep = set(cls.KEEP)
        hit = _DROPPABLE[cls] = tuple(
            (f.encode_name, f.default) for f in msgspec.structs.fields(cls)
            if f.default is not msgspec.NODEFAULT and f.name not in keep and f.encode_name not in keep)
    return hit


class UnknownEvent(Event):
    """An entry of a type this version does not know; ``data`` kept as it came."""

    type: str
    data: dict

    def encode(self) -> tuple[str, dict]:
        return self.type, self.data


REGISTRY: dict[str, type[Event]] = {}
E = TypeVar("E", bound=type[Event])


def entry(name: str):
    """Class decorator: register an :class:`Event` subclass as entry type ``name``."""

    def register(cls: E) -> E:
        if name in REGISTRY:
            raise ValueError(f"entry type {name!r} registered twice")
        cls.TYPE = name
        REGISTRY[name] = cls
        return cls

    return register


def decode(type: str, data: dict) -> Event:
    """The typed record of one entry. Raises BadEvent when ``data`` does not fit ``type``'s fields."""
    cls = REGISTRY.get(type)
    if cls is None:
        return UnknownEvent(type=type, data=data)
    try:
        return msgspec.convert(data, cls, strict=False)
    except (msgspec.ValidationError, TypeError) as exc:
        raise BadEvent(type, str(exc)) from None


def encode(event: Event) -> tuple[str, dict]:
    """``(type, data)`` of ``event`` (see the module docstring)."""
    return event.encode()
