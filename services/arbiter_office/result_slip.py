"""A result entered by hand for any game of any round (docs/arbiter.md "Results"): the game found by
the slip's numbers (round and board), the result as a slip writes it (forfeits ``+/-`` and ``1-0F``
included), and the termination saying how the result came. Pure.

``termination`` of a result entered by hand (also the PGN ``Termination`` tag, PGN standard 9.8.1):

| how | termination | PGN |
| --- | --- | --- |
| ``slip``: the players' result slip (the game ended at the board: a resignation, an agreement) | ``result_slip`` | normal |
| ``arbiter``: the arbiter's decision (FIDE Laws 12.9, an adjudication) | ``arbiter`` | adjudication |
| ``forfeit``: not played, or lost by forfeit (Laws 6.7.1; TRF ``+``/``-``) | ``forfeit`` | rules infraction |
| ``claim``: a claim upheld (Laws 9.2, 9.3; 40-move rule) | ``claim_upheld`` | normal |
| ``board``: the board's own result, confirmed (its reported reason: ``resignation``, ``agreement`` ...) | that reason | normal (time forfeit for ``time_forfeit``) |

An undo is the result ``*``: the game is open again, and ``arbiter_decision`` keeps what it had
(``previous``, ``previous_termination``): the log is the history. A slip with the result the game
already has confirms it (``confirms``: one ``note_added``, the termination stays). The rules that
judge a result (a checkmate, a default, a draw the regulations forbid) are the caller's to apply
before (``services.regulations.rulings.judge_result``; the console's ``result_ruling``).
"""

from __future__ import annotations

from services.events import ArbiterDecision, GameEnded, NoteAdded
from services.events.vocabulary import EndedBy, GameResult, Termination
from services.arbiter_office.tournament_games import result_code
from services.rules.results import ARBITER, CLAIM_UPHELD, FORFEIT, RESULT_SLIP, TERMINATIONS

HOW = {"slip": RESULT_SLIP, "arbiter": ARBITER, "forfeit": FORFEIT, "claim": CLAIM_UPHELD, "board": None}
"""How a result entered by hand came -> its termination word (``board``: the board's reported one)."""

_SLIP = {
    "1-0": ("1-0", False), "0-1": ("0-1", False), "1/2-1/2": ("1/2-1/2", False), "½-½": ("1/2-1/2", False),
    "=": ("1/2-1/2", False), "*": ("*", False),
    "+/-": ("1-0", True), "-/+": ("0-1", True), "-/-": ("0-0", True), "+-": ("1-0", True), "-+": ("0-1", True),
    "--": ("0-0", True), "1-0f": ("1-0", True), "0-1f": ("0-1", True), "0-0f": ("0-0", True),
    "1f-0f": ("1-0", True), "0f-1f": ("0-1", True), "0f-0f": ("0-0", True),
    "1/2-0": ("1/2-0", False), "0-1/2": ("0-1/2", False), "0-0": ("0-0", False),
}
"""Results as slips and pairing programs write them -> (result, forfeit). Forfeits: TRF16's ``+``/``-``
written ``+/-``, Swiss-Manager's ``1-0F``/``1F-0F``; special scores the arbiter may award (``1/2-0``,
``0-1/2``, ``0-0`` played: ``services.rules.results``)."""


class SlipError(ValueError):
    """A result form that cannot be entered: ``str()`` says which field and why."""


def parse_result(text: str, forfeit: bool = False) -> tuple[str, bool]:
    """``(result, forfeit)`` of a slip's result text (``_SLIP``: ``1-0``, ``½-½``, ``+/-``, ``1-0F``,
    ``*`` ...), case and spaces ignored; ``forfeit`` true makes ``1-0``/``0-1``/``0-0`` forfeits.
    Raises SlipError, naming the spellings, for anything else (``1:0`` too: docs/arbiter.md names no
    colon), or a forfeit written as a draw."""
    key = "".join(str(text or "").split()).lower()
    if key not in _SLIP:
        raise SlipError(f"result: {text!r} is not a result (write 1-0, 0-1, 1/2-1/2, a forfeit +/-, -/+, -/- "
                        "or 1-0F, or * to undo)")
    result, lost = _SLIP[key]
    if forfeit and not lost:
        if result not in ("1-0", "0-1", "0-0"):
            raise SlipError("result: a forfeit is written 1-0, 0-1 or 0-0 (+/-, -/+, -/-)")
        lost = True
    return result, lost


def find_game(state, round_no: int | str, board: int | str, part: str | int | None = None):
    """The game of round ``round_no`` on hall board ``board`` (the slip's numbers): ``part`` None
    for the board's game (a drawn game's, not its Armageddon), "armageddon" for the Armageddon game
    that followed it, 1 or 2 for a checkers match's game. Raises SlipError naming what the round
    and board hold."""
    r = state.rounds.get(str(round_no))
    if r is None:
        raise SlipError(f"round: no round {round_no} has started")
    games = [state.games[g] for g in r.games if g in state.games and state.games[g].board == str(board)]
    if not games:
        raise SlipError(f"board: round {round_no} has no game on board {board} "
                        f"(its boards: {', '.join(sorted({state.games[g].board for g in r.games}, key=_order))})")
    if part in (None, ""):
        main = [g for g in games if g.kind != "armageddon" and not (g.setup.match and g.setup.match.follows)]
        if len(main) == 1 and main[0].setup.match is None:
            return main[0]
        raise SlipError(f"game: board {board} of round {round_no} has a match ({', '.join(g.id for g in games)}): "
                        "say which game (1 or 2)")
    if str(part).lower() in ("a", "armageddon"):
        found = [g for g in games if g.kind == "armageddon"]
        if not found:
            raise SlipError(f"game: board {board} of round {round_no} has no Armageddon game")
        return found[-1]
    found = [g for g in games if g.setup.match is not None and str(g.setup.match.game_no) == str(part)]
    if not found:
        raise SlipError(f"game: board {board} of round {round_no} has no game {part}")
    return found[0]


def _order(label: str) -> tuple:
    return (0, int(label), "") if label.isdigit() else (1, 0, label)


def termination_of(how: str | None, forfeit: bool, reason: str | None = None) -> str:
    """The termination word for a result entered by hand (module docstring): ``how`` (default
    "forfeit" for a forfeit, else "arbiter"); ``reason``: the board's reported termination for
    ``how`` "board". Raises SlipError for an unknown ``how`` or a ``reason`` the rules do not know."""
    how = how or ("forfeit" if forfeit else "arbiter")
    if forfeit and how == "slip":
        how = "forfeit"  # a forfeit written on the slip (+/-, 1-0F): no game was played, its end is the forfeit
    if how not in HOW:
        raise SlipError(f"how: one of {', '.join(HOW)}, not {how!r}")
    if forfeit and how not in ("forfeit", "arbiter"):
        raise SlipError(f"how: a forfeit is the arbiter's or a forfeit, not {how!r}")
    if how == "board":
        if reason not in TERMINATIONS or reason in (RESULT_SLIP, CLAIM_UPHELD, ARBITER):
            raise SlipError(f"termination: the board's reported result needs its reason, one of "
                            f"{', '.join(TERMINATIONS)}, not {reason!r}")
        return reason
    return HOW[how] or ARBITER


def confirms(g, result: str, forfeit: bool = False, how: str | None = None, reason: str | None = None) -> bool:
    """Whether a slip's ``result`` (``forfeit``: a :func:`parse_result` pair) for game ``g`` (a
    ``GameState``) is the result the game already has: ended with that result and forfeit, and no
    other way it ended named (``how`` "board" with a ``reason`` other than its termination is a
    correction of how it ended). Such a slip confirms the result (FIDE Laws 8.7: the players sign
    the result the game had): nothing changes, the board's termination stands."""
    named = reason if how == "board" else None
    return (bool(g.ended) and result != "*" and (g.result, bool(g.forfeit)) == (result, forfeit)
            and named in (None, g.termination))


def confirmation(g, *, by: str, note: str | None = None, alert: int | None = None) -> NoteAdded:
    """The record of a slip that confirms game ``g``'s result (:func:`confirms`): one
    ``note_added`` saying so; no ``arbiter_decision`` nor ``game_ended`` (the result, its
    termination and the standings stay as they are)."""
    how = f"{g.termination}, forfeit" if g.forfeit else g.termination
    return NoteAdded(game=g.id, board=g.board, by=by, note=note, alert=alert,
                     text=f"result slip for game {g.id}: {g.result}, as recorded ({how}): confirmed, nothing changed")


def result_entries(g, result: str, *, forfeit: bool = False, how: str | None = None, reason: str | None = None,
                   by: str, note: str | None = None, alert: int | None = None, ruling: dict | None = None) -> list:
    """The entries for ``result`` (a :func:`parse_result` result) of game ``g`` (a ``GameState``):
    ``arbiter_decision`` with what it replaces (``previous``, ``previous_termination``) and
    ``ruling`` (how the rules judged it: ``rulings.judge_result``, which the caller runs), then
    ``game_ended`` (none for ``*``: the game is open again, an undo); a slip that :func:`confirms`
    the result the game has is its :func:`confirmation` alone. SlipError when ``*`` is asked for an
    open game (nothing to undo)."""
    if result == "*":
        if not g.ended:
            raise SlipError(f"result: game {g.id} has no result to undo")
        termination = None
    elif confirms(g, result, forfeit, how, reason):
        return [confirmation(g, by=by, note=note, alert=alert)]
    else:
        termination = termination_of(how, forfeit, reason)
    ids = {"game": g.id, "board": g.board, "by": by, "note": note}
    out: list = [ArbiterDecision(**ids, alert=alert, result=result, forfeit=forfeit, termination=termination,
                                 previous=g.result if g.ended else None,
                                 previous_termination=g.termination if g.ended else None, ruling=ruling)]
    if result != "*":
        out.append(GameEnded(game=g.id, board=g.board, result=GameResult(result),
                             termination=None if termination is None else Termination(termination), forfeit=forfeit,
                             ply=g.ply, by=EndedBy.ARBITER, arbiter=by))
    return out


def correction_notice(state, g, result: str | None = None, forfeit: bool = False) -> str | None:
    """What ``result`` (``forfeit``: by forfeit) of game ``g`` entered now means for the next round,
    in words (None: nothing): the next round's draft was paired from the old result (pair it again:
    ``pair_round``), or from this very result, which a correction had changed
    (``PairingDraft.paired_from``: it reads it again), or the next round has started (its pairing
    stands; the standings move)."""
    try:
        rnd = int(g.round)
    except ValueError:
        return None
    following = str(rnd + 1)
    if following in state.rounds:
        return (f"round {following} has started: its pairing stands as made from the old result; the standings "
                "take the new one")
    draft = state.tournament.drafts.get(rnd + 1)
    if draft is not None:
        state_word = "published" if draft.is_published else "drafted"
        if result is not None and g.id in draft.paired_from and result_code(result, forfeit) == draft.paired_from[g.id]:
            return (f"round {following} is {state_word} (version {draft.version}) from this very result: its "
                    "pairing reads it again")
        return (f"round {following} is {state_word} (version {draft.version}) from the old result: pair it again "
                f"(pair_round) so its pairing reads the new one")
    return None
