"""The gateway: MQTT device messages in, checked and ordered, into the event log (DESIGN.md).

Public API: ``Gateway`` (gateway.service), ``embedded_broker`` (gateway.broker), ``Hall`` (the pure
state machine, gateway.hall). The device protocol is docs/protocol.md.
"""

from gateway.broker import embedded_broker
from gateway.hall import Hall
from gateway.service import Gateway

__all__ = ["Gateway", "Hall", "embedded_broker"]
