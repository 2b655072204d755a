"""Round rules of the 2017 11-Man National (checkers-11-man-national-2017.txt) that are not timing:
late starts, adjudication, the match clock choice and the forfeits a flag fall brings. Pure.
"""

from __future__ import annotations

from dataclasses import dataclass

MINUTE = 60_000
LATEST_START_BEFORE_END_MS = 30 * MINUTE


def late_start_draw(round_end_ms: int, game_started_ms: int | None, now_ms: int) -> bool:
    """X.B.e: "No game shall be started later than 30 minutes before a round time is scheduled to
    end. Any game, not started in accordance with this rule, shall be declared drawn." True when the
    game must be declared drawn: it started after that limit, or has not started and the limit passed."""
    limit = round_end_ms - LATEST_START_BEFORE_END_MS
    if game_started_ms is None:
        return now_ms > limit
    return game_started_ms > limit


def late_start_due_at(round_end_ms: int, game_started_ms: int | None) -> int | None:
    """The earliest instant (ms) at which ``late_start_draw`` can turn true by time alone: one ms
    past the latest start (30 minutes before the round's scheduled end, X.B.e) for a game not
    started; None for a game started (settled by when it started)."""
    if game_started_ms is None:
        return round_end_ms - LATEST_START_BEFORE_END_MS + 1
    return None


@dataclass(frozen=True)
class Adjudication:
    """X.B.d: "the Referee shall appoint an Adjudication Committee of three expert players to
    adjudicate the result of an unfinished game ... An adjudication win can only be awarded by
    unanimous vote of the Committee." ``members``: the three; ``votes``: member -> "black",
    "white" or "draw"; ``result``: the decided result (checkers PDN: first figure Black's)."""

    members: tuple[str, str, str]
    votes: dict
    result: str
    unanimous: bool

    def to_json(self) -> dict:
        return {"members": list(self.members), "votes": dict(self.votes), "result": self.result,
                "unanimous": self.unanimous, "binding": True,
                "rule": "11-Man National 2017 X.B.d: adjudication decisions are binding and final"}


def adjudicate(members: list[str], votes: dict[str, str]) -> Adjudication:
    """The committee's decision. A win needs all three votes for the same side; anything else is a
    draw. Raises ValueError unless there are exactly three distinct members, each voting "black",
    "white" or "draw"."""
    if len(members) != 3 or len(set(members)) != 3:
        raise ValueError("an adjudication committee has three different members (X.B.d)")
    first, second, third = members
    if set(votes) != set(members):
        raise ValueError("every committee member votes, and only they")
    for m, v in votes.items():
        if v not in ("black", "white", "draw"):
            raise ValueError(f"{m}: a vote is black, white or draw, not {v!r}")
    values = set(votes.values())
    unanimous = len(values) == 1
    winner = next(iter(values)) if unanimous and values != {"draw"} else None
    result = {"black": "1-0", "white": "0-1", None: "1/2-1/2"}[winner]
    return Adjudication((first, second, third), dict(votes), result, unanimous)


RULE_CLOCK_CHOICE = ("11-Man National 2017 X.A.a: \"1) At beginning of the round, 90 minutes will be set on both "
                     "players' side of the clock. Or 2) ... 80 minutes + 10-second increment ... If the players "
                     "cannot mutually agree on which of these time options to use, then the decision shall be "
                     "decided at random (e. g., coin flip).\"")


@dataclass(frozen=True)
class ClockChoice:
    """X.A.a: the match clock option: "90" (90 minutes) or "80+10" (80 minutes + 10 s a press),
    ``how``: "agreed" or "coin flip"; ``coin``: the flip's face when flipped (recorded)."""

    option: str
    how: str
    coin: str | None = None

    @property
    def control_spec(self) -> dict:
        """The tournament-file spec of the chosen match clock (services.regulations.controls)."""
        if self.option == "90":
            return {"white": "90m", "black": "90m", "match_clock": True}
        return {"white": "80m", "black": "80m", "increment": "10s", "match_clock": True}


def choose_match_clock(first: str | None, second: str | None, coin: str | None = None) -> ClockChoice:
    """X.A.a: "If the players cannot mutually agree on which of these time options to use, then the
    decision shall be decided at random (e. g., coin flip)." ``first``/``second``: each player's
    wish ("90" or "80+10"); ``coin``: "heads" (90 minutes) or "tails" (80+10), flipped by the
    referee and passed in, needed only when they disagree. Raises ValueError on other values or a
    missing flip."""
    for wish in (first, second):
        if wish not in ("90", "80+10", None):
            raise ValueError(f"a match clock option is '90' or '80+10', not {wish!r}")
    if first is not None and first == second:
        return ClockChoice(first, "agreed")
    if coin not in ("heads", "tails"):
        raise ValueError("the players disagree: the referee's coin flip (heads = 90, tails = 80+10) decides")
    return ClockChoice("90" if coin == "heads" else "80+10", "coin flip", coin)


def flag_forfeits(game_index: int, next_started: bool) -> list[int]:
    """X.A.b: "A player whose time expires forfeits the current game, as well as the next game if not
    started." ``game_index``: 0 or 1 within the match. Returns the indexes of the games forfeited."""
    if game_index == 0 and not next_started:
        return [0, 1]
    return [game_index]
