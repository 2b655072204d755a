"""The tournament so far as a FIDE TRF16 file (C.04 Annex 2), from a tie-break :class:`Field`.

Pure. :func:`trf_from_field` writes one ``001`` line per player with every round's block (opponent,
colour, the TRF code from the player's side: "1" "=" "0" played, "+" "-" forfeits, "U" "H" "F" "Z"
byes; a round not played yet, or a game still in progress, is blank), the points in the event's
scoring and the rank; header lines 012 (name), 022 (site), 042/052 (first and last scheduled round dates), 062 (players), 092 (type), XXR (rounds)
and XXC (the colour of the first-ranked player in round 1, for the Dutch system). Norway Chess
Armageddon results cannot be written in TRF16: the blocks carry the classical results only (what
FIDE rates), the points column the event's points.

Two-game matches (checkers 11-Man National 2017: each round a match of two games, colours reversed
in game 2): TRF16 has one block per game, so with ``seconds`` (``results.second_games``) every round
``r`` of the event is written as two TRF rounds, ``2r - 1`` (game 1) and ``2r`` (game 2, the same
opponent, the other colour), and XXR gives ``2 x`` the rounds: a reader then sees each game as a
game and the points column is the sum of the blocks' codes. A round without a second game (a
pairing-allocated bye scores one game's win, docs/checkers.md) has its game-2 block blank.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence

from services.tournament.model import Field
from services.tournament.trf import TrfGame, TrfPlayer, TrfTournament


def _date(iso: str) -> str:
    """"2023-10-05T13:00:00-05:00" -> "2023/10/05" (TRF dates); "" when not a date."""
    return iso[:10].replace("-", "/") if len(iso) >= 10 and iso[4] == "-" else ""


TRF_NAME_WIDTH = 33  # TRF16 player line: the name in columns 15-47


def trf_name(name: str) -> str:
    """``name`` as the TRF16 name field holds it: its first 33 characters (trailing blanks cut). The
    tournament file and the standings keep the whole name; only the TRF column is this wide."""
    return name[:TRF_NAME_WIDTH].rstrip()


def trf_from_field(fld: Field, *, name: str, rounds_total: int, site: str = "", system: str = "",
                   players_info: dict[int, dict] | None = None, ranks: dict[int, int] | None = None,
                   dates: Sequence[str] = (), initial_color: str | None = "white",
                   seconds: Mapping[tuple[int, int], tuple[str | None, str]] | None = None) -> TrfTournament:
    """A :class:`TrfTournament` of ``fld``.

    ``players_info``: start number -> {"fide_id", "federation", "title"} (the tournament file's
    player fields); ``ranks``: start number -> rank (standings); ``dates``: the rounds' scheduled
    starts (ISO 8601) for 042/052; ``initial_color``: "white"/"black" written as ``XXC white1`` /
    ``black1`` (None: no XXC line); ``seconds``: the second games of two-game matches,
    ``(start_no, round) -> (colour, code)``: every round is written as two TRF rounds (module
    docstring). Raises ValueError when a field does not fit its TRF columns
    (checked when the file is dumped by ``services.tournament.trf.dump_trf``).
    """
    info = players_info or {}
    header = [f"012 {name}"]
    if site:
        header.append(f"022 {site}")
    days = [d for d in (_date(x) for x in dates) if d]
    if days:
        header += [f"042 {min(days)}", f"052 {max(days)}"]
    header.append(f"062 {len(fld.players)}")
    if system:
        header.append(f"092 {system.replace('-', ' ').capitalize()}")
    per_round = 2 if seconds else 1
    header.append(f"XXR {rounds_total * per_round}")
    if initial_color in ("white", "black"):
        header.append(f"XXC {initial_color}1")
    t = TrfTournament(total_rounds=rounds_total * per_round, header=header)
    t.order = [("H", i) for i in range(len(header))]
    for sno in sorted(fld.players):
        p = fld.players[sno]
        extra = info.get(sno, {})
        # a game in progress is written blank: TRF16 has no code for "paired, no result yet", and a
        # trailing block without its result is cut short for readers (services.tournament.trf)
        games = []
        for e in p.entries:
            blocks = [(e.opponent, e.color, e.code)]
            if seconds:
                blocks.append((e.opponent, *seconds.get((sno, e.round), (None, " "))))
            for i, (opponent, colour, code) in enumerate(blocks):
                rnd = (e.round - 1) * per_round + i + 1
                games.append(TrfGame(rnd, None, None, " ") if code == " " else TrfGame(rnd, opponent, colour, code))
        while games and games[-1].result == " " and games[-1].opponent is None:
            games.pop()  # rounds not played yet are left off the line
        t.players[sno] = TrfPlayer(
            start_no=sno, title=(extra.get("title") or "")[:3], name=trf_name(p.name), rating=p.rating,
            federation=(extra.get("federation") or "")[:3], fide_id=str(extra.get("fide_id") or ""),
            points=p.points, rank=(ranks or {}).get(sno), games=games)
        t.order.append(("P", sno))
    return t
