"""The event log's identities on every backend (services/eventlog/base.py, "Identity"; issue 11).

Expected behaviour, from issue 11 and base.py: a batch carries an id and a retry of it can never append
twice; an entry that is not UTF-8 JSON is refused with a ValueError naming its index and type before
anything is written, and blocks no other entry; a log carries an epoch given with its first entry,
and a writer or follower whose log was replaced or rolled back raises ``LogReplaced`` instead of
writing over it or skipping reused seqs. Redis cases use the shared server under random slugs (the
tests that freeze or restart Redis are in test_eventlog_redis_faults.py).
"""

from __future__ import annotations

import asyncio
import json
import os
import sqlite3

import pytest
import redis.asyncio as aioredis

from services.eventlog import EventLogError, open_log
from services.eventlog.base import BadEntryError, LogReplaced
from services.eventlog.memory import wipe
from services.eventlog.redis import tournament_keys

from eventlog_helpers import (  # noqa: F401 - backend, log, tournament, url are fixtures
    REDIS_URL, backend, delete_redis_log, log, take, tournament, url)

# Issue 11, "One message stops all recording": the payload a board login sent, as the gateway decodes it.
SURROGATE_MOVE = json.loads(r'{"seq":9007199254740991,"move":"\ud800"}')


def plies(n: int, start: int = 0) -> list[tuple[str, dict, None]]:
    return [("move_played", {"ply": start + i}, None) for i in range(n)]


# -- batch identity ------------------------------------------------------------------------------


async def test_a_batch_sent_again_with_its_id_is_stored_once(log):
    """base.py: appending the same batch id again returns the first entries, appends nothing."""
    await log.append("round_started", {"round": "1"})
    first = await log.append_many(plies(3), batch_id="gw-1")
    again = await log.append_many(plies(3), batch_id="gw-1")
    assert again == first
    assert [e.seq for e in first] == [2, 3, 4]
    assert await log.last_seq() == 4
    single = await log.append("clock_pressed", {"n": 1}, batch_id="gw-2")
    assert await log.append("clock_pressed", {"n": 1}, batch_id="gw-2") == single
    assert [e.seq for e in await log.read()] == [1, 2, 3, 4, 5]


async def test_the_same_batch_id_twice_in_one_group_commit_is_stored_once(log):
    """_batch.py: each submission keeps its identity inside a shared write."""
    a, b, other = await asyncio.gather(log.append_many(plies(2), batch_id="same"),
                                       log.append_many(plies(2), batch_id="same"),
                                       log.append("clock_pressed", {}))
    assert a == b
    stored = await log.read()
    assert len(stored) == 3 and other in stored


async def test_a_batch_id_reused_for_another_length_is_refused_alone(log):
    """base.py: reusing a batch id for a batch of another length is a ValueError; others go on."""
    await log.append_many(plies(2), batch_id="b-7")
    wrong, good = await asyncio.gather(log.append_many(plies(3), batch_id="b-7"),
                                       log.append("clock_pressed", {}), return_exceptions=True)
    assert isinstance(wrong, ValueError) and "b-7" in str(wrong)
    assert good.seq == 3
    assert await log.last_seq() == 3


@pytest.mark.parametrize("bad", ["", "a b", "x" * 65, "é", 7])
async def test_a_bad_batch_id_is_refused(log, bad):
    """base.py: a batch id is 1-64 of ``A-Z a-z 0-9 _ . : -``."""
    with pytest.raises(ValueError, match="batch_id"):
        await log.append_many(plies(1), batch_id=bad)
    assert await log.last_seq() == 0


# -- entries that cannot be stored ----------------------------------------------------------------


@pytest.mark.parametrize("data, reason", [
    (SURROGATE_MOVE, "UTF-8"),                    # issue 11: a JSON-escaped lone surrogate
    ({"\udfff": 1}, "UTF-8"),                     # in a key
    ({"clock": float("nan")}, "JSON"),            # RFC 8259: no NaN
    ({"clock": float("inf")}, "JSON"),
    ({"raw": b"bytes"}, "JSON"),                  # not a JSON type
    ({"moves": {"e2e4"}}, "JSON"),
], ids=["lone-surrogate", "surrogate-key", "nan", "infinity", "bytes", "set"])
async def test_an_entry_that_is_not_utf8_json_is_refused_by_index_and_type(log, data, reason):
    """Issue 11: refused with a ValueError naming the entry's index and type before anything is
    written, so the caller can replace that one entry; the batch is never half-written."""
    await log.append("round_started", {"round": "1"})
    batch = [*plies(2), ("move_rejected", data, None), *plies(1, start=2)]
    with pytest.raises(BadEntryError, match=reason) as refused:
        await log.append_many(batch, batch_id="with-bad")
    assert isinstance(refused.value, ValueError)
    assert (refused.value.index, refused.value.type) == (2, "move_rejected")
    assert "item 2 ('move_rejected')" in str(refused.value)
    assert await log.last_seq() == 1
    batch[2] = ("message_rejected", {"reason": "not UTF-8"}, None)
    stored = await log.append_many(batch, batch_id="with-bad")
    assert [e.seq for e in stored] == [2, 3, 4, 5]


async def test_a_type_that_is_not_utf8_is_refused(log):
    """Issue 11: any text that reaches the log must be valid UTF-8, the type too."""
    with pytest.raises(BadEntryError, match="UTF-8") as refused:
        await log.append("move_\ud800", {})
    assert refused.value.index == 0
    assert await log.last_seq() == 0


async def test_a_refused_entry_does_not_block_the_others(log):
    """Issue 11: "no single entry can block the others": appends made at the same time go on."""
    results = await asyncio.gather(
        *(log.append("move_played", {"board": b}) for b in range(5)),
        log.append("move_rejected", SURROGATE_MOVE),
        *(log.append("move_played", {"board": b}) for b in range(5, 10)),
        return_exceptions=True)
    assert isinstance(results[5], BadEntryError)
    assert sorted(e.data["board"] for e in await log.read()) == list(range(10))


# -- log identity ----------------------------------------------------------------------------------


async def test_the_epoch_is_given_with_the_first_entry_and_kept(url, tournament, log):
    """base.py: a random epoch created with the log, stored with the first entry."""
    assert await log.epoch() is None
    await log.append("round_started", {"round": "1"})
    epoch = await log.epoch()
    assert isinstance(epoch, str) and len(epoch) == 32
    await log.append_many(plies(3))
    other = open_log(url, tournament)
    try:
        assert await other.epoch() == epoch
        await other.append("clock_pressed", {}, expect_epoch=epoch, known_seq=4)
    finally:
        await other.close()
    assert await log.epoch() == epoch


async def test_an_append_expecting_another_log_is_refused_and_writes_nothing(log):
    """base.py: ``expect_epoch`` and ``known_seq`` refuse with LogReplaced (an EventLogError)."""
    await log.append_many(plies(2))
    with pytest.raises(LogReplaced) as refused:
        await log.append("move_played", {}, expect_epoch="0" * 32)
    assert isinstance(refused.value, EventLogError)
    with pytest.raises(LogReplaced, match="seq"):
        await log.append("move_played", {}, known_seq=7)
    assert await log.last_seq() == 2
    # only the caller's expectation failed: this instance still writes
    assert (await log.append("move_played", {}, expect_epoch=await log.epoch(), known_seq=2)).seq == 3


async def test_following_after_more_entries_than_the_log_holds_is_refused(log):
    """base.py follow: the store holds fewer than ``after`` entries: the log went back."""
    await log.append_many(plies(3))
    with pytest.raises(LogReplaced):
        await take(log.follow(after=5), 1)


async def test_following_with_another_epoch_is_refused(log):
    """base.py follow: ``expect_epoch`` is checked before any entry is handed out."""
    await log.append_many(plies(3))
    with pytest.raises(LogReplaced):
        await take(log.follow(expect_epoch="f" * 32), 1)


async def replace(url: str, tournament: str, tmp_path, entries: int) -> None:
    """Put another log of ``entries`` entries where ``tournament``'s log was: the memory store
    wiped, the SQLite file swapped for another one, the Redis keys deleted; then a new writer (a
    fresh instance, as after a restart) writes the new log."""
    if url.startswith("memory://"):
        wipe(url.removeprefix("memory://"), tournament)
    elif url.startswith("redis://"):
        await delete_redis_log(url, tournament)
    if url.startswith("sqlite:///"):
        path = url.removeprefix("sqlite:///")
        other = open_log(f"sqlite:///{tmp_path}/other.sqlite", tournament)
        await other.append_many(plies(entries, start=100))
        await other.close()
        os.replace(tmp_path / "other.sqlite", path)
    else:
        writer = open_log(url, tournament)
        await writer.append_many(plies(entries, start=100))
        await writer.close()


async def test_a_replaced_log_is_refused_by_its_writer_and_its_followers(url, tournament, log, tmp_path):
    """Issue 11, "A lost or rolled-back log goes unnoticed": the log lost and written again from
    seq 1; the old writer refuses to write over it, a follower raises instead of skipping the
    reused seqs and never hands out an entry of the other log."""
    await log.append_many(plies(3))
    reader = open_log(url, tournament)
    try:
        follower = reader.follow()
        seen = await take(follower, 3)
        await replace(url, tournament, tmp_path, entries=5)
        with pytest.raises(LogReplaced):
            seen += await take(follower, 2, timeout=5)
        assert [e.data["ply"] for e in seen] == [0, 1, 2]
        with pytest.raises(LogReplaced):
            await log.append("move_played", {"ply": 3})
        with pytest.raises(LogReplaced):  # sticky: the writer stays refused
            await log.read()
        with pytest.raises(LogReplaced):
            await reader.last_seq()
    finally:
        await reader.close()
    # The operator stops the old processes (and, for a swapped SQLite file, deletes the old log's
    # -wal and -shm left beside it: sqlite.py); a process started on purpose reads the new log whole.
    await log.close()
    if url.startswith("sqlite:///"):
        for leftover in ("-wal", "-shm"):
            os.remove(url.removeprefix("sqlite:///") + leftover)
    fresh = open_log(url, tournament)
    try:
        assert [e.data["ply"] for e in await fresh.read()] == [100, 101, 102, 103, 104]
    finally:
        await fresh.close()


def backup(url: str, tournament: str, tmp_path):
    """A backup of the log's store now (an awaitable giving a ``restore`` coroutine function)."""
    if url.startswith("sqlite:///"):
        async def take_sqlite():
            copy = sqlite3.connect(tmp_path / "backup.sqlite")
            with sqlite3.connect(url.removeprefix("sqlite:///")) as live:
                live.backup(copy)

            async def restore():  # sqlite3's backup API into the live file: same inode, older content
                with sqlite3.connect(url.removeprefix("sqlite:///")) as live:
                    copy.backup(live)
                copy.close()
            return restore
        return take_sqlite()

    async def take_redis():
        client = aioredis.Redis.from_url(url)
        dumps = {k: await client.dump(k) for k in tournament_keys(tournament)}

        async def restore():  # DUMP/RESTORE REPLACE: the keys as they were, epoch and all
            for key, value in dumps.items():
                if value is None:
                    await client.delete(key)
                else:
                    await client.restore(key, 0, value, replace=True)
            await client.aclose()
        return restore
    return take_redis()


async def write_past(url: str, tournament: str) -> None:
    """A restarted gateway (it knows nothing else) appends 4 entries after a restore to seq 3."""
    newcomer = open_log(url, tournament)
    try:
        await newcomer.append_many(plies(4, start=200))
    finally:
        await newcomer.close()


@pytest.mark.parametrize("backend", ["sqlite", pytest.param("redis", marks=pytest.mark.live)])
async def test_a_log_restored_from_an_older_backup_is_refused(backend, url, tournament, log, tmp_path):
    """Issue 11: "a restore from an older backup: seq went back" with the same epoch. The writer
    that saw more refuses; a follower raises even once a new writer has written past its position
    (the entry it last handed out changed)."""
    await log.append_many(plies(3))
    restore = await backup(url, tournament, tmp_path)
    await log.append_many(plies(3, start=3))
    reader = open_log(url, tournament)
    try:
        follower = reader.follow()
        assert len(await take(follower, 6)) == 6
        await restore()
        with pytest.raises(LogReplaced, match="went back to seq 3"):
            await log.append("move_played", {"ply": 6})
        await write_past(url, tournament)  # seqs 4-7: past the follower's 6
        with pytest.raises(LogReplaced, match="entry 6 was read before"):
            await take(follower, 1, timeout=5)
    finally:
        await reader.close()


@pytest.mark.parametrize("backend", ["sqlite", pytest.param("redis", marks=pytest.mark.live)])
async def test_a_follower_that_skipped_its_last_entries_still_notices_a_restore(backend, url, tournament, log,
                                                                              tmp_path):
    """base.py ``follow(skip=...)``: the continuity checks cover the entries passed over (the
    gateway skips its own): the entry last passed over changed under the follower -> LogReplaced,
    as for one it handed out (the test above)."""
    await log.append_many(plies(3))
    restore = await backup(url, tournament, tmp_path)
    await log.append_many(plies(3, start=3))
    reader = open_log(url, tournament)
    try:
        follower = reader.follow(skip=lambda seq: seq > 4)
        assert [e.seq for e in await take(follower, 4)] == [1, 2, 3, 4]
        await restore()
        await write_past(url, tournament)  # seqs 4-7: entries 5 and 6 are others now
        with pytest.raises(LogReplaced, match="entry 6 was read before"):
            await take(follower, 1, timeout=5)
    finally:
        await reader.close()
