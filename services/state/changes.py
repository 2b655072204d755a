"""What one folded entry changed, for the projections that push updates (the spectators' feed, the
arbiters' desk, the standings): they re-read the state for what is named here."""

from __future__ import annotations

from dataclasses import dataclass, field


@dataclass
class Changes:
    """``rounds``: a round began or a game was added to one (a projection resends that round);
    ``games``: game id -> GAME field names changed; ``appended``: game id -> the ply added (push
    ``moves``/``san``); ``clk``: game id -> plies whose ``clocks`` value was set; ``standings``:
    results, players or scoring may have changed; ``voided``: ``(game id, side)`` of each press taken
    out of the per-ply record (it completed no ply, FIDE Laws 7.5.1, 7.5.3), in order, for the
    regulations' clock model (``services.regulations.clock_watches``); ``drafts``: the
    rounds whose draft pairing changed (``services.state.draft``)."""

    rounds: set[str] = field(default_factory=set)
    games: dict[str, set[str]] = field(default_factory=dict)
    appended: dict[str, int] = field(default_factory=dict)
    clk: dict[str, list[int]] = field(default_factory=dict)
    standings: bool = False
    voided: list[tuple[str, str]] = field(default_factory=list)
    drafts: set[int] = field(default_factory=set)

    def game(self, gid: str, *fields: str) -> None:
        """Note that ``fields`` of game ``gid`` changed."""
        self.games.setdefault(gid, set()).update(fields)

    def clock_of(self, gid: str, ply: int) -> None:
        """Note that ``clocks[ply - 1]`` of game ``gid`` was set."""
        self.clk.setdefault(gid, []).append(ply)

    def __bool__(self) -> bool:
        return bool(self.rounds or self.games or self.appended or self.clk or self.standings or self.drafts)
