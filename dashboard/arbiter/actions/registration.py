"""Registration from the console (docs/tournament-log.md "Registration"): players imported from a
file or entered by hand before round 1 is drafted; ``players_registered`` gives everyone the start
numbers of FIDE C.04.2's initial order (rating, title, name). After that, a new player is a late
entry (``enter_player``)."""

from __future__ import annotations

from typing import Annotated

from msgspec import Meta

from services.arbiter_office.player_import import read_players, registration_entry

from .base import Action, ActionError, Context, action


def _entry(ctx: Context, text: str, filename: str, source: str | None, note: str | None) -> list[tuple[str, dict]]:
    if ctx.state is None:
        raise ActionError("the console has no folded state")
    try:
        players = read_players(text, filename)
        return [registration_entry(ctx.state, players, source, by=ctx.by, note=note).encode()]
    except ValueError as exc:
        raise ActionError(f"nothing registered: {exc}") from None


@action
class ImportPlayers(Action, tag="import_players", kw_only=True, frozen=True):
    """Players imported from a file's ``text`` (``filename`` says which file): a TRF16 file, a CSV
    file with a header row, or FIDE's rating-list text: ``players_registered``. A malformed file is
    refused with its file and line, and nothing is registered."""

    filename: Annotated[str, Meta(description="the file's name (players.csv, event.trf, ...)")]
    text: Annotated[str, Meta(description="the file's text")]

    def entries(self, ctx: Context) -> list[tuple[str, dict]]:
        name = self.filename.rsplit("/", 1)[-1][:200]
        return _entry(ctx, self.text, name, name, self.note)


@action
class RegisterPlayer(Action, tag="register_player", kw_only=True, frozen=True):
    """One player entered by hand before round 1 is drafted (``name``, ``rating``, ``title``,
    ``fide_id``, ``federation``): ``players_registered``."""

    name: Annotated[str, Meta(description="the player's name")]
    rating: int | str | None = None
    title: str | None = None
    fide_id: str | int | None = None
    federation: str | None = None

    def entries(self, ctx: Context) -> list[tuple[str, dict]]:
        cells = [self.name, self.rating, self.title, self.fide_id, self.federation]
        row = ";".join("" if c is None else str(c).replace(";", " ").replace("\n", " ") for c in cells)
        return _entry(ctx, f"Name;Rating;Title;FIDE ID;Fed\n{row}\n", "the form", None, self.note)
