"""Arbiter actions: a request body in, the event-log entries it becomes out (pure).

``POST /api/arbiter/actions`` posts ``{"action": NAME, ...fields}``; ``decode(body)`` reads it with
msgspec into one Struct of a tagged union (the tag is ``action``), so the body's shape (fields
present, kinds, closed sets such as results, sides, claim kinds) is checked by its type, and a bad
one raises ``ActionError`` naming the field and the problem ("side: must be white or black, not
'red'", "wishes.white: None is not a match clock option", "unknown action 'x'"). Then
``action.entries(Context(by, games, state))`` checks it against the event (the game exists, the
claim stands, the round is still to pair...) and returns the ``(type, data)`` entries, each
carrying ``by`` (the arbiter's login); the log stamps ``at``. Docs: docs/arbiter.md "Actions".

Adding an action (e.g. a round's pairing draft): one Struct per action, in the module of its
family (``game``, ``correction``, ``checkers``, ``round_tools``, or a new one imported below)::

    @action
    class SwapPairing(Action, tag="swap_pairing", kw_only=True, frozen=True):
        \"\"\"Exchange two players of a draft (FIDE C.04.3 ...): ``pairing_swapped``.\"\"\"

        round: RoundNo
        players: Annotated[list[StartNo], Meta(description="two start numbers, as a list")]

        def entries(self, ctx: Context) -> list[tuple[str, dict]]:
            ...

- the ``tag`` is the action's name; the docstring cites the rule it applies and names its entries;
- the fields are the body: give a field ``Meta(description=...)`` when the type's own words would
  not tell an arbiter what to send (a phrase, or a template with ``{value!r}``: services.struct_errors);
- checks of the fields alone go in ``__post_init__`` (raise ``services.struct_errors.FieldError(field,
  problem)``); checks against the games or the state in ``entries`` (raise ActionError, field first);
- add its row to the table in docs/arbiter.md "Actions" (``tests/unit/test_arbiter_actions.py``
  checks that every registered action has one).

Results: "1-0", "0-1", "1/2-1/2", "*" (reopen), and with ``forfeit`` true the unplayed "1-0",
"0-1", "0-0" (TRF ``+``/``-``); special scores an arbiter may award: "0-0", "1/2-0", "0-1/2".

Decisions with a rule behind them (claims, penalties, a result on time, by default, by
resignation, checkmate or stalemate, move timers) are judged by the rules core from the recorded
position and clocks (``services.regulations.rulings``, through ``Context.ruled`` on the folded
state) before they become entries: one the Laws or the event's regulations do not allow is refused
(ActionError) with the reason and the article; an allowed one carries the judgement as the entry's
``ruling``.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from . import checkers, correction, game, playoff, registration, results, round_tools, rounds  # noqa: F401 - each registers
from .base import ACTIONS, Action, ActionError, Context, action, convert, decode

__all__ = ["ACTIONS", "Action", "ActionError", "Context", "action", "build", "convert", "decode"]


def build(name: str, body: Any, by: str, games: Mapping[str, dict], state: Any = None,
          now_ms: int | None = None) -> list[tuple[str, dict]]:
    """The entries for action ``name`` with ``body`` (its fields, a dict) by the arbiter ``by``.
    ``games``: id -> GAME of any round of the event (to check the game exists and take its board);
    ``state``: the folded ``HallState`` (the round tools check the tournament's players and rounds
    in it; the decisions with a rule behind them are judged on it, ``services.regulations.rulings``);
    ``now_ms``: the request's instant (``Context.now_ms``). Raises ActionError."""
    if not isinstance(body, dict):
        raise ActionError("the body must be a JSON object")
    return convert({**body, "action": name}).entries(Context(by, games, state, now_ms))
