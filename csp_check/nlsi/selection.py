"""Instruction-selection baselines (paper §4.3): BM25 top-N and LLM in-context learning (ICL),
scored like the solver's selection.

Each instruction of every profile in the corpus is a BM25 document (corpus statistics over all
of them, as the paper uses the train instructions too); an example's dialogue is the query, and
the N best-scoring instructions *of its own profile* are selected (paper: N=4 best on dev).
Needs the ``bm25`` extra (``rank-bm25``); raises ``ImportError`` with the install hint otherwise.
"""

from __future__ import annotations

import random
import re

from csp_check.install import pip_extra
from csp_check.llm.client import ChatClient, CompletionError
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


ICL_TASK = """You are given a dialogue between a user and an assistant, and the user's profile: standing \
instructions the user gave once for all future requests. Select the standing instructions that apply \
to the dialogue: those about a domain the user asks for, chained ones whose condition the request \
meets, and those about a domain another applicable instruction asks to call as well. Copy each \
applicable instruction verbatim, one per line, each starting with "- ". If none applies, answer "- None".
"""


def _block(example: Example, selected: list[str] | None) -> str:
    dialogue = example.user_utterance.strip()
    profile = "\n".join(f"- {i.nl_instruction}" for i in example.all_standing_instructions)
    out = f"Dialogue:\n{dialogue}\nProfile:\n{profile}\nApplicable:\n"
    if selected is not None:
        out += "\n".join(f"- {s}" for s in selected) if selected else "- None"
    return out


def parse_selection(answer: str, example: Example) -> list[str]:
    """The instructions an LLM answer selects: one per line (bullets / numbers stripped, "None"
    ignored); a line equal to a profile instruction after :func:`normalize` becomes that
    instruction's text, any other line is kept as written (a hallucinated instruction, counted
    by :func:`csp_check.nlsi.metrics.selection_scores`)."""

    profile = {normalize(i.nl_instruction): i.nl_instruction for i in example.all_standing_instructions}
    out: list[str] = []
    for line in answer.splitlines():
        line = re.sub(r"^\s*(?:[-*•]|\d+[.)])\s*", "", line).strip().strip('"').strip()
        n = normalize(line)
        if not n or n in {"none", "applicable", "applicable instructions"} or line.endswith(":"):
            continue
        text = profile.get(n, line)
        if text not in out:
            out.append(text)
    return out


class LlmIclSelector:
    """In-context-learning instruction selection (paper §4.3 "ICL"): a fixed prompt with one
    demonstration per reasoning type, randomly drawn (``seed``) from ``demos``, then the test
    example; the answer is read by :func:`parse_selection`. ``settings``:
    :class:`csp_check.llm.client.LLMSettings` (temperature 0 in the paper); answers are cached on
    disk by the client. ``demo_ids``: the example ids used as demonstrations (score without them).
    Failed requests select nothing and are counted in ``failures``.
    """

    def __init__(self, demos: list[Example], settings, seed: int = 0, client=None):


        rng = random.Random(seed)
        by_type: dict[str, list[Example]] = {}
        for e in demos:
            if e.applicable_standing_instructions is not None and e.all_standing_instructions:
                by_type.setdefault(e.reasoning_type.value, []).append(e)
        self.demos = [rng.choice(by_type[t]) for t in sorted(by_type)]
        self.demo_ids = {e.example_id for e in self.demos}
        self.client = client or ChatClient(settings)
        self.failures = 0
        shots = [
            f"### Example {k}\n" + _block(e, [i.nl_instruction for i in e.applicable_standing_instructions or []])
            for k, e in enumerate(self.demos, 1)
        ]
        self.prefix = ICL_TASK + "\n" + "\n\n".join(shots) + "\n\n### Test example\n"

    def prompt(self, example: Example) -> str:
        """The full prompt for one example."""
        return self.prefix + _block(example, None)

    def select(self, example: Example) -> list[str]:
        """The instructions the model selects for one example."""
        return self.select_many([example], progress=False)[0]

    def select_many(self, examples: list[Example], progress: bool = False) -> list[list[str]]:
        """Selections for many examples (``settings.concurrency`` requests at a time)."""

        answers = self.client.complete_many([(self.prompt(e), None) for e in examples], progress=progress, description="ICL selection")
        out = []
        for e, a in zip(examples, answers):
            if isinstance(a, CompletionError):
                self.failures += 1
                out.append([])
            else:
                out.append(parse_selection(a.text, e))
        return out
