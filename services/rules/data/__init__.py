"""Data shipped with the rules: the ACF 3-move ballot deck (``acf_3move_ballots.csv``, see
``services.rules.checkers_ballots``)."""
