"""The event's regulations applied live: a pure fold over the event log that answers each entry
(and each tick of time) with the entries the regulations call for.

Used by the gateway: every entry it appends, and every entry others append (arbiter actions), is
shown to ``observe``; ``tick(now_ms)`` runs on a timer; ``review_result`` is asked before a result
reported by a device ends a game. What they return is appended to the log.
After a restart the gateway replays the log through ``observe`` and throws the answers away: the
answers given before are in the log already and the fold has seen them, so nothing is said twice.

Entries produced (data always carries ``game`` and ``board``; ``rule`` quotes the rule applied):
- ``draw_offer_refused``: a board or clock reported a draw by agreement the regulations forbid
  (US 2023 rule 2; US 2013 rule 2; Norway classical); the game goes on.
- ``draw_claim_reported``: a device reported a draw by claim (9.2/9.3); the arbiter decides.
- ``default_forfeit`` + ``game_ended``: lateness past the default time (FIDE Laws 6.7.1).
- ``player_not_at_board``: not at the board at the start (US 2023 rule 1: a fine may follow).
- ``armageddon_scheduled``: Norway classical: a drawn game is followed by an Armageddon game.
- ``armageddon_decided``: an Armageddon game drawn is won by Black.
- ``clock_disagreement``: the clock and the board or the time control disagree
  (``services.regulations.clock_watch``).
- ``late_start_draw`` + ``game_ended`` ½-½ (termination ``late_start``): a checkers game not started
  by 30 minutes before its round's scheduled end (the file's ``[[rounds]] end``), or first moved
  after that (11-Man National 2017 X.B.e).
- ``move_timer_warning``, ``move_timer_forfeit`` + ``game_ended``: the five- and one-minute rules the
  referee started (11-Man National 2017 X.B.a, X.B.c).
- ``time_trouble_impending`` (informational): on a checkers match clock, a side's time in the clock
  model fell to 5 minutes or less while the game is in play: the referee may call attention to it
  (11-Man National 2017 X.A.d); once per side per game.

Folded without answer: ``match_clock_chosen`` (X.A.a, the referee's record of a checkers match's
clock): the clock models of the match's games not started yet take the chosen control.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from services.rules.base import BLACK, WHITE, other

from . import lateness
from .checkers_rounds import LATEST_START_BEFORE_END_MS, late_start_draw
from .clock_watch import ClockWatch
from .controls import control_from_spec
from .model import Tournament
from .move_timer import FIVE_MINUTE, ONE_MINUTE, MoveTimer

DRAW = "1/2-1/2"
CLAIM_REASONS = {"threefold", "threefold_repetition", "fifty_moves", "fifty_move", "claim", "forty_moves"}
ENDED_BY_RULES = {"stalemate", "insufficient_material", "dead_position", "checkmate", "fivefold_repetition",
                  "seventyfive_moves"}
BALLOT_PLIES = 3  # "Red's first balloted move", White's reply and Red's second (X.A.d)
LATE_START_RULE = ("11-Man National 2017 X.B.e: \"No game shall be started later than 30 minutes before a "
                   "round time is scheduled to end. Any game, not started in accordance with this rule, shall "
                   "be declared drawn.\"")
TIME_TROUBLE_MS = 5 * 60_000  # X.A.d: "5 minutes or less prior to a time control"
TIME_TROUBLE_RULE = ("11-Man National 2017 X.A.d: \"The Referee may also call attention to impending time "
                     "trouble (5 minutes or less prior to a time control), and spectators are never to do so.\"")


@dataclass
class _Game:
    id: str
    board: str
    round: str
    kind: str
    white: str
    black: str
    setup: dict
    moves: dict = field(default_factory=lambda: {WHITE: 0, BLACK: 0})
    arrived: dict = field(default_factory=lambda: {WHITE: None, BLACK: None})
    ended: bool = False
    result: str = "*"
    defaulted: bool = False
    fined_alerted: set = field(default_factory=set)
    follow_up: bool = False
    first_side: str = WHITE
    watch: ClockWatch | None = None
    timer: MoveTimer | None = None
    timer_warned: int | None = None
    started_at: int | None = None
    late_start_ruled: bool = False
    time_trouble: set = field(default_factory=set)  # sides already alerted (X.A.d)


class Enforcer:
    """The regulations of one tournament as a fold. ``tournament``: the parsed tournament file.
    Methods return lists of ``(type, data)`` to append; they never raise on odd entries."""

    def __init__(self, tournament: Tournament, clock_rate: float = 1.0):
        self.t = tournament
        self.regs = tournament.regulations
        self.rate = clock_rate
        self.games: dict[str, _Game] = {}

    # -- the fold ---------------------------------------------------------------------------
    def observe(self, type: str, data: dict, at: int) -> list[tuple[str, dict]]:
        """Fold one log entry; returns the entries the regulations call for in answer."""
        handler = getattr(self, "_on_" + type, None)
        return handler(data, at) or [] if handler else []

    def _on_round_started(self, data: dict, at: int):
        for setup in data.get("games", []):
            self._add(setup)

    def _on_armageddon_scheduled(self, data: dict, at: int):
        self._add(data)
        prev = self.games.get(data.get("follows", ""))
        if prev:
            prev.follow_up = True

    def _add(self, setup: dict):
        g = _Game(id=setup["id"], board=str(setup["board"]), round=str(setup.get("round", "")),
                  kind=setup.get("kind") or self.t.kind, white=setup.get("white", ""),
                  black=setup.get("black", ""), setup=setup,
                  first_side=BLACK if setup.get("variant") == "checkers" else WHITE)
        g.watch = self._watch(g)
        self.games[g.id] = g

    def _watch(self, g: _Game) -> ClockWatch:
        """The clock model of ``g`` from its SETUP's ``time_control`` (else the file's control of
        its kind)."""
        setup = g.setup
        spec = setup.get("time_control") or self.t.time_controls.get(g.kind)
        try:
            control = control_from_spec(spec) if spec else None
        except ValueError:
            control = None
        # X.A.d: the three balloted moves before the clock, when the event says so and the board
        # plays them (a game from the start position, not from the balloted FEN)
        untimed = BALLOT_PLIES if (setup.get("variant") == "checkers" and self.regs.ballot_moves_before_clock
                                   and not setup.get("fen")) else 0
        return ClockWatch(control, self.regs.clock_tolerance_ms, self.rate,
                          check_counts=setup.get("variant") != "checkers", first_side=g.first_side,
                          untimed_plies=untimed)

    def _on_match_clock_chosen(self, data: dict, at: int):
        """Checkers 2017 X.A.a: the referee recorded the match clock (90 minutes, or 80 minutes +
        10 s a move): the clock model of each game of the match not started yet runs that control
        from now on (game 2 then carries game 1's times over under it, X.A.b). A game already
        started keeps its model (the console refuses a choice after game 1 has started)."""
        spec = data.get("time_control")
        if not isinstance(spec, dict):
            return
        for gid in data.get("games") or [data.get("game")]:
            g = self.games.get(gid)
            if g is None or g.ended or g.started_at is not None:
                continue
            g.setup = {**g.setup, "time_control": dict(spec)}
            g.watch = self._watch(g)

    def _on_move_played(self, data: dict, at: int):
        g = self.games.get(data.get("game"))
        if not g:
            return
        mover = other(data["turn"]) if data.get("turn") in (WHITE, BLACK) else None
        if mover:
            g.moves[mover] += 1
            if g.arrived[mover] is None:
                g.arrived[mover] = at
            g.watch.on_move(mover, at)
            if g.timer is not None and g.timer.side == mover:
                g.timer.moved(mover, at)
        return self._started(g, at)

    def _started(self, g: _Game, at: int) -> list[tuple[str, dict]]:
        """The game's first move or clock start (X.A.d: "As the game starts, Red's clock is
        started, Red's first balloted move is made"): a start after the limit of X.B.e draws it."""
        if g.started_at is not None:
            return []
        g.started_at = at
        return self._late_start(g, at)

    def _late_start(self, g: _Game, now_ms: int) -> list[tuple[str, dict]]:
        """X.B.e for a checkers game in a round with a scheduled end (the file's ``[[rounds]] end``;
        the Master division is open-ended, X.A.i, and gives none): ``late_start_draw`` and
        ``game_ended`` ½-½ when the game was not started by 30 minutes before the end."""
        if g.ended or g.late_start_ruled or g.first_side != BLACK or g.kind == "armageddon" or g.follow_up:
            return []
        try:
            end = self.t.round(int(g.round)).end_ms
        except (KeyError, ValueError):
            return []
        if end is None or not late_start_draw(end, g.started_at, now_ms):
            return []
        # Once: a referee who reopens the game (arbiter_decision "*") is not overruled again.
        g.ended, g.result, g.late_start_ruled = True, DRAW, True
        return [("late_start_draw", {"game": g.id, "board": g.board, "round": g.round, "round_end_ms": end,
                                     "latest_start_ms": end - LATEST_START_BEFORE_END_MS,
                                     "started_at": g.started_at, "rule": LATE_START_RULE}),
                ("game_ended", {"game": g.id, "board": g.board, "result": DRAW, "termination": "late_start",
                                "ply": g.moves[WHITE] + g.moves[BLACK], "by": "regulations"})]

    def _clock(self, event: str, data: dict, at: int):
        g = self.games.get(data.get("game"))
        if not g or g.ended:
            return
        running = data.get("running")
        if event == "press" and running in (WHITE, BLACK):
            presser = other(running)
            if g.arrived[presser] is None:
                g.arrived[presser] = at
        found = g.watch.on_clock(event, data.get("white_ms"), data.get("black_ms"), running, at)
        late = self._started(g, at) if event == "start" else []
        return [self._disagreement(g, f) for f in found] + late

    def _disagreement(self, g: _Game, finding: dict) -> tuple[str, dict]:
        if g.setup.get("variant") == "checkers":
            rule = ("the clock shows the time; a move is complete when the player stops his/her own "
                    "clock (11-Man National 2017 X.A.d); the referee checks it")
        else:
            rule = "the device clock is authoritative; the arbiter checks it (FIDE Laws 6.10)"
        return ("clock_disagreement", {"game": g.id, "board": g.board, **finding, "rule": rule})

    def _on_clock_started(self, data, at):
        return self._clock("start", data, at)

    def _on_clock_pressed(self, data, at):
        return self._clock("press", data, at)

    def _on_clock_paused(self, data, at):
        return self._clock("pause", data, at)

    def _on_clock_resumed(self, data, at):
        return self._clock("resume", data, at)

    def _on_clock_set(self, data, at):
        return self._clock("set", data, at)

    def _on_clock_adjusted(self, data: dict, at: int):
        g = self.games.get(data.get("game"))
        if g and isinstance(data.get("white_ms"), int) and isinstance(data.get("black_ms"), int):
            g.watch.adjust(data["white_ms"], data["black_ms"], at)

    def _on_move_timer_started(self, data: dict, at: int):
        """Checkers 2017 X.B.a (five-minute rule, on a player's request) and X.B.c (the one-minute
        rule, "at a later time of his/her choosing"): the referee starts timing the side on move."""
        g = self.games.get(data.get("game"))
        if g and not g.ended and data.get("side") in (WHITE, BLACK):
            g.timer = MoveTimer(ONE_MINUTE if data.get("rule") == "one_minute" else FIVE_MINUTE)
            g.timer.start(data["side"], at)
            g.timer_warned = None

    def _on_move_timer_forfeit(self, data: dict, at: int):
        g = self.games.get(data.get("game"))
        if g:
            g.timer = None

    def _on_move_timer_warning(self, data: dict, at: int):
        g = self.games.get(data.get("game"))
        if g:
            g.timer_warned = data.get("turn_began")

    def _on_player_arrived(self, data: dict, at: int):
        g = self.games.get(data.get("game"))
        side = data.get("side")
        if g and side in (WHITE, BLACK):
            when = data.get("arrived_at", at)
            if g.arrived[side] is None or when < g.arrived[side]:
                g.arrived[side] = when

    def _on_time_trouble_impending(self, data: dict, at: int):
        """Fold our own X.A.d alert (a restarted gateway replaying the log never says it twice)."""
        g = self.games.get(data.get("game"))
        if g and data.get("side") in (WHITE, BLACK):
            g.time_trouble.add(data["side"])

    def _on_late_start_draw(self, data: dict, at: int):
        g = self.games.get(data.get("game"))
        if g:
            g.late_start_ruled = True

    def _on_default_forfeit(self, data: dict, at: int):
        g = self.games.get(data.get("game"))
        if g:
            g.defaulted = True

    def _on_player_not_at_board(self, data: dict, at: int):
        g = self.games.get(data.get("game"))
        if g:
            g.fined_alerted.add(data.get("side"))

    def _on_game_ended(self, data: dict, at: int):
        g = self.games.get(data.get("game"))
        if not g or g.ended:
            return
        g.ended = True
        g.result = data.get("result", "*")
        out: list[tuple[str, dict]] = []
        if g.kind == "armageddon" and g.result == DRAW:
            out.append(("armageddon_decided", {
                "game": g.id, "board": g.board, "winner": BLACK, "result": "0-1",
                "rule": "Norway Chess 2023: \"If the Armageddon game is drawn, black will win.\""
                if self.regs.armageddon_after_draw else "Armageddon: Black has draw odds"}))
        if (self.regs.armageddon_after_draw and g.kind == "classical" and g.result == DRAW
                and not g.follow_up and data.get("termination") != "forfeit"):
            out.append(("armageddon_scheduled", self._armageddon_setup(g)))
        return out

    def _on_arbiter_decision(self, data: dict, at: int):
        g = self.games.get(data.get("game"))
        if g and data.get("result") == "*":
            # The arbiter overruled an ending (e.g. a default, 6.7.1 "unless the arbiter decides
            # otherwise"): the game is on again.
            g.ended = False
            g.result = "*"

    def _armageddon_setup(self, g: _Game) -> dict:
        control = self.t.time_controls.get("armageddon")
        return {"id": f"{g.id}-A", "board": g.board, "round": g.round, "white": g.white, "black": g.black,
                "white_elo": g.setup.get("white_elo"), "black_elo": g.setup.get("black_elo"),
                "variant": g.setup.get("variant", "chess"), "time_control": control, "fen": None,
                "kind": "armageddon", "follows": g.id,
                "rule": "Norway Chess 2023: \"If the classical game is drawn, an Armageddon game will be "
                        "played ... The player with White pieces will continue with White in Armageddon.\""}

    # -- results reported by devices ---------------------------------------------------------
    def review_result(self, game: str, result: str, reason: str | None, seq: int | None = None
                      ) -> list[tuple[str, dict]] | None:
        """A board or clock reports ``result`` for ``game``: None when the regulations let it end the
        game; else the entries that answer it instead (the game goes on):
        ``draw_offer_refused`` when a draw by agreement is banned (US 2023 rule 2, US 2013 rule 2,
        Norway classical), ``draw_claim_reported`` for a claim the arbiter must verify (FIDE Laws
        9.2/9.3; US 2023 rule 2). Claims decided by the arbiter, stalemate and dead positions stay
        draws under every ban."""
        g = self.games.get(game)
        if not g or g.ended:
            return None
        reason = (reason or "").lower() or None
        base = {"game": g.id, "board": g.board, "result": result, "reason": reason, "seq": seq}
        if result == DRAW and reason in CLAIM_REASONS:
            return [("draw_claim_reported", {**base, "rule": "FIDE Laws 9.2/9.3: a claim is decided by "
                                             "the arbiter"})]
        if result == DRAW and reason not in ENDED_BY_RULES:
            ok, why = self.regs.draw_agreement_allowed(g.kind, g.moves[WHITE], g.moves[BLACK])
            if not ok:
                return [("draw_offer_refused", {**base, "rule": why, "moves": dict(g.moves), "kind": g.kind})]
        return None

    def _timer(self, g: _Game, now_ms: int) -> list[tuple[str, dict]]:
        state = g.timer.state(now_ms)
        base = {"game": g.id, "board": g.board, "side": state.side, "rule": g.timer.rule.rule,
                "timer": g.timer.rule.name}
        if state.phase == "forfeit":
            g.timer, g.ended = None, True
            # our result codes put White's score first, in checkers too (docs/checkers.md)
            result = "0-1" if state.side == WHITE else "1-0"
            return [("move_timer_forfeit", {**base, "forfeit_at": state.forfeit_at}),
                    ("game_ended", {"game": g.id, "board": g.board, "result": result,
                                    "termination": "time_forfeit", "ply": g.moves[WHITE] + g.moves[BLACK],
                                    "by": "regulations"})]
        if state.phase == "warned" and g.timer_warned != g.timer.turn_began:
            g.timer_warned = g.timer.turn_began
            return [("move_timer_warning", {**base, "left_ms": state.left_ms, "turn_began": g.timer.turn_began})]
        return []

    def _time_trouble(self, g: _Game, now_ms: int) -> list[tuple[str, dict]]:
        """X.A.d: "The Referee may also call attention to impending time trouble (5 minutes or less
        prior to a time control)". For a checkers game on a match clock (the control's
        ``carries_over``, X.A.a) whose clock model has started and whose game is in play: one
        informational ``time_trouble_impending`` per side per game, when that side's time in the
        model (what its clock shows: time left before the control) is 5:00 or less."""
        w = g.watch
        if (g.ended or g.first_side != BLACK or w is None or w.control is None
                or not w.control.carries_over or w.model is None or not w.model.started):
            return []
        out: list[tuple[str, dict]] = []
        for side in (BLACK, WHITE):
            if side in g.time_trouble:
                continue
            left = w.remaining(side, now_ms)
            if left is None or left > TIME_TROUBLE_MS:
                continue
            g.time_trouble.add(side)
            out.append(("time_trouble_impending", {
                "game": g.id, "board": g.board, "side": side, "player": g.white if side == WHITE else g.black,
                "left_ms": left, "threshold_ms": TIME_TROUBLE_MS, "rule": TIME_TROUBLE_RULE}))
        return out

    # -- time --------------------------------------------------------------------------------
    def tick(self, now_ms: int) -> list[tuple[str, dict]]:
        """Checks that depend on time passing: default time (Laws 6.7.1), where the event fines it
        not being at the board at the start (US 2023 rule 1), the move timers (checkers X.B.a/c),
        a checkers game still not started 30 minutes before its round's end (X.B.e) and impending
        time trouble on a checkers match clock (X.A.d)."""
        out: list[tuple[str, dict]] = []
        for g in self.games.values():
            if g.started_at is None:
                out += self._late_start(g, now_ms)
            if not g.ended and g.watch is not None:
                out += [self._disagreement(g, f) for f in g.watch.tick(now_ms)]
            if not g.ended and g.timer is not None:
                out += self._timer(g, now_ms)
            out += self._time_trouble(g, now_ms)
            if g.ended or g.defaulted or g.kind == "armageddon" or g.follow_up:
                continue
            try:
                start = self.t.round(int(g.round)).start_ms
            except (KeyError, ValueError):
                continue
            if self.regs.fine_not_at_board is not None:
                for side in (WHITE, BLACK):
                    if side not in g.fined_alerted and lateness.not_at_board_at_start(start, g.arrived[side], now_ms):
                        g.fined_alerted.add(side)
                        fine = self.regs.fine_not_at_board
                        out.append(("player_not_at_board", {
                            "game": g.id, "board": g.board, "side": side,
                            "player": g.white if side == WHITE else g.black,
                            "fine": fine.amount, "currency": fine.currency,
                            "rule": "US 2023 rule 1: \"Players not at their board at the beginning of each "
                                    f"round may receive a fine of ${fine.amount}\""}))
            if self.t.game != "chess" and g.kind not in self.regs.default_time_ms:
                continue  # FIDE Laws 6.7 is chess's; a checkers event sets its own (or none)
            verdict = lateness.default_verdict(start, self.regs.default_time_for(g.kind), now_ms,
                                               g.arrived[WHITE], g.arrived[BLACK])
            if verdict is None:
                continue
            g.defaulted = True
            g.ended = True
            g.result = verdict.result
            minutes = self.regs.default_time_for(g.kind) / 60000
            out.append(("default_forfeit", {
                "game": g.id, "board": g.board, **verdict.to_json(), "scheduled_start_ms": start,
                "rule": f"FIDE Laws 6.7.1; default time {minutes:g} min from the scheduled start"}))
            out.append(("game_ended", {"game": g.id, "board": g.board, "result": verdict.result,
                                       "termination": "forfeit", "forfeit": True,
                                       "ply": g.moves[WHITE] + g.moves[BLACK], "by": "regulations"}))
        return out
