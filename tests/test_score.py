"""CorpusSummary: GCA over checked dialogues, Table-2 coverage, violations by constraint."""

from __future__ import annotations

from csp_check.models import ConstraintId, DialogueReport, Status, Violation
from csp_check.score.corpus import CorpusSummary


def report(status: Status, variables: int = 0, coverage: dict | None = None, violations=()) -> DialogueReport:
    return DialogueReport(
        dialogue_id="d",
        status=status,
        variables=variables,
        implicit=1 if variables else 0,
        coverage=coverage or {},
        violations=[Violation(constraint=ConstraintId(c), turns=[1], variables=[], message=c) for c in violations],
        error="f: dialogue d: broken" if status is Status.ERROR else None,
    )


def test_gca_excludes_errors_and_counts_unknown_as_not_consistent() -> None:
    s = CorpusSummary()
    for r in [
        report(Status.CONSISTENT, 4, {"C1": 4, "C2": 2}),
        report(Status.INCONSISTENT, 6, {"C1": 6, "C6": 3}, violations=["C6", "C6", "C2"]),
        report(Status.UNKNOWN, 0),
        report(Status.ERROR),
    ]:
        s.add(r)

    assert (s.dialogues, s.checked, s.errors) == (4, 3, 1)
    assert s.gca == 1 / 3
    assert (s.variables, s.implicit) == (10, 2)
    assert s.error_messages == ["f: dialogue d: broken"]
    assert s.exit_code == 2


def test_coverage_table_has_a_row_per_enabled_constraint() -> None:
    s = CorpusSummary(constraints=["C1", "C2", "C6"])
    s.add(report(Status.CONSISTENT, 4, {"C1": 4, "C2": 2}))
    s.add(report(Status.INCONSISTENT, 6, {"C1": 6, "C6": 3}, violations=["C6", "C6", "C2"]))

    rows = [(r.constraint, r.variables, r.coverage) for r in s.coverage_table()]
    assert rows == [("C1", 10, 1.0), ("C2", 2, 0.2), ("C6", 3, 0.3)]
    assert [(r.constraint, r.violations, r.dialogues) for r in s.violation_table()] == [("C2", 1, 1), ("C6", 2, 1)]
    assert s.exit_code == 1


def test_examples_are_bounded_and_empty_corpus_has_no_gca() -> None:
    s = CorpusSummary(keep=2)
    assert s.gca is None and s.exit_code == 0
    for _ in range(5):
        s.add(report(Status.INCONSISTENT, 1, {"C1": 1}, violations=["C3", "C3"]))
    assert len(s.examples) == 2 and s.violations == {"C3": 10}
    assert CorpusSummary.model_validate(s.to_json_dict()).violations == {"C3": 10}
