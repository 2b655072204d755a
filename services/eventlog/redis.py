"""The shared event log: Redis Streams (URL ``redis://HOST:PORT/DB``, ``rediss://`` for TLS).

One stream per tournament, key ``venue:{slug}:log``, beside a counter ``venue:{slug}:seq``; the
braces are a Redis Cluster hash tag, so all of a tournament's keys live in one slot. Each entry is
stored with the explicit stream ID ``{seq}-0`` and one field ``entry``, the JSON text ``{"at": ms,
"type": str, "data": {...}}`` (one field, not three: a Python client spends its time parsing reply
elements), so a stream ID *is* the entry's ``seq`` and ``XREAD`` after ``{seq}-0`` resumes exactly.

Identity (base.py, "Identity"), three more keys: ``venue:{slug}:epoch`` (the log's epoch, SET by the
script that XADDs the first entry), ``venue:{slug}:batches`` (hash ``batch_id -> "first:count"``) and
``venue:{slug}:batch-order`` (list ``"first:batch_id"``, oldest first, to forget batch ids that left
the ``DEDUPE_WINDOW``). ``tournament_keys(slug)`` lists all five. A log written before these keys
existed takes an epoch with its next append.

Appends run one Lua script (atomic on the server) that, per submission of the group commit, checks
the epoch and last seq against the submission's expectations, returns the first entries of a batch id
it already holds, or takes the next seqs from the counter, XADDs the entries and records the batch
id; so seq is unique and contiguous across every process writing the tournament, and a script run
twice (the client's retry after a lost reply) appends once. The client therefore retries an append
on a connection error or socket timeout for up to ``append_retry_s`` (default 30 s), then raises
EventLogError (the batch may be stored: append it again with the same ``batch_id``).
Durability is Redis's: deploy/SCALE-OUT.md says what each setting guarantees.

Followers use ``XREAD BLOCK`` pipelined with ``GET`` of the epoch and ``XRANGE`` of the entry last
yielded, so each reply is checked against a replaced or rolled-back log (FLUSHDB, a restart without
AOF, a restored older backup) before any entry is handed out; an idle follower checks every
``XREAD`` timeout (at most 2 s). Any number of dashboard processes can follow one tournament; a
follower rides out a connection loss for up to ``_FOLLOW_RETRY_S`` before raising EventLogError.
"""

from __future__ import annotations

import asyncio
import json
from collections.abc import AsyncIterator, Callable
from urllib.parse import urlsplit, urlunsplit

import msgspec
import redis.asyncio as aioredis
from redis.asyncio.retry import Retry
from redis.backoff import NoBackoff
from redis.exceptions import ConnectionError as RedisConnectionError
from redis.exceptions import RedisError
from redis.exceptions import TimeoutError as RedisTimeoutError

from services.eventlog._appends import AppendsBatches
from services.eventlog._batch import GroupCommit, Outcome, Submission
from services.eventlog._identity import Identity
from services.eventlog._redis_lane import Lane
from services.eventlog._rows import Row, check_tournament, new_epoch
from services.eventlog.base import DEDUPE_WINDOW, Entry, EventLogError, LogReplaced

# KEYS: counter, stream, epoch, batches, batch order. ARGV: a fresh epoch (used if the log has none),
# the dedupe window, the number of submissions, then per submission a header "BATCH_ID EPOCH KNOWN N"
# (EPOCH '-' for any; one argument, not four: the client spends its time encoding arguments) and its
# N entry texts. Returns {epoch or '', last seq, one result per
# submission}: the first seq of entries appended now, 'again:FIRST:COUNT' for a batch id already
# stored, 'refused:LAST' when the log is not the one the submission expects.
# The counter is seeded from the stream's last ID if it was lost, so seq never goes back.
_APPEND_LUA = """
local epoch = redis.call('GET', KEYS[3])
local seq = tonumber(redis.call('GET', KEYS[1]) or '0')
if seq == 0 then
  local top = redis.call('XREVRANGE', KEYS[2], '+', '-', 'COUNT', 1)
  if #top > 0 then seq = tonumber(string.match(top[1][1], '^(%d+)')) end
end
local nsub = tonumber(ARGV[3])
local ids, expects, knowns, ns, at = {}, {}, {}, {}, {}
local i = 4
for s = 1, nsub do
  local id, expect, known, n = string.match(ARGV[i], '^(%S+) (%S+) (%d+) (%d+)$')
  ids[s], expects[s], knowns[s], ns[s], at[s] = id, expect, tonumber(known), tonumber(n), i
  i = i + 1 + ns[s]
end
local stored = redis.call('HMGET', KEYS[4], unpack(ids))
local out, now, fields, order = {'', 0}, {}, {}, {}
for s = 1, nsub do
  local id, k, expect, known, n = ids[s], at[s], expects[s], knowns[s], ns[s]
  local done = now[id] or stored[s]
  if (expect ~= '-' and expect ~= epoch) or seq < known then
    out[s + 2] = 'refused:' .. seq
  elseif done then
    out[s + 2] = 'again:' .. done
  else
    if not epoch then
      epoch = ARGV[1]
      redis.call('SET', KEYS[3], epoch)
    end
    for e = 1, n do
      redis.call('XADD', KEYS[2], string.format('%d-0', seq + e), 'entry', ARGV[k + e])
    end
    now[id] = string.format('%d:%d', seq + 1, n)
    fields[#fields + 1] = id
    fields[#fields + 1] = now[id]
    order[#order + 1] = string.format('%d:%s', seq + 1, id)
    out[s + 2] = seq + 1
    seq = seq + n
  end
end
redis.call('SET', KEYS[1], seq)
if #order > 0 then
  redis.call('HSET', KEYS[4], unpack(fields))
  redis.call('RPUSH', KEYS[5], unpack(order))
end
local floor = seq - tonumber(ARGV[2])
for _ = 1, 1000 do
  local oldest = redis.call('LINDEX', KEYS[5], 0)
  if not oldest then break end
  local first, id = string.match(oldest, '^(%d+):(.*)$')
  if tonumber(first) > floor then break end
  redis.call('LPOP', KEYS[5])
  redis.call('HDEL', KEYS[4], id)
end
out[1] = epoch or ''
out[2] = seq
return out
"""
_PAGE = 1000  # entries per XRANGE/XREAD call
_BLOCK_MS = 2000  # XREAD BLOCK; below the socket timeout so an idle follow is not an error
_SOCKET_TIMEOUT_S = 10.0
_CONNECT_TIMEOUT_S = 3.0
_FOLLOW_RETRY_S = 10.0
_APPEND_RETRY_S = 30.0  # three socket timeouts: a retry outlives a freeze longer than one


def stream_key(tournament: str) -> str:
    """The stream key of a tournament's log: ``venue:{slug}:log``."""
    return f"venue:{{{tournament}}}:log"


def counter_key(tournament: str) -> str:
    """The key of a tournament's seq counter: ``venue:{slug}:seq``."""
    return f"venue:{{{tournament}}}:seq"


def epoch_key(tournament: str) -> str:
    """The key of a tournament's log epoch: ``venue:{slug}:epoch``."""
    return f"venue:{{{tournament}}}:epoch"


def tournament_keys(tournament: str) -> list[str]:
    """Every key of a tournament's log: stream, counter, epoch, batch ids and their order."""
    return [stream_key(tournament), counter_key(tournament), epoch_key(tournament),
            f"venue:{{{tournament}}}:batches", f"venue:{{{tournament}}}:batch-order"]


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
    kind = _TYPES.get(row.type)
    if kind is None:
        kind = json.dumps(row.type, ensure_ascii=False)
        if len(_TYPES) < 256:  # the entry types (docs/events.md), not whatever a caller makes up
            _TYPES[row.type] = kind
    return f'{{"at":{row.at},"type":{kind},"data":{row.data_json}}}'


_TYPES: dict[str, str] = {}  # an entry type -> its JSON string


# msgspec reads an entry's JSON in a third of json.loads's time (a follower reads every entry: the
# gateway its own too); what the log writes (``_rows.make_row``: no NaN) it reads alike, big ints too.
_decode = msgspec.json.Decoder().decode


def _entry(stream_id: str, fields: dict | list) -> Entry:
    """Decode one stream item (``fields`` is ``{"entry": json}``, or ``["entry", json]`` as a lane
    reads it); EventLogError if it is not ours."""
    try:
        if isinstance(fields, list):
            fields = dict(zip(fields[::2], fields[1::2], strict=True))
        e = _decode(fields["entry"])
        return Entry(seq=int(stream_id.split("-", 1)[0]), at=e["at"], type=e["type"], data=e["data"])
    except (KeyError, TypeError, ValueError) as exc:
        raise EventLogError(f"stream item {stream_id} is not a venue log entry: {fields!r:.200}") from exc


def _seq(stream_id: str) -> int:
    """The seq of a stream item (its ID's first part); EventLogError if the ID is not ours."""
    try:
        return int(stream_id.split("-", 1)[0])
    except (AttributeError, ValueError) as exc:
        raise EventLogError(f"stream item {stream_id!r:.80} is not a venue log entry") from exc


def _refused(exc: Exception) -> bool:
    """Whether redis-py raised ``exc`` because the TCP connection was refused (so nothing was sent):
    it raises ConnectionError from within its handler of the OSError, which is the context."""
    return isinstance(exc.__context__, ConnectionRefusedError)


def _xread_items(resp) -> list:
    """The ``(id, fields)`` items of an XREAD reply for one key, whether RESP2 (list) or RESP3 (dict)."""
    if not resp:
        return []
    groups = resp.values() if isinstance(resp, dict) else (items for _key, items in resp)
    return [item for items in groups for item in items]




class RedisLog(AppendsBatches):
    """One tournament's log in Redis at ``url`` (``redis://[[user]:password@]host:port/db``).

    ``socket_timeout`` (s, default 10): how long one call waits for Redis; ``append_retry_s`` (s,
    default 30): how long an append keeps retrying after connection errors and timeouts (safe: see
    the module docstring). Connecting is lazy: an unreachable or refusing server raises
    EventLogError (with the address) from the first call. ValueError for a bad slug, URL or entry;
    LogReplaced (base.py) when the log in Redis is not the one this instance knew.
    """

    def __init__(self, url: str, tournament: str, *, socket_timeout: float = _SOCKET_TIMEOUT_S,
                 append_retry_s: float = _APPEND_RETRY_S):
        self.tournament = check_tournament(tournament)
        self.url = _redact(url)
        if not socket_timeout > 0 or not append_retry_s >= 0:
            raise ValueError("socket_timeout must be > 0 and append_retry_s >= 0")
        try:
            self._client = aioredis.Redis.from_url(
                url, decode_responses=True, socket_timeout=socket_timeout,
                socket_connect_timeout=min(_CONNECT_TIMEOUT_S, socket_timeout),
                retry=Retry(NoBackoff(), 0), health_check_interval=30,
            )
        except ValueError as exc:
            raise ValueError(f"bad Redis URL {self.url!r}: {exc}") from exc
        self._stream = stream_key(tournament)
        self._epoch_key = epoch_key(tournament)
        # the script's KEYS: counter, stream, epoch, batch ids, their order
        self._keys = [counter_key(tournament), self._stream, *tournament_keys(tournament)[2:]]
        self._block_ms = int(min(_BLOCK_MS, socket_timeout * 500))
        self._append_retry_s = append_retry_s
        self._script_sha = self._client.register_script(_APPEND_LUA).sha
        self._appends = Lane(self._client)  # one write at a time (the group commit): one connection
        self._commit = GroupCommit(self._write)
        self._identity = Identity(f"{self._stream} at {self.url}")
        # The epoch a write gives the log if it creates it: made afresh only once one was used (or
        # may have been), not on every append (uuid4 reads os.urandom, ~20 us a call under load).
        self._spare_epoch = new_epoch()
        self._closed = False

    def _error(self, doing: str, exc: Exception) -> EventLogError:
        return EventLogError(f"cannot {doing} Redis event log {self._stream} at {self.url}: {exc}")

    def _check_open(self) -> None:
        if self._closed:
            raise EventLogError(f"event log {self._stream} at {self.url} is closed")

    # -- writing -----------------------------------------------------------------------------

    async def _run_script(self, args: list) -> list:
        """The append script, sent again (same batch ids) after a connection error or timeout
        until ``append_retry_s`` has passed; EventLogError then, or at once on any other error and
        when the first attempt could not connect at all (nothing was sent, nothing is uncertain)."""
        loop = asyncio.get_running_loop()
        deadline, pause, sent = loop.time() + self._append_retry_s, 0.05, False
        while True:
            try:
                return await self._appends.script(self._script_sha, _APPEND_LUA, self._keys, args)
            except (RedisConnectionError, RedisTimeoutError) as exc:
                sent = sent or not _refused(exc)
                if not sent or loop.time() + pause > deadline or self._closed:
                    raise EventLogError(
                        f"cannot append to Redis event log {self._stream} at {self.url}: {exc}"
                        + (" (the batch may have been stored: append it again with the same "
                           "batch_id)" if sent else "")
                    ) from exc
                await asyncio.sleep(pause)
                pause = min(pause * 2, 1.0)
            except RedisError as exc:
                raise self._error("append to", exc) from exc

    async def _write(self, subs: list[Submission]) -> list[Outcome]:
        spare = self._spare_epoch
        args: list = [spare, DEDUPE_WINDOW, len(subs)]
        for sub in subs:
            args.append(f"{sub.batch_id} {sub.expect_epoch or '-'} {sub.known_seq} {len(sub.rows)}")
            args += [_encode(r) for r in sub.rows]
        before = self._identity.snapshot()
        try:
            epoch, last, *results = await self._run_script(args)
        except BaseException:
            self._spare_epoch = new_epoch()  # the script may have run and created a log with it
            raise
        if epoch == spare:
            self._spare_epoch = new_epoch()  # this write created the log: the next creation gets another
        epoch, last = epoch or None, int(last)
        outcomes: list[Outcome] = []
        for sub, r in zip(subs, results, strict=True):
            if isinstance(r, int):
                outcomes.append([row.entry(r + i) for i, row in enumerate(sub.rows)])
            elif r.startswith("refused:"):
                outcomes.append(self._identity.refusal(epoch, int(r.split(":")[1]), sub.expect_epoch,
                                                       sub.known_seq))
            else:
                _, first, count = r.split(":")
                outcomes.append(await self._stored_again(sub, int(first), int(count)))
        try:
            self._identity.check(epoch, last, before=before)
        except LogReplaced as exc:
            return [exc] * len(subs)
        return outcomes

    async def _stored_again(self, sub: Submission, first: int, count: int) -> Outcome:
        """The entries a batch id got the first time (read back), or the error for its caller."""
        if count != len(sub.rows):
            return ValueError(f"batch_id {sub.batch_id!r} was used for {count} entries, "
                              f"not {len(sub.rows)}")
        try:
            items = await self._client.xrange(self._stream, min=f"{first}-0",
                                              max=f"{first + count - 1}-0")
        except RedisError as exc:
            return self._error("read back the stored batch of", exc)
        # redis-py types each reply as bytes | str | None (XRANGE's as optional) whatever the client's
        # decode_responses; this client decodes (str), and XRANGE answers a list.
        return [_entry(i, f) for i, f in items]  # type: ignore[arg-type,union-attr]

    async def _submit(self, sub: Submission) -> list[Entry]:
        return await self._commit.submit(sub)

    # -- reading -----------------------------------------------------------------------------

    @staticmethod
    async def _read_again(call):
        """``await call()`` (a read: idempotent), once more after a connection error: a connection of
        the pool left idle across a Redis restart fails its first command (since the appends hold
        a lane of their own, nothing else cycles the pool's connections; redis-py's retries are off
        here, the log decides its own). The failed connection is dropped by redis-py."""
        try:
            return await call()
        except RedisConnectionError:
            return await call()

    async def epoch(self) -> str | None:
        """The log's epoch in Redis; None while the log is empty."""
        self._check_open()
        try:
            # decode_responses=True: a str (redis-py types every reply as bytes | str | None)
            return await self._read_again(lambda: self._client.get(self._epoch_key))
        except RedisError as exc:
            raise self._error("read", exc) from exc

    async def read(self, after: int = 0, limit: int | None = None) -> list[Entry]:
        """Entries with ``seq > after`` in order, at most ``limit`` (None: all, paged by 1000)."""
        self._check_open()
        out: list[Entry] = []
        cursor = max(after, 0)
        while limit is None or len(out) < limit:
            want = _PAGE if limit is None else min(_PAGE, limit - len(out))
            def page(cursor=cursor, want=want):
                pipe = self._client.pipeline(transaction=False)
                pipe.get(self._epoch_key)
                pipe.xlen(self._stream)
                pipe.xrange(self._stream, min=f"({cursor}-0", count=want)
                return pipe.execute()

            before = self._identity.snapshot()
            try:
                epoch, length, items = await self._read_again(page)
            except RedisError as exc:
                raise self._error("read", exc) from exc
            self._identity.check(epoch, length, before=before)
            out += [_entry(i, f) for i, f in items]
            if len(items) < want:
                break
            cursor = out[-1].seq
        return out

    async def last_seq(self) -> int:
        """The highest seq (the last stream ID), 0 when empty."""
        self._check_open()
        def top_item():
            pipe = self._client.pipeline(transaction=False)
            pipe.get(self._epoch_key)
            pipe.xrevrange(self._stream, count=1)
            return pipe.execute()

        before = self._identity.snapshot()
        try:
            epoch, top = await self._read_again(top_item)
        except RedisError as exc:
            raise self._error("read", exc) from exc
        last = int(top[0][0].split("-", 1)[0]) if top else 0
        self._identity.check(epoch, last, before=before)
        return last

    async def follow(self, after: int = 0, *, expect_epoch: str | None = None,
                     pace_s: float = 0.0, skip: Callable[[int], bool] | None = None) -> AsyncIterator[Entry]:
        """Every entry with ``seq > after``, then each new one (XREAD BLOCK); ends when closed.
        ``pace_s``: after a reply with entries, the next XREAD waits until ``pace_s`` seconds after
        the previous one; ``skip(seq)`` True: an entry the caller has, passed over without being
        decoded (base.py).

        Each reply is checked (module docstring): LogReplaced when the epoch is not the one known
        (or ``expect_epoch``), the entry last yielded (or the one at ``after``) is gone or changed,
        or the entries do not follow on. A lost connection is retried for up to 10 s, then raises
        EventLogError.
        """
        self._check_open()
        cursor = max(after, 0)
        last: Entry | tuple | None = None  # the last entry yielded, or a skipped one's raw item
        failing_since: float | None = None
        loop = asyncio.get_running_loop()
        asked = 0.0
        lane = Lane(self._client)  # a follower's own connection: its XREAD BLOCK holds it anyway
        try:
            while not self._closed:
                if pace_s > 0:
                    wait = asked + pace_s - loop.time()
                    if wait > 0:
                        await asyncio.sleep(wait)
                    asked = loop.time()
                commands: list[tuple] = [("XREAD", "COUNT", _PAGE, "BLOCK", self._block_ms, "STREAMS",
                                          self._stream, f"{cursor}-0"), ("GET", self._epoch_key)]
                if cursor:
                    commands.append(("XRANGE", self._stream, f"{cursor}-0", f"{cursor}-0"))
                before = self._identity.snapshot()
                try:
                    resp, epoch, *at = await lane.call(commands)
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
                self._identity.check(epoch, None, expect_epoch, before)
                if cursor:
                    found = _entry(*at[0][0]) if at[0] else None
                    if found is None:
                        self._identity.refuse(f"a follower after seq {cursor} finds no entry {cursor}",
                                              epoch, None)
                    if last is not None:
                        self._identity.check_entry(last if isinstance(last, Entry) else _entry(*last), found, epoch)
                    last = found
                for stream_id, fields in _xread_items(resp):
                    seq = _seq(stream_id)
                    if seq != cursor + 1:
                        self._identity.refuse(f"entry {seq} follows entry {cursor}", epoch, None)
                    cursor = seq
                    self._identity.saw(seq)
                    if skip is not None and skip(seq):
                        last = (stream_id, fields)  # decoded only if the next reply's check needs it
                        continue
                    last = e = _entry(stream_id, fields)
                    yield e
        finally:
            await lane.release()

    def writer_lease(self, boards: str, owner: str):
        """A ``RedisLease`` on ``boards`` of this tournament's log (``services.eventlog.writers``)."""
        from services.eventlog.writers import RedisLease

        return RedisLease(self._client, self.tournament, boards, owner)

    async def close(self) -> None:
        """Finish pending appends, end followers, close the connection pool. Idempotent."""
        if self._closed:
            return
        await self._commit.flush()
        self._closed = True
        await self._appends.release()
        await self._client.aclose()
        await self._client.connection_pool.disconnect()
