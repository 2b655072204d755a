"""The event's regulations inside the gateway: ``services.regulations.enforcer.Enforcer`` fed with
every entry, its answers appended to the log and folded into the hall.

The regulations come from the tournament file the gateway was started with, else from the log's
last ``tournament_registered`` entry (so a restarted or separate gateway finds them by itself).
Without either, the gateway runs under the Laws alone: nothing here says anything.
"""

from __future__ import annotations

from services.hall.tournament_log import ENTRY_TYPE, tournament_from_data
from services.regulations.enforcer import Enforcer

# Entries others append (the organiser's CLI, the arbiters' console) that the gateway must act on.
EXTERNAL = {"round_started", ENTRY_TYPE, "arbiter_decision", "draw_claim_decided", "player_arrived",
            "clock_adjusted", "game_paused", "game_resumed", "player_withdrew", "move_timer_started"}
# Answers of the regulations that change the hall's own state.
HALL_TYPES = {"game_ended", "armageddon_scheduled"}


def is_external(type: str, data: dict) -> bool:
    """Whether an entry was appended by someone other than the gateway and matters to it."""
    return type in EXTERNAL or (type == "game_ended" and data.get("by") == "arbiter")


class Referee:
    """``tournament``: the parsed tournament file, or None (then taken from the log);
    ``clock_rate``: the replay speed of a demo (1 in a real hall)."""

    def __init__(self, tournament=None, clock_rate: float = 1.0):
        self.fixed = tournament is not None
        self.clock_rate = clock_rate
        self.enforcer = Enforcer(tournament, clock_rate) if tournament is not None else None

    def observe(self, type: str, data: dict, at: int) -> list[tuple[str, dict]]:
        """Fold one entry; returns what the regulations answer (empty without regulations)."""
        if type == ENTRY_TYPE and not self.fixed:
            try:
                t = tournament_from_data(data)
            except (KeyError, TypeError, ValueError):
                return []
            if self.enforcer is None:
                self.enforcer = Enforcer(t, self.clock_rate)
            else:  # the file changed: new rules, same games
                self.enforcer.t, self.enforcer.regs = t, t.regulations
            return []
        if self.enforcer is None:
            return []
        return self.enforcer.observe(type, data, at)

    def tick(self, now_ms: int) -> list[tuple[str, dict]]:
        """Time-driven answers (default time, clock checks)."""
        return self.enforcer.tick(now_ms) if self.enforcer is not None else []

    def review_result(self, game: str, result: str, reason: str | None, seq) -> list[tuple[str, dict]] | None:
        """None when a device's result may end the game, else the entries refusing it."""
        if self.enforcer is None:
            return None
        return self.enforcer.review_result(game, result, reason, seq)
