"""A play-off as it is played: from the stages recorded so far, the next stage to create or the
final order of the tied players. Pure.

``services.tournament.playoffs`` describes the whole play-off in advance (stages after the first
name their players by a description, "winner of A1"); this module walks it stage by stage once the
results are known, so that each stage is created only when the one before leaves the tie, down to
the regulations' last resort:

* Norway Chess 2023, classical "Tie-breaks": two players: "a two-game blitz match ... If this match
  ends in a tie, a further match will be played. If this match ends in a tie, there will be an
  Armageddon game"; more than two: "a double round-robin with the below tiebreak rules" (Direct
  Encounter, Sonneborn-Berger, Koya, Koya Extended, Drawing of lots), ranked among themselves.
* US Championship 2013, "Playoff Regulations": two players: rapid match G/25+5, then Armageddon by
  bidding; three: "the two Players with the lowest tie-breaks will contest an Armageddon Game. The
  winner of this game will face the player with the highest tie-breaks"; four: "1 plays 4 and 2 plays
  3 ... The winner of each game will face one another"; more than four: the Arbiter and the Club
  decide the format (an :class:`ArbiterDecides` step: not walked here).
* US Championship 2023, "6. Playoff Procedures": two: rapid match G/10+2, then Armageddon; three or
  four: rapid round robin, then "the remaining tied players shall contest a blitz ... a) round robin
  (if three or four players remain tied) or b) 2-game match (if two players remain tied)", then "a
  series of Armageddon Games"; more than four: a blitz round robin, then the Armageddon series.

Colours the regulations leave open (a play-off Armageddon of Norway 2023 and US 2023) are drawn by
lot (``colours="lots"``); US 2013 Armageddon colours and times come from the bid
(``colours="bid"``). A series of Armageddon games among three or four players still tied (US 2023)
has no pairing rule in the regulations: the arbiter names the two players of each game
(``colours="lots"``, ``pair_by_arbiter``); the loser leaves the tie.

Scores within a stage: a win 1, a draw ½; an Armageddon game drawn is Black's win ("Black shall be
declared the winner if the game ends in a draw", US 2023; "black, with draw odds", Norway 2023).
Players who leave the tie are ranked below those still in it (the later they leave, the higher),
among themselves by their stage score, then by the main event's tie-breaks (the order of ``tied``):
"the following tie-breaks will be used for the purposes of the crosstable" (US 2023).
"""

from __future__ import annotations

import dataclasses
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field

from services.tournament.playoffs import (NORWAY_2023, NORWAY_ARMAGEDDON, NORWAY_BLITZ, US_2013, US_2013_RAPID,
                                          US_2023, US_2023_ARMAGEDDON, US_2023_BLITZ, US_2023_RAPID, _berger)

DRAW = "1/2-1/2"
DECIDED_RESULTS = ("1-0", "0-1", DRAW)


@dataclass(frozen=True)
class StageSpec:
    """A stage to create: ``name``, ``kind`` ("match", "round-robin", "double-round-robin",
    "armageddon"), ``players`` (start numbers, best first by the main tie-breaks), ``pairs``:
    ``(white, black)`` per game in board/round order (for ``colours`` other than "fixed" the two
    players, White not decided yet), ``rounds``: each pair's round within the stage (a round robin's
    Berger round; 1 otherwise), ``time_control`` (``playoffs.control`` data; None: the regulations
    give none, the arbiter sets it), ``game_kind`` ("rapid", "blitz", "armageddon"), ``colours``
    ("fixed", "bid": US 2013 bidding, "lots": a drawing of lots), ``pair_by_arbiter`` (the arbiter
    names the two players), ``quote`` (the regulation's words)."""

    name: str
    kind: str
    players: tuple[int, ...]
    pairs: tuple[tuple[int, int], ...]
    rounds: tuple[int, ...]
    time_control: dict | None
    game_kind: str
    colours: str = "fixed"
    pair_by_arbiter: bool = False
    quote: str = ""


@dataclass(frozen=True)
class StageGame:
    """A game of a recorded stage: ``white``, ``black`` (start numbers), ``result`` ("1-0", "0-1",
    "1/2-1/2", "*" while unfinished), ``armageddon`` (draw odds for Black), ``round`` within the stage."""

    white: int
    black: int
    result: str = "*"
    armageddon: bool = False
    round: int = 1


@dataclass(frozen=True)
class StageRecord:
    """A stage as recorded: ``players`` and its ``games``."""

    players: tuple[int, ...]
    games: tuple[StageGame, ...]

    @property
    def finished(self) -> bool:
        """Every game has a result."""
        return all(g.result in DECIDED_RESULTS for g in self.games)

    def scores(self) -> dict[int, float]:
        """Start number -> points in this stage (win 1, draw ½; an Armageddon draw is Black's win)."""
        out = {p: 0.0 for p in self.players}
        for g in self.games:
            result = "0-1" if g.armageddon and g.result == DRAW else g.result
            w, b = {"1-0": (1.0, 0.0), "0-1": (0.0, 1.0), DRAW: (0.5, 0.5)}.get(result, (0.0, 0.0))
            out[g.white] = out.get(g.white, 0.0) + w
            out[g.black] = out.get(g.black, 0.0) + b
        return out


@dataclass(frozen=True)
class NextStage:
    """The tie stands: ``spec`` is the stage to create next; ``how``: what the stages so far did."""

    spec: StageSpec
    how: tuple[str, ...] = ()


@dataclass(frozen=True)
class Playing:
    """Stage ``stage`` (1-based) is being played; ``how``: what the stages before it did."""

    stage: int
    how: tuple[str, ...] = ()


@dataclass(frozen=True)
class ArbiterDecides:
    """The regulations leave the next step to the arbiter (``reason`` quotes them) or need a
    drawing of lots among ``players`` for the order (``lots``)."""

    reason: str
    players: tuple[int, ...] = ()
    lots: bool = False


@dataclass(frozen=True)
class Decided:
    """The play-off is over: ``order`` of the tied players (winner first), ``how``: one sentence
    per stage that decided a place."""

    order: tuple[int, ...]
    how: tuple[str, ...]


Step = NextStage | Playing | ArbiterDecides | Decided


class StageMismatch(ValueError):
    """A recorded stage is not the one the regulations call for at that point (other players)."""


class _Stop(Exception):
    def __init__(self, step: Step):
        self.step = step


@dataclass
class _Walk:
    """Replays the recorded stages against the procedure; ``out`` collects the players who left the
    tie (groups, the later the better), ``how`` the sentences."""

    tied: tuple[int, ...]
    recorded: Sequence[StageRecord]
    names: Mapping[int, str]
    lots: Mapping[int, int]
    i: int = 0
    out: list[list[int]] = field(default_factory=list)
    how: list[str] = field(default_factory=list)

    def name(self, sno: int) -> str:
        return self.names.get(sno, f"#{sno}")

    def play(self, spec: StageSpec) -> StageRecord:
        """The recorded result of ``spec``, the next stage; stops the walk when it is not created
        yet or not finished."""
        if self.i >= len(self.recorded):
            raise _Stop(NextStage(spec))
        rec = self.recorded[self.i]
        if spec.pair_by_arbiter:
            if not set(rec.players) <= set(spec.players) or len(rec.players) != 2:
                raise StageMismatch(f"stage {self.i + 1}: {list(rec.players)} are not two of {list(spec.players)}")
        elif set(rec.players) != set(spec.players):
            raise StageMismatch(f"stage {self.i + 1} ({spec.name}) is for {list(spec.players)}, "
                                f"not {list(rec.players)}")
        self.i += 1
        if not rec.finished:
            raise _Stop(Playing(self.i))
        return rec

    def leaders(self, rec: StageRecord, among: Sequence[int], what: str) -> list[int]:
        """Those of ``among`` on the stage's top score, in ``among``'s order; the others leave the
        tie (ranked by their stage score, then ``among``'s order) and the sentence is written."""
        scores = rec.scores()
        top = max(scores[p] for p in among)
        lead = [p for p in among if scores[p] == top]
        behind = sorted((p for p in among if scores[p] != top), key=lambda p: -scores[p])
        if behind:
            self.out.append(behind)
        shown = ", ".join(f"{self.name(p)} {_pts(scores[p])}" for p in among)
        if len(lead) == 1:
            self.how.append(f"{self.name(lead[0])} won the {what} ({shown})")
        else:
            self.how.append(f"{', '.join(self.name(p) for p in lead)} still tied after the {what} ({shown})")
        return lead

    def decided(self, winner_first: Sequence[int]) -> Decided:
        order = list(winner_first)
        for group in reversed(self.out):
            order += group
        return Decided(tuple(order), tuple(self.how))


def _pts(x: float) -> str:
    return str(int(x)) + ("½" if x % 1 else "") if x >= 1 or not x % 1 else "½"


def _match(name: str, a: int, b: int, tc: dict, kind: str, quote: str) -> StageSpec:
    """A two-game match, ``a`` White in game 1 (the better on the main tie-breaks), colours reversed."""
    return StageSpec(name, "match", (a, b), ((a, b), (b, a)), (1, 2), tc, kind, quote=quote)


def _armageddon(name: str, pairs: Sequence[tuple[int, int]], tc: dict | None, colours: str, quote: str,
                players: Sequence[int] | None = None, by_arbiter: bool = False) -> StageSpec:
    everyone = tuple(players) if players is not None else tuple(p for pair in pairs for p in pair)
    return StageSpec(name, "armageddon", everyone, tuple(pairs), tuple(1 for _ in pairs), tc, "armageddon",
                     colours=colours, pair_by_arbiter=by_arbiter, quote=quote)


def _round_robin(name: str, players: Sequence[int], tc: dict | None, kind: str, quote: str,
                 double: bool = False) -> StageSpec:
    """Berger tables (FIDE C.05 Annex 1) in the order of ``players``; a double round robin plays the
    second cycle with colours reversed."""
    tables = [[(int(w), int(b)) for w, b in table] for table in _berger(players)]
    pairs: list[tuple[int, int]] = []
    rounds: list[int] = []
    for cycle in (0, 1) if double else (0,):
        for r, table in enumerate(tables, start=1):
            for w, b in table:
                pairs.append((b, w) if cycle else (w, b))
                rounds.append(r + cycle * len(tables))
    return StageSpec(name, "double-round-robin" if double else "round-robin", tuple(players), tuple(pairs),
                     tuple(rounds), tc, kind, quote=quote)


# --- the regulations' words ------------------------------------------------------------------------
NORWAY_MATCH = ("This Play-off consists of a two-game blitz match with the time control of 3 min. + 2 sec. "
                "increment per move.")
NORWAY_AGAIN = "If this match ends in a tie, a further match will be played."
NORWAY_ARM = ("If this match ends in a tie, there will be an Armageddon game where white has 10 minutes and black, "
              "with draw odds, has 7 minutes both with an increment of 1 second per move, starting from move 41.")
NORWAY_DRR = ("If more than two players share first place, there will be a double round-robin with the below "
              "tiebreak rules.")
NORWAY_DRR_TIEBREAKS = ("DE", "SB", "KS", "KSX", "LOT")
US13_TWO = "Two Players: The tie will be broken with a two-game rapid match (G/25+5)."
US13_ARM = ("If the contest is still undecided, the match will be decided by an Armageddon Game. Each Player shall "
            "bid an amount of time ... The Player who bids the lowest amount of time chooses his color")
US13_THREE = ("Three players: If there are three Players tied for first, the two Players with the lowest tie-breaks "
              "will contest an Armageddon Game. The winner of this game will face the player with the highest "
              "tie-breaks as described above (\"Two Players\").")
US13_FOUR = ("Four Players: Tie-breaks will be used to determine pairing numbers: 1 plays 4 and 2 plays 3. Each "
             "Player will contest an Armageddon Game. The winner of each game will face one another as described "
             "above (\"Two Players\").")
US13_MORE = ("More Than Four Players: ... The format if more than four players are tied for first will be "
             "determined by the Arbiter and the Chess Club and Scholastic Center of Saint Louis.")
US23_TWO = "Two Players: The tie will be broken with a two-game rapid match (G/10 +2 increment)."
US23_ARM = ("If the contest is still undecided, the match will be decided by an Armageddon Game. ... White shall "
            "start with 5 minutes and black shall start with 4 minutes. A 2-second increment shall be added "
            "starting with move 61. Black shall be declared the winner if the game ends in a draw.")
US23_RAPID_RR = ("Three or Four Players: If there are three or four Players tied for first, the Players shall contest "
                 "a rapid round robin (G/10 +2 increment).")
US23_BLITZ = ("If no clear winner is produced, the remaining tied players shall contest a blitz (G/3 +2 increment) "
              "a) round robin (if three or four players remain tied) or b) 2-game match (if two players remain "
              "tied).")
US23_MORE = ("More Than Four Players: If more than four players are tied for first place, all tied players shall "
             "contest a blitz (G3 + 2 increment) round robin.")
US23_SERIES = ("If the contest is still undecided, the winner will be decided by a series of Armageddon Games. "
               "(The regulations do not say who plays whom: the arbiter names the two players of each game; the "
               "loser leaves the tie.)")


def _norway(w: _Walk) -> Step:
    tied = list(w.tied)
    if len(tied) == 2:
        a, b = tied
        rec = w.play(_match("blitz match", a, b, NORWAY_BLITZ, "blitz", NORWAY_MATCH))
        lead = w.leaders(rec, tied, "blitz match")
        if len(lead) == 1:
            return w.decided(lead)
        rec = w.play(_match("second blitz match", a, b, NORWAY_BLITZ, "blitz", NORWAY_AGAIN))
        lead = w.leaders(rec, tied, "second blitz match")
        if len(lead) == 1:
            return w.decided(lead)
        rec = w.play(_armageddon("Armageddon", [(a, b)], NORWAY_ARMAGEDDON, "lots", NORWAY_ARM))
        return w.decided(w.leaders(rec, tied, "Armageddon game"))
    rec = w.play(_round_robin("double round robin", tied, None, "blitz", NORWAY_DRR, double=True))
    order, lots_needed = _ranked_by_tiebreaks(rec, tied, w.lots)
    if lots_needed:
        return ArbiterDecides("5. Drawing of [lots]: the double round-robin leaves players tied on every other "
                              "tie-break", tuple(lots_needed), lots=True)
    w.how.append(f"{w.name(order[0])} won the double round robin (tie-breaks {', '.join(NORWAY_DRR_TIEBREAKS)})")
    return Decided(tuple(order), tuple(w.how))


def _ranked_by_tiebreaks(rec: StageRecord, players: Sequence[int],
                         lots: Mapping[int, int]) -> tuple[list[int], list[int]]:
    """The players of a round-robin stage ranked by points, then DE, SB, KS, KSX, LOT computed on
    the stage's games (services.tournament.tiebreaks); the second list names players still equal on
    everything because no lots are recorded for them (empty when the order is complete)."""
    from services.arbiter_office.tournament_rank import rank
    from services.tournament.results import GameResult

    names = {p: (str(p), None) for p in players}
    rounds = max((g.round for g in rec.games), default=1)
    records = [(GameResult(g.round, g.white, g.black, "0-1" if g.armageddon and g.result == DRAW else g.result),
                None) for g in rec.games]
    _, rows = rank(names, records, rounds=rounds, tiebreaks=("PTS",) + NORWAY_DRR_TIEBREAKS, round_robin=True,
                   lots=dict(lots) or None)
    by_rank: dict[int, list[int]] = {}
    for r in rows:
        by_rank.setdefault(r.rank, []).append(r.start_no)
    still = next((group for group in by_rank.values() if len(group) > 1), [])
    return [r.start_no for r in rows], still


def _us_2013(w: _Walk) -> Step:
    tied = list(w.tied)

    def two(a: int, b: int, label: str) -> Step:
        rec = w.play(_match(f"{label}rapid match", a, b, US_2013_RAPID, "rapid", US13_TWO))
        lead = w.leaders(rec, [a, b], f"{label}rapid match")
        if len(lead) == 1:
            return w.decided(lead)
        rec = w.play(_armageddon(f"{label}Armageddon", [(a, b)], None, "bid", US13_ARM))
        return w.decided(w.leaders(rec, [a, b], f"{label}Armageddon game"))

    if len(tied) == 2:
        return two(tied[0], tied[1], "")
    if len(tied) == 3:
        top, second, third = tied
        rec = w.play(_armageddon("Armageddon of the two lowest", [(second, third)], None, "bid", US13_THREE))
        (winner,) = w.leaders(rec, [second, third], "Armageddon of the two lowest on tie-breaks")
        return two(top, winner, "final ")
    if len(tied) == 4:
        p1, p2, p3, p4 = tied
        rec = w.play(_armageddon("Armageddon semi-finals", [(p1, p4), (p2, p3)], None, "bid", US13_FOUR))
        scores = rec.scores()
        first = p1 if scores[p1] > scores[p4] else p4
        second = p2 if scores[p2] > scores[p3] else p3
        w.out.append([p for p in tied if p not in (first, second)])  # the losers: by the main tie-breaks
        w.how.append(f"{w.name(first)} and {w.name(second)} won the Armageddon semi-finals")
        return two(first, second, "final ")
    return ArbiterDecides(US13_MORE, tuple(tied))


def _us_2023(w: _Walk) -> Step:
    tied = list(w.tied)
    if len(tied) == 2:
        a, b = tied
        rec = w.play(_match("rapid match", a, b, US_2023_RAPID, "rapid", US23_TWO))
        lead = w.leaders(rec, tied, "rapid match")
        if len(lead) == 1:
            return w.decided(lead)
        rec = w.play(_armageddon("Armageddon", [(a, b)], US_2023_ARMAGEDDON, "lots", US23_ARM))
        return w.decided(w.leaders(rec, tied, "Armageddon game"))
    if len(tied) <= 4:
        rec = w.play(_round_robin("rapid round robin", tied, US_2023_RAPID, "rapid", US23_RAPID_RR))
        left = w.leaders(rec, tied, "rapid round robin")
        if len(left) == 1:
            return w.decided(left)
        if len(left) == 2:
            rec = w.play(_match("blitz match", left[0], left[1], US_2023_BLITZ, "blitz", US23_BLITZ))
            left = w.leaders(rec, left, "blitz match")
        else:
            rec = w.play(_round_robin("blitz round robin", left, US_2023_BLITZ, "blitz", US23_BLITZ))
            left = w.leaders(rec, left, "blitz round robin")
    else:
        rec = w.play(_round_robin("blitz round robin", tied, US_2023_BLITZ, "blitz", US23_MORE))
        left = w.leaders(rec, tied, "blitz round robin")
    n = 0
    while len(left) > 1:
        n += 1
        if len(left) == 2:
            spec = _armageddon(f"Armageddon {n}", [(left[0], left[1])], US_2023_ARMAGEDDON, "lots", US23_SERIES)
        else:  # the arbiter names the two (the regulations do not)
            spec = _armageddon(f"Armageddon {n}", [], US_2023_ARMAGEDDON, "lots", US23_SERIES,
                               players=left, by_arbiter=True)
        rec = w.play(spec)
        (winner,) = w.leaders(rec, list(rec.players), f"Armageddon game {n}")
        loser = next(p for p in rec.players if p != winner)
        left = [p for p in left if p != loser]
    return w.decided(left)


def walk(regulation: str, tied: Sequence[int], recorded: Sequence[StageRecord], *,
         names: Mapping[int, str] | None = None, lots: Mapping[int, int] | None = None) -> Step:
    """The play-off of ``regulation`` ("norway-2023", "us-2013", "us-2023") for ``tied`` (start
    numbers tied for first, best first by the main tie-breaks) after the ``recorded`` stages: the
    :class:`NextStage` to create, the stage :class:`Playing`, an :class:`ArbiterDecides`, or
    :class:`Decided` with the final order. ``names`` for the sentences; ``lots``: start number ->
    lot (lowest first) drawn for the play-off's own last resort.

    Raises ValueError for an unknown regulation or fewer than two tied, StageMismatch when a
    recorded stage has other players than the procedure calls for."""
    tied = tuple(tied)
    if len(tied) < 2 or len(set(tied)) != len(tied):
        raise ValueError(f"a play-off needs two or more different players tied, not {list(tied)}")
    w = _Walk(tied, recorded, names or {}, lots or {})
    try:
        if regulation == NORWAY_2023:
            return _norway(w)
        if regulation == US_2013:
            return _us_2013(w)
        if regulation == US_2023:
            return _us_2023(w)
    except _Stop as stop:
        step = stop.step
        return dataclasses.replace(step, how=tuple(w.how)) if isinstance(step, (NextStage, Playing)) else step
    raise ValueError(f"unknown play-off regulation {regulation!r}")
