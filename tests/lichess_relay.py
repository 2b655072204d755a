"""How lichess's relay keeps a polled game with its chapter, after lichess-org/lila
``modules/relay`` (``RelayUpdatePlan``, ``RelayGame``), in our words, as a test oracle:

- when both the polled game and the chapter carry a ``GameId`` tag, that decides;
- else they must share ``Event`` and ``Site``, the round number (``Round`` up to its first dot) and
  the board number (``Board``, else ``Round``'s part after the dot), and the players: by
  ``WhiteFideId`` and ``BlackFideId`` when both have both, else by ``White`` and ``Black``.

``older=True`` is lila's earlier rule, without GameId and board number (it reordered boards freely).
A polled game that matches no chapter becomes a new chapter (lichess appends one)."""

from __future__ import annotations


def _round(tags: dict) -> str:
    return (tags.get("Round") or "").split(".")[0]


def _board(tags: dict) -> str:
    if tags.get("Board"):
        return tags["Board"]
    parts = (tags.get("Round") or "").split(".")
    return parts[1] if len(parts) > 1 else ""


def same_game(game: dict, chapter: dict, older: bool = False) -> bool:
    if not older and game.get("GameId") and chapter.get("GameId"):
        return game["GameId"] == chapter["GameId"]
    if any(game.get(t) != chapter.get(t) for t in ("Event", "Site")) or _round(game) != _round(chapter):
        return False
    if not older and _board(game) != _board(chapter):
        return False
    ids = ("WhiteFideId", "BlackFideId")
    if all(game.get(t) for t in ids) and all(chapter.get(t) for t in ids):
        return all(game[t] == chapter[t] for t in ids)
    return game.get("White") == chapter.get("White") and game.get("Black") == chapter.get("Black")


class Study:
    """A broadcast round's chapters: ``[{"tags": {...}, "moves": [uci, ...]}, ...]``."""

    def __init__(self, older: bool = False):
        self.chapters: list[dict] = []
        self.older = older

    def update(self, games: list[tuple[dict, list[str]]]) -> None:
        """One poll: each ``(tags, moves)`` updates the chapter it matches, or is appended."""
        for tags, moves in games:
            hit = next((c for c in self.chapters if same_game(tags, c["tags"], self.older)), None)
            if hit is None:
                self.chapters.append({"tags": dict(tags), "moves": list(moves)})
            else:
                hit["tags"], hit["moves"] = dict(tags), list(moves)
