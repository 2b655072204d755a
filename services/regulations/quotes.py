"""Which rule an entry cites: the event's own words from its tournament file, else the FIDE Laws.

A tournament file quotes its regulation beside a setting (``rule = "..."`` in that setting's table,
docs/tournament-file.md), so the audit trail of each event cites its own regulations; nothing
event-specific is written in the product's code. Pure."""

from __future__ import annotations


def rule_for(state, key: str, fallback: str, detail: str | None = None) -> str:
    """The file's quote for setting ``key`` ("armageddon", "armageddon_draw", "default_time",
    "draw_offers", "fines", "late_start", "time_trouble", "clock", "match_carry", "match_flag",
    ...), prefixed with the event's name; ``fallback`` (the Laws' article, or a plain description)
    when the file quotes nothing. ``state``: a ``HallState`` (its tournament in force) or a
    ``Tournament``; ``detail``: how the rule applies here (e.g. the moves made), added after the
    quote (the fallback already says it)."""
    t = getattr(state, "config", state)
    regs = getattr(t, "regulations", None)
    quote = (getattr(regs, "rules", None) or {}).get(key)
    if not quote:
        return fallback
    text = f"{t.name}: {quote}" if getattr(t, "name", "") and not quote.startswith(t.name) else quote
    return f"{text} ({detail})" if detail else text
