"""One "not at the board" alert per round, listing the players, that closes itself as they arrive.

At the start of a round every absent player used to make an alert of their own
(``player_not_at_board``, where the event fines it: US 2023 rule 1), and each default loss another
(``default_forfeit``, FIDE Laws 6.7.1): a whole round's worth at once. Instead, each round has one
open alert of kind ``not_at_board`` whose evidence is ``{"round", "items": [ITEM...]}``, an ITEM per
player (board order, White first):

``{"game", "board", "side", "player", "state", "since", "arrived_at", "deadline_ms", "result",
"fine", "currency", "rule"}``, ``state`` being

- ``absent``: not at the board at the start (``player_not_at_board``);
- ``arrived``: came since: checked in by an arbiter (``player_arrived``), or the devices saw them
  (``presence_noted``, a move of theirs, a press of their clock);
- ``defaulted``: lost by default (``default_forfeit``; "both": both players' items); arriving later
  does not undo it (6.7.1: the player "shall lose the game unless the arbiter decides otherwise"),
  ``arrived_at`` then says when they came;
- ``decided``: the arbiter decided the game after the default (``arbiter_decision``).

The alert needs an arbiter ("action") while an item is ``defaulted``, else it is a "warning"; it
closes itself (resolved ``{"by": "players"}``) once no item is ``absent`` or ``defaulted``. An
absence after it closed opens the round's next one. Pure: entries in, the alert changed out.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING

from services.events import (ArbiterDecision, ClockPressed, DefaultForfeit, MovePlayed, PlayerArrived,
                             PlayerNotAtBoard, PresenceNoted)

if TYPE_CHECKING:  # alerts imports this module
    from services.views.alerts import Alert

NewAlert = Callable[[int, int, str, str, str, dict], "Alert"]
"""``new_alert(seq, at, kind, severity, title, data)`` -> the registered Alert."""

KIND = "not_at_board"
TITLE = "Not at the board"
OPEN_STATES = ("absent", "defaulted")
_OTHER = {"white": "black", "black": "white"}


def arrival(type: str, data: dict) -> tuple[str, str] | None:
    """``(game, side)`` of the player an entry shows at the board, or None: a check-in, the
    devices' presence note, the mover of a move (the side not to move after it), the presser of a
    clock (the side not running after the press, FIDE Laws 6.2.1)."""
    game = data.get("game")
    if not game:
        return None
    if type in (PlayerArrived.TYPE, PresenceNoted.TYPE) and data.get("side") in _OTHER:
        return game, data["side"]
    if type == MovePlayed.TYPE and data.get("turn") in _OTHER:
        return game, _OTHER[data["turn"]]
    if type == ClockPressed.TYPE and data.get("running") in _OTHER:
        return game, _OTHER[data["running"]]
    return None


def _board_key(item: dict) -> tuple:
    board = str(item.get("board") or "")
    return (0, int(board), "") if board.isdigit() else (1, 0, board), item["side"] != "white"


class RoundPresence:
    """The grouped alerts. ``new_alert(seq, at, kind, severity, title, data)`` makes and registers
    an alert in the queue (``AlertQueue._new``); ``apply`` returns the alerts it changed."""

    def __init__(self, new_alert: NewAlert):
        self._new_alert = new_alert
        self.round_of: dict[str, str] = {}  # game id -> round, from round_started
        self.current: dict[str, Alert] = {}  # round -> its open alert

    def note_round(self, data: dict) -> None:
        """A ``round_started``: its games belong to its round."""
        for g in data.get("games") or ():
            if isinstance(g, dict) and g.get("id"):
                self.round_of[str(g["id"])] = str(data.get("round"))

    def apply(self, seq: int, at: int, type: str, data: dict) -> list[Alert]:
        """Fold one entry; the alerts changed."""
        if type == PlayerNotAtBoard.TYPE:
            return self._absent(seq, at, data, [data.get("side")], "absent")
        if type == DefaultForfeit.TYPE:
            sides = ["white", "black"] if data.get("side") == "both" else [data.get("side")]
            return self._absent(seq, at, data, sides, "defaulted")
        if type == ArbiterDecision.TYPE:
            return self._update(data.get("game"), None, at, lambda item: item["state"] == "defaulted",
                                {"state": "decided"})
        came = arrival(type, data)
        if came is not None:
            game, side = came
            changed = self._update(game, side, at, lambda item: item["state"] == "absent",
                                   {"state": "arrived", "arrived_at": at})
            return changed + self._update(game, side, at, lambda item: item["state"] == "defaulted"
                                          and item.get("arrived_at") is None, {"arrived_at": at})
        return []

    def defaulted(self, game: str | None) -> bool:
        """Whether ``game`` has a defaulted player in an alert (its ``game_ended`` is told there)."""
        a = self.current.get(self.round_of.get(game or "", ""))
        return a is not None and any(i["game"] == game and i["state"] in ("defaulted", "decided")
                                     for i in a.evidence["items"])

    def _absent(self, seq: int, at: int, data: dict, sides: list, state: str) -> list[Alert]:
        game = data.get("game")
        rnd = self.round_of.get(game or "", "")
        a = self.current.get(rnd)
        if a is None or a.status != "open":
            a = self._new_alert(seq, at, KIND, "warning", TITLE, {"round": rnd or None, "items": []})
            self.current[rnd] = a
        for side in sides:
            if side not in _OTHER:
                continue
            item = next((i for i in a.evidence["items"] if i["game"] == game and i["side"] == side), None)
            if item is None:
                item = {"game": game, "board": None if data.get("board") is None else str(data.get("board")),
                        "side": side, "player": data.get("player"), "state": state, "since": at,
                        "arrived_at": None, "deadline_ms": None, "result": None, "fine": None,
                        "currency": None, "rule": None}
                a.evidence["items"].append(item)
            item["state"] = state
            for key in ("deadline_ms", "result", "fine", "currency", "rule"):
                if data.get(key) is not None:
                    item[key] = data[key]
            if data.get("player") and side == data.get("side"):
                item["player"] = data["player"]
        a.evidence["items"].sort(key=_board_key)
        return [self._refresh(a, at)]

    def _update(self, game: str | None, side: str | None, at: int, which: Callable[[dict], bool],
                change: dict) -> list[Alert]:
        a = self.current.get(self.round_of.get(game or "", ""))
        if a is None or a.status != "open":
            return []
        hits = [i for i in a.evidence["items"] if i["game"] == game and (side is None or i["side"] == side)
                and which(i)]
        for item in hits:
            item.update(change)
        return [self._refresh(a, at)] if hits else []

    @staticmethod
    def _refresh(a: Alert, at: int) -> Alert:
        items = a.evidence["items"]
        a.count = len(items)
        a.last_at = at
        a.severity = "action" if any(i["state"] == "defaulted" for i in items) else "warning"
        if not any(i["state"] in OPEN_STATES for i in items):
            a.status = "resolved"
            a.resolution = {"by": "players", "at": at, "note": "every listed player is at the board "
                            "or the arbiter has decided"}
        return a
