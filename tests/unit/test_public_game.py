"""What the public GAME shows and hides (issue 13): the "draw claimable" badge does not reveal the
intended move, no engine evaluation anywhere, the players' details, the per-ply time spent, and a
drawn Armageddon scored as the regulations give it.

The claims are those FIDE Laws 9.2 gives: a claim in the present position (9.2.1.2, ``by_move``
None) and one by an intended move that would repeat the position (9.2.1.1): the arbiters see both,
the public only that a draw may be claimed now. Entries: replay_entries (Candidates 2024 round 5,
Praggnanandhaa-Nepomniachtchi; think time = the drop of the mover's %clk)."""

from __future__ import annotations

from broadcast_helpers import T0, candidates_round5
from replay_entries import PRESS_DELAY_MS, game_entries, round_started
from services.eventlog.base import Entry
from services.views.spectator import GAME_FIELDS, SpectatorView, game_json

CLAIMS = [{"kind": "threefold", "by_move": None, "evidence": {"plies": [4, 8, 12]}},
          {"kind": "threefold", "by_move": "g1f3", "evidence": {"plies": [2, 6]}}]


def folded(shared_data, plies=6):
    games = candidates_round5(shared_data)
    items = [round_started(games, "5", T0)] + game_entries(games[0], "5-1", "1", T0 + 1000, end=False)[: 1 + 2 * plies]
    view = SpectatorView()
    for i, (t, d, at) in enumerate(items, start=1):
        view.apply(Entry(i, at, t, d))
    return view, games[0]


def test_the_public_sees_that_a_draw_may_be_claimed_never_the_move(shared_data):
    view, _ = folded(shared_data)
    g = view.state.games["5-1"]
    g.claimable = CLAIMS
    assert game_json(g)["claimable"] == CLAIMS  # the arbiters' view
    public = game_json(g, public=True)["claimable"]
    assert public == [{"kind": "threefold", "by_move": None, "evidence": {}}]
    g.claimable = CLAIMS[1:]  # only by an intended move: nothing public at all
    assert game_json(g, public=True)["claimable"] == []


def test_no_engine_evaluation_in_a_game(shared_data):
    view, _ = folded(shared_data)
    g = view.game("5-1")
    assert set(g) == set(GAME_FIELDS) and not {k for k in g if "eval" in k or k in ("cp", "mate", "best")}


def test_time_spent_per_ply_is_the_drop_of_the_movers_clock(shared_data):
    view, game = folded(shared_data)
    g = view.game("5-1")
    clocks = [round(n.clock() * 1000) for n in list(game.mainline())[:6]]
    before = {"white": 7_200_000, "black": 7_200_000}
    want = []
    for ply, ms in enumerate(clocks, start=1):
        side = "white" if ply % 2 else "black"
        want.append(max(1000, before[side] - ms))  # replay_entries: think time >= 1 s
        before[side] = ms
    # each ply but the first is timed from the previous ply, whose press came PRESS_DELAY_MS after
    # it (replay_entries: the next think time counts from the press)
    assert g["spent"] == [want[0]] + [w + PRESS_DELAY_MS for w in want[1:]]


def test_a_drawn_armageddon_is_scored_a_win_for_black():
    """Norway Chess 2023: "If the Armageddon game is drawn, black will win"."""
    setup = {"id": "1-1-A", "board": "1", "round": "1", "white": "W", "black": "B", "variant": "chess",
             "kind": "armageddon", "follows": "1-1", "white_title": "GM", "black_fide_id": "1503014"}
    view = SpectatorView()
    view.apply(Entry(1, 0, "round_started", {"round": "1", "games": [{**setup, "id": "1-1", "kind": "classical",
                                                                      "follows": None}]}))
    view.apply(Entry(2, 1, "armageddon_scheduled", setup))
    view.apply(Entry(3, 2, "game_ended", {"game": "1-1-A", "board": "1", "result": "1/2-1/2",
                                          "termination": "agreement", "by": "device"}))
    [delta] = view.apply(Entry(4, 3, "armageddon_decided", {"game": "1-1-A", "board": "1", "winner": "black",
                                                            "result": "0-1"}))
    assert delta["set"] == {"scored": "0-1"}
    g = view.game("1-1-A")
    assert (g["result"], g["scored"], g["kind"], g["follows"]) == ("1/2-1/2", "0-1", "armageddon", "1-1")
    assert (g["white_title"], g["black_fide_id"]) == ("GM", "1503014")
    from services.arbiter_office.view_pgn import game_pgn

    text = game_pgn(g, {"event": "Norway Chess 2023", "round": "1"})
    assert '[Result "0-1"]' in text and '[Event "Norway Chess 2023 - Armageddon"]' in text
    assert '[Round "1.1.2"]' in text and '[GameId "1-1-A"]' in text and '[Termination "normal"]' in text
