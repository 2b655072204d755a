"""The ``boards=SPEC`` selection, kept here for the dashboard's imports: it lives in
``services.arbiter_office.boardspec`` (pure), which the gateway's shards (``--boards``) use too."""

from services.arbiter_office.boardspec import (  # noqa: F401 - re-exported
    MAX_BOARDS,
    MAX_LABEL,
    BoardSet,
    BoardSpecError,
    canonical,
    hall_order,
    pages,
    parse,
)
