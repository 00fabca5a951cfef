"""The paper's criteria (§3) for one IndirectRequests record, decided without a model.

- **Direct** (:func:`check_record` ``direct``): the utterance names a candidate value outright
  in a known wording (:func:`csp_check.iur.lexical.names`): then it is no IUR (Appendix C: "Do
  Not Mention").
- **Appropriateness**: the slot is a slot of the service (when a schema is given: the record's
  ``slot`` or the slot whose description is the record's ``slot_description``) taken by one of
  its intents, and the utterance's content words meet the service's, its intents' or the slot's
  description words, or point to a candidate value (an utterance about sandwiches while buying
  bus tickets meets none). ``None`` when nothing is known to decide it.
- **Unambiguity**: a CSP over one variable ``x`` whose domain is the candidate values
  (:func:`unambiguity`). Each phrase of :func:`csp_check.iur.lexical.evidence` is a unary
  constraint ``x ∈ S`` (the values it names or points to). The solutions are the candidates no
  constraint eliminates, found by enumerating the domain (N ≤ 5 in the paper; no solver is
  needed for one variable, and enumeration makes the empty and the many-solution cases explicit).
  The utterance *entails* a value when it is the only solution and some phrase constrains
  ``x``; with no phrase nothing is eliminated (the paper's "list all possible values"), and
  conflicting phrases leave none. The record is unambiguous when its target is the one
  solution; its predicted label is that solution, or ``<ambiguous>``.
"""

from __future__ import annotations

from pydantic import BaseModel, Field

from csp_check.iur.lexical import Evidence, content_words, evidence, strategies
from csp_check.iur.records import AMBIGUOUS, IndirectRequest
from csp_check.iur.schema import Service


class Unambiguity(BaseModel):
    """The unambiguity CSP's answer: ``solutions`` (candidates no phrase eliminates),
    ``constrained`` (whether any phrase constrains x), ``entailed`` (the one solution of a
    constrained x, else ``None``)."""

    solutions: list[str]
    constrained: bool
    entailed: str | None = None


class CheckResult(BaseModel):
    """The criteria of one record (module docstring) and, where it has labels, whether they agree."""

    index: int
    utterance: str
    slot: str | None = None
    direct: bool
    named: list[str] = Field(default_factory=list, description="candidate values named outright")
    appropriate: bool | None = None
    appropriateness: str = ""
    evidence: list[dict] = Field(default_factory=list)
    solutions: list[str] = Field(default_factory=list)
    predicted: str
    target: str | None = None
    unambiguous: bool | None = Field(None, description="the target is the CSP's one solution (None: no target)")
    strategies: list[str] = Field(default_factory=list)


def unambiguity(candidates: list[str], found: list[Evidence]) -> Unambiguity:
    """Solve the one-variable CSP (module docstring): ``x ∈ candidates`` and ``x ∈ e.values``
    for each ``e`` of ``found``, by enumeration of the domain in its order."""
    solutions = [v for v in candidates if all(v in e.values for e in found)]
    entailed = solutions[0] if found and len(solutions) == 1 else None
    return Unambiguity(solutions=solutions, constrained=bool(found), entailed=entailed)


def slot_of(record: IndirectRequest, service: Service | None) -> str | None:
    """The record's slot name: its ``slot`` field, else the service's slot with its description."""
    slot = record.extra("slot")
    if isinstance(slot, str) and slot:
        return slot
    found = service.slot_by_description(record.slot_description) if service else None
    return found.name if found else None


def appropriateness(record: IndirectRequest, service: Service | None, slot: str | None,
                    found: list[Evidence]) -> tuple[bool | None, str]:
    """(appropriate?, why) for the record (module docstring)."""
    if service is not None:
        if slot is None or service.slot(slot) is None:
            return False, f"no slot of {service.service_name} has the description {record.slot_description!r}"
        if service.intent_for(slot) is None:
            return False, f"no intent of {service.service_name} takes {slot}"
    if found:
        return True, "the utterance names or points to a candidate value"
    topic = content_words(" ".join([record.situation, record.slot_description, record.service.replace("_", " ")]))
    if service is not None:
        topic |= content_words(" ".join([service.description, *(i.description for i in service.intents)]))
    shared = content_words(record.utterance) & topic
    if shared:
        return True, "shares the words " + ", ".join(sorted(shared)) + " with the service"
    if not topic:
        return None, "no service, situation or slot words to compare with"
    return False, "no word of the utterance meets the service, its situation or the slot"


def check_record(index: int, record: IndirectRequest, services: dict[str, Service] | None = None) -> CheckResult:
    """The deterministic criteria of ``record`` (module docstring); ``services`` from an SGD schema."""
    service = (services or {}).get(record.service)
    slot = slot_of(record, service)
    key = slot or record.slot_description
    candidates = record.possible_slot_values
    found = evidence(record.utterance, key, candidates, record.slot_description)
    named = sorted({v for e in found if e.strategy == "direct" for v in e.values})
    csp = unambiguity(candidates, found)
    appropriate, why = appropriateness(record, service, slot, found)
    target = record.target_slot_value
    predicted = csp.entailed or AMBIGUOUS
    return CheckResult(
        index=index, utterance=record.utterance, slot=slot, direct=bool(named), named=named, appropriate=appropriate,
        appropriateness=why, evidence=[{"words": e.words, "values": sorted(e.values), "strategy": e.strategy} for e in found],
        solutions=csp.solutions, predicted=predicted, target=target,
        unambiguous=None if target is None else (not record.ambiguous and csp.entailed == target),
        strategies=strategies(record.utterance),
    )
