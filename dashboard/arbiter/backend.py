"""Who is asking, for every request and websocket: Starlette's ``AuthenticationMiddleware`` with a
backend around the arbiters' accounts (``dashboard.arbiter.auth.Accounts``).

A request or websocket carrying a live session (cookie ``venue_arbiter`` or ``Authorization:
Bearer TOKEN``; not revoked by a logout, not expired) is authenticated: ``conn.user`` is an
``Arbiter`` (its account and session) and ``conn.auth.scopes`` is ``["arbiter"]``; the arbiters'
routes say ``@requires(ARBITER, status_code=401)``. Everyone else is ``UnauthenticatedUser`` with
no scope (spectators' routes do not care). A token in the URL's query string is never read, even
beside a valid cookie: URLs end up in proxy logs and browser history (the routes answer 400 for it,
``dashboard.arbiter.routes``).
"""

from __future__ import annotations

from starlette.authentication import AuthCredentials, AuthenticationBackend, BaseUser
from starlette.requests import HTTPConnection

from dashboard.arbiter.auth import Account, Accounts, Session

ARBITER = "arbiter"
"""The scope of a logged-in arbiter."""
COOKIE = "venue_arbiter"
"""The cookie holding an arbiter's session token (HttpOnly, SameSite=Strict)."""


class Arbiter(BaseUser):
    """A logged-in arbiter: ``session`` (what a logout revokes, when it expires) and its ``account``."""

    def __init__(self, session: Session):
        self.session = session

    @property
    def account(self) -> Account:
        return self.session.account

    @property
    def is_authenticated(self) -> bool:
        return True

    @property
    def display_name(self) -> str:
        return self.session.account.name

    @property
    def identity(self) -> str:
        return self.session.account.login


def token_of(conn: HTTPConnection) -> str | None:
    """The session token a request or websocket carries: ``Authorization: Bearer``, else the cookie."""
    auth = conn.headers.get("authorization", "")
    if auth.lower().startswith("bearer "):
        return auth[7:].strip()
    return conn.cookies.get(COOKIE)


class ArbiterBackend(AuthenticationBackend):
    """``AuthenticationBackend`` over ``accounts``: an ``Arbiter`` with scope ``arbiter`` for a live
    session, else nobody (None)."""

    def __init__(self, accounts: Accounts):
        self.accounts = accounts

    async def authenticate(self, conn: HTTPConnection) -> tuple[AuthCredentials, BaseUser] | None:
        if "token" in conn.query_params:
            return None
        session = self.accounts.session(token_of(conn))
        if session is None:
            return None
        return AuthCredentials([ARBITER]), Arbiter(session)


def arbiter_of(conn: HTTPConnection) -> Arbiter | None:
    """The logged-in arbiter of a request or websocket, or None (also where no authentication
    middleware ran: a route mounted in a bare app)."""
    user = conn.scope.get("user")
    return user if isinstance(user, Arbiter) else None
