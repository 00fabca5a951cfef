"""pytest plugin: assert in a test suite that generated dialogue data is consistent.

Registered through the ``pytest11`` entry point, so it is active once csp-check is installed.
It gives (see ``docs/pytest-plugin.md`` for a complete example):

- :func:`assert_consistent` — a plain helper (usable without pytest too) that checks dialogues,
  a file or a directory against C1–C6 and raises :class:`InconsistentDialogues` (an
  ``AssertionError``) whose message lists every violation: dialogue, turn, span text, rule id
  and evidence. A dialogue whose violations are all uncertain (status ``uncertain``: for review)
  passes with a :class:`ViolationsForReview` warning listing them (pytest shows it in its
  warnings summary); with ``strict=True`` (ini ``csp_check_strict = true``) it fails too.
- the ``csp_check`` fixture — the same helper with the suite's defaults (``--csp-check-kb`` /
  ini ``csp_check_kb``, ini ``csp_check_constraints``, and a ``@pytest.mark.csp_check(kb=…,
  constraints=…)`` marker on the test).
- collection of dialogue files as test items, one item per dialogue, for files matching the
  ini option ``csp_check_files`` (glob patterns, e.g. ``*.dialogues.jsonl``, matched against the file
  name; a pattern with a ``/``, e.g. ``out/*.jsonl``, against the path from pytest's rootdir; off when unset).

The checker is the solver-free one of :func:`csp_check.pipeline.check_dialogue` (spec §2).
"""

from __future__ import annotations

import fnmatch
import warnings
from collections.abc import Iterable, Iterator, Sequence
from dataclasses import dataclass, field
from itertools import chain, islice
from pathlib import Path
from typing import Any

import pytest

from csp_check.errors import InconsistentDialogues, InputError, NoDialogues, error_line
from csp_check.families.selection import dialogue_constraints
from csp_check.models import ALL_CONSTRAINTS, ConstraintId, Dialogue, DialogueReport, KnowledgeBase, Violation
from csp_check.pipeline import load_corpus
from csp_check.readers.kb import kb_from_json
from csp_check.readers.kb import load_kb as load_kb_file
from csp_check.run.runner import Settings, check_items

KbLike = KnowledgeBase | dict | str | Path | None


class ViolationsForReview(UserWarning):
    """Dialogues whose violations are all uncertain (for review, not inconsistent): the message
    lists them as :class:`InconsistentDialogues` does."""
DialoguesLike = Dialogue | str | Path | Iterable[Dialogue]


# --------------------------------------------------------------------------- the helper


def load_kb(kb: KbLike) -> KnowledgeBase | None:
    """A :class:`KnowledgeBase` from a model, a dict or a JSON file, through the one KB loader.

    Accepted: whatever :func:`csp_check.readers.kb.load_kb` reads (our KB JSON, a MultiWOZ ``*_db.json``
    file or directory, the short form ``{domain: [entity, …]}``), and the same shapes as a dict
    (:func:`csp_check.readers.kb.kb_from_json`). Raises :class:`~csp_check.errors.InputError` for an
    unreadable file or a dict of another shape.
    """
    if kb is None or isinstance(kb, KnowledgeBase):
        return kb

    if isinstance(kb, (str, Path)):
        return load_kb_file(kb)
    if not isinstance(kb, dict):
        raise InputError("<kb>", f"expected a KnowledgeBase, a KB file or a dict of domain tables, found {type(kb).__name__}")
    return kb_from_json(kb)


def check(
    dialogues: DialoguesLike,
    kb: KbLike = None,
    constraints: Iterable[ConstraintId | str] = ALL_CONSTRAINTS,
    fmt: str = "auto",
) -> list[DialogueReport]:
    """One :class:`DialogueReport` per dialogue (an ``error`` report per unreadable one).

    ``dialogues``: a :class:`Dialogue`, an iterable of them, or a path (file or directory, any
    format :func:`csp_check.pipeline.load_corpus` reads). Each dialogue is checked as
    ``csp-check validate`` checks it (:func:`csp_check.run.runner.check_items`): a dialogue whose
    check crashes gets an ``error`` report, the others are still checked; a path with no dialogue
    is one ``error`` report, ``no dialogues in PATH (why)``. Raises ``FileNotFoundError`` for a
    path that does not exist (``csp-check: error: PATH: no such file or directory (cwd DIR)``),
    and :class:`~csp_check.errors.UsageError` for ``constraints`` that are not dialogue families
    (:func:`dialogue_constraints`).
    """
    return _checked(dialogues, kb, constraints, fmt)[0]


def _checked(
    dialogues: DialoguesLike, kb: KbLike, constraints: Iterable[ConstraintId | str], fmt: str
) -> tuple[list[DialogueReport], NoDialogues | None]:
    """:func:`check`'s reports, and the :class:`NoDialogues` of an input that holds none (its
    one ``error`` report is among the reports)."""
    knowledge = load_kb(kb)
    enabled = dialogue_constraints(constraints)
    if isinstance(dialogues, Dialogue):
        items: Iterator[Dialogue | InputError] = iter([dialogues])
    elif isinstance(dialogues, (str, Path)):
        if not Path(dialogues).exists():
            raise FileNotFoundError(error_line(f"{dialogues}: no such file or directory (cwd {Path.cwd()})"))
        items = load_corpus([dialogues], fmt, knowledge)
    else:
        items = iter(dialogues)
    head = list(islice(items, 2))  # the rest streams: a corpus is never held whole
    empty = head[0] if len(head) == 1 and isinstance(head[0], NoDialogues) else None
    if not head:
        empty = NoDialogues(repr(dialogues), f"an empty {type(dialogues).__name__}")
    return list(check_items(chain(head, items), Settings(kb=knowledge, constraints=enabled))), empty


def assert_consistent(
    dialogues: DialoguesLike,
    kb: KbLike = None,
    constraints: Iterable[ConstraintId | str] = ALL_CONSTRAINTS,
    fmt: str = "auto",
    allow_empty: bool = False,
    strict: bool = False,
) -> list[DialogueReport]:
    """Check ``dialogues`` (see :func:`check`) and raise unless every one is consistent.

    Returns the reports when all pass. Raises :class:`InconsistentDialogues` (an
    ``AssertionError``) listing each violation as
    ``dialogue ID (file): [C6] turn 3 'three' (x4 = 3): evidence``; unreadable dialogues are
    failures too (``csp-check: error: FILE: dialogue ID: FIELD: what``, as the command line says
    them), and so is an input with no dialogue unless ``allow_empty``: ``no dialogues in PATH
    (why)`` (``[]`` gives ``no dialogues in [] (an empty list)``). Dialogues with uncertain
    violations only (status ``uncertain``) warn (:class:`ViolationsForReview`) unless ``strict``,
    when they fail too.
    """
    __tracebackhide__ = True  # pytest shows the user's line, not ours
    reports, empty = _checked(dialogues, kb, constraints, fmt)
    if empty is not None:
        if allow_empty:
            return []
        raise InconsistentDialogues(error_line(empty), reports)
    failing = ("inconsistent", "error", "uncertain") if strict else ("inconsistent", "error")
    bad = [r for r in reports if r.status.value in failing]
    if bad:
        raise InconsistentDialogues(format_failures(bad, len(reports)), bad)
    review = [r for r in reports if r.status.value == "uncertain"]
    if review:
        warnings.warn(ViolationsForReview(format_failures(review, len(reports), "with violations for review only")),
                      stacklevel=2)
    return reports


def format_failures(reports: Sequence[DialogueReport], total: int | None = None, what: str = "not consistent") -> str:
    """The readable failure message: one block per dialogue, one line per violation (an uncertain
    one marked ``(for review: reason)``)."""
    total = len(reports) if total is None else total
    lines = [f"{len(reports)} of {total} dialogue(s) {what}:"]
    for report in reports:
        where = f" ({report.source})" if report.source else ""
        if report.error:  # the command line's line: FILE: dialogue ID: FIELD: what
            lines.append(error_line(report.error))
            continue
        lines.append(f"dialogue {report.dialogue_id}{where}: {len(report.violations)} violation(s)")
        lines.extend("  " + format_violation(v) for v in report.violations)
    return "\n".join(lines)


def format_violation(violation: Violation) -> str:
    """``[C2] turns 1, 5: 'Italian' (x1 = 'italian'), 'Mexican' (x6 = 'mexican'): evidence``."""
    turns = ("turns " if len(violation.turns) > 1 else "turn ") + ", ".join(map(str, violation.turns))
    spans = ", ".join(
        f"{v.text!r} ({v.name} = {v.value!r})" if v.text is not None else f"(implicit {v.name} = {v.value!r})"
        for v in violation.variables
    )
    review = "" if violation.certain else f" (for review: {violation.uncertain_reason})"
    return f"[{violation.constraint.value}] {turns}: {spans}: {violation.message}{review}"


# --------------------------------------------------------------------------- pytest hooks


def pytest_addoption(parser: pytest.Parser) -> None:
    group = parser.getgroup("csp-check", "dialogue consistency (csp-check)")
    group.addoption("--csp-check-kb", default=None, help="KB JSON used by the csp_check fixture and collected files")
    parser.addini("csp_check_kb", "KB JSON for the csp_check fixture and collected dialogue files", default="")
    parser.addini(
        "csp_check_constraints", "constraint ids to check (default: C1 C2 C3 C4 C5 C6 S1 S2)", type="args", default=[]
    )
    parser.addini(
        "csp_check_files",
        "glob patterns of dialogue files to collect as tests, one item per dialogue (e.g. *.dialogues.jsonl)",
        type="args",
        default=[],
    )
    parser.addini("csp_check_format", "reader of collected files (default auto)", default="auto")
    parser.addini("csp_check_strict", "fail on dialogues whose violations are all uncertain (for review) too",
                  type="bool", default=False)


def pytest_configure(config: pytest.Config) -> None:
    config.addinivalue_line(
        "markers", "csp_check(kb=None, constraints=None, fmt=None): defaults of the csp_check fixture for this test"
    )


@dataclass
class CspCheck:
    """What the ``csp_check`` fixture gives: :func:`assert_consistent` / :func:`check` with defaults."""

    kb: KbLike = None
    constraints: tuple[str, ...] = tuple(c.value for c in ALL_CONSTRAINTS)
    fmt: str = "auto"
    strict: bool = False
    reports: list[DialogueReport] = field(default_factory=list)
    #: The KB of the latest call (its ``kb=`` or the default): what the repr pytest prints on a failure shows.
    last_kb: KbLike = field(default=None, repr=False, compare=False)

    def __repr__(self) -> str:
        """``CspCheck(kb='kb.json', constraints=(...), ...)``: ``kb`` is the KB the latest call checked
        against (a path as given, an in-memory KB by its type), not ``None`` when the call passed it."""
        kb = self.last_kb if self.last_kb is not None else self.kb
        shown = repr(str(kb)) if isinstance(kb, (str, Path)) else (f"<{type(kb).__name__}>" if kb is not None else "None")
        return (f"CspCheck(kb={shown}, constraints={self.constraints!r}, fmt={self.fmt!r}, strict={self.strict!r}, "
                f"reports={self.reports!r})")

    def _kb(self, kb: KbLike) -> KbLike:
        self.last_kb = kb if kb is not None else self.kb
        return self.last_kb

    def check(self, dialogues: DialoguesLike, kb: KbLike = None, constraints: Iterable[str] | None = None) -> list[DialogueReport]:
        out = check(dialogues, self._kb(kb), constraints or self.constraints, self.fmt)
        self.reports.extend(out)
        return out

    def assert_consistent(
        self, dialogues: DialoguesLike, kb: KbLike = None, constraints: Iterable[str] | None = None, allow_empty: bool = False
    ) -> list[DialogueReport]:
        __tracebackhide__ = True
        out = assert_consistent(
            dialogues, self._kb(kb), constraints or self.constraints, self.fmt, allow_empty,
            self.strict,
        )
        self.reports.extend(out)
        return out


def _defaults(config: pytest.Config) -> dict[str, Any]:
    kb = config.getoption("csp_check_kb") or config.getini("csp_check_kb") or None
    if kb and not Path(kb).is_absolute() and (config.rootpath / kb).exists():
        kb = str(config.rootpath / kb)
    constraints = tuple(config.getini("csp_check_constraints")) or tuple(c.value for c in ALL_CONSTRAINTS)
    return {"kb": kb, "constraints": constraints, "fmt": config.getini("csp_check_format") or "auto",
            "strict": bool(config.getini("csp_check_strict"))}


@pytest.fixture
def csp_check(request: pytest.FixtureRequest) -> CspCheck:
    """A :class:`CspCheck` with the suite's defaults, overridden by a ``csp_check`` marker."""
    options = _defaults(request.config)
    marker = request.node.get_closest_marker("csp_check")
    if marker is not None:
        options.update({k: v for k, v in marker.kwargs.items() if v is not None and k in options})
    options["constraints"] = tuple(c.value for c in dialogue_constraints(options["constraints"]))
    return CspCheck(**options)


def pytest_collect_file(file_path: Path, parent: pytest.Collector) -> pytest.Collector | None:
    patterns = parent.config.getini("csp_check_files")
    if not patterns:
        return None
    try:  # a pattern with a folder ("out/*.jsonl") is matched against the path from the rootdir
        relative = file_path.relative_to(parent.config.rootpath).as_posix()
    except ValueError:
        relative = file_path.as_posix()
    if any(fnmatch.fnmatch(relative if "/" in p else file_path.name, p) for p in patterns):
        return DialogueFile.from_parent(parent, path=file_path)
    return None


class DialogueFile(pytest.File):
    """A dialogue file collected by ``csp_check_files``: one :class:`DialogueItem` per dialogue."""

    def collect(self):

        options = dict(_defaults(self.config))
        options["kb"] = load_kb(options["kb"])  # once per file, not once per dialogue
        for i, item in enumerate(load_corpus([self.path], options["fmt"], options["kb"])):
            name = item.id if isinstance(item, Dialogue) else f"unreadable-{i}"
            yield DialogueItem.from_parent(self, name=name, dialogue=item, options=options)


class DialogueItem(pytest.Item):
    """One dialogue of a collected file; fails with the violation list."""

    def __init__(self, *, dialogue: Dialogue | InputError, options: dict[str, Any], **kwargs: Any):
        super().__init__(**kwargs)
        self.dialogue = dialogue
        self.options = options

    def runtest(self) -> None:
        __tracebackhide__ = True
        if isinstance(self.dialogue, InputError):
            raise InconsistentDialogues(error_line(self.dialogue), [])
        assert_consistent(self.dialogue, self.options["kb"], self.options["constraints"], self.options["fmt"],
                          strict=self.options["strict"])

    def repr_failure(self, excinfo: pytest.ExceptionInfo[BaseException], style: Any = None) -> str:
        if isinstance(excinfo.value, InconsistentDialogues):
            return str(excinfo.value)
        return super().repr_failure(excinfo, style)

    def reportinfo(self) -> tuple[Path, int | None, str]:
        return self.path, None, f"dialogue {self.name}"
