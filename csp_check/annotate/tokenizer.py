"""The spaCy tokenizer the annotator reads text with (no model download)."""

from __future__ import annotations

from functools import lru_cache

import spacy


@lru_cache(maxsize=1)
def blank_nlp():  # type: ignore[no-untyped-def]
    """The spaCy blank English pipeline (tokenizer only; no model download), built once."""
    return spacy.blank("en")
