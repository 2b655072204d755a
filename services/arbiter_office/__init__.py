"""The arbiter's office (DESIGN.md "The arbiter's office and the game a message belongs to"): the
tournament's registration and player import, round set-up from the file or a PGN and round drafts,
play-off stages, result slips, and the exports (PGN, TRF, JSON, standings). Pure: each module reads
the folded state (``services.state``) and proposes log entries or writes a document; the commands
and the console append them. Formerly ``services/hall`` (issue 26: one name per thing: the gateway's
``gateway.hall`` is the hall of boards, ``services.state.fold`` the fold).
"""
