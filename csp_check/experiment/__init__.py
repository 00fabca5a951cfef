"""The paper's experiments (§4–5, spec §4): per-dialogue KB sampling (:mod:`.kb`), the run
(:mod:`.run`), Tables 1–5 (:mod:`.tables`) and PNG plots (:mod:`.plots`).

>>> from csp_check.experiment import ExperimentConfig, run_experiment, write_outputs
>>> result = run_experiment(ExperimentConfig(paths=["../shared/data/sgd/train"], limit=100))
>>> write_outputs(result, "out/")   # results.jsonl, tables.md, table1..5.csv, *.png
"""

from __future__ import annotations

from pathlib import Path

from .plots import write_plots
from .run import CONFIGS, DialogueResult, ExperimentConfig, ExperimentResult, run_experiment
from .tables import all_tables, write_tables


def write_outputs(result: ExperimentResult, out_dir: Path | str, plots: bool = True) -> list[Path]:
    """Write ``results.jsonl`` (one :class:`DialogueResult` a line), the tables (markdown + CSV)
    and, if ``plots``, the PNGs into ``out_dir``; returns the paths written."""
    out = Path(out_dir)
    out.mkdir(parents=True, exist_ok=True)
    results = out / "results.jsonl"
    with open(results, "w", encoding="utf-8") as f:
        for row in result.dialogues:
            f.write(row.model_dump_json() + "\n")
    paths = [results, *write_tables(result, out)]
    if plots:
        paths += write_plots(result, out)
    return paths


__all__ = [
    "CONFIGS", "DialogueResult", "ExperimentConfig", "ExperimentResult", "all_tables", "run_experiment",
    "write_outputs", "write_tables",
]
