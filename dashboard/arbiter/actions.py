"""Arbiter actions: a request body in, the event-log entries it becomes out (pure).

Every entry carries ``by`` (the arbiter's login); the log stamps ``at``. The actions, their body
fields and entries:

| action | body | entries |
| --- | --- | --- |
| ``accept_claim`` | game, kind ("threefold"/"fifty_moves"/"forty_moves"), alert? | draw_claim_decided, game_ended ½-½ (FIDE Laws 9.2, 9.3) |
| ``reject_claim`` | game, kind, alert?, note? | draw_claim_decided (9.5: the arbiter may then add 2 min to the opponent with adjust_clock) |
| ``set_result`` | game, result, forfeit?, termination?, note? | arbiter_decision, game_ended (unless result "*": the game goes on) |
| ``record_fine`` | player or (game, side), amount, currency?, reason | fine_recorded |
| ``check_in`` | game, side | player_arrived |
| ``adjust_clock`` | game, white_ms, black_ms | clock_adjusted |
| ``pause`` / ``resume`` | game | game_paused / game_resumed |
| ``note`` | text, game? | note_added |
| ``resolve_alert`` | alert, note? | alert_resolved |
| ``enter_score_sheet`` | game, side, moves (text or list) | score_sheet_entered, score_sheet_differences when any (checkers 2017 XII) |
| ``start_move_timer`` | game, rule ("five_minute"/"one_minute"), side? | move_timer_started (checkers 2017 X.B.a, X.B.c) |
| ``adjudicate`` | game, members (three), votes {member: black/white/draw} | adjudication_recorded, game_ended (checkers 2017 X.B.d) |
| ``call_time_trouble`` | game, side, alert? | time_trouble_called (checkers 2017 X.A.d: the referee called attention to impending time trouble) |
| ``correct_record`` | game, ply (the plies that stand), moves (text or list: UCI, SAN or checkers numeric), reason? | game_corrected (FIDE Laws 7.5.1: the position before the irregularity reinstated, the moves actually played entered) |
| ``choose_match_clock`` | game (a match's game 1, not started), wishes {black, white: "90"/"80+10"}, coin? ("heads"/"tails", only when they disagree) | match_clock_chosen (checkers 2017 X.A.a) |

Results: "1-0", "0-1", "1/2-1/2", "*" (reopen), and with ``forfeit`` true the unplayed "1-0",
"0-1", "0-0" (TRF ``+``/``-``); special scores an arbiter may award: "0-0", "1/2-0", "0-1/2".
Raises ActionError (status 400) on any bad body, naming the field.
"""

from __future__ import annotations

from collections.abc import Mapping

from services.events import (AdjudicationRecorded, AlertResolved, ArbiterDecision, ClockAdjusted, DrawClaimDecided,
                             FineRecorded, GameCorrected, GameEnded, GamePaused, GameResumed, MatchClockChosen,
                             MoveTimerStarted, NoteAdded, PlayerArrived, ScoreSheetDifferences, ScoreSheetEntered,
                             TimeTroubleCalled)
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


def build(action: str, body: dict, by: str, games: Mapping[str, dict]) -> list[tuple[str, dict]]:
    """The entries for one action. ``games``: id -> GAME of any round of the event (for checking
    the game exists and taking its board). Raises ActionError."""
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
        decided = {**base(g), "kind": kind, "accepted": accepted, "by_move": body.get("by_move"),
                   "alert": body.get("alert"),
                   "rule": {"threefold": "FIDE Laws 9.2", "fifty_moves": "FIDE Laws 9.3",
                            "forty_moves": "ACF/WCDF 40-move rule"}[kind]}
        out = [(DrawClaimDecided.TYPE, decided)]
        if accepted:
            _open(g)
            if not any(c.get("kind") == kind for c in g.get("claimable") or ()):
                raise ActionError(f"kind: no {kind} claim is open on game {g['id']} now (FIDE Laws 9.2, "
                                  "9.3: the claim must stand in the present position or by the intended "
                                  "move); set the result instead if the arbiter rules otherwise")
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
        decision = {**base(g), "result": result, "forfeit": forfeit, "termination": termination,
                    "previous": g.get("result")}
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
        return [(MoveTimerStarted.TYPE, {**base(g), "rule": rule, "side": side})]
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
