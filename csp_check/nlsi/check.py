"""Check one example's API calls against P1–P6 (spec §4) and optionally derive them (spec §1).

:class:`Checker` holds the schema and the instruction parser (matchers built once) and turns an
:class:`~csp_check.nlsi.models.Example` into a :class:`~csp_check.nlsi.models.CallReport`:
``error`` when a call is malformed, a method unknown or the profile empty (the other calls are
still checked and their violations listed), else ``inconsistent`` when a family is violated,
else ``consistent``.
"""

from __future__ import annotations

from dataclasses import replace

from csp_check.nlsi.calls import is_request, parse_calls, without_requests
from csp_check.nlsi.derive import INTERPRETER, derive_with, solve_count
from csp_check.nlsi.families import Context, violations
from csp_check.nlsi.ground import ground
from csp_check.nlsi.instructions import InstructionParser, Rule, Unparsed, repair_template, split_actions
from csp_check.nlsi.llm_parse import LlmFallbackParser
from csp_check.nlsi.models import ApiCall, CallReport, CallStatus, Example
from csp_check.nlsi.schema import NlsiSchema
from csp_check.nlsi.templates import parse_template


class Checker:
    """Checks examples against one schema. ``field``: ``api_calls`` or ``pred_api_calls``."""

    def __init__(self, schema: NlsiSchema, field: str = "api_calls", use_annotation: bool = True, llm_parse=None,
                 solver: str = INTERPRETER):
        """``llm_parse``: :class:`csp_check.llm.client.LLMSettings` to read instructions the rule
        parser cannot through a chat model (validated; :mod:`csp_check.nlsi.llm_parse`), or None.
        ``solver``: what derives (``interpreter``, the fast path, or a backend: ``cp-sat``,
        ``minizinc``; :func:`csp_check.nlsi.derive.derive_with`); with a backend the report
        also gets ``derived_solutions`` (the value choices of the derived calls, capped at 2)."""
        self.solver = solver
        self.schema = schema
        self.parser = InstructionParser(schema)
        self.field = field
        self.use_annotation = use_annotation
        self._slot_names = frozenset(s for slots in schema.domains.values() for s in slots)
        self.fallback = None
        if llm_parse is not None:
            self.fallback = LlmFallbackParser(self.parser, llm_parse)

    def context(self, example: Example) -> Context:
        """Parse the profile and ground the dialogue: the families' view of the example."""
        rules: list[Rule] = []
        unparsed: list[Unparsed] = []
        parser = self.fallback or self.parser
        for ins in example.all_standing_instructions:
            pieces = split_actions(ins.nl_instruction, self._slot_names)
            outs = [parser.parse(p, ins.instruction_id) for p in pieces]
            if len(pieces) > 1 and all(isinstance(o, Rule) for o in outs):  # one rule per action, named by the whole text
                rules += [replace(o, instruction=ins.nl_instruction) for o in outs if isinstance(o, Rule)]
                continue
            out = outs[0] if len(pieces) == 1 else parser.parse(ins.nl_instruction, ins.instruction_id)
            if isinstance(out, Unparsed):  # the release's template shapes, values from the text
                shaped = parse_template(self.schema, repair_template(ins.nl_instruction))
                if shaped is not None:
                    out = replace(shaped, instruction=ins.nl_instruction, instruction_id=ins.instruction_id)
            (rules if isinstance(out, Rule) else unparsed).append(out)
        return Context(example, self.schema, rules, unparsed, ground(example, self.parser, self.use_annotation, rules))

    def check_calls(self, example: Example, calls: list[ApiCall], ctx: Context | None = None) -> CallReport:
        """Report for an explicit call set (used by the fault benchmark)."""
        ctx = ctx or self.context(example)
        return self._report(example, ctx, calls, [])

    def check(self, example: Example, derive_calls: bool = False, source: str | None = None) -> CallReport:
        """Parse the example's calls (``self.field``), check them; with ``derive_calls`` also
        fill ``derived_api_calls`` / ``derived_instructions``."""
        ctx = self.context(example)
        raw = getattr(example, self.field, None)
        errors: list[str] = []
        calls: list[ApiCall] = []
        if raw is None:
            if not derive_calls:
                errors.append(f"{self.field}: missing")
        else:
            calls, bad = parse_calls(list(raw))
            errors += [f"{self.field}: {e}" for e in bad]
        markers = sum(is_request(v) for c in calls for _, v in c.arguments)
        calls = [without_requests(c) for c in calls]
        report = self._report(example, ctx, calls, errors, source)
        report.request_markers = markers
        if derive_calls:
            dcalls, fired = derive_with(ctx, self.solver)
            report.derived_api_calls = [c.render() for c in dcalls]
            report.derived_instructions = [r.instruction for r in fired]
            if self.solver != INTERPRETER:
                report.derived_solutions = solve_count(ctx, dcalls, solver=self.solver) if dcalls else 0
        return report

    def _report(self, example: Example, ctx: Context, calls: list[ApiCall], errors: list[str], source: str | None = None) -> CallReport:
        if not example.all_standing_instructions:
            errors = errors + ["all_standing_instructions: empty profile"]
        viols = violations(ctx, calls)
        for c in calls:
            if ctx.domain_of(c) is None:
                errors.append(f"{self.field}: unknown method {c.method} in {c.shown()}")
        status = CallStatus.ERROR if errors else CallStatus.INCONSISTENT if viols else CallStatus.CONSISTENT
        return CallReport(
            example_id=example.example_id,
            source=source,
            status=status,
            reasoning_type=example.reasoning_type,
            violations=viols,
            errors=errors,
            unparsed_instructions=[f"{u.instruction} ({u.reason})" for u in ctx.unparsed],
            method_aliases=sorted({c.method for c in calls if self.schema.method_alias(c.method)}),
            llm_parsed_instructions=None if self.fallback is None else [
                f"{r.instruction} ({r.describe()})" for r in ctx.rules if r.parsed_by == "llm"],
        )  # fmt: skip
