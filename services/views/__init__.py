"""Projections of the one state (``services.state``): what spectators see (``spectator``), the
standings (``standings``) and the arbiters' alerts (``alerts``). None keeps a game model of its own."""
