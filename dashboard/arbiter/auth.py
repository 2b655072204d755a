"""Arbiter logins: argon2 password hashes, signed session tokens, revocation at logout.

Accounts come from the tournament file (``[[arbiters]]`` with ``password_hash`` or ``password_env``)
and from the environment: ``VENUE_ARBITERS="login:password,login2:password2"``. Plain passwords are
hashed as soon as they are read and never kept. A session token is ``login.expiry.sid.signature``
(HMAC-SHA256 with ``VENUE_SECRET``, or a random secret per process when unset: then every dashboard
process behind a load balancer must be given the same ``VENUE_SECRET``); ``sid`` is a random session
id, the thing a logout revokes. The signature covers the tournament's slug too (``Accounts.scope``):
a session is good for one event's console only.

Revocation lives in the ``Accounts`` object, so in one process: another dashboard process sharing
the log keeps accepting a logged-out token until it expires (docs/arbiter.md "Sessions"). Making it
hold everywhere needs a shared store, e.g. a log entry every process folds.
"""

from __future__ import annotations

import asyncio
import hashlib
import hmac
import os
import secrets
from pathlib import Path
import threading
import time
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass

from argon2 import PasswordHasher
from argon2.exceptions import InvalidHashError, VerificationError

TOKEN_TTL_S = 12 * 3600
_hasher = PasswordHasher()


def _lower_priority() -> None:
    """Run this worker thread (and the threads argon2 starts from it) at a lower CPU priority, so a
    burst of logins slows the hall's feeds as little as possible (Linux: nice is per thread)."""
    try:
        os.setpriority(os.PRIO_PROCESS, threading.get_native_id(), 10)
    except (AttributeError, OSError):  # no per-thread priority here: the checks still run off the loop
        pass


# argon2 checks run here, off the event loop (each takes ~0.1 s of CPU and 64 MiB): two at a time,
# the machine's cores; more logins wait their turn without holding the loop.
_VERIFY_POOL = ThreadPoolExecutor(max_workers=2, thread_name_prefix="argon2-verify", initializer=_lower_priority)


def hash_password(password: str) -> str:
    """An argon2id hash of ``password`` (for ``password_hash`` in the tournament file)."""
    if not password:
        raise ValueError("an empty password is not allowed")
    return _hasher.hash(password)


@dataclass(frozen=True)
class Account:
    """One arbiter: ``login``, display ``name``, ``password_hash`` (argon2)."""

    login: str
    name: str
    password_hash: str


@dataclass(frozen=True)
class Session:
    """A logged-in arbiter: ``account``, the session id ``sid`` (what a logout revokes) and when the
    session expires, ``expires_s`` (Unix seconds)."""

    account: Account
    sid: str
    expires_s: int


def persistent_secret(environ=None) -> bytes:
    """The session-signing secret kept in ``$VENUE_STATE_DIR/secret`` (default
    ``~/.local/state/venue/secret``), made once with 32 random bytes and readable by its owner only:
    a dashboard restarted as the README says keeps its arbiters' sessions (a secret drawn anew at
    every start logged everyone out). Several processes on one machine share it; across machines
    set ``VENUE_SECRET``. Raises OSError when the directory cannot be written."""
    env = os.environ if environ is None else environ
    directory = Path(env.get("VENUE_STATE_DIR") or Path.home() / ".local" / "state" / "venue")
    path = directory / "secret"
    try:
        return bytes.fromhex(path.read_text().strip())
    except FileNotFoundError:
        unreadable = False
    except ValueError:
        unreadable = True
    directory.mkdir(parents=True, exist_ok=True)
    secret = secrets.token_bytes(32)
    draft = directory / f".secret-{os.getpid()}-{secrets.token_hex(4)}"
    fd = os.open(draft, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o600)
    with os.fdopen(fd, "w") as f:
        f.write(secret.hex())
    try:
        if unreadable:
            os.replace(draft, path)
        else:
            # Whole or not at all, and never over another's: dashboard nodes started together for
            # the first time all take the one secret that got there first.
            os.link(draft, path)
    except FileExistsError:
        return bytes.fromhex(path.read_text().strip())
    finally:
        draft.unlink(missing_ok=True)
    return secret


class Accounts:
    """The arbiters who may log in and their sessions. ``verify(login, password)`` -> Account or
    None (constant work whether or not the login exists, so logins cannot be probed by timing);
    ``authenticate`` does the same off the event loop. ``issue`` makes a session token valid for
    ``ttl_s`` seconds, ``session``/``check`` read one, ``revoke`` ends one (and wakes
    ``until_ended``)."""

    def __init__(self, accounts: list[Account], secret: bytes | None = None, ttl_s: int = TOKEN_TTL_S,
                 scope: str | None = None):
        self.by_login = {a.login: a for a in accounts}
        # The tournament the sessions are for (its slug; ``create_app`` sets it from the log): a
        # token is signed over it, so one event's session opens no other event's console, even where
        # two dashboards share the secret (``persistent_secret``: one file per host) and every preset
        # names its chief arbiter "chief".
        self.scope = scope
        self.secret = secret or os.environ.get("VENUE_SECRET", "").encode() or secrets.token_bytes(32)
        self.ttl_s = ttl_s
        self._dummy = hash_password("not-a-real-password")
        self._revoked: dict[str, int] = {}  # sid -> its expiry (Unix s): kept only while it could be used
        self._waiters: dict[str, set[tuple[asyncio.AbstractEventLoop, asyncio.Event]]] = {}
        self._lock = threading.Lock()  # revoke() may come from another thread than a waiter's loop

    @classmethod
    def load(cls, tournament=None, environ: dict | None = None, persistent: bool = False) -> "Accounts":
        """Accounts from a parsed tournament file (may be None) and the environment.
        ``persistent``: without ``VENUE_SECRET``, sign sessions with a secret kept in a file
        (``persistent_secret``), so a restarted dashboard keeps its arbiters logged in.
        Raises ValueError when an account's ``password_env`` variable is unset."""
        env = os.environ if environ is None else environ
        out: list[Account] = []
        for a in getattr(tournament, "arbiters", ()) or ():
            if a.password_hash:
                out.append(Account(a.login, a.name or a.login, a.password_hash))
            elif a.password_env:
                pw = env.get(a.password_env)
                if pw:
                    out.append(Account(a.login, a.name or a.login, hash_password(pw)))
        for item in filter(None, (env.get("VENUE_ARBITERS") or "").split(",")):
            login, sep, pw = item.partition(":")
            if not sep or not login.strip() or not pw:
                raise ValueError("VENUE_ARBITERS must read login:password[,login:password]")
            out.append(Account(login.strip(), login.strip(), hash_password(pw)))
        secret = (env.get("VENUE_SECRET") or "").encode() or (persistent_secret(env) if persistent else None)
        return cls(out, secret)

    def verify(self, login: str, password: str) -> Account | None:
        """The account when ``password`` is ``login``'s, else None. Blocks for the argon2 check:
        in the dashboard call ``authenticate``."""
        acct = self.by_login.get(login)
        try:
            _hasher.verify(acct.password_hash if acct else self._dummy, password or "")
        except (VerificationError, InvalidHashError):
            return None
        return acct

    async def authenticate(self, login: str, password: str) -> Account | None:
        """``verify`` in a worker thread (at most two at once), so the event loop keeps serving
        while argon2 works (issue 11: eight parallel guesses had frozen ``/api/health`` for 9 s)."""
        return await asyncio.get_running_loop().run_in_executor(_VERIFY_POOL, self.verify, login, password)

    def issue(self, login: str, now_s: float | None = None) -> str:
        """A session token for ``login`` valid for ``ttl_s`` seconds, with a new session id."""
        expiry = int((now_s if now_s is not None else time.time()) + self.ttl_s)
        body = f"{login}.{expiry}.{secrets.token_urlsafe(16)}"
        return f"{body}.{self._sign(body)}"

    def session(self, token: str | None, now_s: float | None = None) -> Session | None:
        """The session a token stands for, or None (bad signature, expired, revoked, unknown login)."""
        if not token or token.count(".") < 3:
            return None
        body, _, sig = token.rpartition(".")
        rest, _, sid = body.rpartition(".")
        login, _, expiry = rest.rpartition(".")
        if not hmac.compare_digest(sig, self._sign(body)):
            return None
        try:
            expires_s = int(expiry)
        except ValueError:
            return None
        if expires_s < (now_s if now_s is not None else time.time()) or sid in self._revoked:
            return None
        acct = self.by_login.get(login)
        return Session(acct, sid, expires_s) if acct else None

    def check(self, token: str | None, now_s: float | None = None) -> Account | None:
        """The account of ``session(token)``, or None."""
        found = self.session(token, now_s)
        return found.account if found else None

    def revoke(self, token: str | None, now_s: float | None = None) -> Session | None:
        """End the session of ``token`` (a logout): from now on ``session`` refuses it and every
        ``until_ended`` waiting on it returns. Returns the session ended, or None when the token
        was no live session (nothing to do)."""
        now = now_s if now_s is not None else time.time()
        found = self.session(token, now)
        if found is None:
            return None
        with self._lock:
            self._revoked = {sid: exp for sid, exp in self._revoked.items() if exp >= now}
            self._revoked[found.sid] = found.expires_s
            waiters = self._waiters.pop(found.sid, set())
        for loop, event in waiters:
            loop.call_soon_threadsafe(event.set)
        return found

    async def until_ended(self, session: Session) -> str:
        """Wait until ``session`` is revoked (returns ``"revoked"``) or expires (``"expired"``)."""
        event = asyncio.Event()
        waiter = (asyncio.get_running_loop(), event)
        with self._lock:
            if session.sid in self._revoked:
                return "revoked"
            self._waiters.setdefault(session.sid, set()).add(waiter)
        try:
            await asyncio.wait_for(event.wait(), max(0.0, session.expires_s - time.time()))
            return "revoked"
        except TimeoutError:
            return "expired"
        finally:
            with self._lock:
                left = self._waiters.get(session.sid)
                if left is not None:
                    left.discard(waiter)
                    if not left:
                        del self._waiters[session.sid]

    def _sign(self, body: str) -> str:
        return hmac.new(self.secret, f"{self.scope or ''}\n{body}".encode(), hashlib.sha256).hexdigest()
