"""A device's end-to-end acknowledgement (``devices.feedback.Outbox``; docs/protocol.md "End-to-end
acknowledgement", issue 28): a message is done when the gateway's feedback answers it (``ref`` its
seq, ``device`` whose), a ``resend_from`` answer confirms nothing, and feedback of another round is
ignored (round 2's station was handed round 1's queued answers on round 1's kept session)."""

from __future__ import annotations

import asyncio
import json

from devices.feedback import Outbox


def answer(ref, device="board", round="2", **more) -> str:
    """A feedback payload as docs/protocol.md "Feedback" gives it."""
    return json.dumps({"ref": ref, "device": device, "accepted": True, "reason": None, "fen": None,
                       "round": round, **more})


def kept(outbox: Outbox) -> list[tuple[str, int]]:
    return list(outbox.unconfirmed)


async def test_only_this_rounds_answers_confirm_and_the_round_is_learned_from_the_first():
    outbox = Outbox(learn_round=True)
    for device, seq in (("clock", 1), ("board", 1), ("board", 2)):
        outbox.keep(device, seq, (f"t/{device}", f'{{"seq":{seq}}}'))
        outbox.sent(device, seq)
    feedback: list = []
    resent: list = []

    async def resend(device, first):
        resent.append((device, first))

    tasks: set = set()
    outbox.take(answer(1, round="2"), feedback, resend, tasks)  # round 2's answer to board 1: learned
    assert outbox.round == "2" and kept(outbox) == [("clock", 1), ("board", 2)]
    outbox.take(answer(1, "clock", round="1"), feedback, resend, tasks)  # round 1's, queued in the session
    outbox.take(answer(2, round="1", resend_from=1), feedback, resend, tasks)
    assert kept(outbox) == [("clock", 1), ("board", 2)] and outbox.ignored == 2 and not tasks
    outbox.take(answer(2, round="2", reason="waiting for missing seq: send again from seq 1", resend_from=1),
                feedback, resend, tasks)  # held behind a hole: not stored yet, sent again
    await asyncio.gather(*tasks)
    assert resent == [("board", 1)] and kept(outbox) == [("clock", 1), ("board", 2)]
    assert outbox.waiting() == [("clock", 1), ("board", 2)]  # what a reconnect sends again, in order
    assert not await outbox.settled(0.01)
    outbox.take(answer(1, "clock", accepted=False, reason="bad clock figure: ..."), feedback, resend, tasks)
    outbox.take(answer(2), feedback, resend, tasks)  # refused or accepted, an answer is an answer
    assert kept(outbox) == [] and await outbox.settled(0.01)
    assert [f["round"] for f in feedback] == ["2", "2", "2", "2"]


def test_a_device_told_its_round_ignores_the_others_and_an_answer_without_round_is_taken():
    outbox = Outbox(round="5")
    outbox.keep("board", 7, ("t/move", '{"seq":7}'))
    feedback: list = []
    outbox.take(answer(7, round="4"), feedback, None, set())
    assert kept(outbox) == [("board", 7)] and feedback == []
    outbox.take(answer(7, round=None), feedback, None, set())  # a gateway before issue 28 names no round
    assert kept(outbox) == [] and len(feedback) == 1


def test_quiet_is_true_once_nothing_was_answered_while_messages_wait():
    outbox = Outbox()
    assert not outbox.quiet()  # nothing waits
    outbox.keep("board", 1, ("t/move", "{}"))
    assert not outbox.quiet()  # kept, not yet published: its own send loop has it
    outbox.sent("board", 1)
    outbox.keep("board", 2, ("t/move", "{}"))
    outbox.sent("board", 2)
    assert outbox.quiet()
    outbox.confirm("board", 1)
    assert not outbox.quiet()  # an answer came since the last look
    assert outbox.quiet()
