"""gateway.service._storable: an entry the store refuses is replaced by a ``message_rejected``, the
rest of the batch kept (its docstring; docs/protocol.md: "Bad input of any kind never stops the
gateway or other boards"). Found by the type check (issue 10): an entry without a board raised
AttributeError in the handler meant to save the batch."""

from __future__ import annotations

from gateway.service import _storable
from services.events import MessageRejected


def test_a_refused_entry_without_a_board_is_replaced_and_the_rest_kept():
    batch = [("move_played", {"board": "1", "ply": 1}, 10), ("tournament_registered", {"name": "\ud800"}, 11)]
    out = _storable(batch, 1)
    assert out[0] == batch[0]
    type_, data, at = out[1]
    assert (type_, data["board"], at) == (MessageRejected.TYPE, None, 11)
    assert "'tournament_registered' entry could not be stored" in data["reason"]


def test_the_board_is_kept_when_the_store_can_hold_it():
    [(type_, data, _at)] = _storable([("move_played", {"board": "7", "move": "\ud800"}, 5)], 0)
    assert (type_, data["board"]) == (MessageRejected.TYPE, "7")


def test_a_board_label_the_store_cannot_hold_is_dropped():
    [(_type, data, _at)] = _storable([("move_played", {"board": "\ud800"}, 5)], 0)
    assert data["board"] is None
