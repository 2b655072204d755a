"""msgspec's validation errors in a reader's words: the one place that reads their text.

``msgspec.convert(doc, Type)`` raises ``ValidationError("Expected `int`, got `str` - at
`$.players[0].rating`")``; ``refusal(exc, doc, Type)`` turns it into the path of the field at
fault (``("players", 0, "rating")``) and the problem in words ("must be a whole number, not
'2700'"). Used by the tournament file (services.regulations.tournament_file) and the arbiter's
actions (dashboard.arbiter.actions), which add the file's line or the request's field.

A field's ``msgspec.Meta(description=...)`` is its error text: a phrase ("must be white or
black") that is completed with ", not VALUE" or "is missing (...)", or a template with
``{value!r}`` filled with the value given (None when it is missing). A Struct's ``__post_init__``
raises ``FieldError(field, problem)`` for a check of one of its fields (the path then ends with
that field), or a ValueError whose text says the field itself.
"""

from __future__ import annotations

import re
import types
import typing
from dataclasses import dataclass
from typing import Annotated, Any, Literal, Union

import msgspec

Step = str | int
"""A key of a table (a field's name) or an index into a list."""


class FieldError(ValueError):
    """Raised by a Struct's ``__post_init__``: ``field`` of that Struct is wrong, ``problem`` says
    how."""

    def __init__(self, field: str, problem: str):
        super().__init__(f"{field}: {problem}")
        self.field = field
        self.problem = problem


ABSENT: Any = type("Absent", (), {"__repr__": lambda self: "<absent>"})()
"""``value_at``'s answer for a path the document does not have."""


@dataclass(frozen=True)
class Refusal:
    """Why a document was refused: ``path`` to the field at fault (``()`` for the whole
    document), ``problem`` in words, ``unknown`` when the field is not one of its table's
    (``problem`` then lists the known ones), ``in_dict`` when the path stops at a table of free
    keys (msgspec does not name the key)."""

    path: tuple[Step, ...]
    problem: str
    unknown: bool = False
    in_dict: bool = False

    @property
    def where(self) -> str:
        """The path as text: ``players[0].rating``."""
        return dotted(self.path)


def dotted(path: tuple[Step, ...] | list[Step]) -> str:
    """``("players", 0, "rating")`` -> ``"players[0].rating"``."""
    return "".join(f"[{p}]" if isinstance(p, int) else f".{p}" for p in path).lstrip(".")


_AT = re.compile(r"^(?P<msg>.*?)(?: - at `(?P<key>key` in `)?\$(?P<path>[^`]*)`)?$", re.S)
_STEP = re.compile(r"\.([^.\[]+)|\[(\d+|\.\.\.)\]")
_MISSING = re.compile(r"^Object missing required field `(?P<field>[^`]+)`$")
_UNKNOWN = re.compile(r"^Object contains unknown field `(?P<field>[^`]+)`$")
_EXPECTED = re.compile(r"^Expected `(?P<want>[^`]+)`(?:, got `(?P<got>[^`]+)`)?(?P<bound>.*)$")
_BOUND = re.compile(r"^ (?P<op>>=|<=|>|<) (?P<n>-?[\d.]+)$")
_KINDS = {"int": "a whole number", "str": "text", "bool": "true or false", "array": "a list",
          "object": "a table", "float": "a number", "datetime": "a date and time", "null": "nothing"}
_BOUNDS = {">=": "at least", "<=": "at most", ">": "more than", "<": "less than"}


def refusal(exc: msgspec.ValidationError, doc: Any, root: Any) -> Refusal:
    """Why ``msgspec.convert(doc, root)`` raised ``exc``: the field's path and the problem."""
    m = _AT.match(str(exc))
    assert m is not None  # the pattern matches any text
    msg = m["msg"]
    path: list[Step] = []
    for name, index in _STEP.findall(m["path"] or ""):
        if index == "...":
            return Refusal(tuple(path), _in_dict(msg, False), in_dict=True)
        path.append(name or int(index))
    if m["key"]:
        return Refusal(tuple(path), _in_dict(msg, True), in_dict=True)
    cause = exc.__cause__
    if isinstance(cause, FieldError):
        return Refusal((*path, cause.field), cause.problem)
    if cause is not None:
        return Refusal(tuple(path), str(cause))
    if unknown := _UNKNOWN.match(msg):
        table = _type_at(root, path)
        known = [f.encode_name for f in msgspec.structs.fields(table)] if _is_struct(table) else []
        return Refusal((*path, unknown["field"]), f"expected one of {', '.join(known)}", unknown=True)
    if missing := _MISSING.match(msg):
        path.append(missing["field"])
    field_type = _type_at(root, path)
    value = ABSENT if missing else value_at(doc, path)
    return Refusal(tuple(path), _problem(msg, field_type, _description(root, path), value))


def _in_dict(msg: str, at_key: bool) -> str:
    expected = _EXPECTED.match(msg)
    kind = kind_words(expected["want"]) if expected else "of the right kind"
    return f"every key must be {kind}" if at_key else f"every value must be {kind}"


def _problem(msg: str, field_type: Any, hint: str | None, value: Any) -> str:
    """``value`` (ABSENT when missing) refused with msgspec's ``msg``, in the field's words: its
    ``hint`` (a phrase, or a template with ``{value!r}``), else the choices or bounds of its type,
    else the kind msgspec expected, else msgspec's own words."""
    if hint and "{value" in hint:
        return hint.format(value=None if value is ABSENT else value)
    if value is ABSENT:
        return "is missing" + (f" ({hint})" if hint else "")
    if msg == "Invalid RFC3339 encoded datetime":
        return f"not a date and time: {value!r}" + (f" ({hint})" if hint else "")
    if hint:
        return f"{hint}, not {value!r}"
    choices = typing.get_args(field_type) if typing.get_origin(field_type) is Literal else ()
    if choices:
        return f"must be one of {', '.join(map(str, choices))}; got {value!r}"
    expected = _EXPECTED.match(msg)
    if expected and expected["got"]:
        return f"must be {kind_words(expected['want'])}, not {value!r}"
    bound = _BOUND.match(expected["bound"]) if expected else None
    if bound:
        return f"must be {_BOUNDS[bound['op']]} {bound['n']}, not {value!r}"
    return f"{msg[0].lower()}{msg[1:]}, not {value!r}"


def kind_words(kind: str) -> str:
    """msgspec's name of a kind (``int | str``) in words (``a whole number or text``)."""
    return " or ".join(_KINDS.get(k, k) for k in kind.split(" | "))


def value_at(doc: Any, path: list[Step] | tuple[Step, ...]) -> Any:
    """The value at ``path`` in ``doc`` (dicts and lists), or ABSENT."""
    for p in path:
        try:
            doc = doc[p]
        except (KeyError, IndexError, TypeError):
            return ABSENT
    return doc


def _type_at(root: Any, path: list[Step]) -> Any:
    """The type of the field at ``path`` below ``root`` (through Structs, lists and optional
    types), without Annotated and None; ``Any`` when the path leaves the types."""
    tp = unwrap(root)[0]
    for p in path:
        tp = _step(tp, p)
    return unwrap(tp)[0]


def _description(root: Any, path: list[Step]) -> str | None:
    """The ``Meta(description=...)`` of the field at ``path`` below ``root``, or None."""
    tp = root
    for p in path:
        tp = _step(unwrap(tp)[0], p)
    return unwrap(tp)[1]


def _step(tp: Any, p: Step) -> Any:
    if isinstance(p, int):
        args = typing.get_args(tp)
        return args[0] if args else Any
    if typing.get_origin(tp) in (Union, types.UnionType):  # a tagged union: the tag decided it
        return Any
    if _is_struct(tp):
        return typing.get_type_hints(tp, include_extras=True).get(p, Any)
    return Any


def _is_struct(tp: Any) -> bool:
    return isinstance(tp, type) and issubclass(tp, msgspec.Struct)


def unwrap(tp: Any) -> tuple[Any, str | None]:
    """``tp`` without Annotated and None (``X | None``), and the outermost description met."""
    found = None
    while True:
        if typing.get_origin(tp) is Annotated:
            base, *extras = typing.get_args(tp)
            # Annotated[Annotated[int, inner], outer] flattens to [inner, outer]: the outer one wins
            found = found or next((e.description for e in reversed(extras)
                                   if isinstance(e, msgspec.Meta) and e.description), None)
            tp = base
        elif typing.get_origin(tp) in (Union, types.UnionType):
            args = [a for a in typing.get_args(tp) if a is not type(None)]
            if len(args) != 1:
                return tp, found
            tp = args[0]
        else:
            return tp, found
