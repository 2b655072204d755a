"""Folding how games end and what they score: ``game_ended`` (whoever ended it), a flag fall, the
arbiter's decisions (a result, or "*": the game wrongly ended goes on), an Armageddon draw scored
for Black, an accepted claim, a default, fines."""

from __future__ import annotations

from decimal import Decimal

from services.events import (ArbiterDecision, ArmageddonDecided, DefaultForfeit, DrawClaimDecided, FineRecorded,
                             FlagFell, GameEnded, GameResult, GameStatus)
from services.state.clock_reading import frozen_clock
from services.state.changes import Changes
from services.state.fold_games import CLAIM, awaits
from services.state.fold import HallState, folds


@folds(GameEnded)
def _ended(state: HallState, ev: GameEnded, at: int, ch: Changes) -> None:
    g = state.games[ev.game]
    g.status, g.result, g.termination, g.forfeit = GameStatus.ENDED, ev.result, ev.termination, ev.forfeit
    g.ended_by, g.ended_at = ev.by, at
    g.claimable = []
    g.awaiting.clear()  # the game is over: nothing more to decide for it
    fields = {"status", "result", "termination", "claimable"}
    if g.clock is not None:
        g.clock = frozen_clock(g.clock, at)
        fields.add("clock")
    g.timer = None
    board = state.boards.get(g.board)
    if board is not None and board.game == g.id:
        board.held, board.pending = False, None
    if state.tournament.set_result(g.id, ev.result, ev.forfeit):
        ch.standings = True
    ch.game(g.id, *fields)


@folds(FlagFell)
def _flag(state: HallState, ev: FlagFell, at: int, ch: Changes) -> None:
    state.games[ev.game].flagged = ev.side


@folds(ArbiterDecision)
def _decision(state: HallState, ev: ArbiterDecision, at: int, ch: Changes) -> None:
    g = state.games[ev.game or ""]
    g.awaiting.clear()  # the arbiter ruled on the game
    if ev.result == GameResult.UNFINISHED and g.ended:
        # FIDE Laws 6.7.1 "unless the arbiter decides otherwise": the same moves, the game on again.
        # A default overruled excuses the players at the board by now (checked in, moved, pressed)
        # and is armed again for a player still absent, who is defaulted once more.
        g.status = GameStatus.PLAYING if g.ply or (g.clock is not None and g.clock.running) else GameStatus.WAITING
        g.result, g.termination, g.forfeit, g.ended_by, g.ended_at = GameResult.UNFINISHED, None, False, None, None
        if g.defaulted:
            g.excused |= {side for side, when in g.arrived.items() if when is not None}
        g.defaulted = False
        ch.game(g.id, "status", "result", "termination")
    if state.tournament.set_result(g.id, ev.result, ev.forfeit):
        ch.standings = True


@folds(ArmageddonDecided)
def _armageddon_decided(state: HallState, ev: ArmageddonDecided, at: int, ch: Changes) -> None:
    # "If the Armageddon game is drawn, black will win" (Norway Chess 2023): the decided result
    g = state.games.get(ev.game)
    if g is not None:
        g.scored = ev.result or "0-1"
        ch.game(g.id, "scored")
    if state.tournament.set_result(ev.game, ev.result or "0-1", False):
        ch.standings = True


@folds(DefaultForfeit)
def _default(state: HallState, ev: DefaultForfeit, at: int, ch: Changes) -> None:
    g = state.games.get(ev.game)
    if g is not None:
        g.defaulted = True
    if state.tournament.set_result(ev.game, ev.result, True):
        ch.standings = True


@folds(DrawClaimDecided)
def _claim_decided(state: HallState, ev: DrawClaimDecided, at: int, ch: Changes) -> None:
    g = state.games.get(ev.game or "")
    if g is not None and not ev.accepted:
        awaits(g, CLAIM, False)  # the game goes on; an upheld claim's wait ends with the game (game_ended)
    if ev.accepted and state.tournament.set_result(ev.game or "", "1/2-1/2", False):
        ch.standings = True


@folds(FineRecorded)
def _fine(state: HallState, ev: FineRecorded, at: int, ch: Changes) -> None:
    t = state.tournament
    sno = t.player(ev.start_no, ev.player)
    t.fines[sno] = t.fines.get(sno, Decimal(0)) + Decimal(int(ev.amount))
    ch.standings = True
