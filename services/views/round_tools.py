"""The arbiter's "Round tools" panel: what the next pairing will read from the log (docs/arbiter.md
"Round tools"). A projection of the folded state (``services.state.HallState``), no I/O.

``round_tools(state)`` -> ``{"seq" (the last log entry folded), "event", "system", "swiss", "rounds_total", "latest_round",
"next_round", "acceleration", "players": [PLAYER...], "absent_next": [ABSENT...],
"requested_byes": [BYE...], "late_entries": [ENTRY...], "forbidden": [[start_no...]...]}``:

- PLAYER ``{"start_no", "name", "rating", "withdrawn_from" (or null), "first_round" (a late
  entry's, or null)}`` by start number;
- ABSENT ``{"start_no", "name", "code"}``: whom the pairing of ``next_round`` leaves out and with
  which TRF code (``TournamentState.absences``: a requested bye's H/F/Z, a withdrawal's Z, a late
  entry's missed round);
- BYE ``{"round", "start_no", "name", "code"}``: the requested byes of rounds not paired yet (they
  can still be cancelled);
- ENTRY ``{"start_no", "name", "first_round", "missed"}``.

``next_round`` is null after the last round; ``event`` and ``system`` are null without a
registered tournament file (then the panel has nothing to act on). ``draft``: the next round's
draft pairing (:func:`draft_json`; null before it is paired: docs/pairing.md "The round's life
cycle"); ``roster``: start numbers given by registration (C.04.2 order), not the file's order.
"""

from __future__ import annotations


def round_tools(state) -> dict:
    """The panel's data for ``state`` (see the module docstring)."""
    t = state.config
    ts = state.tournament
    latest = max((int(r) for r in state.rounds if r.isdigit()), default=0)
    total = t.rounds_total if t is not None else 0
    nxt = latest + 1 if latest < total else None

    def name(sno: int) -> str:
        return (ts.players.get(sno) or {}).get("name") or f"#{sno}"

    return {
        "seq": state.seq, "event": t.name if t is not None else None, "system": t.system if t is not None else None,
        "swiss": t is not None and t.system == "swiss-dutch", "rounds_total": total, "latest_round": latest,
        "next_round": nxt, "acceleration": ts.acceleration,
        "players": [{"start_no": sno, "name": p["name"], "rating": p.get("rating"),
                     "withdrawn_from": ts.withdrawn.get(sno),
                     "first_round": (ts.late_entries.get(sno) or {}).get("first_round")}
                    for sno, p in sorted(ts.players.items())],
        "absent_next": [] if nxt is None else [{"start_no": sno, "name": name(sno), "code": code}
                                               for sno, code in sorted(ts.absences(nxt).items())],
        "requested_byes": [{"round": rnd, "start_no": sno, "name": name(sno), "code": code}
                           for rnd, byes in sorted(ts.requested_byes.items()) if rnd > latest
                           for sno, code in sorted(byes.items())],
        "late_entries": [{"start_no": sno, "name": name(sno), **e} for sno, e in sorted(ts.late_entries.items())],
        "forbidden": [list(group) for group in ts.forbidden],
        "draft": draft_json(ts.drafts.get(nxt)) if nxt is not None else None,
        "roster": ts.roster,
    }


def draft_json(d) -> dict | None:
    """DRAFT of a ``PairingDraft`` (None: none): ``{"round", "system", "version", "published"
    (the version published, or null), "is_published", "started", "drafted_by", "published_by",
    "boards": [{"board", "white_no", "white", "black_no", "black", "colour_rule", "reasons"}],
    "byes": [{"start_no", "player", "code", "reasons"}], "changes", "refused", "outdated"}`` (``outdated``: the game ids of the round before whose result
    changed after a Swiss draft was paired: pair it again before publishing or starting it)."""
    if d is None:
        return None
    import msgspec

    return {"round": d.round, "system": d.system, "version": d.version, "published": d.published,
            "is_published": d.is_published, "started": d.started, "drafted_by": d.drafted_by,
            "published_by": d.published_by, "boards": msgspec.to_builtins(d.boards),
            "byes": msgspec.to_builtins(d.byes), "changes": list(d.changes), "refused": list(d.refused),
            "outdated": list(d.outdated)}
