"""Reading the assignment: what the dialogue's text says at each variable's span (spec §1).

The annotations give the structure; the *text* gives the assignment. A span's text is mapped
to a canonical value through the dialogue's :class:`Lexicon`: every surface form the
dialogue's own annotations pair with a canonical value (SGD ``values`` / ``canonical_values``,
belief-state alternatives), plus KB and ontology values. Text the lexicon does not know is
taken as written (normalised), so a relexicalized value is read as itself.
"""

from __future__ import annotations

from collections import defaultdict

from csp_check.cues import BOOLEAN, read_boolean
from csp_check.models import Dialogue, Value, Variable, VariableKind
from csp_check.normalize import normalize, parse_amount


class Lexicon:
    """Slot type → normalised surface form → canonical values it may stand for."""

    def __init__(self) -> None:
        self.forms: dict[str, dict[str, set[str]]] = defaultdict(lambda: defaultdict(set))

    def add(self, slot_type: str, surface: str, canonical: str) -> None:
        self.forms[slot_type][normalize(surface)].add(canonical)

    def lookup(self, slot_type: str, surface: str) -> set[str]:
        table = self.forms.get(slot_type)
        return table.get(normalize(surface), set()) if table else set()

    @classmethod
    def of(cls, dialogue: Dialogue) -> "Lexicon":
        """The lexicon of one dialogue: its act values, belief-state alternatives and ontology."""
        lex = cls()
        for turn in dialogue.turns:
            for act in turn.acts:
                if act.value is not None and act.slot:
                    canonical = normalize(act.canonical if act.canonical is not None else act.value)
                    lex.add(f"{act.domain}.{act.slot}", act.value, canonical)
                    lex.add(f"{act.domain}.{act.slot}", canonical, canonical)
        for turn in dialogue.turns:  # alternatives name one value: link them to a known canonical
            for domain, slots in turn.state.items():
                for slot, alternatives in slots.items():
                    slot_type = f"{domain}.{slot}"
                    known = set().union(*(lex.lookup(slot_type, a) for a in alternatives)) if alternatives else set()
                    if len(known) == 1:
                        for alternative in alternatives:
                            lex.add(slot_type, alternative, next(iter(known)))
        for slot_type, values in dialogue.ontology.items():
            for value in values:
                lex.add(slot_type, value, normalize(value))
        return lex


def read_value(var: Variable, lexicon: Lexicon) -> Value:
    """The value ``var``'s text says: its annotated value when implicit or when the text is one
    of that value's known forms, else the value the text names (or the text itself)."""
    if var.text is None:
        return var.value
    if var.kind is VariableKind.AMOUNT:
        amount = parse_amount(var.text)
        return amount if amount is not None else normalize(var.text)
    if (isinstance(var.value, str) and var.value.isdigit() and not normalize(var.text).isdigit()
            and (number := parse_amount(var.text)) is not None):
        return str(number)  # a numeric slot's value written as a word: "for four" = 4
    if var.value in BOOLEAN and not lexicon.lookup(var.slot_type, var.text):
        return read_boolean(var.text)  # "not free" → false (csp_check.cues)
    candidates = lexicon.lookup(var.slot_type, var.text)
    if var.value in candidates or normalize(var.text) == var.value:
        return var.value
    if candidates:
        return min(candidates)
    return normalize(var.text)


def read_assignment(variables: list[Variable], lexicon: Lexicon) -> dict[str, Value]:
    """Variable name → value read from the text, for every variable."""
    return {v.name: read_value(v, lexicon) for v in variables}
