"""A lane: one connection of a redis-py pool held by one caller that sends the same few commands
over and over (the Redis log's appends, each of its followers).

redis-py's client spends most of a call outside the connection: the command lookup, the retry
wrapper, response callbacks, a pipeline's bookkeeping, the pool's lock on every call. Measured on
this project's machine (bench/bench_gateway.py, in-process loop of 3,000 calls): a follower's
three pipelined commands (XREAD BLOCK, GET, XRANGE) took 243 us of CPU through a pipeline and 89
us through a lane; one EVALSHA 83 us and 65. The gateway makes both about 50-100 times a second.

A lane still uses redis-py for everything that is not per call: the connection (auth, database,
TLS, timeouts: the client's settings), packing (``pack_command``) and the reply parser (hiredis
when installed). Replies come as the server sent them: no response callbacks, so an XREAD
reply is RESP3's map or RESP2's list, and a stream item is ``[id, [field, value, ...]]``.
"""

from __future__ import annotations

from collections.abc import Sequence

import redis.asyncio as aioredis
from redis.exceptions import NoScriptError, ResponseError


class Lane:
    """One held connection of ``client``'s pool (``redis.asyncio.Redis``); calls must not overlap
    (one caller awaits each ``call`` before the next; the log's appends are serialised by its group
    commit, and each follower has its own lane)."""

    def __init__(self, client: aioredis.Redis):
        self._pool = client.connection_pool
        self._conn = None

    async def call(self, commands: Sequence[Sequence]) -> list:
        """The replies of ``commands`` (each ``(NAME, arg, ...)``), sent in one write, in order.

        An error reply raises its redis-py exception (``ResponseError`` and its kinds, e.g.
        ``NoScriptError``) once every reply has been read, so the connection stays in step. A lost
        connection or a timeout raises redis-py's ``ConnectionError`` / ``TimeoutError`` (the
        connection is dropped; the next call connects again); so does any interruption
        (cancellation) between the write and the last reply."""
        conn = self._conn
        if conn is None:
            conn = self._conn = await self._pool.get_connection()
        try:
            packed = conn.pack_command(*commands[0]) if len(commands) == 1 else conn.pack_commands(commands)
            await conn.send_packed_command(packed, check_health=False)
            replies, error = [], None
            for _ in commands:
                try:
                    replies.append(await conn.read_response())
                except ResponseError as exc:  # an error reply: the rest still has to be read
                    error = error or exc
                    replies.append(exc)
        except BaseException:
            await self._drop()
            raise
        if error is not None:
            raise error
        return replies

    async def script(self, sha: str, text: str, keys: Sequence, args: Sequence):
        """The reply of the Lua script ``text`` (SHA1 ``sha``) run on ``keys`` and ``args``: EVALSHA,
        and EVAL once the server does not hold the script (a restarted or flushed Redis)."""
        try:
            return (await self.call([("EVALSHA", sha, len(keys), *keys, *args)]))[0]
        except NoScriptError:
            return (await self.call([("EVAL", text, len(keys), *keys, *args)]))[0]

    async def _drop(self) -> None:
        conn, self._conn = self._conn, None
        if conn is not None:
            await conn.disconnect(nowait=True)  # whatever was in flight must not be read as a reply
            await self._pool.release(conn)

    async def release(self) -> None:
        """Give the connection back to the pool (a follower that ends, the log closing)."""
        conn, self._conn = self._conn, None
        if conn is not None:
            await self._pool.release(conn)
