"""The tournament so far as a FIDE TRF16 file (C.04 Annex 2), from a tie-break :class:`Field`.

Pure. :func:`trf_from_field` writes one ``001`` line per player with every round's block (opponent,
colour, the TRF code from the player's side: "1" "=" "0" played, "+" "-" forfeits, "U" "H" "F" "Z"
byes; a round not played yet, or a game still in progress, is blank), the points in the event's
scoring and the rank; header lines 012 (name), 022 (site), 042/052 (first and last scheduled round dates), 062 (players), 092 (type), XXR (rounds)
and XXC (the colour of the first-ranked player in round 1, for the Dutch system). Norway Chess
Armageddon results cannot be written in TRF16: the blocks carry the classical results only (what
FIDE rates), the points column the event's points.
"""

from __future__ import annotations

from collections.abc import Sequence

from services.tournament.model import Field
from services.tournament.trf import TrfGame, TrfPlayer, TrfTournament


def _date(iso: str) -> str:
    """"2023-10-05T13:00:00-05:00" -> "2023/10/05" (TRF dates); "" when not a date."""
    return iso[:10].replace("-", "/") if len(iso) >= 10 and iso[4] == "-" else ""


def trf_from_field(fld: Field, *, name: str, rounds_total: int, site: str = "", system: str = "",
                   players_info: dict[int, dict] | None = None, ranks: dict[int, int] | None = None,
                   dates: Sequence[str] = (), initial_color: str | None = "white") -> TrfTournament:
    """A :class:`TrfTournament` of ``fld``.

    ``players_info``: start number -> {"fide_id", "federation", "title"} (the tournament file's
    player fields); ``ranks``: start number -> rank (standings); ``dates``: the rounds' scheduled
    starts (ISO 8601) for 042/052; ``initial_color``: "white"/"black" written as ``XXC white1`` /
    ``black1`` (None: no XXC line). Raises ValueError when a field does not fit its TRF columns
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
    header.append(f"XXR {rounds_total}")
    if initial_color in ("white", "black"):
        header.append(f"XXC {initial_color}1")
    t = TrfTournament(total_rounds=rounds_total, header=header)
    t.order = [("H", i) for i in range(len(header))]
    for sno in sorted(fld.players):
        p = fld.players[sno]
        extra = info.get(sno, {})
        # a game in progress is written blank: TRF16 has no code for "paired, no result yet", and a
        # trailing block without its result is cut short for readers (services.tournament.trf)
        games = [TrfGame(e.round, None, None, " ") if e.code == " " else TrfGame(e.round, e.opponent, e.color, e.code)
                 for e in p.entries]
        while games and games[-1].result == " " and games[-1].opponent is None:
            games.pop()  # rounds not played yet are left off the line
        t.players[sno] = TrfPlayer(
            start_no=sno, title=(extra.get("title") or "")[:3], name=p.name, rating=p.rating,
            federation=(extra.get("federation") or "")[:3], fide_id=str(extra.get("fide_id") or ""),
            points=p.points, rank=(ranks or {}).get(sno), games=games)
        t.order.append(("P", sno))
    return t
