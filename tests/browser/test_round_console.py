"""A 5-round Swiss of 24 players run entirely through the arbiter's console, no process restarted
(issue 27 "Acceptance"; docs/pairing.md "The round's life cycle"): registration by import, the
start numbers sorted, each round paired into a draft, an exchange (then paired again), publish,
start; results from a board (a real game played by simulated boards over the embedded MQTT broker to
the running gateway) and from slips, a forfeit, a correction after the round (the console says the
next round's draft is stale, and it is paired again), a withdrawal, a requested bye, a late entry.

Sources: the players are the first 24 of ../shared/data/trf/example1.trf (FIDE's TRF example; its
rated players are numbered by rating, then title, then name: FIDE C.04.2), imported from a shuffled
CSV; the event is events/us-championship-2013.toml cut to 5 rounds and no players; board 1 of
round 1 plays the first game of ../shared/data/chess/fide_candidates_2024_open.pgn's round 2 (its
result from the board); the slips' results come from a seeded generator. Checked at the end: the
console's standings (GET /api/standings) are ``venue tiebreaks`` on the TRF the dashboard exports,
with the event's tie-breaks; and every round of that TRF is what the Dutch engine pairs from the
rounds before it (``venue pair``'s engine, itself equal to bbpPairings on the shared fixtures:
docs/pairing.md; no bbpPairings binary is on this machine to run its own checker). Saves
tests/browser/round-console.png.
"""

from __future__ import annotations

import asyncio
import contextlib
import io
import random
import re
import uuid
from pathlib import Path

import chess.pgn
import pytest
from round_console import console_hall, open_alerts, submit, until

from dashboard.feed import wall_ms
from devices.simulate import simulate
from services.regulations.tournament_file import load_tournament
from services.tournament.initial_ranking import TRF_TITLES
from services.tournament.pairing.dutch import pair_trf
from services.tournament.trf import TrfPlayer, TrfTournament, parse_trf
from venue.tiebreaks import main as venue_tiebreaks

HERE = Path(__file__).resolve().parent
EVENTS = HERE.parents[1] / "events"
FAST = 1e6


def five_rounds_no_players() -> str:
    """events/us-championship-2013.toml with 5 rounds and no [[players]] (they are imported)."""
    text = (EVENTS / "us-championship-2013.toml").read_text()
    text = re.sub(r"\[\[players\]\][^\[]*", "", text).replace("rounds = 9", "rounds = 5")
    return re.sub(r"\[\[rounds\]\]\nnumber = [6-9]\n[^\[]*", "", text)


def players_csv(shared_data: Path, path: Path) -> list[str]:
    """The first 24 players of example1.trf, shuffled, as a CSV; returns their names in the file's order."""
    t = parse_trf((shared_data / "trf" / "example1.trf").read_text())
    first = [t.players[s] for s in range(1, 25)]
    rows = list(first)
    random.Random(27).shuffle(rows)
    path.write_text("Name,Rating,Title,FIDE ID,Fed\n" + "".join(
        f"\"{p.name}\",{p.rating},{TRF_TITLES.get(p.title, '')},{p.fide_id},{p.federation}\n" for p in rows))
    return [p.name for p in first]


def board_game(shared_data: Path) -> tuple[str, str]:
    """The first game of the Candidates 2024 (open) round 2 as board 1 (PGN text, its result)."""
    stream = io.StringIO((shared_data / "chess" / "fide_candidates_2024_open.pgn").read_text())
    while (game := chess.pgn.read_game(stream)) is not None:
        if game.headers.get("Round") == "2":
            game.headers["Board"] = "1"
            return str(game) + "\n", game.headers["Result"]
    raise AssertionError("no round 2 in the file")


async def pair_publish_start(page, rnd: int) -> dict:
    await page.click("#rc-pair-button")
    t = await until(page, lambda t: t["draft"] and t["draft"]["round"] == rnd, f"round {rnd} drafted")
    await page.wait_for_selector("#rc-draft table.draft")
    await page.click("#rc-publish-button")
    await until(page, lambda t: t["draft"]["is_published"], f"round {rnd} published")
    await page.click("#rc-start")
    await until(page, lambda t: t["latest_round"] == rnd, f"round {rnd} started")
    return t["draft"]


async def slips(page, rnd: int, draft: dict, rng: random.Random, skip=(), forfeit=None) -> None:
    """A slip for every board of ``draft`` but ``skip``: results from ``rng``; ``forfeit``: a board
    written +/- (White won by forfeit)."""
    for b in draft["boards"]:
        if b["board"] in skip:
            continue
        result = "+/-" if b["board"] == forfeit else rng.choice(["1-0", "0-1", "1/2-1/2", "1-0", "0-1"])
        # a draw on a claim: rule 2 forbids agreeing one "in less than 30 moves", and a slip is judged
        # as set_result is (docs/arbiter.md "Results")
        how = {"+/-": "forfeit", "1/2-1/2": "claim"}.get(result, "slip")
        error = await submit(page, "#rc-slip", {"how": how}, {"round": rnd, "board": b["board"], "result": result})
        assert error == "", error


class HallClock:
    """The dashboard's clock (``create_app(clock=...)``): the wall clock, ``ahead_ms`` on (the
    time a default needs to have run, FIDE Laws 6.7.1, without waiting for it)."""

    def __init__(self) -> None:
        self.ahead_ms = 0

    def __call__(self) -> int:
        return wall_ms() + self.ahead_ms


def cut(t: TrfTournament, rounds: int) -> TrfTournament:
    """``t`` as it stood before round ``rounds + 1`` was paired: the rounds played, and that round's
    absences (a requested bye, a withdrawal: ``0000 - H``/``Z``) as a pairing program is given them."""
    out = TrfTournament(total_rounds=t.total_rounds, header=[h for h in t.header if not h.startswith("XXC")]
                        + ["XXC white1"])
    for s, p in sorted(t.players.items()):
        games = p.games[:rounds]
        nxt = p.games[rounds] if len(p.games) > rounds else None
        if nxt is not None and nxt.opponent is None and nxt.result in ("H", "Z", "F"):
            games = games + [nxt]
        if rounds == 0 and not games and any(g.result == "Z" and g.opponent is None for g in p.games[:1]):
            games = p.games[:1]
        out.players[s] = TrfPlayer(start_no=s, name=p.name, rating=p.rating, games=games)
    return out


@pytest.mark.browser
async def test_a_five_round_swiss_through_the_console(shared_data, tmp_path):
    slug = f"swiss-{uuid.uuid4().hex[:8]}"
    t = load_tournament(five_rounds_no_players(), "us-championship-2013-5.toml")
    csv_path = tmp_path / "players.csv"
    names = players_csv(shared_data, csv_path)
    pgn, board_result = board_game(shared_data)
    rng = random.Random(2013)
    hall_clock = HallClock()
    async with console_hall(t, slug, hall_clock) as (page, gateway, mqtt):
        # registration by import: start numbers sorted by rating, title, name (C.04.2)
        await page.set_input_files("#rc-file", str(csv_path))
        assert await submit(page, "#rc-import") == ""
        reg = await until(page, lambda t: len(t["players"]) == 24, "24 players registered")
        assert [p["name"] for p in reg["players"]] == names

        # round 1: a draft, an exchange (then paired again: the engine's pairing), publish, start
        await page.click("#rc-pair-button")
        d = (await until(page, lambda t: t["draft"] is not None, "round 1 drafted"))["draft"]
        assert len(d["boards"]) == 12 and d["version"] == 1
        a, b = d["boards"][0]["black_no"], d["boards"][1]["black_no"]
        assert await submit(page, "#rc-swap", {"a": a, "b": b}, {"reason": "asked by the organiser"}) == ""
        d2 = (await until(page, lambda t: t["draft"]["version"] == 2, "exchanged"))["draft"]
        assert (d2["boards"][0]["black_no"], d2["boards"][0]["colour_rule"]) == (b, "by hand")
        await page.click("#rc-pair-button")  # paired again: the exchange undone by the engine
        d3 = (await until(page, lambda t: t["draft"]["version"] == 3, "paired again"))["draft"]
        assert d3["boards"] == d["boards"]
        await page.click("#rc-publish-button")
        await until(page, lambda t: t["draft"]["is_published"], "round 1 published")
        await page.screenshot(path=str(HERE / "round-console.png"), full_page=True)
        await page.click("#rc-start")
        await until(page, lambda t: t["latest_round"] == 1, "round 1 started")

        # board 1 from the board itself; the others by slip
        await simulate(mqtt, slug, pgn, speed=FAST)
        for _ in range(300):
            if gateway.hall.state.games["1-1"].ended:
                break
            await asyncio.sleep(0.1)
        assert gateway.hall.state.games["1-1"].result == board_result
        await slips(page, 1, d3, rng, skip=("1",))

        # round 2: a forfeit; then a correction of round 1 after round 2 is drafted
        await page.click("#rc-pair-button")
        await until(page, lambda t: t["draft"] and t["draft"]["round"] == 2, "round 2 drafted")
        error = await submit(page, "#rc-slip", {"how": "arbiter"}, {"round": 1, "board": "2", "result": "0-1"})
        assert error == ""
        notice = await page.text_content("#rc-slip .rc-notice")
        assert "round 2 is drafted (version 1) from the old result: pair it again" in notice
        await page.click("#rc-pair-button")
        await until(page, lambda t: t["draft"]["version"] == 2, "round 2 paired again")
        await page.click("#rc-publish-button")
        await until(page, lambda t: t["draft"]["is_published"], "round 2 published")
        await page.click("#rc-start")
        await until(page, lambda t: t["latest_round"] == 2, "round 2 started")
        games2 = await page.evaluate("() => fetch('/api/games').then(r => r.json())")
        boards2 = {"boards": [{"board": g["board"]} for g in games2["games"]]}
        # the forfeit once the default time has run (rule 1: "more than 30 (thirty) minutes late"):
        # written at once, it is refused
        error = await submit(page, "#rc-slip", {"how": "forfeit"}, {"round": 2, "board": "5", "result": "+/-"})
        assert "the default time (30 min) runs until" in error, error
        hall_clock.ahead_ms = 31 * 60_000
        await slips(page, 2, boards2, rng, forfeit="5")
        hall_clock.ahead_ms = 0

        # round 3: a withdrawal from round 3, a requested half-point bye, a late entry
        assert await submit(page, "#rt-withdraw", {"player": "24"}, {"from_round": "3"}) == ""
        assert await submit(page, "#rt-bye", {"player": "7", "code": "H"}) == ""
        assert await submit(page, "#rt-enter", {"title": "FM"},
                            {"name": "Late, Entry", "rating": "2100", "fide_id": "4600000",
                             "federation": "GER"}) == ""
        await until(page, lambda t: len(t["players"]) == 25 and len(t["absent_next"]) == 2, "round tools")
        for rnd in (3, 4, 5):
            d = await pair_publish_start(page, rnd)
            await slips(page, rnd, d, rng)
        final = await until(page, lambda t: t["latest_round"] == 5, "five rounds")
        # the page's head follows the rounds, never reloaded (a new user saw "Round 1" in round 2)
        await page.wait_for_function("() => document.querySelector('#event-round').textContent === 'Round 5'")
        assert await page.text_content("#event-name") == "2013 U.S. Championship"
        # the Event's end panel offers what this event can use: no Norway Blitz order or pairing-number
        # choice once round 1 started; the play-off's forms only with a play-off, the bid only for it
        await page.wait_for_selector("#po-blitz", state="hidden")
        assert await page.is_hidden("#po-choose")
        po = (await page.evaluate("() => fetch('/api/standings').then(r => r.json())"))["playoff"]
        await page.wait_for_selector("#po-start", state="hidden" if po is None else "visible")
        bid = bool(po and po["next"] and po["next"]["colours"] == "bid")
        await page.wait_for_selector("#po-bid", state="visible" if bid else "hidden")
        assert final["next_round"] is None
        standings = await page.evaluate("() => fetch('/api/standings').then(r => r.json())")
        trf = await page.evaluate("() => fetch('/api/tournament.trf').then(r => r.text())")
        # issue 27 "Acceptance": no alert left open that needs nothing (every game has its result)
        assert [(a["kind"], a["text"]) for a in await open_alerts(page)] == []

    # the console's standings are venue tiebreaks on the exported TRF
    trf_path = tmp_path / "event.trf"
    trf_path.write_text(trf)
    codes = ["PTS", *[c for c in standings["tiebreaks"] if c != "PTS"]]
    out = io.StringIO()
    with contextlib.redirect_stdout(out):
        assert venue_tiebreaks([str(trf_path), "--system", "swiss", "--tiebreaks", ",".join(codes), "--tsv"]) == 0
    rows = [line.split("\t") for line in out.getvalue().splitlines()[1:]]
    theirs = {int(r[0]): (int(r[1]), float(r[2])) for r in rows}
    ours = {r["start_no"]: (r["rank"], r["points"]) for r in standings["rows"]}
    assert ours == theirs
    # every round of the TRF is what the Dutch engine pairs from the rounds before it
    exported = parse_trf(trf)
    for rnd in range(1, 6):
        engine = pair_trf(cut(exported, rnd - 1))
        paired, whites = set(), set()
        for s, p in exported.players.items():
            g = p.games[rnd - 1] if len(p.games) >= rnd else None
            if g is None:
                continue
            if g.opponent is None and g.result == "U":
                paired.add(frozenset((s,)))
            elif g.opponent is not None:
                paired.add(frozenset((s, g.opponent)))
                if g.color == "w":  # a forfeit is written without a colour (C.04.1: it gives none)
                    whites.add(s)
        assert {frozenset(x for x in (p.white, p.black) if x is not None) for p in engine} == paired, rnd
        assert whites <= {p.white for p in engine}, rnd
