"""The log's words (DESIGN.md "one vocabulary"): one typed record per entry type, by family, and
``decode``/``encode`` in one place (``base``). Import the records from here::

    from services.events import GameEnded, MovePlayed, decode
"""

from .analysis import PositionEvaluated  # noqa: F401
from .arbiter import *  # noqa: F401,F403
from .broker_link import GatewayDeaf, GatewayHearing  # noqa: F401
from .base import (REGISTRY, RESULTS_PLAYED, SIDES, SPECIAL_SCORES, BadEvent, Event, Side, UnknownEvent,  # noqa: F401
                   decode, encode)
from .device import *  # noqa: F401,F403
from .game import EndedBy, GameEnded  # noqa: F401
from .regulations import *  # noqa: F401,F403
from .tournament import *  # noqa: F401,F403
from .match_setup import CheckersMatch, ThreeMoveBallot  # noqa: F401
from .rounds import *  # noqa: F401,F403
from .playoff import *  # noqa: F401,F403
from .vocabulary import (AlertKind, AlertSeverity, AlertStatus, ByeCode, ClaimKind, ClockEvent,  # noqa: F401
                         DeviceKind, DeviceStatus, GameKind, GameResult, GameStatus, Termination, Variant)
