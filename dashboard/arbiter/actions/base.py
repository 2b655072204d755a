"""The frame every arbiter action is built in: the ``Action`` Struct (tagged by its ``action``
field), the ``Context`` it is checked against, the registry of actions, and the one reader that
turns a request body into an action or an ``ActionError`` naming the field and the problem.

A field's ``msgspec.Meta(description=...)`` is its error text (``services.struct_errors``: a
phrase completed with ", not VALUE", or a template with ``{value!r}``).
"""

from __future__ import annotations

import functools
import re
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Annotated, Any, ClassVar, TypeVar, Union

import msgspec
import msgspec.inspect as mi
from msgspec import Meta

from services.arbiter_office.round_from_file import LAST_START_MS
from services.rules.base import Side
from services.struct_errors import refusal


class ActionError(ValueError):
    """A bad action request; ``str()`` says which field and why (HTTP 400)."""


Note = Annotated[str, Meta(description="must be text")]
GameId = Annotated[str, Meta(description="must be a game's id, as text (round-board, e.g. \"3-12\")")]
SideName = Annotated[Side, Meta(description="must be white or black")]
Count = Annotated[int, Meta(description="must be a whole number")]
RoundNo = Annotated[int, Meta(ge=1, description="a round's number, a whole number from 1")]
"""A round of the event: rounds are numbered from 1 (README "--round N"; TRF16), so 0 or less is a bad
field, not "round 0 has started already"."""
StartMs = Annotated[int, Meta(ge=0, le=LAST_START_MS,
                              description="when it starts, ms since the epoch: a whole number from 0 to "
                                          f"{LAST_START_MS} (9999-12-31)")]


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
    with a rule behind them are judged on it: ``ruled``), or None; ``now_ms``: the dashboard's time
    (ms since the epoch): an action that starts something now, the default time and the one-minute
    rule's hour are judged at it (None leaves those out)."""

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


_LIST_SEPARATORS = re.compile(r"[,\s]+")
"""What separates the numbers of a list typed as text: commas and spaces, as the console's forms
read them (``nums`` in dashboard/static/arbiter_playoff.js: "hall boards, comma separated")."""

TYPED_LISTS = frozenset({"boards", "players", "order"})
"""The lists of numbers an arbiter types into a console form (hall boards, start numbers, a blitz
order): only these may come as a text of numbers. Alert ids (``alerts``) are picked, never typed: a
text there is a client's mistake and stays refused (tests/unit/test_alerts_livable.py)."""


@functools.lru_cache(maxsize=None)
def _number_lists(cls: type[Action]) -> frozenset[str]:
    """The fields of ``cls`` that are lists of numbers (boards, start numbers, alert ids) and take no
    text of their own (``moves`` does): those a text of numbers stands for."""
    def bare(t: Any) -> Any:
        while isinstance(t, mi.Metadata):
            t = t.type
        return t

    def kinds(t: Any) -> list[Any]:
        t = bare(t)
        return [bare(u) for u in t.types] if isinstance(t, mi.UnionType) else [t]

    info = mi.type_info(cls)
    assert isinstance(info, mi.StructType)  # an Action is a Struct
    out = set()
    for field in info.fields:
        shapes = kinds(field.type)
        if any(isinstance(k, mi.StrType) for k in shapes):
            continue
        if any(isinstance(k, mi.ListType) and any(isinstance(i, mi.IntType) for i in kinds(k.item_type))
               for k in shapes):
            out.add(field.name)
    return frozenset(out) & TYPED_LISTS


def convert(raw: Any) -> Action:
    """The action a decoded body (a dict) posts; an empty text or null counts as left out (a form's
    empty field). Numbers may come as digits in text (a form's), and a list of numbers an arbiter
    types (``TYPED_LISTS``: ``boards``, ``players``, ``order``) as a text of them separated by commas
    or spaces (``"1, 2"``: the console's form), checked as the list would be. Raises ActionError as
    ``decode``."""
    if not isinstance(raw, dict):
        raise ActionError("the body must be a JSON object")
    given = {k: v for k, v in raw.items() if v is not None and v != ""}
    tag = given.get("action")
    cls = ACTIONS.get(tag) if isinstance(tag, str) else None
    for name in _number_lists(cls) if cls is not None else ():
        if isinstance(given.get(name), str):
            given[name] = [part for part in _LIST_SEPARATORS.split(given[name]) if part]
    try:
        return msgspec.convert(given, _union(), strict=False)
    except msgspec.ValidationError as exc:
        raise ActionError(_explain(exc, given)) from None


def _explain(exc: msgspec.ValidationError, given: dict) -> str:
    """msgspec's refusal of ``given`` in the field's words: "side: must be white or black, not 'red'"."""
    cls = ACTIONS.get(given.get("action", ""))
    why = refusal(exc, given, cls if cls is not None else _union())
    if why.path == ("action",):
        return "action: is missing" if "action" not in given else f"unknown action {given['action']!r}"
    return f"{why.where}: {why.problem}" if why.path else why.problem
