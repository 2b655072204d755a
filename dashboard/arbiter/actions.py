"""Arbiter actions: a request body in, the event-log entries it becomes out (pure).

Every entry carries ``by`` (the arbiter's login); the log stamps ``at``. The actions, their body
fields and entries:

| action | body | entries |
| --- | --- | --- |
| ``accept_claim`` | game, kind ("threefold"/"fifty_moves"/"forty_moves"), by_move?, side?, ply?, alert? | draw_claim_decided, game_ended ½-½ (FIDE Laws 9.2, 9.3); refused for a claim the rules core finds incorrect |
| ``reject_claim`` | game, kind, by_move?, side? (the claimant: default the side to move), ply?, alert?, note? | draw_claim_decided; the gateway answers with penalty_proposed (9.5.3); refused for a claim the rules core finds correct |
| ``set_result`` | game, result, forfeit?, termination?, note? | arbiter_decision, game_ended (unless result "*": the game goes on) |
| ``record_fine`` | player or (game, side), amount, currency?, reason | fine_recorded |
| ``check_in`` | game, side | player_arrived |
| ``adjust_clock`` | game, white_ms, black_ms | clock_adjusted |
| ``apply_penalty`` | game, side (who gets the time), add_ms (60000 or 120000), alert?, law?, reason? (from the ``penalty_proposed`` alert) | clock_adjusted: the side's time on the stopped clock + add_ms (FIDE Laws 7.5.5, 9.5.3, A.3): what the open proposal gives, else the Laws' amount for the time class |
| ``withdraw_penalty`` | game, side (the offender), presses?, alert?, reason? | penalty_withdrawn (ground "arbiter": no irregularity was completed, FIDE Laws 7.5.1; the offence no longer counted) |
| ``pause`` / ``resume`` | game | game_paused / game_resumed |
| ``note`` | text, game? | note_added |
| ``resolve_alert`` | alert, note? | alert_resolved |
| ``enter_score_sheet`` | game, side, moves (text or list) | score_sheet_entered, score_sheet_differences when any (checkers 2017 XII) |
| ``start_move_timer`` | game, rule ("five_minute"/"one_minute"), side? | move_timer_started (checkers 2017 X.B.a, X.B.c) |
| ``adjudicate`` | game, members (three), votes {member: black/white/draw} | adjudication_recorded, game_ended (checkers 2017 X.B.d) |
| ``call_time_trouble`` | game, side, alert? | time_trouble_called (checkers 2017 X.A.d: the referee called attention to impending time trouble) |
| ``correct_record`` | game, ply (the plies that stand), moves (text or list: UCI, SAN or checkers numeric), reason? | game_corrected (FIDE Laws 7.5.1: the position before the irregularity reinstated, the moves actually played entered) |
| ``choose_match_clock`` | game (a match's game 1, not started), wishes {black, white: "90"/"80+10"}, coin? ("heads"/"tails", only when they disagree) | match_clock_chosen (checkers 2017 X.A.a) |
| ``withdraw_player`` | player (start number), from_round? (default: the next round to pair) | player_withdrew (not paired from then on) |
| ``request_bye`` | player, round? (default: the next round to pair), code? ("H" default, "F", "Z") | bye_requested (Swiss, FIDE C.04.2) |
| ``cancel_bye`` | player, round? | bye_request_cancelled (before that round is paired) |
| ``enter_player`` | name, rating?, fide_id?, federation?, title?, first_round?, missed? ("Z" default, "H"), start_no? (default: the next free one) | player_entered (Swiss late entry) |
| ``forbid_pair`` | players (two or more start numbers) | pairing_forbidden (Swiss, TRF XXP) |
| ``set_acceleration`` | method ("baku" or "none"), before round 1 is paired | acceleration_set (Swiss, FIDE C.04.7) |

The last six ("Round tools", docs/arbiter.md) need the folded state (``state``: the tournament
registered, its players and rounds); the next Swiss pairing reads their entries
(``services.hall.round_from_file.round_from_view``).

Results: "1-0", "0-1", "1/2-1/2", "*" (reopen), and with ``forfeit`` true the unplayed "1-0",
"0-1", "0-0" (TRF ``+``/``-``); special scores an arbiter may award: "0-0", "1/2-0", "0-1/2".
Raises ActionError (status 400) on any bad body, naming the field.

Decisions with a rule behind them (claims, penalties, a result on time, by default, by
resignation, checkmate or stalemate, move timers) are judged by the rules core from the recorded
position and clocks (``services.regulations.rulings``, on the folded ``state``) before they become
entries: a decision the Laws or the event's regulations do not allow is refused (ActionError) with
the reason and the article; an allowed one carries the judgement as the entry's ``ruling``.
"""

from __future__ import annotations

from collections.abc import Mapping

from services.events import (AccelerationSet, AdjudicationRecorded, AlertResolved, ArbiterDecision,
                             ByeRequestCancelled, ByeRequested, ClockAdjusted, DrawClaimDecided, FineRecorded,
                             GameCorrected, GameEnded, GamePaused, GameResumed, MatchClockChosen, MoveTimerStarted,
                             NoteAdded, PairingForbidden, PlayerArrived, PlayerEntered, PlayerWithdrew,
                             ScoreSheetDifferences, ScoreSheetEntered, TimeTroubleCalled)
from services.rules.base import SIDES

RESULTS_PLAYED = {"1-0", "0-1", "1/2-1/2"}
SPECIAL_SCORES = {"0-0", "1/2-0", "0-1/2"}
CLAIM_TERMINATION = {"threefold": "threefold_repetition", "fifty_moves": "fifty_moves",
                     "forty_moves": "forty_moves"}


class ActionError(ValueError):
    """A bad action request; ``str()`` says which field and why."""


def _req(body: dict, key: str, kind=str):
    if key not in body or body[key] in (None, ""):
        raise ActionError(f"{key}: is missing")
    value = body[key]
    if kind is int and (isinstance(value, bool) or not isinstance(value, int)):
        raise ActionError(f"{key}: must be a whole number of milliseconds")
    if kind is str and not isinstance(value, str):
        raise ActionError(f"{key}: must be text")
    return value


def _side(body: dict) -> str:
    side = _req(body, "side")
    if side not in SIDES:
        raise ActionError(f"side: must be white or black, not {side!r}")
    return side


def _ruled(judge, state, *args, **kw):
    """``judge(state, ...)`` of ``services.regulations.rulings``: its ``Ruling``; ActionError with its
    reason for a decision it refuses, or when there is no recorded state to judge against."""
    from services.regulations.rulings import Refused

    if state is None:
        raise ActionError("game: the event's recorded state is needed to judge this decision (FIDE Laws 12.1)")
    try:
        return judge(state, *args, **kw)
    except Refused as refused:
        raise ActionError(str(refused)) from None


def build(action: str, body: dict, by: str, games: Mapping[str, dict], state=None,
          now_ms: int | None = None) -> list[tuple[str, dict]]:
    """The entries for one action. ``games``: id -> GAME of any round of the event (for checking
    the game exists and taking its board); ``state``: the folded ``HallState`` (the decisions with a
    rule behind them are judged on it, ``services.regulations.rulings``; the round tools' actions
    check the tournament's players and rounds in it); ``now_ms``: the instant of the request (the
    default time and the one-minute rule's hour are judged at it; None leaves those out). Raises
    ActionError."""
    from services.regulations import rulings

    if not isinstance(body, dict):
        raise ActionError("the body must be a JSON object")

    def game_of() -> dict:
        gid = _req(body, "game")
        g = games.get(gid)
        if g is None:
            raise ActionError(f"game: no game {gid!r} in this tournament")
        return g

    def base(g: dict | None) -> dict:
        d = {"by": by}
        if g is not None:
            d.update(game=g["id"], board=str(g["board"]))
        if body.get("note"):
            d["note"] = str(body["note"])[:2000]
        return d

    if action in ("accept_claim", "reject_claim"):
        g = game_of()
        kind = _req(body, "kind")
        if kind not in CLAIM_TERMINATION:
            raise ActionError(f"kind: must be one of {', '.join(CLAIM_TERMINATION)}")
        accepted = action == "accept_claim"
        claimant = body.get("side")
        if claimant is not None and claimant not in SIDES:
            raise ActionError(f"side: the claimant, white or black, not {claimant!r}")
        if accepted:
            _open(g)
        ruling = _ruled(rulings.judge_claim, state, g["id"], kind, accept=accepted, by_move=body.get("by_move") or None,
                        side=claimant, ply=body.get("ply"))
        decided = {**base(g), "kind": kind, "accepted": accepted, "by_move": body.get("by_move"), "side": claimant,
                   "alert": body.get("alert"), "rule": ruling.law, "ruling": ruling.to_json()}
        out = [(DrawClaimDecided.TYPE, decided)]
        if accepted:
            out.append((GameEnded.TYPE, {**base(g), "result": "1/2-1/2", "termination": CLAIM_TERMINATION[kind],
                                       "ply": g.get("ply", 0), "by": "arbiter", "arbiter": by}))
        return out
    if action == "set_result":
        g = game_of()
        result = _req(body, "result")
        forfeit = bool(body.get("forfeit"))
        allowed = RESULTS_PLAYED | SPECIAL_SCORES | {"*"}
        if result not in allowed:
            raise ActionError(f"result: must be one of {', '.join(sorted(allowed))}")
        if forfeit and result not in {"1-0", "0-1", "0-0"}:
            raise ActionError("result: a forfeit is written 1-0, 0-1 or 0-0")
        termination = body.get("termination") or ("forfeit" if forfeit else "arbiter")
        judged = result != "*" and (forfeit or termination in rulings.JUDGED_TERMINATIONS)
        ruling = _ruled(rulings.judge_result, state, g["id"], result, termination, forfeit, now_ms) if judged else None
        decision = {**base(g), "result": result, "forfeit": forfeit, "termination": termination,
                    "previous": g.get("result"), **({"ruling": ruling.to_json()} if ruling else {})}
        out = [(ArbiterDecision.TYPE, decision)]
        if result != "*":
            out.append((GameEnded.TYPE, {**base(g), "result": result, "termination": termination,
                                       "forfeit": forfeit, "ply": g.get("ply", 0), "by": "arbiter", "arbiter": by}))
        return out
    if action == "record_fine":
        amount = _req(body, "amount", int)
        if amount <= 0:
            raise ActionError("amount: must be positive")
        g = games.get(body.get("game")) if body.get("game") else None
        player = body.get("player")
        if not player and g is not None:
            side = _side(body)
            player = g["white"] if side == "white" else g["black"]
        if not player:
            raise ActionError("player: is missing (or give game and side)")
        return [(FineRecorded.TYPE, {**base(g), "player": str(player), "amount": amount,
                                   "currency": str(body.get("currency") or "USD"),
                                   "reason": str(body.get("reason") or "not at the board at the start")})]
    if action == "check_in":
        g = game_of()
        side = _side(body)
        return [(PlayerArrived.TYPE, {**base(g), "side": side,
                                    "player": g["white"] if side == "white" else g["black"]})]
    if action == "adjust_clock":
        g = game_of()
        w, b = _req(body, "white_ms", int), _req(body, "black_ms", int)
        if w < 0 or b < 0:
            raise ActionError("white_ms/black_ms: a clock cannot show negative time")
        return [(ClockAdjusted.TYPE, {**base(g), "white_ms": w, "black_ms": b,
                                    "previous": g.get("clock")})]
    if action == "apply_penalty":
        return _apply_penalty(game_of(), body, base, state)
    if action == "withdraw_penalty":
        return _withdraw_penalty(game_of(), body, by, state)
    if action in ("pause", "resume"):
        g = game_of()
        return [(GamePaused.TYPE if action == "pause" else GameResumed.TYPE, base(g))]
    if action == "note":
        g = games.get(body.get("game")) if body.get("game") else None
        return [(NoteAdded.TYPE, {**base(g), "text": str(_req(body, "text"))[:4000]})]
    if action == "resolve_alert":
        alert = _req(body, "alert", int)
        return [(AlertResolved.TYPE, {**base(None), "alert": alert})]
    if action == "enter_score_sheet":
        return _score_sheet(_checkers(game_of(), action), body, base)
    if action == "adjudicate":
        return _adjudicate(_checkers(game_of(), action), body, base)
    if action == "choose_match_clock":
        return _match_clock(_checkers(game_of(), action), body, base, games)
    if action == "call_time_trouble":
        return _time_trouble(_checkers(game_of(), action), body, base)
    if action == "correct_record":
        return _correction(game_of(), body, base)
    if action == "start_move_timer":
        g = _checkers(game_of(), action)
        _open(g)
        rule = _req(body, "rule")
        if rule not in ("five_minute", "one_minute"):
            raise ActionError("rule: five_minute (X.B.a) or one_minute (X.B.c)")
        side = body.get("side") or g.get("turn")
        if side not in SIDES:
            raise ActionError("side: white or black (default: the side on move)")
        ruling = _ruled(rulings.judge_move_timer, state, g["id"], rule, side, now_ms)
        return [(MoveTimerStarted.TYPE, {**base(g), "rule": rule, "side": side, "ruling": ruling.to_json()})]
    if action in ROUND_TOOLS:
        return [ROUND_TOOLS[action](body, base(None), state).encode()]
    raise ActionError(f"unknown action {action!r}")


def _score_sheet(g: dict, body: dict, base) -> list[tuple[str, dict]]:
    """Checkers 2017 XII: a player's score sheet, cross-checked against the board's record; every
    difference is flagged (``score_sheet_differences``, an alert) when there is one."""
    from services.regulations.score_sheets import (
        checkers_same,
        cross_check,
        sheet_moves,
    )

    side = _side(body)
    moves = body.get("moves")
    if isinstance(moves, str):
        moves = sheet_moves(moves)
    if not isinstance(moves, list) or not all(isinstance(m, str) for m in moves):
        raise ActionError("moves: must be the moves as written on the sheet (text, or a list)")
    if not moves:
        raise ActionError("moves: the sheet has no moves")
    full, short = list(g.get("moves") or []), list(g.get("san") or [])
    same = checkers_same(full, short) if g.get("variant") == "checkers" and len(full) == len(short) else None
    diffs = [d.to_json() for d in cross_check(full or short, {side: moves}, same)]
    out = [(ScoreSheetEntered.TYPE, {**base(g), "side": side, "moves": moves[:1000],
                                    "board_plies": len(full or short), "differences": len(diffs)})]
    if diffs:
        out.append((ScoreSheetDifferences.TYPE, {**base(g), "side": side, "differences": diffs[:200],
                                                "rule": "11-Man National 2017 XII: crosschecking for "
                                                        "recording errors"}))
    return out


def _adjudicate(g: dict, body: dict, base) -> list[tuple[str, dict]]:
    """Checkers 2017 X.B.d: the committee of three's decision, recorded, and the game ended with it
    (a win only by unanimous vote)."""
    from services.regulations.checkers_rounds import adjudicate

    _open(g)
    try:
        decision = adjudicate(list(body.get("members") or []), dict(body.get("votes") or {}))
    except (ValueError, TypeError) as exc:
        raise ActionError(f"members/votes: {exc}") from None
    # services.regulations.checkers_rounds gives PDN's order (Black's score first); the log uses
    # ours (docs/checkers.md: "1-0" = White won).
    result = {"1-0": "0-1", "0-1": "1-0"}.get(decision.result, decision.result)
    return [(AdjudicationRecorded.TYPE, {**base(g), **decision.to_json(), "result": result}),
            (GameEnded.TYPE, {**base(g), "result": result, "termination": "arbiter",
                            "ply": g.get("ply", 0), "by": "arbiter", "arbiter": base(g)["by"]})]


def _match_clock(g: dict, body: dict, base, games: Mapping[str, dict]) -> list[tuple[str, dict]]:
    """Checkers 2017 X.A.a: the match clock of a Master division match, chosen before its first
    game starts: the players' wishes, and the referee's coin flip when they disagree
    (``services.regulations.checkers_rounds.choose_match_clock``: heads = 90 minutes, tails = 80
    minutes + 10 s a move). One ``match_clock_chosen`` entry: who (``by``) and when (the log's
    ``at``), the wishes, how it was decided, the coin's face, and the control both games of the
    match are played under (``time_control``, a tournament-file table). Raises ActionError for a
    game that is no match's game 1, a game 1 already started or ended, a wish that is not "90" or
    "80+10", a missing coin flip when the wishes differ, a coin flip when they agree, a bad face."""
    from services.regulations.checkers_rounds import (
        RULE_CLOCK_CHOICE,
        choose_match_clock,
    )

    match = g.get("match")
    if not isinstance(match, dict):
        raise ActionError(f"game: {g['id']} is not a Master division match game; the match clock (X.A.a) is "
                          "chosen for a match")
    if match.get("game_no") != 1:
        raise ActionError(f"game: {g['id']} is game {match.get('game_no')} of match {match.get('id')}; the match "
                          f"clock is chosen once, before game 1 ({match.get('follows')}) starts (X.A.a: \"At "
                          "beginning of the round\")")
    if g.get("status") != "waiting" or g.get("ply"):
        what = f"has ended ({g.get('result')})" if g.get("status") == "ended" else \
            f"has started ({g.get('ply') or 0} plies played)"
        raise ActionError(f"game: {g['id']} {what}; the match clock is set \"At beginning of the round\" "
                          "(X.A.a) and can no longer be chosen: set the clocks instead")
    wishes = body.get("wishes")
    if not isinstance(wishes, dict):
        raise ActionError("wishes: each player's wish, {\"black\": \"90\" or \"80+10\", \"white\": ...}")
    for side in ("black", "white"):
        if wishes.get(side) not in ("90", "80+10"):
            raise ActionError(f"wishes.{side}: {wishes.get(side)!r} is not a match clock option: \"90\" (90 "
                              "minutes) or \"80+10\" (80 minutes + 10 s a move) (X.A.a)")
    coin = body.get("coin") or None
    if wishes["black"] == wishes["white"] and coin is not None:
        raise ActionError(f"coin: the players agree on {wishes['black']}: no coin flip (X.A.a: the decision is "
                          "random only \"If the players cannot mutually agree\")")
    if coin is not None and coin not in ("heads", "tails"):
        raise ActionError(f"coin: heads or tails, not {coin!r}")
    try:
        choice = choose_match_clock(wishes["black"], wishes["white"], coin)
    except ValueError:
        raise ActionError(f"coin: the players disagree (Red {wishes['black']}, White {wishes['white']}): the "
                          "referee's coin flip decides (X.A.a), heads = 90 minutes, tails = 80 minutes + 10 s") from None
    second = [gid for gid, other in games.items()
              if (other.get("match") or {}).get("follows") == g["id"]]
    return [(MatchClockChosen.TYPE, {
        **base(g), "match": match.get("id"), "games": [g["id"], *second],
        "wishes": {"black": wishes["black"], "white": wishes["white"]},
        "players": {"black": g.get("black"), "white": g.get("white")},
        "option": choice.option, "how": choice.how, "coin": choice.coin,
        "time_control": choice.control_spec,
        "previous": (g.get("match_clock") or {}).get("option"), "rule": RULE_CLOCK_CHOICE})]


def _time_trouble(g: dict, body: dict, base) -> list[tuple[str, dict]]:
    """Checkers 2017 X.A.d: "The Referee may also call attention to impending time trouble (5
    minutes or less prior to a time control), and spectators are never to do so." One
    ``time_trouble_called`` entry: who called it (``by``), when (the log's ``at``), for which side
    and player, the side's time on the last clock reading (``left_ms``, None without one), the alert
    it answers if named, and the rule. Raises ActionError for an ended game or a bad side (the chess
    refusal is ``_checkers``'). The referee's judgement is not second-guessed: a call with more than
    5 minutes showing is recorded as made."""
    from services.regulations.clock_rules import TIME_TROUBLE_RULE

    if g.get("status") == "ended":
        raise ActionError(f"game: {g['id']} has already ended ({g.get('result')}); there is no time trouble to "
                          "call attention to (X.A.d)")
    side = _side(body)
    clock = g.get("clock") or {}
    left = clock.get(f"{side}_ms")
    return [(TimeTroubleCalled.TYPE, {**base(g), "side": side, "player": g.get(side),
                                     "left_ms": left if isinstance(left, int) else None,
                                     "alert": body.get("alert"), "rule": TIME_TROUBLE_RULE})]


def _withdraw_penalty(g: dict, body: dict, by: str, state) -> list[tuple[str, dict]]:
    """The arbiter withdraws a proposed penalty (``penalty_proposed``) of ``side`` (the offender;
    ``presses``: the one made at that press, else the latest): no irregularity was completed (FIDE
    Laws 7.5.1: e.g. the press was the replacement move's, a ``penalty_in_doubt``), so the offence
    no longer counts towards 7.5.5. One ``penalty_withdrawn`` (ground "arbiter", ``by``). Allowed on
    an ended game (the result the proposal gave may then have to be set back). Raises ActionError
    for a bad side, or no proposal of that side to withdraw."""
    from services.regulations import irregularities as ir
    from services.regulations.rulings import judge_withdrawal

    side = _side(body)
    presses = body.get("presses")
    if presses is not None and (isinstance(presses, bool) or not isinstance(presses, int)):
        raise ActionError("presses: the proposal's press count, a whole number")
    ruling, proposal = _ruled(judge_withdrawal, state, g["id"], side, presses)
    reason = str(body.get("reason") or ruling.reason)[:500]
    entry = ir.withdraw(state, state.games[g["id"]], proposal, "arbiter", law=ruling.law, reason=reason, by=by)
    return [entry.encode()]


def _apply_penalty(g: dict, body: dict, base, state=None) -> list[tuple[str, dict]]:
    """The arbiter applies a proposed penalty (``penalty_proposed``: FIDE Laws 7.5.5 "the arbiter
    shall give two minutes extra time to his/her opponent", 9.5.3 "add two minutes to the
    opponent's remaining thinking time", one minute in rapid and blitz under B.3, A.3): one
    ``clock_adjusted`` with the side's time on the stopped clock plus ``add_ms``, ``side``,
    ``add_ms``, the reason and the law. The clock must be stopped (the arbiter pauses the clocks to
    deal with an irregularity, FIDE Laws 6.11), so the figures are exact. Raises ActionError for an
    ended game, a bad side, an amount that is not one or two minutes, no clock reading, a running
    clock, or an amount the Laws do not give here (``rulings.judge_penalty``: the open proposal's,
    else the time class's; none for a proposal that loses the game)."""
    from services.regulations.rulings import judge_penalty
    from services.rules.penalties import ONE_MINUTE_MS, TWO_MINUTES_MS

    _open(g)
    side = _side(body)
    add = _req(body, "add_ms", int)
    if add not in (ONE_MINUTE_MS, TWO_MINUTES_MS):
        raise ActionError(f"add_ms: the Laws' penalties add {ONE_MINUTE_MS} or {TWO_MINUTES_MS} ms (one or two "
                          f"minutes: FIDE Laws 7.5.5, 9.5.3, A.3), not {add}")
    clock = g.get("clock")
    if not clock:
        raise ActionError(f"game: {g['id']} has no clock reading to add the time to; set it with adjust_clock")
    if clock.get("running") is not None:
        raise ActionError(f"game: the clock of {g['id']} is running; pause it first (FIDE Laws 6.11), then apply "
                          "the penalty, so the time is added to the exact remaining time")
    ruling = _ruled(judge_penalty, state, g["id"], side, add)
    times = {s: int(clock[f"{s}_ms"]) for s in SIDES}
    times[side] += add
    law = str(body.get("law") or ruling.law)[:200]
    reason = str(body.get("reason") or f"penalty: {add // 60_000} min added to {side}")[:500]
    return [(ClockAdjusted.TYPE, {**base(g), "white_ms": times["white"], "black_ms": times["black"],
                                  "previous": g.get("clock"), "reason": f"{reason} ({law})", "side": side,
                                  "add_ms": add, "penalty": {"law": law, "alert": body.get("alert")},
                                  "alert": body.get("alert"), "ruling": ruling.to_json()})]


def _checkers(g: dict, action: str) -> dict:
    """The game, when it is a checkers game: the referee's score sheets, move timers and
    adjudication are the 11-Man National 2017's rules (XII, X.B). Raises ActionError otherwise."""
    if g.get("variant") != "checkers":
        raise ActionError(f"game: {g['id']} is a {g.get('variant') or 'chess'} game; {action} is a checkers "
                          "referee's action (11-Man National 2017)")
    return g


def _open(g: dict) -> None:
    if g.get("status") == "ended":
        raise ActionError(f"game: {g['id']} has already ended ({g.get('result')}); set the result instead")


# --- round tools: the arbiter's actions that reach the next Swiss pairing (docs/pairing.md) -------

def _event_of(state, action: str, swiss: bool = True):
    """The registered tournament; ActionError without one, or (``swiss``) when it is not a Swiss."""
    t = state.config if state is not None else None
    if t is None:
        raise ActionError(f"{action}: no tournament file is registered in the log, so there is no next round "
                          "to pair (venue serve --tournament FILE.toml)")
    if swiss and t.system != "swiss-dutch":
        raise ActionError(f"{action}: {t.name} is paired by {t.system} tables; requested byes, late entries, "
                          "forbidden pairs and acceleration are for a Swiss (FIDE C.04)")
    return t


def _latest_round(state) -> int:
    """The highest round number set up in the log (0 before round 1)."""
    return max((int(r) for r in state.rounds if r.isdigit()), default=0)


def _whole(body: dict, key: str, default: int | None = None) -> int:
    """``body[key]`` as a whole number (a JSON number, or digits as text from a form); ``default``
    when absent. ActionError otherwise."""
    value = body.get(key)
    if value in (None, "") and default is not None:
        return default
    if isinstance(value, str) and value.strip().isdigit():
        return int(value)
    if isinstance(value, bool) or not isinstance(value, int):
        raise ActionError(f"{key}: must be a whole number, not {value!r}")
    return value


def _player(body: dict, state, key: str = "player") -> tuple[int, str]:
    """The start number and name of ``body[key]``; ActionError for a start number nobody has."""
    sno = _whole(body, key)
    p = state.tournament.players.get(sno)
    if p is None:
        raise ActionError(f"{key}: no player with start number {sno}")
    return sno, p["name"]


def _round_to_pair(body: dict, state, t, key: str = "round") -> int:
    """``body[key]`` (default: the round after the latest set up): a round not paired yet."""
    latest = _latest_round(state)
    rnd = _whole(body, key, latest + 1)
    if rnd <= latest:
        raise ActionError(f"{key}: round {rnd} is paired already (its pairing is published); round {latest + 1} "
                          "is the next one to pair")
    if rnd > t.rounds_total:
        raise ActionError(f"{key}: round {rnd} is past the last round ({t.rounds_total})")
    return rnd


def _withdraw_player(body: dict, base: dict, state) -> PlayerWithdrew:
    """A player withdraws (any system: US 2023 rule 1 withholds his prize): not paired from
    ``from_round`` on (default the next round to pair; the round in play at the earliest, whose game
    the arbiter then scores with set_result)."""
    t = _event_of(state, "withdraw_player", swiss=False)
    sno, name = _player(body, state)
    latest = _latest_round(state)
    rnd = _whole(body, "from_round", latest + 1)
    if not max(latest, 1) <= rnd <= t.rounds_total:
        raise ActionError(f"from_round: {rnd} is not a round still to be played (rounds {max(latest, 1)}-"
                          f"{t.rounds_total}); the rounds before stand as played")
    already = state.tournament.withdrawn.get(sno)
    if already is not None and already <= rnd:
        raise ActionError(f"player: {name} withdrew from round {already} already")
    return PlayerWithdrew(player=name, start_no=sno, from_round=rnd, **base)


def _request_bye(body: dict, base: dict, state) -> ByeRequested:
    """A requested bye (FIDE C.04.2: half-point H, full-point F or zero-point Z) for a round not
    paired yet; refused for a player withdrawn by then, a late entry's missed round, or a second
    request for the same round (cancel the first)."""
    t = _event_of(state, "request_bye")
    sno, name = _player(body, state)
    rnd = _round_to_pair(body, state, t)
    code = body.get("code") or "H"
    if code not in ("H", "F", "Z"):
        raise ActionError(f"code: a requested bye is H (half point), F (full point) or Z (zero), not {code!r}")
    ts = state.tournament
    if ts.withdrawn.get(sno, rnd + 1) <= rnd:
        raise ActionError(f"player: {name} withdrew from round {ts.withdrawn[sno]}; he is not paired in round {rnd}")
    entered = ts.late_entries.get(sno)
    if entered is not None and rnd < entered["first_round"]:
        raise ActionError(f"player: {name} plays from round {entered['first_round']}; round {rnd} is a missed round "
                          f"({entered['missed']}) already")
    have = ts.requested_byes.get(rnd, {}).get(sno)
    if have is not None:
        raise ActionError(f"player: {name} has a requested bye ({have}) for round {rnd} already: cancel it first")
    return ByeRequested(start_no=sno, round=rnd, code=code, player=name, **base)


def _cancel_bye(body: dict, base: dict, state) -> ByeRequestCancelled:
    """Cancel a requested bye before its round is paired: he is paired again."""
    t = _event_of(state, "cancel_bye")
    sno, name = _player(body, state)
    rnd = _round_to_pair(body, state, t)
    if sno not in state.tournament.requested_byes.get(rnd, {}):
        raise ActionError(f"player: {name} has no requested bye for round {rnd}")
    return ByeRequestCancelled(start_no=sno, round=rnd, player=name, **base)


def _text(body: dict, key: str, limit: int) -> str | None:
    value = body.get(key)
    if value in (None, ""):
        return None
    if not isinstance(value, str):
        raise ActionError(f"{key}: must be text")
    return value.strip()[:limit] or None


def _enter_player(body: dict, base: dict, state) -> PlayerEntered:
    """A late entry in a Swiss: a new player from ``first_round`` (a round not paired yet), the
    rounds before it byes scored ``missed`` (Z, or H where the regulations give half a point)."""
    t = _event_of(state, "enter_player")
    name = _text(body, "name", 200)
    if not name:
        raise ActionError("name: is missing")
    players = state.tournament.players
    if any(p["name"] == name for p in players.values()):
        raise ActionError(f"name: {name!r} is a player of this tournament already")
    rating = None if body.get("rating") in (None, "") else _whole(body, "rating")
    if rating is not None and not 0 < rating < 4000:
        raise ActionError(f"rating: {rating} is not a rating (leave it empty for an unrated player)")
    first = _round_to_pair(body, state, t, "first_round")
    missed = body.get("missed") or "Z"
    if missed not in ("Z", "H"):
        raise ActionError(f"missed: the rounds missed are zero-point (Z) or half-point (H) byes, not {missed!r}")
    sno = _whole(body, "start_no", max(players, default=0) + 1)
    if sno < 1 or sno in players:
        raise ActionError(f"start_no: {sno} is taken (or not a start number); leave it out for the next free one")
    return PlayerEntered(start_no=sno, name=name, first_round=first, rating=rating, missed=missed,
                         fide_id=_text(body, "fide_id", 12), federation=_text(body, "federation", 3),
                         title=_text(body, "title", 3), **base)


def _forbid_pair(body: dict, base: dict, state) -> PairingForbidden:
    """Players who must not be paired with each other in the rounds still to pair (TRF XXP)."""
    _event_of(state, "forbid_pair")
    given = body.get("players")
    if not isinstance(given, list):
        raise ActionError("players: the start numbers of two or more players, as a list")
    numbers = sorted({_player({"players": x}, state, "players")[0] for x in given})
    if len(numbers) < 2:
        raise ActionError("players: two or more different players")
    if tuple(numbers) in state.tournament.forbidden:
        raise ActionError(f"players: {', '.join(map(str, numbers))} must not meet already")
    return PairingForbidden(players=numbers, **base)


def _set_acceleration(body: dict, base: dict, state) -> AccelerationSet:
    """Baku acceleration (FIDE C.04.7) or none, before round 1 is paired: its virtual points run
    from round 1, and rounds paired without them would not be the method's."""
    _event_of(state, "set_acceleration")
    method = body.get("method")
    if method not in ("baku", "none"):
        raise ActionError(f"method: baku (FIDE C.04.7) or none, not {method!r}")
    if _latest_round(state):
        raise ActionError("method: the acceleration is set before round 1 is paired")
    return AccelerationSet(method=method, **base)


ROUND_TOOLS = {"withdraw_player": _withdraw_player, "request_bye": _request_bye, "cancel_bye": _cancel_bye,
               "enter_player": _enter_player, "forbid_pair": _forbid_pair, "set_acceleration": _set_acceleration}
"""The round tools' actions: each builds its one entry (a typed record) or raises ActionError."""


CORRECTION_RULE = ("FIDE Laws 7.5.1: the position immediately before the irregularity shall be reinstated; "
                   "7.4: a displaced piece restored")
MAX_ENTERED = 600


def _correction(g: dict, body: dict, base) -> list[tuple[str, dict]]:
    """The arbiter's correction of a game's record: the plies after ``ply`` taken back and
    ``moves`` (the moves actually played from there, text separated by spaces or a list; UCI, SAN,
    or checkers' numeric notation) entered after it, each checked by the rules core from the
    position at ``ply`` (python-chess, pydraughts). One ``game_corrected`` entry with the moves in
    the log's form, their SAN and the position after each. Raises ActionError for a ply outside
    0..the plies recorded, a move the rules refuse (naming it and why), or a correction that
    changes nothing."""
    from services.rules.base import MoveRefused
    from services.rules.checkers_game import CheckersGame
    from services.rules.chess_game import ChessGame

    ply = body.get("ply")
    recorded = list(g.get("moves") or [])
    if isinstance(ply, bool) or not isinstance(ply, int) or not 0 <= ply <= len(recorded):
        raise ActionError(f"ply: the plies that stand, a whole number from 0 to {len(recorded)}")
    moves = body.get("moves") or []
    if isinstance(moves, str):
        moves = moves.replace(",", " ").split()
    if not isinstance(moves, list) or not all(isinstance(m, str) and m.strip() for m in moves):
        raise ActionError("moves: the moves played after that ply, as text or a list")
    if len(moves) > MAX_ENTERED:
        raise ActionError(f"moves: at most {MAX_ENTERED} at once")
    cls = CheckersGame if g.get("variant") == "checkers" else ChessGame
    try:
        game = cls.from_moves(recorded[:ply], fen=g.get("start_fen"))
    except (MoveRefused, ValueError) as exc:
        raise ActionError(f"game: its record cannot be replayed to ply {ply} ({exc})") from None
    played = []
    for i, text in enumerate(moves, start=ply + 1):
        try:
            played.append((game.play(text.strip()), game.fen))
        except MoveRefused as exc:
            raise ActionError(f"moves: ply {i}: {exc.reason}") from None
    entered = [p.move for p, _ in played]
    if entered == recorded[ply:]:
        raise ActionError("moves: the record already reads so; nothing to correct")
    return [(GameCorrected.TYPE, {**base(g), "ply": ply, "moves": entered, "san": [p.san for p, _ in played],
                                  "fens": [f for _, f in played], "fen": game.fen, "turn": game.turn,
                                  "removed": recorded[ply:],
                                  "reason": str(body.get("reason") or "")[:1000] or None,
                                  "rule": CORRECTION_RULE})]
