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

from services.events import (ArbiterDecision, ClockPressed, DefaultForfeit, Event, MovePlayed, PlayerArrived,
                             PlayerNotAtBoard, PresenceNoted)
from services.events.vocabulary import AlertKind, AlertSeverity, AlertStatus
from services.state import HallState
from services.views.alert import Alert

NewAlert = Callable[[int, int, str, str, str, dict], Alert]
"""``new_alert(seq, at, kind, severity, title, data)`` -> the registered Alert."""

KIND = AlertKind.NOT_AT_BOARD
TITLE = "Not at the board"
OPEN_STATES = ("absent", "defaulted")
_OTHER = {"white": "black", "black": "white"}


def arrival(event: Event) -> tuple[str, str] | None:
    """``(game, side)`` of the player an entry shows at the board, or None: a check-in, the
    devices' presence note, the mover of a move (the side not to move after it), the presser of a
    clock (the side not running after the press, FIDE Laws 6.2.1)."""
    game = getattr(event, "game", None)
    if not game:
        return None
    if isinstance(event, (PlayerArrived, PresenceNoted)) and event.side in _OTHER:
        return game, event.side
    if isinstance(event, MovePlayed) and event.turn in _OTHER:
        return game, _OTHER[event.turn]
    if isinstance(event, ClockPressed) and event.running in _OTHER:
        return game, _OTHER[event.running]
    return None


def _board_key(item: dict) -> tuple:
    board = str(item.get("board") or "")
    return (0, int(board), "") if board.isdigit() else (1, 0, board), item["side"] != "white"


class RoundPresence:
    """The grouped alerts, a projection of the fold: a game's round and players are the state's
    (``HallState``). ``new_alert(seq, at, kind, severity, title, data)`` makes and registers an alert
    in the queue (``AlertQueue._new``); ``apply`` returns the alerts it changed."""

    def __init__(self, new_alert: NewAlert):
        self._new_alert = new_alert
        self.current: dict[str, Alert] = {}  # round -> its open alert

    def apply(self, seq: int, at: int, event: Event, state: HallState) -> list[Alert]:
        """Fold one typed entry, the state folded with it; the alerts changed."""
        if isinstance(event, PlayerNotAtBoard):
            return self._absent(seq, at, event, [event.side], "absent", state)
        if isinstance(event, DefaultForfeit):
            sides = ["white", "black"] if event.side == "both" else [event.side]
            return self._absent(seq, at, event, sides, "defaulted", state)
        if isinstance(event, ArbiterDecision):
            return self._update(event.game, None, at, lambda item: item["state"] == "defaulted",
                                {"state": "decided"}, state)
        came = arrival(event)
        if came is not None:
            game, side = came
            changed = self._update(game, side, at, lambda item: item["state"] == "absent",
                                   {"state": "arrived", "arrived_at": at}, state)
            return changed + self._update(game, side, at, lambda item: item["state"] == "defaulted"
                                          and item.get("arrived_at") is None, {"arrived_at": at}, state)
        return []

    def defaulted(self, game: str | None, state: HallState) -> bool:
        """Whether ``game`` has a defaulted player in an alert (its ``game_ended`` is told there)."""
        a = self.current.get(_round_of(state, game))
        return a is not None and any(i["game"] == game and i["state"] in ("defaulted", "decided")
                                     for i in a.evidence["items"])

    def _absent(self, seq: int, at: int, event: PlayerNotAtBoard | DefaultForfeit, sides: list, state_word: str,
                state: HallState) -> list[Alert]:
        game = event.game
        rnd = _round_of(state, game)
        a = self.current.get(rnd)
        if a is None or a.status != AlertStatus.OPEN:
            a = self._new_alert(seq, at, KIND, AlertSeverity.WARNING, TITLE, {"round": rnd or None, "items": []})
            self.current[rnd] = a
        g = state.games.get(game)
        for side in sides:
            if side not in _OTHER:
                continue
            item = next((i for i in a.evidence["items"] if i["game"] == game and i["side"] == side), None)
            if item is None:
                # the player's name: the entry's, else the game's (FIDE Laws 6.7.1: who lost by default)
                item = {"game": game, "board": str(event.board),
                        "side": side, "player": g.player(side) if g is not None else None, "state": state_word,
                        "since": at, "arrived_at": None, "deadline_ms": None, "result": None, "fine": None,
                        "currency": None, "rule": None}
                a.evidence["items"].append(item)
            item["state"] = state_word
            for key in ("deadline_ms", "result", "fine", "currency", "rule"):
                if getattr(event, key, None) is not None:
                    item[key] = getattr(event, key)
            player = getattr(event, "player", None)
            if player and side == event.side:
                item["player"] = player
        a.evidence["items"].sort(key=_board_key)
        return [self._refresh(a, at)]

    def _update(self, game: str | None, side: str | None, at: int, which: Callable[[dict], bool],
                change: dict, state: HallState) -> list[Alert]:
        a = self.current.get(_round_of(state, game))
        if a is None or a.status != AlertStatus.OPEN:
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
        a.severity = AlertSeverity.ACTION if any(i["state"] == "defaulted" for i in items) else AlertSeverity.WARNING
        if not any(i["state"] in OPEN_STATES for i in items):
            a.status = AlertStatus.RESOLVED
            a.resolution = {"by": "players", "at": at, "note": "every listed player is at the board "
                            "or the arbiter has decided"}
        return a


def _round_of(state: HallState, game: str | None) -> str:
    """The round of ``game`` in the state ("" for a game the state does not know)."""
    g = state.games.get(game or "")
    return g.round if g is not None else ""
