"""A fixed split of a corpus into a *work* half and a *check* half by a hash of the dialogue id.

Reading rules are read, fixed and tuned on the work half only; precision is measured on the check
half, by readers who never saw an earlier reading (docs/evaluation-multiwoz.md). The half of a
dialogue depends on its id alone (SHA-256 of the UTF-8 id, the parity of the first byte), so it is
the same on every machine, in every run and whatever else the corpus holds.
"""

from __future__ import annotations

import hashlib
from typing import Literal

Half = Literal["work", "check"]
HALVES: tuple[Half, Half] = ("work", "check")


def half_of(dialogue_id: str) -> Half:
    """``"work"`` or ``"check"``: the half dialogue ``dialogue_id`` belongs to."""
    return "work" if hashlib.sha256(dialogue_id.encode("utf-8")).digest()[0] % 2 == 0 else "check"
