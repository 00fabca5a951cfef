"""Experiment tables and plots for the API calls (paper §5, Tables 2 and 5): metrics by
reasoning type for three ways of choosing the applicable instructions, each interpreted by the
solver (:func:`csp_check.nlsi.derive.derive`):

- ``derive`` — the solver selects and interprets (the rules that fire; spec §1);
- ``bm25`` — BM25 top-N selection (paper §4.3, N=4), then the solver over the selected rules only
  (the paper's Select-Then-Interpret with our interpreter);
- ``llm-icl`` — LLM in-context-learning selection (paper §4.3 "ICL"), then the solver likewise.

Metrics (:mod:`csp_check.nlsi.metrics`, paper §5.1 / App. B): exact match, slot F1, instruction
EM / F1, hallucination, in percent. The paper's figures (test set, GPT-4) are printed beside ours
and are not comparable one-to-one (other data, other interpreter). Written as ``nlsi_tables.md``,
one CSV per table and, unless ``plots=False``, ``nlsi_by_type.png`` (matplotlib).
"""

from __future__ import annotations

import dataclasses
import time
from dataclasses import dataclass, field
from pathlib import Path

from csp_check.experiment.plots import pyplot, save_figure
from csp_check.experiment.tables import Table
from csp_check.nlsi.calls import parse_calls
from csp_check.nlsi.check import Checker
from csp_check.nlsi.derive import derive
from csp_check.nlsi.metrics import PAPER, PAPER_BY_TYPE, Scores, exact_match, f1, selection_scores, triples
from csp_check.nlsi.models import Example
from csp_check.nlsi.schema import normalize
from csp_check.nlsi.selection import Bm25Selector

METRICS = ("em", "slot_f1", "sel_em", "sel_f1", "halluc")
#: Our method → the paper's Table 2 row (GPT-4) printed beside it.
PAPER_ROW = {"derive": "ICL selection + interpretation", "bm25": "BM25 selection", "llm-icl": "ICL selection + interpretation"}
TYPES = list(PAPER_BY_TYPE)


@dataclass
class CallsExperiment:
    """Scores per method (``derive``, ``bm25``, ``llm-icl``) and the run's facts."""

    scores: dict[str, Scores] = field(default_factory=dict)
    n_examples: int = 0
    excluded: int = 0  # examples used as ICL demonstrations (scored by no method)
    seconds: float = 0.0
    notes: list[str] = field(default_factory=list)


def _score(scores: Scores, e: Example, calls: list[str], selected: list[str]) -> None:
    gold, _ = parse_calls(e.api_calls or [])
    profile = [i.nl_instruction for i in e.all_standing_instructions]
    gold_i = [i.nl_instruction for i in e.applicable_standing_instructions or []]
    sel_em, sel_f1, halluc = selection_scores(selected, gold_i, profile)
    scores.add(e.reasoning_type.value, em=exact_match(calls, gold), slot_f1=f1(triples(calls), triples(gold)),
               sel_em=sel_em, sel_f1=sel_f1, halluc=halluc)  # fmt: skip


def run_calls_experiment(
    examples: list[Example], checker: Checker, bm25_top: int | None = 4, icl=None, log=None
) -> CallsExperiment:
    """Score ``derive``, ``bm25`` (if ``bm25_top`` and rank-bm25 is installed) and ``llm-icl``
    (if ``icl``, an :class:`~csp_check.nlsi.selection.LlmIclSelector`) on the examples with gold
    calls and gold applicable instructions. ICL demonstrations are left out of every method."""
    start = time.perf_counter()
    res = CallsExperiment()
    demo_ids = icl.demo_ids if icl is not None else set()
    todo = [e for e in examples if e.api_calls is not None and e.applicable_standing_instructions is not None]
    res.excluded = sum(e.example_id in demo_ids for e in todo)
    todo = [e for e in todo if e.example_id not in demo_ids]
    res.n_examples = len(todo)
    contexts = [checker.context(e) for e in todo]
    selections: dict[str, list[list[str]]] = {}
    if bm25_top:
        try:
            bm = Bm25Selector(examples, top=bm25_top)
            selections["bm25"] = [bm.select(e) for e in todo]
        except ImportError as err:
            res.notes.append(f"BM25 skipped: {err}")
    if icl is not None:
        if log:
            log(f"ICL selection: {len(todo)} prompts")
        selections["llm-icl"] = icl.select_many(todo, progress=log is not None)
        if icl.failures and icl.failures == len(todo):  # nothing measured: no row, and say why
            del selections["llm-icl"]
            res.notes.append(f"no llm-icl row: every one of the {len(todo)} ICL requests failed (the LLM was not measured)")
        elif icl.failures:
            res.notes.append(f"llm-icl: {icl.failures} of {len(todo)} requests failed (selected nothing)")
    res.scores["derive"] = Scores()
    for e, ctx in zip(todo, contexts):
        calls, fired = derive(ctx)
        _score(res.scores["derive"], e, [c.render() for c in calls], [r.instruction for r in fired])
    for name, picks in selections.items():
        res.scores[name] = Scores()
        for e, ctx, sel in zip(todo, contexts, picks):
            chosen = {normalize(s) for s in sel}
            sub = dataclasses.replace(ctx, rules=[r for r in ctx.rules if normalize(r.instruction) in chosen])
            calls, _ = derive(sub)
            _score(res.scores[name], e, [c.render() for c in calls], sel)
    res.seconds = time.perf_counter() - start
    return res


def tables(res: CallsExperiment) -> list[Table]:
    """``nlsi_methods`` (all examples, paper Table 2 rows beside) and ``nlsi_by_type`` (per
    method and reasoning type, paper Table 5 GPT-4 EM Oracle / ICL beside)."""
    cols = ["method", "n", "EM", "slot F1", "instr. EM", "instr. F1", "halluc."]
    rows: list[list[object]] = []
    for name, sc in res.scores.items():
        row = sc.table().get("all", {})
        rows.append([name, row.get("n", 0), *(row.get(m) for m in METRICS)])
    for name in dict.fromkeys(PAPER_ROW[m] for m in res.scores):
        p = PAPER[name]
        rows.append([f"paper GPT-4: {name}", None, p.get("em"), p.get("slot_f1"), p.get("sel_em"), p.get("sel_f1"), None])
    p = PAPER["Oracle instructions"]
    rows.append(["paper GPT-4: Oracle instructions", None, p["em"], p["slot_f1"], None, None, None])
    methods = Table("nlsi_methods", "API calls by selection method (%), paper's Table 2 (GPT-4, its test set) below", cols, rows,
                    note=f"{res.n_examples} examples ({res.excluded} ICL demonstrations left out); "
                         "interpretation: the solver over the selected instructions." + "".join(f" {n}." for n in res.notes))  # fmt: skip
    by_rows: list[list[object]] = []
    for name, sc in res.scores.items():
        t = sc.table()
        for rtype in [*TYPES, *sorted(k for k in t if k not in TYPES and k != "all")]:
            if rtype in t:
                paper = PAPER_BY_TYPE.get(rtype, {})
                by_rows.append([name, rtype, t[rtype]["n"], *(t[rtype].get(m) for m in METRICS), paper.get("oracle"), paper.get("icl")])
    by_type = Table("nlsi_by_type", "API calls by reasoning type (%), paper's Table 5 GPT-4 exact match beside",
                    ["method", "reasoning type", "n", "EM", "slot F1", "instr. EM", "instr. F1", "halluc.",
                     "paper EM Oracle", "paper EM ICL"], by_rows)  # fmt: skip
    return [methods, by_type]


def plot(res: CallsExperiment, path: Path) -> Path:
    """Exact match and slot F1 by reasoning type per method, the paper's GPT-4 ICL / Oracle EM
    as markers (matplotlib; ``RuntimeError`` if it is missing)."""

    plt = pyplot()
    fig, axes = plt.subplots(1, 2, figsize=(13, 4.5), sharey=True)
    xs = list(range(len(TYPES)))
    width = 0.8 / max(1, len(res.scores))
    for ax, metric, title in ((axes[0], "em", "exact match"), (axes[1], "slot_f1", "slot F1")):
        for k, (name, sc) in enumerate(res.scores.items()):
            t = sc.table()
            ax.bar([x - 0.4 + width * (k + 0.5) for x in xs], [t.get(r, {}).get(metric, 0.0) for r in TYPES], width, label=name)
        if metric == "em":
            ax.plot(xs, [PAPER_BY_TYPE[r]["icl"] for r in TYPES], "kx", label="paper GPT-4 ICL")
            ax.plot(xs, [PAPER_BY_TYPE[r]["oracle"] for r in TYPES], "k_", markersize=14, label="paper GPT-4 Oracle")
        ax.set_xticks(xs, TYPES, rotation=20)
        ax.set_ylim(0, 105)
        ax.set_title(f"{title} by reasoning type (%)")
        ax.legend(fontsize=7)
    return save_figure(plt, fig, path)


def write_outputs(res: CallsExperiment, out_dir: Path | str, plots: bool = True) -> list[Path]:
    """``nlsi_tables.md``, ``nlsi_methods.csv``, ``nlsi_by_type.csv`` and (``plots``)
    ``nlsi_by_type.png`` in ``out_dir`` (created); returns the paths written."""
    out = Path(out_dir)
    out.mkdir(parents=True, exist_ok=True)
    tabs = tables(res)
    written = []
    md = out / "nlsi_tables.md"
    md.write_text("\n\n".join(t.markdown() for t in tabs) + "\n", encoding="utf-8")
    written.append(md)
    for t in tabs:
        t.write_csv(out / f"{t.key}.csv")
        written.append(out / f"{t.key}.csv")
    if plots:
        written.append(plot(res, out / "nlsi_by_type.png"))
    return written
