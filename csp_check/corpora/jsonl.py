"""Our own JSONL format (reader ``jsonl``): one :class:`~csp_check.models.Dialogue` per line, with
the results the system saw in ``turns[].kb_results``. Also the profile of a dialogue built in code
(no format, or one no profile names).

Its column vocabulary is MultiWOZ's (:data:`csp_check.corpora.multiwoz.MULTIWOZ`), as the checks
apply it to every format today: the bundled examples (``examples/dialogues.jsonl`` with
``kb/restaurants.json``) use MultiWOZ's slot names. The format fixes no belief-state slots.
"""

from __future__ import annotations

from dataclasses import replace

from csp_check.corpora.multiwoz import MULTIWOZ

JSONL = replace(MULTIWOZ, name="jsonl", formats=frozenset({"jsonl"}), state_slots=None, own_results="turns[].kb_results")
