"""The IUR generation pipeline (§4.1, Figure 2, Appendix C) over an SGD schema and any
OpenAI-compatible server, writing IndirectRequests records.

For a service's slot and each target value (``--value``, or every possible value of the slot):

1. **situation**: the description of the first intent that takes the slot (the service's own
   description when none does); the slot's description and possible values from the schema;
2. **facts** by chain of thought (:data:`csp_check.iur.prompts.FACTS`): everyday facts that make
   a person want the target value;
3. **candidate IURs**: ``n`` answers to the Appendix C prompt with the facts
   (:data:`~csp_check.iur.prompts.GENERATE`), one per seed 0…n−1 (the cache keeps each);
4. **filter** by the deterministic criteria (:func:`csp_check.iur.criteria.check_record`): a
   candidate is kept when it is not direct, appropriate, and the unambiguity CSP's one solution
   is the target. Each dropped candidate says why.

Only categorical slots with possible values are generated for (the paper's IURs are for
categorical slots, §9). Raises :class:`GenerateError` (a slot the service lacks, a slot with
no values, a value not among them) and :class:`csp_check.iur.judge.JudgeError` (the server).
"""

from __future__ import annotations

from collections.abc import Sequence

from pydantic import BaseModel, Field

from csp_check.iur.criteria import check_record
from csp_check.iur.judge import JudgeError
from csp_check.iur.prompts import FACTS, GENERATE
from csp_check.iur.records import IndirectRequest
from csp_check.iur.schema import Service
from csp_check.llm.client import ChatClient, Completion


class GenerateError(ValueError):
    """A request the schema cannot serve (unknown slot, no values, a value not among them)."""


class Dropped(BaseModel):
    """A candidate IUR the criteria rejected, and why."""

    utterance: str
    target: str
    why: str


class Generated(BaseModel):
    """What one run kept and dropped."""

    kept: list[IndirectRequest] = Field(default_factory=list)
    dropped: list[Dropped] = Field(default_factory=list)


def clean(text: str) -> str:
    """The utterance of an answer: its first non-empty line, without a label or quotes."""
    line = next((x.strip() for x in text.splitlines() if x.strip()), "")
    if ":" in line[:40] and line.split(":", 1)[0].lower().strip() in ("indirect user request", "utterance", "user"):
        line = line.split(":", 1)[1].strip()
    return line.strip().strip('"').strip("“”").strip()


def _ask(client: ChatClient, prompts: Sequence[tuple[str, int | None]]) -> list[str]:
    out = []
    for answer in client.complete_many(prompts, progress=False, description="generate"):
        if not isinstance(answer, Completion):
            raise JudgeError(client.settings.base_url, answer.error)
        out.append(answer.text)
    return out


def generate(service: Service, slot: str, client: ChatClient, n: int, value: str | None = None) -> Generated:
    """The pipeline (module docstring) for ``slot`` of ``service``: ``n`` candidates per target value."""
    found = service.slot(slot)
    if found is None:
        raise GenerateError(f"{service.service_name} has no slot {slot!r}")
    if not found.possible_values:
        raise GenerateError(f"{service.service_name}.{slot} has no possible values (only categorical slots are generated for)")
    if value is not None and value not in found.possible_values:
        raise GenerateError(f"{value!r} is not a value of {service.service_name}.{slot}: {', '.join(found.possible_values)}")
    intent = service.intent_for(slot)
    situation = intent.description if intent is not None and intent.description else service.description
    values = ", ".join(found.possible_values)
    targets = [value] if value is not None else list(found.possible_values)
    base = {"situation": situation, "slot_description": found.description, "values": values}
    facts = _ask(client, [(FACTS.format(**base, target=t), None) for t in targets])
    prompts = [(GENERATE.format(**base, target=t, facts=f.strip()), seed) for t, f in zip(targets, facts, strict=True)
               for seed in range(n)]
    answers = _ask(client, prompts)
    out = Generated()
    services = {service.service_name: service}
    for k, answer in enumerate(answers):
        target, fact = targets[k // n], facts[k // n]
        record = IndirectRequest(
            utterance=clean(answer), service=service.service_name, slot_description=found.description,
            situation=situation, possible_slot_values=found.possible_values, target_slot_value=target,
            slot=slot, facts=fact.strip(),  # type: ignore[call-arg]
        )
        result = check_record(k, record, services)
        why = ("empty answer" if not record.utterance else "direct: names " + ", ".join(result.named) if result.direct
               else f"inappropriate: {result.appropriateness}" if result.appropriate is False
               else None if result.predicted == target else f"ambiguous: the CSP's solutions are {result.solutions}")
        if why is None:
            out.kept.append(IndirectRequest.model_validate(
                {**record.model_dump(), "strategy": sorted({e["strategy"] for e in result.evidence})}))
        else:
            out.dropped.append(Dropped(utterance=record.utterance, target=target, why=why))
    return out
