"""The tournament so far as a FIDE TRF16 file (C.04 Annex 2), from a tie-break :class:`Field`.

Pure. :func:`trf_from_field` writes one ``001`` line per player with every round's block (opponent,
colour, the TRF code from the player's side: "1" "=" "0" played, "+" "-" forfeits with the scheduled
opponent and colour (FIDE's TieBreakServer pairs the two sides of a forfeit by their colours), "U"
"H" "F" "Z" byes as ``0000 - X``; a round not played yet, or a game still in
progress, is blank), the points and the rank (the final order given in ``ranks``); the tournament
section as TRF16 lists it: 012 name, 022 city, 032 federation, 042/052 dates of start and end, 062
players, 072 rated players, 092 type, 102 chief arbiter, 112 one line per other arbiter, 122 the time
control, 132 the dates of the rounds ("YY/MM/DD" at columns 92-99, 102-109, ...); then XXR (rounds),
XXC (the first colour, for the Dutch system) and one XXP line per forbidden pair (JaVaFo's and
bbpPairings' extension, as ``services.tournament.pairing.actions`` writes it).

Points: the column must agree with the result codes (TRF16: "the number of points in the tournament
standings, which depends on the scoring points system used"). Norway Chess 2023 scores a classical
draw by its Armageddon game, which no code can say: with ``standings`` (the event's points per
round) the column holds the classical points (what FIDE rates and the tie-breaks count), the file
states that system (BBW ... lines) and keeps the event's points in our own ``VPS``/``VPT`` lines
(``services.tournament.trf_points``); ``venue tiebreaks`` reads them back to the same standings.

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
from services.tournament.scoring import CLASSICAL
from services.tournament.trf import TrfGame, TrfPlayer, TrfTournament
from services.tournament.trf_points import point_system_lines, standings_lines


def _date(iso: str) -> str:
    """"2023-10-05T13:00:00-05:00" or "2023.10.05" -> "2023/10/05" (TRF dates); "" when not a date."""
    return iso[:10].replace("-", "/").replace(".", "/") if len(iso) >= 10 and iso[4] in "-." else ""


ROUND_DATES_COLUMN = 92
"""TRF16 132 line: "92 - 99 Round 1 date", "102 - 109 Round 2 date", ... (format YY/MM/DD)."""


def round_dates_line(dates: Sequence[str]) -> str:
    """The 132 line for the rounds' dates (ISO 8601 or "YYYY.MM.DD"; "" leaves that round's date blank)."""
    cells = [_date(d)[2:] for d in dates]
    return ("132".ljust(ROUND_DATES_COLUMN - 1) + "  ".join(f"{c:<8}" for c in cells)).rstrip()


TRF_NAME_WIDTH = 33  # TRF16 player line: the name in columns 15-47


def trf_name(name: str) -> str:
    """``name`` as the TRF16 name field holds it: its first 33 characters (trailing blanks cut). The
    tournament file and the standings keep the whole name; only the TRF column is this wide."""
    return name[:TRF_NAME_WIDTH].rstrip()


def trf_from_field(fld: Field, *, name: str, rounds_total: int, site: str = "", system: str = "",
                   players_info: dict[int, dict] | None = None, ranks: dict[int, int] | None = None,
                   dates: Sequence[str] = (), initial_color: str | None = "white",
                   seconds: Mapping[tuple[int, int], tuple[str | None, str]] | None = None,
                   federation: str = "", chief_arbiter: str = "", arbiters: Sequence[str] = (),
                   time_control: str = "", round_dates: Sequence[str] = (),
                   forbidden: Sequence[Sequence[int]] = (), standings: str = "",
                   scheduled_colours: Mapping[tuple[int, int], str] | None = None) -> TrfTournament:
    """A :class:`TrfTournament` of ``fld``.

    ``players_info``: start number -> {"fide_id", "federation", "title"} (the tournament file's
    player fields); ``ranks``: start number -> rank (the final order); ``dates``: the rounds'
    days (ISO 8601 or "YYYY.MM.DD"; the export gives the days played, else scheduled) for 042/052,
    the first and the last; ``initial_color``: "white"/"black" written as ``XXC
    white1`` / ``black1`` (None: no XXC line); ``seconds``: the second games of two-game matches,
    ``(start_no, round) -> (colour, code)``: every round is written as two TRF rounds (module
    docstring); ``federation``, ``chief_arbiter``, ``arbiters``, ``time_control``: lines 032, 102,
    112 (one each), 122; ``round_dates``: each round's date, in round order, for 132; ``forbidden``:
    groups of start numbers that must not meet (XXP); ``standings``: the event's point system in
    words when its points are not the classical ones (Norway): the column then holds ``fld``'s
    tie-break points and the event's are kept in VPS/VPT lines (module docstring);
    ``scheduled_colours``: ``(start_no, round) -> "w"/"b"``, the colour a forfeited game was
    scheduled with (TRF16 97: "Scheduled color against the scheduled opponent"). Raises
    ValueError when a field does not fit its TRF columns (checked when the file is dumped by
    ``services.tournament.trf.dump_trf``).
    """
    info = players_info or {}
    header = [f"012 {name}"]
    if site:
        header.append(f"022 {site}")
    if federation:
        header.append(f"032 {federation}")
    days = [d for d in (_date(x) for x in dates) if d]
    if days:
        header += [f"042 {min(days)}", f"052 {max(days)}"]
    header.append(f"062 {len(fld.players)}")
    header.append(f"072 {sum(1 for p in fld.players.values() if p.rating)}")
    if system:
        header.append(f"092 {system.replace('-', ' ').capitalize()}")
    if chief_arbiter:
        header.append(f"102 {chief_arbiter}")
    header += [f"112 {a}" for a in arbiters if a]
    if time_control:
        header.append(f"122 {time_control}")
    if any(_date(d) for d in round_dates):
        header.append(round_dates_line(round_dates))
    per_round = 2 if seconds else 1
    header.append(f"XXR {rounds_total * per_round}")
    if initial_color in ("white", "black"):
        header.append(f"XXC {initial_color}1")
    header += ["XXP " + " ".join(str(s) for s in sorted(group)) for group in forbidden]
    if standings:
        header += point_system_lines(CLASSICAL)
        header += standings_lines(standings, {s: [e.points for e in p.entries] for s, p in fld.players.items()})
    t = TrfTournament(total_rounds=rounds_total * per_round, header=header)
    t.order = [("H", i) for i in range(len(header))]
    for sno in sorted(fld.players):
        p = fld.players[sno]
        extra = info.get(sno, {})
        # a game in progress is written blank: TRF16 has no code for "paired, no result yet", and a
        # trailing block without its result is cut short for readers (services.tournament.trf)
        games = []
        for e in p.entries:
            colour = e.color or (scheduled_colours or {}).get((sno, e.round)) if e.code in "+-" else e.color
            blocks = [(e.opponent, colour, e.code)]
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
            points=p.tb_points if standings else p.points, rank=(ranks or {}).get(sno), games=games)
        t.order.append(("P", sno))
    return t
