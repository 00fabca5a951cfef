"""The paper's Tables 1–5 from an :class:`~csp_check.experiment.run.ExperimentResult`, with the
paper's figures (:mod:`.paper`) beside ours, as markdown and CSV.

- Table 1: dialogues and variables by solution group (0, 1, 2–10, 11–100, 101+; counted with a
  cap of 101, so 101+ is exact as a group; ``unknown`` when the solver timed out).
- Table 2: per constraint, the variables it covers and their share of all variables.
- Table 3: GCA / VCA per relexicalizer (all constraints: the paper's C1–C6).
- Table 4: GCA / VCA by solution group, per relexicalizer.
- Table 5: GCA / VCA per constraint configuration (ablation), per relexicalizer.

GCA = consistent dialogues / dialogues; VCA = Σ agreeing variables / Σ variables; coverage over
the paper's variables, the masks (:mod:`csp_check.score.metrics`, docs/metrics.md; spec §3).
Fractions are 0..1; ``–`` where there is nothing to measure.
"""

from __future__ import annotations

import csv
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from pathlib import Path

from csp_check.families import DIALOGUE_GROUPS, PAPER_GROUPS, families
from csp_check.score import metrics

from . import paper
from .run import DialogueResult, ExperimentResult

PAPER_NAMES = {"random": "Random", "most-frequent": "Most Frequent", "csp": "CSP (solver)", "llm": "LLM"}


@dataclass
class Table:
    """A table: ``columns`` headers and ``rows`` of cells (``str``, ``int``, ``float`` or ``None``)."""

    key: str
    title: str
    columns: list[str]
    rows: list[list[object]]
    note: str = ""

    def markdown(self) -> str:
        head = "| " + " | ".join(self.columns) + " |"
        rule = "| " + " | ".join("---" if i == 0 else "---:" for i in range(len(self.columns))) + " |"
        body = ["| " + " | ".join(_cell(c) for c in row) + " |" for row in self.rows]
        text = f"### {self.title}\n\n" + "\n".join([head, rule, *body])
        return text + (f"\n\n{self.note}" if self.note else "")

    def write_csv(self, path: Path) -> None:
        with open(path, "w", newline="", encoding="utf-8") as f:
            writer = csv.writer(f)
            writer.writerow(self.columns)
            for row in self.rows:
                writer.writerow(["" if c is None else (f"{c:.4f}" if isinstance(c, float) else c) for c in row])


def _cell(value: object) -> str:
    if value is None:
        return "–"
    if isinstance(value, float):
        return f"{value:.2f}"
    return str(value)


def gca(rows: Sequence[DialogueResult], relex: str, config: str = "all") -> float | None:
    """Share of ``rows`` whose ``relex`` assignment has no violation under ``config``."""
    scored = [r.scores[relex][config] for r in rows if relex in r.scores and config in r.scores[relex]]
    return metrics.gca(sum(s.consistent for s in scored), len(scored))


def vca(rows: Sequence[DialogueResult], relex: str, config: str = "all") -> float | None:
    """Σ variables agreeing with the most similar solution / Σ variables, over ``rows``."""
    pairs = [(r.scores[relex][config].agreeing, r.variables) for r in rows if relex in r.scores and config in r.scores[relex]]
    return metrics.vca(sum(a for a, _ in pairs), sum(v for _, v in pairs))


def completed(result: ExperimentResult) -> list[DialogueResult]:
    """The dialogues of ``result`` that ran without an error."""
    return [r for r in result.dialogues if r.error is None]


def _groups(rows: Iterable[DialogueResult]) -> list[str]:
    present = {r.group or "unknown" for r in rows}
    return [g for g in paper.GROUPS] + (["unknown"] if "unknown" in present else [])


def table1(result: ExperimentResult) -> Table:
    rows = completed(result)
    out: list[list[object]] = [["all", len(rows), sum(r.variables for r in rows), *paper.TABLE1["all"]]]
    for g in _groups(rows):
        members = [r for r in rows if (r.group or "unknown") == g]
        out.append([f"{g} sol.", len(members), sum(r.variables for r in members), *paper.TABLE1.get(g, (None, None))])
    capped = sum(r.capped for r in rows)
    note = f"Solutions counted up to 101 ({capped} dialogue(s) reached the cap: 101+)."
    return Table("table1", "Table 1: dialogues and variables by number of CSP solutions",
                 ["group", "dialogues", "variables", "paper dialogues", "paper variables"], out, note)  # fmt: skip


def table2(result: ExperimentResult) -> Table:
    rows = completed(result)
    total = sum(r.variables for r in rows)
    out: list[list[object]] = []
    for family in families(PAPER_GROUPS):
        cid = family.id
        covered = sum(r.coverage.get(cid, 0) for r in rows)
        out.append([cid, covered, metrics.coverage(covered, total), *paper.TABLE2.get(cid, (None, None))])
    for family in families(DIALOGUE_GROUPS):  # apart: not one of the paper's constraints
        if family.group in PAPER_GROUPS:
            continue
        covered = sum(r.coverage.get(family.id, 0) for r in rows)
        out.append([f"{family.id} ({family.group}, not in the paper)", covered, metrics.coverage(covered, total),
                    None, None])
    return Table("table2", "Table 2: variables covered by each constraint",
                 ["constraint", "variables", "coverage", "paper variables", "paper coverage"], out)  # fmt: skip


def table3(result: ExperimentResult) -> Table:
    rows = completed(result)
    out = []
    for name in result.relexicalizers:
        p_gca, p_vca = paper.TABLE3.get(name, (None, None))
        out.append([PAPER_NAMES.get(name, name), gca(rows, name), vca(rows, name), p_gca, p_vca])
    note = "Paper: MultiWOZ 2.3 restaurants, GPT-3.5 as LLM; it has no CSP row (a solver solution is consistent by construction)."
    note += _unsolvable_note(rows, result.relexicalizers)
    if result.llm_left_out:
        note += f" No LLM row: {result.llm_left_out}."
    return Table("table3", "Table 3: GCA / VCA per relexicalizer (all constraints: the paper's C1–C6)",
                 ["relexicalizer", "GCA", "VCA", "paper GCA", "paper VCA"], out, note)  # fmt: skip


def _unsolvable_note(rows: Sequence[DialogueResult], relexicalizers: Sequence[str]) -> str:
    """What the dialogues without a solution do to GCA: their CSP is unsatisfiable (the
    annotation says more than the sampled KB holds), so no relexicalizer is consistent there and
    each counts as inconsistent (the paper's 0-solution group); named, with the CSP row's GCA
    over the solvable ones, so a CSP GCA below 1 never reads as a relexicalizer's failure."""
    unsolvable = [r for r in rows if r.solutions == 0 and not r.capped]
    if not unsolvable:
        return ""
    ids = ", ".join(r.dialogue_id for r in unsolvable[:10]) + (", …" if len(unsolvable) > 10 else "")
    solvable = [r for r in rows if r.solutions != 0 or r.capped]
    consistent = sum(r.scores["csp"]["all"].consistent for r in solvable if "all" in r.scores.get("csp", {}))
    csp = f"; the CSP relexicalizer is consistent on {consistent} of the {len(solvable)} solvable" if "csp" in relexicalizers else ""
    return (f" {len(unsolvable)} dialogue(s) have no solution ({ids}): their CSP is unsatisfiable, no "
            f"relexicalization can be consistent there, and GCA counts them as inconsistent{csp}.")


def table4(result: ExperimentResult) -> Table:
    rows = completed(result)
    columns = ["group", "dialogues"]
    for name in result.relexicalizers:
        columns += [f"{PAPER_NAMES.get(name, name)} GCA", f"{PAPER_NAMES.get(name, name)} VCA"]
    columns += ["paper LLM GCA", "paper LLM VCA"]
    out = []
    for g in _groups(rows):
        members = [r for r in rows if (r.group or "unknown") == g]
        line: list[object] = [f"{g} sol.", len(members)]
        for name in result.relexicalizers:
            line += [gca(members, name), vca(members, name)]
        out.append(line + list(paper.TABLE4.get(g, (None, None))))
    return Table("table4", "Table 4: GCA / VCA by solution group", columns, out)


def table5(result: ExperimentResult) -> Table:
    rows = completed(result)
    columns = ["constraints"]
    for name in result.relexicalizers:
        columns += [f"{PAPER_NAMES.get(name, name)} GCA", f"{PAPER_NAMES.get(name, name)} VCA"]
    columns += ["paper LLM GCA", "paper LLM VCA"]
    out = []
    for config in result.configs:
        line: list[object] = [config]
        for name in result.relexicalizers:
            line += [gca(rows, name, config), vca(rows, name, config)]
        out.append(line + list(paper.TABLE5.get(config, (None, None))))
    note = "Assignments are fixed; each row checks them against a subset of the constraints."
    return Table("table5", "Table 5: ablation — GCA / VCA with constraints removed", columns, out, note)


def all_tables(result: ExperimentResult) -> list[Table]:
    """Tables 1–5 of ``result``."""
    return [table1(result), table2(result), table3(result), table4(result), table5(result)]


def write_tables(result: ExperimentResult, out_dir: Path | str) -> list[Path]:
    """Write ``tables.md`` (all five, with a header on the run) and ``tableN.csv``; returns paths."""
    out = Path(out_dir)
    out.mkdir(parents=True, exist_ok=True)
    tables = all_tables(result)
    rows = completed(result)
    errors = len(result.dialogues) - len(rows)
    header = (
        f"# Relexicalization experiment: {result.domain}\n\n"
        f"{len(rows)} dialogues ({errors} skipped with errors), {sum(r.variables for r in rows)} variables; "
        f"KB per dialogue = pertinent instance(s) + n ~ U{{0..8}} random of a pool of {result.pool_size}; "
        f"seed {result.seed}; solver {result.solver}; {result.seconds:.0f} s.\n"
    )
    paths = [out / "tables.md"]
    paths[0].write_text(header + "\n" + "\n\n".join(t.markdown() for t in tables) + "\n", encoding="utf-8")
    for t in tables:
        path = out / f"{t.key}.csv"
        t.write_csv(path)
        paths.append(path)
    return paths
