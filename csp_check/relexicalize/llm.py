"""The LLM relexicalizer (paper §4.5, Appendix A): ask a chat model to fill the ``[MASK]``s.

Per dialogue: the prompt of :mod:`csp_check.llm.prompt` (the dialogue's KB entities as a
numbered list, its turns with masks), one chat completion through
:class:`csp_check.llm.client.ChatClient` (cached, retried, concurrent), then
:func:`csp_check.llm.align.align_answer` reads one value per mask. Whatever cannot be aligned —
or a request that failed for good — is :data:`~csp_check.relexicalize.base.UNALIGNED` and is
listed in :attr:`LLMRelexicalizer.reports` (one :class:`AlignmentReport` per dialogue).

One dialogue never sinks the batch: a prompt that cannot be built, an answer that is malformed,
times out or cannot be aligned is that dialogue's report (``error``: what went wrong; its masks
unaligned), and the others go on. ``on_result(csp, report, answer_text)`` is called as each
dialogue's answer arrives (with whether its failure is an unreachable server), in the order they come (the experiment writes ``llm_answers.jsonl``
from it: partial results survive a run that is stopped). When the server is unreachable before
any answer came, the requests not yet sent are not sent (:meth:`ChatClient.complete_many`) and
:attr:`LLMRelexicalizer.unreachable` says why.
"""

from __future__ import annotations

import random
from collections import Counter
from collections.abc import Callable, Sequence

from csp_check.llm.align import AlignmentReport, align_answer
from csp_check.llm.client import ChatClient, Completion, CompletionError, LLMSettings
from csp_check.llm.prompt import MaskedTurn, build_prompt, masked_turns
from csp_check.models import CSP, DelexicalizedDialogue, Value

from .base import UNALIGNED, kb_entities, own_value


class LLMRelexicalizer:
    """Relexicalize through an OpenAI-compatible chat model.

    ``settings``: server, model, temperature (0.9 by default), cache, retries, concurrency.
    After a run, ``reports[dialogue_id]`` is the alignment report and ``answers[dialogue_id]``
    the raw answer text; ``client.requests`` counts HTTP attempts (0 on a fully cached rerun);
    ``unreachable`` is the error when the server could not be reached at all (else ``None``).
    ``on_result(csp, report, answer_text or None, unreachable)``: called as each dialogue is
    done (``unreachable``: its request failed, or was not sent, for want of a server).
    """

    name = "llm"

    def __init__(self, settings: LLMSettings, progress: bool = True):
        self.settings = settings
        self.client = ChatClient(settings)
        self.progress = progress
        self.reports: dict[str, AlignmentReport] = {}
        self.answers: dict[str, str] = {}
        self.unreachable: str | None = None
        self.on_result: Callable[[CSP, AlignmentReport, str | None, bool], None] | None = None

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
        out: list[dict[str, Value] | None] = [None] * len(items)
        turns: list[list[MaskedTurn]] = []
        todo, prompts = [], []
        for i, (csp, delex) in enumerate(items):
            masked: list[MaskedTurn] = []
            try:
                masked = masked_turns(delex, csp)
                if any(t.masks for t in masked):
                    prompts.append((build_prompt(masked, kb_entities(csp), _domain(csp)), seeds[i]))
                    todo.append(i)
            except Exception as err:  # this dialogue cannot be asked; the others are
                out[i] = self._done(csp, masked, None, f"cannot build the prompt: {_failure(err)}")
            turns.append(masked)
        for i, (csp, _delex) in enumerate(items):
            if out[i] is None and i not in todo:  # nothing to fill
                out[i] = self._done(csp, turns[i], None)

        def arrived(k: int, answer: Completion | CompletionError) -> None:
            i = todo[k]
            out[i] = self._done(items[i][0], turns[i], answer)

        answers = self.client.complete_many(prompts, progress=self.progress, description="LLM relexicalization",
                                            on_done=arrived)  # fmt: skip
        failed = [a for a in answers if isinstance(a, CompletionError)]
        if failed and len(failed) == len(answers) and all(a.unreachable for a in failed):
            self.unreachable = failed[0].error
        return [assignment or {} for assignment in out]  # complete_many calls on_done for every prompt

    def _done(
        self, csp: CSP, turns: list[MaskedTurn], answer: Completion | CompletionError | None, error: str | None = None
    ) -> dict[str, Value]:
        """One dialogue's assignment from its answer (``None``: nothing to ask, or ``error``: it
        could not be asked), its report recorded and passed to :attr:`on_result`; an answer
        that cannot be aligned is that dialogue's error, never an exception."""
        assignment: dict[str, Value] = {v.name: own_value(csp, v) for v in csp.variables if v.span is None}
        masked = [name for t in turns for name in t.masks]
        text = answer.text if isinstance(answer, Completion) else None
        if isinstance(answer, CompletionError):
            error = answer.error
        report = AlignmentReport(dialogue_id=csp.dialogue_id, masks=len(masked))
        if text is not None:
            self.answers[csp.dialogue_id] = text
            try:
                values, report = align_answer(turns, text, csp, _kb_values(csp))
                assignment.update(values)
            except Exception as err:  # a malformed answer costs this dialogue only
                error = f"cannot align the answer: {_failure(err)}"
        if error is not None:
            report = AlignmentReport(dialogue_id=csp.dialogue_id, masks=len(masked), error=error)
            assignment.update({name: UNALIGNED for name in masked})
        for v in csp.variables:
            assignment.setdefault(v.name, UNALIGNED)
        self.reports[csp.dialogue_id] = report
        if self.on_result is not None:
            self.on_result(csp, report, text, isinstance(answer, CompletionError) and answer.unreachable)
        return assignment


def _failure(err: BaseException) -> str:
    return f"{type(err).__name__}: {' '.join(str(err).split())}"


def _domain(csp: CSP) -> str:
    counts = Counter(v.domain for v in csp.variables)
    return counts.most_common(1)[0][0] if counts else next(iter(csp.kbs), "entity").split(":")[-1]


def _kb_values(csp: CSP) -> dict[str, list[str]]:
    values: dict[str, list[str]] = {}
    for entity in kb_entities(csp):
        for column, value in entity.items():
            values.setdefault(column, []).append(value)
    return values
