"""The frame every arbiter action is built in: the ``Action`` Struct (tagged by its ``action``
field), the ``Context`` it is checked against, the registry of actions, and the one reader that
turns a request body into an action or an ``ActionError`` naming the field and the problem.

A field's ``msgspec.Meta(description=...)`` is its error text: a phrase ("must be white or black")
that the reader completes with ", not VALUE" or " is missing", or a template with ``{value!r}``
that it fills with the value given (None when it is missing).
"""

from __future__ import annotations

import functools
import re
import types
import typing
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Annotated, Any, ClassVar, TypeVar, Union

import msgspec
from msgspec import Meta

from services.rules.base import Side


class ActionError(ValueError):
    """A bad action request; ``str()`` says which field and why (HTTP 400)."""


Note = Annotated[str, Meta(description="must be text")]
GameId = Annotated[str, Meta(description="must be a game's id, as text (round-board, e.g. \"3-12\")")]
SideName = Annotated[Side, Meta(description="must be white or black")]
Count = Annotated[int, Meta(description="must be a whole number")]


class Action(msgspec.Struct, tag_field="action", kw_only=True, frozen=True):
    """One arbiter action as posted: ``{"action": NAME, ...fields}``. ``note`` (text, kept up to
    2,000 characters) and ``alert`` (the alert it answers; the route checks it exists) may come
    with any action. A subclass is one action: its ``tag`` is the name, its fields are the body,
    its docstring cites the rule, and ``entries`` builds the log entries or raises ActionError."""

    note: Note | None = None
    alert: Annotated[int, Meta(description="must be an alert's number (GET /api/arbiter/alerts)")] | None = None

    NAME: ClassVar[str] = ""

    def entries(self, ctx: Context) -> list[tuple[str, dict]]:
        """The ``(type, data)`` entries this action records. Raises ActionError."""
        raise NotImplementedError


A = TypeVar("A", bound=type[Action])
ACTIONS: dict[str, type[Action]] = {}
"""Every action by its name (``action`` in the body), in the order registered."""


def action(cls: A) -> A:
    """Class decorator: register an Action subclass under its ``tag`` (the union ``decode`` reads)."""
    name = cls.__struct_config__.tag
    if not isinstance(name, str) or name in ACTIONS:
        raise TypeError(f"{cls.__name__}: an action needs a tag of its own (got {name!r})")
    cls.NAME = name
    ACTIONS[name] = cls
    _union.cache_clear()
    return cls


@dataclass(frozen=True)
class Context:
    """What an action is checked against. ``by``: the arbiter's login; ``games``: id -> GAME
    (``services.views.spectator``) of any round of the event, as it stands now; ``state``: the
    folded ``HallState`` (the round tools read its tournament, players and rounds; the decisions
    with a rule behind them are judged on it: ``ruled``), or None; ``now_ms``: the request's instant
    (the default time and the one-minute rule's hour are judged at it; None leaves those out)."""

    by: str
    games: Mapping[str, dict]
    state: Any = None
    now_ms: int | None = None

    def ruled(self, judge, *args, **kw):
        """``judge(state, ...)`` of ``services.regulations.rulings``: its ``Ruling`` (or what it
        returns); ActionError with its reason and article for a decision the Laws or the
        regulations do not allow, or when there is no recorded state to judge it against."""
        from services.regulations.rulings import Refused

        if self.state is None:
            raise ActionError("game: the event's recorded state is needed to judge this decision (FIDE Laws 12.1)")
        try:
            return judge(self.state, *args, **kw)
        except Refused as refused:
            raise ActionError(str(refused)) from None

    def game(self, gid: str | None) -> dict:
        """The GAME ``gid``; ActionError when the event has none."""
        if not gid:
            raise ActionError("game: is missing")
        g = self.games.get(gid)
        if g is None:
            raise ActionError(f"game: no game {gid!r} in this tournament")
        return g

    def base(self, act: Action, g: dict | None = None) -> dict:
        """The fields every entry of ``act`` carries: ``by``, the game and its board, the note."""
        d: dict[str, Any] = {"by": self.by}
        if g is not None:
            d.update(game=g["id"], board=str(g["board"]))
        if act.note:
            d["note"] = act.note[:2000]
        return d


@functools.lru_cache(maxsize=1)
def _union() -> Any:
    return Union[tuple(ACTIONS.values())]  # noqa: UP007 - a union built at run time


def decode(body: bytes | str) -> Action:
    """The action a request body (JSON) posts. Raises ActionError: not JSON, not an object, an
    unknown action, a field missing or of the wrong kind (naming the field and the problem)."""
    try:
        raw = msgspec.json.decode(body)
    except msgspec.DecodeError:
        raise ActionError("the body must be JSON") from None
    return convert(raw)


def convert(raw: Any) -> Action:
    """The action a decoded body (a dict) posts; an empty text or null counts as left out (a form's
    empty field). Numbers may come as digits in text (a form's). Raises ActionError as ``decode``."""
    if not isinstance(raw, dict):
        raise ActionError("the body must be a JSON object")
    given = {k: v for k, v in raw.items() if v is not None and v != ""}
    try:
        return msgspec.convert(given, _union(), strict=False)
    except msgspec.ValidationError as exc:
        raise ActionError(_explain(str(exc), given)) from None


_AT = re.compile(r"^(?P<msg>.*?)(?: - at `\$(?P<path>[^`]*)`)?$", re.S)
_MISSING = re.compile(r"^Object missing required field `(?P<field>[^`]+)`$")
_EXPECTED = re.compile(r"^Expected `(?P<want>[^`]+)`, got `(?P<got>[^`]+)`$")
_KINDS = {"int": "a whole number", "str": "text", "bool": "true or false", "array": "a list",
          "object": "an object", "float": "a number"}
_ABSENT = object()


def _explain(message: str, given: dict) -> str:
    """msgspec's message ("Expected `int`, got `str` - at `$.white_ms`") in the field's words."""
    msg, parts, in_dict = _place(message)
    if parts == ["action"]:
        return "action: is missing" if _MISSING.match(msg) else f"unknown action {given.get('action')!r}"
    if not parts:
        return msg  # a check of the whole action (__post_init__) names its field itself
    where = "".join(f"[{p}]" if isinstance(p, int) else f".{p}" for p in parts).lstrip(".")
    expected = _EXPECTED.match(msg)
    kind = _KINDS.get(expected["want"], expected["want"]) if expected else None
    if in_dict:  # msgspec does not name the key of a dict's value
        return f"{where}: every value must be {kind or 'of the right kind'}"
    cls = ACTIONS.get(given.get("action", ""))
    hint = _description(cls, parts) if cls is not None else None
    value = _ABSENT if _MISSING.match(msg) else _value(given, parts)
    return f"{where}: {_problem(msg, hint, kind, value)}"


def _problem(msg: str, hint: str | None, kind: str | None, value: Any) -> str:
    """What is wrong with ``value`` (``_ABSENT`` when missing) in the field's words: its ``hint``
    (a phrase, or a template with ``{value!r}``), else the kind msgspec expected, else msgspec's."""
    if hint and "{value" in hint:
        return hint.format(value=None if value is _ABSENT else value)
    if value is _ABSENT:
        return "is missing" + (f" ({hint})" if hint else "")
    if hint or kind:
        return f"{hint or 'must be ' + str(kind)}, not {value!r}"
    return msg[0].lower() + msg[1:]


def _place(message: str) -> tuple[str, list[str | int], bool]:
    """msgspec's message split: the problem, the path to the field (keys and list indices; a
    missing field's name last), and whether the path went into a dict's value ("[...]")."""
    m = _AT.match(message)
    assert m is not None  # the pattern matches any text
    steps = re.findall(r"\.([^.\[]+)|\[(\d+|\.\.\.)\]", m["path"] or "")
    parts: list[str | int] = []
    for name, index in steps:
        if index == "...":
            return m["msg"], parts, True
        parts.append(name or int(index))
    missing = _MISSING.match(m["msg"])
    if missing:
        parts.append(missing["field"])
    return m["msg"], parts, False


def _value(given: Any, parts: list[str | int]) -> Any:
    for p in parts:
        try:
            given = given[p]
        except (KeyError, IndexError, TypeError):
            return _ABSENT
    return given


def _description(cls: type, parts: list[str | int]) -> str | None:
    """The ``Meta(description=...)`` of the field at ``parts`` in Struct ``cls`` (through nested
    Structs, lists and optional types), or None."""
    tp: Any = cls
    found: str | None = None
    for p in parts:
        tp, found = _unwrap(tp)
        if isinstance(p, int):
            args = typing.get_args(tp)
            tp = args[0] if args else Any
            continue
        if not (isinstance(tp, type) and issubclass(tp, msgspec.Struct)):
            return found
        tp = typing.get_type_hints(tp, include_extras=True).get(p, Any)
        found = None
    return _unwrap(tp)[1] or found


def _unwrap(tp: Any) -> tuple[Any, str | None]:
    """``tp`` without Annotated and None (``X | None``), and the first description met."""
    found = None
    while True:
        if typing.get_origin(tp) is Annotated:
            base, *extras = typing.get_args(tp)
            found = found or next((e.description for e in extras if isinstance(e, Meta) and e.description), None)
            tp = base
        elif typing.get_origin(tp) in (Union, types.UnionType):
            args = [a for a in typing.get_args(tp) if a is not type(None)]
            if len(args) != 1:
                return tp, found
            tp = args[0]
        else:
            return tp, found
