"""What the certainty rules read (:mod:`csp_check.check.certainty`, :mod:`csp_check.check.value_doubts`):
a dialogue with its CSP and corpus profile (:class:`Reading`), and what several rules share — the
utterance of a variable, whether two written values are one typo apart, whether an act states its
value even in a question."""

from __future__ import annotations

import re
from collections import defaultdict
from dataclasses import dataclass, field
from functools import lru_cache

from csp_check.check.evaluate import satisfied
from csp_check.corpora import CorpusProfile, profile_for
from csp_check.families.primitives import DONTCARE, count_matches
from csp_check.language import certainty as words
from csp_check.models import CSP, ActRole, Constraint, Dialogue, Span, Variable

#: The id of the KB families and of coreference, by which the rules below pick what applies.
KB_FAMILIES = frozenset({"C4", "C5", "C6"})
#: Columns whose values are written, not chosen: a one-edit difference is a typo (surface variant).
WRITTEN_COLUMNS = frozenset({"name", "phone", "postcode", "address", "trainID", "trainid", "id"})
#: Words of a column's name that make it written (SGD's ``phone_number``, ``street_address``).
WRITTEN_WORDS = re.compile(r"phone|address|postcode|zip")
#: A clock time as the assignment writes it.
CLOCK = re.compile(r"^\d{1,2}:\d{2}$")


@dataclass
class Reading:
    """What the rules read: a dialogue, its CSP's variables, tables and assignment, its profile."""

    dialogue: Dialogue
    csp: CSP
    profile: CorpusProfile
    by_turn: dict[int, list[Variable]] = field(default_factory=lambda: defaultdict(list))

    @classmethod
    def of(cls, dialogue: Dialogue, csp: CSP) -> Reading:
        reading = cls(dialogue, csp, profile_for(dialogue))
        for v in csp.variables:
            reading.by_turn[v.turn].append(v)
        return reading

    @property
    def variables(self) -> list[Variable]:
        return self.csp.variables

    @property
    def kbs(self) -> dict[str, list[dict[str, str]]]:
        return self.csp.kbs

    @property
    def assignment(self) -> dict:
        return self.csp.assignment


def utterance(ctx, v: Variable) -> str:
    """The utterance of ``v``'s turn."""
    return ctx.dialogue.turns[v.turn].utterance


def near(a: str, b: str) -> bool:
    """Equal but for spaces and punctuation, or one edit apart (a substitution, insertion,
    deletion or swap of neighbours), for values of at least 4 characters; a value is no variant
    of itself."""
    if a == b:
        return False
    a, b = _squeezed(a), _squeezed(b)
    if a == b:
        return bool(a)
    if min(len(a), len(b)) < 4:
        return False
    if abs(len(a) - len(b)) > 1:
        return False
    if len(a) == len(b):
        diff = [i for i in range(len(a)) if a[i] != b[i]]
        return len(diff) == 1 or (len(diff) == 2 and diff[1] == diff[0] + 1 and a[diff[0]] == b[diff[1]] and a[diff[1]] == b[diff[0]])
    short, long = (a, b) if len(a) < len(b) else (b, a)
    return any(long[:i] + long[i + 1 :] == short for i in range(len(long)))


_SQUEEZE = re.compile(r"[\s.,'-]")


@lru_cache(maxsize=1 << 16)  # a KB's values are compared again and again, dialogue after dialogue
def _squeezed(text: str) -> str:
    """``text`` lower-cased without spaces and punctuation (:func:`near`'s comparison form)."""
    return _SQUEEZE.sub("", text.lower())


def near_in(said: str, value: str) -> bool:
    """Whether ``said``, or a run of its words as many as ``value``'s ("all siants church" of "all
    siants church at the center", a span that took in words after the name), is one edit from
    ``value`` (:func:`near`)."""
    if near(said, value):
        return True
    tokens, size = said.split(), len(value.split())
    return len(tokens) > size and any(near(" ".join(tokens[i : i + size]), value) for i in range(len(tokens) - size + 1))


#: Words a KB and a text may spell the other way ("nandos city center" said "nandos city centre").
SPELLINGS = {"center": "centre", "centre": "center", "theater": "theatre", "theatre": "theater"}


def spellings(value: str) -> set[str]:
    """``value`` and its form with each word of :data:`SPELLINGS` spelt the other way: a text's
    one-edit variant of "centre" is two edits from the KB's "center"."""
    other = " ".join(SPELLINGS.get(w, w) for w in value.split())
    return {value, other}


def stated_anyway(ctx, v: Variable) -> bool:
    """Whether ``v``'s act states its value even in a question: a confirmation restates what was
    agreed ("So you want an expensive restaurant, right?"), and a system act of a corpus whose
    system acts commit to their values (``CorpusProfile.system_values_stated``: SGD)."""
    return v.role is ActRole.CONFIRM or (v.speaker == "system" and ctx.profile.system_values_stated)


def claim_of(constraint: Constraint, scope: list[Variable]) -> list[Variable]:
    """The variables of ``scope`` that the instance's own turn says (with a span): its claim."""
    return [v for v in scope if v.turn == constraint.turn and v.span is not None]


def filters_of(constraint: Constraint, scope: list[Variable]) -> list[Variable]:
    """The variables of ``scope`` of other turns than the instance's: what was asked."""
    return [v for v in scope if v.turn != constraint.turn]


def rest_holds(ctx, constraint: Constraint, left_out: set[str]) -> bool:
    """Whether some entity of the instance's table has every value of the instance but those of
    the variables ``left_out`` (and of the columns they fill: what was asked of them goes too)."""
    pairs = list(zip(getattr(constraint, "columns", []), constraint.variables))
    columns = {c for c, n in pairs if n in left_out}
    rest = [(c, n) for c, n in pairs if c not in columns]
    rows = ctx.kbs.get(getattr(constraint, "kb", "")) or []
    return count_matches(rows, [c for c, _ in rest], [ctx.assignment.get(n) for _, n in rest])[1] > 0


def excused(ctx, constraint: Constraint, lifted: list[str], put: dict[str, str] | None = None) -> bool:
    """Whether a C5 / C6 instance holds with the filters ``lifted`` unsaid (and the values
    ``put`` in place): an unsure reading excuses only what breaks by it. Other families: always."""
    if str(constraint.id) not in ("C5", "C6"):
        return True
    assignment = dict(ctx.assignment)
    assignment.update(dict.fromkeys(lifted, DONTCARE))
    assignment.update(put or {})
    return satisfied(constraint, assignment, ctx.csp)


def said_after(v: Variable, turn, at: int) -> bool:  # type: ignore[no-untyped-def]
    """Whether filter ``v`` is said after the relaxation at character ``at`` of ``turn``: in a
    later turn, or in a later sentence of that turn ("I don't care either way . The restaurant has
    to be cheap ."): the value said last is the request."""
    if v.turn != turn.index:
        return v.turn > turn.index
    return v.span is not None and words.sentence(turn.utterance, Span(start=at, end=at + 1))[1] <= v.span.start
