"""Folding the penalties the Laws give (``penalty_proposed``): each offence is counted per player
and game (FIDE Laws 7.5.5: "for the second completed illegal move by the same player ..."; 9.5.3),
and a press that completed no ply is taken out of the per-ply clock record, so the side's next
press belongs to its next move (``services.state.plies`` matches presses to plies by counting): a
press without a move (7.5.3) at once; the press that completed an illegal move (7.5.1) once the same
side presses again for the replacement move (``doubt_at_resume``, ``settle_doubt``). An illegal move
that stands instead (A.5.2) keeps its press: it is a ply of the record.

Why not at once when the replacement is played: the board and the clock are two devices, each with
its own ``seq``, so a press can reach the gateway before the board's message of the move it
completed. An illegal move, a press, then the replacement move is what the gateway sees both when
the press completed the illegal move (FIDE Laws 7.5.1: the player then presses again for the
replacement) and when the player replaced the move before pressing but the board's message came
late. Taking the press out at the replacement put every later press of that side one move off in
the second case (each ply's clock the next move's). So the press is kept as the replacement's until
the record says which it was: a second press by the same side before the opponent's next ply or
press takes it out (it completed the illegal move); the opponent's ply or press first keeps it (it
completed the replacement). Both are read from the log alone (the fold).

The penalty proposed at that press (``gateway.irregular.pressed``: the gateway cannot tell the two
apart then, and a press in the ordinary order must be proposed at once) stays proposed in the
second case: whether the illegal move was completed is the arbiter's to establish (FIDE Laws 7.5.1;
7.5.2, a promotion pressed with the pawn still on the last rank, looks the same once the arbiter has
put the queen down). ``settle_doubt`` notes it (``GameState.unfounded``), the regulations answer with
``penalty_in_doubt`` (``services.regulations.referee.due``: level-triggered, so a restarted gateway
owes it too), which marks the proposal (``Proposal.doubt``) and leaves the offence counted until the
arbiter applies the penalty or withdraws it (``withdraw_penalty``: ``penalty_withdrawn``).

Every proposal is kept (``GameState.proposals``): ``penalty_withdrawn`` takes the one it names out of
the offence count once (an entry stored twice changes nothing), an applied penalty
(``clock_adjusted`` with ``penalty``) marks the open proposal it applies."""

from __future__ import annotations

from services.events import PenaltyInDoubt, PenaltyProposed, PenaltyWithdrawn
from services.state.changes import Changes
from services.state.fold_games import PENALTY, awaits
from services.state.fold import HallState, folds
from services.state.model import Proposal
from services.state.plies import ply_of_press



@folds(PenaltyProposed)
def _penalty(state: HallState, ev: PenaltyProposed, at: int, ch: Changes) -> None:
    g = state.games[ev.game]
    counts = g.offences.setdefault(ev.side, {})
    counts[ev.offence] = counts.get(ev.offence, 0) + 1
    g.proposals.append(Proposal(side=ev.side, offence=ev.offence, how=ev.how, offence_no=ev.offence_no, to=ev.to,
                                add_ms=ev.add_ms, game_lost=ev.game_lost, result=ev.result, presses=ev.presses,
                                move=ev.move, law=ev.law))
    if ev.game_lost and not g.ended:
        awaits(g, PENALTY, True)  # 7.5.5: the arbiter declares the game lost; the board waits
    k = ev.presses
    if k is None:
        return
    g.reported.add(("press_without_move", ev.side, k))  # never proposed twice for one press
    board = state.boards.get(g.board)
    if ev.how == "illegal_move" and board is not None and board.game == g.id and board.held \
            and board.held_by == ev.side:
        board.held_press = k  # taken back with the replacement move, kept if the move stands
    elif ev.how == "press_without_move":
        void_press(g, ev.side, k, ch)


@folds(PenaltyWithdrawn)
def _withdrawn(state: HallState, ev: PenaltyWithdrawn, at: int, ch: Changes) -> None:
    g = state.games[ev.game]
    awaits(g, PENALTY, False)
    proposal = proposal_of(g, ev.side, ev.offence, ev.presses)
    if proposal is None:
        return  # nothing of that side's left to withdraw (an entry stored twice): the count was taken back once
    proposal.status = "withdrawn"
    if g.unfounded is not None and g.unfounded[:2] == (ev.side, ev.presses):
        g.unfounded = None  # an older log's withdrawal of a press in doubt settles it too
    counts = g.offences.setdefault(ev.side, {})
    left = counts.get(ev.offence, 0) - 1
    if left > 0:
        counts[ev.offence] = left
    else:
        counts.pop(ev.offence, None)  # as if never proposed: the state a log without it folds to


@folds(PenaltyInDoubt)
def _in_doubt(state: HallState, ev: PenaltyInDoubt, at: int, ch: Changes) -> None:
    g = state.games[ev.game]
    if g.unfounded is not None and g.unfounded[:2] == (ev.side, ev.presses):
        g.unfounded = None  # said: the arbiter decides from here
    proposal = proposal_of(g, ev.side, "illegal_move", ev.presses)
    if proposal is not None:
        proposal.doubt = True


def proposal_of(g, side: str, offence: str, presses: int | None) -> Proposal | None:
    """``side``'s latest proposal for ``offence`` in game ``g`` that is not withdrawn, made at its
    ``presses``-th press (any, for None), or None."""
    for p in reversed(g.proposals):
        if p.side == side and p.offence == offence and p.status != "withdrawn" \
                and (presses is None or p.presses == presses):
            return p
    return None


def penalty_applied(g, to: str | None, add_ms: int | None) -> None:
    """An applied penalty (``clock_adjusted`` with ``penalty``): ``to`` got ``add_ms``; the latest
    open proposal that gives exactly that is applied."""
    for p in reversed(g.proposals):
        if p.status == "open" and p.to == to and p.add_ms == add_ms:
            p.status = "applied"
            return


def void_press(g, side: str, k: int, ch: Changes) -> None:
    """``side``'s ``k``-th press completed no ply: out of the per-ply record, and noted in
    ``ch.voided`` for the clock model's count (unless a ply on the board owns it by now)."""
    if not 1 <= k <= len(g.presses[side]) or ply_of_press(g, side, k) <= g.ply:
        return
    del g.presses[side][k - 1]
    ch.voided.append((g.id, side))


def doubt_at_resume(state: HallState, g, mover: str) -> None:
    """The hold of ``mover``'s illegal move, that a press completed (7.5.1, 7.5.5; ``held_press``),
    is lifted (its replacement move is played, or the position is back on the board): that press is
    kept in doubt (``GameState.doubtful_press``, module notes) until ``settle_doubt`` says whose it
    was. Called by the ``move_played`` and ``placement_seen`` folds before the hold is lifted."""
    board = state.boards.get(g.board)
    if board is not None and board.game == g.id and board.held and board.held_by == mover \
            and board.held_press is not None:
        g.doubtful_press = (mover, board.held_press, board.held_move)


def settle_doubt(g, side: str, pressed: bool, ch: Changes) -> None:
    """``side`` pressed (``pressed``) or played a ply in game ``g``, before the fold counts it: the
    press in doubt (``doubt_at_resume``) completed the illegal move when it is ``side``'s own and
    ``side`` presses again (its latest press: taken out of the per-ply record and, noted in
    ``ch.voided``, the clock model's count, so this press takes its place); it may have completed the replacement move when the
    opponent moves or presses first (kept, and the penalty proposed at it owed a
    ``penalty_in_doubt``: ``unfounded``)."""
    doubt = g.doubtful_press
    if doubt is None or (doubt[0] == side and not pressed):
        return
    g.doubtful_press = None  # the opponent went on (the press may be the replacement's), or settled below
    if doubt[0] != side:
        if proposal_of(g, doubt[0], "illegal_move", doubt[1]) is not None:
            g.unfounded = doubt  # owed a ``penalty_in_doubt``: the arbiter decides
        return
    k = doubt[1]
    if k != len(g.presses[side]):
        return  # no longer the side's latest press: nothing to take back safely
    del g.presses[side][k - 1]
    ch.voided.append((g.id, side))
