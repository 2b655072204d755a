"""A round's pairing before it starts, as the fold keeps it (``services.state.fold_draft``;
the entries: ``services.events.rounds``)."""

from __future__ import annotations

from dataclasses import dataclass, field

from services.events.rounds import DraftBoard, DraftBye


@dataclass
class PairingDraft:
    """Round ``round``'s draft: ``system`` it was paired by, ``version`` (1 for the first draft, +1
    for each re-pairing and each change by hand), ``boards`` and ``byes`` as they stand now,
    ``drafted_by``/``drafted_at`` (ms) of the latest pairing, ``published`` (the version published,
    None: never), ``published_by``/``published_at``, ``started`` (its ``round_started`` is in the
    log), ``changes`` (each change by hand: ``{"version" (the one it made), "kind", "players",
    "board", "white_no", "black_no", "reason", "warnings", "by", "at"}``), ``refused`` (entries that
    named a version the draft no longer had: ``{"type", "version" (named), "draft_version" (it
    had), "by", "at"}``: a second arbiter's action on a draft that had changed under him),
    ``outdated`` (a Swiss draft's: the ids of the round before's games whose result now differs from
    the one it was paired from: it reads the old results and is not published or started until
    paired again, or until each such result is back to the one it was paired from),
    ``paired_from`` (game id -> ``(result, special)``, the GameRecord's code the draft was paired
    from, for each game of the round before whose result changed since: what ``outdated`` compares
    with)."""

    round: int
    system: str
    version: int
    boards: list[DraftBoard] = field(default_factory=list)
    byes: list[DraftBye] = field(default_factory=list)
    drafted_by: str | None = None
    drafted_at: int = 0
    published: int | None = None
    published_by: str | None = None
    published_at: int | None = None
    started: bool = False
    changes: list[dict] = field(default_factory=list)
    refused: list[dict] = field(default_factory=list)
    outdated: list[str] = field(default_factory=list)
    paired_from: dict[str, tuple[str, str | None]] = field(default_factory=dict)

    @property
    def is_published(self) -> bool:
        """The draft as it stands now is the published one."""
        return self.published == self.version

    def place_of(self, start_no: int) -> tuple[str, int, str] | None:
        """Where ``start_no`` is: ``("board", index, "white"|"black")``, ``("bye", index, code)``, or
        None when he is not in the draft."""
        for i, b in enumerate(self.boards):
            if b.white_no == start_no:
                return "board", i, "white"
            if b.black_no == start_no:
                return "board", i, "black"
        for i, y in enumerate(self.byes):
            if y.start_no == start_no:
                return "bye", i, y.code
        return None
