"""The play-off and the event's end as the fold keeps them (``services.state.fold_playoff``; the
entries: ``services.events.playoff``): the stages started, their games' results, the Armageddon
bids, the play-off's drawings of lots, the Norway Blitz order and pairing-number choices."""

from __future__ import annotations

from dataclasses import dataclass, field

from services.tournament.playoff_walk import StageGame, StageRecord


@dataclass
class PlayoffGame:
    """A play-off game: ``id``, ``stage``, ``round`` within the stage, ``white``/``black`` start
    numbers, ``armageddon``, ``result`` ("*" until it ends; an Armageddon drawn then scored for
    Black reads "0-1")."""

    id: str
    stage: int
    round: int
    white: int
    black: int
    armageddon: bool
    result: str = "*"


@dataclass
class PlayoffStage:
    """A stage started: ``stage``, ``round`` (the round label, "P1"), ``name``, ``kind``,
    ``players``, ``games`` (ids in order), ``by``, ``at`` (ms)."""

    stage: int
    round: str
    name: str
    kind: str
    players: list[int]
    games: list[str]
    by: str | None = None
    at: int = 0


@dataclass
class PlayoffState:
    """``tied``: the players tied for first when stage 1 started (best first by the main
    tie-breaks); ``regulation``; ``stages`` in order; ``games`` by id; ``bids``: stage -> the
    ``armageddon_bid`` data recorded for it (one per Armageddon game of the stage); ``colour_lots``:
    stage -> {start number: lot} (lot 1 takes White); ``order_lots``: start number -> lot for the
    play-off's last resort; ``blitz_order`` (Norway: the Blitz finish, winner first);
    ``number_choices``: start number -> chosen pairing number, in the order chosen."""

    tied: list[int] = field(default_factory=list)
    regulation: str = ""
    stages: list[PlayoffStage] = field(default_factory=list)
    games: dict[str, PlayoffGame] = field(default_factory=dict)
    bids: dict[int, list[dict]] = field(default_factory=dict)
    colour_lots: dict[int, dict[int, int]] = field(default_factory=dict)
    order_lots: dict[int, int] = field(default_factory=dict)
    blitz_order: list[int] = field(default_factory=list)
    number_choices: dict[int, int] = field(default_factory=dict)

    def records(self) -> list[StageRecord]:
        """The stages as ``services.tournament.playoff_walk`` reads them."""
        return [StageRecord(tuple(s.players), tuple(
            StageGame(g.white, g.black, g.result, g.armageddon, g.round)
            for g in (self.games[gid] for gid in s.games))) for s in self.stages]

    def set_result(self, gid: str, result: str) -> bool:
        """Record ``result`` of play-off game ``gid``; False when ``gid`` is no play-off game."""
        g = self.games.get(gid)
        if g is None:
            return False
        g.result = result if result in ("1-0", "0-1", "1/2-1/2") else "*"
        return True
