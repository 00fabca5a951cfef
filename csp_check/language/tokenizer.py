"""csp-check's one door to spaCy (the raw-text annotator and the NLSI instruction parser): the
blank English tokenizer (no model download), the ``PhraseMatcher`` and ``filter_spans``.

spaCy imports thinc, and thinc imports torch whenever it is installed (the ``hf`` extra, for
``drift --hf-model``): about 2.4 s of CPU and 185 MB of memory on every raw-text run, for
nothing the annotator uses (a blank tokenizer and a phrase matcher never reach thinc's torch
layers). So spaCy is imported here with ``torch`` marked absent in ``sys.modules`` (thinc then
reads ``has_torch = False``), unless the process imported torch already, and the mark is
removed right after: a later ``import torch`` finds the installed one as usual.
"""

from __future__ import annotations

import sys
from functools import lru_cache

_HIDE_TORCH = "torch" not in sys.modules
if _HIDE_TORCH:
    sys.modules["torch"] = None  # type: ignore[assignment]
try:
    import spacy
    from spacy.matcher import PhraseMatcher
    from spacy.util import filter_spans
finally:
    if _HIDE_TORCH and sys.modules.get("torch", 0) is None:
        del sys.modules["torch"]

__all__ = ["PhraseMatcher", "blank_english", "blank_nlp", "filter_spans"]


def blank_english():  # type: ignore[no-untyped-def]
    """A new spaCy blank English pipeline (tokenizer only; no model download): its own vocabulary."""
    return spacy.blank("en")


@lru_cache(maxsize=1)
def blank_nlp():  # type: ignore[no-untyped-def]
    """The annotator's spaCy blank English pipeline (:func:`blank_english`), built once."""
    return blank_english()
