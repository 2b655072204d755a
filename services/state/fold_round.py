"""Folding the organiser's entries: the tournament registered, rounds set up (each hall board with
the games it plays, in order: ``BoardState.games``), games added to a round (an Armageddon game,
after the drawn game on its board), withdrawals and lots. Which game a board's devices play is
``fold_games``'."""

from __future__ import annotations

import msgspec

from services.events import ArmageddonScheduled, LotsDrawn, PlayerWithdrew, RoundStarted, TournamentRegistered
from services.events.tournament import Setup
from services.arbiter_office.round_from_file import DETAILS, player_details
from services.arbiter_office.tournament_log import tournament_from_data
from services.state.start import side_to_move, start_fen
from services.state.changes import Changes
from services.state.fold import HallState, folds
from services.state.model import BoardState, GameState, RoundState


def new_game(state: HallState, setup: Setup, round_no: str) -> GameState:
    """The GameState of a SETUP at ply 0."""
    variant = setup.variant or "chess"
    fen = start_fen(variant, setup.fen)
    first = side_to_move(variant, fen)
    g = GameState(id=setup.id, board=setup.board, round=setup.round or round_no, setup=setup.setup(), variant=variant,
                  kind=setup.kind, white=setup.white or "", black=setup.black or "", start_fen=fen,
                  first_side=first, fen=fen, turn=first, time_control=setup.time_control)
    return g


@folds(TournamentRegistered)
def _registered(state: HallState, ev: TournamentRegistered, at: int, ch: Changes) -> None:
    data = msgspec.to_builtins(ev)  # every field, as registered
    state.tournament.register(tournament_from_data(data), data)
    for g in state.games.values():
        _players_of_file(state, g, ch)
    ch.standings = True


def _players_of_file(state: HallState, g: GameState, ch: Changes) -> None:
    """A game paired from the file (start numbers in its SETUP) takes the registered players' names,
    ratings and details: a name or rating corrected mid-round (``venue serve --accept-changes``)
    reaches every page and export with the game's moves."""
    if state.config is None:
        return
    for side in ("white", "black"):
        start_no = getattr(g.setup, f"{side}_no")
        if start_no is None:
            continue
        try:
            p = state.tournament.as_player(int(start_no))
        except (KeyError, TypeError, ValueError):
            continue
        fresh = {side: p.name, f"{side}_elo": p.rating, **player_details(side, p)}
        for key, _ in DETAILS:
            fresh.setdefault(f"{side}_{key}", None)
        changed = [k for k, v in fresh.items() if getattr(g.setup, k) != v]
        if changed:
            g.setup = msgspec.structs.replace(g.setup, **fresh)
            if side == "white":
                g.white = p.name
            else:
                g.black = p.name
            ch.game(g.id, *changed)


@folds(RoundStarted)
def start_round(state: HallState, ev: RoundStarted, at: int, ch: Changes) -> None:
    """A round set up: its games on their boards (each hall board with the games it plays, in
    order); a numbered round's pairings reach the tournament part. Also folds a play-off stage's
    games (``fold_playoff``)."""
    number = str(ev.round)
    old = state.rounds.pop(number, None)
    if old is not None:  # a round set up again replaces its pairing
        for gid in old.games:
            state.games.pop(gid, None)
    r = RoundState(number, ev.event or "", ev.site or "", ev.date or "", at, ev.start_ms, ev.scheduled_start_ms,
                   ev.end_ms, byes=list(ev.byes))
    state.rounds[number] = r
    state.current = number
    before, state.boards = {**state.resting, **state.boards}, {}
    for setup in ev.games:
        g = new_game(state, setup, number)
        state.games[g.id] = g
        r.games.append(g.id)
        board = state.boards.get(g.board)
        if board is None:
            board = state.boards[g.board] = BoardState(g.board, g.id, games=[g.id])
            if g.board in before:
                _carry(before[g.board], board)
        else:  # the board's first game is set: this one follows it (a checkers match)
            board.games.append(g.id)
    state.resting = {b: old_board for b, old_board in before.items() if b not in state.boards}
    try:
        rnd = int(number)
    except ValueError:
        rnd = None
    if rnd is not None:
        state.tournament.round_started(rnd, [state.games[gid].setup for gid in r.games], ev.byes)
        draft = state.tournament.drafts.get(rnd)
        if draft is not None:
            draft.started = True
            ch.drafts.add(rnd)
    ch.rounds.add(number)
    ch.standings = True


def _carry(old: BoardState, board: BoardState) -> None:
    """A new round on a hall board whose devices sent messages in the round before: a device may
    count its messages from 1 again, or go on from its last ``seq`` (``BoardState.carried``: the
    hall then takes that ``seq`` + 1 as its next, ``gateway.hall.Hall``); either way its messages
    from the round's start are the new round's game's (docs/protocol.md "Fields"). The devices'
    status (and battery, and a malformed status already told) is the hall board's, not the
    round's: a round's start changes none of it, so the retained status the gateway gets again at
    its next start is no news (docs/protocol.md "Status"; fresh-user report #13: four
    ``device_offline`` a restart)."""
    board.carried = {name: dev.last for name, dev in old.devices.items() if dev.last}
    board.status, board.battery, board.bad_status = old.status, old.battery, old.bad_status


@folds(ArmageddonScheduled)
def _armageddon(state: HallState, ev: ArmageddonScheduled, at: int, ch: Changes) -> None:
    parent = state.games.get(ev.follows or "")
    round_no = parent.round if parent else (ev.round or "")
    g = new_game(state, ev, round_no)
    if parent is not None:  # the same players: their details, whichever colour each now has
        for side in ("white", "black"):
            was = "white" if parent.white == g.player(side) else "black" if parent.black == g.player(side) else None
            for key, _ in DETAILS:
                if was is not None and getattr(g.setup, f"{side}_{key}") is None:
                    setattr(g.setup, f"{side}_{key}", getattr(parent.setup, f"{was}_{key}"))
    state.games[g.id] = g
    r = state.rounds.get(round_no)
    if r is not None and g.id not in r.games:
        after = r.games.index(parent.id) + 1 if parent and parent.id in r.games else len(r.games)
        r.games.insert(after, g.id)
    if parent is not None:
        parent.follow_up = True
    board = state.boards.get(g.board) if round_no == state.current else None
    if board is not None and g.id not in board.games:  # played after the drawn game, its devices
        at = board.games.index(parent.id) + 1 if parent and parent.id in board.games else len(board.games)
        board.games.insert(at, g.id)  # going on with their seq: gateway.which_game
    state.tournament.armageddon(g.id, ev.follows or "")
    ch.rounds.add(round_no)
    ch.standings = True


@folds(PlayerWithdrew)
def _withdrew(state: HallState, ev: PlayerWithdrew, at: int, ch: Changes) -> None:
    t = state.tournament
    sno = t.player(ev.start_no, ev.player)
    t.withdrawn[sno] = int(ev.from_round or max((int(r) for r in state.rounds if r.isdigit()), default=0) + 1)
    ch.standings = True


@folds(LotsDrawn)
def _lots(state: HallState, ev: LotsDrawn, at: int, ch: Changes) -> None:
    numbers = {int(k): int(v) for k, v in ev.numbers.items()}
    if ev.purpose == "pairing_numbers":
        state.tournament.pairing_numbers = numbers
        return
    po = state.tournament.playoff
    if ev.purpose == "playoff_colours" and ev.stage is not None:
        po.colour_lots[ev.stage] = numbers
        ch.standings = True
        return
    if ev.purpose == "playoff_order":
        po.order_lots = numbers
        ch.standings = True
        return
    state.tournament.lots = numbers
    ch.standings = True
