"""The play-off's stage as a round of games on boards, and the event's-end choices the arbiter
records, each checked against the regulations before it is written. Pure.

* :func:`stage_entry`: the ``playoff_stage_started`` of the next stage (``services.tournament.
  playoff_walk``): only when the last round is over, the play-off due and the previous stage has left
  the tie; colours and times by the recorded bid (US 2013) or the drawing of lots (where the
  regulations leave colours open); the games on the given hall boards, a board's games in the
  stage's round order (a match's two games on one board: the gateway's "two games on one board").
* :func:`bid_entry`: the US 2013 Armageddon bid.
* :func:`lots_entry`: a drawing of lots for the play-off (colours, the last resort's order) or the
  tie-break lots.
* :func:`blitz_order_entry`, :func:`number_choice_entry`: Norway's pairing-number choice in the
  order of the Blitz tournament.

Each raises :class:`PlayoffError` with the rule when the regulations do not allow it; nothing is
written then.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Literal

from services.events.playoff import ArmageddonBid, Bid, BlitzOrderRecorded, PairingNumberChosen, PlayoffStageStarted
from services.events.tournament import LotsDrawn, Setup, TimeControlSpec, TimeControlTable
from services.arbiter_office.round_from_file import player_details
from services.tournament.playoff_walk import ArbiterDecides, Decided, NextStage, Playing, StageSpec
from services.tournament.playoffs import US_2013, US_2013_ARMAGEDDON_BASE_MS, armageddon_by_bid

BID_RULE = ("Each Player shall bid an amount of time (minutes and seconds, a number equal to or less than 45:00) "
            "with which they are willing to play in order to choose their color. The Player who bids the lowest "
            "amount of time chooses his color and begins with that amount of time; the other Player receives "
            "45:00. If both Players bid exactly the same amount of time, the Chief Arbiter will flip a coin to "
            "determine who shall choose their color. (us-championship-2013.txt, Playoff Regulations)")
CHOICE_RULE = ("Players will take it in turns to choose their pairing number for the Classical tournament, starting "
               "with the Blitz tournament winner and proceeding in the order in which they finished in the Blitz "
               "tournament. (norway-chess-2023.txt)")


class PlayoffError(ValueError):
    """A play-off action the regulations do not allow; ``str()`` says why, with the rule."""


def next_spec(view) -> StageSpec:
    """The stage the play-off calls for now; PlayoffError when none (saying why)."""
    step = view.playoff_step()
    t = view.tournament
    if step is None:
        if t is None or t.regulations.playoff == "none":
            raise PlayoffError("the tournament file names no play-off ([regulations.playoff] rule)")
        if not view.finished():
            raise PlayoffError(f"the play-off follows the last round ({t.rounds_total}): it is not over yet")
        raise PlayoffError("no tie for first place: no play-off (the regulations hold one only for a tie for first)")
    if isinstance(step, Playing):
        raise PlayoffError(f"stage {step.stage} is being played: the next stage is created only when it leaves the "
                           "tie")
    if isinstance(step, Decided):
        raise PlayoffError("the play-off has decided: " + "; ".join(step.how))
    if isinstance(step, ArbiterDecides):
        raise PlayoffError(step.reason)
    return step.spec


def _stage_no(view) -> int:
    return len(view.state.tournament.playoff.stages) + 1


def _colours(view, spec: StageSpec, stage: int, players: Sequence[int]) -> list[tuple[int, int, dict | None]]:
    """``(white, black, time control)`` of each game of ``spec`` (``players``: the two the arbiter
    named for a series game)."""
    pairs = [tuple(players)] if spec.pair_by_arbiter else list(spec.pairs)
    po = view.state.tournament.playoff
    if spec.colours == "fixed":
        return [(w, b, spec.time_control) for w, b in pairs]
    out: list[tuple[int, int, dict | None]] = []
    for a, b in pairs:
        if spec.colours == "bid":
            bid = next((x for x in po.bids.get(stage, []) if set(x["players"]) == {a, b}), None)
            if bid is None:
                raise PlayoffError(f"stage {stage}: record the Armageddon bid of {a} and {b} first (armageddon_bid): "
                                   + BID_RULE)
            out.append((bid["white"], bid["black"], {"white_ms": bid["white_ms"], "black_ms": bid["black_ms"],
                                                     "increment_ms": 0, "increment_from_move": 1, "pgn": None}))
            continue
        lots = po.colour_lots.get(stage) or {}
        if set(lots) != {a, b}:
            raise PlayoffError(f"stage {stage}: the regulations do not say who has White in the Armageddon game of "
                               f"{a} and {b}: record the drawing of lots for the colours first (draw_lots, purpose "
                               "playoff_colours)")
        w, bl = sorted((a, b), key=lambda p: lots[p])
        out.append((w, bl, spec.time_control))
    return out


def _clock_spec(tc: dict) -> TimeControlSpec:
    """A play-off time control (``playoffs.control`` data) as a SETUP's ``time_control``: PGN text
    where PGN can say it, else a table in ms (services.regulations.controls)."""
    if tc.get("pgn"):
        return tc["pgn"]
    return TimeControlTable(white=tc["white_ms"], black=tc["black_ms"], increment=tc.get("increment_ms", 0),
                            increment_from_move=tc.get("increment_from_move", 1))


def stage_entry(view, stage: int, boards: Sequence[str], *, start_ms: int | None = None,
                time_control: str | None = None, players: Sequence[int] = (), by: str | None = None,
                note: str | None = None) -> PlayoffStageStarted:
    """The ``playoff_stage_started`` of stage ``stage`` (it must be the next) on hall ``boards``
    (as many as the stage's games in one round: a match one, a round robin of four two).
    ``time_control``: PGN TimeControl text, only where the regulations give none (Norway's double
    round robin); ``players``: the two start numbers of a series Armageddon game the arbiter pairs
    (US 2023). Raises PlayoffError (module docstring)."""
    spec = next_spec(view)
    expected = _stage_no(view)
    if stage != expected:
        raise PlayoffError(f"stage: the play-off's next stage is {expected} ({spec.name}), not {stage}")
    if spec.pair_by_arbiter:
        if len(players) != 2 or len(set(players)) != 2 or not set(players) <= set(spec.players):
            raise PlayoffError(f"players: name two of the players still tied {list(spec.players)} for this "
                               f"Armageddon game, not {list(players)} ({spec.quote})")
    elif players:
        raise PlayoffError(f"players: the regulations pair this stage themselves ({spec.quote})")
    tc_given = None
    if spec.time_control is None and spec.colours != "bid":
        if not time_control:
            raise PlayoffError(f"time_control: the regulations give no time control for the {spec.name}: set it "
                               f"(PGN TimeControl text, e.g. 180+2) ({spec.quote})")
        tc_given = time_control
    elif time_control:
        raise PlayoffError(f"time_control: the regulations fix the {spec.name}'s time control")
    games = _colours(view, spec, stage, players)
    rounds = (1,) if spec.pair_by_arbiter else spec.rounds
    per_round: dict[int, int] = {}
    for r in rounds:
        per_round[r] = per_round.get(r, 0) + 1
    needed = max(per_round.values())
    boards = [str(b) for b in boards]
    if len(boards) < needed or len(set(boards)) != len(boards):
        raise PlayoffError(f"boards: the {spec.name} needs {needed} different hall board(s), one per game of a "
                           f"round, not {boards}")
    label = f"P{stage}"
    setups, seen = [], {r: 0 for r in per_round}
    for i, ((w, b, tc), r) in enumerate(zip(games, rounds), start=1):
        board = boards[seen[r]]
        seen[r] += 1
        pw, pb = view.state.tournament.as_player(w), view.state.tournament.as_player(b)
        details = {**player_details("white", pw), **player_details("black", pb)}
        setups.append(Setup(id=f"{label}-{i}", board=board, round=label, white=pw.name, black=pb.name,
                            white_elo=pw.rating, black_elo=pb.rating, white_no=w, black_no=b,
                            white_title=details.get("white_title"), black_title=details.get("black_title"),
                            white_fide_id=details.get("white_fide_id"), black_fide_id=details.get("black_fide_id"),
                            white_fed=details.get("white_fed"), black_fed=details.get("black_fed"),
                            time_control=tc_given or (_clock_spec(tc) if tc else None), kind=spec.game_kind,
                            rule=spec.quote))
    order = sorted(range(len(setups)), key=lambda k: (rounds[k], k))
    t = view.tournament
    po = view.state.tournament.playoff
    return PlayoffStageStarted(
        round=label, games=[setups[k] for k in order], game_rounds=[rounds[k] for k in order],
        event=t.name if t else "", site=t.site if t else "", date=t.pgn_date(start_ms) if t else "", start_ms=start_ms,
        stage=stage, name=spec.name,
        stage_kind=spec.kind, players=sorted({p for s in setups for p in (s.white_no, s.black_no) if p is not None},
                                             key=list(spec.players).index),
        tied=list(po.tied) if po.stages else view.tied_for_first(), regulation=t.regulations.playoff if t else "",
        rule=spec.quote, by=by, note=note)


def bid_entry(view, stage: int, bids: Mapping[int, int], colour: str, *, coin_toss_winner: int | None = None,
              by: str | None = None, note: str | None = None) -> ArmageddonBid:
    """The US 2013 Armageddon bidding for the Armageddon game of stage ``stage`` (the next stage,
    an Armageddon with colours by bid): ``bids`` start number -> ms, ``colour`` the chooser's choice.
    Raises PlayoffError: not US 2013, not the stage's players, a bid over 45:00 or not whole
    seconds, equal bids without the coin or a coin naming neither bidder."""
    spec = next_spec(view)
    t = view.tournament
    if t is None or t.regulations.playoff != US_2013 or spec.colours != "bid":
        raise PlayoffError(f"the {spec.name} is not an Armageddon game with time bidding (only the 2013 U.S. "
                           "Championship's play-off has one)")
    if stage != _stage_no(view):
        raise PlayoffError(f"stage: the play-off's next stage is {_stage_no(view)} ({spec.name}), not {stage}")
    pair = next((p for p in spec.pairs if set(p) == set(bids)), None)
    if pair is None:
        raise PlayoffError(f"bids: the players of an Armageddon game of the {spec.name} bid "
                           f"({' or '.join(f'{a} and {b}' for a, b in spec.pairs)}), not {sorted(bids)}")
    for sno, ms in bids.items():
        if ms % 1000 or not 0 < ms <= US_2013_ARMAGEDDON_BASE_MS:
            raise PlayoffError(f"bids: player {sno} bid {ms // 60000}:{ms % 60000 / 1000:05.2f}: a bid is minutes and "
                               "seconds, at most 45:00 (\"a number equal to or less than 45:00\")")
    if coin_toss_winner is not None and coin_toss_winner not in bids:
        raise PlayoffError(f"coin_toss_winner: {coin_toss_winner} did not bid ({sorted(bids)} did)")
    if len(set(bids.values())) == 2 and coin_toss_winner is not None:
        raise PlayoffError("coin_toss_winner: the bids differ: the lowest bidder chooses, no coin is tossed")
    try:
        out = armageddon_by_bid(dict(bids), coin_toss_winner)
    except ValueError as exc:
        raise PlayoffError(f"{exc} ({BID_RULE})") from None
    side: Literal["white", "black"] = "white" if colour == "white" else "black"
    if colour != side:
        raise PlayoffError(f"colour: white or black, not {colour!r}")
    white, black = (out.chooser, out.other) if colour == "white" else (out.other, out.chooser)
    times = {out.chooser: out.chooser_ms, out.other: out.other_ms}
    return ArmageddonBid(stage=stage, players=list(pair), bids=[Bid(start_no=s, ms=ms) for s, ms in bids.items()],
                         chooser=out.chooser, colour=side, white=white, black=black, white_ms=times[white],
                         black_ms=times[black], coin_toss_winner=coin_toss_winner, rule=BID_RULE, by=by, note=note)


def lots_entry(view, purpose: str, numbers: Mapping[int, int], *, stage: int | None = None,
               by: str | None = None, note: str | None = None) -> LotsDrawn:
    """A drawing of lots: ``numbers`` start number -> lot (1 first). ``purpose``
    "playoff_colours" (the next stage's Armageddon game of the two drawing: lot 1 White),
    "playoff_order" (the players the play-off's last resort leaves tied), "tiebreak" (players equal
    on points after the last round). Raises PlayoffError naming a player not in the tie, lots that
    are not 1..n, a purpose not called for."""
    if sorted(numbers.values()) != list(range(1, len(numbers) + 1)):
        raise PlayoffError(f"numbers: the lots are 1..{len(numbers)}, each once, not {sorted(numbers.values())}")
    if purpose == "playoff_colours":
        spec = next_spec(view)
        if stage != _stage_no(view):
            raise PlayoffError(f"stage: the play-off's next stage is {_stage_no(view)} ({spec.name}), not {stage}")
        if spec.colours != "lots":
            raise PlayoffError(f"the {spec.name}'s colours are not drawn by lot ({spec.quote})")
        pool = spec.players if spec.pair_by_arbiter else [p for pair in spec.pairs for p in pair]
        if len(numbers) != 2 or not set(numbers) <= set(pool):
            raise PlayoffError(f"numbers: the two players of the Armageddon game draw for the colours (of "
                               f"{list(pool)}), not {sorted(numbers)}")
    elif purpose == "playoff_order":
        step = view.playoff_step()
        if not isinstance(step, ArbiterDecides) or not step.lots:
            raise PlayoffError("no drawing of lots is due in the play-off: its stages have not left players tied "
                               "on every tie-break")
        if set(numbers) != set(step.players):
            raise PlayoffError(f"numbers: the players tied on every tie-break draw lots: {list(step.players)}, "
                               f"not {sorted(numbers)}")
    elif purpose == "tiebreak":
        rows = {r.start_no: r for r in view.standings()}
        unknown = [s for s in numbers if s not in rows]
        if unknown or len({rows[s].points for s in numbers}) != 1 or len(numbers) < 2:
            raise PlayoffError(f"numbers: lots are drawn among players tied on points (C.07 LOT); {sorted(numbers)} "
                               "are not")
    else:
        raise PlayoffError(f"purpose: playoff_colours, playoff_order or tiebreak, not {purpose!r}")
    return LotsDrawn(numbers={str(k): v for k, v in numbers.items()}, purpose=purpose, stage=stage, by=by, note=note)


NUMBERS_CHOSEN = frozenset({"norway-2023"})
"""The regulations (``regulations.playoff.rule``) whose players choose their pairing numbers in a
Blitz tournament's order (``CHOICE_RULE``)."""


def numbers_chosen(t) -> bool:
    """Whether the players of tournament ``t`` (None: none registered) choose their pairing numbers in
    the Blitz order (``CHOICE_RULE``: Norway Chess 2023)."""
    return t is not None and t.regulations.playoff in NUMBERS_CHOSEN


def blitz_order_entry(view, order: Sequence[int], *, source: str = "", by: str | None = None,
                      note: str | None = None) -> BlitzOrderRecorded:
    """The Blitz tournament's final order (start numbers of this event, winner first). Raises
    PlayoffError: the event's regulations choose no pairing numbers (``numbers_chosen``), not every
    player once, or round 1 already started."""
    if not numbers_chosen(view.tournament):
        raise PlayoffError("this event's regulations have no pairing numbers chosen in a Blitz order (that is "
                           "Norway Chess 2023's rule: " + CHOICE_RULE + ")")
    players = set(view.players)
    if sorted(order) != sorted(players) or len(set(order)) != len(order):
        raise PlayoffError(f"order: every player of the event once, the Blitz winner first ({len(players)} players), "
                           f"not {list(order)}")
    if view.rounds:
        raise PlayoffError("the pairing numbers are chosen before round 1: it has started")
    return BlitzOrderRecorded(order=list(order), source=source, by=by, note=note)


def number_choice_entry(view, start_no: int, number: int, *, by: str | None = None,
                        note: str | None = None) -> PairingNumberChosen:
    """Player ``start_no`` chooses pairing ``number``. Raises PlayoffError: no Blitz order recorded,
    not his turn, a number out of 1..n or taken, round 1 started."""
    po = view.state.tournament.playoff
    if not po.blitz_order:
        raise PlayoffError("record the Blitz tournament's final order first: " + CHOICE_RULE)
    if view.rounds:
        raise PlayoffError("the pairing numbers are chosen before round 1: it has started")
    turn = len(po.number_choices) + 1
    if turn > len(po.blitz_order):
        raise PlayoffError("every player has chosen his pairing number")
    due = po.blitz_order[turn - 1]
    if start_no != due:
        raise PlayoffError(f"start_no: it is the turn of {due} ({turn}. in the Blitz), not {start_no}: "
                           + CHOICE_RULE)
    n = len(po.blitz_order)
    if not 1 <= number <= n:
        raise PlayoffError(f"number: a pairing number of the Berger tables is 1..{n}, not {number}")
    taken = {v: k for k, v in po.number_choices.items()}
    if number in taken:
        raise PlayoffError(f"number: {number} was chosen by {taken[number]} already")
    return PairingNumberChosen(start_no=start_no, number=number, turn=turn, by=by, note=note)
