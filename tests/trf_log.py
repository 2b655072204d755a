"""Log entries for a Swiss tournament given as a TRF16 file (the Dutch fixtures of
../shared/data/pairing/dutch), as the venue would have written them round by round.

For tests of pairing from the log (``services.arbiter_office.round_from_file.round_from_view``) and of the
arbiter's actions: a parsed TRF in, ``(type, data)`` entries out:

- ``tournament_registered`` with the file's players (start numbers, names, ratings), ``XXR`` rounds,
  system "swiss-dutch";
- per round played: ``round_started`` (a SETUP per game, White first; byes with their TRF code
  ``U``/``H``/``F``/``Z`` in ``byes``), then ``game_ended`` per game (``+``/``-`` as forfeits);
- the file's entries for the round after the last one played (requested byes, ``0000 - H`` ...)
  as ``bye_requested`` entries, which is what an arbiter would have recorded.

Blank rounds (absences without a code) have no entry: the log has none for them either.
"""

from __future__ import annotations

from services.eventlog.base import Entry
from services.tournament.pairing.actions import rounds_paired
from services.tournament.results import results_from_trf
from services.tournament.trf import TrfTournament
from services.views.standings import TournamentView

RESULTS = {"1-0": ("1-0", False), "0-1": ("0-1", False), "1/2-1/2": ("1/2-1/2", False),
           "+-": ("1-0", True), "-+": ("0-1", True), "--": ("0-0", True)}
"""GameResult codes as ``game_ended`` writes them: (result, forfeit)."""


def trf_entries(t: TrfTournament, slug: str = "swiss") -> list[tuple[str, dict]]:
    """The entries of ``t`` (module docstring), in log order."""
    played = rounds_paired(t)
    out: list[tuple[str, dict]] = [("tournament_registered", {
        "name": t.name or "Swiss", "slug": slug, "system": "swiss-dutch", "rounds_total": t.total_rounds,
        "time_controls": {"classical": "5400+30"},
        "players": [{"start_no": p.start_no, "name": p.name, "rating": p.rating} for p in t.players.values()]})]
    results = results_from_trf(t)
    for rnd in range(1, played + 1):
        games = [g for g in results if g.round == rnd and g.black is not None]
        setups = [{"id": f"{rnd}-{i}", "board": str(i), "round": str(rnd), "white": t.players[g.white].name,
                   "white_no": g.white, "black": t.players[g.black].name, "black_no": g.black}
                  for i, g in enumerate(games, start=1)]
        byes = [{"start_no": g.white, "code": g.result} for g in results if g.round == rnd and g.black is None]
        out.append(("round_started", {"round": str(rnd), "games": setups, "byes": byes}))
        for i, g in enumerate(games, start=1):
            result, forfeit = RESULTS[g.result]
            out.append(("game_ended", {"game": f"{rnd}-{i}", "result": result, "forfeit": forfeit}))
    out += [("bye_requested", {"start_no": g.white, "round": played + 1, "code": g.result})
            for g in results if g.round == played + 1 and g.black is None]
    return out


def as_log(entries: list[tuple[str, dict]], first_seq: int = 1) -> list[Entry]:
    """``entries`` as log entries with seqs (and ``at``) from ``first_seq``."""
    return [Entry(seq, seq, type_, data) for seq, (type_, data) in enumerate(entries, start=first_seq)]


def folded(entries: list[tuple[str, dict]]) -> TournamentView:
    """A TournamentView that folded ``entries``."""
    view = TournamentView()
    for entry in as_log(entries):
        view.apply(entry)
    return view


def read_pairs(text: str) -> set[tuple[int, int | None]]:
    """The bbpPairings output format (count, then ``white black`` lines, ``N 0`` the bye) as a set of
    (white, black or None)."""
    words = text.split()
    return {(int(w), None if b == "0" else int(b)) for w, b in zip(words[1::2], words[2::2])}


def pairs_of(round_data: dict) -> set[tuple[int, int | None]]:
    """The boards of a ``round_started`` data and its pairing-allocated bye (an int in ``byes``) as
    (white, black or None)."""
    return ({(g["white_no"], g["black_no"]) for g in round_data["games"]}
            | {(b, None) for b in round_data["byes"] if isinstance(b, int)})
