"""Data model of csp-check: every stage of the pipeline reads and writes these types.

Pipeline (spec §1): reader → :class:`Dialogue` (annotated turns) → delexicalize →
:class:`DelexicalizedDialogue` (variables) → build constraints → :class:`CSP` → check /
solve → :class:`DialogueReport`.

All models are pydantic v2 and JSON-serialisable (``model_dump(mode="json")``).
Character offsets are Python string indices into ``Turn.utterance`` (end exclusive).
"""

from __future__ import annotations

from enum import Enum
from typing import Any, Literal

from pydantic import BaseModel, ConfigDict, Field, PrivateAttr, SkipValidation, model_validator

from csp_check.constraint_ids import ConstraintId, RegisteredIds
from csp_check.language.normalize import normalized_entities

Speaker = Literal["user", "system"]
#: A value a variable takes: a canonical slot value (str) or an amount of KB instances (int).
Value = int | str


class Span(BaseModel):
    """Character span ``[start, end)`` in a turn's utterance."""

    # strict: an offset of true or "3" is a validation error, not 1 or 3 (docs/cli.md, "Bad input")
    model_config = ConfigDict(frozen=True)
    start: int = Field(ge=0, strict=True)
    end: int = Field(ge=0, strict=True)


class ActRole(str, Enum):
    """What a dialogue act value says, in the terms the constraint builder needs.

    Readers map each corpus's act names onto these roles (SGD ``INFORM_COUNT`` → ``count``,
    MultiWOZ ``Restaurant-NoOffer`` → ``no_result``, …).
    """

    INFORM = "inform"  # a value stated (user constraint, or system informing an attribute)
    OFFER = "offer"  # system proposes an entity / entity attribute (SGD OFFER, MultiWOZ Recommend/Select)
    CONFIRM = "confirm"  # system repeats values back
    COUNT = "count"  # an amount of KB instances (SGD INFORM_COUNT, MultiWOZ Choice, unified choice)
    NO_RESULT = "no_result"  # no instance matches (MultiWOZ NoOffer, unified nooffer)
    BOOKED = "booked"  # a transaction succeeded (SGD NOTIFY_SUCCESS, MultiWOZ Book)
    FAILED = "failed"  # a transaction failed (SGD NOTIFY_FAILURE, MultiWOZ NoBook)
    REQUEST = "request"  # asks for a slot (no value)
    OTHER = "other"


class DialogueAct(BaseModel):
    """One act-slot-value annotation of a turn.

    ``value`` is the surface form as annotated, ``canonical`` the dataset's canonical value
    (SGD ``canonical_values``; equal to ``value`` where a dataset has none). ``span`` is the
    annotated character span, if any. ``slot`` is already mapped to the KB column name.
    """

    role: ActRole
    act: str = Field(description="the corpus's own act name, kept for reports")
    domain: str
    slot: str = ""
    value: str | None = None
    canonical: str | None = None
    span: Span | None = None
    doubt: str | None = Field(
        None, description="why the reader or annotator is unsure of this act (the raw-text annotator's guess of a "
        "slot, a value read from vague words); a violation resting on it is for review",
    )


class ApiCall(BaseModel):
    """A call the system made to its back end (SGD ``service_call``)."""

    domain: str
    method: str
    parameters: dict[str, str] = Field(default_factory=dict)


class KbResult(BaseModel):
    """Entities the system saw at a turn (SGD ``service_results``, unified ``db_results``)."""

    domain: str
    call: ApiCall | None = None
    entities: list[dict[str, str]] = Field(default_factory=list)


class Turn(BaseModel):
    """One utterance of a dialogue with its annotations.

    ``state`` is the belief state after the turn: domain → slot → alternative values (SGD
    keeps several surface forms of one value; other corpora give one).
    """

    index: int = Field(ge=0, strict=True)
    speaker: Speaker
    utterance: str
    acts: list[DialogueAct] = Field(default_factory=list)
    state: dict[str, dict[str, list[str]]] = Field(default_factory=dict)
    kb_results: list[KbResult] = Field(default_factory=list)
    unfilled: dict[str, list[str]] = Field(
        default_factory=dict,
        description="domain → slots the state marks as asked for but not filled (MultiWOZ 2.1's 'none': "
        "the user named a constraint the annotation could not record), after the turn as state",
    )


class Dialogue(BaseModel):
    """An annotated dialogue as read from any supported format (spec §5)."""

    id: str = Field(description="the dialogue id of its corpus")
    source: str = Field(default="", description="file the dialogue was read from")
    format: str = Field(default="", description="reader that produced it: sgd, multiwoz, …")
    domains: list[str] = Field(default_factory=list)
    turns: list[Turn]
    ontology: dict[str, list[str]] = Field(
        default_factory=dict, description="slot type (domain.slot) → possible values of closed slots"
    )
    slot_descriptions: dict[str, str] = Field(
        default_factory=dict, description="slot type (domain.slot) → the schema's description of the slot (SGD)"
    )
    defects: list[str] = Field(
        default_factory=list,
        description="annotation defects the reader skipped (a span whose end precedes its start), "
        "as 'FIELD: what is wrong'; the rest of the dialogue is still checked",
    )

    @model_validator(mode="after")
    def _turns_in_order(self) -> Dialogue:
        """Turn ``index`` is the turn's position: every stage looks turns up by it."""
        for position, turn in enumerate(self.turns):
            if turn.index != position:
                raise ValueError(f"turns[{position}].index is {turn.index}; turns are numbered 0, 1, 2, … in order")
        return self


class IndexedRows(list[dict[str, str]]):
    """A ``--kb`` table's normalised rows (a list of entities, never changed once built) with
    memos that a corpus run fills as it checks dialogue after dialogue against the same table:
    ``matches`` maps one filter ``(column, op, value)`` to the bit masks (entity ``i`` is bit
    ``i``) of the rows that surely and possibly match it
    (:func:`csp_check.families.primitives.count_matches` fills and reads it), ``columns`` maps a
    column to the set of values the rows have there (:meth:`column_values`), ``derived`` maps a
    restriction step (its type and fields) to the table it derives from these rows
    (:func:`csp_check.families.kb_common.derived`)."""

    def __init__(self, rows: list[dict[str, str]]):
        super().__init__(rows)
        self.matches: dict[tuple[str, str, Value], tuple[int, int]] = {}
        self.columns: dict[str, frozenset[str]] = {}
        self.derived: dict[tuple[str, str], IndexedRows] = {}
        self._cells: dict[str, tuple[dict[str, int], int]] = {}
        self._ordered: dict[str, tuple[list[str], list[int], list[int]]] = {}
        self._names: frozenset[str] | None = None
        self._sorted_values: dict[str, list[str]] = {}

    def cells(self, column: str) -> tuple[dict[str, int], int]:
        """``(value → bit mask of the rows holding it in column, mask of the rows without it)``:
        row ``i`` is bit ``i``; a row lacks the column when it has no cell there or an empty
        one (an unknown cell). Computed once per column."""
        found = self._cells.get(column)
        if found is None:
            by_value: dict[str, int] = {}
            missing = 0
            for i, entity in enumerate(self):
                have = entity.get(column)
                if have is None or have == "":
                    missing |= 1 << i
                else:
                    by_value[have] = by_value.get(have, 0) | 1 << i
            found = self._cells[column] = (by_value, missing)
        return found

    def ordered(self, column: str) -> tuple[list[str], list[int], list[int]]:
        """``(values, at_most, at_least)`` of ``column``: its distinct values in code-point order,
        and per position ``k`` the mask of the rows whose value is ``values[k]`` or a smaller /
        a larger one (a bound's rows are one :func:`bisect` away). Computed once per column."""
        found = self._ordered.get(column)
        if found is None:
            by_value = self.cells(column)[0]
            values = sorted(by_value)
            at_most, at_least, acc = [], [0] * len(values), 0
            for v in values:
                acc |= by_value[v]
                at_most.append(acc)
            acc = 0
            for k in range(len(values) - 1, -1, -1):
                acc |= by_value[values[k]]
                at_least[k] = acc
            found = self._ordered[column] = (values, at_most, at_least)
        return found

    def column_names(self) -> frozenset[str]:
        """Every column some row has (``set().union(*rows)``), computed once."""
        if self._names is None:
            self._names = frozenset().union(*self)
        return self._names

    def rows_with(self, column: str, value: str) -> list[dict[str, str]]:
        """The rows whose ``column`` holds ``value`` (a non-empty string), in row order: one
        look-up in :meth:`cells`, not a scan."""
        return self.rows_of(self.cells(column)[0].get(value, 0))

    def rows_of(self, mask: int) -> list[dict[str, str]]:
        """The rows whose bits ``mask`` sets (bit ``i`` is row ``i``), in row order."""
        out = []
        while mask:
            low = mask & -mask
            out.append(self[low.bit_length() - 1])
            mask ^= low
        return out

    def sorted_column_values(self, column: str) -> list[str]:
        """:meth:`column_values` in code-point order (computed once per column; do not change it)."""
        found = self._sorted_values.get(column)
        if found is None:
            found = self._sorted_values[column] = sorted(self.column_values(column))
        return found

    def column_values(self, column: str) -> frozenset[str]:
        """The values the rows have in ``column`` (computed once per column)."""
        values = self.columns.get(column)
        if values is None:
            values = self.columns[column] = frozenset(e[column] for e in self if column in e)
        return values


def rows_where(rows: list[dict[str, str]], column: str, value: object) -> list[dict[str, str]]:
    """``[e for e in rows if e.get(column) == value]``: on :class:`IndexedRows` (a ``--kb``
    table's) a look-up (:meth:`IndexedRows.rows_with`), elsewhere a scan."""
    if isinstance(rows, IndexedRows) and isinstance(value, str) and value != "":
        return rows.rows_with(column, value)
    return [e for e in rows if e.get(column) == value]


class KbTable(BaseModel):
    """A table of KB entities for one domain: each entity maps a column (slot) to a value."""

    domain: str
    entities: list[dict[str, str]] = Field(default_factory=list)
    _normalized: IndexedRows | None = PrivateAttr(default=None)

    def normalized(self) -> IndexedRows:
        """The entities with values normalised (:func:`csp_check.language.normalize.normalized_entities`),
        computed once per table: a corpus run checks every dialogue against the same KB. The
        rows carry the table's match and column indexes (:class:`IndexedRows`). A table is read
        only once it has been checked against; a copy (``model_copy``, :func:`copy.deepcopy`)
        computes its own, so a copy may be edited."""
        if self._normalized is None:
            self._normalized = IndexedRows(normalized_entities(self.entities))
        return self._normalized

    def __copy__(self) -> KbTable:
        copied = super().__copy__()
        copied._normalized = None  # the copy's entities may be edited: its own rows, when first asked for
        return copied

    def __deepcopy__(self, memo: dict[int, Any] | None = None) -> KbTable:
        copied = super().__deepcopy__(memo)
        copied._normalized = None
        return copied


class KnowledgeBase(BaseModel):
    """A domain KB given with ``--kb`` or a MultiWOZ DB directory: domain → table."""

    tables: dict[str, KbTable] = Field(default_factory=dict)


class VariableKind(str, Enum):
    SLOT = "slot"  # names a slot value
    AMOUNT = "amount"  # an amount of KB instances


class Variable(BaseModel):
    """A span of the dialogue that refers to the domain (paper §3.1).

    ``value`` is the canonical value the annotation gives (the *structure*); ``text`` is what
    the utterance says at ``span`` (the *assignment* is read from it). ``span`` is ``None`` for
    an implicit value: annotated, but not written in the utterance.
    """

    name: str = Field(description="x1, x2, … in order of appearance")
    turn: int
    speaker: Speaker
    kind: VariableKind = VariableKind.SLOT
    domain: str
    slot: str
    role: ActRole
    span: Span | None = None
    text: str | None = None
    value: Value
    amount_op: Literal["=", ">", ">=", "<", "<=", "~"] = "="
    doubt: str | None = Field(None, description="why the act it comes from is unsure (DialogueAct.doubt)")

    def __eq__(self, other: object) -> bool:
        """As pydantic compares models (the same type, equal fields), without its general checks:
        a Variable has no private attributes, extras or other keys (the builder compares
        variables in its lists often)."""
        if type(self) is Variable and type(other) is Variable:
            return self.__dict__ == other.__dict__
        return super().__eq__(other)

    @property
    def slot_type(self) -> str:
        """``domain.slot``: the type C1 restricts and C2 / C3 compare within."""
        return f"{self.domain}.{self.slot}"

    @property
    def implicit(self) -> bool:
        return self.span is None


class DelexicalizedDialogue(BaseModel):
    """A dialogue's variables and its text with each span replaced by ``[xN]``."""

    dialogue_id: str
    source: str = ""
    variables: list[Variable]
    turns: list[str] = Field(description="utterances with variable spans replaced by [name]")
    speakers: list[Speaker]
    implicit: int = Field(0, description="act values not written in their utterance")
    located: int = Field(0, description="act values without a span found by text matching")


#: Every registered family checked on a dialogue (all groups but ``profile``), in registry order.
ALL_CONSTRAINTS = RegisteredIds(("linguistic", "dialogic", "domain", "annotation"), "ALL_CONSTRAINTS")
#: The paper's constraints C1–C6 (groups linguistic, dialogic, domain): ``--constraints C1,...,C6``,
#: the experiment's tables.
PAPER_CONSTRAINTS = RegisteredIds(("linguistic", "dialogic", "domain"), "PAPER_CONSTRAINTS")
#: The annotation family (S1): the dialogue's own annotation checked against its text.
ANNOTATION_CONSTRAINTS = RegisteredIds(("annotation",), "ANNOTATION_CONSTRAINTS")


class Constraint(BaseModel):
    """One constraint instance over a dialogue's variables (paper §3.2, spec §2): what every
    instance has, whatever its family. Each family's instances are a subclass of it holding the
    family's own fields, defined beside the family (C1
    :class:`~csp_check.families.c1_value_type.ValueTypeInstance`, C2
    :class:`~csp_check.families.c2_coreference.CoreferenceInstance`, C4 / C5
    :class:`~csp_check.families.kb_common.KbFilterInstance`, C6
    :class:`~csp_check.families.c6_instance_count.CountInstance`, S1 / S2
    :class:`~csp_check.families.annotation_common.RecordedValuesInstance`); C3's is this type
    itself (its variables are all it needs). ``turn`` is the turn the instance is about, if any
    (the utterance that claims, the turn whose state records). A field no type of the instance
    has is an error (``extra="forbid"``), not silently dropped.
    """

    model_config = ConfigDict(extra="forbid")

    id: ConstraintId
    variables: list[str]
    turn: int | None = None
    uncertain: str | None = Field(
        None, description="why the reading this instance rests on cannot be settled from the text (a question, "
        "a conditional, a vague amount, …: csp_check.build.certainty); None: the reading is certain. A broken "
        "uncertain instance is reported for review, not counted as an inconsistency",
    )
    reading: list[str] = Field(
        default_factory=list, description="the reading rules the instance was built under, in words "
        "('filters: food from the user, turn 2'; 'a count of other entities')",
    )

    @property
    def scope(self) -> list[str]:
        """Every variable the constraint reads (a family whose instances read more than
        ``variables`` extends it)."""
        return list(self.variables)


class ImpliedValue(BaseModel):
    """A value a user turn's state gains that the turn's words imply without naming it: an
    indirect user request (IUR paper, §3; "my dog comes along" for pets_allowed = True). Not a
    constraint and not a violation: reported apart (``DialogueReport.implied``), found by S1's
    reading (:mod:`csp_check.iur.detect`)."""

    turn: int
    slot: str = Field(description="domain.slot")
    value: str
    reason: str = Field("", description="the words of the turn that point to the value")


class CSP(BaseModel):
    """A dialogue's constraint satisfaction problem: the input of every solver backend.

    ``domains`` maps a slot type to its values V(type); ``kbs`` maps a KB id to entities whose
    values are normalised like variable values. ``assignment`` is what the dialogue's text says.
    """

    dialogue_id: str
    variables: list[Variable]
    domains: dict[str, list[str]]
    # not copied on validation: a ``--kb`` table's rows stay the one :class:`IndexedRows` whose
    # memos every dialogue's counts share (the rows are the builder's, already normalised)
    kbs: dict[str, SkipValidation[list[dict[str, str]]]]
    constraints: list[Constraint]
    assignment: dict[str, Value]
    max_amount: int = Field(description="upper bound of amount variables' domain")
    implied: list[ImpliedValue] = Field(default_factory=list, description="indirect user requests the build "
                                        "found (S1's reading): reported, never checked")
    _by_name: tuple[list, int, dict] | None = PrivateAttr(default=None)

    def variable(self, name: str) -> Variable:
        """The variable called ``name`` (``KeyError`` if none), from an index built once per
        variable list (a family's meaning may look its variables up: linear per dialogue)."""
        cached = self._by_name
        if cached is None or cached[0] is not self.variables or cached[1] != len(self.variables):
            cached = (self.variables, len(self.variables), {v.name: v for v in self.variables})
            self._by_name = cached
        return cached[2][name]


class VariableRef(BaseModel):
    """A variable as shown in a violation: where it is and what it says."""

    name: str
    turn: int
    slot: str
    span: Span | None
    text: str | None
    value: Value


class Violation(BaseModel):
    """One constraint the dialogue's assignment breaks, with the evidence.

    ``certain`` is false when the reading the constraint rests on cannot be settled from the text
    (``uncertain_reason`` says why: :mod:`csp_check.build.certainty`): the violation is reported
    for review and does not make the dialogue inconsistent (unless ``--strict``). ``reading``
    says where each value and filter came from and which reading rules applied."""

    constraint: ConstraintId
    turns: list[int]
    variables: list[VariableRef]
    message: str
    certain: bool = True
    uncertain_reason: str | None = None
    reading: list[str] = Field(default_factory=list)


class Status(str, Enum):
    CONSISTENT = "consistent"
    INCONSISTENT = "inconsistent"  # a certain violation
    UNCERTAIN = "uncertain"  # violations, all uncertain: for review, not counted as inconsistent
    UNKNOWN = "unknown"  # a solver timed out
    ERROR = "error"  # the dialogue could not be read / processed


class DialogueReport(BaseModel):
    """The verdict on one dialogue: one line of ``--report FILE.jsonl``."""

    dialogue_id: str
    source: str = ""
    status: Status
    variables: int = 0
    implicit: int = 0
    turns: int = Field(0, description="turns of the dialogue (0: unknown, as in an error report): the depth of "
                       "violations by turn index")
    coverage: dict[str, int] = Field(
        default_factory=dict, description="constraint id → number of variables it constrains"
    )
    violations: list[Violation] = Field(default_factory=list)
    implied: list[ImpliedValue] = Field(default_factory=list, description="indirect user requests: values the "
                                        "state gains that the user implied without naming them; never violations")
    error: str | None = None
    defects: list[str] = Field(
        default_factory=list, description="annotation defects of the dialogue (Dialogue.defects), reported, not checked"
    )
    extra: dict[str, object] = Field(default_factory=dict, description="solver results etc.")
