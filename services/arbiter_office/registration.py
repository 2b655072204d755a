"""Registering a tournament file on a log that may already hold the event (``venue serve`` and
``venue gateway`` started again: issue 10 "A restart forfeits the hall"). Pure.

:func:`registration` decides, from the log's latest ``tournament_registered`` data and the rounds in
play (:func:`rounds_in_play`):

- ``"first"``: the log registers no tournament yet: the file is registered as written;
- ``"unchanged"``: the file says what the log registered: nothing is appended, so a restart with the
  same file changes nothing;
- ``"changed"``: the file differs and no round is in play, or the organiser asked for it
  (``--accept-changes``): registered again with ``changes`` (``services.arbiter_office.tournament_changes``)
  and ``by`` "organiser", so the log says what changed and who wanted it;
- ``"refused"``: the file differs while a round is in play and the organiser did not ask: nothing is
  appended. Players, schedule, controls and regulations are what the games in play are judged by
  (the default time counts from the schedule, FIDE Laws 6.7.1; a draw ban, a time control); a file
  edited by mistake must not change them under the players.

A round is *in play* when its ``round_started`` is in the log and one of its games (an Armageddon
game or a checkers match's second game included) has not ended: its pairings are out and its games
are judged by the registered regulations, whether or not a move was made yet.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from services.arbiter_office.tournament_changes import registration_changes
from services.arbiter_office.tournament_log import tournament_registered_data
from services.regulations.model import Tournament

ORGANISER = "organiser"
"""``by`` of a registration the organiser asked for from the command line."""


@dataclass(frozen=True)
class Registration:
    """What to do with the tournament file: ``outcome`` ("first", "unchanged", "changed",
    "refused"), ``data`` the ``tournament_registered`` data to append (None when nothing is),
    ``changes`` the differences from the registered file, ``in_play`` the rounds in play (their
    numbers as in ``round_started``)."""

    outcome: str
    data: dict | None = None
    changes: list[dict] = field(default_factory=list)
    in_play: tuple[str, ...] = ()


def rounds_in_play(state) -> tuple[str, ...]:
    """The rounds of ``state`` (``services.state.HallState``) in play (module docstring), in the
    order they were set up."""
    return tuple(number for number, r in state.rounds.items()
                 if any(g in state.games and not state.games[g].ended for g in r.games))


def registration(registered: dict | None, t: Tournament, in_play: tuple[str, ...] = (),
                 accept_changes: bool = False) -> Registration:
    """The decision for tournament file ``t`` (module docstring). ``registered``: the data of the
    log's latest ``tournament_registered`` entry, as stored (None when there is none);
    ``in_play``: :func:`rounds_in_play`; ``accept_changes``: the organiser asked for a changed file
    to be registered while a round is in play."""
    filed = tournament_registered_data(t)
    if registered is None:
        return Registration("first", filed, in_play=in_play)
    changes = registration_changes(registered, filed)
    if not changes:
        return Registration("unchanged", in_play=in_play)
    if in_play and not accept_changes:
        return Registration("refused", changes=changes, in_play=in_play)
    return Registration("changed", {**filed, "changes": changes, "by": ORGANISER}, changes, in_play)
