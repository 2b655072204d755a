"""The arbiter's decisions judged by the rules core before they are recorded: claims, penalties,
defaults, flags and move timers, from the recorded position and clocks (the hall's folded state).
A decision the Laws or the event's regulations allow gives a ``Ruling`` (the article and why, kept
in the entry's ``ruling``); one they do not allow raises ``Refused`` with the reason, and the
console shows it. Pure: the state and the instant are passed in.

- Claims (FIDE Laws 9.2, 9.3, 9.5; checkers: the ACF/WCDF third repetition and 40-move rule):
  ``ChessGame.claim``/``CheckersGame.claim`` on the position the claim was made in. Accepting an
  incorrect claim is refused (9.5.2 draws only "If the claim is found to be correct"; reject it:
  9.5.3's two minutes are then proposed, ``referee.answers``); rejecting a claim the record shows
  correct is refused too (9.5.2: "the game is immediately drawn"): where the claim was not validly
  made (9.4, the intended move not written, 9.2.1/9.3.1) the arbiter closes its alert instead.
- Penalties (7.5.5, 9.5.3, A.3, B.2/B.3): ``apply_penalty`` gives what the open proposal gives, or,
  with none open, the Laws' amount for the game's time class; never time for a proposal that loses
  the game (the second completed illegal move: the result is declared). ``withdraw_penalty`` needs
  a proposal of that player to withdraw.
- Results with a rule behind them: a flag fall (6.8, 6.9, 6.10.1: the clock shows the side at 0;
  drawn when the opponent cannot checkmate by any possible series of legal moves), a default (6.7.1:
  only a player absent past the default time, counted from the round's start; presence from a move,
  a press or a check-in), a resignation (5.1.2: drawn when the opponent cannot checkmate), a
  checkmate or stalemate (5.1.1, 5.2.1: the position on the board), a draw by agreement or a drawn
  result slip (9.1.1: the event's draw-offer rule, judged as a device's agreed draw is,
  ``referee.agreement_banned``). Other results (12.9, 11.3, the arbiter's own judgement) are the
  arbiter's. The console's ``set_result`` and result slip alike (``result_ruling``).
- Move timers (11-Man National 2017 X.B.a, X.B.c): only where the event's regulations provide them
  (``regulations.move_timers``: none in the Master division, X.A.i), for a game in progress without
  a clock (X.B.a "Either the time clocks or the ordinary five-minute rule"), the one-minute rule not
  before the warning 30 minutes before the round's end (X.B.c).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from datetime import datetime, timezone

from services.events.vocabulary import GameResult, Termination, Variant
from services.regulations import irregularities as ir
from services.regulations.controls import control_of
from services.regulations.move_timer import FIVE_MINUTE, ONE_MINUTE
from services.regulations.checkers_match import RULE_FLAG as RULE_MATCH_FLAG
from services.regulations.quotes import rule_for
from services.rules.base import SIDES, MoveRefused, other
from services.rules.penalties import ILLEGAL_MOVE, INCORRECT_CLAIM, penalty
from services.rules.replay import replay

DRAW = GameResult.DRAW
SEARCH_NODES = 300
"""Positions searched per side when a decision asks whether a side can checkmate (6.9, 5.1.2): the
gateway's own budget (``gateway.laws.LIVE_NODES``), so the console answers as the gateway would and
no request holds the dashboard for long. "Undetermined" refuses nothing: only a proof does."""
ONE_MINUTE_WARNING_MS = 30 * 60_000  # X.B.c: "warn the players 30 minutes before the end of the round time"
TIMERS = {"five_minute": FIVE_MINUTE, "one_minute": ONE_MINUTE}
JUDGED_TERMINATIONS = (Termination.TIME_FORFEIT, Termination.RESIGNATION, Termination.CHECKMATE, Termination.STALEMATE)
"""The terminations of an arbiter's result a rule decides (``judge_result``; a default is judged by
its ``forfeit``; a draw by agreement by ``AGREED_TERMINATIONS``); any other is the arbiter's
judgement alone (12.9, 11.3 ...)."""
AGREED_TERMINATIONS = (Termination.AGREEMENT, Termination.RESULT_SLIP)
"""The terminations of a drawn result that say the players agreed it (5.2.3, 9.1; a drawn result
slip, 8.7, signed without another way named): judged against the event's draw-offer rule
(``referee.agreement_banned``) where the event has a tournament file."""
MASTER_NO_TIMERS = ("11-Man National 2017 X.A.i: \"Because the Master Division is open-ended without rigid "
                    "round-ending time, it is important that the Master Division matches are not subject to the "
                    "One-Minute Rule because of this mandatory use of clocks.\"")


class Refused(ValueError):
    """A decision the Laws or the regulations do not allow: ``field`` (the request's field it is
    about), ``reason`` (why, in words), ``law`` (the article or the regulation). ``str()``:
    "field: reason (law)"."""

    def __init__(self, field_name: str, reason: str, law: str):
        self.field = field_name
        self.reason = reason
        self.law = law
        super().__init__(f"{field_name}: {reason} ({law})")


@dataclass(frozen=True)
class Ruling:
    """How the rules core judged an allowed decision: ``law``, ``reason``, ``evidence`` (what it
    rests on: the claim's plies or halfmove clock, the proposal, the clock, the arrivals)."""

    law: str
    reason: str
    evidence: dict = field(default_factory=dict, compare=False)

    def to_json(self) -> dict:
        """``{"law", "reason", "evidence"}`` as in an arbiter entry's ``ruling``."""
        return {"law": self.law, "reason": self.reason, "evidence": self.evidence}


def _game(state, gid: str):
    g = state.games.get(gid) if state is not None else None
    if g is None:
        raise Refused("game", f"no game {gid!r} in the recorded state to judge the decision against", "FIDE Laws 12.1")
    return g


def _replayed(g, plies: int | None = None):
    try:
        return replay(g, plies)
    except (MoveRefused, ValueError) as exc:
        raise Refused("game", f"its record cannot be replayed ({exc})", "FIDE Laws 7.5.1") from None


def _clock(ms: int) -> str:
    seconds = max(0, ms) // 1000
    return f"{seconds // 3600}:{seconds // 60 % 60:02d}:{seconds % 60:02d}"


def _when(ms: int) -> str:
    return datetime.fromtimestamp(ms / 1000, tz=timezone.utc).strftime("%H:%M:%S UTC")


# ----- claims ---------------------------------------------------------------------------------------
def judge_claim(state, gid: str, kind: str, *, accept: bool, by_move: str | None = None, side: str | None = None,
                ply: int | None = None) -> Ruling:
    """An arbiter accepting (``accept``) or rejecting a draw claim of ``kind`` ("threefold",
    "fifty_moves"; checkers "threefold", "forty_moves") by ``side`` (default: the player having the
    move, who alone may claim: 9.2, 9.3) with the intended move ``by_move`` (None: about the position
    on the board), made at ``ply`` (default: now). Returns the ``Ruling`` (the verdict's article,
    reason and evidence); raises ``Refused`` when the verdict says otherwise (see the module)."""
    g = _game(state, gid)
    at = g.ply if ply is None else ply
    if isinstance(at, bool) or not isinstance(at, int) or not 0 <= at <= g.ply:
        raise Refused("ply", f"the position the claim was made in: a ply from 0 to {g.ply}", "FIDE Laws 9.2, 9.3")
    game = _replayed(g, at)
    claimant = side or game.turn
    try:
        verdict = game.claim(kind, by_move) if claimant == game.turn else None
    except ValueError as exc:
        raise Refused("kind", str(exc), "FIDE Laws 9.2, 9.3") from None
    if verdict is None:
        law, correct = "FIDE Laws 9.2, 9.3", False
        reason = f"only the player having the move may claim, and after ply {at} it is {game.turn}'s move, not {claimant}'s"
        evidence: dict = {}
    else:
        law, correct, reason, evidence = verdict.law, verdict.correct, verdict.reason, dict(verdict.evidence)
    evidence.update(ply=at, claimant=claimant, by_move=verdict.by_move if verdict else by_move, correct=correct)
    if accept and not correct:
        penalty_word = "; reject it: two minutes for the opponent are proposed (9.5.3)" if g.variant == Variant.CHESS else \
            "; reject it"
        raise Refused("kind", f"the {kind} claim is incorrect: {reason}{penalty_word}", law)
    if not accept and correct:
        raise Refused("kind", f"the {kind} claim is correct: {reason}, so the game is drawn (9.5.2); if it was not "
                              "validly made (9.4: a piece touched; 9.2.1, 9.3.1: the intended move not written down), "
                              "close its alert with a note instead", law)
    return Ruling(law, reason if correct else f"incorrect: {reason}", evidence)


# ----- penalties ------------------------------------------------------------------------------------
def judge_penalty(state, gid: str, side: str, add_ms: int) -> Ruling:
    """The arbiter adds ``add_ms`` to ``side``'s clock as a penalty for the opponent's irregularity
    (7.5.5, 9.5.3; one minute in rapid and in blitz under B.3, A.3): what ``side``'s latest open
    proposal gives, else (an irregularity the gateway did not see: 7.5.4 two hands, an illegal move
    on a sensor board) the Laws' amount for the game's time class. Raises ``Refused`` for another
    amount, or for a proposal that loses the game (7.5.5: the result is declared instead)."""
    g = _game(state, gid)
    offender = other(side)
    proposal = next((p for p in reversed(g.proposals) if p.to == side and p.status == "open"), None)
    if proposal is not None:
        law = proposal.law or "FIDE Laws 7.5.5, 9.5.3"
        if proposal.game_lost:
            raise Refused("add_ms", f"{offender}'s completed illegal move no. {proposal.offence_no} loses the game, "
                                    f"no time is added: declare the result {proposal.result} (set_result)", law)
        if add_ms != proposal.add_ms:
            raise Refused("add_ms", f"the penalty proposed gives {side} {proposal.add_ms} ms, not {add_ms}", law)
        return Ruling(law, f"{proposal.how.replace('_', ' ')} by {offender} (offence {proposal.offence_no}): "
                           f"{add_ms // 60_000} min to {side}",
                      {"proposal": {"side": proposal.side, "offence": proposal.offence, "how": proposal.how,
                                    "offence_no": proposal.offence_no, "presses": proposal.presses,
                                    "doubt": proposal.doubt}})
    cls, part = ir.game_class(state, g)
    given = penalty(ILLEGAL_MOVE, 1, cls, part)
    if add_ms != given.add_ms:
        raise Refused("add_ms", f"no penalty is proposed for {side} in this game; the Laws' penalty in this {cls} game "
                                f"is {given.add_ms} ms", given.law)
    return Ruling(given.law,
                  f"an irregularity the gateway did not propose: the Laws' {given.add_ms // 60_000} min for a {cls} game",
                  {"time_class": cls, "appendix": part})


def judge_withdrawal(state, gid: str, side: str, presses: int | None = None):
    """The arbiter withdraws the penalty proposed for ``side`` (the offender; ``presses``: the
    proposal made at that press, else the latest): no irregularity was completed (7.5.1: the press
    was the replacement move's; 9.5: the claim was not incorrect). Returns ``(Ruling, proposal)``;
    raises ``Refused`` when ``side`` has no proposal left to withdraw."""
    from services.state.fold_penalties import proposal_of

    g = _game(state, gid)
    proposal = proposal_of(g, side, ILLEGAL_MOVE, presses) or proposal_of(g, side, INCORRECT_CLAIM, presses)
    if proposal is None:
        raise Refused("side", f"no penalty proposed for {side} in game {gid} is left to withdraw", "FIDE Laws 7.5.5, 9.5.3")
    law = ir.ARBITER_LAW if proposal.offence == ILLEGAL_MOVE else "FIDE Laws 9.5.3"
    what = "no illegal move was completed" if proposal.offence == ILLEGAL_MOVE else "the claim was not incorrect"
    return Ruling(law, f"the arbiter found {what}", {"offence_no": proposal.offence_no, "status": proposal.status,
                                                     "doubt": proposal.doubt}), proposal


# ----- results --------------------------------------------------------------------------------------
def judge_result(state, gid: str, result: str, termination: str | None, forfeit: bool,
                 now_ms: int | None = None) -> Ruling | None:
    """An arbiter's result for game ``gid`` judged where a rule decides it (see the module; ``judged``):
    a flag fall ("time_forfeit"), a default (``forfeit``), a resignation, a checkmate, a stalemate,
    a draw by agreement ("agreement", or a drawn "result_slip") under the event's draw-offer rule, a
    slip for a match game forfeited before it began (X.A.b, ``_never_begun``).
    Returns the ``Ruling``, None where the result is the arbiter's judgement alone (or "*", a game
    reopened); raises ``Refused`` when the record contradicts it. ``now_ms``: the instant of the
    decision; None leaves out what needs it (the default time still running, a running clock's
    time run on to now)."""
    if result == "*":
        return None
    g = _game(state, gid)
    if termination == Termination.RESULT_SLIP:
        _never_begun(state, g, result)
    if result == DRAW and termination in AGREED_TERMINATIONS and not forfeit:
        _agreement(state, g, termination)
        return None
    if forfeit:
        return _default(state, g, result, now_ms)
    if termination == Termination.TIME_FORFEIT:
        return _flag(g, result, now_ms)
    if termination in (Termination.RESIGNATION, Termination.CHECKMATE, Termination.STALEMATE) and g.variant == Variant.CHESS:
        return _on_the_board(g, result, termination)
    return None


def _never_begun(state, g, result: str) -> None:
    """A players' slip for a match's second game that the regulations forfeited after a flag fall in
    the first (11-Man National 2017 X.A.b: "A player whose time expires forfeits the current game, as
    well as the next game if not started"; ``match_forfeit``): the game never began, so the players
    cannot have a result of it to sign. Refused unless it is the forfeit's own result; the arbiter
    corrects the first game (the flag) or decides this one (how: arbiter)."""
    if (g.setup.match is None or not g.forfeit or g.ended_by != "regulations" or g.ply
            or result == g.result):
        return
    raise Refused("result", f"game {g.id} never began: the regulations forfeited it {g.result} after the flag "
                            "fell in the match's first game; correct the first game's result if the flag did not "
                            "fall, or decide this one as the arbiter (how: arbiter)",
                  rule_for(state, "match_flag", RULE_MATCH_FLAG))


def judged(result: str, termination: str | None, forfeit: bool) -> bool:
    """Whether a rule decides an arbiter's ``result`` with ``termination`` (``judge_result`` has
    something to judge): a default, a flag, a resignation, a checkmate, a stalemate, a draw by
    agreement, any players' slip (a match game the regulations forfeited never began:
    ``_never_begun``); "*" (a game reopened) never."""
    if result == "*":
        return False
    return (forfeit or termination in JUDGED_TERMINATIONS or termination == Termination.RESULT_SLIP
            or (result == DRAW and termination in AGREED_TERMINATIONS))


def _agreement(state, g, termination: str) -> None:
    """A draw the players agreed (5.2.3 "by agreement between the two players during the game,
    provided both players have made at least one move"; 9.1.1 "The regulations of an event may
    specify that players cannot offer or agree to a draw ... without the consent of the arbiter"):
    refused where the event's draw-offer rule forbids it (``referee.agreement_banned``, the device's
    judgement too), quoting it; nothing to say (the arbiter's) where it allows it."""
    from services.regulations.referee import agreement_banned

    banned = agreement_banned(state, g)
    if banned is None:
        return None
    how = "a drawn result slip (an agreed draw)" if termination == Termination.RESULT_SLIP else "a draw by agreement"
    raise Refused("result", f"{how} is not allowed here by the event's rule; if the game was drawn otherwise, name "
                            "how (a claim upheld, threefold_repetition, fifty_moves, stalemate ...)", banned[0])


def _loser(result: str) -> str | None:
    return {"1-0": "black", "0-1": "white"}.get(result)


def _remaining(g, side: str, now_ms: int | None) -> int | None:
    """``side``'s time on the last clock reading, run on to ``now_ms`` when its clock runs."""
    clock = g.clock
    if clock is None:
        return None
    left = clock.side_ms(side)
    if clock.running == side and not g.ended and now_ms is not None:
        left -= max(0, now_ms - (clock.at or now_ms))
    return left


def _flag(g, result: str, now_ms: int | None) -> Ruling:
    """6.8, 6.9, 6.10.1 (checkers: 11-Man National 2017 X.A.b, X.A.e)."""
    law = "FIDE Laws 6.8, 6.9, 6.10.1" if g.variant == Variant.CHESS else "11-Man National 2017 X.A.b, X.A.e"
    left: dict[str, int | None] = {side: _remaining(g, side, now_ms) for side in SIDES}
    if all(v is None for v in left.values()):
        return Ruling(law, "no clock reading is recorded: the flag fall is the arbiter's observation (6.8)", {})
    out = [side for side, ms in left.items() if ms is not None and ms <= 0]
    evidence: dict = {"left_ms": left}
    loser = _loser(result)
    if loser is not None:
        if loser not in out:
            raise Refused("result", f"{loser}'s clock shows {_clock(left[loser] or 0)} left: no flag of {loser} "
                                    "has fallen", law)
        if g.variant == Variant.CHESS:
            verdict = _replayed(g).can_checkmate(other(loser), SEARCH_NODES)
            evidence["verdict"] = verdict.to_json()
            if verdict.unwinnable:
                raise Refused("result", f"{other(loser)} cannot checkmate by any possible series of legal moves "
                                        f"({verdict.reason}): the game is drawn", "FIDE Laws 6.9")
        return Ruling(law, f"{loser}'s flag has fallen", evidence)
    if result != "1/2-1/2":
        return Ruling(law, "a special score on time: the arbiter's", evidence)
    if len(out) == 2:
        return Ruling("FIDE Laws 6.8, Guidelines III.3.1", "both flags have fallen", evidence)
    if not out:
        raise Refused("result", "neither clock shows 0: no flag has fallen (a draw on time needs one)", law)
    if g.variant != Variant.CHESS:
        raise Refused("result", f"{out[0]}'s time has expired: the game is forfeited, not drawn", law)
    verdict = _replayed(g).can_checkmate(other(out[0]), SEARCH_NODES)
    evidence["verdict"] = verdict.to_json()
    if verdict.verdict == "winnable":
        raise Refused("result", f"{other(out[0])} can checkmate ({' '.join(verdict.line)}): {out[0]}'s flag loses",
                      "FIDE Laws 6.9")
    return Ruling("FIDE Laws 6.9", f"{out[0]}'s flag has fallen; {other(out[0])} cannot be shown to be able to "
                                   "checkmate: the arbiter's draw", evidence)


def _default(state, g, result: str, now_ms: int | None) -> Ruling:
    """FIDE Laws 6.7.1: "Any player who arrives at the chessboard after the default time shall lose
    the game unless the arbiter decides otherwise" (the default time from the regulations, zero
    when they set none); counted from the round's start."""
    from services.regulations.referee import round_start_ms

    defaulted = {"1-0": ["black"], "0-1": ["white"], "0-0": ["white", "black"]}.get(result, [])
    start = round_start_ms(state, g)
    config = state.config
    law = rule_for(state, "default_time", "FIDE Laws 6.7.1")
    if start is None:
        return Ruling(law, "no round start is recorded to count the default time from: the arbiter's decision", {})
    regs = config.regulations if config is not None else None
    kind = g.kind or (config.kind if config is not None else "classical")
    if g.variant != Variant.CHESS and (regs is None or kind not in regs.default_time_ms):
        return Ruling(law, "the event sets no default time for checkers: the referee's decision", {})
    default_ms = regs.default_time_for(kind) if regs is not None else 0
    deadline = start + default_ms
    arrived: dict[str, int | None] = {side: (start if side in g.excused else g.arrived[side]) for side in SIDES}
    for side in defaulted:
        came = arrived[side]
        if came is not None and came <= deadline:
            raise Refused("result", f"{side} ({g.player(side)}) was at the board at {_when(came)} (a move, a press "
                                    f"or a check-in), within the default time ({default_ms // 60_000} min, until "
                                    f"{_when(deadline)}): only a player who arrives after it loses", law)
        if came is None and now_ms is not None and now_ms <= deadline:
            raise Refused("result", f"the default time ({default_ms // 60_000} min) runs until {_when(deadline)}: "
                                    f"{side} ({g.player(side)}) may still arrive", law)
    return Ruling(law, f"{' and '.join(defaulted) or 'nobody'} not at the board by the end of the default time",
                  {"start_ms": start, "deadline_ms": deadline, "arrived": arrived})


def _on_the_board(g, result: str, termination: str) -> Ruling:
    """5.1.2 (a resignation when the opponent cannot checkmate is a draw), 5.1.1, 5.2.1."""
    game = _replayed(g)
    board = game.board
    if termination == Termination.RESIGNATION:
        winner = {"1-0": "white", "0-1": "black"}.get(result)
        if winner is None:
            return Ruling("FIDE Laws 5.1.2", "a special score: the arbiter's", {})
        verdict = game.can_checkmate(winner, SEARCH_NODES)
        if verdict.unwinnable:
            raise Refused("result", f"{winner} cannot checkmate by any possible series of legal moves "
                                    f"({verdict.reason}): the resignation draws the game", "FIDE Laws 5.1.2")
        return Ruling("FIDE Laws 5.1.2", f"{other(winner)} resigned", {"verdict": verdict.to_json()})
    if termination == Termination.CHECKMATE:
        mated = "white" if board.turn else "black"
        if not board.is_checkmate() or _loser(result) != mated:
            raise Refused("result", f"the position on the board is not a checkmate of {_loser(result) or 'anyone'}",
                          "FIDE Laws 5.1.1")
        return Ruling("FIDE Laws 5.1.1", f"{mated} is checkmated", {"fen": board.fen()})
    if not board.is_stalemate():
        raise Refused("result", "the position on the board is not a stalemate", "FIDE Laws 5.2.1")
    return Ruling("FIDE Laws 5.2.1", "stalemate on the board", {"fen": board.fen()})


# ----- move timers ----------------------------------------------------------------------------------
def judge_move_timer(state, gid: str, rule: str, side: str, now_ms: int | None = None) -> Ruling:
    """The referee starts ``rule`` ("five_minute", X.B.a; "one_minute", X.B.c) for ``side`` in a
    checkers game (see the module) at ``now_ms`` (None: the one-minute rule's hour is not checked).
    Raises ``Refused`` where the event's regulations do not provide it."""
    g = _game(state, gid)
    timer = TIMERS.get(rule)
    if timer is None:
        raise Refused("rule", "five_minute (X.B.a) or one_minute (X.B.c)", "11-Man National 2017 X.B")
    config = state.config
    if config is None:
        raise Refused("rule", f"no tournament file is registered, so no event rule provides the {timer.name} and "
                              "nothing would enforce it (venue serve --tournament FILE.toml)", "11-Man National 2017 X.B")
    provided = config.regulations.move_timers or ()
    if rule not in provided:
        quote = rule_for(state, "move_timers", MASTER_NO_TIMERS)
        raise Refused("rule", f"{config.name}'s regulations provide no {timer.name} "
                              f"(regulations.move_timers: {', '.join(provided) or 'none'})", quote)
    if g.ply == 0:
        raise Refused("game", f"{gid} has not started: the {timer.name} times each turn of a game in progress; a game "
                              "not started is ruled by X.B.e", timer.rule)
    control = control_of(g.setup, config)
    if (control is not None and control.timed) or g.clock is not None:
        raise Refused("game", f"{gid} is played on a clock: \"Either the time clocks or the ordinary five-minute rule "
                              "shall apply to timing moves\" (X.B.a); on a clock the Master division's clock rules "
                              "apply (X.B.b), which are not subject to the One-Minute Rule (X.A.i)",
                      "11-Man National 2017 X.B.a, X.B.b")
    if g.timer is not None and g.timer.rule == rule:
        raise Refused("rule", f"the {timer.name} is already on for {gid}", timer.rule)
    if rule == "one_minute":
        end = _round_end(state, g)
        if end is not None and now_ms is not None and now_ms < end - ONE_MINUTE_WARNING_MS:
            raise Refused("rule", f"the one-minute rule follows the warning 30 minutes before the end of the round "
                                  f"time, {_when(end - ONE_MINUTE_WARNING_MS)} (round end {_when(end)})", timer.rule)
    return Ruling(timer.rule, f"the {timer.name} for {side}", {"round_end_ms": _round_end(state, g)})


def _round_end(state, g) -> int | None:
    r = state.rounds.get(g.round)
    if r is not None and r.end_ms is not None:
        return r.end_ms
    try:
        return state.config.round(int(g.round)).end_ms if state.config is not None else None
    except (KeyError, ValueError):
        return None
