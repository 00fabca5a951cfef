"""What a corpus run shows without rich (which costs start-up time: :mod:`csp_check.output.console`
is loaded only when a bar or the summary is shown).

- :class:`QuietProgress`: :class:`~csp_check.output.console.RunProgress`'s interface with no bar
  (``--quiet``, or stderr not a terminal): the per-dialogue error lines, one line each;
- :func:`summary_json`: the summary as one JSON object (:meth:`CorpusSummary.to_json_dict`);
- :class:`KbUse`: which input files got no KB constraint (C4–C6) for want of a KB, and the
  warning that says so.
"""

from __future__ import annotations

import json
from types import TracebackType

import click

from csp_check.models import DialogueReport, Status
from csp_check.readers.surrogates import safe
from csp_check.score.corpus import CorpusSummary


def n(x: int) -> str:
    """``12,345``: a count as the summary writes it."""
    return f"{x:,}"


def counted(x: int, noun: str, plural: str | None = None) -> str:
    """``1 dialogue``, ``12,345 dialogues``: a count with its noun in the number it takes
    (``plural`` for an irregular one; else ``noun + "s"``)."""
    return f"{x:,} {noun if x == 1 else plural or noun + 's'}"


class QuietProgress:
    """No bar: ``advance``, ``step`` and ``set_total`` count nothing; :meth:`error` prints the line."""

    enabled = False

    def __enter__(self) -> QuietProgress:
        return self

    def __exit__(self, *exc: type[BaseException] | BaseException | TracebackType | None) -> None:
        return None

    def set_total(self, total: int) -> None:
        return None

    def advance(self, report: DialogueReport) -> None:
        return None

    def step(self, source: str, inconsistent: bool = False, error: bool = False) -> None:
        return None

    def error(self, line: str) -> None:
        """Print one error line on stderr, as is."""
        click.echo(line, err=True)


class KbUse:
    """Per input file: dialogues with variables, and those of them given any C4–C6 instance.

    A run without ``--kb`` builds C4–C6 only from KB results inside the data (spec §6: SGD
    ``service_results``, unified ``db_results``, our JSONL ``kb_results``). A file none of
    whose dialogues got a C4–C6 instance almost surely had no KB: :meth:`warning` names it (and
    says only what is known: no ``--kb``, no C4–C6 built). A single dialogue without one is
    normal: it may offer nothing.
    """

    KB_CONSTRAINTS = ("C4", "C5", "C6")

    def __init__(self) -> None:
        self.files: dict[str, list[int]] = {}  # source → [dialogues with variables, with C4–C6]
        #: (source, dialogue id) → the domains a certain C4–C6 violation of that dialogue is about
        self.flagged: dict[tuple[str, str], set[str]] = {}

    def add(self, report: DialogueReport) -> None:
        """Count one checked dialogue (errors and empty dialogues are not counted)."""
        if report.status is Status.ERROR or not report.variables:
            return
        domains = {ref.slot.split(".")[0] for v in report.violations if v.certain and v.constraint.value in self.KB_CONSTRAINTS
                   for ref in v.variables if "." in ref.slot}  # fmt: skip
        if domains:
            self.flagged[(report.source, report.dialogue_id)] = domains
        counts = self.files.setdefault(report.source, [0, 0])
        counts[0] += 1
        counts[1] += any(report.coverage.get(c, 0) for c in self.KB_CONSTRAINTS)

    def without_kb(self) -> list[str]:
        """The files whose dialogues got no C4–C6 instance at all, in input order."""
        return [source for source, (_, kb) in self.files.items() if kb == 0]

    def warning(self, enabled: tuple[str, ...] = KB_CONSTRAINTS) -> str | None:
        """One short line for stderr, printed before the summary, when some file had no KB
        (``None`` otherwise, or when none of C4–C6 is enabled): ``warning: no --kb: C4-C6 not
        built for the N dialogue(s) of FILE (no KB results in the data); give --kb FILE_OR_DIR
        (MultiWOZ: its db/ folder)``."""
        files = self.without_kb()
        if not files or not set(enabled) & set(self.KB_CONSTRAINTS):
            return None
        where = files[0] if len(files) == 1 else f"{files[0]} and {len(files) - 1} more {'file' if len(files) == 2 else 'files'}"
        every = len(files) == len(self.files) and len(files) > 1
        return no_kb_line(sum(self.files[f][0] for f in files), where, every)


def no_kb_line(dialogues: int, where: str, every: bool = False) -> str:
    """The one no-KB warning line of every command (``validate``, ``drift --corpus``): ``warning:
    no --kb: C4-C6 not built for the N dialogue(s) of WHERE (no KB results in the data[, every
    input]); give --kb FILE_OR_DIR (MultiWOZ: its db/ folder)``."""
    return (f"warning: no --kb: C4-C6 not built for the {counted(dialogues, 'dialogue')} of {where} (no KB results in "
            f"the data{', every input' if every else ''}); give --kb FILE_OR_DIR (MultiWOZ: its db/ folder)")


def summary_json(summary: CorpusSummary, warnings: list[str] | None = None) -> str:
    """The summary as a JSON object (one line); ``warnings`` (e.g. :meth:`KbUse.warning`) under
    the key ``warnings`` when there are any (``--json`` keeps stderr for errors)."""
    data = summary.to_json_dict()
    if warnings:
        data["warnings"] = warnings
    return safe(json.dumps(data, ensure_ascii=False))  # a lone surrogate (a file's name, a KB's key) as its JSON escape
