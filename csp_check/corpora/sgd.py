"""The Schema-Guided Dialogue dataset (reader ``sgd``): services with schemas, whose system turns
carry the call they made and the results it returned (``service_call`` / ``service_results``).

A count or an offer there is about the call's own results: the scope's table is the answer of
that call (:attr:`csp_check.build.context.KbScope.state_search` is false), and its parameters
are the search. What SGD's acts and dialogues add: canonical values in every act, a fixed
"today", results inside the data.

The column vocabulary is MultiWOZ's (:data:`csp_check.corpora.multiwoz.MULTIWOZ`), as the checks
apply it to every format today: SGD's schemas share five of its column names (``area``,
``type``, ``destination``, ``address``, ``price``), so giving SGD a vocabulary of its own
changes verdicts, a change of its own.
"""

from __future__ import annotations

from dataclasses import replace

from csp_check.corpora.multiwoz import MULTIWOZ
from csp_check.language.dates import SGD_TODAY

SGD = replace(
    MULTIWOZ,
    name="sgd",
    formats=frozenset({"sgd"}),
    today=SGD_TODAY,  # every relative date of the shared dev + train is read from Friday 2019-03-01
    canonical_acts=True,
    state_slots=None,  # any slot of the service
    own_results="service_results",
    system_values_stated=True,
    results_cap=10,  # SGD's service_results and INFORM_COUNT stop at 10 (train + dev: no count above 10)
)
