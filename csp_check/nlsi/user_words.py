"""Readings in the user's words over grounded values (text grounding of the release, issue 19):
counts by their unit and head counts, a boolean the agent asks about and the user answers, the
first service's slot among twin place slots, and a name given with its kind's noun. Read on generator-style SGD examples
(:mod:`csp_check.nlsi.build_release`); used by :func:`csp_check.nlsi.ground.ground` when the
schema keeps the user's words (``NlsiSchema.user_words``)."""

from __future__ import annotations

from csp_check.nlsi.cues import ACCEPT_CUES, COUNT_UNITS
from csp_check.nlsi.instructions import InstructionParser, Rule
from csp_check.nlsi.models import split_turns
from csp_check.nlsi.schema import NlsiSchema, normalize
from csp_check.nlsi.spans import answered_counts, head_counts, kind_names, unit_counts
from csp_check.nlsi.variants import service_slots


def head_count_values(values: dict[str, dict[str, str]], domains: list[str], schema: NlsiSchema, turns: list[str],
                      rules: list[Rule], dialogue: list[tuple[str, str]] | None = None) -> None:
    """Counts by their unit word (:func:`~csp_check.nlsi.spans.unit_counts`: "one hotel room",
    "two bedrooms") in the chosen service's ``number_of_<unit>`` slot; a requested domain with no
    head count stated gets the last one the user's words name
    (:func:`~csp_check.nlsi.spans.head_counts`: "a cab for two", "three people", "two of us"), in
    its chosen service's first person-count slot (:data:`~csp_check.nlsi.cues.COUNT_UNITS`
    ``people``), when the slot may hold it. ``values`` (``{domain: {slot: value}}``) is updated
    in place for the requested ``domains``; ``turns``: the user's turns. A count the user gives
    as a bare number to the agent's "how many <unit>?" (:func:`~csp_check.nlsi.spans.answered_counts`;
    ``dialogue``: every turn, ``(speaker, text)``) fills the unit's slot when nothing else has."""
    units = [u for turn in turns for u in unit_counts(turn)]
    for d in domains:
        slots = service_slots(schema, d, rules, values.get(d, {}))
        for unit, n in answered_counts(dialogue or []):  # "How many bedrooms?" "Two is fine": unless said with its unit
            slot = next((s for s in slots if s.startswith("number_of_") and s[10:].rstrip("s") == unit), None)
            if slot is not None and not values.get(d, {}).get(slot) and schema.value_ok(d, slot, n):
                values.setdefault(d, {})[slot] = n
        for unit, n in units:  # "one hotel room": number_of_rooms, whatever else "one" may be
            slot = next((s for s in slots if s.startswith("number_of_") and s[10:].rstrip("s") == unit), None)
            if slot is not None and schema.value_ok(d, slot, n):
                vals = values.setdefault(d, {})
                for s in [s for s, v in vals.items() if s != slot and v == n and s.endswith("rating")]:
                    del vals[s]  # the count's number read as a rating before ("one hotel room" is no 1 star)
                vals[slot] = n
    counts = [n for turn in turns for n in head_counts(turn)]
    if not counts:
        return
    for d in domains:
        slots = service_slots(schema, d, rules, values.get(d, {}))
        slot = next((s for s in COUNT_UNITS["people"] if s in slots), None)
        vals = values.setdefault(d, {})
        if slot is None or any(vals.get(s) for s in COUNT_UNITS["people"]):
            continue
        if schema.value_ok(d, slot, counts[-1]):
            vals[slot] = counts[-1]


def asked_booleans(values: dict[str, dict[str, str]], domains: list[str], parser: InstructionParser, utterance: str) -> None:
    """A yes/no question of the agent naming one boolean slot of a requested domain ("Do you
    mind a shared ride?", "Would you like it furnished?") answered by the next user turn: an
    acceptance (:data:`~csp_check.nlsi.cues.ACCEPT_CUES`) states ``True``; a "no" states
    ``False``, or ``True`` after "do you mind" ("No, I don't mind"). SGD's state holds what the
    user so answers. Slots already stated keep their value. ``values``: ``{domain: {slot:
    value}}``, updated in place; ``utterance``: the example's "User: … Agent: …" text."""
    schema = parser.schema
    turns = split_turns(utterance)
    for k in range(len(turns) - 1):
        (who, text), (nxt, answer) = turns[k], turns[k + 1]
        if who != "agent" or nxt != "user" or "?" not in text:
            continue
        asked = {(d, s) for m in parser.mentions(text)[1] if m.kind == "slot" for d, s in m.options
                 if d in domains and (i := schema.slot(d, s)) is not None and i.is_boolean}
        if len(asked) != 1:
            continue
        d, s = next(iter(asked))
        reply = f" {normalize(answer)} "
        if any(reply.startswith(f" {c} ") for c in ACCEPT_CUES):
            value = "True"
        elif reply.startswith((" no ", " nope ", " not ")):
            value = "True" if " mind " in f" {normalize(text)} " else "False"
        else:
            continue
        values.setdefault(d, {}).setdefault(s, value)


def first_service_slot(schema: NlsiSchema, domain: str, slots: list[str]) -> list[str]:
    """Of place slots that belong to different services of ``domain`` (twins: Hotels_1
    ``destination``, Hotels_3 ``location``), the first service's, when no service holds two of
    them (one call speaks for one service; nothing else chose it); else ``slots``."""
    owner: dict[str, list[str]] = {}
    for sv, d in sorted(schema.services.items()):
        if d == domain and sv in schema.service_slots:
            for s in slots:
                if s in schema.service_slots[sv]:
                    owner.setdefault(s, []).append(sv)
    if len(owner) != len(slots) or any(sum(s in schema.service_slots[sv] for s in slots) > 1
                                       for svs in owner.values() for sv in svs):
        return slots
    return [min(slots, key=lambda s: owner[s][0])]


def kind_name(turns: list[tuple[str, str]], domain: str) -> str | None:
    """The last name the user's turns give with ``domain``'s own noun
    (:func:`~csp_check.nlsi.spans.kind_names`: "stay at Courtyard By Marriott Portland Airport
    hotel" → ``Courtyard By Marriott Portland Airport`` for Hotels), or None; ``turns``:
    ``(speaker, text)`` in order (:func:`~csp_check.nlsi.models.split_turns`)."""
    named = [n for who, text in turns if who == "user" for n in kind_names(text, domain)]
    return named[-1] if named else None
