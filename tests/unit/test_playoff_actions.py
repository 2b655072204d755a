"""The play-off played as games through the gateway's hall (in process), from the arbiter's actions
(dashboard/arbiter/actions/playoff.py) to the final ranking and prizes (issue 30 items 1-3, 6).

Norway Chess 2023 (tests/playoff_event.py: players 1 and 2 tied on 24 points, Direct Encounter puts
2 first). The regulations (../shared/regulations/norway-chess-2023.txt): "If two players share the
first place, there will be a Play-Off to decide the winner. This Play-off consists of a two-game
blitz match with the time control of 3 min. + 2 sec. increment per move. If this match ends in a
tie, a further match will be played. If this match ends in a tie, there will be an Armageddon game
where white has 10 minutes and black, with draw odds, has 7 minutes ..."; prizes "#1 NOK 750 000
#2 NOK 400 000 #3 NOK 250 000 ... Prize money will be shared among the players with the same score.
This does not apply to the first prize."

The 2013 U.S. Women's Championship (events/us-womens-championship-2013.toml, 10 players, round robin,
the 2013 "Playoff Regulations"): three players tied (tests/playoff_event.py ``three_tied``). "If there
are three Players tied for first, the two Players with the lowest tie-breaks will contest an
Armageddon Game. The winner of this game will face the player with the highest tie-breaks" with
"Each Player shall bid an amount of time (minutes and seconds, a number equal to or less than
45:00) ... If both Players bid exactly the same amount of time, the Chief Arbiter will flip a coin".
"""

from __future__ import annotations

import json
from decimal import Decimal

import pytest
from playoff_event import main_event, three_tied, tied_top, tournament, winner
from regulation_controls import armageddon_by_bid

from dashboard.arbiter.actions import ActionError, build
from gateway.hall import Hall
from services.arbiter_office.tournament_export import tournament_trf
from services.arbiter_office.tournament_json import standings_json
from services.regulations.controls import control_of
from services.tournament.playoff_walk import Decided, NextStage, Playing
from services.tournament.trf import parse_trf
from services.views.standings import TournamentView

NOW = 1_686_400_000_000  # 2023-06-10, after the last round
T = "po-test"


class Event:
    """A gateway hall with the main event folded; ``act`` posts an arbiter's action and folds its
    entries with the gateway's answers (``Hall.external``)."""

    def __init__(self, name: str, rule=winner):
        self.t = tournament(name, T)
        self.hall = Hall(T, config=self.t)
        self.log: list[tuple[str, dict]] = []
        for type_, data in main_event(self.t, rule):
            self.hall.fold(type_, data, 0)
            self.log.append((type_, data))
        self.now = NOW
        self.seqs: dict[str, int] = {}

    @property
    def view(self) -> TournamentView:
        return TournamentView(self.hall.state)

    def act(self, action: str, body: dict) -> list[tuple[str, dict]]:
        made = build(action, body, "chief", {}, self.hall.state, self.now)
        out = []
        for type_, data in made:
            if type_ == "playoff_stage_started":
                self.seqs = {}  # the devices count a new round's messages from 1 (docs/protocol.md "Fields")
            step = self.hall.external(type_, json.loads(json.dumps(data)), self.now, None, self.now)
            out += [(type_, data)] + step.entries
        self.log += out
        return out

    def arrive(self, game: str) -> None:
        """Both players checked in at ``game``'s board by the arbiter (``player_arrived``)."""
        board = self.hall.state.games[game].board
        for side in ("white", "black"):
            data = {"game": game, "board": board, "side": side, "arrived_at": self.now, "by": "chief"}
            self.log += [("player_arrived", data)] + self.hall.external("player_arrived", data, self.now, None,
                                                                        self.now).entries

    def send(self, board: str, kind: str, body: dict) -> list[tuple[str, dict]]:
        device = "clock" if kind == "clock" else "board"
        key = f"{board}/{device}"
        self.seqs[key] = self.seqs.get(key, 0) + 1
        self.now += 1000
        step = self.hall.handle(f"venue/{T}/boards/{board}/{kind}", json.dumps({"seq": self.seqs[key], **body}),
                                self.now)
        self.log += step.entries
        return step.entries


@pytest.fixture()
def norway() -> Event:
    return Event("norway-chess-2023.toml")


def test_the_tie_and_the_prizes_held_before_the_play_off(norway: Event) -> None:
    view = norway.view
    rows = view.standings()
    assert [(r.start_no, r.points) for r in rows[:3]] == [(2, 24), (1, 24), (10, 21)]
    step = view.playoff_step()
    assert isinstance(step, NextStage) and step.spec.pairs == ((2, 1), (1, 2))
    prizes = view.prizes().by_start_no()
    # "nothing shown as paid before the play-off has decided": 1 and 2 wait; #3 is 10's alone
    assert prizes[2].pending and prizes[1].pending and prizes[2].net == 0 == prizes[1].net
    assert (prizes[10].places, prizes[10].net) == ((3,), Decimal(250_000))


def test_bad_input_is_refused_and_nothing_recorded(norway: Event) -> None:
    before = len(norway.log)
    with pytest.raises(ActionError, match="next stage is 1"):
        norway.act("start_playoff_stage", {"stage": 2, "boards": ["1"]})
    with pytest.raises(ActionError, match="stage 1 does not exist"):  # a result for a stage not created
        norway.act("enter_playoff_result", {"stage": 1, "game": 1, "result": "1-0", "how": "slip"})
    with pytest.raises(ActionError, match="not an Armageddon game with time bidding"):
        norway.act("armageddon_bid", {"stage": 1, "bids": {"1": 600_000, "2": 500_000}, "colour": "white"})
    with pytest.raises(ActionError, match="not drawn by lot"):
        norway.act("draw_lots", {"purpose": "playoff_colours", "stage": 1, "numbers": {"1": 1, "2": 2}})
    with pytest.raises(ActionError, match="tied on points"):  # 10 (21 points) is not in the tie of 1 and 2
        norway.act("draw_lots", {"purpose": "tiebreak", "numbers": {"1": 1, "10": 2}})
    assert len(norway.log) == before and not norway.hall.state.tournament.playoff.stages


def test_norway_play_off_to_the_armageddon(norway: Event) -> None:
    made = norway.act("start_playoff_stage", {"stage": 1, "boards": ["1"]})
    started = made[0][1]
    assert made[0][0] == "playoff_stage_started" and started["round"] == "P1"
    assert [(g["white_no"], g["black_no"], g["board"], g["time_control"], g["kind"]) for g in started["games"]] == [
        (2, 1, "1", "180+2", "blitz"), (1, 2, "1", "180+2", "blitz")]
    with pytest.raises(ActionError, match="being played"):
        norway.act("start_playoff_stage", {"stage": 2, "boards": ["1"]})
    norway.arrive("P1-1")  # the arbiter sees both players at the board (FIDE Laws 6.7.1)
    # game 1 drawn by agreement at the board ("This rule does not apply to Blitz and Armageddon games")
    norway.send("1", "clock", {"event": "start", "white_ms": 180_000, "black_ms": 180_000, "running": "white"})
    norway.send("1", "move", {"move": "e2e4"})
    norway.send("1", "clock", {"event": "press", "white_ms": 179_000, "black_ms": 180_000, "running": "black"})
    norway.send("1", "result", {"result": "1/2-1/2", "reason": "agreement"})
    assert norway.hall.state.games["P1-1"].result == "1/2-1/2"
    norway.act("enter_playoff_result", {"stage": 1, "game": 2, "result": "1/2-1/2", "how": "slip"})
    assert isinstance(norway.view.playoff_step(), NextStage)  # "If this match ends in a tie, a further match"
    norway.act("start_playoff_stage", {"stage": 2, "boards": ["1"]})
    norway.act("enter_playoff_result", {"stage": 2, "game": 1, "result": "1-0", "how": "slip"})
    step = norway.view.playoff_step()
    assert isinstance(step, Playing) and step.stage == 2
    norway.act("enter_playoff_result", {"stage": 2, "game": 2, "result": "1-0", "how": "slip"})
    # tied again: the Armageddon; its colours are not in the regulations: a drawing of lots first
    with pytest.raises(ActionError, match="drawing of lots for the colours"):
        norway.act("start_playoff_stage", {"stage": 3, "boards": ["1"]})
    with pytest.raises(ActionError, match="two players of the Armageddon game"):
        norway.act("draw_lots", {"purpose": "playoff_colours", "stage": 3, "numbers": {"1": 1, "10": 2}})
    norway.act("draw_lots", {"purpose": "playoff_colours", "stage": 3, "numbers": {"1": 1, "2": 2}})
    made = norway.act("start_playoff_stage", {"stage": 3, "boards": ["1"]})
    (arm,) = made[0][1]["games"]
    assert (arm["white_no"], arm["black_no"], arm["kind"]) == (1, 2, "armageddon")
    assert arm["time_control"] == {"white": 600_000, "black": 420_000, "increment": 1_000, "increment_from_move": 41}
    # drawn at the board: the gateway scores it for Black ("black, with draw odds")
    norway.arrive("P3-1")
    norway.send("1", "clock", {"event": "start", "white_ms": 600_000, "black_ms": 420_000, "running": "white"})
    norway.send("1", "move", {"move": "d2d4"})
    norway.send("1", "clock", {"event": "press", "white_ms": 599_000, "black_ms": 420_000, "running": "black"})
    answers = norway.send("1", "result", {"result": "1/2-1/2", "reason": "agreement"})
    assert ("armageddon_decided", "P3-1") in [(t, d.get("game")) for t, d in answers]
    step = norway.view.playoff_step()
    assert isinstance(step, Decided) and step.order == (2, 1)
    final = norway.view.final_standings()
    assert [(r.rank, r.start_no) for r in final[:3]] == [(1, 2), (2, 1), (3, 10)]
    prizes = norway.view.prizes().by_start_no()
    assert prizes[2].net == Decimal(750_000) and prizes[1].net == Decimal(400_000)  # first prize not shared
    assert not prizes[2].pending and prizes[10].net == Decimal(250_000)
    # the crosstable keeps the main event's tie-breaks: 2 ahead of 1 on Direct Encounter
    assert [r.start_no for r in norway.view.crosstable()[:2]] == [2, 1]
    shown = standings_json(norway.view)
    assert [r["start_no"] for r in shown["rows"][:2]] == [2, 1] and shown["playoff"]["status"] == "decided"
    assert shown["playoff"]["how"] == [
        "Player 02, Player 01 still tied after the blitz match (Player 02 1, Player 01 1)",
        "Player 02, Player 01 still tied after the second blitz match (Player 02 1, Player 01 1)",
        "Player 02 won the Armageddon game (Player 02 1, Player 01 0)"]


MIN = 60_000


def test_us_2013_three_tied_armageddon_bid_then_the_final() -> None:
    ev = Event("us-womens-championship-2013.toml", three_tied)
    step = ev.view.playoff_step()
    assert isinstance(step, NextStage) and step.spec.colours == "bid"
    top = ev.view.tied_for_first()
    assert sorted(top) == [1, 2, 3]
    second, third = top[1], top[2]
    assert step.spec.pairs == ((second, third),)
    with pytest.raises(ActionError, match="record the Armageddon bid"):
        ev.act("start_playoff_stage", {"stage": 1, "boards": ["1"]})
    # "a number equal to or less than 45:00"
    with pytest.raises(ActionError, match="at most 45:00"):
        ev.act("armageddon_bid", {"stage": 1, "bids": {str(second): 45 * MIN + 1000, str(third): 40 * MIN},
                                  "colour": "black"})
    with pytest.raises(ActionError, match="players of an Armageddon game"):  # the top player does not bid now
        ev.act("armageddon_bid", {"stage": 1, "bids": {str(top[0]): 40 * MIN, str(third): 40 * MIN}, "colour": "black"})
    with pytest.raises(ActionError, match="coin toss"):  # equal bids: the Chief Arbiter's coin
        ev.act("armageddon_bid", {"stage": 1, "bids": {str(second): 40 * MIN, str(third): 40 * MIN}, "colour": "black"})
    with pytest.raises(ActionError, match="did not bid"):
        ev.act("armageddon_bid", {"stage": 1, "bids": {str(second): 40 * MIN, str(third): 40 * MIN}, "colour": "black",
                                  "coin_toss_winner": top[0]})
    assert not ev.hall.state.tournament.playoff.bids
    # equal bids, the coin to ``third``, who chooses Black with draw odds and starts with his bid
    (bid,) = ev.act("armageddon_bid", {"stage": 1, "bids": {str(second): 40 * MIN, str(third): 40 * MIN},
                                       "colour": "black", "coin_toss_winner": third})
    assert (bid[1]["chooser"], bid[1]["white"], bid[1]["black"], bid[1]["white_ms"], bid[1]["black_ms"]) == (
        third, second, third, 45 * MIN, 40 * MIN)
    made = ev.act("start_playoff_stage", {"stage": 1, "boards": ["3"]})
    (arm,) = made[0][1]["games"]
    assert (arm["white_no"], arm["black_no"], arm["board"], arm["kind"]) == (second, third, "3", "armageddon")
    assert arm["time_control"] == {"white": 45 * MIN, "black": 40 * MIN, "increment": 0, "increment_from_move": 1}
    # the gateway's clock model follows the bid: the catalogue's US 2013 Armageddon for a 40:00 bid on Black
    assert control_of(ev.hall.state.games["P1-1"].setup, ev.t) == armageddon_by_bid(40 * MIN, "black")
    ev.act("enter_playoff_result", {"stage": 1, "game": 1, "result": "1-0", "how": "slip"})  # ``second`` wins
    final = ev.view.playoff_step().spec
    assert final.name == "final rapid match" and final.pairs == ((top[0], second), (second, top[0]))
    assert final.time_control["pgn"] == "1500+5"  # "a two-game rapid match (G/25+5)"
    ev.act("start_playoff_stage", {"stage": 2, "boards": ["1"]})
    ev.act("enter_playoff_result", {"stage": 2, "game": 1, "result": "0-1", "how": "slip"})
    ev.act("enter_playoff_result", {"stage": 2, "game": 2, "result": "1-0", "how": "slip"})  # ``second`` 2-0
    done = ev.view.playoff_step()
    assert isinstance(done, Decided) and done.order == (second, top[0], third)
    assert [r.start_no for r in ev.view.final_standings()[:3]] == [second, top[0], third]
    # the rating report's ranks (TRF16 86-89) are the final order; its rounds the main event's
    report = parse_trf(tournament_trf(ev.view))
    assert [s for s, _ in sorted(((s, p.rank) for s, p in report.players.items()), key=lambda x: x[1])[:3]] == \
        [second, top[0], third]
    assert report.total_rounds == ev.t.rounds_total and all(len(p.games) == ev.t.rounds_total
                                                              for p in report.players.values())
    with pytest.raises(ActionError, match="has decided"):
        ev.act("start_playoff_stage", {"stage": 3, "boards": ["1"]})


def test_a_blitz_order_only_where_the_regulations_choose_pairing_numbers() -> None:
    """A new user's finding: a US 2013 Swiss showed (and took) Norway's Blitz order before round 1.
    Only Norway Chess 2023's regulations say "Players will take it in turns to choose their pairing
    number ... in the order in which they finished in the Blitz tournament"."""
    from services.arbiter_office.tournament_json import standings_json
    from services.arbiter_office.tournament_log import tournament_registered_data
    from services.views.standings import TournamentView

    for name, chosen in (("us-championship-2013.toml", False), ("us-championship-2023.toml", False),
                         ("norway-chess-2023.toml", True)):
        t = tournament(name, T)
        hall = Hall(T, config=t)
        hall.fold("tournament_registered", tournament_registered_data(t), 0)
        assert standings_json(TournamentView(hall.state))["numbers_chosen"] is chosen, name
        order = sorted(hall.state.tournament.players)
        if chosen:
            assert build("record_blitz_order", {"order": order}, "chief", {}, hall.state, NOW)
        else:
            with pytest.raises(ActionError, match="no pairing numbers chosen in a Blitz order"):
                build("record_blitz_order", {"order": order}, "chief", {}, hall.state, NOW)


def test_norway_pairing_numbers_chosen_in_the_blitz_order() -> None:
    """"Players will take it in turns to choose their pairing number for the Classical tournament,
    starting with the Blitz tournament winner and proceeding in the order in which they finished in
    the Blitz tournament." The Berger tables (FIDE C.05 Annex 1) for 10: round 1 is 1-10, 2-9, 3-8,
    4-7, 5-6 by pairing number."""
    t = tournament("norway-chess-2023.toml", T)
    hall = Hall(T, config=t)
    from services.arbiter_office.tournament_log import tournament_registered_data

    hall.fold("tournament_registered", tournament_registered_data(t), 0)

    def act(name: str, body: dict) -> None:
        for type_, data in build(name, body, "chief", {}, hall.state, NOW):
            hall.external(type_, json.loads(json.dumps(data)), NOW, None, NOW)

    with pytest.raises(ActionError, match="Blitz tournament's final order first"):
        act("choose_pairing_number", {"start_no": 4, "number": 1})
    with pytest.raises(ActionError, match="every player of the event once"):
        act("record_blitz_order", {"order": [4, 1, 7]})
    blitz = [4, 1, 7, 2, 3, 5, 6, 8, 9, 10]
    act("record_blitz_order", {"order": blitz, "source": "norway-chess-2023-blitz"})
    with pytest.raises(ActionError, match="turn of 4"):  # the Blitz winner chooses first
        act("choose_pairing_number", {"start_no": 1, "number": 1})
    act("choose_pairing_number", {"start_no": 4, "number": 1})
    with pytest.raises(ActionError, match="chosen by 4"):
        act("choose_pairing_number", {"start_no": 1, "number": 1})
    with pytest.raises(ActionError, match="1..10"):
        act("choose_pairing_number", {"start_no": 1, "number": 11})
    chosen = {4: 1, 1: 10, 7: 2, 2: 9, 3: 3, 5: 8, 6: 4, 8: 7, 9: 5, 10: 6}
    for sno in blitz[1:]:
        act("choose_pairing_number", {"start_no": sno, "number": chosen[sno]})
    assert hall.state.tournament.pairing_numbers == chosen
    (drafted,) = build("pair_round", {"round": 1}, "chief", {}, hall.state, NOW)
    boards = [(b["white_no"], b["black_no"]) for b in drafted[1]["boards"]]
    # pairing numbers 1-10, 2-9, 3-8, 4-7, 5-6 are players 4-1, 7-2, 3-5, 6-8, 9-10
    assert boards == [(4, 1), (7, 2), (3, 5), (6, 8), (9, 10)]


def results_by_order(ev: Event, stage: int, order: list[int], draws_among: set[int] = frozenset()) -> None:
    """Each game of play-off stage ``stage`` by slip: the player earlier in ``order`` wins; two of
    ``draws_among`` draw."""
    st = ev.hall.state.tournament.playoff.stages[stage - 1]
    for n, gid in enumerate(st.games, start=1):
        g = ev.hall.state.tournament.playoff.games[gid]
        if {g.white, g.black} <= draws_among:  # drawn on a claim: the no-draw rules forbid only agreement
            result, how = "1/2-1/2", "claim"
        else:
            result, how = ("1-0" if order.index(g.white) < order.index(g.black) else "0-1"), "slip"
        ev.act("enter_playoff_result", {"stage": stage, "game": n, "result": result, "how": how})


def test_us_2013_four_tied_two_armageddon_games_by_bid() -> None:
    # "Four Players: Tie-breaks will be used to determine pairing numbers: 1 plays 4 and 2 plays 3. Each
    # Player will contest an Armageddon Game. The winner of each game will face one another"
    ev = Event("us-womens-championship-2013.toml", tied_top(4))
    p1, p2, p3, p4 = ev.view.tied_for_first()
    assert ev.view.playoff_step().spec.pairs == ((p1, p4), (p2, p3))
    ev.act("armageddon_bid", {"stage": 1, "bids": {str(p1): 44 * MIN, str(p4): 43 * MIN}, "colour": "black"})
    with pytest.raises(ActionError, match="record the Armageddon bid of"):  # the second game has no bid yet
        ev.act("start_playoff_stage", {"stage": 1, "boards": ["1", "2"]})
    ev.act("armageddon_bid", {"stage": 1, "bids": {str(p2): 30 * MIN, str(p3): 35 * MIN}, "colour": "white"})
    with pytest.raises(ActionError, match="needs 2 different hall board"):
        ev.act("start_playoff_stage", {"stage": 1, "boards": ["1"]})
    games = ev.act("start_playoff_stage", {"stage": 1, "boards": ["1", "2"]})[0][1]["games"]
    # p4 bid lower and chose Black: p1 White with 45:00; p2 bid lower and chose White: 30:00 to p3's 45:00
    assert [(g["board"], g["white_no"], g["black_no"], g["time_control"]["white"], g["time_control"]["black"])
            for g in games] == [("1", p1, p4, 45 * MIN, 43 * MIN), ("2", p2, p3, 30 * MIN, 45 * MIN)]
    # drawn on a claim (9.2; rule 2 forbids agreeing a draw in less than 30 moves): Black, p4, goes on
    ev.act("enter_playoff_result", {"stage": 1, "game": 1, "result": "1/2-1/2", "how": "claim"})
    ev.act("enter_playoff_result", {"stage": 1, "game": 2, "result": "1-0", "how": "slip"})
    final = ev.view.playoff_step().spec
    assert final.players == (p4, p2) and final.name == "final rapid match"


def test_the_boards_as_a_list_or_as_the_console_forms_text() -> None:
    # docs/arbiter.md "Actions": "numbers may come as digits in text (the console's forms send both)";
    # the form's field is "hall boards, comma separated" (dashboard/templates/_playoff.html). A new
    # user's {"boards": "1"} was refused as not a list. The US 2013 four-player Armageddon games (two
    # games: "1 plays 4 and 2 plays 3") need two boards, as text or as a list, and are checked alike.
    ev = Event("us-womens-championship-2013.toml", tied_top(4))
    p1, p2, p3, p4 = ev.view.tied_for_first()
    ev.act("armageddon_bid", {"stage": 1, "bids": {str(p1): 44 * MIN, str(p4): 43 * MIN}, "colour": "black"})
    ev.act("armageddon_bid", {"stage": 1, "bids": {str(p2): 30 * MIN, str(p3): 35 * MIN}, "colour": "white"})
    for one in (["1"], [1], "1"):
        with pytest.raises(ActionError, match="needs 2 different hall board"):
            build("start_playoff_stage", {"stage": 1, "boards": one}, "chief", {}, ev.hall.state, ev.now)
    made = [build("start_playoff_stage", {"stage": 1, "boards": two}, "chief", {}, ev.hall.state, ev.now)
            for two in (["1", "2"], [1, 2], "1, 2", "1 2", " 1,2 ")]
    assert [g["board"] for g in made[0][0][1]["games"]] == ["1", "2"]
    assert all(m == made[0] for m in made)
    with pytest.raises(ActionError, match=r"players\[1\]: a start number, a whole number, not 'x'"):
        build("forbid_pair", {"players": "1, x"}, "chief", {}, ev.hall.state, ev.now)


def test_us_2023_five_tied_blitz_then_an_armageddon_series_paired_by_the_arbiter() -> None:
    # "More Than Four Players: If more than four players are tied for first place, all tied players shall
    # contest a blitz (G3 + 2 increment) round robin. If more than one player is still tied for first,
    # the winner will be decided by a series of Armageddon Games." Armageddon: "White shall start with 5
    # minutes and black shall start with 4 minutes ... Black shall be declared the winner if the game
    # ends in a draw."
    ev = Event("us-championship-2023.toml", tied_top(5))
    tied = ev.view.tied_for_first()
    assert sorted(tied) == [1, 2, 3, 4, 5]
    blitz = ev.act("start_playoff_stage", {"stage": 1, "boards": ["1", "2"]})[0][1]
    assert len(blitz["games"]) == 10 and {g["time_control"] for g in blitz["games"]} == {"180+2"}
    last = tied[-1]
    # everyone beats the last on tie-breaks and the others draw: four still tied
    results_by_order(ev, 1, [p for p in tied if p != last] + [last], draws_among=set(tied) - {last})
    step = ev.view.playoff_step()
    assert step.spec.pair_by_arbiter and set(step.spec.players) == set(tied) - {last}
    a, b, c, d = step.spec.players
    with pytest.raises(ActionError, match="name two of the players still tied"):  # ``last`` left the tie
        ev.act("start_playoff_stage", {"stage": 2, "boards": ["1"], "players": [a, last]})
    with pytest.raises(ActionError, match="two players of the Armageddon game"):
        ev.act("draw_lots", {"purpose": "playoff_colours", "stage": 2, "numbers": {str(a): 1, str(last): 2}})
    remaining = [a, b, c, d]
    for stage in (2, 3, 4):
        x, y = remaining[0], remaining[1]
        ev.act("draw_lots", {"purpose": "playoff_colours", "stage": stage, "numbers": {str(x): 1, str(y): 2}})
        body = {"stage": stage, "boards": ["1"]}
        if len(remaining) > 2:
            body["players"] = [x, y]
        (game,) = ev.act("start_playoff_stage", body)[0][1]["games"]
        assert (game["white_no"], game["black_no"], game["kind"]) == (x, y, "armageddon")
        assert game["time_control"] == {"white": 5 * MIN, "black": 4 * MIN, "increment": 2000, "increment_from_move": 61}
        # drawn on a claim (rule 2: "Player may not mutually agree to a draw"): Black wins
        ev.act("enter_playoff_result", {"stage": stage, "game": 1, "result": "1/2-1/2", "how": "claim"})
        remaining.remove(x)
    done = ev.view.playoff_step()
    assert isinstance(done, Decided) and done.order[0] == d and done.order[-1] == last


def test_norway_three_tied_double_round_robin_then_lots() -> None:
    # "If more than two players share first place, there will be a double round-robin with the below
    # tiebreak rules." (no time control given: the arbiter sets it) ... "5. Drawing of" [lots]
    ev = Event("norway-chess-2023.toml", three_tied)
    tied = ev.view.tied_for_first()
    with pytest.raises(ActionError, match="no time control"):
        ev.act("start_playoff_stage", {"stage": 1, "boards": ["1"]})
    drr = ev.act("start_playoff_stage", {"stage": 1, "boards": ["1"], "time_control": "180+2"})[0][1]
    assert len(drr["games"]) == 6 and {(g["white_no"], g["black_no"]) for g in drr["games"]} == {
        (x, y) for x in tied for y in tied if x != y}
    results_by_order(ev, 1, tied, draws_among=set(tied))  # all drawn: equal on every tie-break
    step = ev.view.playoff_step()
    assert step.lots and set(step.players) == set(tied)
    assert {a.start_no for a in ev.view.prizes().awards if a.pending} == set(tied)
    with pytest.raises(ActionError, match="tied on every tie-break draw lots"):
        ev.act("draw_lots", {"purpose": "playoff_order", "numbers": {str(tied[0]): 1, "10": 2, str(tied[1]): 3}})
    ev.act("draw_lots", {"purpose": "playoff_order", "numbers": {str(tied[2]): 1, str(tied[0]): 2, str(tied[1]): 3}})
    done = ev.view.playoff_step()
    assert done.order == (tied[2], tied[0], tied[1])
    # "This does not apply to the first prize"; "The remaining players in this will also share the prize
    # money according to the below tie-break systems": the play-off's places, #1 to #3
    prizes = ev.view.prizes().by_start_no()
    assert [prizes[p].net for p in done.order] == [Decimal(750_000), Decimal(400_000), Decimal(250_000)]


def test_us_2023_no_draw_rule_holds_in_the_play_off() -> None:
    # "2. No Draws: A "no draw" rule will be in effect throughout the Event, including any playoff games.
    # Player may not mutually agree to a draw." Two tied: "a two-game rapid match (G/10 +2 increment)"
    ev = Event("us-championship-2023.toml")
    assert ev.view.tied_for_first() == [2, 1]
    (game, _) = ev.act("start_playoff_stage", {"stage": 1, "boards": ["1"]})[0][1]["games"]
    assert (game["time_control"], game["kind"]) == ("600+2", "rapid")
    ev.arrive("P1-1")
    ev.send("1", "clock", {"event": "start", "white_ms": 600_000, "black_ms": 600_000, "running": "white"})
    ev.send("1", "move", {"move": "e2e4"})
    ev.send("1", "clock", {"event": "press", "white_ms": 599_000, "black_ms": 600_000, "running": "black"})
    answers = ev.send("1", "result", {"result": "1/2-1/2", "reason": "agreement"})
    assert "draw_offer_refused" in [t for t, _ in answers]
    assert not ev.hall.state.games["P1-1"].ended
