"""What changed between the tournament the log registered and the tournament file given now: the
``changes`` of a ``tournament_registered`` entry (docs/tournament-log.md "A changed file"). Pure.

A change is ``{"section", "key", "was", "now"}``, setting by setting:

- ``section``: ``"tournament"`` (name, slug, game, system, kind, rounds_total, site,
  federation, chief_arbiter, deputy_arbiters), ``"players"``,
  ``"schedule"``, ``"boards"``, ``"time_controls"`` or ``"regulations"``;
- ``key``: where in the section: a player's start number and field (``"3.rating"``; ``"11"`` for a
  whole player added or removed), a round's number and ``start``/``end_ms`` (``"1.start"``), a
  hall board's number, a kind of game (``"classical"``), a regulation's dotted path
  (``"default_time_ms.classical"``, ``"draw_offers.policy"``);
- ``was``/``now``: the values as registered and as in the file (JSON; null where absent).

:func:`describe` writes one change as a line for the organiser. A round's ``start_ms`` is left out:
it is the ``start`` text read, and the text is what the organiser wrote.
"""

from __future__ import annotations

import json
from datetime import datetime, timezone

NOT_THE_FILE = ("changes", "by")
"""Fields of a ``tournament_registered`` entry that record the registration, not the file."""

SECTIONS = {"tournament": ("name", "slug", "game", "system", "kind", "rounds_total", "site", "federation",
                           "chief_arbiter", "deputy_arbiters"),
            "players": ("players",), "schedule": ("rounds",), "boards": ("boards",),
            "time_controls": ("time_controls",), "regulations": ("regulations",)}
"""Each section and the top-level fields of the registered data it covers, in the order shown."""

_ABSENT = object()


def file_part(data: dict) -> dict:
    """A ``tournament_registered`` entry's data without what records the registration itself
    (``changes``, ``by``), as plain JSON: what a tournament file says. A top-level setting that is
    empty (``""``, ``[]``, null) counts as absent: the log's entry spells an unset
    ``federation``/``chief_arbiter``/``deputy_arbiters`` as its default, the file leaves it out."""
    return json.loads(json.dumps({k: v for k, v in data.items()
                                  if k not in NOT_THE_FILE and v not in ("", [], None)}))


def registration_changes(registered: dict, filed: dict) -> list[dict]:
    """The changes (module docstring) from ``registered`` (the data of the log's latest
    ``tournament_registered``) to ``filed`` (``tournament_registered_data`` of the file given now).
    [] when the file says what was registered. Fields neither section covers are compared as
    ``"tournament"`` settings, so a field added in a later version still shows."""
    was, now = file_part(registered), file_part(filed)
    out: list[dict] = []
    covered = {f for fields in SECTIONS.values() for f in fields}
    for section, fields in SECTIONS.items():
        if section == "tournament":
            fields = fields + tuple(sorted(k for k in {*was, *now} if k not in covered))
        for name in fields:
            a, b = was.get(name, _ABSENT), now.get(name, _ABSENT)
            if section == "players":
                a, b = _by(a, "start_no"), _by(b, "start_no")
            elif section == "schedule":
                a, b = _schedule(a), _schedule(b)
            elif section == "boards":
                a, b = _boards(a), _boards(b)
            prefix = name if section == "tournament" else ""
            _diff(section, prefix, a, b, out)
    return out


def _by(items, key: str) -> dict:
    """A list of dicts as {str(item[key]): item without key}."""
    if not isinstance(items, list):
        return {}
    return {str(item.get(key)): {k: v for k, v in item.items() if k != key} for item in items if isinstance(item, dict)}


def _schedule(rounds) -> dict:
    return {k: {f: v.get(f) for f in ("start", "end_ms")} for k, v in _by(rounds, "number").items()}


def _boards(boards) -> dict:
    return {str(b): b for b in boards} if isinstance(boards, list) else {}


def _diff(section: str, key: str, was, now, out: list[dict]) -> None:
    if isinstance(was, dict) and isinstance(now, dict):
        for k in dict.fromkeys([*was, *now]):
            _diff(section, f"{key}.{k}" if key else str(k), was.get(k, _ABSENT), now.get(k, _ABSENT), out)
        return
    if was == now:
        return
    out.append({"section": section, "key": key, "was": None if was is _ABSENT else was,
                "now": None if now is _ABSENT else now})


LABELS = {"tournament": "tournament", "players": "player", "schedule": "round", "boards": "hall board",
          "time_controls": "time control", "regulations": "regulations"}


def describe(change: dict) -> str:
    """One change as a line: ``player 3 rating: 2700 -> 2710``, ``player 11 added: {...}``,
    ``round 1 start: "2023-10-05T13:00:00-05:00" -> "2023-10-05T14:00:00-05:00"``,
    ``regulations default_time_ms.classical: 30 min -> 15 min``; a value absent on one side is
    ``(none)``, a whole player, round or hall board added or removed is said so."""
    section, key = change["section"], change["key"]
    head, _, rest = key.partition(".")
    if section in ("players", "schedule"):
        where = f"{LABELS[section]} {head}" + (f" {rest}" if rest else "")
    else:
        where = f"{LABELS[section]} {key}"
    was, now = _shown(key, change["was"]), _shown(key, change["now"])
    whole = section in ("players", "schedule", "boards") and not rest
    if whole and change["was"] is None:
        return f"{where} added: {now}"
    if whole and change["now"] is None:
        return f"{where} removed (was {was})"
    return f"{where}: {was} -> {now}"


def _shown(key: str, value) -> str:
    """A value as the organiser reads it: instants (``end_ms``) in UTC, durations (``..._ms``) in
    minutes or seconds, text and tables as JSON, an absent value as ``(none)``."""
    if value is None:
        return "(none)"
    if isinstance(value, int) and not isinstance(value, bool):
        if key.endswith("end_ms"):
            return datetime.fromtimestamp(value / 1000, timezone.utc).isoformat(timespec="seconds")
        if "_ms" in key:
            return f"{value / 60000:g} min" if value % 60000 == 0 and value else f"{value / 1000:g} s"
    return json.dumps(value, ensure_ascii=False)
