"""The Python API: the same code the CLI runs.

>>> from csp_check import load_corpus, check_dialogue
>>> for dialogue in load_corpus(["examples/dialogues.jsonl"], kb=load_kb("kb/restaurants.json")):
...     report = check_dialogue(dialogue, kb)
...     print(report.status, [v.message for v in report.violations])

Reading rules

- Dialogues without act annotations are annotated from the KB like raw text when a KB is given
  (:func:`with_annotations`, :mod:`csp_check.annotate.annotator`); otherwise they have no
  variables.
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator
from pathlib import Path

from csp_check.build.builder import BuildOptions, build_csp
from csp_check.check.certainty import Reading, assess
from csp_check.check.evaluate import violations
from csp_check.delexicalize.delexicalizer import delexicalize
from csp_check.errors import InputError
from csp_check.models import (
    ALL_CONSTRAINTS,
    CSP,
    Constraint,
    ConstraintId,
    Dialogue,
    DialogueReport,
    KnowledgeBase,
    Status,
    Violation,
)
from csp_check.readers import citod, read_dialogues
from csp_check.score import citod as citod_labels
from csp_check.score.metrics import CoverageScope, constraint_coverage


def load_corpus(
    paths: Iterable[str | Path], fmt: str = "auto", kb: KnowledgeBase | None = None, split: str | None = None
) -> Iterator[Dialogue | InputError]:
    """Dialogues of the given files / directories, streamed; an :class:`InputError` per broken one.
    ``split``: one split of a MultiWOZ release (:func:`csp_check.readers.read_dialogues`).
    Readers need no KB; ``kb`` only says whether one will be given to the checker (raw text is
    read only then: it is annotated against the KB)."""
    return read_dialogues(list(paths), fmt, split=split, has_kb=kb is not None)


def with_annotations(dialogue: Dialogue, kb: KnowledgeBase | None) -> Dialogue:
    """``dialogue`` itself, or — when it has no act annotations at all (every turn's ``acts``
    empty: raw text in our JSONL) and a ``kb`` is given — a copy annotated from its text by
    :func:`csp_check.annotate.annotate` (spec §5 / §6). Without a KB a bare dialogue has no
    variables."""
    if kb is None or any(turn.acts for turn in dialogue.turns):
        return dialogue
    from csp_check.annotate import annotate  # spaCy loads only for unannotated dialogues

    return annotate(dialogue, kb)


def dialogue_csp(
    dialogue: Dialogue,
    kb: KnowledgeBase | None = None,
    constraints: Iterable[ConstraintId | str] = ALL_CONSTRAINTS,
    options: BuildOptions | None = None,
) -> CSP:
    """Delexicalize ``dialogue`` (annotated first if bare: :func:`with_annotations`) and build
    its CSP with the enabled constraint families."""
    dialogue = with_annotations(dialogue, kb)
    options = options or BuildOptions()
    options = options.model_copy(update={"enabled": frozenset(ConstraintId(c) for c in constraints)})
    return build_csp(dialogue, delexicalize(dialogue), kb, options)


def check_dialogue(
    dialogue: Dialogue,
    kb: KnowledgeBase | None = None,
    constraints: Iterable[ConstraintId | str] = ALL_CONSTRAINTS,
    options: BuildOptions | None = None,
) -> DialogueReport:
    """Check one dialogue's own assignment (what its text says) against C1–C6 and S1, solver-free.
    A CI-ToD dialogue (its own KB, no acts) is checked by :func:`citod_report`."""
    if dialogue.format == citod.NAME:
        return citod_report(dialogue)
    dialogue = with_annotations(dialogue, kb)  # once: the report's certainty reads the acts the CSP was built from
    csp = dialogue_csp(dialogue, kb, constraints, options)
    return report_for(csp, dialogue)


def report_for(csp: CSP, dialogue: Dialogue) -> DialogueReport:
    """The :class:`DialogueReport` of a CSP's own assignment."""
    readings: list[Reading] = []  # made at the first broken instance: most dialogues have none

    def certainty(constraint: Constraint) -> str | None:
        readings[:] = readings or [Reading.of(dialogue, csp)]
        return assess(readings[0], constraint)

    found = violations(csp, certainty=certainty)
    return DialogueReport(
        dialogue_id=dialogue.id,
        source=dialogue.source,
        status=verdict(found),
        variables=len(csp.variables),
        implicit=sum(1 for v in csp.variables if v.span is None),
        turns=len(dialogue.turns),
        coverage=constraint_coverage(csp, CoverageScope.ALL),
        violations=found,
        implied=csp.implied,
        defects=list(dialogue.defects),
    )


def citod_report(dialogue: Dialogue) -> DialogueReport:
    """The report of a CI-ToD dialogue: the violations of its last system response
    (:func:`csp_check.score.citod.violations`) and its labels in ``extra["labels"]``
    (``{"qi": bool, "hi": bool, "kbi": bool}``, set by the certain violations only)."""
    found, coverage = citod_labels.check(dialogue)
    report = DialogueReport(dialogue_id=dialogue.id, source=dialogue.source, status=verdict(found),
                            variables=coverage.get("C2", 0), coverage=coverage, violations=found,
                            defects=list(dialogue.defects))
    report.extra["labels"] = citod_labels.labels_of(found).as_dict()
    return report


def verdict(found: list[Violation]) -> Status:
    """A dialogue's status from its violations: ``inconsistent`` with any certain one,
    ``uncertain`` when every one is uncertain (for review), else ``consistent``."""
    if any(v.certain for v in found):
        return Status.INCONSISTENT
    return Status.UNCERTAIN if found else Status.CONSISTENT


def error_report(err: InputError) -> DialogueReport:
    """The report of a dialogue that could not be read."""
    return DialogueReport(dialogue_id=err.dialogue or "", source=err.file, status=Status.ERROR, error=str(err))
