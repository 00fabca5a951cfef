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

from csp_check.errors import InconsistentCalls
from csp_check.nlsi.check import Checker
from csp_check.nlsi.models import CallReport, Example
from csp_check.nlsi.readers import ExampleError, iter_paths, read_examples
from csp_check.nlsi.schema import NlsiSchema, load_schema


def assert_calls_consistent(
    examples: Example | Iterable[Example] | str | Path,
    schema: NlsiSchema | str | Path | Iterable[str | Path],
    field: str = "api_calls",
    llm_parse=None,
) -> list[CallReport]:
    """Check examples (objects, or a JSONL file / directory) against P1–P6; return the reports.

    ``llm_parse``: :class:`csp_check.llm.client.LLMSettings` to read instructions the rule parser
    cannot through a chat model (validated, cached; :mod:`csp_check.nlsi.llm_parse`); off (None)
    by default.

    Raises :class:`InconsistentCalls` when any example is inconsistent or in error, or any line
    is unreadable; the message has one line per violation or error.
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
    checker = Checker(schema, field=field, llm_parse=llm_parse)
    reports, lines = [], []
    for item in items:
        if isinstance(item, ExampleError):
            lines.append(str(item))
            continue
        rep = checker.check(item)
        reports.append(rep)
        lines += [f"example {rep.example_id}: error: {e}" for e in rep.errors]
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
