"""The hall page's board selection and paging (``GET /?boards=SPEC``, pages of 50 boards) and the
game page following its own board. Data: the games of rounds 5-7 of the FIDE Candidates 2024 (open),
../shared/data/chess/fide_candidates_2024_open.pgn, laid out on 120 hall boards (as a large open's
round would be) and, for a small round, round 5's four boards."""

from __future__ import annotations

import asyncio
import re

import chess.pgn
import pytest
from dashboard_helpers import caught_up, client_for

from dashboard.boardspec import parse
from dashboard.pages import PAGE_SIZE
from services.eventlog.memory import MemoryLog
from replay_entries import round_started

T0 = 1_712_678_400_000


@pytest.fixture(scope="module")
def candidates(shared_data):
    games = []
    with open(shared_data / "chess" / "fide_candidates_2024_open.pgn", encoding="utf-8") as f:
        while (g := chess.pgn.read_game(f)) is not None:
            if g.headers["Round"] in ("5", "6", "7"):
                games.append(g)
    return games


def client_of(games):
    log = MemoryLog("candidates-2024")
    asyncio.run(log.append_many([round_started(games, "5", T0)]))
    return client_for(log)


@pytest.fixture(scope="module")
def big(candidates):
    boards = [candidates[i % len(candidates)] for i in range(120)]
    with client_of(boards) as c:
        caught_up(c, 1)
        yield c


def body_boards(text: str) -> str:
    return re.search(r'data-boards="([^"]*)"', text).group(1)


def test_a_large_round_opens_on_its_first_page_with_page_links(big):
    page = big.get("/")
    assert page.status_code == 200 and body_boards(page.text) == f"1-{PAGE_SIZE}"
    links = re.findall(r'<a href="(/\?boards=[^"]+)"( class="current")?', page.text)
    assert [href for href, _ in links] == ["/?boards=1-50", "/?boards=51-100", "/?boards=101-120"]
    assert [bool(cur) for _, cur in links] == [True, False, False]
    assert ">Boards 1\u201350 of 120<" in page.text


def test_a_page_link_shows_that_page(big):
    page = big.get("/?boards=51-100")
    assert body_boards(page.text) == "51-100" and ">Boards 51\u2013100 of 120<" in page.text
    assert re.search(r'href="/\?boards=51-100" class="current"', page.text)


def test_any_selection(big):
    page = big.get("/", params={"boards": "7, 3,60-62"})
    assert page.status_code == 200 and body_boards(page.text) == "3,7,60-62"
    assert ">5 of 120 boards<" in page.text
    assert 'value="7, 3,60-62"' in page.text  # the search box keeps what was typed


@pytest.mark.parametrize("spec, reason", [("5-2", "boards: range 5-2 is backwards"),
                                           ("x-y", "boards: &#39;x-y&#39; is not a range"),  # escaped (Jinja2's autoescape)
                                           ("", "boards: empty list")])
def test_a_bad_selection_is_a_400_with_the_reason(big, spec, reason):
    page = big.get("/", params={"boards": spec})
    assert page.status_code == 400 and reason in page.text
    assert re.search(r'data-error="boards: [^"]+"', page.text) and body_boards(page.text) == ""


def test_a_small_round_is_one_page(candidates):
    with client_of(candidates[:4]) as c:
        caught_up(c, 1)
        page = c.get("/")
        assert body_boards(page.text) == "" and "?boards=" not in page.text
        assert body_boards(c.get("/?boards=2,4").text) == "2,4"


def test_the_game_page_follows_its_board_and_links_back_to_its_page(big, candidates):
    page = big.get("/game/5-77")
    assert page.status_code == 200 and body_boards(page.text) == "77"
    assert 'href="/?boards=51-100" id="back-link"' in page.text
    assert candidates[76 % len(candidates)].headers["White"] in page.text  # the title names the game
    assert body_boards(big.get("/game/5-3").text) == parse("3").spec


def test_every_page_names_its_icon_and_favicon_ico_leads_to_it(big):
    """Browsers ask for ``/favicon.ico`` on every page (a 404 in every console, new-user report):
    the pages link the icon and ``/favicon.ico`` redirects to it."""
    page = big.get("/")
    assert '<link rel="icon" href="/static/favicon.svg"' in page.text
    moved = big.get("/favicon.ico", follow_redirects=False)
    assert moved.status_code == 301 and moved.headers["location"] == "/static/favicon.svg"
    icon = big.get("/static/favicon.svg")
    assert icon.status_code == 200 and icon.text.startswith("<svg")


def test_a_round_that_is_not_set_up_is_a_404_with_the_reason(big):
    """``/?round=R`` for a round the log never set up answers as ``/api/games?round=R`` does (404),
    with the rounds that exist (new-user report: the page quietly showed the current round)."""
    page = big.get("/?round=99")
    api = big.get("/api/games?round=99")
    assert page.status_code == api.status_code == 404
    assert "Round 99 has not been set up (rounds: 5)" in page.text
