"""How many login attempts an address may make: the limits library's moving windows, in memory.

Two limits, each "N per window" in limits' notation (docs/arbiter.md "Security"):

- per login and address, ``VENUE_LOGIN_LIMIT`` (default ``5/15 minutes``): five tries at one login
  from one address; a successful login clears it, so an arbiter who mistyped is not locked out;
- per address, ``VENUE_LOGIN_ADDRESS_LIMIT`` (default ``20/15 minutes``): every try from one
  address, whatever the login, so one address cannot guess through many logins.

A try is counted when it starts, before the password check, so parallel tries cannot all slip in
before the first failure is counted. The counts live in this process: behind a load balancer each
dashboard process counts on its own.
"""

from __future__ import annotations

import math
import os
import time

from limits import RateLimitItem, parse
from limits.storage import MemoryStorage
from limits.strategies import MovingWindowRateLimiter

DEFAULT_PER_LOGIN = "5/15 minutes"
DEFAULT_PER_ADDRESS = "20/15 minutes"


class LoginThrottle:
    """Counts login tries. ``start(login, address)`` -> None when the try may go on (it is counted),
    else the seconds until the next try is allowed (for ``Retry-After``); ``succeeded(login,
    address)`` forgets that login's tries from that address. Raises ValueError for a limit that is
    not "N/period" (e.g. ``5/15 minutes``)."""

    def __init__(self, per_login: str = DEFAULT_PER_LOGIN, per_address: str = DEFAULT_PER_ADDRESS):
        self.per_login: RateLimitItem = _limit(per_login, "VENUE_LOGIN_LIMIT")
        self.per_address: RateLimitItem = _limit(per_address, "VENUE_LOGIN_ADDRESS_LIMIT")
        self._limiter = MovingWindowRateLimiter(MemoryStorage())

    @classmethod
    def from_environment(cls, environ: dict | None = None) -> "LoginThrottle":
        """The limits set by ``VENUE_LOGIN_LIMIT`` and ``VENUE_LOGIN_ADDRESS_LIMIT``, else the defaults."""
        env = os.environ if environ is None else environ
        return cls(env.get("VENUE_LOGIN_LIMIT") or DEFAULT_PER_LOGIN,
                   env.get("VENUE_LOGIN_ADDRESS_LIMIT") or DEFAULT_PER_ADDRESS)

    def start(self, login: str, address: str) -> int | None:
        """Count one try at ``login`` from ``address``; None when allowed, else seconds to wait."""
        login = login[:256]  # a key, not a store for whatever a client sends
        checks = ((self.per_address, ("address", address)), (self.per_login, ("login", address, login)))
        for item, keys in checks:
            if not self._limiter.test(item, *keys):
                return self._wait_s(item, keys)
        for item, keys in checks:
            if not self._limiter.hit(item, *keys):  # a parallel try took the last place meanwhile
                return self._wait_s(item, keys)
        return None

    def succeeded(self, login: str, address: str) -> None:
        """A right password: that login's failed tries from that address are forgotten."""
        self._limiter.clear(self.per_login, "login", address, login[:256])

    def _wait_s(self, item: RateLimitItem, keys: tuple[str, ...]) -> int:
        reset_s = self._limiter.get_window_stats(item, *keys).reset_time
        return max(1, math.ceil(reset_s - time.time()))


def _limit(text: str, name: str) -> RateLimitItem:
    try:
        return parse(text)
    except ValueError as exc:
        raise ValueError(f"{name} must read N/period, e.g. 5/15 minutes: {text!r}") from exc
