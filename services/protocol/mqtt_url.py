"""MQTT broker URLs: ``mqtt://[user:password@]host[:port]`` (DESIGN.md: a backend is chosen by URL)."""

from __future__ import annotations

from dataclasses import dataclass
from urllib.parse import unquote, urlsplit


@dataclass(frozen=True)
class MqttTarget:
    """Where a broker listens. ``port`` defaults to 1883; credentials come from the URL when given."""

    host: str
    port: int
    username: str | None = None
    password: str | None = None


def parse_mqtt_url(url: str) -> MqttTarget:
    """``mqtt://host:port`` -> MqttTarget. Raises ValueError for another scheme or a bad port."""
    if not isinstance(url, str):
        raise ValueError(f"MQTT URL must be a string, got {url!r}")
    parts = urlsplit(url)
    if parts.scheme != "mqtt" or not parts.hostname:
        raise ValueError(f"MQTT URL must look like mqtt://host:port, got {url!r}")
    try:
        port = parts.port or 1883
    except ValueError as exc:
        raise ValueError(f"bad port in MQTT URL {url!r}") from exc
    return MqttTarget(
        parts.hostname,
        port,
        unquote(parts.username) if parts.username else None,
        unquote(parts.password) if parts.password else None,
    )
