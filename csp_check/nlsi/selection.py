"""Instruction-selection baselines (paper §4.3): BM25 top-N, scored like the solver's selection.

Each instruction of every profile in the corpus is a BM25 document (corpus statistics over all
of them, as the paper uses the train instructions too); an example's dialogue is the query, and
the N best-scoring instructions *of its own profile* are selected (paper: N=4 best on dev).
Needs the ``bm25`` extra (``rank-bm25``); raises ``ImportError`` with the install hint otherwise.
"""

from __future__ import annotations

from csp_check.install import pip_extra
from csp_check.nlsi.models import Example
from csp_check.nlsi.schema import normalize


def _tokens(text: str) -> list[str]:
    return normalize(text).split()


class Bm25Selector:
    """BM25 over all profile instructions of ``examples``; :meth:`select` returns top-N texts."""

    def __init__(self, examples: list[Example], top: int = 4):
        try:
            from rank_bm25 import BM25Okapi
        except ImportError as err:  # pragma: no cover - depends on the environment
            raise ImportError(f"BM25 selection needs rank-bm25: {pip_extra('bm25')}") from err
        self.top = top
        self.docs = list(dict.fromkeys(i.nl_instruction for e in examples for i in e.all_standing_instructions))
        self.index = {d: k for k, d in enumerate(self.docs)}
        self.bm25 = BM25Okapi([_tokens(d) for d in self.docs])

    def select(self, example: Example) -> list[str]:
        """The ``top`` instructions of the example's profile most similar to its user turns."""
        profile = [i.nl_instruction for i in example.all_standing_instructions if i.nl_instruction in self.index]
        if not profile:
            return []
        query = _tokens(" ".join(example.user_turns()))
        scores = self.bm25.get_batch_scores(query, [self.index[p] for p in profile])
        ranked = sorted(zip(profile, scores), key=lambda x: -x[1])
        return [p for p, _ in ranked[: self.top]]
