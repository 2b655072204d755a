"""What a store holds, asked without writing to it (the read-only commands, and the start-up checks
of the commands that serve a tournament: issue 27 "a misspelt --tournament slug silently serves an
empty hall", "venue export --store sqlite:///missing.sqlite creates the file").

- :func:`missing_store`: why a store URL names no store to read (an SQLite file that is not
  there), else None; nothing is created.
- :func:`tournaments`: the slugs of the tournaments whose logs the store holds (SQLite: the
  ``entries`` table's; Redis: the ``venue:{slug}:log`` streams'; ``memory://``: none it can list).
"""

from __future__ import annotations

import os
import sqlite3

from services.eventlog.base import EventLogError


def missing_store(url: str) -> str | None:
    """Why ``url`` names no existing store (an SQLite URL whose file is missing), else None.
    ValueError for a malformed SQLite URL."""
    if not url.lower().startswith("sqlite:"):
        return None
    from services.eventlog import _sqlite_url

    path, _ = _sqlite_url(url)
    if not os.path.exists(path):
        return f"no event log at {os.path.abspath(path)}: the file does not exist (check --store)"
    return None


async def tournaments(url: str) -> list[str]:
    """The tournaments the store at ``url`` holds a log for, sorted; [] when it holds none or
    cannot list them (``memory://``). Writes nothing. EventLogError when the store cannot be read."""
    scheme = url.split("://", 1)[0].lower()
    if scheme == "sqlite":
        if missing_store(url):
            return []
        from services.eventlog import _sqlite_url

        path, _ = _sqlite_url(url)
        try:
            with sqlite3.connect(f"file:{path}?mode=ro", uri=True) as conn:
                rows = conn.execute("SELECT DISTINCT tournament FROM entries ORDER BY tournament").fetchall()
        except sqlite3.OperationalError as exc:
            if "no such table" in str(exc):
                return []
            raise EventLogError(f"cannot read SQLite event log {path!r}: {exc}") from exc
        except sqlite3.Error as exc:
            raise EventLogError(f"cannot read SQLite event log {path!r}: {exc}") from exc
        return [r[0] for r in rows]
    if scheme in ("redis", "rediss"):
        import redis.asyncio as aioredis

        client = aioredis.Redis.from_url(url, decode_responses=True, socket_timeout=5)
        try:
            found = {key[len("venue:{"):-len("}:log")] async for key in client.scan_iter(match="venue:{*}:log",
                                                                                       count=1000)}
        except Exception as exc:  # redis-py's connection errors have no common base with ours
            raise EventLogError(f"cannot list the tournaments in Redis: {exc}") from exc
        finally:
            await client.aclose()
        return sorted(found)
    return []


def naming(slug: str, held: list[str]) -> str:
    """The sentence that names what a store holds when ``slug`` is not among them: the closest
    slugs first (a misspelling), then the rest (at most 10)."""
    if not held:
        return f"the store holds no tournament's log (none named {slug!r})"
    import difflib

    close = difflib.get_close_matches(slug, held, n=3, cutoff=0.6)
    listed = close + [h for h in held if h not in close]
    more = f" and {len(listed) - 10} more" if len(listed) > 10 else ""
    hint = f"; did you mean {close[0]!r}?" if close else ""
    return f"the store holds no log named {slug!r}; it holds: {', '.join(listed[:10])}{more}{hint}"
