"""FIDE Tournament Report File (TRF16, FIDE Handbook C.04 Annex 2): read and write.

Pure: text in, dataclasses out, and back. Column positions are those of TRF16 (1-based, inclusive):

    001 player line   1-3 "001", 5-8 start number, 10 sex, 11-13 title, 15-47 name, 49-52 rating,
                      54-56 federation, 58-68 FIDE id, 70-79 birth date, 81-84 points, 86-89 rank,
                      then one 10-column block per round from column 92:
                      92-95 opponent (blank or "0000" = none), 97 colour (w/b/-), 99 result code.
    012 ... 132       tournament header lines (name, city, federation, dates, ..., time control);
    XX*               extension lines (XXR number of rounds, XXC colour/configuration, XXA ...).
    142 ... 362, 240-330   TRF-2026 records (142 number of rounds, 162 score system, 192 type,
                      202/212 tie-breaks, 240 byes, 250 acceleration, 260 prohibited pairings, 320 PAB,
                      330 forfeits, ...): 142 is read as the number of rounds when there is no XXR; the
                      others are kept verbatim (not interpreted) so that they survive a round trip.

Every non-player line is kept verbatim, in file order, so that ``dump_trf(parse_trf(x)) == x`` modulo
trailing whitespace and line endings. A player line whose fields were not changed since it was read is
written back byte for byte (files differ in small ways: "0000" vs blank for "no opponent", a name
indented by a space); a changed or new player is written in the canonical TRF16 layout.

Result codes (column 99): "1" "0" "=" played; "+" "-" forfeit win/loss; "W" "D" "L" unrated win,
draw, loss; "H" half-point bye; "F" full-point bye; "U" pairing-allocated bye; "Z" zero-point bye;
" " not (yet) played.
"""

from __future__ import annotations

from dataclasses import dataclass, field

RESULT_CODES = frozenset("10=+-WDLHFUZ ")
"""TRF16 result codes (column 99 and every 10th column after it)."""

HEADER_CODES = ("012", "022", "032", "042", "052", "062", "072", "082", "092", "102", "112", "122", "132")
"""TRF16 tournament-section codes: name, city, federation, start, end, players, rated players,
teams, type, chief arbiter, deputy arbiters, time control, round dates."""

_ROUND_START = 91  # 0-based index of column 92, the first round block
_ROUND_WIDTH = 10


@dataclass
class TrfGame:
    """One round of a player line.

    ``round`` is 1-based; ``opponent`` the opponent's start number, None for no opponent ("0000" or
    blank: byes, absences); ``color`` "w", "b" or None ("-" or blank); ``result`` a TRF code of
    :data:`RESULT_CODES`.
    """

    round: int
    opponent: int | None
    color: str | None
    result: str


@dataclass
class TrfPlayer:
    """A TRF16 ``001`` line. Text fields are stripped; empty numeric fields are None.

    ``points`` is the score as printed (column 81-84); ``rank`` the printed rank. ``games`` holds one
    :class:`TrfGame` per round block present on the line, in round order.
    """

    start_no: int
    sex: str = ""
    title: str = ""
    name: str = ""
    rating: int | None = None
    federation: str = ""
    fide_id: str = ""
    birth: str = ""
    points: float | None = None
    rank: int | None = None
    games: list[TrfGame] = field(default_factory=list)
    raw: str | None = field(default=None, compare=False, repr=False)
    """The line as read (for an exact write-back while the fields are unchanged); not compared."""

    def game(self, rnd: int) -> TrfGame | None:
        """The game of round ``rnd`` (1-based), or None when the line has no block for it."""
        if 1 <= rnd <= len(self.games):
            return self.games[rnd - 1]
        return None


@dataclass
class TrfTournament:
    """A parsed TRF file.

    ``players`` maps start number to player; ``total_rounds`` is the XXR value (else the TRF-2026
    record 142; None when both are absent);
    ``header`` holds every non-player line verbatim (without line end), in file order;
    ``order`` records where player lines sat among them, as ("H", header index) / ("P", start number)
    pairs, so that a dump keeps the file's layout. New players missing from ``order`` are written
    after the last known line, in start-number order.
    """

    players: dict[int, TrfPlayer] = field(default_factory=dict)
    total_rounds: int | None = None
    header: list[str] = field(default_factory=list)
    order: list[tuple[str, int]] = field(default_factory=list, compare=False, repr=False)

    def header_value(self, code: str) -> str | None:
        """Text after the 3-character ``code`` (e.g. "012" the name, "XXR") of its first line, stripped;
        None when the file has no such line."""
        for line in self.header:
            if line[:3] == code:
                return line[4:].strip()
        return None

    @property
    def name(self) -> str | None:
        """The tournament name (line 012)."""
        return self.header_value("012")

    @property
    def rounds_played(self) -> int:
        """The highest round that any player line has a block for."""
        return max((len(p.games) for p in self.players.values()), default=0)


def _field(line: str, start: int, end: int) -> str:
    """Columns ``start``..``end`` (1-based, inclusive) of ``line``, blank-padded."""
    return line[start - 1:end].ljust(end - start + 1)


def _int_or_none(text: str, lineno: int, what: str) -> int | None:
    text = text.strip()
    if not text:
        return None
    try:
        return int(text)
    except ValueError:
        raise ValueError(f"line {lineno}: {what}: not a number: {text!r}") from None


def _float_or_none(text: str, lineno: int, what: str) -> float | None:
    text = text.strip()
    if not text:
        return None
    try:
        return float(text)
    except ValueError:
        raise ValueError(f"line {lineno}: {what}: not a number: {text!r}") from None


def parse_player_line(line: str, lineno: int = 1) -> TrfPlayer:
    """Parse one TRF16 ``001`` line.

    Raises ValueError "line N: FIELD: ..." for a missing start number, a non-numeric rating, points,
    rank or opponent, an unknown colour or result code, or a round block that is cut short.
    """
    line = line.rstrip("\r\n")
    if not line.startswith("001"):
        raise ValueError(f"line {lineno}: record: a player line starts with 001, got {line[:3]!r}")
    start_no = _int_or_none(_field(line, 5, 8), lineno, "start number (columns 5-8)")
    if start_no is None:
        raise ValueError(f"line {lineno}: start number (columns 5-8): missing")
    player = TrfPlayer(
        start_no=start_no,
        sex=_field(line, 10, 10).strip(),
        title=_field(line, 11, 13).strip(),
        name=_field(line, 15, 47).strip(),
        rating=_int_or_none(_field(line, 49, 52), lineno, "rating (columns 49-52)"),
        federation=_field(line, 54, 56).strip(),
        fide_id=_field(line, 58, 68).strip(),
        birth=_field(line, 70, 79).strip(),
        points=_float_or_none(_field(line, 81, 84), lineno, "points (columns 81-84)"),
        rank=_int_or_none(_field(line, 86, 89), lineno, "rank (columns 86-89)"),
        raw=line,
    )
    body = line.rstrip()
    rnd = 0
    pos = _ROUND_START
    while pos - 2 < len(body):
        rnd += 1
        block = line[pos:pos + 8].ljust(8)
        col = pos + 1  # 1-based column of the opponent field
        if line[pos - 2:pos].strip():
            raise ValueError(f"line {lineno}: round {rnd} (column {col - 2}): expected blanks between rounds")
        if len(body) < pos + 8 and body[pos:].strip():
            raise ValueError(f"line {lineno}: round {rnd} (columns {col}-{col + 7}): block cut short")
        opp_text, color, result = block[0:4], block[5], block[7]
        if block[4] != " " or block[6] != " ":
            raise ValueError(f"line {lineno}: round {rnd} (columns {col}-{col + 7}): misaligned block {block!r}")
        opponent = _int_or_none(opp_text, lineno, f"round {rnd} opponent (columns {col}-{col + 3})")
        if opponent == 0:
            opponent = None
        if color not in "wb- ":
            raise ValueError(f"line {lineno}: round {rnd} colour (column {col + 5}): unknown {color!r}")
        if result not in RESULT_CODES:
            raise ValueError(f"line {lineno}: round {rnd} result (column {col + 7}): unknown code {result!r}")
        if opponent is not None and opponent == start_no:
            raise ValueError(f"line {lineno}: round {rnd} opponent (columns {col}-{col + 3}): paired with itself")
        player.games.append(TrfGame(rnd, opponent, color if color in "wb" else None, result))
        pos += _ROUND_WIDTH
    return player


def parse_trf(text: str) -> TrfTournament:
    """Parse a whole TRF16 file (``\\n`` or ``\\r\\n`` line ends).

    Returns a :class:`TrfTournament`. Raises ValueError naming the line number and field for a
    malformed player line, a duplicate start number, a bad XXR value, or a round entry whose opponent
    is not in the file.
    """
    t = TrfTournament()
    for lineno, line in enumerate(text.splitlines(), start=1):
        line = line.rstrip("\r\n")
        if line.startswith("001"):
            p = parse_player_line(line, lineno)
            if p.start_no in t.players:
                raise ValueError(f"line {lineno}: start number (columns 5-8): duplicate {p.start_no}")
            t.players[p.start_no] = p
            t.order.append(("P", p.start_no))
            continue
        if line.startswith("XXR") or line.startswith("142"):
            value = line[3:].strip()
            if not value.isdigit():
                raise ValueError(f"line {lineno}: {line[:3]} (number of rounds): not a number: {value!r}")
            if line.startswith("XXR") or t.total_rounds is None:
                t.total_rounds = int(value)
        t.order.append(("H", len(t.header)))
        t.header.append(line)
    for p in t.players.values():
        for g in p.games:
            if g.opponent is not None and g.opponent not in t.players:
                lineno = 1 + next(i for i, o in enumerate(t.order) if o == ("P", p.start_no))
                raise ValueError(
                    f"line {lineno}: round {g.round} opponent: start number {g.opponent} is not in the file"
                )
    return t


class TrfFieldError(ValueError):
    """A value that does not fit its TRF16 columns (a writing problem, not a results one)."""


def format_player_line(p: TrfPlayer) -> str:
    """The canonical TRF16 ``001`` line for ``p`` (trailing blanks removed).

    Raises TrfFieldError (a ValueError) when a field does not fit its columns.
    """

    def fit(value: str, width: int, what: str) -> str:
        if len(value) > width:
            raise TrfFieldError(f"player {p.start_no}: {what}: {value!r} is wider than {width} columns")
        return value

    points = "" if p.points is None else f"{p.points:.1f}"
    head = (
        f"001 {fit(str(p.start_no), 4, 'start number'):>4} {fit(p.sex, 1, 'sex'):1}{fit(p.title, 3, 'title'):>3} "
        f"{fit(p.name, 33, 'name'):<33} {fit('' if p.rating is None else str(p.rating), 4, 'rating'):>4} "
        f"{fit(p.federation, 3, 'federation'):<3} {fit(p.fide_id, 11, 'FIDE id'):>11} "
        f"{fit(p.birth, 10, 'birth date'):<10} {fit(points, 4, 'points'):>4} "
        f"{fit('' if p.rank is None else str(p.rank), 4, 'rank'):>4}"
    )
    blocks = []
    for g in p.games:
        if g.result not in RESULT_CODES:
            raise ValueError(f"player {p.start_no}: round {g.round} result: unknown code {g.result!r}")
        opp = "0000" if g.opponent is None and g.result != " " else ("" if g.opponent is None else str(g.opponent))
        color = g.color or ("-" if g.result != " " else " ")
        blocks.append(f"  {fit(opp, 4, 'opponent'):>4} {color} {g.result}")
    return (head + "".join(blocks)).rstrip()


def _player_line(p: TrfPlayer) -> str:
    if p.raw is not None:
        try:
            if parse_player_line(p.raw) == p:
                return p.raw.rstrip()
        except ValueError:
            pass
    return format_player_line(p)


def _header_line(t: TrfTournament, line: str) -> str:
    """The header line as read, except XXR, which follows ``t.total_rounds`` when that was changed."""
    if line.startswith("XXR") and t.total_rounds is not None and line[3:].strip() != str(t.total_rounds):
        return f"XXR {t.total_rounds}"
    return line.rstrip()


def dump_trf(t: TrfTournament) -> str:
    """Write ``t`` as TRF16 text, ``\\n`` line ends, a final newline, no trailing blanks.

    Unchanged player lines are written as read; changed or new ones in the canonical layout
    (:func:`format_player_line`). Raises ValueError when a field does not fit its columns.
    """
    lines: list[str] = []
    written: set[int] = set()
    order = t.order or [("H", i) for i in range(len(t.header))]
    for kind, key in order:
        if kind == "H":
            if key < len(t.header):
                lines.append(_header_line(t, t.header[key]))
        elif key in t.players:
            lines.append(_player_line(t.players[key]))
            written.add(key)
    known_headers = {key for kind, key in order if kind == "H"}
    for i, line in enumerate(t.header):
        if i not in known_headers:
            lines.append(line.rstrip())
    for start_no in sorted(t.players):
        if start_no not in written:
            lines.append(_player_line(t.players[start_no]))
    if t.total_rounds is not None and not any(line.startswith("XXR") for line in t.header):
        if t.header_value("142") != str(t.total_rounds):
            lines.append(f"XXR {t.total_rounds}")
    return "\n".join(lines) + "\n"
