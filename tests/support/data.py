"""Where the shared real data lives: ``../shared`` beside the repo, read in place, never copied.

Fixtures that skip when a part is absent are in ``tests/conftest.py``; the markers here serve
module-level ``pytestmark`` and decorators.
"""

from __future__ import annotations

from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parents[2]
SHARED = REPO.parent / "shared"
SHARED_DATA = SHARED / "data"
CASES = SHARED / "cases"
SGD = SHARED_DATA / "sgd"
SGD_DEV = SGD / "dev"
MULTIWOZ = SHARED_DATA / "multiwoz"
MULTIWOZ_DB = MULTIWOZ / "db"
MULTIWOZ_VAL = MULTIWOZ / "val.json.zip"
CONVLAB = SHARED_DATA / "convlab_unified"

needs_sgd = pytest.mark.skipif(not SGD_DEV.is_dir(), reason="../shared/data/sgd is not beside the repo")
needs_multiwoz = pytest.mark.skipif(not MULTIWOZ_DB.is_dir(), reason="../shared/data/multiwoz is not beside the repo")
needs_multiwoz_val = pytest.mark.skipif(not MULTIWOZ_VAL.exists(), reason="../shared/data/multiwoz/val.json.zip is not beside the repo")
needs_cases = pytest.mark.skipif(not CASES.is_dir(), reason="../shared/cases is not beside the repo")
