"""Whose ``X-Forwarded-For`` and ``X-Forwarded-Proto`` the dashboard believes: one rule, the proxy's
own address (docs/arbiter.md "Security", deploy/README.md "Several dashboard nodes").

uvicorn replaces a request's client address with the one ``X-Forwarded-For`` names when the request
comes from an address in ``FORWARDED_ALLOW_IPS`` (default ``127.0.0.1,::1``: nginx on the same host).
With ``*`` it believes any peer, and takes the header's left-most address, which is whatever the client
wrote: issue 28 found the login limits escaped behind the shipped compose file's
``FORWARDED_ALLOW_IPS="*"`` (a random ``X-Forwarded-For`` per try: 200 wrong logins, no 429). So ``*``
is refused: name nginx's address (compose gives nginx a fixed one), and nginx itself sets the header
to the address it sees (``$remote_addr``), so no client's own header gets through it either.
"""

from __future__ import annotations

import os
from collections.abc import Mapping

DEFAULT = "127.0.0.1,::1"  # uvicorn's own default: a proxy on this host


def trusted_proxies(environ: Mapping[str, str] | None = None) -> str:
    """The addresses (comma-separated, as uvicorn takes them) whose forwarded headers are believed:
    ``FORWARDED_ALLOW_IPS`` (default ``DEFAULT``). Raises ValueError for ``*`` (every peer) or an
    empty entry list."""
    env = os.environ if environ is None else environ
    value = env.get("FORWARDED_ALLOW_IPS")
    if value is None:
        return DEFAULT
    entries = [item.strip() for item in value.split(",") if item.strip()]
    if "*" in entries:
        raise ValueError("FORWARDED_ALLOW_IPS='*' believes X-Forwarded-For from any client, which then "
                         "escapes the login limits: set it to the proxy's (nginx's) own address")
    if not entries:
        raise ValueError("FORWARDED_ALLOW_IPS is empty: set it to the proxy's (nginx's) own address, "
                         f"or leave it unset for {DEFAULT}")
    return ",".join(entries)
