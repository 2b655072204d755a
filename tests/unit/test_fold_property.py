"""One record, one fold (issue 10; DESIGN.md "Event log": "a restarted gateway or a new dashboard
instance replays it and carries on; nothing lives only in memory"), as a property (hypothesis).

Random device traffic goes through the live gateway (``gateway.hall.Hall``): legal and illegal moves
on a move board, placements on a sensor board (legal moves, pieces in the hand, lifted and put
back, castling with the rook first), a slide or a double step reported in two steps before the press
(move and sensor boards, ``move_composed``), clock events (``period_added`` among them; with a
``sent_at`` true, late or far off, some read soon after the gateway's link came up), duplicates,
gaps and messages out of order, results and claims, garbage, status messages, time passing (presses
without a move become penalties, 7.5.3); games set up from a FEN (a fifty-move claim at ply 0, a dead
start); and arbiters' actions
(``dashboard.arbiter.actions.build``, appended as the console appends them). At random points a
gateway rebuilt from the log so far must hold exactly the live state, field for field, and answer
the next message exactly as the live one: the same entries and the same feedback.

The events' tournament files: none (the Laws alone), US 2023 (draw ban, default time, fines),
Norway 2023 (Armageddon after a draw) and Norway 2023 blitz (an unnoticed illegal move stands, A.5.2),
with round 1 starting at the test's time zero. A second property runs rounds whose boards play two
games (issue 25: Norway's Armageddon, a checkers match, a play-off's second game), with devices'
game counters, clocks set to the next game's starting times, claims that hold the board, the
arbiter's call, and the gateway restarted at random points.
"""

from __future__ import annotations

import dataclasses
import json
from pathlib import Path

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from device_traffic import append_action, arbiter_action, message, messages

from gateway.hall import Hall
from services.regulations.checkers_match import match_setups
from services.regulations.tournament_file import load_tournament
from services.rules.checkers_ballots import load_deck
from services.views.spectator import SpectatorView

T = "fold-property"
T0 = 1_700_000_000_000
EVENTS = Path(__file__).resolve().parents[2] / "events"
MIN = 60_000


def tournament(name: str | None):
    if name is None:
        return None
    t = load_tournament((EVENTS / name).read_text(), name)
    r1 = dataclasses.replace(t.rounds[0], start_ms=T0, end_ms=None)
    return dataclasses.replace(t, slug=T, rounds=(r1, *t.rounds[1:]))


# Board 2's start: the standard one, a halfmove clock of 99 (the fifty-move claim at ply 0, FIDE Laws
# 9.3.1), a locked pawn chain (dead at the start, 5.2.2).
STARTS = [None, "4k3/8/8/8/8/8/4P3/R3K3 w Q - 99 80", "4k3/8/8/1p1p1p1p/1P1P1P1P/8/8/4K3 w - - 0 40"]


def round_started(t, fen: str | None = None) -> dict:
    kind = t.kind if t is not None else "classical"
    control = t.time_controls[kind] if t is not None else "5400+30"
    return {"round": "1", "event": "Property", "site": "", "date": "2026.12.01", "start_ms": T0, "games": [
        {"id": "1-1", "board": "1", "round": "1", "white": "A", "black": "B", "variant": "chess",
         "time_control": control, "fen": None, "kind": kind, "white_no": 1, "black_no": 2},
        {"id": "1-2", "board": "2", "round": "1", "white": "C", "black": "D", "variant": "chess",
         "time_control": control, "fen": fen, "kind": kind, "white_no": 3, "black_no": 4}]}


class Run:
    """The live gateway, its log and the devices' seq counters."""

    def __init__(self, t, fen: str | None = None):
        self.t = t
        self.hall = Hall(T, hold_ms=3000, config=t)
        self.log: list[tuple[str, dict, int]] = []
        self.now = T0 - MIN
        self.seqs = {("1", "board"): 0, ("1", "clock"): 0, ("2", "board"): 0, ("2", "clock"): 0}
        self.external("round_started", round_started(t, fen))

    def external(self, type_: str, data: dict) -> None:
        """An entry someone else appends (the organiser, an arbiter), followed by the gateway."""
        self.log.append((type_, data, self.now))
        step = self.hall.external(type_, data, self.now, None, self.now)
        self.log.extend((ty, d, self.now) for ty, d in step.entries)

    def send(self, board: str, kind: str, body: dict | bytes, seq: int | None = None):
        topic = f"venue/{T}/boards/{board}/{kind}"
        if isinstance(body, dict):
            device = "clock" if kind == "clock" else "board"
            if seq is None:
                self.seqs[(board, device)] += 1
                seq = self.seqs[(board, device)]
            payload = json.dumps({"seq": seq, **body}).encode()
        else:
            payload = body
        return topic, payload

    def rebuilt(self) -> Hall:
        fresh = Hall(T, hold_ms=3000, config=self.t)
        for seq, (type_, data, at) in enumerate(self.log, start=1):
            fresh.fold(type_, json.loads(json.dumps(data)), at, seq)  # as stored: JSON text
        return fresh


@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large])
@given(data=st.data(), event=st.sampled_from([None, "us-championship-2023.toml", "norway-chess-2023.toml",
                                              "norway-chess-2023-blitz.toml"]),
       start=st.sampled_from(STARTS))
def test_a_gateway_rebuilt_from_the_log_is_the_live_gateway(data, event, start):
    run = Run(tournament(event), start)
    for _ in range(data.draw(st.integers(5, 45))):
        step_kind = data.draw(st.sampled_from(["message"] * 6 + ["tick", "arbiter", "check", "link"]))
        run.now += data.draw(st.sampled_from([0, 5, 400, 2_000, 4_000, 60_000, 10 * MIN]))
        if step_kind == "link":  # the gateway's link comes up again: the broker's queue may follow
            run.hall.link_since = run.now
        elif step_kind == "tick":
            step = run.hall.tick(run.now)
            run.log.extend((t, d, run.now) for t, d in step.entries)
        elif step_kind == "arbiter":
            arbiter_action(data, run)
        elif step_kind == "check":
            fresh = run.rebuilt()
            assert fresh.state.snapshot() == run.hall.state.snapshot() and fresh.watches == run.hall.watches
            assert fresh.state.errors == []
            fresh.link_since = run.hall.link_since  # the same link: the same messages may have waited
            for topic, payload in messages(data, run):
                live, again = run.hall.handle(topic, payload, run.now), fresh.handle(topic, payload, run.now)
                assert again.entries == live.entries
                assert again.feedback == live.feedback
                run.log.extend((t, d, run.now) for t, d in live.entries)
                assert fresh.state.snapshot() == run.hall.state.snapshot() and fresh.watches == run.hall.watches
            # time passing: the same answers (resend requests are feedback, asked again by each)
            run.now += data.draw(st.sampled_from([1_000, 31 * MIN]))
            ticked = run.hall.tick(run.now)
            assert fresh.tick(run.now).entries == ticked.entries
            run.log.extend((t, d, run.now) for t, d in ticked.entries)
        else:
            for topic, payload in messages(data, run):
                step = run.hall.handle(topic, payload, run.now)
                run.log.extend((t, d, run.now) for t, d in step.entries)
        assert run.hall.faults == 0, run.hall.last_fault
    fresh = run.rebuilt()
    assert fresh.state.snapshot() == run.hall.state.snapshot() and fresh.watches == run.hall.watches
    assert fresh.state.errors == []


# --- boards that play two games (issue 25): an Armageddon game after a drawn game (Norway 2023), a
# checkers match's two games (11-Man National 2017 X.A.b, London 1992's ballot 15), a round paired
# with a second game on each board (a play-off's rapid game after the classical one) -------------

BALLOT_15 = next(b for b in load_deck() if b.moves == ("9-13", "23-18", "11-15")).to_json()
RAPID = "900+10"  # a play-off's second game: 15 minutes + 10 s (FIDE World Cup 2025's tie-breaks)


def two_game_round(layout: str, t) -> dict:
    """Round 1 for ``layout``: "armageddon" (Norway's classical games: an Armageddon follows a draw),
    "playoff" (a classical game then a rapid one on each board) or "match" (a checkers match on each
    board)."""
    if layout == "match":
        games = []
        for b, (white, black, no) in {"1": ("A", "B", 1), "2": ("C", "D", 3)}.items():
            pairing = {"id": f"1-{b}", "board": b, "round": "1", "white": white, "black": black,
                       "variant": "checkers", "fen": None, "kind": "classical", "white_no": no, "black_no": no + 1,
                       "time_control": {"white": "90m", "black": "90m", "match_clock": True}}
            games += match_setups(pairing, BALLOT_15)
        return {"round": "1", "event": "Property", "site": "", "date": "2026.12.01", "start_ms": T0, "games": games}
    data = round_started(t)
    if layout == "playoff":
        data["games"] += [{**g, "id": f"{g['id']}.2", "kind": "rapid", "time_control": RAPID,
                           "white": g["black"], "black": g["white"]} for g in list(data["games"])]
    return data


class TwoGames(Run):
    """The live gateway on a round whose boards play two games."""

    def __init__(self, t, layout: str):
        self.layout = layout
        self.t = t
        self.hall = Hall(T, hold_ms=3000, config=t)
        self.log = []
        self.now = T0 - MIN
        self.seqs = {("1", "board"): 0, ("1", "clock"): 0, ("2", "board"): 0, ("2", "clock"): 0}
        self.external("round_started", two_game_round(layout, t))

    def board_game(self, board: str):
        return self.hall.state.board_game(board)


def counter(data, run: TwoGames, board: str, device: str) -> dict:
    """Now and then a device's ``game`` counter (docs/protocol.md "Fields"): its game's number on the
    board, or the next one's."""
    b = run.hall.state.boards[board]
    if data.draw(st.integers(0, 3)):
        return {}
    now = b.games.index(b.current(device)) + 1
    return {"game": data.draw(st.sampled_from([now, now + 1]))}


def two_game_message(data, run: TwoGames, board: str):
    """One device message for a board of a two-game round: a checkers board's moves (legal, off the
    ballot or illegal), or a chess board's (``messages``); the clock set or started at the next
    game's starting times; results and claims; a counter now and then."""
    g = run.board_game(board)
    kind = data.draw(st.sampled_from(["move", "move", "move", "clock", "clock", "result", "seq"]))
    if kind == "move" and g.variant == "checkers":
        legal = [] if g.ended else run.hall.rules.game(g).legal_moves()
        move = data.draw(st.sampled_from(legal)) if legal and data.draw(st.integers(0, 3)) else \
            data.draw(st.sampled_from(["11-15", "9-13", "22-18", "11-16", "zz"]))
        return run.send(board, "move", {"move": move, **counter(data, run, board, "board")})
    if kind == "clock":
        event = data.draw(st.sampled_from(["start", "press", "press", "pause", "resume", "set"]))
        running = None if event in ("pause", "set") else data.draw(st.sampled_from(["white", "black"]))
        if data.draw(st.booleans()):  # the next game's starting times: Norway's Armageddon, the rapid game
            white, black = data.draw(st.sampled_from([(10 * MIN, 7 * MIN), (15 * MIN, 15 * MIN), (90 * MIN, 90 * MIN)]))
        else:
            white, black = data.draw(st.integers(0, 5_400_000)), data.draw(st.integers(0, 5_400_000))
        return run.send(board, "clock", {"event": event, "white_ms": white, "black_ms": black, "running": running,
                                         **counter(data, run, board, "clock")})
    if kind == "result":
        result = data.draw(st.sampled_from(["1-0", "0-1", "1/2-1/2"]))
        reason = data.draw(st.sampled_from(["agreement", "threefold repetition", "resignation", "stalemate"]))
        return run.send(board, "result", {"result": result, "reason": reason, **counter(data, run, board, "board")})
    if kind == "seq" or g.variant == "checkers":
        return message(data, run, board) if g.variant == "chess" else run.send(
            board, "move", {"move": "11-15"}, seq=max(1, run.seqs[(board, "board")]))
    return messages(data, run)[0]


def two_game_arbiter(data, run: TwoGames) -> None:
    """One of the console's actions on a game of the round, appended when it is valid: a result
    (a draw sets up Norway's Armageddon), a claim decided, the board's game called (its next game, or
    its current one), a reopening."""
    view = SpectatorView(run.hall.state)
    round_games = run.hall.state.rounds["1"].games
    gid = data.draw(st.sampled_from(round_games))
    action = data.draw(st.sampled_from(["set_result", "set_result", "accept_claim", "reject_claim", "call_game",
                                        "call_next", "reopen"]))
    body: dict = {"game": gid}
    if action == "call_next":
        b = run.hall.state.boards.get(run.hall.state.games[gid].board)
        nxt = b.next_game(gid) if b is not None else None
        action, body["game"] = "call_game", nxt or gid
    elif action in ("set_result", "reopen"):
        action, body["result"] = "set_result", "*" if action == "reopen" else \
            data.draw(st.sampled_from(["1-0", "0-1", "1/2-1/2", "1/2-1/2"]))
    elif action in ("accept_claim", "reject_claim"):
        body["kind"] = data.draw(st.sampled_from(["threefold", "fifty_moves"]))
    append_action(run, view, action, body)


@settings(max_examples=120, deadline=None, suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large])
@given(data=st.data(), layout=st.sampled_from(["armageddon", "playoff", "match"]))
def test_a_gateway_rebuilt_from_the_log_is_the_live_gateway_on_boards_that_play_two_games(data, layout):
    # the same property on rounds where a board plays two games, with the gateway restarted at
    # random points (it then goes on as the rebuilt one): messages held for their game
    # (message_awaiting_game), boundaries (device_game_began) and the arbiter's decisions that
    # release them are all in the log
    t = tournament("norway-chess-2023.toml") if layout == "armageddon" else None
    run = TwoGames(t, layout)
    for _ in range(data.draw(st.integers(5, 60))):
        step_kind = data.draw(st.sampled_from(["message"] * 6 + ["tick", "arbiter", "arbiter", "check", "restart"]))
        run.now += data.draw(st.sampled_from([0, 5, 400, 2_000, 4_000, 60_000]))
        if step_kind == "tick":
            step = run.hall.tick(run.now)
            run.log.extend((t_, d, run.now) for t_, d in step.entries)
        elif step_kind == "arbiter":
            two_game_arbiter(data, run)
        elif step_kind == "restart":  # the gateway restarted: the new one goes on from the log alone
            fresh = run.rebuilt()
            assert fresh.state.snapshot() == run.hall.state.snapshot() and fresh.watches == run.hall.watches
            run.hall = fresh
        elif step_kind == "check":
            fresh = run.rebuilt()
            assert fresh.state.snapshot() == run.hall.state.snapshot() and fresh.watches == run.hall.watches
            assert fresh.state.errors == []
            board = data.draw(st.sampled_from(["1", "2"]))
            topic, payload = two_game_message(data, run, board)
            live, again = run.hall.handle(topic, payload, run.now), fresh.handle(topic, payload, run.now)
            assert (again.entries, again.feedback) == (live.entries, live.feedback)
            run.log.extend((t_, d, run.now) for t_, d in live.entries)
            assert fresh.state.snapshot() == run.hall.state.snapshot() and fresh.watches == run.hall.watches
        else:
            board = data.draw(st.sampled_from(["1", "2"]))
            topic, payload = two_game_message(data, run, board)
            step = run.hall.handle(topic, payload, run.now)
            run.log.extend((t_, d, run.now) for t_, d in step.entries)
        assert run.hall.faults == 0, run.hall.last_fault
    fresh = run.rebuilt()
    assert fresh.state.snapshot() == run.hall.state.snapshot() and fresh.watches == run.hall.watches
    assert fresh.state.errors == []
