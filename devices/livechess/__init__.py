"""The DGT LiveChess bridge: DGT e-boards, read by DGT LiveChess on the hall computer, published as
our device protocol (docs/protocol.md, docs/boards.md).

- ``api``: LiveChess's local websocket API (``ws://127.0.0.1:1982/api/v1.0``): the calls we make and
  the shapes we read (pure).
- ``translate``: one e-board's readings in, our protocol's messages out: placements on ``position``,
  clock readings as ``clock`` events, ``status`` (pure).
- ``store``: each hall board's ``seq`` values and last readings, kept in a file across restarts.
- ``link``: one MQTT connection per hall board (the board's own login), QoS 1, resends on
  ``resend_from``.
- ``bridge``: the running bridge: LiveChess connection with back-off, subscriptions, polling.

The bridge never sends a move: only what the board's sensors and the clock show. The gateway infers
the moves, the orientation and the result signals from the placements (docs/protocol.md).
"""
