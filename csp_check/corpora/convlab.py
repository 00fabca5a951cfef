"""ConvLab-3's unified format (reader ``unified``): MultiWOZ (and other corpora) as one JSON
layout, whose system turns may carry the DB results they saw (``db_results``).

The checks treat it as MultiWOZ (:data:`csp_check.corpora.multiwoz.MULTIWOZ`): its belief-state
slots, its column vocabulary; it adds the results inside the data.
"""

from __future__ import annotations

from dataclasses import replace

from csp_check.corpora.multiwoz import MULTIWOZ

CONVLAB = replace(MULTIWOZ, name="convlab", formats=frozenset({"unified"}), own_results="db_results")
