"""The arbiters' side of the dashboard: login, the alert queue over /ws/arbiter, and actions that
become event-log entries saying who and when (docs/arbiter.md)."""
