"""A relexicalized corpus out of an experiment's ``results.jsonl`` (``csp-check experiment
--out DIR``), as raw text, so that ``csp-check drift --corpus DIR --kb KB`` draws its consistency
by depth beside the source corpus and the self-chats (issue 23).

The experiment keeps, per dialogue, each relexicalizer's assignment (variable → value) and the
dialogue's ``source`` file, not the text. :func:`write_relexicalized` rebuilds the text as the
experiment saw it — the source dialogue read again, reduced to its KB-free form
(:func:`csp_check.experiment.kb.with_kb_only`) and delexicalized — with each ``[xN]`` placeholder
replaced by the relexicalizer's value (its own words where the assignment has none, or where the
LLM's answer could not be aligned). The result is one ``### id`` block of ``User:`` / ``System:``
lines per dialogue (the ``text`` format), read back against ``--kb`` like any LLM output
(docs/evaluation-rawtext.md).
"""

from __future__ import annotations

import json
import re
from collections.abc import Mapping
from pathlib import Path

from csp_check.delexicalize.delexicalizer import delexicalize
from csp_check.errors import InputError
from csp_check.experiment.kb import with_kb_only
from csp_check.experiment.run import DialogueResult
from csp_check.models import Dialogue
from csp_check.pipeline import load_corpus
from csp_check.relexicalize.base import UNALIGNED

RESULTS = "results.jsonl"
_PLACEHOLDER = re.compile(r"\[(x\d+)\]")


def experiment_results(path: Path) -> Path | None:
    """``path``'s experiment results file: ``path`` itself when it is a ``results.jsonl`` whose
    first line is a dialogue result with ``assignments``, or ``path/results.jsonl``; else None."""
    candidate = path / RESULTS if path.is_dir() else path
    if candidate.name != RESULTS or not candidate.is_file():
        return None
    with open(candidate, encoding="utf-8") as f:
        first = f.readline()
    try:
        return candidate if "assignments" in json.loads(first) else None
    except ValueError:
        return None


def _source(results: Path, source: str) -> Path:
    """A result's source file: as written, else relative to the folder the experiment ran in
    (the results folder's parent), else relative to the results folder."""
    for candidate in (Path(source), results.parent.parent / source, results.parent / source):
        if candidate.exists():
            return candidate
    raise InputError(str(results), f"source {source} of the experiment cannot be found")


def relexicalized_text(dialogue: Dialogue, assignment: Mapping[str, object]) -> str:
    """The ``text``-format block of ``dialogue`` with ``assignment``'s values in its placeholders."""
    delex = delexicalize(with_kb_only(dialogue))
    own = {v.name: v.text or "" for v in delex.variables}

    def fill(m: re.Match[str]) -> str:
        value = assignment.get(m.group(1))
        return own.get(m.group(1), "") if value is None or value == UNALIGNED else str(value)

    lines = [f"### {dialogue.id}"]
    for speaker, template in zip(delex.speakers, delex.turns):
        text = " ".join(_PLACEHOLDER.sub(fill, template).split()) or "..."
        lines.append(f"{'User' if speaker == 'user' else 'System'}: {text}")
    return "\n".join(lines) + "\n"


def write_relexicalized(results: Path, out: Path, relexicalizer: str = "llm") -> int:
    """Write the dialogues ``relexicalizer`` filled in ``results`` to ``out`` (``text`` format);
    returns how many. Raises :class:`InputError` when no dialogue of the results has that
    relexicalizer's assignment or a source cannot be read."""
    rows: dict[tuple[str, str], DialogueResult] = {}
    with open(results, encoding="utf-8") as f:
        for number, line in enumerate(f, 1):
            if not line.strip():
                continue
            try:
                row = DialogueResult.model_validate_json(line)
            except ValueError as err:
                raise InputError(f"{results}:{number}", f"not an experiment result: {str(err).splitlines()[0]}") from None
            if row.error is None and relexicalizer in row.assignments:
                rows[(row.source, row.dialogue_id)] = row
    if not rows:
        raise InputError(str(results), f"no dialogue has a {relexicalizer!r} assignment (run the experiment with --base-url)")
    written = 0
    with open(out, "w", encoding="utf-8") as f:
        for source in sorted({s for s, _ in rows}):
            for item in load_corpus([_source(results, source)]):
                if isinstance(item, Dialogue) and (source, item.id) in rows:
                    f.write(relexicalized_text(item, rows[(source, item.id)].assignments[relexicalizer]) + "\n")
                    written += 1
    return written
