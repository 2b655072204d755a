"""An alert in one sentence an arbiter can act on: who (side and player), what the rule says, and the
figures that triggered it (issue 27: a refused draw said only "agreement"; a default read "Black, :
lost by default").

``rule_of(kind, data)`` is the rule an alert applies: the entry's own quote (``rule``, ``law``: the event's
regulations from its tournament file, ``services.regulations.quotes``), else the FIDE Laws article the
alert's kind comes from (``KIND_RULES``; a game's end: its termination's, ``ENDING_RULES``). ``sentence(kind, data, game)`` is the alert's text for the kinds
whose figures the entry carries (None for the others: the console words them from the evidence). Pure.
"""

from __future__ import annotations

import re

from services.events.vocabulary import AlertKind, Termination

# the reason of a message under a seq another message used (gateway.hall ``_seq_reused``; docs/protocol.md
# "After a restart"): a device that counted again, not bad input
REUSED_SEQ = re.compile(r"seq \d+ was already used by ")

# The article each kind of alert applies when its entry quotes none (FIDE Laws of Chess 2023).
KIND_RULES: dict[str, str] = {
    AlertKind.DRAW_CLAIMABLE: "FIDE Laws 9.2, 9.3: a draw may be claimed by the player having the move",
    AlertKind.DRAW_CLAIM_REPORTED: "FIDE Laws 9.2, 9.3: the arbiter decides a claim",
    AlertKind.DRAW_OFFER_REFUSED: "FIDE Laws 9.1.1: the regulations may forbid draws by agreement",
    AlertKind.FLAG_FELL: "FIDE Laws 6.9: the flag has fallen; lost unless the opponent cannot checkmate",
    AlertKind.MOVE_REJECTED: "FIDE Laws 7.5.1: the position before the irregularity is reinstated",
    AlertKind.MOVE_PLAYED: "FIDE Laws A.5.2, B.3: an illegal move the opponent played on from stands",
    AlertKind.DEVICE_OFFLINE: "FIDE Laws 6.10: the arbiter replaces a defective clock",
    AlertKind.CLOCK_DISAGREEMENT: "FIDE Laws 6.10.2: the arbiter corrects an obvious clock setting error",
    AlertKind.PENALTY_PROPOSED: "FIDE Laws 7.5.5, 9.5.3: two minutes to the opponent; a second illegal move loses",
    AlertKind.PENALTY_WITHDRAWN: "FIDE Laws 7.5.1: an illegal move is completed once the clock is pressed",
    AlertKind.NOT_AT_BOARD: "FIDE Laws 6.7.1: a player arriving after the default time loses",
    AlertKind.SCORE_SHEET_DIFFERENCES: "FIDE Laws 8.1: the score sheet records the moves played",
    AlertKind.MESSAGE_REJECTED: "docs/protocol.md: bad device input is answered, recorded and alerted",
    AlertKind.SEQ_GAP: "docs/protocol.md: each device message is applied once and in order",
    AlertKind.RESULT_HELD: "docs/protocol.md: a game is never ended by a result sent after messages still missing",
    AlertKind.GATEWAY_DEAF: "deploy/README.md: the gateway hears its own probe through the broker, or says so",
}
# A game the Laws or the regulations ended (``game_ended``): the article of its termination.
ENDING_RULES: dict[str, str] = {
    Termination.FIVEFOLD_REPETITION: "FIDE Laws 9.6.1: the same position five times: the game is drawn",
    Termination.SEVENTYFIVE_MOVES: "FIDE Laws 9.6.2: 75 moves each without a capture or a pawn move: drawn",
    Termination.TIME_FORFEIT: "FIDE Laws 6.9: the flag has fallen; lost unless the opponent cannot checkmate",
    Termination.DEAD_POSITION: "FIDE Laws 5.2.2: a dead position: the game is drawn",
    Termination.INSUFFICIENT_MATERIAL: "FIDE Laws 5.2.2: a dead position: the game is drawn",
    Termination.FORFEIT: "FIDE Laws 6.7.1: a player arriving after the default time loses",
}
_SIDE = {"white": "White", "black": "Black"}


def rule_of(kind: str, data: dict) -> str | None:
    """The rule alert ``kind`` born from entry data ``data`` applies (the entry's quote first)."""
    quoted = data.get("rule") or data.get("law")
    if quoted:
        return str(quoted)
    if kind == AlertKind.GAME_ENDED:
        return ENDING_RULES.get(data.get("termination") or "")
    return KIND_RULES.get(kind)


def spoken(name: str) -> str:
    """A name as said: "Nepomniachtchi, Ian" (as PGN and FIDE write it) -> "Ian Nepomniachtchi"; other
    names as they are (the console's ``spoken``, dashboard/static/arbiter.js)."""
    parts = [p.strip() for p in name.split(",")]
    return f"{parts[1]} {parts[0]}" if len(parts) == 2 and all(parts) else name


def who(side: str | None, game) -> str:
    """"Black, Magnus Carlsen": the side and its player in ``game`` (a GameState or None)."""
    if side not in _SIDE:
        return ""
    name = spoken(game.player(side)) if game is not None else ""
    return f"{_SIDE[side]}, {name}" if name else _SIDE[side]


def sentence(kind: str, data: dict, game) -> str | None:
    """The alert's sentence with its figures, or None for a kind the console words itself."""
    if kind == AlertKind.DRAW_OFFER_REFUSED:
        moves = data.get("moves") or {}
        figures = (f" at White {moves.get('white')}, Black {moves.get('black')} moves"
                   if moves.get("white") is not None and moves.get("black") is not None else "")
        pair = f"{who('white', game)} and {who('black', game)}" if game is not None else "The players"
        return f"{pair} agreed a draw{figures}: refused, the game goes on ({rule_of(kind, data)})"
    if kind == AlertKind.FLAG_FELL and data.get("white_ms") is not None:
        return (f"{who(data.get('side'), game)}: flag fell (clock White {_ms(data['white_ms'])}, "
                f"Black {_ms(data.get('black_ms'))})")
    if kind == AlertKind.DEVICE_OFFLINE:
        players = f" ({who('white', game)} - {who('black', game)})" if game is not None else ""
        return f"Board {data.get('board')}{players}: the {data.get('device') or 'board'} is offline"
    if kind == AlertKind.MESSAGE_REJECTED and str(data.get("reason", "")).startswith("unknown board"):
        topic = str(data.get("topic") or "")
        if topic.endswith("/status"):
            return (f"Board {data.get('board')} has no game this round: its device's retained status is ignored "
                    f"(reported once)")
        what = topic.rpartition("/")[2] or "message"
        seq = f" (seq {data['seq']})" if data.get("seq") is not None else ""
        return (f"Board {data.get('board')} has no game this round: its {data.get('device') or 'board'}'s "
                f"{what} message{seq} was refused; check the board's number on the device")
    if kind == AlertKind.MESSAGE_REJECTED and REUSED_SEQ.match(str(data.get("reason", ""))):
        device = data.get("device") or "board"
        return (f"Board {data.get('board')}: the {device} sent seq {data.get('seq')} again with another message "
                f"(restarted its count mid-game?): its messages under used seqs are refused, and moves made "
                f"meanwhile are not in the record; the {device} must go on from its last seq "
                f"(docs/protocol.md \"After a restart\")")
    if kind == AlertKind.GATEWAY_DEAF:
        then = ("it reconnected with a fresh session and still hears nothing: it exits for its supervisor; "
                "restart the broker (Mosquitto before 2.0.13 keeps a dead session: deploy/README.md)"
                if data.get("fresh") else "it reconnects with a fresh session")
        return (f"Gateway deaf: the broker delivers nothing to {data.get('client_id')} "
                f"({data.get('unanswered')} probes unanswered): moves are not being recorded; {then}")
    return None


def _ms(ms) -> str:
    """A clock figure in ms as h:mm:ss."""
    if not isinstance(ms, int):
        return "?"
    s = max(ms, 0) // 1000
    return f"{s // 3600}:{s // 60 % 60:02d}:{s % 60:02d}"
