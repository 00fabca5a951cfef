"""Shared test fixtures: where the shared real data lives (``../shared`` beside the repo).

The data is read in place, never copied into the repo. Each fixture skips the test when its
part of ``../shared`` is absent, so the suite runs (with skips) on a bare checkout. Module-level
markers for the same paths are in :mod:`support.data` (a helper package, not a test module).
"""

from __future__ import annotations

from pathlib import Path

import pytest
from support.data import CASES, MULTIWOZ, SGD, SHARED_DATA


def _present(path: Path, what: str) -> Path:
    if not path.exists():
        pytest.skip(f"{what} is not beside the repo ({path})")
    return path


@pytest.fixture(scope="session")
def shared_data() -> Path:
    """``../shared/data`` (skips when absent)."""
    return _present(SHARED_DATA, "../shared/data")


@pytest.fixture(scope="session")
def sgd_dev() -> Path:
    """The SGD dev split, ``../shared/data/sgd/dev`` (skips when absent)."""
    return _present(SGD / "dev", "../shared/data/sgd/dev")


@pytest.fixture(scope="session")
def multiwoz_db() -> Path:
    """MultiWOZ's ``*_db.json`` folder, ``../shared/data/multiwoz/db`` (skips when absent)."""
    return _present(MULTIWOZ / "db", "../shared/data/multiwoz/db")


@pytest.fixture(scope="session")
def multiwoz_val() -> Path:
    """MultiWOZ 2.1's validation split, ``../shared/data/multiwoz/val.json.zip`` (skips when absent)."""
    return _present(MULTIWOZ / "val.json.zip", "../shared/data/multiwoz/val.json.zip")


@pytest.fixture(scope="session")
def shared_cases() -> Path:
    """Small failing inputs with expected verdicts, ``../shared/cases`` (skips when absent)."""
    return _present(CASES, "../shared/cases")
