"""The event's regulations applied live (only the match rules a ``round_started`` itself asks for
when no tournament is registered): pure functions that read the hall's state
(``services.state.HallState``) and propose the entries the regulations call for. They never change
the state: the gateway appends what they propose and folds it, so a restarted gateway, which folds
the same log, knows what was already said and says nothing twice.

Most answers are *due* from the state alone (level-triggered, ``due``): a drawn classical game with
no Armageddon game after it (Norway), a match's first game ended with the second not prepared
(checkers X.A.b), a player absent past the default time (FIDE Laws 6.7.1), a move timer run out. A
gateway that stopped between an entry and its answer therefore still gives the answer after a
restart. What only an entry can show is answered with it (``answers``): the clock model's findings
on a press, a claim the arbiter found incorrect (the penalty of FIDE Laws 9.5.3 proposed, with or
without a tournament file: it is the Laws'). Presence is only what shows the player: a move, a
press by that side, a check-in (never a clock start: 6.6).

Entries proposed (data always carries ``game``, ``board`` and ``rule``: the regulation quoted from
the tournament file, ``services.regulations.model.Regulations.rules``, else the FIDE Laws article):
``draw_offer_refused``, ``draw_claim_reported`` (``review_result``), ``default_forfeit`` +
``game_ended``, ``player_not_at_board``, ``armageddon_scheduled``,
``armageddon_decided``, ``match_game_ready``, ``match_forfeit`` + ``game_ended``,
``clock_disagreement``, ``late_start_draw`` + ``game_ended``, ``move_timer_warning``,
``move_timer_forfeit`` + ``game_ended``, ``time_trouble_impending``, ``penalty_proposed`` (an
incorrect claim, 9.5.3), ``penalty_in_doubt`` (a proposal made at a press the record can also read
as the replacement move's, FIDE Laws 7.5.1: the arbiter decides).
"""

from __future__ import annotations

from services.events import (ArmageddonDecided, ArmageddonScheduled, ClockDisagreement, DrawClaimDecided,
                             EndedBy, Event, GameEnded, GameKind, GameResult, Side, Termination, Variant)
from services.regulations import lateness
from services.regulations.checkers_rounds import late_start_due_at
from services.regulations.clock_watch import ClockWatch
from services.regulations.clock_watches import ClockWatches, Finding
from services.regulations.clock_rules import time_trouble, time_trouble_next, timer_answers, timer_next
from services.regulations.match_rules import match_answers
from services.regulations.quotes import rule_for
from services.state import Changes, GameState, HallState

DRAW = GameResult.DRAW


def answers(state: HallState, event: Event, changes: Changes, now_ms: int, watches: ClockWatches,
            findings: list[Finding]) -> list[Event]:
    """What the regulations say once ``event`` has been folded into ``state`` at ``now_ms`` (and
    followed by the clock models ``watches``, which found ``findings`` in it): the clock model's
    findings, a claim found incorrect, and what became due for the games the entry touched. A clock started is no evidence that anyone is at the board (FIDE Laws 6.6: "At the
    time determined for the start of the game White's clock is started", whoever is present)."""
    out: list[Event] = []
    regulated = state.config is not None
    for gid, finding in findings if regulated else ():
        g = state.games.get(gid)
        if g is not None:
            out.append(disagreement(state, g, finding))
    if isinstance(event, DrawClaimDecided) and not event.accepted:
        out.extend(_incorrect_claim(state, event))
    for gid in list(changes.games):
        g = state.games.get(gid)
        if g is not None:
            out.extend(due(state, g, now_ms, watches))
    return out


def _incorrect_claim(state: HallState, event: DrawClaimDecided) -> list[Event]:
    """FIDE Laws 9.5.3: "If the claim is found to be incorrect, the arbiter shall add two minutes to
    the opponent's remaining thinking time" (one minute in rapid and blitz under B.3, A.3): the
    penalty is proposed for the claimant (the decision's ``side``, else the player having the move,
    who alone may claim: 9.2, 9.3). Chess only."""
    from services.regulations.irregularities import CLAIM, propose

    g = state.games.get(event.game or "")
    if g is None or g.ended or g.variant != Variant.CHESS:
        return []
    return [propose(state, g, event.side or g.turn, CLAIM)]


def tick(state: HallState, now_ms: int, watches: ClockWatches, games=None) -> list[Event]:
    """Everything due at ``now_ms`` for every game of the current round (and games still open in
    earlier rounds), with the clock models ``watches``; ``games``: only these (a gateway shard's
    boards' games)."""
    out: list[Event] = []
    for g in state.games.values() if games is None else games:
        out.extend(due(state, g, now_ms, watches))
    return out


def due(state: HallState, g: GameState, now_ms: int, watches: ClockWatches) -> list[Event]:
    """The entries the regulations owe for game ``g`` at ``now_ms`` (see the module docstring; its
    clock model in ``watches``); first
    a penalty proposed at a press the record can also read as the replacement move's, marked in
    doubt for the arbiter (the Laws', with or without a tournament file: ``irregularities.in_doubt``)."""
    out = _owed(state, g, now_ms, watches.get(g.id))
    if g.unfounded is not None:
        from services.regulations.irregularities import in_doubt

        out.insert(0, in_doubt(state, g))
    return out


def _owed(state: HallState, g: GameState, now_ms: int, watch: ClockWatch | None) -> list[Event]:
    """What the regulations owe for ``g`` (clock model ``watch``) at ``now_ms`` (``due``, the
    withdrawal aside)."""
    out = _after_end(state, g)
    if out or g.ended or state.config is None:
        return out  # without a tournament file the Laws alone apply (and a checkers match's rules)
    out += _late_start(state, g, now_ms)
    if out:
        return out
    if watch is not None:
        out += [disagreement(state, g, f) for f in watch.tick(now_ms, g.reported) if not _penalised(g, f)]
    out += timer_answers(state, g, now_ms)
    if any(isinstance(e, GameEnded) for e in out):
        return out
    out += time_trouble(state, g, now_ms, watch)
    out += _lateness(state, g, now_ms)
    return out


def next_due(state: HallState, g: GameState, now_ms: int, watch: ClockWatch | None) -> int | None:
    """The earliest instant (ms) at which time alone, with no new entry, can make ``due`` return
    something for ``g`` (clock model ``watch``; ``now_ms`` or earlier: due now); None when only an entry can. The earliest
    of each rule's own instant, each exact or earlier than the truth (never later: a late instant
    would miss a default or a flag): the late start (X.B.e), a count mismatch's grace running out
    (``ClockWatch.next_due``), the move timer, time trouble (X.A.d, a running clock), the fines and
    the default time (FIDE Laws 6.7.1). A game over answers from the state alone (its Armageddon
    game, a match's next game): None; so does every game without a tournament file."""
    if g.unfounded is not None:
        return now_ms  # a proposal to mark in doubt (``due``)
    if g.ended or state.config is None:
        return None
    return earliest(_late_start_next(state, g),
                    watch.next_due(g.reported) if watch is not None else None,
                    timer_next(g), time_trouble_next(g, now_ms, watch), _lateness_next(state, g))


def earliest(*instants: int | None) -> int | None:
    """The earliest of ``instants`` (ms) that are not None; None when all are."""
    first = None
    for at in instants:  # a loop, not min() over a generator: asked for every game the timer looks at
        if at is not None and (first is None or at < first):
            first = at
    return first


def _penalised(g: GameState, finding: dict) -> bool:
    """A chess press without a move is an illegal move (FIDE Laws 7.5.3): the gateway proposes its
    penalty (``penalty_proposed``, ``gateway.irregular``) instead of a clock disagreement."""
    return g.variant == Variant.CHESS and finding.get("kind") == "press_without_move"


def disagreement(state: HallState, g: GameState, finding: dict) -> ClockDisagreement:
    """A ``clock_disagreement`` for one finding of the clock model (``ClockWatch``)."""
    if g.variant == Variant.CHECKERS:
        rule = rule_for(state, "clock", "the clock shows the time; a move is complete when the player stops "
                                        "his/her own clock (11-Man National 2017 X.A.d); the referee checks it")
    else:
        rule = rule_for(state, "clock", "the device clock is authoritative; the arbiter checks it (FIDE Laws 6.10)")
    fields = {k: v for k, v in finding.items() if k in ClockDisagreement.__struct_fields__}
    return ClockDisagreement(game=g.id, board=g.board, rule=rule, **fields)


def _after_end(state: HallState, g: GameState) -> list[Event]:
    """A game that ended: its Armageddon game (Norway), the Armageddon draw scored, the next game
    of a checkers match."""
    if not g.ended:
        return []
    t = state.config
    regs = t.regulations if t is not None else None
    if g.kind == GameKind.ARMAGEDDON and g.result == DRAW and g.scored is None:
        norway = regs is not None and regs.armageddon_after_draw
        return [ArmageddonDecided(game=g.id, board=g.board, winner="black", result="0-1", rule=rule_for(
            state, "armageddon_draw",
            "If the Armageddon game is drawn, black will win" if norway else "Armageddon: Black has draw odds"))]
    if (regs is not None and regs.armageddon_after_draw and g.kind == GameKind.CLASSICAL and g.result == DRAW
            and not g.follow_up and g.termination != Termination.FORFEIT):
        return [_armageddon(state, g)]
    return match_answers(state, g)


def _armageddon(state: HallState, g: GameState) -> ArmageddonScheduled:
    t = state.config
    control = t.time_controls.get("armageddon") if t is not None else None
    s = g.setup
    return ArmageddonScheduled(
        id=f"{g.id}-A", board=g.board, round=g.round, white=g.white, black=g.black,
        white_elo=s.white_elo, black_elo=s.black_elo, white_no=s.white_no,
        black_no=s.black_no, variant=g.variant, time_control=control, fen=None, kind=GameKind.ARMAGEDDON,
        follows=g.id, rule=rule_for(state, "armageddon", "a drawn game is followed by an Armageddon game with the "
                                                         "same colours (tournament file: armageddon.after_draw)"))


def _late_start_end(state: HallState, g: GameState) -> int | None:
    """The scheduled end (ms) of ``g``'s round when X.B.e is still to be ruled for ``g`` (a
    checkers game, not an Armageddon game nor one followed by one): the ``round_started`` entry's
    ``end_ms``, else the registered file's; None otherwise."""
    if g.late_start_ruled or g.first_side != "black" or g.kind == GameKind.ARMAGEDDON or g.follow_up:
        return None
    r = state.rounds.get(g.round)
    end = r.end_ms if r is not None else None
    if end is None:
        t = state.config
        try:
            end = t.round(int(g.round)).end_ms if t is not None else None
        except (KeyError, ValueError):
            return None
    return end


def _late_start_next(state: HallState, g: GameState) -> int | None:
    end = _late_start_end(state, g)
    return None if end is None else late_start_due_at(end, g.started_at)


def _late_start(state: HallState, g: GameState, now_ms: int) -> list[Event]:
    """11-Man National 2017 X.B.e for a checkers game in a round with a scheduled end (the
    ``round_started`` entry's ``end_ms``, else the registered file's)."""
    from services.events import LateStartDraw
    from services.regulations.checkers_rounds import (
        LATEST_START_BEFORE_END_MS,
        late_start_draw,
    )

    end = _late_start_end(state, g)
    if end is None or not late_start_draw(end, g.started_at, now_ms):
        return []
    rule = rule_for(state, "late_start", "No game shall be started later than 30 minutes before a round time is "
                                         "scheduled to end. Any game, not started in accordance with this rule, "
                                         "shall be declared drawn.")
    return [LateStartDraw(game=g.id, board=g.board, round=g.round, round_end_ms=end,
                          latest_start_ms=end - LATEST_START_BEFORE_END_MS, started_at=g.started_at, rule=rule),
            GameEnded(game=g.id, board=g.board, result=DRAW, termination=Termination.LATE_START, ply=g.ply,
                      by=EndedBy.REGULATIONS, rule=rule)]


def round_start_ms(state: HallState, g: GameState) -> int | None:
    """When ``g``'s round started (ms): the ``round_started`` entry's ``start_ms`` (the schedule,
    or the organiser's ``--round-start``), else the tournament file's schedule."""
    r = state.rounds.get(g.round)
    if r is not None and r.start_ms is not None:
        return r.start_ms
    t = state.config
    try:
        return t.round(int(g.round)).start_ms if t is not None else None
    except (KeyError, ValueError):
        return None


def _lateness(state: HallState, g: GameState, now_ms: int) -> list[Event]:
    """FIDE Laws 6.7.1 (default time) and, where the event fines it, not being at the board at the
    start (US 2023 rule 1). Only the absent player is defaulted: a player is present from a move, a
    press, or the arbiter's check-in (older logs: a ``presence_noted``); never from a clock start
    (6.6: White's clock is started at the scheduled time whoever is present); after
    the arbiter overruled a default, the players then at the board are excused (6.7.1 "unless the
    arbiter decides otherwise") and a player still absent is defaulted again.

    A default time of zero (the Laws' own when the regulations specify none) is not declared here:
    no device shows who sat at the board at the instant of the start (a first move or press comes
    after it), so a default declared from evidence would take the game from players who were there;
    the arbiter is told who is not seen at the board (``player_not_at_board`` without a fine) and
    declares the default (a forfeit result, judged against the default time: rulings.py)."""
    from services.events import DefaultForfeit

    terms = _lateness_terms(state, g)
    if terms is None:
        return []
    start, fine, default_ms, arrived = terms
    out: list[Event] = []
    if fine is not None or default_ms == 0:
        sides: tuple[Side, Side] = ("white", "black")
        for side in sides:
            if side not in g.fine_alerted and lateness.not_at_board_at_start(start, g.arrived[side], now_ms):
                out.append(_not_at_board(state, g, side, fine))
    if not default_ms:
        return out
    verdict = lateness.default_verdict(start, default_ms, now_ms, arrived["white"], arrived["black"])
    if verdict is None:
        return out
    how = f"FIDE Laws 6.7.1; default time {default_ms / 60000:g} min from the start of the round"
    rule = rule_for(state, "default_time", how, detail=how)
    present = [s for s, came in arrived.items() if came is not None and came <= verdict.deadline_ms]
    out.append(DefaultForfeit(game=g.id, board=g.board, side=verdict.side, result=verdict.result, forfeit=True,
                              deadline_ms=verdict.deadline_ms, scheduled_start_ms=start, start_ms=start,
                              present=present, rule=rule))
    out.append(GameEnded(game=g.id, board=g.board, result=GameResult(verdict.result), termination=Termination.FORFEIT,
                         forfeit=True, ply=g.ply, by=EndedBy.REGULATIONS, rule=rule))
    return out


def _not_at_board(state: HallState, g: GameState, side: Side, fine) -> Event:
    """``player_not_at_board`` for ``side``: the event's fine (US 2023 rule 1), or, with a default
    time of zero, the arbiter told who is not (yet) seen at the board (FIDE Laws 6.7.1)."""
    from services.events import PlayerNotAtBoard

    if fine is not None:
        rule = rule_for(state, "fines", f"a fine of {fine.amount} {fine.currency} for not being at the board at the start")
        return PlayerNotAtBoard(game=g.id, board=g.board, side=side, player=g.player(side), fine=fine.amount,
                                currency=fine.currency, rule=rule)
    how = ("FIDE Laws 6.7.1; default time zero: a player not at the board at the start loses, as the arbiter "
           "declares")
    return PlayerNotAtBoard(game=g.id, board=g.board, side=side, player=g.player(side),
                            rule=rule_for(state, "default_time", how, detail=how))


def _lateness_terms(state: HallState, g: GameState):
    """What ``_lateness`` reads for ``g``: ``(start, fine, default_ms, arrived)``: the round's start
    (ms), the event's fine for not being at the board (or None), the default time (ms; None where
    FIDE Laws 6.7 does not apply: a checkers event that sets none) and each side's arrival as the
    default counts it (an excused side from the start); None when neither applies to ``g`` (no file,
    defaulted, an Armageddon game or one followed by one, a game after another on its board in its
    round: a play-off match's second game, which starts when the first ends, not at the round's start)."""
    t = state.config
    if t is None or g.defaulted or g.kind == GameKind.ARMAGEDDON or g.follow_up or _after_another(state, g):
        return None
    start = round_start_ms(state, g)
    if start is None:
        return None
    regs = t.regulations
    kind = g.kind or t.kind
    # FIDE Laws 6.7 is chess's; a checkers event sets its own (or none)
    default_ms = None if t.game != Variant.CHESS and kind not in regs.default_time_ms else regs.default_time_for(kind)
    arrived = {side: start if side in g.excused else g.arrived[side] for side in ("white", "black")}
    return start, regs.fine_not_at_board, default_ms, arrived


def _after_another(state: HallState, g: GameState) -> bool:
    """Whether ``g`` is played on its board after another game of its round (set up in the same
    ``round_started``: a play-off stage's later games, a checkers match's second)."""
    r = state.rounds.get(g.round)
    if r is None:
        return False
    on_board = [gid for gid in r.games if gid in state.games and state.games[gid].board == g.board]
    return bool(on_board) and on_board[0] != g.id


def _lateness_next(state: HallState, g: GameState) -> int | None:
    """The earliest instant (ms) at which ``_lateness`` can answer for ``g`` by time alone: one ms
    past the start for a side not yet fined nor arrived, one ms past the default time while a side
    (not excused) has not arrived."""
    terms = _lateness_terms(state, g)
    if terms is None:
        return None
    start, fine, default_ms, arrived = terms
    fines = [lateness.fine_due_at(start, g.arrived[side]) for side in ("white", "black")
             if (fine is not None or default_ms == 0) and side not in g.fine_alerted]
    default = lateness.default_due_at(start, default_ms, arrived["white"], arrived["black"]) \
        if default_ms else None
    return earliest(*fines, default)


def review_result(state: HallState, game: str, result: str, reason: str | None, seq: int | None = None
                  ) -> list[Event] | None:
    """A board or clock reports ``result`` for ``game``: None when the regulations let it end the
    game; else the entries that answer it instead (the game goes on): ``draw_claim_reported`` for a
    claim the arbiter must verify (FIDE Laws 9.2/9.3, under every draw ban: the reason read in words,
    ``services.rules.claim_words``), ``draw_offer_refused`` when a draw by agreement is banned (US
    2023 rule 2, US 2013 rule 2, Norway classical). Stalemate and dead positions stay draws."""
    from services.events import DrawClaimReported, DrawOfferRefused
    from services.rules.claim_words import claim_kind

    g = state.games.get(game)
    t = state.config
    if g is None or g.ended or t is None:
        return None  # without a tournament file the device's result stands (the Laws alone)
    kind = claim_kind(reason, g.variant if g.variant in tuple(Variant) else Variant.CHESS)
    words = (reason or "").strip().lower() or None
    if result == DRAW and kind is not None:
        return [DrawClaimReported(game=g.id, board=g.board, result=result, reason=words, seq=seq, kind=kind,
                                  rule="FIDE Laws 9.2/9.3: a claim is decided by the arbiter")]
    if result != DRAW or (words or "").replace(" ", "_") in ENDED_BY_RULES:
        return None
    banned = agreement_banned(state, g)
    if banned is None:
        return None
    rule, moves = banned
    return [DrawOfferRefused(game=g.id, board=g.board, result=result, reason=words, seq=seq, rule=rule, moves=moves,
                             kind=g.kind)]


def agreement_banned(state: HallState, g: GameState) -> tuple[str, dict[str, int]] | None:
    """Whether the event's draw-offer rule forbids a draw by agreement in game ``g`` now (US 2023
    rule 2 "Player may not mutually agree to a draw", US 2013 rule 2 "... in less than 30 moves",
    Norway classical; ``Regulations.draw_agreement_allowed`` for the game's kind, from the moves
    each side has completed): ``(the rule quoted with how it applies, {"white": moves, "black":
    moves})``, or None when allowed or without a tournament file (the Laws alone: 9.1 allows it).
    The one judgement of a draw by agreement: a device's reported result (``review_result``) and an
    arbiter's (``rulings.judge_result``) alike."""
    t = state.config
    if t is None:
        return None
    moves = {"white": g.moves_by("white"), "black": g.moves_by("black")}
    ok, why = t.regulations.draw_agreement_allowed(g.kind or t.kind, moves["white"], moves["black"])
    if ok:
        return None
    return rule_for(state, "draw_offers", why, detail=why), moves


ENDED_BY_RULES = {Termination.STALEMATE, Termination.INSUFFICIENT_MATERIAL, Termination.DEAD_POSITION,
                  Termination.CHECKMATE, Termination.FIVEFOLD_REPETITION, Termination.SEVENTYFIVE_MOVES}
