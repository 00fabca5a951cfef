"""csp-check's own stability measures: the agent keeps the user's standing instructions
(``profile``, scored by P1–P6) and its KB (``kb``, scored by C4–C6), and :func:`score`, the one
entry point of every kind (:data:`ALL_MEASURES`).

``profile`` params: ``instructions`` (the profile: NLSI-style standing instructions, list of
str), ``request`` (the user's request the calls answer; default: the probe), ``schema`` (an
SGD-style ``schema.json`` or SGD split folder; default the bundled ``data/schema.json``),
``families`` (the P-ids counted; default P1–P6). The API calls are read from the answer
(``GetX(slot="v", …)`` anywhere in it, :mod:`csp_check.nlsi.calls`) and checked by
:class:`csp_check.nlsi.check.Checker` on the dialogue ``User: <request>`` against the profile
(docs/nlsi.md). Score 1 when at least one call parses and no counted family is violated, else 0.

``kb`` params: ``kb`` (a KB as ``--kb`` files hold it: ``{"domain": …, "entities": […]}`` or
``{domain: [entities]}``), ``request`` (default: the probe), ``constraints`` (default C4, C5, C6),
``require_statement`` (default true). The two turns ``User: <request>`` / ``System: <answer>``
are read as raw text against the KB (the ``text`` path, docs/evaluation-rawtext.md) and checked
(:func:`csp_check.pipeline.check_dialogue`). Score 0 when a certain violation is found, or —
with ``require_statement`` — when the answer states nothing the KB constraints cover (no C4–C6
instance: "I don't know" keeps no KB); else 1.
"""

from __future__ import annotations

import json
import re
from functools import lru_cache
from pathlib import Path
from typing import Any

from csp_check.drift.measures import MEASURES, Measure, param
from csp_check.drift.suite import DATA
from csp_check.errors import CallSyntaxError, CspCheckError, MeasureError
from csp_check.models import Dialogue, KnowledgeBase, Turn
from csp_check.nlsi.calls import parse_call, split_calls
from csp_check.nlsi.check import Checker
from csp_check.nlsi.models import ALL_FAMILIES, ApiCall, CallReport, Example, StandingInstruction
from csp_check.nlsi.schema import load_schema
from csp_check.pipeline import check_dialogue
from csp_check.readers.kb import kb_from_json

BUNDLED_SCHEMA = DATA / "schema.json"
KB_CONSTRAINTS = ("C4", "C5", "C6")
_CALL_START = re.compile(r"\b[A-Z][A-Za-z0-9_]*\s*\(")


@lru_cache(maxsize=8)
def checker(schema: str) -> Checker:
    """The P1–P6 checker of one schema path (built once: its matchers cost a second)."""
    try:
        return Checker(load_schema([Path(schema)]))
    except (OSError, ValueError) as err:
        raise MeasureError(f"measure profile: schema {schema}: {err}") from None


def calls_in(answer: str) -> list[ApiCall]:
    """Every well-formed call ``Name(arg="v", …)`` written anywhere in ``answer`` (prose, code
    fences and bullets around them ignored), in order."""
    calls: list[ApiCall] = []
    end = 0
    for m in _CALL_START.finditer(answer):
        if m.start() < end:
            continue
        piece = split_calls(answer[m.start():])[0]
        try:
            calls.append(parse_call(piece))
        except CallSyntaxError:
            continue
        end = m.start() + len(piece)
    return calls


def profile_report(answer: str, params: dict[str, Any]) -> tuple[list[ApiCall], CallReport]:
    """The calls read from ``answer`` and their :class:`CallReport` against the profile."""
    instructions = param(params, "instructions", "profile", list)
    if not instructions or not all(isinstance(i, str) and i.strip() for i in instructions):
        raise MeasureError("measure profile: parameter 'instructions' must be a non-empty list of strings")
    request = param(params, "request", "profile", str)
    schema = param(params, "schema", "profile", str, str(BUNDLED_SCHEMA))
    calls = calls_in(answer)
    example = Example(
        example_id="probe", user_utterance=f"User: {request}", api_calls=[c.render() for c in calls],
        all_standing_instructions=[StandingInstruction(nl_instruction=t, instruction_id=i) for i, t in enumerate(instructions)],
    )  # fmt: skip
    return calls, checker(schema).check(example)


def profile(answer: str, params: dict[str, Any]) -> float:
    """1 if the answer makes API calls and they honour the standing instructions (P1–P6), else 0."""
    families = param(params, "families", "profile", list, list(ALL_FAMILIES))
    if not set(families) <= set(ALL_FAMILIES):
        raise MeasureError(f"measure profile: parameter 'families' must name some of {', '.join(ALL_FAMILIES)}")
    calls, report = profile_report(answer, params)
    if not calls:
        return 0.0
    broken = [v for v in report.violations if v.family in families]
    return 0.0 if broken or any("unknown method" in e for e in report.errors) else 1.0


@lru_cache(maxsize=32)
def _kb(text: str) -> KnowledgeBase:
    try:
        return kb_from_json(json.loads(text), "<suite kb>")
    except CspCheckError as err:
        raise MeasureError(f"measure kb: parameter 'kb': {err}") from None


def kb(answer: str, params: dict[str, Any]) -> float:
    """1 if what the answer states about entities agrees with the KB (C4–C6, certain
    violations), 0 otherwise or — ``require_statement`` — when it states nothing checkable."""
    table = param(params, "kb", "kb", dict)
    request = param(params, "request", "kb", str)
    constraints = param(params, "constraints", "kb", list, list(KB_CONSTRAINTS))
    require = param(params, "require_statement", "kb", bool, True)
    knowledge = _kb(json.dumps(table, sort_keys=True))
    dialogue = Dialogue(id="probe", format="text", turns=[
        Turn(index=0, speaker="user", utterance=request), Turn(index=1, speaker="system", utterance=answer),
    ])  # fmt: skip
    report = check_dialogue(dialogue, knowledge, constraints)
    if any(v.certain for v in report.violations):
        return 0.0
    stated = any(report.coverage.get(c, 0) for c in constraints)
    return 1.0 if stated or not require else 0.0


#: Every measure kind: the generic ones and csp-check's own.
ALL_MEASURES: dict[str, Measure] = {**MEASURES, "profile": profile, "kb": kb}


def score(kind: str, answer: str, params: dict[str, Any], probe: str = "") -> float:
    """f_B(answer) ∈ [0, 1] for a measure of ``kind`` with ``params``; ``probe`` is the default
    ``request`` of ``profile`` and ``kb``. Raises :class:`MeasureError` for an unknown kind or a
    bad parameter."""
    measure = ALL_MEASURES.get(kind)
    if measure is None:
        raise MeasureError(f"unknown measure kind {kind!r}; known: {', '.join(sorted(ALL_MEASURES))}")
    if kind in ("profile", "kb"):
        params = {"request": probe, **params}
    value = float(measure(answer, params))
    return min(1.0, max(0.0, value))
