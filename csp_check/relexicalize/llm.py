"""The LLM relexicalizer (paper §4.5, Appendix A): ask a chat model to fill the ``[MASK]``s.

Per dialogue: the prompt of :mod:`csp_check.llm.prompt` (the dialogue's KB entities as a
numbered list, its turns with masks), one chat completion through
:class:`csp_check.llm.client.ChatClient` (cached, retried, concurrent), then
:func:`csp_check.llm.align.align_answer` reads one value per mask. Whatever cannot be aligned —
or a request that failed for good — is :data:`~csp_check.relexicalize.base.UNALIGNED` and is
listed in :attr:`LLMRelexicalizer.reports` (one :class:`AlignmentReport` per dialogue).
"""

from __future__ import annotations

import random
from collections import Counter
from collections.abc import Sequence

from csp_check.llm.align import AlignmentReport, align_answer
from csp_check.llm.client import ChatClient, Completion, LLMSettings
from csp_check.llm.prompt import build_prompt, masked_turns
from csp_check.models import CSP, DelexicalizedDialogue, Value

from .base import UNALIGNED, kb_entities, own_value


class LLMRelexicalizer:
    """Relexicalize through an OpenAI-compatible chat model.

    ``settings``: server, model, temperature (0.9 by default), cache, retries, concurrency.
    After a run, ``reports[dialogue_id]`` is the alignment report and ``answers[dialogue_id]``
    the raw answer text; ``client.requests`` counts HTTP attempts (0 on a fully cached rerun).
    """

    name = "llm"

    def __init__(self, settings: LLMSettings, progress: bool = True):
        self.settings = settings
        self.client = ChatClient(settings)
        self.progress = progress
        self.reports: dict[str, AlignmentReport] = {}
        self.answers: dict[str, str] = {}

    def prompt(self, csp: CSP, delex: DelexicalizedDialogue) -> str:
        """The prompt for one dialogue (exposed for inspection and for tests)."""
        entities = kb_entities(csp)
        return build_prompt(masked_turns(delex, csp), entities, _domain(csp))

    def relexicalize(self, csp: CSP, delex: DelexicalizedDialogue, rng: random.Random) -> dict[str, Value]:
        return self.relexicalize_many([(csp, delex)], rng)[0]

    def relexicalize_many(
        self, items: Sequence[tuple[CSP, DelexicalizedDialogue]], rng: random.Random
    ) -> list[dict[str, Value]]:
        """Assignments for many dialogues; requests run concurrently. ``rng`` draws one seed per
        dialogue (sent to the server and part of the cache key)."""
        seeds = [rng.randrange(2**31) for _ in items]
        turns = [masked_turns(delex, csp) for csp, delex in items]
        todo = [i for i, ts in enumerate(turns) if any(t.masks for t in ts)]
        prompts = [
            (build_prompt(turns[i], kb_entities(items[i][0]), _domain(items[i][0])), seeds[i]) for i in todo
        ]
        answers = dict(zip(todo, self.client.complete_many(prompts, progress=self.progress, description="LLM relexicalization")))
        out = []
        for i, (csp, _delex) in enumerate(items):
            assignment: dict[str, Value] = {v.name: own_value(csp, v) for v in csp.variables if v.span is None}
            answer = answers.get(i)
            masked = [name for t in turns[i] for name in t.masks]
            if answer is None:  # nothing to fill
                report = AlignmentReport(dialogue_id=csp.dialogue_id)
            elif isinstance(answer, Completion):
                self.answers[csp.dialogue_id] = answer.text
                values, report = align_answer(turns[i], answer.text, csp, _kb_values(csp))
                assignment.update(values)
            else:
                report = AlignmentReport(dialogue_id=csp.dialogue_id, masks=len(masked), error=answer.error)
                assignment.update({name: UNALIGNED for name in masked})
            for v in csp.variables:
                assignment.setdefault(v.name, UNALIGNED)
            self.reports[csp.dialogue_id] = report
            out.append(assignment)
        return out


def _domain(csp: CSP) -> str:
    counts = Counter(v.domain for v in csp.variables)
    return counts.most_common(1)[0][0] if counts else next(iter(csp.kbs), "entity").split(":")[-1]


def _kb_values(csp: CSP) -> dict[str, list[str]]:
    values: dict[str, list[str]] = {}
    for entity in kb_entities(csp):
        for column, value in entity.items():
            values.setdefault(column, []).append(value)
    return values
