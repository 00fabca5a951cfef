"""pytest plugin part for API calls: :func:`assert_calls_consistent` and the ``csp_check_calls`` fixture.

Registered through the ``pytest11`` entry point ``csp_check_nlsi``. Usage::

    from csp_check.plugin.calls import assert_calls_consistent

    def test_my_model(tmp_path):
        assert_calls_consistent("preds.jsonl", schema="schema.json", field="pred_api_calls")

Raises :class:`InconsistentCalls` (an ``AssertionError``) listing every violation (example,
family, call, argument, instruction) and every input error.
"""

from __future__ import annotations

from collections.abc import Iterable
from pathlib import Path

import pytest

from csp_check.errors import InconsistentCalls, NoDialogues, error_line
from csp_check.nlsi.check import Checker
from csp_check.nlsi.models import CallReport, Example
from csp_check.nlsi.readers import ExampleError, iter_paths, read_examples
from csp_check.nlsi.schema import NlsiSchema, load_schema
from csp_check.readers import nothing_in


def assert_calls_consistent(
    examples: Example | Iterable[Example] | str | Path,
    schema: NlsiSchema | str | Path | Iterable[str | Path],
    field: str = "api_calls",
    llm_parse=None,
    allow_empty: bool = False,
) -> list[CallReport]:
    """Check examples (objects, or a JSONL file / directory) against P1–P6; return the reports.

    ``llm_parse``: :class:`csp_check.llm.client.LLMSettings` to read instructions the rule parser
    cannot through a chat model (validated, cached; :mod:`csp_check.nlsi.llm_parse`); off (None)
    by default.

    Raises :class:`InconsistentCalls` when any example is inconsistent or in error, or any line
    is unreadable; the message has one line per violation or error, an error in the shape of
    ``csp-check calls`` (``csp-check: error: FILE:LINE: example ID: what``). An input with no
    example fails too unless ``allow_empty``, as ``calls`` says it: ``csp-check: error: no
    dialogues in PATH (why)`` (``the file is empty``, ``an empty folder``, ``no NLSI example``).
    """
    if not isinstance(schema, NlsiSchema):
        schema = load_schema([Path(schema)] if isinstance(schema, (str, Path)) else [Path(s) for s in schema])
    items: list[Example | ExampleError] = []
    if isinstance(examples, (str, Path)):
        for path in iter_paths([Path(examples)]):
            items += list(read_examples(path))
    elif isinstance(examples, Example):
        items = [examples]
    else:
        items = list(examples)
    if not items and not allow_empty:  # as `calls` says it: the file's why, else no example
        path = Path(examples) if isinstance(examples, (str, Path)) else None
        why = (nothing_in(path) if path is not None else None) or (
            "an empty folder" if path is not None and path.is_dir() and next(path.iterdir(), None) is None else "no NLSI example")
        raise InconsistentCalls(error_line(NoDialogues(str(path) if path is not None else repr(examples), why)), [])
    checker = Checker(schema, field=field, llm_parse=llm_parse)
    reports, lines = [], []
    for item in items:
        if isinstance(item, ExampleError):
            lines.append(error_line(item))
            continue
        rep = checker.check(item)
        reports.append(rep)
        where = f"{rep.source}: " if rep.source else ""
        lines += [error_line(f"{where}example {rep.example_id}: {e}") for e in rep.errors]
        lines += [f"example {rep.example_id}: {v.family} {v.call or ''} {v.argument or ''}: {v.message}"
                  + (f" [instruction: {v.instruction}]" if v.instruction else "") for v in rep.violations]
    failing = [r for r in reports if r.status.value != "consistent"]
    if lines or failing:
        raise InconsistentCalls(f"{len(failing)} of {len(reports)} examples not consistent:\n" + "\n".join(lines), failing)
    return reports


@pytest.fixture
def csp_check_calls():
    """The :func:`assert_calls_consistent` helper as a fixture."""
    return assert_calls_consistent
