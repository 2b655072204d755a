"""THE fold of the event log (``hall.HallState``) and the state it keeps (``model``); see ``hall``."""

from services.state.changes import Changes  # noqa: F401
from services.state.hall import HallState  # noqa: F401
from services.state.model import BoardState, DeviceSeq, GameState, Pending, Proposal, RoundState, Timer  # noqa: F401
