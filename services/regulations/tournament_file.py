"""Read a tournament file (TOML, documented in docs/tournament-file.md) into ``model.Tournament``.

Pure: the caller reads the file and passes its text. Every problem raises ``TournamentFileError``
naming the file, the line and the field at fault, so an organiser can mend it at once.
"""

from __future__ import annotations

import re
import tomllib
from datetime import datetime
from typing import Any, NoReturn, overload

from services.tournament.tiebreaks import parse_spec

from .controls import control_from_spec, starting_time_problem
from .fields import TournamentFileError, duration_ms, line_of
from .model import (APPENDIX_DEFAULT, APPENDIX_PARTS, MOVE_TIMERS, PERIOD_ADDED, RULE_KEYS, DRAW_POLICIES, KINDS, PLAYOFF_RULES, PRIZE_SHARING, SCORING_SYSTEMS, SYSTEMS,
                    ArbiterAccount, DrawOfferPolicy, Fine, HallBoard, Player, Prizes, Regulations,
                    RoundSchedule, Tournament)

_SLUG = re.compile(r"^[a-z0-9][a-z0-9-]{0,62}$")


class _Reader:
    """Pulls typed values out of the parsed TOML, raising errors with the field's line."""

    def __init__(self, text: str, source: str):
        self.text = text
        self.source = source
        self.seen: set[str] = set()  # the paths read: anything else in the file is refused (misspelt)
        self.free: set[str] = set()  # subtrees checked key by key elsewhere (time controls, kinds, rules)

    def fail(self, path: str, problem: str) -> NoReturn:
        raise TournamentFileError(problem, field=path, line=line_of(self.text, path), source=self.source)

    def get(self, table: dict, key: str, path: str, kind, *, required: bool = False, default: Any = None):
        self.seen.add(path)
        if key not in table:
            if required:
                self.fail(path, "is missing")
            return default
        value = table[key]
        kinds = kind if isinstance(kind, tuple) else (kind,)
        if isinstance(value, bool) and bool not in kinds:
            self.fail(path, f"must be {self._kname(kinds)}, not {value!r}")
        if not isinstance(value, kinds):
            self.fail(path, f"must be {self._kname(kinds)}, not {value!r}")
        return value

    def choice(self, table: dict, key: str, path: str, choices, default: str | None = None,
               required: bool = False) -> str:
        value = self.get(table, key, path, str, required=required, default=default)
        if value not in choices:
            self.fail(path, f"must be one of {', '.join(choices)}; got {value!r}")
        return value

    @overload
    def duration(self, table: dict, key: str, path: str, default: int) -> int: ...

    @overload
    def duration(self, table: dict, key: str, path: str, default: None = None) -> int | None: ...

    def duration(self, table: dict, key: str, path: str, default: int | None = None) -> int | None:
        self.seen.add(path)
        if key not in table:
            return default
        try:
            return duration_ms(table[key])
        except ValueError as exc:
            self.fail(path, str(exc))

    def unread(self, node: Any, path: str = "") -> None:
        """Refuse the first key of the document no reader looked at: a misspelt setting would
        otherwise be ignored in silence (``polcy = "never"`` dropping an event's draw ban)."""
        if path in self.free:
            return
        if isinstance(node, dict):
            for key, value in node.items():
                sub = f"{path}.{key}" if path else key
                if sub not in self.seen and sub not in self.free and not isinstance(value, (dict, list)):
                    self.fail(sub, "unknown setting: misspelt, or not a setting of this table "
                                   "(docs/tournament-file.md lists them)")
                self.unread(value, sub)
        elif isinstance(node, list):
            for i, value in enumerate(node):
                if isinstance(value, dict):
                    self.unread(value, f"{path}[{i}]")

    @staticmethod
    def _kname(kinds) -> str:
        names = {str: "text", int: "a whole number", float: "a number", bool: "true or false",
                 list: "a list", dict: "a table"}
        return " or ".join(names.get(k, k.__name__) for k in kinds)


def load_tournament(text: str, source: str = "<tournament file>") -> Tournament:
    """Parse and check a tournament file. ``text``: the TOML; ``source``: its name for messages.

    Raises TournamentFileError (a ValueError) with field and line for: TOML syntax errors, missing
    or mistyped fields, unknown choices, duplicate starting ranks or boards, bad times."""
    try:
        doc = tomllib.loads(text)
    except tomllib.TOMLDecodeError as exc:
        m = re.search(r"line (\d+)", str(exc))
        raise TournamentFileError(f"not valid TOML: {exc}", line=int(m.group(1)) if m else None,
                                  source=source) from None
    r = _Reader(text, source)
    known = {"tournament", "players", "rounds", "boards", "time_controls", "regulations", "arbiters", "broadcast"}
    for key in doc:
        if key not in known:
            r.fail(key, f"unknown section (expected one of {', '.join(sorted(known))})")
    t = r.get(doc, "tournament", "tournament", dict, required=True)
    name = r.get(t, "name", "tournament.name", str, required=True)
    slug = r.get(t, "slug", "tournament.slug", str, required=True)
    if not _SLUG.match(slug):
        r.fail("tournament.slug", "must be lower-case letters, digits and '-' (it is used in MQTT topics)")
    game = r.choice(t, "game", "tournament.game", ("chess", "checkers"), default="chess")
    system = r.choice(t, "system", "tournament.system", SYSTEMS, required=True)
    kind = r.choice(t, "kind", "tournament.kind", KINDS, default="classical")
    rounds_total = r.get(t, "rounds", "tournament.rounds", int, required=True)
    if rounds_total < 1:
        r.fail("tournament.rounds", "must be at least 1")
    players = _players(r, r.get(doc, "players", "players", list, default=[]))
    rounds = _rounds(r, r.get(doc, "rounds", "rounds", list, default=[]), rounds_total)
    boards = _boards(r, r.get(doc, "boards", "boards", list, default=[]))
    controls = r.get(doc, "time_controls", "time_controls", dict, required=True)
    for k in controls:
        if k not in KINDS:
            r.fail(f"time_controls.{k}", f"unknown kind of game (expected one of {', '.join(KINDS)})")
        if not isinstance(controls[k], (str, dict)):
            r.fail(f"time_controls.{k}", "must be PGN TimeControl text or a table")
        try:
            problem = starting_time_problem(control_from_spec(controls[k]))
        except ValueError as exc:
            problem = str(exc)
        if problem:
            r.fail(f"time_controls.{k}", problem)
    if kind not in controls:
        r.fail("time_controls", f"has no control for the event's own kind of game, {kind!r}")
    regs = _regulations(r, r.get(doc, "regulations", "regulations", dict, default={}))
    if regs.ballot_moves_before_clock and game != "checkers":
        r.fail("regulations.ballot_moves_before_clock", "is a checkers setting (three-move ballot, 11-Man "
               "National 2017 X.A.d): set tournament.game = \"checkers\" or leave it out")
    arbiters = _arbiters(r, r.get(doc, "arbiters", "arbiters", list, default=[]))
    delay = _broadcast_delay(r, r.get(doc, "broadcast", "broadcast", dict, default={}))
    site = r.get(t, "site", "tournament.site", str, default="")
    r.free |= {"time_controls", "regulations.default_time", "regulations.rules"}
    r.unread(doc)
    return Tournament(name=name, slug=slug, game=game, system=system, kind=kind,
                      rounds_total=rounds_total, players=players, rounds=rounds, boards=boards,
                      time_controls=dict(controls), regulations=regs, arbiters=arbiters,
                      site=site, source=source,
                      broadcast_delay_ms=delay)


MAX_BROADCAST_DELAY_MS = 3600 * 1000


def _broadcast_delay(r: _Reader, table: dict) -> int:
    """``[broadcast] delay``: whole seconds (0 to 3600) or a duration ("15m"), as ms."""
    for key in table:
        if key != "delay":
            r.fail(f"broadcast.{key}", "unknown setting (expected delay)")
    r.seen.add("broadcast.delay")
    raw = table.get("delay", 0)
    if isinstance(raw, bool) or not isinstance(raw, (int, str)):
        r.fail("broadcast.delay", f"must be whole seconds or a duration such as \"15m\", not {raw!r}")
    ms = raw * 1000 if isinstance(raw, int) else r.duration(table, "delay", "broadcast.delay", default=0)
    if not 0 <= ms <= MAX_BROADCAST_DELAY_MS:
        r.fail("broadcast.delay", f"must be between 0 and 3600 seconds, not {ms / 1000:g}")
    return ms


def _players(r: _Reader, rows: list) -> tuple[Player, ...]:
    out: list[Player] = []
    seen: set[int] = set()
    for i, row in enumerate(rows):
        p = f"players[{i}]"
        if not isinstance(row, dict):
            r.fail(p, "must be a [[players]] table")
        start_no = r.get(row, "start_no", f"{p}.start_no", int, default=i + 1)
        if start_no in seen:
            r.fail(f"{p}.start_no", f"starting rank {start_no} is used twice")
        seen.add(start_no)
        rating = r.get(row, "rating", f"{p}.rating", int)
        fide_id = r.get(row, "fide_id", f"{p}.fide_id", (str, int))
        out.append(Player(start_no=start_no, name=r.get(row, "name", f"{p}.name", str, required=True),
                          rating=rating, fide_id=None if fide_id is None else str(fide_id),
                          federation=r.get(row, "federation", f"{p}.federation", str),
                          title=r.get(row, "title", f"{p}.title", str),
                          team=r.get(row, "team", f"{p}.team", str)))
    return tuple(sorted(out, key=lambda p: p.start_no))


def _when(r: _Reader, value: Any, path: str) -> tuple[str, int]:
    if isinstance(value, datetime):
        dt = value
    elif isinstance(value, str):
        try:
            dt = datetime.fromisoformat(value)
        except ValueError:
            r.fail(path, f"not a date and time: {value!r} (write e.g. 2023-10-05T13:00:00-05:00)")
    else:
        r.fail(path, "must be a date and time with its UTC offset, e.g. 2023-10-05T13:00:00-05:00")
    if dt.tzinfo is None:
        r.fail(path, "needs a UTC offset (e.g. -05:00) so the default time is measured right")
    return dt.isoformat(), int(dt.timestamp() * 1000)


def _rounds(r: _Reader, rows: list, total: int) -> tuple[RoundSchedule, ...]:
    out: list[RoundSchedule] = []
    for i, row in enumerate(rows):
        p = f"rounds[{i}]"
        if not isinstance(row, dict):
            r.fail(p, "must be a [[rounds]] table")
        number = r.get(row, "number", f"{p}.number", int, default=i + 1)
        if not 1 <= number <= total:
            r.fail(f"{p}.number", f"must be between 1 and tournament.rounds ({total})")
        if any(x.number == number for x in out):
            r.fail(f"{p}.number", f"round {number} is scheduled twice")
        start, start_ms = _when(r, r.get(row, "start", f"{p}.start", (str, datetime), required=True),
                                f"{p}.start")
        end_ms = None
        r.seen.add(f"{p}.end")
        if "end" in row:
            _, end_ms = _when(r, row["end"], f"{p}.end")
            if end_ms <= start_ms:
                r.fail(f"{p}.end", "must be after the start")
        out.append(RoundSchedule(number=number, start=start, start_ms=start_ms, end_ms=end_ms))
    return tuple(sorted(out, key=lambda x: x.number))


def _boards(r: _Reader, rows: list) -> tuple[HallBoard, ...]:
    out: list[HallBoard] = []
    for i, row in enumerate(rows):
        p = f"boards[{i}]"
        if not isinstance(row, dict):
            r.fail(p, "must be a [[boards]] table")
        number = r.get(row, "number", f"{p}.number", int, default=i + 1)
        if number < 1 or any(b.number == number for b in out):
            r.fail(f"{p}.number", f"board {number} is not a new positive number")
        out.append(HallBoard(number=number,
                             board_device=r.get(row, "board_device", f"{p}.board_device", str),
                             clock_device=r.get(row, "clock_device", f"{p}.clock_device", str)))
    return tuple(out)


def _regulations(r: _Reader, regs: dict) -> Regulations:
    known = {"draw_offers", "default_time", "fines", "scoring", "tiebreaks", "playoff", "prizes",
             "armageddon", "clock_tolerance", "ballot_moves_before_clock", "rules", "period_added", "appendix",
             "guidelines_iii", "move_timers"}
    for key in regs:
        if key not in known:
            r.fail(f"regulations.{key}", f"unknown setting (expected one of {', '.join(sorted(known))})")
    d = r.get(regs, "draw_offers", "regulations.draw_offers", dict, default={})
    policy = r.choice(d, "policy", "regulations.draw_offers.policy", DRAW_POLICIES, default="allowed")
    min_moves = r.get(d, "min_moves", "regulations.draw_offers.min_moves", int, default=0)
    if policy == "not_before_move" and min_moves < 1:
        r.fail("regulations.draw_offers.min_moves", "must be at least 1 with policy not_before_move")
    exempt = r.get(d, "exempt_kinds", "regulations.draw_offers.exempt_kinds", list, default=[])
    for k in exempt:
        if k not in KINDS:
            r.fail("regulations.draw_offers.exempt_kinds", f"unknown kind of game {k!r}")
    dt = r.get(regs, "default_time", "regulations.default_time", dict, default={})
    default_time: dict[str, int] = {}
    for k in dt:
        if k == "rule":
            continue
        if k not in KINDS:
            r.fail(f"regulations.default_time.{k}", f"unknown kind of game (expected one of {', '.join(KINDS)})")
        ms = r.duration(dt, k, f"regulations.default_time.{k}")
        assert ms is not None  # k is one of dt's keys
        default_time[k] = ms
    fines = r.get(regs, "fines", "regulations.fines", dict, default={})
    fine = None
    if "not_at_board_at_start" in fines:
        amount = r.get(fines, "not_at_board_at_start", "regulations.fines.not_at_board_at_start", int)
        fine = Fine(amount=amount, currency=r.get(fines, "currency", "regulations.fines.currency", str,
                                                  default="USD"))
    scoring = r.choice(regs, "scoring", "regulations.scoring", SCORING_SYSTEMS, default="standard")
    tb = r.get(regs, "tiebreaks", "regulations.tiebreaks", dict, default={})
    order = r.get(tb, "order", "regulations.tiebreaks.order", list, default=[])
    for code in order:
        if not isinstance(code, str):
            r.fail("regulations.tiebreaks.order", f"tie-break codes are text, not {code!r}")
        try:
            parse_spec(code)
        except ValueError as exc:
            r.fail("regulations.tiebreaks.order", f"{exc} (FIDE C.07 codes, docs/tiebreaks.md)")
    classical_only = r.get(tb, "classical_only", "regulations.tiebreaks.classical_only", bool, default=False)
    po = r.get(regs, "playoff", "regulations.playoff", dict, default={})
    playoff = r.choice(po, "rule", "regulations.playoff.rule", PLAYOFF_RULES, default="none")
    pz = r.get(regs, "prizes", "regulations.prizes", dict, default={})
    amounts = r.get(pz, "amounts", "regulations.prizes.amounts", list, default=[])
    for a in amounts:
        if isinstance(a, bool) or not isinstance(a, int) or a < 0:
            r.fail("regulations.prizes.amounts", f"amounts are whole non-negative numbers, not {a!r}")
    prizes = Prizes(amounts=tuple(amounts),
                    currency=r.get(pz, "currency", "regulations.prizes.currency", str, default="USD"),
                    sharing=r.choice(pz, "sharing", "regulations.prizes.sharing", PRIZE_SHARING,
                                     default="tiebreak"),
                    withhold_after_forfeit=r.get(pz, "withhold_after_forfeit",
                                                 "regulations.prizes.withhold_after_forfeit", bool,
                                                 default=False))
    arm = r.get(regs, "armageddon", "regulations.armageddon", dict, default={})
    after_draw = r.get(arm, "after_draw", "regulations.armageddon.after_draw", bool, default=False)
    tol = r.duration(regs, "clock_tolerance", "regulations.clock_tolerance", default=2000)
    ballot_first = r.get(regs, "ballot_moves_before_clock", "regulations.ballot_moves_before_clock", bool,
                         default=False)
    period_added = r.choice(regs, "period_added", "regulations.period_added", PERIOD_ADDED, default="on_move")
    appendix = dict(APPENDIX_DEFAULT)
    app = r.get(regs, "appendix", "regulations.appendix", dict, default={})
    for k in app:
        if k not in APPENDIX_PARTS:
            r.fail(f"regulations.appendix.{k}", "unknown kind of game (rapid or blitz: FIDE Laws Appendices A, B)")
        appendix[k] = r.choice(app, k, f"regulations.appendix.{k}", APPENDIX_PARTS[k])
    guidelines_iii = r.get(regs, "guidelines_iii", "regulations.guidelines_iii", bool, default=False)
    timers = r.get(regs, "move_timers", "regulations.move_timers", list, default=None)
    for name in timers or ():
        if name not in MOVE_TIMERS:
            r.fail("regulations.move_timers", f"unknown move timer {name!r} (expected {', '.join(MOVE_TIMERS)})")
    rules = _rules(r, regs, {"draw_offers": d, "default_time": dt, "fines": fines, "armageddon": arm})
    return Regulations(draw_offers=DrawOfferPolicy(policy, min_moves, frozenset(exempt)),
                       default_time_ms=default_time, fine_not_at_board=fine, scoring=scoring,
                       tiebreaks=tuple(order), tiebreaks_classical_only=classical_only,
                       playoff=playoff, prizes=prizes, armageddon_after_draw=after_draw,
                       clock_tolerance_ms=tol, ballot_moves_before_clock=ballot_first, rules=rules,
                       period_added=period_added, appendix=appendix, guidelines_iii=guidelines_iii,
                       move_timers=None if timers is None else tuple(timers))


def _rules(r: _Reader, regs: dict, tables: dict[str, dict]) -> dict[str, str]:
    """The event's quoted rules: ``[regulations.rules]`` (key -> quote) and ``rule`` beside a setting
    (``draw_offers``, ``default_time``, ``fines``, ``armageddon``; ``armageddon.draw_rule``)."""
    out: dict[str, str] = {}
    table = r.get(regs, "rules", "regulations.rules", dict, default={})
    for key in table:
        if key not in RULE_KEYS:
            r.fail(f"regulations.rules.{key}", f"unknown rule (expected one of {', '.join(RULE_KEYS)})")
        out[key] = r.get(table, key, f"regulations.rules.{key}", str)
    for name, t in tables.items():
        if "rule" in t:
            out[name] = r.get(t, "rule", f"regulations.{name}.rule", str)
    if "draw_rule" in tables["armageddon"]:
        out["armageddon_draw"] = r.get(tables["armageddon"], "draw_rule", "regulations.armageddon.draw_rule", str)
    for key, text in out.items():
        if not text.strip():
            r.fail(f"regulations.rules.{key}", "a quoted rule must not be empty")
    return out


def _arbiters(r: _Reader, rows: list) -> tuple[ArbiterAccount, ...]:
    out: list[ArbiterAccount] = []
    for i, row in enumerate(rows):
        p = f"arbiters[{i}]"
        if not isinstance(row, dict):
            r.fail(p, "must be an [[arbiters]] table")
        login = r.get(row, "login", f"{p}.login", str, required=True)
        ph = r.get(row, "password_hash", f"{p}.password_hash", str)
        pe = r.get(row, "password_env", f"{p}.password_env", str)
        if "password" in row:
            r.fail(f"{p}.password", "plain passwords are not accepted: give password_hash "
                   "(`venue hash-password`) or password_env")
        if ph is None and pe is None:
            r.fail(p, "needs password_hash or password_env")
        if ph is not None and not ph.startswith("$argon2"):
            r.fail(f"{p}.password_hash", "is not an argon2 hash (make one with `venue hash-password`)")
        out.append(ArbiterAccount(login=login, name=r.get(row, "name", f"{p}.name", str, default=""),
                                  password_hash=ph, password_env=pe))
    return tuple(out)
