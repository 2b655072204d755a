"""The spectators' HTML pages: ``GET /`` (every board of the round) and ``GET /game/{id}``.

Pages are static HTML from ``dashboard/templates`` with a few escaped values filled in; the live
content is drawn by ``dashboard/static/*.js`` from ``/ws/live``. ``server_now`` (ms) lets browsers
correct for their own clock's offset; ``clock_rate`` is how fast clocks run against wall time
(the demo's replay speed; 1 in a real hall).
"""

from __future__ import annotations

import html
import time
from functools import lru_cache
from importlib import resources

from starlette.requests import Request
from starlette.responses import HTMLResponse


@lru_cache(maxsize=None)
def template(name: str) -> str:
    """The text of ``dashboard/templates/NAME`` (shipped as package data)."""
    return resources.files("dashboard").joinpath("templates", name).read_text("utf-8")


def render(name: str, **values) -> str:
    """``template(name)`` with each ``{{key}}`` replaced by the HTML-escaped value."""
    text = template(name)
    for key, value in values.items():
        text = text.replace("{{" + key + "}}", html.escape(str(value), quote=True))
    return text


def _common(request: Request) -> dict:
    view = request.app.state.feed.view
    r = view.round or {}
    event = r.get("event") or "Tournament"
    return {
        "event": event,
        "round_label": f"Round {r['round']}" if r.get("round") else "",
        "site": r.get("site") if r.get("site") not in (None, "?") else "",
        "date": r.get("date") or "",
        "clock_rate": request.app.state.clock_rate,
        "server_now": int(time.time() * 1000),
        "title": f"{event} - live",
    }


async def hall(request: Request) -> HTMLResponse:
    """``GET /``: the hall page."""
    return HTMLResponse(render("hall.html", **_common(request)))


async def game(request: Request) -> HTMLResponse:
    """``GET /game/{id}``: one game's page (404 status, same page, when not in the round)."""
    game_id = request.path_params["id"]
    values = _common(request)
    g = request.app.state.feed.view.game(game_id)
    if g is not None:
        values["title"] = f"{g['white']} - {g['black']} - {values['event']}"
    return HTMLResponse(render("game.html", game_id=game_id, **values),
                        status_code=200 if g is not None else 404)
