"""The CI-ToD benchmark: csp-check's labels against the gold ones, with the paper's metrics.

CI-ToD (Qin et al., EMNLP 2021, §4) scores each label (QI, HI, KBI) by precision, recall and F1
of the positive class (scikit-learn's binary ``precision_recall_fscore_support``) and the whole
triple by overall accuracy (all three labels right: exact match). The published figures are on
the test split (318 dialogues, which this project never reads); :data:`PUBLISHED` holds them
for the table beside ours.

Honest split: calendar and navigate are tuned on their train files; weather has no train file,
so its dev file is split by :func:`csp_check.score.split.half_of` of the dialogue id into a work
half (read while tuning) and a check half (never read): ``half`` keeps one half of every file
given (docs/citod.md).
"""

from __future__ import annotations

import hashlib
import random
import time
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from pathlib import Path

from csp_check.errors import InputError
from csp_check.faults.citod import EXPECTED, PAIR_KINDS, citod_pair
from csp_check.models import Dialogue, Violation
from csp_check.readers import citod
from csp_check.score.citod import LABELS, Labels, labels_of, violations
from csp_check.score.citod_read import Lexicon
from csp_check.score.split import Half, half_of

#: The published test-split figures (CI-ToD, Table 2): F1 per label and overall accuracy.
PUBLISHED: dict[str, dict[str, float]] = {
    "BART": {"qi": 0.744, "hi": 0.510, "kbi": 0.761, "overall": 0.513},
    "BERT": {"qi": 0.691, "hi": 0.555, "kbi": 0.740, "overall": 0.500},
    "human": {"qi": 0.962, "hi": 0.805, "kbi": 0.920, "overall": 0.932},
}


@dataclass
class Scored:
    """One dialogue: its file, index in the file, the dialogue, gold and predicted labels, the
    violations found."""

    path: Path
    index: int
    dialogue: Dialogue
    gold: citod.Gold
    labels: Labels
    found: list[Violation]

    @property
    def right(self) -> bool:
        """Whether all three labels are the gold ones (exact match)."""
        return self.gold.triple() == self.labels.triple()


@dataclass
class Benchmark:
    """The scored dialogues of a run, the input errors, and the seconds spent labelling."""

    scored: list[Scored] = field(default_factory=list)
    errors: list[InputError] = field(default_factory=list)
    seconds: float = 0.0

    def counts(self, label: str) -> tuple[int, int, int]:
        """``(tp, fp, fn)`` of ``label`` (``qi``, ``hi``, ``kbi``)."""
        i = LABELS.index(label)
        tp = sum(1 for s in self.scored if s.gold.triple()[i] and s.labels.triple()[i])
        fp = sum(1 for s in self.scored if not s.gold.triple()[i] and s.labels.triple()[i])
        fn = sum(1 for s in self.scored if s.gold.triple()[i] and not s.labels.triple()[i])
        return tp, fp, fn

    def prf(self, label: str) -> tuple[float, float, float]:
        """Precision, recall and F1 of ``label`` (0.0 where undefined, as scikit-learn's
        ``zero_division=0``)."""
        tp, fp, fn = self.counts(label)
        p = tp / (tp + fp) if tp + fp else 0.0
        r = tp / (tp + fn) if tp + fn else 0.0
        return p, r, 2 * p * r / (p + r) if p + r else 0.0

    @property
    def accuracy(self) -> float:
        """Overall accuracy: the share of dialogues with all three labels right."""
        return sum(s.right for s in self.scored) / len(self.scored) if self.scored else 0.0

    @property
    def ms_per_dialogue(self) -> float:
        """Milliseconds of labelling (reading excluded) per dialogue."""
        return 1000 * self.seconds / len(self.scored) if self.scored else 0.0

    def to_json(self) -> dict[str, object]:
        """The figures as a JSON-able dict: per label P/R/F1 and counts, overall accuracy,
        dialogues, errors, ms per dialogue."""
        out: dict[str, object] = {}
        for label in LABELS:
            p, r, f = self.prf(label)
            tp, fp, fn = self.counts(label)
            out[label] = {"precision": round(p, 4), "recall": round(r, 4), "f1": round(f, 4), "tp": tp, "fp": fp,
                          "fn": fn}
        out.update(overall=round(self.accuracy, 4), dialogues=len(self.scored), errors=len(self.errors),
                   ms_per_dialogue=round(self.ms_per_dialogue, 2))
        return out


#: The first line of the disagreements file (an earlier one may be overwritten).
DISAGREEMENTS_HEADER = "# CI-ToD: disagreements with the gold labels"

def run(paths: Iterable[str | Path], half: Half | None = None) -> Benchmark:
    """Label every dialogue of the CI-ToD files ``paths`` (only those of ``half`` when given)
    and score them against their gold labels. A broken item or one without gold labels is an
    :class:`InputError` of the result, never raised."""
    bench = Benchmark()
    for raw in paths:
        path = Path(raw)
        for index, (item, gold) in enumerate(citod.items(path)):
            if isinstance(item, InputError):
                bench.errors.append(item)
                continue
            if gold is None:
                bench.errors.append(InputError(f"{path}:item {index}", "scenario.qi/hi/kbi: no gold labels",
                                               dialogue=item.id))
                continue
            if half is not None and half_of(item.id) != half:
                continue
            start = time.perf_counter()
            found = violations(item)
            bench.seconds += time.perf_counter() - start
            bench.scored.append(Scored(path, index, item, gold, labels_of(found), found))
    return bench


def fault_rates(bench: Benchmark, seed: int = 0) -> dict[str, tuple[int, int, int]]:
    """Per fault kind (:mod:`csp_check.faults.citod`), over the dialogues whose gold and
    predicted labels are all consistent: ``(pairs, faults whose expected label is set, twins
    with any label set)``."""
    rng = random.Random(seed)
    out: dict[str, tuple[int, int, int]] = {}
    for kind in PAIR_KINDS:
        pairs = caught = twins = 0
        for s in bench.scored:
            if any(s.gold.triple()) or any(s.labels.triple()):
                continue
            pair = citod_pair(s.dialogue, kind, rng)
            if pair is None:
                continue
            pairs += 1
            caught += getattr(labels_of(violations(pair.fault)), EXPECTED[kind])
            twins += any(labels_of(violations(pair.twin)).triple())
        out[kind] = (pairs, caught, twins)
    return out


def table(bench: Benchmark, title: str = "csp-check") -> str:
    """The figures as a text table: P / R / F1 per label and overall accuracy, with the
    published BART / BERT / human F1 and accuracy beside them (those are on the test split)."""
    lines = [f"{len(bench.scored)} dialogues, {len(bench.errors)} errors, "
             f"{bench.ms_per_dialogue:.2f} ms per dialogue (labelling, reading excluded)", ""]
    lines.append(f"{'':10}{'QI':>22}{'HI':>22}{'KBI':>22}{'overall':>10}")
    lines.append(f"{'':10}" + "".join(f"{'P':>8}{'R':>7}{'F1':>7}" for _ in LABELS) + f"{'acc':>10}")
    row = "".join(f"{p:8.3f}{r:7.3f}{f:7.3f}" for p, r, f in (bench.prf(label) for label in LABELS))
    lines.append(f"{title[:10]:10}{row}{bench.accuracy:10.3f}")
    for name, figures in PUBLISHED.items():
        cells = "".join(f"{'':>8}{'':>7}{figures[label]:7.3f}" for label in LABELS)
        lines.append(f"{name + '*':10}{cells}{figures['overall']:10.3f}")
    lines.append("* published, on the test split (CI-ToD, Qin et al. 2021, Table 2): F1 and overall accuracy only")
    return "\n".join(lines)


def sample_key(s: Scored) -> str:
    """The fixed hash a disagreement is sampled by: SHA-256 of the file name, item index and id."""
    return hashlib.sha256(f"{s.path.name}:{s.index}:{s.dialogue.id}".encode()).hexdigest()


def disagreements(bench: Benchmark, n: int = 30) -> list[Scored]:
    """``n`` dialogues whose label triple differs from the gold one, the first by :func:`sample_key`."""
    return sorted((s for s in bench.scored if not s.right), key=sample_key)[:n]


def disagreements_markdown(chosen: Sequence[Scored]) -> str:
    """A file a fresh evaluator reads blind: per dialogue its text, KB rows, the gold labels,
    csp-check's and the violations' messages (certain or for review), and blanks to fill in."""
    out = [DISAGREEMENTS_HEADER, "",
           "Each dialogue below is one where csp-check's labels (QI / HI / KBI for the LAST assistant turn) "
           "differ from CI-ToD's gold labels. For each, say per differing label whether the gold label is "
           "right (csp-check missed it or raised a false alarm) or the gold label is noise, and the class.",
           "QI: the last response does not answer the user's last query; HI: it contradicts the dialogue "
           "history; KBI: it contradicts the KB.", ""]
    for k, s in enumerate(chosen, 1):
        lex = Lexicon(s.dialogue)
        out += [f"## {k}. {s.path.name} item {s.index} (id {s.dialogue.id}, {lex.domain})", "", "KB rows:", ""]
        if lex.rows:
            columns = list(dict.fromkeys(c for row in lex.rows for c in row))
            out += ["| " + " | ".join(columns) + " |", "|" + "---|" * len(columns)]
            out += ["| " + " | ".join(row.get(c, "") for c in columns) + " |" for row in lex.rows]
        else:
            out.append("(none)")
        out += ["", "Dialogue:", ""]
        out += [f"{t.index}. **{'driver' if t.speaker == 'user' else 'assistant'}**: {t.utterance}"
                for t in s.dialogue.turns]
        gold, ours = s.gold.triple(), s.labels.triple()
        out += ["", "| label | gold | csp-check |", "|---|---|---|"]
        out += [f"| {label.upper()} | {int(g)} | {int(o)} |" for label, g, o in zip(LABELS, gold, ours, strict=True)]
        if s.gold.hi_position:
            out.append(f"\nGold HIPosition: {list(s.gold.hi_position)}")
        out += ["", "Violations:", ""]
        out += [f"- {v.constraint.value} ({v.reading[0] if v.reading else ''}, "
                f"{'certain' if v.certain else 'for review: ' + (v.uncertain_reason or '')}): {v.message}"
                for v in s.found] or ["- (none)"]
        out += ["", "Evaluator: gold right / noise per differing label: ____; class: ____", ""]
    return "\n".join(out) + "\n"


__all__ = ["PUBLISHED", "Benchmark", "Scored", "disagreements", "disagreements_markdown", "fault_rates", "run",
           "sample_key", "table"]
