"""Folding the event's end: a play-off stage started (its games set up on their boards exactly as a
round's, ``fold_round``), the Armageddon bids, the Norway Blitz order and pairing-number choices.
What these entries may say is checked by the arbiter's action before they are written
(``dashboard/arbiter/actions/playoff.py``); the fold records them."""

from __future__ import annotations

from services.events.playoff import ArmageddonBid, BlitzOrderRecorded, PairingNumberChosen, PlayoffStageStarted
from services.events.vocabulary import GameKind
from services.state.changes import Changes
from services.state.fold_round import start_round
from services.state.fold import HallState, folds
from services.state.playoff import PlayoffGame, PlayoffStage


@folds(PlayoffStageStarted)
def _stage_started(state: HallState, ev: PlayoffStageStarted, at: int, ch: Changes) -> None:
    po = state.tournament.playoff
    if any(s.stage == ev.stage for s in po.stages):
        return  # a stage is started once; the action refuses a second start
    start_round(state, ev, at, ch)
    r = state.rounds[str(ev.round)]
    if not r.date and state.config is not None:
        # an entry written before stages carried their date: the day the stage started, as
        # playoff_stage.stage_entry writes it now
        r.date = state.config.pgn_date(ev.start_ms if ev.start_ms is not None else at)
    if not po.stages:
        po.tied, po.regulation = list(ev.tied), ev.regulation
    ids = []
    for i, setup in enumerate(ev.games):
        if setup.white_no is None or setup.black_no is None:
            continue
        rnd = ev.game_rounds[i] if i < len(ev.game_rounds) else 1
        po.games[setup.id] = PlayoffGame(setup.id, ev.stage, rnd, setup.white_no, setup.black_no,
                                         setup.kind == GameKind.ARMAGEDDON)
        ids.append(setup.id)
    po.stages.append(PlayoffStage(ev.stage, ev.round, ev.name, ev.stage_kind, list(ev.players), ids, ev.by, at))
    ch.standings = True


@folds(ArmageddonBid)
def _bid(state: HallState, ev: ArmageddonBid, at: int, ch: Changes) -> None:
    bids = state.tournament.playoff.bids.setdefault(ev.stage, [])
    bids[:] = [b for b in bids if set(b["players"]) != set(ev.players)] + [
        {"players": list(ev.players), "bids": {b.start_no: b.ms for b in ev.bids}, "chooser": ev.chooser,
         "colour": ev.colour, "coin_toss_winner": ev.coin_toss_winner, "white": ev.white, "black": ev.black,
         "white_ms": ev.white_ms, "black_ms": ev.black_ms, "by": ev.by, "at": at}]
    ch.standings = True


@folds(BlitzOrderRecorded)
def _blitz_order(state: HallState, ev: BlitzOrderRecorded, at: int, ch: Changes) -> None:
    po = state.tournament.playoff
    po.blitz_order = list(ev.order)
    po.number_choices = {}
    ch.standings = True


@folds(PairingNumberChosen)
def _number(state: HallState, ev: PairingNumberChosen, at: int, ch: Changes) -> None:
    po = state.tournament.playoff
    po.number_choices[ev.start_no] = ev.number
    if po.blitz_order and len(po.number_choices) == len(po.blitz_order):
        # every player has chosen: the Berger tables follow these numbers (services.arbiter_office.round_from_file)
        state.tournament.pairing_numbers = dict(po.number_choices)
    ch.standings = True
