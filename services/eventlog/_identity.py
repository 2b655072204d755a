"""What one EventLog instance knows of its log, and the check every backend runs against the store.

An instance remembers the log's epoch (once it has seen one) and the highest seq it has seen (its
own appends, reads, follows). When the store later shows another epoch, none, or fewer entries, the
log was replaced or rolled back under it (base.py, "Identity"): ``LogReplaced``, and the instance
stays refused, so no writer carries on over a log it does not recognise and no reader silently skips
reused seqs.
"""

from __future__ import annotations

import re

from services.eventlog.base import Entry, LogReplaced

_EPOCH = re.compile(r"[0-9A-Za-z_.:-]{1,64}")  # new_epoch() gives 32 hex digits


class Identity:
    """``epoch`` (str or None: not seen yet) and ``seq`` (highest seq seen, 0 at first) of one log.

    ``where`` names the store in messages (``"venue:{t}:log at redis://..."``).
    """

    def __init__(self, where: str):
        self.where = where
        self.epoch: str | None = None
        self.seq = 0
        self.refused: LogReplaced | None = None

    def expectations(self, expect_epoch: str | None, known_seq: int) -> tuple[str | None, int]:
        """What a write must find: the caller's epoch, else this instance's; and the higher of the
        caller's and this instance's seq. Raises ValueError for a bad ``known_seq`` or
        ``expect_epoch``, the stored
        ``LogReplaced`` once refused, and LogReplaced when the caller's epoch is not the one seen."""
        if isinstance(known_seq, bool) or not isinstance(known_seq, int) or known_seq < 0:
            raise ValueError(f"known_seq must be an int >= 0, got {known_seq!r}")
        if expect_epoch is not None and (not isinstance(expect_epoch, str)
                                         or not _EPOCH.fullmatch(expect_epoch)):
            raise ValueError(f"expect_epoch must be an epoch as epoch() gives it, got {expect_epoch!r:.80}")
        if self.refused is not None:
            raise self.refused
        if expect_epoch is not None and self.epoch is not None and expect_epoch != self.epoch:
            self._refuse(f"the caller expects epoch {expect_epoch}", expect_epoch, self.epoch, None,
                         sticky=False)
        return (expect_epoch or self.epoch), max(known_seq, self.seq)

    def snapshot(self) -> tuple[str | None, int]:
        """(epoch, seq) known now: take it before sending a call to the store and pass it to
        ``check`` with the reply, since replies to concurrent calls may arrive out of order."""
        return self.epoch, self.seq

    def check(self, found_epoch: str | None, found_seq: int | None,
              expect_epoch: str | None = None, before: tuple[str | None, int] | None = None) -> None:
        """Compare the store (its epoch and last seq; ``found_seq`` None when not read) with what
        this instance knew when the call was sent (``before``, from ``snapshot``; default now),
        then with ``expect_epoch`` if given; raise LogReplaced if they disagree, else adopt the
        epoch. A disagreement with what this instance saw is remembered (every later call raises
        it); one with the caller's ``expect_epoch`` only is not."""
        if self.refused is not None:
            raise self.refused
        known_epoch, known_seq = before if before is not None else self.snapshot()
        if found_epoch is not None and self.epoch is not None and found_epoch != self.epoch:
            self._refuse("its epoch changed", self.epoch, found_epoch, found_seq)
        if found_epoch is None and known_epoch is not None:
            self._refuse("its epoch vanished (the log was lost)", known_epoch, None, found_seq)
        if found_seq is not None and found_seq < known_seq:
            self._refuse(f"it went back to seq {found_seq}", known_epoch, found_epoch, found_seq)
        if expect_epoch is not None and found_epoch != expect_epoch:
            self._refuse(f"the caller expects epoch {expect_epoch}", expect_epoch, found_epoch,
                         found_seq, sticky=False)
        if found_epoch is not None:
            self.epoch = found_epoch
        if found_seq is not None:
            self.seq = max(self.seq, found_seq)

    def saw(self, seq: int) -> None:
        """Record that an entry with ``seq`` was stored (appended or read)."""
        if seq > self.seq:
            self.seq = seq

    def check_entry(self, last: Entry, found: Entry | None, found_epoch: str | None) -> None:
        """A follower's continuity check: ``found`` (the store's entry at ``last.seq`` now) must be
        the entry it yielded; else the log was rolled back (and maybe written past that point)."""
        if found != last:
            what = "no longer has it" if found is None else "holds another entry there"
            self._refuse(f"entry {last.seq} was read before and the store {what}", self.epoch,
                         found_epoch, None)

    def refuse(self, reason: str, found_epoch: str | None, found_seq: int | None,
               expected: str | None = None) -> None:
        """Raise (and remember) LogReplaced for ``reason``, found by a backend's own check."""
        self._refuse(reason, expected or self.epoch, found_epoch, found_seq)

    def _refuse(self, reason: str, expected: str | None, found: str | None,
                found_seq: int | None, sticky: bool = True) -> None:
        exc = LogReplaced(
            f"event log {self.where} is not the log this process knew (epoch {expected}, "
            f"{self.seq} entries seen): {reason} (store: epoch {found}"
            + (f", last seq {found_seq})" if found_seq is not None else ")")
            + "; refusing to go on: restore the right log or start a new one on purpose",
            expected_epoch=expected, found_epoch=found, known_seq=self.seq, found_seq=found_seq)
        if sticky:
            self.refused = exc
        raise exc

    def refusal(self, found_epoch: str | None, found_seq: int, expect_epoch: str | None,
                known_seq: int) -> LogReplaced:
        """The exception for a submission the store refused (its epoch was not ``expect_epoch`` or
        it held fewer than ``known_seq`` entries, both as merged by ``expectations`` when it was
        submitted): remembered when the store contradicts what this instance saw, not when only
        the caller's own expectation failed."""
        if self.refused is not None:
            return self.refused
        try:
            self.check(found_epoch, found_seq, expect_epoch, before=(self.epoch, min(self.seq, known_seq)))
        except LogReplaced as exc:
            return exc
        try:
            self._refuse(f"the caller has seen seq {known_seq}", expect_epoch, found_epoch, found_seq,
                         sticky=False)
        except LogReplaced as exc:
            return exc
        raise AssertionError("unreachable")  # pragma: no cover
