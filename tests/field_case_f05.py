"""Field case F05 (a) (../shared/cases/field-cases.md) on a ``hall_driver.Driver``, for the tests of
completed illegal moves (test_gateway_illegal_moves, test_press_order_penalty): e2e4, e7e5, e1e3 (an
illegal king jump), White presses: FIDE Laws 7.5.1 "An illegal move is completed once the player has
pressed his/her clock".

``tests/`` is on ``sys.path`` (see live_helpers.py): ``from field_case_f05 import f05``.
"""

from __future__ import annotations

from hall_driver import Driver


def f05(d: Driver, white_ms: int, black_ms: int) -> None:
    """F05 (a) up to the press that completes the illegal move."""
    d.clock("1", "start", white_ms, black_ms, "white")
    d.move("1", "e2e4")
    d.clock("1", "press", white_ms - 1000, black_ms, "black")
    d.move("1", "e7e5")
    d.clock("1", "press", white_ms - 1000, black_ms - 1000, "white")
    d.move("1", "e1e3")
    d.clock("1", "press", white_ms - 3000, black_ms - 1000, "black")
