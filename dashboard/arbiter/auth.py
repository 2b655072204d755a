"""Arbiter logins: argon2 password hashes and signed session tokens.

Accounts come from the tournament file (``[[arbiters]]`` with ``password_hash`` or ``password_env``)
and from the environment: ``VENUE_ARBITERS="login:password,login2:password2"``. Plain passwords are
hashed as soon as they are read and never kept. A session token is ``login.expiry.signature``
(HMAC-SHA256 with ``VENUE_SECRET``, or a random secret per process when unset: then every dashboard
process behind a load balancer must be given the same ``VENUE_SECRET``).
"""

from __future__ import annotations

import hashlib
import hmac
import os
import secrets
import time
from dataclasses import dataclass

from argon2 import PasswordHasher
from argon2.exceptions import InvalidHashError, VerificationError

TOKEN_TTL_S = 12 * 3600
_hasher = PasswordHasher()


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


class Accounts:
    """The arbiters who may log in. ``verify(login, password)`` -> Account or None (constant work
    whether or not the login exists, so logins cannot be probed by timing)."""

    def __init__(self, accounts: list[Account], secret: bytes | None = None):
        self.by_login = {a.login: a for a in accounts}
        self.secret = secret or os.environ.get("VENUE_SECRET", "").encode() or secrets.token_bytes(32)
        self._dummy = hash_password("not-a-real-password")

    @classmethod
    def load(cls, tournament=None, environ: dict | None = None) -> "Accounts":
        """Accounts from a parsed tournament file (may be None) and the environment.
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
        secret = (env.get("VENUE_SECRET") or "").encode() or None
        return cls(out, secret)

    def verify(self, login: str, password: str) -> Account | None:
        acct = self.by_login.get(login)
        try:
            _hasher.verify(acct.password_hash if acct else self._dummy, password or "")
        except (VerificationError, InvalidHashError):
            return None
        return acct

    def issue(self, login: str, now_s: float | None = None) -> str:
        """A session token for ``login`` valid for TOKEN_TTL_S seconds."""
        expiry = int((now_s if now_s is not None else time.time()) + TOKEN_TTL_S)
        body = f"{login}.{expiry}"
        return f"{body}.{self._sign(body)}"

    def check(self, token: str | None, now_s: float | None = None) -> Account | None:
        """The account a token belongs to, or None (bad signature, expired, unknown login)."""
        if not token or token.count(".") < 2:
            return None
        body, _, sig = token.rpartition(".")
        login, _, expiry = body.rpartition(".")
        if not hmac.compare_digest(sig, self._sign(body)):
            return None
        try:
            if int(expiry) < (now_s if now_s is not None else time.time()):
                return None
        except ValueError:
            return None
        return self.by_login.get(login)

    def _sign(self, body: str) -> str:
        return hmac.new(self.secret, body.encode(), hashlib.sha256).hexdigest()
