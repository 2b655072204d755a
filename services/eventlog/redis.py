"""The shared event log: Redis Streams (URL ``redis://HOST:PORT/DB``, ``rediss://`` for TLS).

One stream per tournament, key ``venue:{slug}:log``, beside a counter ``venue:{slug}:seq``; the
braces are a Redis Cluster hash tag, so both keys live in one slot. Each entry is stored with the
explicit stream ID ``{seq}-0`` and one field ``entry``, the JSON text ``{"at": ms, "type": str,
"data": {...}}`` (one field, not three: a Python client spends its time parsing reply elements), so a
stream ID *is* the entry's ``seq`` and ``XREAD`` after ``{seq}-0`` resumes exactly.

Appends run one Lua script (atomic on the server) that takes the next seqs from the counter and
XADDs the entries, so seq is unique and contiguous across every process writing the tournament.
Concurrent appends from tasks of one process are coalesced into one script call (group commit).
Durability is Redis's: run it with ``appendonly yes`` (deploy/redis.conf).

Followers use ``XREAD BLOCK``: any number of dashboard processes can follow one tournament.
Appends are never retried by the client (a retry after a lost reply could append twice); a follower
rides out a connection loss for up to ``_FOLLOW_RETRY_S`` before raising EventLogError.
"""

from __future__ import annotations

import asyncio
import json
from collections.abc import AsyncIterator
from urllib.parse import urlsplit, urlunsplit

import redis.asyncio as aioredis
from redis.asyncio.retry import Retry
from redis.backoff import NoBackoff
from redis.exceptions import ConnectionError as RedisConnectionError
from redis.exceptions import RedisError
from redis.exceptions import TimeoutError as RedisTimeoutError

from services.eventlog._batch import GroupCommit
from services.eventlog._rows import Row, check_tournament, make_row, make_rows
from services.eventlog.base import Entry, EventLog, EventLogError

# KEYS[1] counter, KEYS[2] stream; ARGV: one entry JSON each. Returns the first seq.
# The counter is seeded from the stream's last ID if it was lost, so seq never goes back.
_APPEND_LUA = """
local n = #ARGV
local seq = tonumber(redis.call('GET', KEYS[1]) or '0')
if seq == 0 then
  local top = redis.call('XREVRANGE', KEYS[2], '+', '-', 'COUNT', 1)
  if #top > 0 then seq = tonumber(string.match(top[1][1], '^(%d+)')) end
end
for i = 1, n do
  redis.call('XADD', KEYS[2], string.format('%d-0', seq + i), 'entry', ARGV[i])
end
redis.call('SET', KEYS[1], seq + n)
return seq + 1
"""
_PAGE = 1000  # entries per XRANGE/XREAD call
_BLOCK_MS = 2000  # XREAD BLOCK; below the socket timeout so an idle follow is not an error
_SOCKET_TIMEOUT_S = 10.0
_CONNECT_TIMEOUT_S = 3.0
_FOLLOW_RETRY_S = 10.0


def stream_key(tournament: str) -> str:
    """The stream key of a tournament's log: ``venue:{slug}:log``."""
    return f"venue:{{{tournament}}}:log"


def counter_key(tournament: str) -> str:
    """The key of a tournament's seq counter: ``venue:{slug}:seq``."""
    return f"venue:{{{tournament}}}:seq"


def _redact(url: str) -> str:
    """The URL without its password, for error messages."""
    parts = urlsplit(url)
    if parts.password is None:
        return url
    host = parts.hostname or ""
    netloc = f"{parts.username or ''}:***@{host}" + (f":{parts.port}" if parts.port else "")
    return urlunsplit(parts._replace(netloc=netloc))


def _encode(row: Row) -> str:
    """The stream field ``entry``: ``{"at":ms,"type":"...","data":{...}}`` (data already JSON)."""
    return f'{{"at":{row.at},"type":{json.dumps(row.type, ensure_ascii=False)},"data":{row.data_json}}}'


def _entry(stream_id: str, fields: dict) -> Entry:
    """Decode one stream item (``fields`` is ``{"entry": json}``); EventLogError if it is not ours."""
    try:
        e = json.loads(fields["entry"])
        return Entry(seq=int(stream_id.split("-", 1)[0]), at=e["at"], type=e["type"], data=e["data"])
    except (KeyError, TypeError, ValueError) as exc:
        raise EventLogError(f"stream item {stream_id} is not a venue log entry: {fields!r:.200}") from exc


def _xread_items(resp) -> list:
    """The ``(id, fields)`` items of an XREAD reply for one key, whether RESP2 (list) or RESP3 (dict)."""
    if not resp:
        return []
    groups = resp.values() if isinstance(resp, dict) else (items for _key, items in resp)
    return [item for items in groups for item in items]


class RedisLog(EventLog):
    """One tournament's log in Redis at ``url`` (``redis://[[user]:password@]host:port/db``).

    Connecting is lazy: an unreachable or refusing server raises EventLogError (with the address)
    from the first call. ValueError for a bad slug, URL or entry.
    """

    def __init__(self, url: str, tournament: str):
        self.tournament = check_tournament(tournament)
        self.url = _redact(url)
        try:
            self._client = aioredis.Redis.from_url(
                url, decode_responses=True, socket_timeout=_SOCKET_TIMEOUT_S,
                socket_connect_timeout=_CONNECT_TIMEOUT_S, retry=Retry(NoBackoff(), 0),
                health_check_interval=30,
            )
        except ValueError as exc:
            raise ValueError(f"bad Redis URL {self.url!r}: {exc}") from exc
        self._stream = stream_key(tournament)
        self._counter = counter_key(tournament)
        self._script = self._client.register_script(_APPEND_LUA)
        self._commit = GroupCommit(self._write)
        self._closed = False

    def _error(self, doing: str, exc: Exception) -> EventLogError:
        return EventLogError(f"cannot {doing} Redis event log {self._stream} at {self.url}: {exc}")

    def _check_open(self) -> None:
        if self._closed:
            raise EventLogError(f"event log {self._stream} at {self.url} is closed")

    async def _write(self, rows: list[Row]) -> list[Entry]:
        args = [_encode(r) for r in rows]
        try:
            first = int(await self._script(keys=[self._counter, self._stream], args=args))
        except RedisError as exc:
            raise self._error("append to", exc) from exc
        return [row.entry(first + i) for i, row in enumerate(rows)]

    async def append(self, type: str, data: dict, at: int | None = None) -> Entry:
        """Append one entry; returns it once Redis has stored it. ValueError on a bad entry,
        EventLogError when Redis cannot be reached or refuses (nothing appended, or, if the
        connection broke after sending, possibly appended: the caller cannot know)."""
        row = make_row(type, data, at)
        self._check_open()
        return (await self._commit.submit([row]))[0]

    async def append_many(self, items: list[tuple[str, dict, int | None]]) -> list[Entry]:
        """Append ``[(type, data, at), ...]`` in one script call: atomic, in order, contiguous seqs."""
        rows = make_rows(items)
        self._check_open()
        return await self._commit.submit(rows) if rows else []

    async def read(self, after: int = 0, limit: int | None = None) -> list[Entry]:
        """Entries with ``seq > after`` in order, at most ``limit`` (None: all, paged by 1000)."""
        self._check_open()
        out: list[Entry] = []
        cursor = max(after, 0)
        while limit is None or len(out) < limit:
            want = _PAGE if limit is None else min(_PAGE, limit - len(out))
            try:
                items = await self._client.xrange(self._stream, min=f"({cursor}-0", count=want)
            except RedisError as exc:
                raise self._error("read", exc) from exc
            out += [_entry(i, f) for i, f in items]
            if len(items) < want:
                break
            cursor = out[-1].seq
        return out

    async def last_seq(self) -> int:
        """The highest seq (the last stream ID), 0 when empty."""
        self._check_open()
        try:
            top = await self._client.xrevrange(self._stream, count=1)
        except RedisError as exc:
            raise self._error("read", exc) from exc
        return int(top[0][0].split("-", 1)[0]) if top else 0

    async def follow(self, after: int = 0) -> AsyncIterator[Entry]:
        """Every entry with ``seq > after``, then each new one (XREAD BLOCK); ends when closed.

        A lost connection is retried for up to 10 s, then raises EventLogError.
        """
        self._check_open()
        cursor = max(after, 0)
        failing_since: float | None = None
        loop = asyncio.get_running_loop()
        while not self._closed:
            try:
                resp = await self._client.xread({self._stream: f"{cursor}-0"}, count=_PAGE,
                                                 block=_BLOCK_MS)
            except (RedisConnectionError, RedisTimeoutError) as exc:
                if self._closed:
                    return
                failing_since = failing_since or loop.time()
                if loop.time() - failing_since > _FOLLOW_RETRY_S:
                    raise self._error("follow", exc) from exc
                await asyncio.sleep(0.1)
                continue
            except RedisError as exc:
                if self._closed:
                    return
                raise self._error("follow", exc) from exc
            failing_since = None
            for stream_id, fields in _xread_items(resp):
                e = _entry(stream_id, fields)
                cursor = e.seq
                yield e

    async def close(self) -> None:
        """Finish pending appends, end followers, close the connection pool. Idempotent."""
        if self._closed:
            return
        await self._commit.flush()
        self._closed = True
        await self._client.aclose()
        await self._client.connection_pool.disconnect()
