"""Pairing systems: Berger tables for round robins (FIDE C.05 Annex 1) and the Dutch Swiss system
(FIDE C.04.3, with the basic rules C.04.1 and the bye/forfeit handling of C.04.2).

Pure functions: players and history in, pairs out. See ``docs/pairing.md``.
"""
