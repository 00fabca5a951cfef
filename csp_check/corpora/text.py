"""Raw text (reader ``text``): unannotated dialogues, annotated by
:mod:`csp_check.annotate.annotator` against a ``--kb``.

The annotator writes MultiWOZ's slot names (``food``, ``area``, ``pricerange``), so the column
vocabulary is MultiWOZ's (:data:`csp_check.corpora.multiwoz.MULTIWOZ`); the format fixes no
belief-state slots and carries no results.
"""

from __future__ import annotations

from dataclasses import replace

from csp_check.corpora.multiwoz import MULTIWOZ

TEXT = replace(MULTIWOZ, name="text", formats=frozenset({"text"}), state_slots=None)
