"""Shared fixtures: where ../shared/data is, and the real services for integration tests."""

from __future__ import annotations

import os
from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parent.parent
SHARED = Path(os.environ.get("VENUE_SHARED", REPO.parent / "shared"))
SHARED_DATA = SHARED / "data"
CASES = SHARED / "cases"
REGULATIONS = SHARED / "regulations"


@pytest.fixture(scope="session")
def shared_data() -> Path:
    """../shared/data; the tests that need it fail (never skip) when it is missing."""
    assert SHARED_DATA.is_dir(), f"shared data not found at {SHARED_DATA} (set VENUE_SHARED)"
    return SHARED_DATA
