"""The spectators' dashboard: Starlette app, live websocket feed, pages (see ``dashboard.app``)."""
