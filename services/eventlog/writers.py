"""Which gateway processes write a tournament's log: a lease per writer in the store, so a second
gateway for the same boards refuses to start before it writes anything.

Two gateways deciding for the same board both append its moves (a new user started the same
``venue gateway`` twice, and a ``--boards 1-3`` shard beside a gateway for every board: the log got
each ply twice before the MQTT session takeover stopped one of them, ~5 s later, and a shard beside
a full gateway was never noticed). The log itself is the place to say who writes it: every writer
holds a lease ``{token: "boards|expires_ms|owner|renewals"}`` in one Redis hash per tournament, renewed every
``RENEW_S``; ``boards`` is a board SPEC, or ``*`` for every board (which overlaps everything).

A newcomer whose boards overlap a live lease waits one renewal period: a holder that renews is
alive and the newcomer refuses (``WriterConflict``); a holder that does not is gone (killed with -9)
and its lease is taken over, so a restart after a crash costs at most ``RENEW_S * 1.5`` s, and a
clean stop (``release``) costs nothing.

A restart on the same host does not wait even after a crash (issue 28: a gateway restarted after
kill -9 took 3.7 s before it wrote; the goal is under a second). Each lease's token names its
holder's process (``Holder``: the host, as its name and the kernel's boot id, the pid and the
process's start time): a holder on this host whose pid no longer runs, or runs a process started at
another time (the pid reused, or a container's pid 1 started again), is provably gone, and its lease
is taken over at once. A holder elsewhere, or alive here, is waited for as before. The check and the claim are one WATCH/MULTI transaction:
two newcomers at the same instant cannot both win.

Only the Redis log, the one several gateway processes can share, keeps leases; SQLite and memory
logs are written by one process (``NoLease``)."""

from __future__ import annotations

import asyncio
import json
import os
import secrets
import socket
from dataclasses import dataclass

from redis.exceptions import WatchError

RENEW_S = 2.0
TTL_S = 6.0  # a lease not renewed for this long is stale even without a waiting newcomer
EVERY_BOARD = "*"


class WriterConflict(Exception):
    """Another live gateway writes some of these boards: ``holders`` = [(owner, boards SPEC)]."""

    def __init__(self, holders: list[tuple[str, str]]):
        self.holders = holders
        named = "; ".join(f"{owner} (boards {'all' if spec == EVERY_BOARD else spec})" for owner, spec in holders)
        super().__init__(f"another gateway is writing this tournament's log for these boards: {named}")


def overlaps(a: str, b: str) -> bool:
    """Whether two lease SPECs share a board (``*``: every board). ValueError for a bad SPEC."""
    if EVERY_BOARD in (a, b):
        return True
    from services.arbiter_office.boardspec import parse

    return bool(parse(a).labels & parse(b).labels)


@dataclass(frozen=True)
class Holder:
    """The process holding a lease: ``host`` (its name and the kernel's boot id: another machine,
    or this one after a reboot, is another host), ``pid`` and ``started`` (the process's start time
    in clock ticks since boot, /proc's ``starttime``; 0 where unknown)."""

    host: str
    pid: int
    started: int

    @classmethod
    def this_process(cls) -> "Holder":
        """This process."""
        return cls(this_host(), os.getpid(), _started(os.getpid()) or 0)

    def gone(self) -> bool:
        """Whether this holder is provably gone: on this host, and its pid runs no process, or one
        started at another time. False for a holder on another host (nothing can be known)."""
        if self.host != this_host():
            return False
        started = _started(self.pid)
        if started is not None:
            return bool(self.started) and started != self.started
        try:
            os.kill(self.pid, 0)
        except ProcessLookupError:
            return True
        except OSError:  # it exists (owned by another user)
            return False
        return False


def this_host() -> str:
    """This machine as a lease names it: ``hostname/boot id`` (the boot id changes at each boot)."""
    try:
        with open("/proc/sys/kernel/random/boot_id") as f:
            boot = f.read().strip()
    except OSError:
        boot = ""
    return f"{socket.gethostname()}/{boot}"


def _started(pid: int) -> int | None:
    """Process ``pid``'s start time (clock ticks since boot, /proc/PID/stat field 22); 0 when no
    such process runs; None where /proc cannot tell (not Linux)."""
    try:
        with open(f"/proc/{pid}/stat") as f:
            stat = f.read()
    except FileNotFoundError:
        return 0 if os.path.isdir("/proc/self") else None
    except OSError:
        return None
    try:
        return int(stat.rpartition(")")[2].split()[19])  # fields after "(comm)": state is field 3
    except (IndexError, ValueError):
        return None


def token_for(holder: Holder) -> str:
    """A lease token naming its holder: a random part (two leases of one process differ) and the
    holder (JSON: ``["v1", random, host, pid, started]``)."""
    return json.dumps(["v1", secrets.token_hex(8), holder.host, holder.pid, holder.started], separators=(",", ":"))


def holder_of(token: str) -> Holder | None:
    """The holder a token names; None for a token of an older gateway (a bare random hex)."""
    try:
        value = json.loads(token)
    except ValueError:
        return None
    if (isinstance(value, list) and len(value) == 5 and value[0] == "v1" and isinstance(value[2], str)
            and all(isinstance(v, int) and not isinstance(v, bool) for v in value[3:])):
        return Holder(value[2], value[3], value[4])
    return None


def writers_key(tournament: str) -> str:
    """The Redis hash of the tournament's writer leases (same hash tag as its log's keys)."""
    return f"venue:{{{tournament}}}:writers"


@dataclass
class _Held:
    spec: str
    expires_ms: int
    owner: str
    raw: str  # the whole value: it changes with every renewal (its count), even within one millisecond


def _read(raw: dict) -> dict[str, _Held]:
    held = {}
    for token, value in raw.items():
        spec, _, rest = value.partition("|")
        expires, _, rest = rest.partition("|")
        owner = rest.rpartition("|")[0] if rest.count("|") else rest
        try:
            held[token] = _Held(spec, int(expires), owner, value)
        except ValueError:
            held[token] = _Held(spec, 0, owner, value)  # unreadable: treated as stale
    return held


def _gone(token: str) -> bool:
    holder = holder_of(token)
    return holder is not None and holder.gone()


class NoLease:
    """The lease of a log only one process writes (SQLite, memory): claims nothing, never conflicts."""

    async def claim(self) -> None:
        """Nothing to claim."""

    async def renew(self) -> None:
        """Nothing to renew."""

    async def release(self) -> None:
        """Nothing to release."""


class RedisLease:
    """One gateway's lease on ``boards`` (a SPEC, or ``*``) of ``tournament``'s log in Redis
    (``client``: redis.asyncio with decoded replies). ``owner``: words for the operator (the MQTT
    client id and host). ``claim()`` raises WriterConflict while another live writer overlaps;
    ``renew()`` every ``RENEW_S``; ``release()`` on a clean stop. ``holder``: the process the token
    names (default this one); ``waited``: whether ``claim`` waited a renewal period."""

    def __init__(self, client, tournament: str, boards: str, owner: str, *,
                 renew_s: float = RENEW_S, ttl_s: float = TTL_S, sleep=asyncio.sleep, holder: Holder | None = None):
        self.client = client
        self.key = writers_key(tournament)
        self.boards = boards
        self.owner = owner
        self.token = token_for(holder or Holder.this_process())
        self.waited = False
        self.renewals = 0
        self.renew_s, self.ttl_s = renew_s, ttl_s
        self._sleep = sleep

    async def _now_ms(self) -> int:
        seconds, micros = await self.client.time()
        return int(seconds) * 1000 + int(micros) // 1000

    def _value(self, now_ms: int) -> str:
        """``boards|expires_ms|owner|renewals``."""
        return f"{self.boards}|{now_ms + int(self.ttl_s * 1000)}|{self.owner}|{self.renewals}"

    async def _others(self) -> dict[str, _Held]:
        held = _read(await self.client.hgetall(self.key))
        now = await self._now_ms()
        return {t: h for t, h in held.items()
                if t != self.token and h.expires_ms > now and overlaps(h.spec, self.boards)}

    async def claim(self) -> None:
        """Take the lease; WriterConflict when an overlapping holder renews within one renewal
        period (it is alive). A holder that does not renew in that time is taken over."""
        before = await self._others()
        if any(not _gone(t) for t in before):  # a holder not provably gone: see whether it renews
            self.waited = True
            await self._sleep(self.renew_s * 1.5)
            after = await self._others()
            alive = [h for t, h in after.items() if t not in before or h.raw != before[t].raw]
            if alive:
                raise WriterConflict([(h.owner, h.spec) for h in alive])
        while True:
            async with self.client.pipeline(transaction=True) as pipe:
                try:
                    await pipe.watch(self.key)
                    held = _read(await pipe.hgetall(self.key))
                    seconds, micros = await pipe.time()
                    now = int(seconds) * 1000 + int(micros) // 1000
                    fresh = [h for t, h in held.items() if t != self.token and h.expires_ms > now
                             and overlaps(h.spec, self.boards)
                             and (t not in before or h.raw != before[t].raw)]
                    if fresh:  # a newcomer got in, or a holder renewed, meanwhile: it is alive
                        raise WriterConflict([(h.owner, h.spec) for h in fresh])
                    gone = [t for t, h in held.items() if t != self.token and (
                        h.expires_ms <= now or (t in before and overlaps(h.spec, self.boards)))]
                    pipe.multi()
                    if gone:
                        pipe.hdel(self.key, *gone)
                    pipe.hset(self.key, self.token, self._value(now))
                    pipe.pexpire(self.key, int(self.ttl_s * 2000))  # a hall's last lease vanishes with it
                    await pipe.execute()
                    return
                except WatchError:
                    continue

    async def renew(self) -> None:
        """Push the lease's expiry on (called every ``renew_s``)."""
        self.renewals += 1
        await self.client.hset(self.key, self.token, self._value(await self._now_ms()))
        await self.client.pexpire(self.key, int(self.ttl_s * 2000))

    async def release(self) -> None:
        """Give the lease up (a clean stop: the next gateway starts without waiting)."""
        await self.client.hdel(self.key, self.token)
