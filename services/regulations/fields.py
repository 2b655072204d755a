"""Typed field readers for the tournament file, each error naming the field and its line.

A TOML syntax error carries its own line (tomllib); a value of the wrong kind does not, so
``line_of`` finds the line where the key is written. Pure: works on the text already read.
"""

from __future__ import annotations

import re
from typing import Any


class TournamentFileError(ValueError):
    """A tournament file that cannot be used. ``field`` is the dotted path (e.g.
    ``regulations.draw_offers.policy``), ``line`` the 1-based line in the file (None if unknown),
    ``source`` the file name; ``str()`` reads "FILE:LINE: FIELD: problem"."""

    def __init__(self, problem: str, *, field: str | None = None, line: int | None = None,
                 source: str = "<tournament file>"):
        self.problem = problem
        self.field = field
        self.line = line
        self.source = source
        where = f"{source}:{line}" if line else source
        what = f"{field}: " if field else ""
        super().__init__(f"{where}: {what}{problem}")


def line_of(text: str, path: str) -> int | None:
    """The 1-based line where the last key of dotted ``path`` is written, looking inside the table
    the earlier parts name (``[a.b]``, ``[[a]]`` or inline). Array indices (``players[3]``) pick the
    n-th ``[[players]]`` block. Returns None when the key cannot be found (e.g. a missing field:
    then the table's own header line, if any)."""
    parts = re.findall(r"[^.\[\]]+|\[\d+\]", path)
    lines = text.splitlines()
    # Find the table header that contains the key, honouring [[array]] indices.
    table_parts: list[str] = []
    index: int | None = None
    for p in parts[:-1]:
        if p.startswith("["):
            index = int(p[1:-1])
        else:
            table_parts.append(p)
    key = parts[-1] if parts and not parts[-1].startswith("[") else None
    start, end = 0, len(lines)
    header_line: int | None = None
    for depth in range(len(table_parts), 0, -1):
        name = ".".join(table_parts[:depth])
        hdr = re.compile(r"^\s*\[\[?\s*" + re.escape(name) + r"\s*\]\]?\s*(#.*)?$")
        hits = [i for i, ln in enumerate(lines) if hdr.match(ln)]
        if hits:
            pick = hits[index] if index is not None and index < len(hits) else hits[0]
            header_line = pick + 1
            start = pick + 1
            end = next((j for j in range(start, len(lines)) if re.match(r"^\s*\[", lines[j])), len(lines))
            # Keys of the deeper parts may be written dotted inside this table.
            key_prefix = table_parts[depth:]
            break
    else:
        key_prefix = table_parts
    if key is None:
        return header_line
    dotted = ".".join([*key_prefix, key])
    pat = re.compile(r"^\s*" + re.escape(dotted) + r"\s*=")
    inline = re.compile(r"\b" + re.escape(key) + r"\s*=")
    for j in range(start, end):
        if pat.match(lines[j]):
            return j + 1
    for j in range(start, end):
        if inline.search(lines[j]):
            return j + 1
    if header_line is None:  # a table of its own: its header ("[tourney]", an unknown section)
        hdr = re.compile(r"^\s*\[\[?\s*" + re.escape(".".join([*table_parts, key])) + r"\s*\]\]?\s*(#.*)?$")
        return next((i + 1 for i, ln in enumerate(lines) if hdr.match(ln)), None)
    return header_line


_DURATION = re.compile(r"^(?:(\d+)h)?(?:(\d+)m(?!s))?(?:(\d+(?:\.\d+)?)s)?(?:(\d+)ms)?$")


def duration_ms(value: Any) -> int:
    """A duration as milliseconds: an int is taken as ms; a string like "30m", "1h30m", "90s",
    "2.5s", "500ms" or "0". Raises ValueError on anything else or a negative value."""
    if isinstance(value, bool):
        raise ValueError(f"not a duration: {value!r}")
    if isinstance(value, int):
        if value < 0:
            raise ValueError(f"a duration cannot be negative: {value}")
        return value
    if isinstance(value, str):
        s = value.strip().replace(" ", "")
        if s == "0":
            return 0
        m = _DURATION.match(s)
        if m and any(m.groups()):
            h, mi, sec, ms = m.groups()
            return int(h or 0) * 3_600_000 + int(mi or 0) * 60_000 + round(float(sec or 0) * 1000) + int(ms or 0)
    raise ValueError(f'not a duration: {value!r} (write e.g. "30m", "90s", "1h30m" or milliseconds)')
