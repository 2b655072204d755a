"""Players imported from a file before the first round (docs/tournament-log.md "Registration"): a
FIDE TRF16 file (its ``001`` lines), a CSV file with a header row, or FIDE's rating-list text file
(the fixed-width download of ratings.fide.com: ``ID Number  Name  Fed Sex Tit WTit OTit FOA SRtng
...``, or the standard list with the month's column). Pure: text in, players out.

Every row is checked (a name; a rating 0-3500 or empty, 0 read as unrated; a FIDE title; a FIDE ID
of digits; a three-letter federation; no name or FIDE ID twice): the first fault raises
:class:`RosterFileError` "FILE:LINE: field: problem", and nothing is registered.
"""

from __future__ import annotations

import csv
import io
import re

from services.events.tournament import PlayersRegistered, RegisteredPlayer
from services.tournament.initial_ranking import title_of
from services.tournament.trf import parse_player_line

MAX_PLAYERS = 5000

CSV_COLUMNS = {
    "name": ("name", "player", "player name"),
    "surname": ("surname", "last name", "lastname", "family name"),
    "first": ("first name", "firstname", "given name", "forename"),
    "rating": ("rating", "elo", "fide rating", "rtg", "fide elo"),
    "title": ("title", "tit", "fide title"),
    "fide_id": ("fide id", "fide_id", "fideid", "fide-id", "id"),
    "federation": ("federation", "fed", "country", "nation"),
    "sex": ("sex", "gender"),
    "birth": ("birth", "born", "birthday", "b-day", "birth date", "year of birth"),
    "team": ("team", "club"),
}
"""A CSV header's names (case and spaces ignored) for each field: a ``name``, or ``surname`` and
``first`` name (written "Surname, First"), the others optional."""


class RosterFileError(ValueError):
    """A file of players that cannot be imported: ``str()`` is "FILE:LINE: field: problem"."""


SAVE_AS_UTF8 = ('save the file as UTF-8 (Excel: "CSV UTF-8"; LibreOffice: character set "Unicode (UTF-8)") '
                'and import it again')
"""The fix for a file in another encoding. None is guessed: Excel's "CSV (Windows)" is Windows-1252 in
one country and another code page in the next, and a name read in the wrong one is registered
misspelt on every pairing, result and rating report."""


def decode_players_file(data: bytes, filename: str) -> str:
    """The text of an import file's bytes: UTF-8, a leading byte order mark dropped (Excel's "CSV
    UTF-8" writes one). RosterFileError "FILE:LINE:COLUMN: ..." at the first byte that is not UTF-8
    (Excel's "CSV (Windows)" writes "Müller" with the one byte 0xFC), with ``SAVE_AS_UTF8``; the
    column counts the characters of its line from 1."""
    try:
        return data.decode("utf-8").removeprefix("\ufeff")
    except UnicodeDecodeError as exc:  # plain utf-8: its offsets count the BOM's bytes, utf-8-sig's do not
        line = data.count(b"\n", 0, exc.start) + 1
        before = data[data.rfind(b"\n", 0, exc.start) + 1:exc.start].decode("utf-8").removeprefix("\ufeff")
        raise RosterFileError(f"{filename}:{line}:{len(before) + 1}: byte 0x{data[exc.start]:02X} is not UTF-8 "
                              f"text: {SAVE_AS_UTF8}") from None


def _unread_character(text: str, filename: str) -> None:
    """RosterFileError at the first U+FFFD of ``text``: the mark a reader leaves for a byte that is not
    UTF-8 (the console's browser reads the file so, ``File.text()``), never a player's letter."""
    at = text.find("\ufffd")
    if at >= 0:
        line = text.count("\n", 0, at) + 1
        column = at - (text.rfind("\n", 0, at) + 1) + 1
        raise RosterFileError(f"{filename}:{line}:{column}: a character that was not UTF-8 text (read as "
                              f"U+FFFD): {SAVE_AS_UTF8}")


def read_players(text: str, filename: str) -> list[RegisteredPlayer]:
    """The players of an import file: TRF16 (a ``.trf`` file, or lines starting ``012``/``001``), FIDE's
    rating list (a first line starting ``ID Number``), else CSV. Raises RosterFileError naming the
    file and line of the first fault (with the column of a character that was not UTF-8 text, read
    as U+FFFD), or when the file has no player."""
    text = text.lstrip("\ufeff")
    _unread_character(text, filename)
    lines = text.splitlines()
    first = next((line for line in lines if line.strip()), "")
    if filename.lower().endswith(".trf") or re.match(r"^(012|001) ", first):
        rows = _trf(lines, filename)
    elif first.startswith("ID Number"):
        rows = _fide_list(lines, filename)
    else:
        rows = _csv(text.lstrip("\ufeff"), filename)
    if not rows:
        raise RosterFileError(f"{filename}: no player in the file")
    if len(rows) > MAX_PLAYERS:
        raise RosterFileError(f"{filename}: {len(rows)} players: at most {MAX_PLAYERS} at once")
    seen: dict[str, int] = {}
    out = []
    for lineno, raw in rows:
        p = _player(raw, filename, lineno)
        for key in (f"name:{p.name.casefold()}", f"id:{p.fide_id}" if p.fide_id else ""):
            if key and key in seen:
                raise RosterFileError(f"{filename}:{lineno}: {key.split(':')[0].replace('id', 'FIDE ID')}: "
                                      f"{p.name} is in the file twice (line {seen[key]} too)")
            if key:
                seen[key] = lineno
        out.append(p)
    return out


def _player(raw: dict, filename: str, lineno: int) -> RegisteredPlayer:
    """One row checked (module docstring)."""
    where = f"{filename}:{lineno}"
    name = " ".join(str(raw.get("name") or "").split())
    if not name:
        raise RosterFileError(f"{where}: name: missing")
    rating_text = str(raw.get("rating") or "").strip()
    rating = None
    if rating_text:
        if not rating_text.isdigit() or int(rating_text) > 3500:
            raise RosterFileError(f"{where}: rating: {rating_text!r} is not a rating (0-3500, or empty)")
        rating = int(rating_text) or None
    try:
        title = title_of(raw.get("title"))
    except ValueError as exc:
        raise RosterFileError(f"{where}: {exc}") from None
    fide_id = str(raw.get("fide_id") or "").strip() or None
    if fide_id is not None and (not fide_id.isdigit() or len(fide_id) > 12):
        raise RosterFileError(f"{where}: FIDE ID: {fide_id!r} is not a FIDE ID (digits)")
    if fide_id == "0":
        fide_id = None
    fed = str(raw.get("federation") or "").strip().upper() or None
    if fed is not None and not re.fullmatch(r"[A-Z]{3}", fed):
        raise RosterFileError(f"{where}: federation: {fed!r} is not a three-letter federation code")
    sex = str(raw.get("sex") or "").strip().lower()[:1] or None
    if sex is not None and sex not in ("m", "w", "f"):
        raise RosterFileError(f"{where}: sex: {raw.get('sex')!r} (m or w)")
    return RegisteredPlayer(name=name[:200], rating=rating, title=title, fide_id=fide_id, federation=fed,
                            sex={"f": "w"}.get(sex or "", sex), birth=(str(raw.get("birth") or "").strip() or None),
                            team=(str(raw.get("team") or "").strip()[:100] or None))


def _trf(lines: list[str], filename: str) -> list[tuple[int, dict]]:
    out = []
    for lineno, line in enumerate(lines, start=1):
        if not line.startswith("001"):
            continue
        try:
            p = parse_player_line(line, lineno)
        except ValueError as exc:
            raise RosterFileError(f"{filename}:{str(exc).removeprefix('line ')}") from None
        out.append((lineno, {"name": p.name, "rating": p.rating, "title": p.title, "fide_id": p.fide_id,
                             "federation": p.federation, "sex": p.sex, "birth": p.birth}))
    return out


FIDE_FIELDS = {"Name": "name", "Fed": "federation", "Sex": "sex", "Tit": "title", "B-day": "birth"}


def _fide_list(lines: list[str], filename: str) -> list[tuple[int, dict]]:
    """FIDE's fixed-width list: each column from its header word's first character to the next's;
    the rating is ``SRtng`` (the combined list) or the month's column after ``FOA`` (``MAR25``)."""
    header = lines[0]
    starts = [(m.start(), m.group()) for m in re.finditer(r"ID Number|\S+", header)]
    cols = {word: (start, starts[i + 1][0] if i + 1 < len(starts) else None) for i, (start, word) in enumerate(starts)}
    rating = "SRtng" if "SRtng" in cols else next((w for _, w in starts if re.fullmatch(r"[A-Za-z]{3}\d{2}", w)), None)
    if "ID Number" not in cols or "Name" not in cols or rating is None:
        raise RosterFileError(f"{filename}:1: header: not FIDE's rating list (ID Number, Name, Fed, Tit, a rating)")
    out = []
    for lineno, line in enumerate(lines[1:], start=2):
        if not line.strip():
            continue

        def cut(word: str) -> str:
            start, end = cols[word]
            return line[start:end].strip()

        row = {key: cut(word) for word, key in FIDE_FIELDS.items() if word in cols}
        row["fide_id"], row["rating"] = cut("ID Number"), cut(rating)
        out.append((lineno, row))
    return out


def _csv(text: str, filename: str) -> list[tuple[int, dict]]:
    try:
        dialect = csv.Sniffer().sniff(text.split("\n", 1)[0], delimiters=",;\t")
    except csv.Error:
        dialect = csv.excel  # one column: the sniffer finds no delimiter
    reader = csv.reader(io.StringIO(text), dialect)
    try:
        header = next(reader)
    except StopIteration:
        return []
    names = {" ".join(h.strip().lower().replace("_", " ").split()): i for i, h in enumerate(header)}
    index = {}
    for key, aliases in CSV_COLUMNS.items():
        found = [names[a.replace("_", " ")] for a in aliases if a.replace("_", " ") in names]
        if found:
            index[key] = found[0]
    if "name" not in index and not ("surname" in index and "first" in index):
        raise RosterFileError(f"{filename}:1: header: no name column (name, or surname and first name); found "
                              f"{', '.join(h for h in header if h.strip()) or 'nothing'}")
    out = []
    try:
        for row in reader:
            lineno = reader.line_num
            if not any(cell.strip() for cell in row):
                continue
            if len(row) > len(header):
                raise RosterFileError(f"{filename}:{lineno}: {len(row)} fields, the header has {len(header)}")
            cell = {k: (row[i] if i < len(row) else "") for k, i in index.items()}
            if "name" not in index:
                cell["name"] = f"{cell['surname'].strip()}, {cell['first'].strip()}".strip(", ")
            out.append((lineno, cell))
    except csv.Error as exc:
        raise RosterFileError(f"{filename}:{reader.line_num}: {exc}") from None
    return out


def registration_entry(state, players: list[RegisteredPlayer], source: str | None, *, by: str | None = None,
                       note: str | None = None) -> PlayersRegistered:
    """The ``players_registered`` entry for ``players`` on the folded ``state`` (a ``HallState``).
    ValueError (nothing registered) when the start numbers are fixed (round 1 drafted or started:
    enter a late player instead) or a player's name or FIDE ID is registered already."""
    from services.state.fold_pairing import numbers_fixed

    fixed = numbers_fixed(state)
    if fixed:
        raise ValueError(f"start numbers are fixed ({fixed}): enter a late player instead (enter_player)")
    names = {p["name"].casefold(): sno for sno, p in state.tournament.players.items()}
    ids = {str(p["fide_id"]): sno for sno, p in state.tournament.players.items() if p.get("fide_id")}
    for p in players:
        if p.name.casefold() in names:
            raise ValueError(f"{p.name} is registered already (start number {names[p.name.casefold()]})")
        if p.fide_id and p.fide_id in ids:
            raise ValueError(f"FIDE ID {p.fide_id} ({p.name}) is registered already (start number {ids[p.fide_id]})")
    return PlayersRegistered(players=players, source=source, by=by, note=note)
