"""C2 (coreference): variables that refer to the same value across the dialogue take one value
(paper §3.2, spec §2). What a variable refers to comes from the annotations
(:func:`csp_check.build.context.referents`); an instance is a group of at least two.

Reading rules

- Variables of one slot type that refer to the same value are equal.
- What a variable refers to: a user inform → the value the belief state records after its
  turn; a system confirm, or an offer in a turn reporting no failure → the value of the user's
  state in force (an offer must fit the request); anything else, or where the state is absent,
  ambiguous or ``dontcare`` → its annotated canonical value. State alternatives that name two
  entities refer to what the user said.
- A system time offered under the user's bound (``leaveAt`` / ``arriveBy``) does not repeat
  it; that it satisfies the bound is checked by C5.
- A value named as the one given up ("6 tickets rather than one", "instead of Monday", "not
  just 1") refers to nothing (:func:`csp_check.language.cues.replaced_value`).
- A user mention offering alternatives ("at 10:15 or 9:15", "either Friday or Saturday": two
  values of its slot joined by "or") splits its group: the later mentions take one value, one of
  those offered (:func:`offered_alternatives`, lowered as equality plus membership).
- A revision ("how about a hotel instead", "are there hotels that meet that criteria?" while
  the state keeps guesthouse) asks for a new value and is no C2 mention of the state's; the
  state failing to record it is S1's (:func:`csp_check.build.context.revised`).
- MultiWOZ with a DB: a value of a search column (area, type, food, …) the DB never uses
  ("church", "cheaper") is a wording, left out of C2 and C5; a comparative or superlative ("the
  cheaper option", "the closest"; :func:`csp_check.language.normalize.comparative`) states an
  order between entities, not a value, and claims nothing in C2 or C5.
"""

from __future__ import annotations

import re
from collections import defaultdict
from collections.abc import Mapping

from pydantic import Field

from csp_check.build.context import referents
from csp_check.delexicalize.assignment import read_value
from csp_check.families.primitives import AllEqual, Member, Primitive
from csp_check.families.registry import Family, register
from csp_check.families.words import where
from csp_check.language.cues import replaced_value
from csp_check.language.normalize import clock_slot, clock_time, normalize, parse_amount, refers_to_several
from csp_check.models import CSP, Constraint, ConstraintId, Value, Variable, VariableKind


class CoreferenceInstance(Constraint):
    """A C2 instance: all ``variables`` take one value, but a member of ``alternatives`` (a
    user's "10:15 or 9:15"): the others take one value and it is one of that member's
    alternatives, which the member takes too."""

    alternatives: dict[str, list[str]] = Field(
        default_factory=dict, description="a member whose utterance offers alternatives ('at 10:15 or 9:15') → "
        "the values offered; the other members take one of them (and one value), the member itself one of them",
    )


@register
class Coreference(Family[CoreferenceInstance]):
    id = "C2"
    name = "coreference"
    description = "mentions of one value across the dialogue take the same value"
    group = "dialogic"
    instance_type = CoreferenceInstance

    def build(self, ctx) -> list[CoreferenceInstance]:
        """One instance per group of ≥ 2 slot variables of one slot type with one referent. A
        mention named as the value given up ("6 tickets rather than one":
        :func:`~csp_check.language.cues.replaced_value`) is in no group. A user's mention offering
        alternatives ("at 10:15 or 9:15": :func:`offered_alternatives`) splits its group: the
        mentions before it are one instance, it and the later ones another, where the later ones
        take one of the values offered (``CoreferenceInstance.alternatives``)."""
        groups: dict[tuple[str, Value], list[Variable]] = defaultdict(list)
        keys = referents(ctx.dialogue, ctx.variables, ctx.lexicon)
        for v in ctx.variables:
            if v.kind is VariableKind.SLOT and _corefers(ctx, v):
                groups[(v.slot_type, keys[v.name][0])].append(v)
        out = []
        for members in groups.values():
            if len(members) < 2:
                continue
            offered = {m.name: said for m in members if (said := offered_alternatives(ctx, m))}
            first = min((m.turn for m in members if m.name in offered), default=None)
            parts = [members] if first is None else [[m for m in members if m.turn < first],
                                                    [m for m in members if m.turn >= first]]
            for part in parts:  # the alternatives supersede what was asked before: from them on, a group
                alts = {m.name: offered[m.name] for m in part if m.name in offered}
                if len(part) - len(alts) >= (1 if alts else 2):  # not alternatives alone: a value said
                    out.append(CoreferenceInstance(id=ConstraintId(self.id), variables=[m.name for m in part],
                                          turn=part[0].turn, alternatives=alts))
        return out

    def satisfied(self, constraint: CoreferenceInstance, assignment: Mapping[str, Value], csp: CSP) -> bool:
        """One value across the members; a member offering alternatives ("at 10:15 or 9:15",
        ``CoreferenceInstance.alternatives``) takes one of them, and so does the value of the others."""
        alts = constraint.alternatives
        plain = {assignment[name] for name in constraint.variables if name not in alts}
        return len(plain) <= 1 and all(
            assignment[name] in offered and plain <= set(offered) for name, offered in alts.items())

    def lower(self, constraint: CoreferenceInstance, csp: CSP) -> list[Primitive]:
        alts = constraint.alternatives
        plain = tuple(n for n in constraint.variables if n not in alts)
        out: list[Primitive] = [AllEqual(plain)] * (len(plain) > 1)
        return out + [Member((name, *plain), frozenset(offered)) for name, offered in alts.items()]

    def explain(self, constraint: CoreferenceInstance, assignment: Mapping[str, Value], csp: CSP,
                by_name: Mapping[str, Variable]) -> str:
        refs = [by_name[n] for n in constraint.variables]
        alts = constraint.alternatives

        def said(r: Variable) -> str:
            if r.name in alts:
                return " or ".join(repr(x) for x in alts[r.name]) + f" (turn {r.turn}, either)"
            return f"{assignment[r.name]!r} (turn {r.turn})"

        return f"{where(refs)} should name the same {refs[0].slot_type}, but the text says " + " / ".join(
            said(r) for r in refs
        )


#: "or" joining two values a user offers as alternatives ("at 10:15 or 9:15", "either Friday or
#: Saturday"), with a preposition before the second ("10:15 or at 9:15").
_OR = r"(?:\s*,\s*|\s+)or\s+(?:else\s+)?(?:at\s+|on\s+|for\s+)?"
#: The words of a value: one token, or two ("9 pm", "moderately priced"); tried longest first.
_AFTER = re.compile(_OR + r"([^\s,.?!;]+)(?:\s+([^\s,.?!;]+))?")
_BEFORE = re.compile(r"(?:([^\s,.?!;]+)\s+)?([^\s,.?!;]+)" + _OR + "$")


_WEEKDAYS = frozenset({"monday", "tuesday", "wednesday", "thursday", "friday", "saturday", "sunday"})


def offered_alternatives(ctx, v: Variable) -> list[str]:  # type: ignore[no-untyped-def]
    """The values a user's mention ``v`` offers as alternatives, when its words are one of two
    values of its slot joined by "or" ("If you can book it for 1 person at 10:15 or 9:15 I don't
    care which place", "either Friday or Saturday", "2 or 3 nights"): its own reading and the
    other's, in text order (read as ``v``'s own, :func:`~csp_check.delexicalize.assignment.read_value`).
    The other words must read as a value of the slot: a clock time for a time slot, a number
    for a numeric one, a weekday for a weekday, else a form the dialogue's lexicon knows ("10:15 or so", "10:15 or
    later" offer nothing). ``[]`` for a system mention or where there is no such "or".
    Whichever alternative the system then takes keeps the coreference (spec §2, C2)."""
    if v.speaker != "user" or v.span is None or v.kind is not VariableKind.SLOT or not isinstance(v.value, str):
        return []
    utterance = ctx.dialogue.turns[v.turn].utterance
    own = ctx.assignment.get(v.name, v.value)
    if not isinstance(own, str):
        return []

    def value_of(words: str) -> str | None:
        if clock_slot(v.slot):
            ok = clock_time(normalize(words)) is not None
        elif own.isdigit():
            ok = parse_amount(words) is not None
        elif own in _WEEKDAYS:
            ok = normalize(words) in _WEEKDAYS
        else:
            ok = bool(ctx.lexicon.lookup(v.slot_type, words)) or ctx.lexicon.resolve(v.slot_type, words) is not None
        if not ok:
            return None
        value = read_value(v.model_copy(update={"text": words}), ctx.lexicon)
        return value if isinstance(value, str) and value != own else None

    after = _AFTER.match(utterance, v.span.end)
    if after:
        for words in ([f"{after[1]} {after[2]}"] if after[2] else []) + [after[1]]:
            other = value_of(words)
            if other is not None:
                return [own, other]
    head = utterance[: v.span.start]
    before = _BEFORE.search(head) if "or" in head else None  # (no "or", no match: not a scan per position)
    if before:
        for words in ([f"{before[1]} {before[2]}"] if before[1] else []) + [before[2]]:
            other = value_of(words)
            if other is not None:
                return [other, own]
    return []


def _corefers(ctx, v: Variable) -> bool:  # type: ignore[no-untyped-def]
    """Whether slot variable ``v`` takes part in coreference. Not: a description the KB never
    uses (:meth:`BuildContext.description`); a system wifi / parking mention ("it does not have
    parking": about the entity, C5); a name standing for several entities ("both hotels"); a
    value named as the one given up ("6 tickets rather than one")."""
    if ctx.description(v) or (v.speaker == "system" and v.slot in ctx.profile.amenities.values()):
        return False
    if ctx.profile.names_entity(v.slot) and refers_to_several(v.text or ""):
        return False
    return v.span is None or not replaced_value(ctx.dialogue.turns[v.turn].utterance, v.span)
