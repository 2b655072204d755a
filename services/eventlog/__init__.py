"""The event log backends, chosen by URL (DESIGN.md, "Event log"; interface in ``base``).

``open_log(url, tournament)`` returns an ``EventLog``:

- ``memory://``: a fresh, private in-process log (tests); ``memory://NAME``: an in-process log
  shared by every ``open_log`` of the same NAME and tournament in this process.
- ``sqlite:///PATH``: the embedded default, as SQLAlchemy spells it: ``sqlite:///venue.sqlite`` is
  relative to the working directory, ``sqlite:////var/lib/venue/log.sqlite`` (four slashes) is
  absolute. Options: ``?synchronous=normal|full`` (durability, see ``sqlite``) and ``?poll_ms=5``
  (how often followers look for other processes' appends).
- ``redis://HOST:PORT/DB`` (or ``rediss://`` for TLS, with ``user:password@`` if needed): Redis
  Streams, the shared log for deployments with several gateway or dashboard processes.

Errors: ValueError for an unknown scheme, a malformed URL or a bad tournament slug; EventLogError
when a SQLite file cannot be opened (at once) or Redis cannot be reached (from the first call).
Afterwards every log may raise ``LogReplaced`` (an EventLogError: the store's log is not the one
this instance knew) and refuses entries that are not UTF-8 JSON with ``BadEntryError`` (a
ValueError); see base.py, "Identity".

Entries handed out (by ``append``, ``read``, ``follow``) may be shared between callers: treat them,
and their ``data`` dicts, as read-only.
"""

from __future__ import annotations

from urllib.parse import parse_qsl, urlsplit

from services.eventlog.base import BadEntryError, Entry, EventLog, EventLogError, LogReplaced

__all__ = ["BadEntryError", "Entry", "EventLog", "EventLogError", "LogReplaced", "open_log"]

_SQLITE_OPTIONS = {"synchronous", "poll_ms"}


def open_log(url: str, tournament: str) -> EventLog:
    """Open ``tournament``'s log in the store named by ``url`` (see the module docstring).

    Raises ValueError (unknown scheme, bad URL or option, bad slug) or EventLogError (a SQLite file
    that cannot be opened). Redis connects lazily, so its errors come from the first call.
    """
    if not isinstance(url, str) or "://" not in url:
        raise ValueError(f"event log URL must look like scheme://..., got {url!r}")
    scheme = url.split("://", 1)[0].lower()
    if scheme == "memory":
        from services.eventlog.memory import MemoryLog

        name = urlsplit(url).netloc
        return MemoryLog(tournament, name=name or None)
    if scheme == "sqlite":
        from services.eventlog.sqlite import SqliteLog

        path, options = _sqlite_url(url)
        return SqliteLog(path, tournament, **options)
    if scheme in ("redis", "rediss"):
        from services.eventlog.redis import RedisLog

        return RedisLog(url, tournament)
    raise ValueError(
        f"unknown event log URL scheme {scheme!r} in {url!r}: use memory://, sqlite:///PATH "
        "or redis://HOST:PORT/DB"
    )


def _sqlite_url(url: str) -> tuple[str, dict]:
    """``sqlite:///PATH?opts`` -> (PATH, {option: value}); ValueError on anything else."""
    if not url.startswith("sqlite:///"):
        raise ValueError(f"SQLite URL must be sqlite:///PATH (sqlite:////ABS/PATH), got {url!r}")
    rest = url[len("sqlite:///"):]
    path, _, query = rest.partition("?")
    if not path or path == ":memory:":
        raise ValueError(f"SQLite URL {url!r} names no file (use memory:// for an in-memory log)")
    options: dict = {}
    for key, value in parse_qsl(query, keep_blank_values=True, strict_parsing=False):
        if key not in _SQLITE_OPTIONS:
            raise ValueError(f"unknown SQLite option {key!r} in {url!r}: use {sorted(_SQLITE_OPTIONS)}")
        if key == "poll_ms":
            try:
                options[key] = float(value)
            except ValueError as exc:
                raise ValueError(f"SQLite option poll_ms must be a number, got {value!r}") from exc
        else:
            options[key] = value
    return path, options
