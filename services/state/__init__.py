"""THE fold of the event log (``fold.HallState``) and the state it keeps (``model``); see ``fold``.

The package assembles the fold: ``fold`` holds the reducer and its table of handlers, each ``fold_*``
module registers its handlers in it (``@folds``), and the imports below load every one of them, so
the fold is whole as soon as anything of ``services.state`` is imported.
"""

from services.state.changes import Changes  # noqa: F401
from services.state.fold import HallState  # noqa: F401
from services.state.model import BoardState, DeviceSeq, GameState, Pending, Proposal, RoundState, Timer  # noqa: F401
from services.state import (fold_analysis, fold_board, fold_clock, fold_correction, fold_draft, fold_games, fold_moves,  # noqa: F401
                            fold_notes, fold_pairing, fold_penalties, fold_playoff, fold_results, fold_round)
