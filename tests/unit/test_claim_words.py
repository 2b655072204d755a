"""A result reason in words read as the claim it names (FIDE Laws 9.2, 9.3: a claim, never an
automatic end; WCDF 40-move rule for checkers). Every wording below is quoted from the source named
beside it (services/rules/claim_words.py lists them)."""

from __future__ import annotations

import pytest

from services.rules.claim_words import (
    FIFTY_MOVES, FORTY_MOVES, THREEFOLD, UNNAMED, claim_kind, normalise,
)

SOURCED = [
    # issue 12, "Claims in words"
    ("threefold repetition", THREEFOLD), ("fifty move rule", FIFTY_MOVES),
    ("Fifty move rule", FIFTY_MOVES), ("fifty-move", FIFTY_MOVES), ("3-fold", THREEFOLD),
    # ../shared/DESIGN.md, Words: "claim (Art. 9.2 threefold repetition, 9.3 fifty-move rule)"
    ("fifty-move rule", FIFTY_MOVES),
    # this code's words: Claim.kind, results termination words, the enforcer's CLAIM_REASONS
    ("threefold", THREEFOLD), ("fifty_moves", FIFTY_MOVES), ("threefold_repetition", THREEFOLD),
    ("fifty_move", FIFTY_MOVES), ("claim", UNNAMED),
    # python-chess Termination names
    ("THREEFOLD_REPETITION", THREEFOLD), ("FIFTY_MOVES", FIFTY_MOVES),
    # Chess Engine Communication Protocol: "triple repetition, the 50 move rule", and the example
    # result comment "Draw by repetition"
    ("triple repetition", THREEFOLD), ("the 50 move rule", FIFTY_MOVES), ("Draw by repetition", THREEFOLD),
    # chess.com published-data API result codes: "repetition", "50" (Draw by 50-move rule)
    ("repetition", THREEFOLD), ("50", FIFTY_MOVES), ("Draw by 50-move rule", FIFTY_MOVES),
]


@pytest.mark.parametrize("reason, kind", SOURCED)
def test_sourced_wordings(reason, kind):
    """Each sourced wording is read as its claim (chess)."""
    assert claim_kind(reason) == kind


@pytest.mark.parametrize("reason", ["Threefold Repetition", "THREE-FOLD  repetition", "three_fold",
                                    "Fifty  Moves", "FIFTY-MOVE-RULE", " fifty move rule. ", "50-move",
                                    "3 fold repetition", "threefold–repetition"])
def test_spaces_case_hyphens_and_underscores_do_not_matter(reason):
    """Issue 12: "(spaces, case, hyphens)": the same words however they are spaced or cased."""
    assert claim_kind(reason) in (THREEFOLD, FIFTY_MOVES)
    assert normalise("Fifty-Move_Rule.") == "fifty move rule"


@pytest.mark.parametrize("reason", ["agreement", "resignation", "stalemate", "insufficient material",
                                    "fivefold repetition", "5-fold repetition", "75 moves",
                                    "seventy-five moves", "time forfeit", "", "   ", None, 12])
def test_words_that_name_no_claim(reason):
    """FIDE Laws 9.6 (fivefold, 75 moves) end a game automatically: not claims; neither are
    agreement (9.1), resignation (5.1.2), stalemate (5.2.1) nor anything not text."""
    assert claim_kind(reason) is None


def test_checkers_claims():
    """WCDF rules (ACF): the third repetition and the 40-move rule are claims in checkers; the
    chess fifty-move rule is not a checkers claim, nor the checkers 40-move rule a chess one."""
    assert claim_kind("40-move rule", "checkers") == FORTY_MOVES
    assert claim_kind("forty_moves", "checkers") == FORTY_MOVES
    assert claim_kind("third repetition", "checkers") == THREEFOLD
    assert claim_kind("fifty move rule", "checkers") is None
    assert claim_kind("40-move rule", "chess") is None
    with pytest.raises(ValueError):
        claim_kind("threefold", "go")
