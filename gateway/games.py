"""The rules core behind each hall board: ``services.rules.replay`` (``new_game``, ``replay``,
``Continued``), named here for the gateway's modules that import it from here."""

from services.rules.replay import Continued, new_game, replay  # noqa: F401
