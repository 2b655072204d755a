"""The second game of a checkers Master division match (11-Man National 2017 X.A.b), due once the
first has ended: ready with the carried clock, or forfeited after a flag in the first. Pure
proposals over the hall's state (``services.state``); the match set-up and the carried times are in
``checkers_match``."""

from __future__ import annotations

from services.events import EndedBy, Event, GameEnded, GameResult, MatchForfeit, MatchGameReady, Side, Termination
from services.regulations.checkers_match import RULE_CARRY, RULE_FLAG, carried_times
from services.regulations.checkers_rounds import flag_forfeits
from services.regulations.quotes import rule_for
from services.rules.results import TIME_FORFEIT, score


def _loser(result: str) -> str | None:
    try:
        winner = score(result).winner
    except (KeyError, ValueError):
        return None
    return ("black" if winner == "white" else "white") if winner in ("white", "black") else None


def next_game(state, g):
    """The match game that follows ``g`` (its ``match.follows``), or None."""
    for gid in state.rounds[g.round].games if g.round in state.rounds else ():
        other = state.games.get(gid)
        if other is not None and other.setup.match is not None and other.setup.match.follows == g.id:
            return other
    return None


def match_answers(state, g) -> list[Event]:
    """For an ended match game ``g``: what its next game needs, once (``prepared``): after a flag
    fall by a player (not a forfeit the regulations gave), that player forfeits the next game too
    (X.A.b "as well as the next game if not started": ``match_forfeit`` + ``game_ended``); otherwise
    ``match_game_ready`` with the clock times carried over (game 2's White has game 1's Black's time)."""
    if not g.ended or g.setup.match is None:
        return []
    nxt = next_game(state, g)
    if nxt is None or nxt.prepared or nxt.ended or nxt.started_at is not None:
        return []
    base = {"game": nxt.id, "board": nxt.board, "match": nxt.setup.match.id if nxt.setup.match else None}
    by_flag = g.termination == TIME_FORFEIT and g.ended_by != "regulations"
    flag_side = g.flagged or (_loser(g.result) if by_flag else None)
    if by_flag and flag_side in ("white", "black") and 1 in flag_forfeits(0, next_started=False):
        side: Side = "black" if flag_side == "white" else "white"  # the other colour in game 2
        result = GameResult.BLACK_WINS if side == "white" else GameResult.WHITE_WINS
        rule = rule_for(state, "match_flag", RULE_FLAG)
        return [MatchForfeit(**base, flagged_in=g.id, side=side, player=nxt.player(side), games=[g.id, nxt.id],
                             result=result, rule=rule),
                GameEnded(game=nxt.id, board=nxt.board, result=result, termination=Termination.FORFEIT, forfeit=True,
                          ply=0, by=EndedBy.REGULATIONS, rule=rule)]
    reading = g.clock.as_json() if g.clock else None
    clock = carried_times(reading, g.ended_at or 0, state.clock_rate)
    return [MatchGameReady(**base, follows=g.id, game_no=2, white=nxt.white, black=nxt.black,
                           ballot=nxt.setup.ballot, white_ms=clock["white_ms"] if clock else None,
                           black_ms=clock["black_ms"] if clock else None, running=None,
                           rule=rule_for(state, "match_carry", RULE_CARRY))]
