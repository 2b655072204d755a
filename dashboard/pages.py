"""The spectators' HTML pages: ``GET /`` (every board of the round) and ``GET /game/{id}``.

Pages are Jinja2 templates (``dashboard.templating``: every value escaped) with a few values
filled in; the live content is drawn by ``dashboard/static/*.js`` from ``/ws/live``. ``server_now`` (ms) lets browsers
correct for their own clock's offset; ``clock_rate`` is how fast clocks run against wall time
(the demo's replay speed; 1 in a real hall).

Large rounds are paged: the hall page follows only the boards it shows (``/ws/live?boards=SPEC``,
``dashboard.boardspec``). ``GET /?boards=SPEC`` shows those boards; without it a round of more than
``PAGE_SIZE`` boards shows its first ``PAGE_SIZE`` boards, with links to the other pages. The game
page follows its own board only.

Every round stays readable: ``GET /?round=R`` shows round R (an earlier round is shown as recorded,
from ``/api/games?round=R``, without the live feed), ``/game/{id}`` works for a game of any round,
and the hall page has a round selector.
"""

from __future__ import annotations

import json
import time
from urllib.parse import quote

from starlette.requests import Request
from starlette.responses import RedirectResponse, Response

from dashboard.audience import channel
from dashboard.boards import square_centres
from dashboard.boardspec import BoardSet, BoardSpecError, pages, parse
from dashboard.templating import page
from services.events.vocabulary import Variant

PAGE_SIZE = 50  # boards on one hall page when a round has more


def _common(request: Request, round_no: str | None = None) -> dict:
    """The values every page shows; ``round_no``: the round the page is about (default: the
    current one). ``archive`` is that round's number when it is not the current round (the page
    then shows it as recorded, without the live feed)."""
    view = channel(request).view
    state = view.state
    shown = state.rounds.get(round_no) if round_no is not None else None
    r = shown.info() if shown is not None else (view.round or {})
    event = r.get("event") or "Tournament"
    feed = request.app.state.feed
    delay = feed.delay.delay_ms if view is feed.public.view else 0
    return {
        "event": event,
        "delay_note": f" \u00b7 shown {delay_words(delay)} behind the hall (the event's broadcast delay)" if delay else "",
        "archive": r.get("round") if shown is not None and round_no != state.current else "",
        "rounds": rounds_nav(view, r.get("round")),
        "round_label": f"Round {r['round']}" if r.get("round") else "",
        "site": r.get("site") if r.get("site") not in (None, "?") else "",
        "date": r.get("date") or "",
        "clock_rate": request.app.state.clock_rate,
        "server_now": int(time.time() * 1000),
        "title": f"{event} - live",
    }


def delay_words(ms: int) -> str:
    """A delay in words: "15 minutes", "90 seconds", "1 hour"."""
    s = ms // 1000
    if s % 3600 == 0:
        return f"{s // 3600} hour" + ("s" if s // 3600 != 1 else "")
    if s % 60 == 0:
        return f"{s // 60} minute" + ("s" if s // 60 != 1 else "")
    return f"{s} seconds"


def rounds_nav(view, shown: str | None) -> list[dict]:
    """The round selector's links (none before a second round): one per round set up, to
    ``/?round=R`` (the current round to ``/``), the round shown marked current."""
    state = view.state
    if len(state.rounds) < 2:
        return []
    return [{"href": "/" if number == state.current else "/?round=" + quote(number),
             "text": number + (" (live)" if number == state.current else ""), "current": number == shown}
            for number in state.rounds]


def board_labels(view, round_no: str | None = None) -> list[str]:
    """A round's board labels (default: the current round) in hall order, each once."""
    seen: dict[str, None] = {}
    for gid in view.ids(round_no):
        seen.setdefault(view.live_game(gid)["board"], None)
    return list(seen)


def pager(labels: list[str], shown: BoardSet | None, size: int = PAGE_SIZE) -> list[dict]:
    """The page links of a round with board ``labels`` (none when it fits on one page): ``1-50``,
    ``51-100``, ... each to ``/?boards=SPEC``, the one equal to ``shown`` marked current."""
    if len(labels) <= size:
        return []
    links = []
    for part in pages(labels, size):
        first, last = next(iter(part)), list(part)[-1]
        links.append({"href": "/?boards=" + quote(part.spec, safe=",-"),
                      "text": first if first == last else f"{first}\u2013{last}", "current": part == shown})
    return links


def selection_text(labels: list[str], shown: BoardSet) -> str:
    """What a page shows of the round's board ``labels``: ``Board 7 of 760``, ``Boards 51-100 of
    760`` (a run of consecutive boards), ``3 of 760 boards`` or ``No board of 760``."""
    on = [i for i, b in enumerate(labels) if b in shown]
    if not on:
        return f"No board of {len(labels)}" if labels else ""
    if len(on) == 1:
        return f"Board {labels[on[0]]} of {len(labels)}"
    if on[-1] - on[0] + 1 == len(on):
        return f"Boards {labels[on[0]]}\u2013{labels[on[-1]]} of {len(labels)}"
    return f"{len(on)} of {len(labels)} boards"


async def hall(request: Request) -> Response:
    """``GET /``: the hall page; ``?boards=SPEC`` shows and follows only those boards (400, the
    same page with the reason and no feed, when SPEC is refused); ``?round=R`` for a round not set
    up is a 404 with the reason (as ``/api/games?round=R``); a round of more than
    ``PAGE_SIZE`` boards without ``boards`` shows its first page."""
    view = channel(request).view
    round_no = request.query_params.get("round")
    missing = ""
    if round_no is not None and round_no not in view.state.rounds:
        # 404 like /api/games?round=R, with the current round and the selector beside the reason
        missing = f"Round {round_no} has not been set up" + (
            f" (rounds: {', '.join(view.state.rounds)})" if view.state.rounds else "")
        round_no = None
    labels = board_labels(view, round_no)
    spec = request.query_params.get("boards")
    error, shown = missing, None
    if spec is not None and not missing:
        try:
            shown = parse(spec)
        except BoardSpecError as exc:
            error = str(exc)
    elif len(labels) > PAGE_SIZE:
        shown = pages(labels, PAGE_SIZE)[0]
    selection = selection_text(labels, shown) if shown is not None and not error else ""
    return page(request, "hall.html", status_code=404 if missing else 400 if error else 200,
                pager=pager(labels, shown), boards=shown.spec if shown else "",
                boards_input=spec if spec is not None else "", error=error, selection=selection,
                **_common(request, round_no))


def pair_text(game: dict, sep: str = " - ") -> str:
    """The players of GAME in the order their game names them: White first in chess; Black first
    in checkers, where Black (Red on the boards) moves first (docs/checkers.md; PDN and the
    regulation name Black first)."""
    sides = ("black", "white") if game.get("variant") == Variant.CHECKERS else ("white", "black")
    return sep.join(game.get(s) or "?" for s in sides)


def board_src(g: dict, size: int = 560, coords: bool = True, flip: bool = False) -> str:
    """The URL of GAME ``g``'s picture at its current ply, exactly as ``Venue.boardUrl`` in
    dashboard/static/live.js builds it (the same ``v``, the same escaping as encodeURIComponent),
    so the page's script finds the server's picture already there and loads nothing new."""
    ply = g["ply"]
    moves = g.get("moves") or []
    last = moves[ply - 1] if 0 < ply <= len(moves) else ""
    v = f"{len(g.get('start_fen') or '')}:{last}:{g.get('corrections') or 0}"
    return (f"/board/{_uri(g['id'])}.svg?ply={ply}&size={size}&coords={int(coords)}"
            f"&flip={int(flip)}&v={_uri(v)}")


def _uri(text: str) -> str:
    """``text`` escaped as JavaScript's encodeURIComponent does (it leaves ``!~*'()`` as they are)."""
    return quote(text, safe="!~*'()")


async def game(request: Request) -> Response:
    """``GET /game/{id}``: one game's page, of any round (404 status, same page without a board
    picture, when there is no such game), its board's picture at the current ply in the page as
    served (``board_src``). A checkers match's id (``"1-1"`` for games ``"1-1.1"`` and ``"1-1.2"``)
    redirects (302) to the game of the match its board plays now (``SpectatorView.match_game``)."""
    game_id = request.path_params["id"]
    g = channel(request).view.game(game_id)
    if g is None and (current := channel(request).view.match_game(game_id)) is not None:
        # a checkers match's id: the page of the game its board plays now (a temporary redirect,
        # so the same link leads to game 2 once game 1 is over)
        query = f"?{request.url.query}" if request.url.query else ""
        return RedirectResponse(f"/game/{_uri(current)}{query}", status_code=302, headers={"Cache-Control": "no-store"})
    values = _common(request, g["round"] if g is not None else None)
    if g is not None:
        values["title"] = f"{pair_text(g)} - {values['event']}"
    board = g["board"] if g is not None else game_id.partition("-")[2]
    try:
        boards = parse(board).spec  # the page follows its own board only
    except BoardSpecError:
        boards = ""  # an id that names no board: every board, as before
    back = "/" if not values["archive"] else "/?round=" + values["archive"]  # the hall page holding this board
    labels = board_labels(channel(request).view, values["archive"] or None)
    if len(labels) > PAGE_SIZE:
        back = next((back + ("&" if "?" in back else "?") + "boards=" + p.spec
                     for p in pages(labels, PAGE_SIZE) if board in p), back)
    squares = json.dumps({n: list(xy) for n, xy in square_centres().items()}, separators=(",", ":"))
    # the board as the server has it now: a picture before (or without) the script, never a broken
    # image; no such game: no board at all (hidden), not an empty or broken picture
    return page(request, "game.html", status_code=200 if g is not None else 404,
                board_src=board_src(g) if g is not None else "", game_id=game_id, boards=boards, back=back,
                squares=squares, **values)
