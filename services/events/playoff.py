"""Entries of the event's end (docs/events.md "Play-off"): a play-off stage started as a round of
games on boards, the 2013 Armageddon bid, the Norway pairing-number choice in the order of the Blitz
tournament. A drawing of lots is ``lots_drawn`` (``tournament.py``) with a play-off ``purpose``.

Each is written by an arbiter's action (``dashboard/arbiter/actions/playoff.py``) that checks it
against the regulations first (``services.tournament.playoff_walk``); the fold only records.
"""

from __future__ import annotations

from typing import Literal

import msgspec

from .base import Event, entry
from .tournament import RoundStarted


@entry("playoff_stage_started")
class PlayoffStageStarted(RoundStarted, kw_only=True):
    """Stage ``stage`` (1-based) of the play-off for first place, started as round ``round``
    ("P{stage}") of games on hall boards: every field of ``round_started`` (its games' SETUPs, ids
    "P{stage}-{board}.{game}", ``kind`` rapid/blitz/armageddon, ``time_control`` the stage's), so
    the gateway records its games like any game; and ``name`` (the regulation's, "blitz match"),
    ``stage_kind`` ("match", "round-robin", "double-round-robin", "armageddon"), ``game_rounds``
    (each game's round within the stage: a match's game 1 and 2, a round robin's Berger round; the
    games of a board are played in this order), ``players`` (start
    numbers in it), ``tied`` (the players tied for first after the last round, best first by the
    main tie-breaks), ``regulation`` ("norway-2023", "us-2013", "us-2023"), ``rule`` (the
    regulation's words), ``by`` (the arbiter)."""

    KEEP = ("stage", "players", "tied")

    stage: int
    name: str = ""
    stage_kind: str = ""
    game_rounds: list[int] = []
    players: list[int] = []
    tied: list[int] = []
    regulation: str = ""
    rule: str = ""
    by: str | None = None
    note: str | None = None


class Bid(msgspec.Struct, kw_only=True):
    """One player's bid: ``start_no`` and ``ms`` (the time he is willing to start with)."""

    start_no: int
    ms: int


@entry("armageddon_bid")
class ArmageddonBid(Event, kw_only=True):
    """The Armageddon bidding of US Championship 2013 ("Each Player shall bid an amount of time ...
    equal to or less than 45:00"), for the Armageddon game between ``players`` of play-off stage
    ``stage``: both ``bids``; ``coin_toss_winner`` when the bids are equal ("the Chief Arbiter will
    flip a coin to determine who shall choose their color"); ``chooser`` (the lower bidder or the
    coin's winner) and the ``colour`` he chose; hence ``white``/``black`` (start numbers) and their
    starting times ``white_ms``/``black_ms`` (the chooser's bid, the other 45:00)."""

    KEEP = ("stage", "players", "bids", "chooser", "colour", "white", "black", "white_ms", "black_ms")

    stage: int
    players: list[int]
    bids: list[Bid]
    chooser: int
    colour: Literal["white", "black"]
    white: int
    black: int
    white_ms: int
    black_ms: int
    coin_toss_winner: int | None = None
    rule: str = ""
    by: str | None = None
    note: str | None = None


@entry("blitz_order_recorded")
class BlitzOrderRecorded(Event, kw_only=True):
    """The Norway Blitz tournament's final order handed to the classical event: ``order`` (start
    numbers of the classical event, the Blitz winner first), ``source`` (where it comes from: the
    Blitz event's slug or its crosstable). "Players will take it in turns to choose their pairing
    number for the Classical tournament, starting with the Blitz tournament winner and proceeding in
    the order in which they finished in the Blitz tournament." (Norway Chess 2023)"""

    KEEP = ("order",)

    order: list[int]
    source: str = ""
    by: str | None = None
    note: str | None = None


@entry("pairing_number_chosen")
class PairingNumberChosen(Event, kw_only=True):
    """Player ``start_no``, whose turn it is in the Blitz order, chose pairing ``number`` of the
    Berger tables (FIDE C.05 Annex 1); ``turn`` (1 for the Blitz winner). Once every player has
    chosen, the classical rounds are paired by these numbers."""

    KEEP = ("start_no", "number", "turn")

    start_no: int
    number: int
    turn: int
    by: str | None = None
    note: str | None = None
