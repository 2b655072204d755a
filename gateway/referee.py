"""The event's regulations inside the gateway: ``services.regulations.enforcer.Enforcer`` fed with
every entry, its answers appended to the log and folded into the hall.

The regulations come from the tournament file the gateway was started with, else from the log's
last ``tournament_registered`` entry (so a restarted or separate gateway finds them by itself).
Without either, the gateway runs under the Laws alone: nothing here says anything, except the
match rules a ``round_started`` itself asks for (checkers matches: ``services.regulations.
checkers_match.MatchKeeper``: the second game's carried clock, the forfeits of a first-game flag).
"""

from __future__ import annotations

from services.hall.tournament_log import ENTRY_TYPE, tournament_from_data
from services.regulations.checkers_match import MatchKeeper
from services.regulations.enforcer import Enforcer

# Entries others append (the organiser's CLI, the arbiters' console) that the gateway must act on.
EXTERNAL = {"round_started", ENTRY_TYPE, "arbiter_decision", "draw_claim_decided", "player_arrived",
            "clock_adjusted", "game_paused", "game_resumed", "player_withdrew", "move_timer_started",
            "match_clock_chosen"}
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
        self.matches = MatchKeeper(clock_rate)

    def observe(self, type: str, data: dict, at: int) -> list[tuple[str, dict]]:
        """Fold one entry; returns what the regulations answer (the match rules' answers, then the
        enforcer's; only the match rules without a tournament file)."""
        answers = self.matches.observe(type, data, at)
        if type == "match_game_ready":
            self._carry(data)
        return answers + self._enforce(type, data, at)

    def _carry(self, data: dict) -> None:
        """The clock model of a match's second game starts from the carried times (X.A.b), so the
        device clock showing them is no disagreement."""
        game = self.enforcer.games.get(data.get("game")) if self.enforcer is not None else None
        if game is not None and game.watch is not None and isinstance(data.get("white_ms"), int) \
                and isinstance(data.get("black_ms"), int):
            game.watch.carry(data["white_ms"], data["black_ms"])

    def _enforce(self, type: str, data: dict, at: int) -> list[tuple[str, dict]]:
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
