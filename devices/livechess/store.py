"""The bridge's memory across its own restarts: for each hall board, the last ``seq`` used by its
board and by its clock (docs/protocol.md: a device's ``seq`` rises by one with each message, and a
restarted device must not start again at 1 within a round), what was last sent (``Reading``) and
every message the gateway has not yet confirmed stored (docs/protocol.md "Delivery": a device keeps
them and sends them again with the same ``seq`` until its feedback says so; a bridge restarted after
a broker lost them sends them again).

A JSON file, rewritten whole (temporary file, rename) *before* each message goes out: a seq is
never used twice, even when the bridge dies between writing and sending (the message is then
missing, and the gateway's ``seq_gap`` after 5 s says so; a reused seq would be worse: the gateway
would take the new message for the one already applied). The file is not fsynced (5 ms a message on
the development machine's disk, against ~0.1 ms): it survives the bridge's death, not a power cut
of the hall computer; after one, start the bridge with ``--seq-jump 1000`` (``jump``): the gateway
records one ``seq_gap`` per device and applies what follows (docs/boards.md). Shape::

    {"tournament": SLUG, "round": TEXT|null,
     "boards": {BOARD: {"seq": {"board": N, "clock": N}, "reading": READING,
                        "unconfirmed": {"board": {SEQ: [KIND, BODY]}, "clock": {SEQ: [KIND, BODY]}}}}}

A confirmation is written when it comes; a bridge that dies between the gateway's feedback and that
write sends the message again, and the gateway answers it as a duplicate.

A new round starts every board's seqs again at 1 (docs/protocol.md): the bridge is started with
``--round N``; a file of another round (or tournament) is set aside, renamed ``*.old``.
"""

from __future__ import annotations

import json
import os
from pathlib import Path

from devices.livechess.translate import Reading


class SeqStore:
    """Seqs and readings of ``tournament``'s boards in ``path``, for ``round`` (None: whatever the
    file holds). Raises OSError when the file cannot be read or written, ValueError when it is not
    a state file."""

    def __init__(self, path: Path | str, tournament: str, round: str | None = None):
        self.path = Path(path)
        self.tournament, self.round = tournament, round
        self.boards: dict[str, dict] = {}
        if self.path.exists():
            data = json.loads(self.path.read_text(encoding="utf-8"))
            if not isinstance(data, dict) or not isinstance(data.get("boards"), dict):
                raise ValueError(f"{self.path}: not a LiveChess bridge state file")
            if data.get("tournament") == tournament and (round is None or data.get("round") == round):
                self.boards = data["boards"]
                self.round = data.get("round") if round is None else round
            else:
                os.replace(self.path, self.path.with_name(self.path.name + ".old"))

    def _board(self, board: str) -> dict:
        return self.boards.setdefault(board, {"seq": {"board": 0, "clock": 0}, "reading": {}})

    def last(self, board: str, device: str) -> int:
        """The last seq ``device`` ("board"/"clock") of ``board`` used (0: none)."""
        return int(self._board(board)["seq"].get(device, 0))

    def reading(self, board: str) -> Reading:
        """What was last sent for ``board``."""
        return Reading.from_json(self._board(board).get("reading"))

    def take(self, board: str, device: str, reading: Reading, message: tuple[str, dict] | None = None) -> int:
        """The next seq of ``device`` on ``board``, written to the file with ``reading`` (and
        ``message`` ``(kind, body)``, kept as unconfirmed under that seq) before it is used."""
        entry = self._board(board)
        seq = int(entry["seq"].get(device, 0)) + 1
        entry["seq"][device] = seq
        entry["reading"] = reading.to_json()
        if message is not None:
            entry.setdefault("unconfirmed", {}).setdefault(device, {})[str(seq)] = list(message)
        self._write()
        return seq

    def confirm(self, board: str, device: str, seq: int) -> None:
        """The gateway stored ``device``'s message ``seq`` of ``board``: forget it (written at once:
        LiveChess's events come in bursts faster than the links send, so the confirmations of a
        burst all come after its last message)."""
        if self._board(board).get("unconfirmed", {}).get(device, {}).pop(str(seq), None) is not None:
            self._write()

    def unconfirmed(self, board: str) -> list[tuple[str, int, str, dict]]:
        """``[(device, seq, kind, body), ...]`` of ``board`` not yet confirmed, each device's in seq order."""
        kept = self._board(board).get("unconfirmed", {})
        return [(device, int(seq), kind, body) for device in sorted(kept)
                for seq, (kind, body) in sorted(kept[device].items(), key=lambda kv: int(kv[0]))]

    def remember(self, board: str, reading: Reading) -> None:
        """Keep ``reading`` (a status change: no seq used)."""
        self._board(board)["reading"] = reading.to_json()
        self._write()

    def jump(self, by: int, boards: list[str]) -> None:
        """Move ``boards``' seqs ``by`` ahead (after a power cut may have lost the last writes)."""
        for entry in (self._board(b) for b in boards):
            for device in ("board", "clock"):
                entry["seq"][device] = int(entry["seq"].get(device, 0)) + by
        self._write()

    def _write(self) -> None:
        data = {"tournament": self.tournament, "round": self.round, "boards": self.boards}
        tmp = self.path.with_name(self.path.name + ".tmp")
        text = json.dumps(data, separators=(",", ":"))  # dumps: the C encoder (dump to a file is Python's)
        with open(tmp, "w", encoding="utf-8") as f:
            f.write(text)
        os.replace(tmp, self.path)
