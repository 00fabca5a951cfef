"""Pairs for the false-alarm classes of issue 18 on MultiWOZ: each generator writes one form of
English into an accepted dialogue twice — as a *twin* whose text states no error (it must not be
flagged certain) and as a *fault* whose text settles an error in the same form (it must be
flagged certain).

Every generator takes ``(dialogue, kb, rng)`` and returns ``(fault, twin)`` or ``None`` when the
dialogue has no place for the form. What makes the fault an error and the twin none is decided
from the KB alone (never by asking the checker). Edits are to the text; an act is added only for
an entity name or time the new words state, as MultiWOZ's annotators mark every one.

=============  ==========================================================================
class          twin (no error) / fault (an error)
=============  ==========================================================================
asked          "Would you like one in the north?" / "I do not have one in the north." where
               none exists / "I have one in the north."
coordinated    "N hotels and guesthouses" with N the total of both kinds / N matching
               neither kind nor their total
scope          a count narrowed by a qualifier of its sentence ("M guesthouses in the
               north"), "one guesthouse called X" (X fits), "N more" (N below the total) /
               the same forms with an amount no reading allows (X does not fit; N more than all)
relaxed        the user lifts the slot the offer differs on ("anywhere is fine", "no
               preference", "if there is nothing in the north, anywhere is fine") / lifts
               another slot
generic        the entity's kind said by a hypernym ("place", "a hotel" for a guesthouse,
               "entertainment" for a cinema) / by a co-hyponym it is not ("museum")
variant        a phone / postcode / name written with spaces or one letter swapped / another
               entity's
binding        "N1 … N2 is another option . It is in the south ." (south N2's area) / an area
               neither has
requested      "The first train after 17:45 is TR1234 , leaving at 18:09" (17:45 the user's
               bound) / the same with a leaving time the train does not have
=============  ==========================================================================
"""

from __future__ import annotations

import random
import re
from collections.abc import Callable

from csp_check.families.c6_instance_count import CountInstance
from csp_check.families.kb_common import KbFilterInstance
from csp_check.families.primitives import count_matches, entity_match
from csp_check.language.certainty import HYPERNYMS as HYPERNYM_KINDS
from csp_check.language.certainty import relaxed as lifts
from csp_check.language.certainty import sentence, slots_named
from csp_check.language.normalize import contains_words
from csp_check.models import ActRole, ConstraintId, Dialogue, DialogueAct, KnowledgeBase, Span, Variable
from csp_check.pipeline import dialogue_csp

Pair = tuple[Dialogue, Dialogue]
Generator = Callable[[Dialogue, KnowledgeBase, random.Random], Pair | None]
#: How an attribute value is said after "one" ("one in the north", "one with 4 stars").
PHRASES = {"area": "in the {}", "pricerange": "in the {} price range", "stars": "with {} stars", "food": "serving {} food"}
#: Forms of a question or a denial of an offer: none of them says the entity exists.
UNSAID = ("Would you like {} ?", "Shall I look for {} ?", "Do you want me to find {} ?", "I do not have {} .",
          "Sorry , there is not {} .")
RELAX = {"area": ("Actually , anywhere is fine .", "I have no preference on the area , by the way .",
                  "If there is nothing in the {} , anywhere is fine .", "The area does not matter ."),
         "pricerange": ("Actually , any price range is fine .", "I have no preference on the price , by the way .",
                        "If there is nothing {} , the price does not matter .", "The price does not matter .")}
#: Words for a kind of place that are true of every value of the column ("place"), or of some
#: (``entertainment``: what a cinema, theatre, nightclub or concert hall is; ``hotel``: any place to stay).
GENERIC = {"hotel": {"place": None, "place to stay": None, "hotel": {"guesthouse", "hotel"}},
           "attraction": {"place": None, "attraction": None, "venue": None,
                          "entertainment": {"cinema", "theatre", "nightclub", "concerthall"}}}
HYPERNYMS = {"hotel", "entertainment"}
#: Kinds whose plural is the value and "s" ("museums"), for a coordination of kinds.
COUNTABLE = ("hotel", "guesthouse", "museum", "college", "park", "theatre", "cinema", "nightclub")
COUNTED = re.compile(r"^(\s+(?:[a-z]+\s+)?)([a-z]+s)\b")
KIND_NOUNS = {"hotels", "guesthouses", "places", "options", "results", "ones", "choices", "attractions", "museums",
              "colleges", "restaurants", "trains", "entries", "matches", "locations"}


def edit(dialogue: Dialogue, turn: int, span: Span, new: str, drop_inside: bool = False) -> Dialogue:
    """``dialogue`` with ``new`` over ``span`` of one turn's text; acts' spans after it shift, a
    span around it stretches, a span inside it is found in ``new`` (or its act dropped with
    ``drop_inside``: its words are gone)."""
    out = dialogue.model_copy(deep=True)
    t = out.turns[turn]
    old, delta = t.utterance, len(new) - (span.end - span.start)
    t.utterance = old[: span.start] + new + old[span.end :]
    kept = []
    for act in t.acts:
        s = act.span
        if s is not None:
            if s.start >= span.end and not (s.start == span.end == span.start):
                act.span = Span(start=s.start + delta, end=s.end + delta)
            elif s.start <= span.start and span.end <= s.end and not (s.end == span.start):
                act.span = Span(start=s.start, end=s.end + delta)
            elif s.start >= span.start and s.end <= span.end:
                at = new.lower().find(old[s.start : s.end].lower())
                if at < 0 or drop_inside:
                    continue
                act.span = Span(start=span.start + at, end=span.start + at + s.end - s.start)
        kept.append(act)
    t.acts = kept
    return out


def insert(dialogue: Dialogue, turn: int, at: int, new: str, acts: tuple[tuple[DialogueAct, str], ...] = ()) -> Dialogue:
    """``new`` written at offset ``at`` of a turn, with ``acts`` (act, its words in ``new``) added."""
    out = edit(dialogue, turn, Span(start=at, end=at), new)
    for act, words in acts:
        i = new.index(words)
        out.turns[turn].acts.append(act.model_copy(update={"span": Span(start=at + i, end=at + i + len(words))}))
    return out


def _has_act(dialogue: Dialogue, v: Variable) -> bool:
    return any(a.span == v.span and a.slot == v.slot for a in dialogue.turns[v.turn].acts)


def _c5_claims(csp, dialogue: Dialogue, slots) -> list[tuple[KbFilterInstance, int, Variable]]:
    """(C5 instance, index, variable) for each annotated system claim of ``slots``."""
    by_name = {v.name: v for v in csp.variables}
    out = []
    for c in csp.constraints:
        if c.id is not ConstraintId.C5 or not isinstance(c, KbFilterInstance):
            continue
        for i, n in enumerate(c.variables):
            v = by_name[n]
            if (v.speaker == "system" and v.turn == c.turn and v.span is not None and v.slot in slots
                    and (not c.ops or c.ops[i] == "=") and _has_act(dialogue, v)):
                out.append((c, i, v))
    return out


def _rows(csp, c) -> list[dict]:
    return csp.kbs[c.kb]


def _fit(rows, cols, vals, ops=None) -> list[dict]:
    return [e for e in rows if entity_match(e, cols, vals, ops)[1]]


def _filters(csp, c, turn: int, drop: set[str] = frozenset()) -> tuple[list, list, list]:
    """Columns, values and ops of ``c``'s filters said before ``turn`` (less the columns ``drop``)."""
    by_name = {v.name: v for v in csp.variables}
    keep = [i for i, n in enumerate(c.variables) if by_name[n].turn < turn and c.columns[i] not in drop]
    return ([c.columns[i] for i in keep], [csp.assignment[c.variables[i]] for i in keep],
            [c.ops[i] if c.ops else "=" for i in keep])


def _inside_name(dialogue: Dialogue, v: Variable) -> bool:
    """Whether ``v``'s words lie inside an entity name annotated in its turn (the name's words)."""
    return any(a.slot == "name" and a.span is not None and a.span.start <= v.span.start and v.span.end <= a.span.end
               for a in dialogue.turns[v.turn].acts)


def _question(dialogue: Dialogue, v: Variable) -> bool:
    """Whether ``v``'s sentence is a question (it asks; it states nothing)."""
    text = dialogue.turns[v.turn].utterance
    return text[sentence(text, v.span)[0] : sentence(text, v.span)[1]].rstrip().endswith("?")


def _lifted(dialogue: Dialogue, csp, c, turn: int) -> set[str]:
    """The columns of ``c``'s filters a user turn before ``turn`` lifts ("I do n't care about the price")."""
    first = min((v.turn for v in csp.variables if v.name in c.variables), default=turn)
    out: set[str] = set()
    for t in dialogue.turns[first:turn]:
        if t.speaker == "user" and (found := lifts(t.utterance)):
            out |= slots_named(found[1]) | (slots_named(dialogue.turns[t.index - 1].utterance) if t.index else set())
    return out


def _surface(value: str) -> str:
    return {"center": "centre"}.get(value, value)


def asked(dialogue: Dialogue, kb: KnowledgeBase, rng: random.Random) -> Pair | None:
    """Class 1: the sentence of a system attribute claim rewritten as "one <value>" no entity
    with the user's filters has (nor with any one of them lifted: the user may have relaxed it):
    asked or denied (twin), or stated "I have one …" (fault)."""
    csp = dialogue_csp(dialogue, kb)
    options = []
    for c, i, v in _c5_claims(csp, dialogue, PHRASES):
        cols, vals, ops = _filters(csp, c, v.turn)
        rows = _rows(csp, c)
        lifted = _lifted(dialogue, csp, c, v.turn)
        keep = [k for k in range(len(cols)) if cols[k] not in lifted]
        readings = [(cols, vals, ops), tuple([x[k] for k in keep] for x in (cols, vals, ops))]
        bad = sorted({e[c.columns[i]] for e in rows if c.columns[i] in e}  # none fits, nor with a lifted filter unsaid
                     - {e.get(c.columns[i]) for r in readings for e in _fit(rows, *r)})
        if any(x in HYPERNYM_KINDS for x in vals):
            continue  # "entertainment" asked: a cinema is one too, which kinds the claim must fit is not settled
        if any(isinstance(k, CountInstance) and v.name in k.variables for k in csp.constraints):
            continue  # a count of the turn rests on the claim: rewriting its sentence changes what it counts
        if bad and cols:
            options.append((v, rng.choice(bad)))
    if not options:
        return None
    v, value = rng.choice(options)
    one = "one " + PHRASES[v.slot].format(_surface(value))
    text = dialogue.turns[v.turn].utterance
    start, end = sentence(text, v.span)
    lead = " " if start else ""

    def form(template: str) -> Dialogue:
        new = lead + template.format(one) + (" " if end < len(text) else "")
        out = edit(dialogue, v.turn, Span(start=start, end=end), new, drop_inside=True)
        at = start + new.index(one) + one.index(_surface(value))
        act = next(a for a in dialogue.turns[v.turn].acts if a.span == v.span and a.slot == v.slot)
        out.turns[v.turn].acts.append(act.model_copy(update={"span": Span(start=at, end=at + len(_surface(value))),
                                                             "value": value, "canonical": value}))
        return out

    return form("I have {} ."), form(rng.choice(UNSAID))


def _counts(csp, dialogue: Dialogue, domains) -> list[tuple[CountInstance, Variable, re.Match]]:
    """(C6 instance, amount, the counted noun after it) for each annotated count of ``domains``."""
    by_name = {v.name: v for v in csp.variables}
    out = []
    for c in csp.constraints:
        if not isinstance(c, CountInstance):
            continue
        amount = by_name.get(c.count_variable)
        if amount is None or amount.span is None or amount.domain not in domains or amount.amount_op != "=":
            continue
        m = COUNTED.match(dialogue.turns[amount.turn].utterance[amount.span.end :])
        if m and m.group(2).lower() in KIND_NOUNS:
            out.append((c, amount, m))
    return out


def _count(rows, cols, vals, ops) -> int | None:
    """The count of ``rows`` matching, when surely and possibly matching agree; else ``None``."""
    sure, possible = count_matches(rows, cols, vals, ops)
    return sure if sure == possible else None


def _recount(dialogue: Dialogue, amount: Variable, m: re.Match, number: str, noun: str, after: str = "",
             more: bool = False) -> Dialogue:
    """The amount's words become ``number``, its counted noun ``noun`` followed by ``after``
    (with ``more``: "more" right after the amount, "2 more indian restaurants")."""
    base = amount.span.end
    if more:
        out = edit(dialogue, amount.turn, Span(start=base, end=base + m.end(2)), " more" + m.group(1) + noun + after)
    else:
        out = edit(dialogue, amount.turn, Span(start=base + m.start(2), end=base + m.end(2)), noun + after)
    return edit(out, amount.turn, amount.span, number)


def coordinated(dialogue: Dialogue, kb: KnowledgeBase, rng: random.Random) -> Pair | None:
    """Class 2: a count of the user's kind said as "N <kind>s and <other kind>s": N the total of
    both (twin), N matching neither kind nor the total (fault)."""
    csp = dialogue_csp(dialogue, kb)
    options = []
    for c, amount, m in _counts(csp, dialogue, ("hotel", "attraction")):
        if "type" not in c.columns:
            continue
        cols, vals, ops = list(c.columns), [csp.assignment[n] for n in c.variables], list(c.ops or ["="] * len(c.columns))
        k = cols.index("type")
        mine = vals[k]
        others = sorted({e["type"] for e in csp.kbs[c.kb] if e.get("type") and e["type"] != mine})
        for other in [x for x in others if x in COUNTABLE]:
            n_mine = _count(csp.kbs[c.kb], cols, vals, ops)
            n_other = _count(csp.kbs[c.kb], cols, vals[:k] + [other] + vals[k + 1 :], ops)
            if n_mine and n_other:
                options.append((amount, m, f"{mine}s and {other}s", n_mine, n_other))
    if not options:
        return None
    amount, m, noun, a, b = rng.choice(options)
    wrong = a + b + 1 + rng.randrange(2)
    return _recount(dialogue, amount, m, str(wrong), noun), _recount(dialogue, amount, m, str(a + b), noun)


def scope(dialogue: Dialogue, kb: KnowledgeBase, rng: random.Random) -> Pair | None:
    """Class 3: a count's scope set by its sentence — a qualifier ("M guesthouses in the north",
    area no filter), a name ("one guesthouse called X") or an increment ("N more"); the twin's
    amount fits that reading, the fault's fits no reading."""
    csp = dialogue_csp(dialogue, kb)
    options = []
    for c, amount, m in _counts(csp, dialogue, ("hotel", "attraction", "restaurant")):
        rows = csp.kbs[c.kb]
        cols, vals, ops = list(c.columns), [csp.assignment[n] for n in c.variables], list(c.ops or ["="] * len(c.columns))
        total = _count(rows, cols, vals, ops)
        if total is None or total < 2:
            continue
        noun = m.group(2)
        said = {v.slot for v in csp.variables if v.turn == amount.turn}
        if "area" not in cols and "area" not in said:
            for area in sorted({e.get("area") for e in rows if e.get("area")}):
                narrow = _count(rows, [*cols, "area"], [*vals, area], [*ops, "="])
                if narrow and narrow != total:
                    wrong = max(total, narrow) + 1 + rng.randrange(2)
                    after = f" in the {_surface(area)}"
                    options.append(("qualifier", amount, m, (str(wrong), noun, after), (str(narrow), noun, after)))
        fitting = [e["name"] for e in _fit(rows, cols, vals, ops) if e.get("name")]
        misfits = sorted({e["name"] for e in rows if e.get("name")} - set(fitting))
        if fitting and misfits and "name" not in said:
            one = noun[:-1] if noun.endswith("s") else noun
            options.append(("name", amount, m, ("one", one, f" called {rng.choice(misfits)}"),
                            ("one", one, f" called {rng.choice(fitting)}")))
        options.append(("increment", amount, m, (str(total + 1 + rng.randrange(2)), noun, "", True),
                        (str(rng.randrange(1, total)), noun, "", True)))
    if not options:
        return None
    _, amount, m, fault, twin = rng.choice(options)
    return _recount(dialogue, amount, m, *fault), _recount(dialogue, amount, m, *twin)


def relaxed(dialogue: Dialogue, kb: KnowledgeBase, rng: random.Random) -> Pair | None:
    """Class 4: a system offer whose area (price range) differs from the user's, after a user turn
    that lifts it ("anywhere is fine", "if there is nothing in the north, anywhere is fine": twin)
    or lifts the other slot only (fault)."""
    csp = dialogue_csp(dialogue, kb)
    by_name = {v.name: v for v in csp.variables}
    options = []
    for c, i, v in _c5_claims(csp, dialogue, RELAX):
        column = c.columns[i]
        users = [by_name[n] for j, n in enumerate(c.variables) if c.columns[j] == column
                 and by_name[n].speaker == "user" and by_name[n].turn < v.turn - 1]
        if not users or dialogue.turns[v.turn - 1].speaker != "user" or any(
                by_name[n].turn == v.turn - 1 for n in c.variables):
            continue
        asked_value = csp.assignment[users[0].name]
        cols = [c.columns[j] for j in range(len(c.columns)) if c.columns[j] != column]
        vals = [csp.assignment[c.variables[j]] for j in range(len(c.columns)) if c.columns[j] != column]
        ops = [c.ops[j] if c.ops else "=" for j in range(len(c.columns)) if c.columns[j] != column]
        new = sorted({e.get(column) for e in _fit(csp.kbs[c.kb], cols, vals, ops) if e.get(column)} - {asked_value})
        if new:
            options.append((v, rng.choice(new), asked_value))
    if not options:
        return None
    v, value, asked_value = rng.choice(options)
    moved = edit(dialogue, v.turn, v.span, _surface(value))
    other = "pricerange" if v.slot == "area" else "area"
    lift, keep = rng.choice(RELAX[v.slot]), rng.choice([w for w in RELAX[other] if "{}" not in w])
    said = _surface(asked_value) if v.slot == "area" else asked_value
    user = dialogue.turns[v.turn - 1].utterance
    twin = insert(moved, v.turn - 1, len(user), " " + lift.format(said))
    fault = insert(moved, v.turn - 1, len(user), " " + keep)
    return fault, twin


def generic(dialogue: Dialogue, kb: KnowledgeBase, rng: random.Random) -> Pair | None:
    """Class 5: the type a system claim says written as a word true of it — a generic word or a
    hypernym ("place", "hotel" for a guesthouse, "entertainment" for a cinema: twin) — or as
    another kind no fitting entity is (fault)."""
    csp = dialogue_csp(dialogue, kb)
    options = []
    for c, i, v in _c5_claims(csp, dialogue, ("type",)):
        if v.domain not in GENERIC or _inside_name(dialogue, v) or _question(dialogue, v):
            continue  # "Christ 's college": the kind word is the name's; "Perhaps visit a museum ?" asks
        value = csp.assignment[v.name]
        true = [w for w, of in GENERIC[v.domain].items() if of is None or value in of]
        rows = csp.kbs[c.kb]
        others = [j for j in range(len(c.columns)) if j != i]
        fitting = _fit(rows, [c.columns[j] for j in others], [csp.assignment[c.variables[j]] for j in others],
                       [c.ops[j] if c.ops else "=" for j in others])
        have = {e.get("type") for e in fitting}
        bad = sorted({e.get("type") for e in rows if e.get("type")} - have - HYPERNYMS)
        if true and bad and None not in have:
            options.append((v, rng.choice(true), rng.choice(bad)))
    if not options:
        return None
    v, word, wrong = rng.choice(options)
    return edit(dialogue, v.turn, v.span, wrong), edit(dialogue, v.turn, v.span, word)


def _spaced(value: str) -> str:
    """A phone in groups ("01223 365 599"), a postcode with its space ("cb2 1ab")."""
    if value.isdigit():
        return f"{value[:5]} {value[5:8]} {value[8:]}".strip()
    m = re.match(r"([a-z]+\d+)(\d[a-z]+)$", value, re.I)
    return f"{m.group(1)} {m.group(2)}" if m else value


def _swapped(value: str, rng: random.Random) -> str:
    """One pair of neighbours of ``value`` swapped (two different letters or digits)."""
    at = [k for k in range(len(value) - 1) if value[k] != value[k + 1] and value[k].isalnum() and value[k + 1].isalnum()]
    if not at:
        return value
    k = rng.choice(at)
    return value[:k] + value[k + 1] + value[k] + value[k + 2 :]


def _far(a: str, b: str) -> bool:
    """Whether two written values differ in three places or more (no typo of each other)."""
    a, b = (re.sub(r"[\s.,'-]", "", s.lower()) for s in (a, b))
    return abs(len(a) - len(b)) >= 3 or sum(x != y for x, y in zip(a, b)) + abs(len(a) - len(b)) >= 3


def variant(dialogue: Dialogue, kb: KnowledgeBase, rng: random.Random) -> Pair | None:
    """Class 6: a phone, postcode or name the system gives written with spaces or one swap of
    neighbours (twin), or as another entity's value far from every fitting entity's (fault)."""
    csp = dialogue_csp(dialogue, kb)
    options = []
    for c, i, v in _c5_claims(csp, dialogue, ("phone", "postcode", "name")):
        text = dialogue.turns[v.turn].utterance[v.span.start : v.span.end]
        rows = csp.kbs[c.kb]
        others = [j for j in range(len(c.columns)) if j != i]
        fitting = _fit(rows, [c.columns[j] for j in others], [csp.assignment[c.variables[j]] for j in others],
                       [c.ops[j] if c.ops else "=" for j in others])
        column = c.columns[i]
        if any(column not in e for e in fitting) or not fitting:
            continue
        mine = [e[column] for e in fitting]
        if not any(contains_words(text, x) for x in mine):
            continue  # words already unlike the value ("kihinoor" for kohinoor): one swap more is two edits
        raw = [e for e in kb.tables[v.domain].entities if isinstance(e.get(column), str)]
        bad = sorted({e[column] for e in raw if all(_far(e[column], x) for x in mine)})
        twin = _spaced(text) if v.slot != "name" and rng.random() < 0.5 else _swapped(text, rng)
        if bad and twin != text and len(text) >= 5:
            options.append((v, twin, rng.choice(bad)))
    if not options:
        return None
    v, twin, wrong = rng.choice(options)
    return edit(dialogue, v.turn, v.span, wrong), edit(dialogue, v.turn, v.span, twin)


def binding(dialogue: Dialogue, kb: KnowledgeBase, rng: random.Random) -> Pair | None:
    """Class 7: a system turn naming an entity in one sentence and its area or price range in a
    later one; another entity named between them ("N2 is another option .", annotated) and the
    attribute made N2's (twin: "it" may be N2) or neither's (fault)."""
    csp = dialogue_csp(dialogue, kb)
    by_name = {v.name: v for v in csp.variables}
    options = []
    for c, i, v in _c5_claims(csp, dialogue, ("area", "pricerange")):
        names = [by_name[n] for j, n in enumerate(c.variables) if c.columns[j] == "name" and by_name[n].turn == v.turn
                 and by_name[n].span is not None]
        text = dialogue.turns[v.turn].utterance
        if len(names) != 1 or sentence(text, names[0].span) == sentence(text, v.span):
            continue
        if names[0].span.start > v.span.start:
            continue
        rows = csp.kbs[c.kb]
        first = csp.assignment[names[0].name]
        own = {e.get(c.columns[i]) for e in rows if e.get("name") == first}
        cols, vals, ops = _filters(csp, c, v.turn)
        seconds = [e for e in _fit(rows, cols, vals, ops) if e.get("name") and e.get(c.columns[i])
                   and e[c.columns[i]] not in own]
        if not seconds:
            continue
        second = rng.choice(seconds)
        neither = sorted({e.get(c.columns[i]) for e in rows if e.get(c.columns[i])} - own - {second[c.columns[i]]})
        table = kb.tables[v.domain]
        raw = [e for e, n in zip(table.entities, table.normalized()) if n.get("name") == second["name"]]
        if neither and raw:
            options.append((v, names[0], str(raw[0]["name"]), second[c.columns[i]], rng.choice(neither)))
    if not options:
        return None
    v, name, second, value, wrong = rng.choice(options)
    text = dialogue.turns[v.turn].utterance
    at = sentence(text, v.span)[0]
    at += len(text[at:]) - len(text[at:].lstrip())
    if at == 0 or not text[at - 1].isspace():
        return None
    act = next(a for a in dialogue.turns[name.turn].acts if a.span == name.span)
    added = (act.model_copy(update={"value": second, "canonical": second.lower()}), second)

    def form(new: str) -> Dialogue:  # the sentence goes before the space that opens the attribute's
        out = edit(dialogue, v.turn, v.span, _surface(new))  # (at its start, the attribute's span would stretch over it)
        return insert(out, v.turn, at - 1, f" {second} is another option .", (added,))

    return form(wrong), form(value)


def requested(dialogue: Dialogue, kb: KnowledgeBase, rng: random.Random) -> Pair | None:
    """Class 8: a system train offer with its id and leaving time, after the user asked to leave
    after T: written "The first train after T is <id> , leaving at <time> ." with T annotated
    as the system's (MultiWOZ marks it): the train's time (twin) or one it does not have (fault)."""
    csp = dialogue_csp(dialogue, kb)
    by_name = {v.name: v for v in csp.variables}
    options = []
    for c, _, v in _c5_claims(csp, dialogue, ("leaveAt",)):
        ids = [by_name[n] for j, n in enumerate(c.variables) if c.columns[j] == "trainID" and by_name[n].turn == v.turn
               and by_name[n].span is not None]
        bounds = [by_name[n] for j, n in enumerate(c.variables) if c.columns[j] == "leaveAt"
                  and by_name[n].speaker == "user" and c.ops and c.ops[j] == ">="]
        if len(ids) != 1 or not bounds or not re.fullmatch(r"\d\d:\d\d", str(csp.assignment[bounds[0].name])):
            continue
        bound = csp.assignment[bounds[0].name]
        times = {e.get("leaveAt") for e in csp.kbs[c.kb] if e.get("trainID") == csp.assignment[ids[0].name]}
        own = csp.assignment[v.name]
        if bound == own or bound in times or own not in times:
            continue
        h, mnt = map(int, own.split(":"))
        wrong = [f"{(h * 60 + mnt + d) // 60 % 24:02d}:{(h * 60 + mnt + d) % 60:02d}" for d in (7, 11, 13, -9)]
        wrong = [w for w in wrong if w not in times and w != bound and w > bound]
        if wrong:
            options.append((v, ids[0], bound, rng.choice(wrong)))
    if not options:
        return None
    v, train, bound, wrong = rng.choice(options)
    text = dialogue.turns[v.turn].utterance
    act = next(a for a in dialogue.turns[v.turn].acts if a.span == v.span and a.slot == v.slot)
    train_text = text[train.span.start : train.span.end]

    def form(time: str | None) -> Dialogue:
        out = edit(dialogue, v.turn, v.span, time) if time else dialogue
        lead = f"The first train after {bound} is {train_text} . "
        return insert(out, v.turn, 0, lead, ((act.model_copy(update={"value": bound, "canonical": bound,
                                                                      "role": ActRole.INFORM}), bound),))

    return form(wrong), form(None)


#: The generators, by class, in the order the benchmark and the tests run them.
GENERATORS: dict[str, Generator] = {"asked": asked, "coordinated": coordinated, "scope": scope, "relaxed": relaxed,
                                    "generic": generic, "variant": variant, "binding": binding,
                                    "requested": requested}
