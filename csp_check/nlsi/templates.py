"""The release's instruction templates read by their shape (issue 19): the fallback of
:class:`csp_check.nlsi.instructions.InstructionParser` when the ontology matcher finds no
reading.

The release's generator (its ``create_template_dataset.py``) writes slot names with spaces for
underscores and the values as they are, so a template instruction names its slots exactly and
its values need not be in any ontology ("If cuisine is Japanese then look for restaurant name as
Sushi Ichimoto": the restaurant is in no list). Shapes read (case-insensitive):

- ``If I ask for <D>, my preferred <S> is <V>`` → domain D: S = V;
- ``If <S1> is <V1> then look for <S2> as <V2>`` → if S1 = V1 then S2 = V2, in the domains
  having both slots (the one whose ontology knows V1 when several do);
- ``If I ask for <D> and <S1> is <V1> then look for <S2> as <V2>`` → the same in D.

Validation, never a guess: D must name a schema domain (its name or a domain phrase), S a slot of
it by name, and a categorical value must be one of the slot's possible values (``dontcare``
aside); otherwise no rule.
"""

from __future__ import annotations

import re

from csp_check.nlsi.cues import domain_phrases
from csp_check.nlsi.instructions import Rule
from csp_check.nlsi.schema import NlsiSchema, normalize

_PREFERRED = re.compile(r"^if i ask for (?P<d>[\w ]+?), my preferred (?P<s>[\w ]+?) is (?P<v>.+?)\.?$", re.IGNORECASE)
_CHAIN = re.compile(r"^if (?:i ask for (?P<d>[\w ]+?) and )?(?P<s1>[a-z][\w ]*?) is (?P<v1>.+?) then look for "
                    r"(?P<s2>[a-z][\w ]*?) as (?P<v2>.+?)\.?$", re.IGNORECASE)


def _domain(schema: NlsiSchema, words: str) -> str | None:
    w = normalize(words)
    hits = [d for d in schema.domains if w in {normalize(p) for p in domain_phrases(d)} or w == normalize(d)]
    return hits[0] if len(hits) == 1 else None


def _valid(schema: NlsiSchema, d: str, slot: str, value: str) -> bool:
    info = schema.slot(d, slot)
    return info is not None and bool(normalize(value)) and (not info.is_categorical or schema.value_ok(d, slot, value))


def parse_template(schema: NlsiSchema, text: str) -> Rule | None:
    """A rule read by the template shapes of the module doc, or None."""
    text = text.strip()
    m = _PREFERRED.match(text)
    if m:
        d, slot, value = _domain(schema, m["d"]), m["s"].strip().lower().replace(" ", "_"), m["v"].strip()
        if d is not None and _valid(schema, d, slot, value):
            return Rule(text, (d,), action=(slot, schema.canonical(d, slot, value)))
        return None
    m = _CHAIN.match(text)
    if not m:
        return None
    s1, s2 = (m[k].strip().lower().replace(" ", "_") for k in ("s1", "s2"))
    v1, v2 = m["v1"].strip(), m["v2"].strip()
    if m["d"]:
        one = _domain(schema, m["d"])
        doms = [one] if one is not None else []
    else:
        doms = sorted(d for d, slots in schema.domains.items() if s1 in slots and s2 in slots)
    doms = [d for d in doms if _valid(schema, d, s1, v1) and _valid(schema, d, s2, v2)]
    if len(doms) > 1:
        known = [d for d in doms if normalize(v1) in {normalize(v) for v in schema.domains[d][s1].values}]
        doms = known or doms
    if len(doms) != 1:
        return None
    d = doms[0]
    return Rule(text, (d,), condition=((s1, schema.canonical(d, s1, v1)),), action=(s2, schema.canonical(d, s2, v2)))
