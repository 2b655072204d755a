"""The command line's one kind of failure, ``CliError``, and reading a file named on it.

Its own small module, below every command (``venue.serve``, ``venue.start_up``, ``venue.tournament``,
the demos and ``venue bridge``): they all raise it and ``venue.cli.main`` prints it, so none of them
imports another for it (they did: serve <-> start_up <-> tournament, issue 26).
"""

from __future__ import annotations


class CliError(Exception):
    """A failure the user can fix (bad URL, unreachable service, missing file, busy port): the
    command prints the message and exits with code 2."""


def read_text(path: str) -> str:
    """The UTF-8 text of ``path``; CliError when it is missing or unreadable."""
    try:
        with open(path, encoding="utf-8") as f:
            return f.read()
    except FileNotFoundError:
        raise CliError(f"file not found: {path}") from None
    except (OSError, UnicodeDecodeError) as exc:
        raise CliError(f"cannot read {path}: {getattr(exc, 'strerror', None) or exc}") from None


def round_number(value: int, option: str) -> int:
    """``value`` given to ``option`` as a round's number (``--round N``, ``venue round ... N``) when
    there is such a round: rounds are numbered from 1 (README: "``--round N`` pairs and starts round
    N"; FIDE's TRF numbers them 1..). CliError naming ``option`` for 0 or less, before anything is read
    or written (a new user's ``--round 0`` started round 1)."""
    if value < 1:
        raise CliError(f"{option}: {value} is not a round number: rounds are numbered from 1")
    return value
