"""The device protocol's pure parts (docs/protocol.md), shared by the gateway that applies it and the
devices that speak it: what a placement board's piece placement shows (``placement``) and where the
broker is (``mqtt_url``). Pure: no I/O. The devices import these, never ``gateway/`` (issue 26)."""
