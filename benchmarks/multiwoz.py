"""MultiWOZ 2.1 val (shared) with C1-C6: dialogues, flagged share, errors, flags by constraint and
by class, and a seeded draw of 30 flags to read by hand (docs/multiwoz-flags.md).

    python benchmarks/multiwoz.py [--data ../shared/data/multiwoz/val.json.zip] [--seed 7] [--draw 30]
"""

from __future__ import annotations

import argparse
import random
import re
import sys
from collections import Counter
from itertools import combinations
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))  # this checkout's csp_check, not an installed one

from csp_check.check.evaluate import count_matches, entity_match
from csp_check.families.c6_instance_count import CountInstance
from csp_check.families.kb_common import KbFilterInstance
from csp_check.families.primitives import qualified_form
from csp_check.faults.counts import hedged_beyond
from csp_check.faults.negation import negated_coordination
from csp_check.faults.words import HEDGES
from csp_check.language.normalize import refers
from csp_check.models import ConstraintId, Dialogue, Span, Status
from csp_check.pipeline import check_dialogue, dialogue_csp, load_corpus
from csp_check.readers.kb import load_kb

ALL = ["C1", "C2", "C3", "C4", "C5", "C6"]
FAULT_KINDS = ("count", "name", "attribute", "whole_city", "time_bound", "booking_detail", "amenity",
               "amenity_coordination", "hedged_count")
#: The constraint each kind must trip (the count: C6; a swapped name or attribute: C5; a no-result
#: turn said of the whole city about a value the KB has: C4; a system "arrives by T" / "leaves after T"
#: moved so no train fits: C5; an address / phone / postcode in a booking confirmation changed to
#: another entity's: C5; a hotel's wifi / parking said the other way round, "free wifi" → "no wifi": C5).
EXPECTED = {"count": "C6", "name": "C5", "attribute": "C5", "whole_city": "C4", "time_bound": "C5",
            "booking_detail": "C5", "amenity": "C5", "amenity_coordination": "C5", "hedged_count": "C6"}
#: amenity_coordination: a wifi / parking the system affirms ("it has free wifi") said as the second
#: noun of a negated coordination ("it does not have free breakfast and wifi"; faults.negation.negated_coordination): C5.
#: hedged_count: an exact count the KB confirms said as an approximation that misses it ("about 15" where
#: 10 match; faults.counts.hedged_beyond): C6. It misses the count with any two filters lifted too (a
#: filter the text may not settle: the belief state's alone, asked, relaxed, one or two dropped after a no-result),
#: so the fault is one by every reading: lifting a filter only adds entities, so it often lies below.


def edit_text(dialogue: Dialogue, turn: int, span: Span, new: str) -> Dialogue:
    """``dialogue`` with ``new`` written over ``span`` of one turn's text only (acts and state
    untouched), the turn's annotated spans re-aligned to the edit."""
    out = dialogue.model_copy(deep=True)
    t = out.turns[turn]
    delta = len(new) - (span.end - span.start)
    old_text = t.utterance
    t.utterance = t.utterance[: span.start] + new + t.utterance[span.end :]
    for act in t.acts:
        s = act.span
        if s is None:
            continue
        if s.start <= span.start and span.end <= s.end:  # the edit is the span or inside it ("has" →
            act.span = Span(start=s.start, end=s.end + delta)  # "charges" in "has an entrance fee"): it stretches
        elif s.start >= span.end:
            act.span = Span(start=s.start + delta, end=s.end + delta)
        elif s.start >= span.start and s.end <= span.end:  # a span inside the edit: its words in the new text
            at = new.lower().find(old_text[s.start : s.end].lower())
            act.span = (Span(start=span.start + at, end=span.start + at + s.end - s.start) if at >= 0
                        else Span(start=span.start, end=span.start + len(new)))
    return out


def inject(dialogue: Dialogue, kb, kind: str, rng: random.Random) -> Dialogue | None:
    """One text-only fault of ``kind`` at an annotated span of a system turn of an accepted
    dialogue, chosen so the KB contradicts it: ``count`` an amount no count of its C6 allows; ``name`` an entity name
    swapped for another KB entity that lacks the values stated with it, not a name that also
    refers ("place", The Place without its article; read as a reference) (C5); ``attribute`` a
    stated value swapped for another KB value of its column that no entity has with the rest
    (C5). ``None`` when the dialogue has no such place."""
    csp = dialogue_csp(dialogue, kb, ALL)
    by_name = {v.name: v for v in csp.variables}
    said = csp.assignment
    options = []
    for c in csp.constraints:
        if kind == "count" and isinstance(c, CountInstance):
            amount = by_name[c.count_variable]
            if amount.span is None:
                continue
            _, possible = count_matches(csp.kbs[c.kb], c.columns, [said[n] for n in c.variables], c.ops)
            new = possible + c.count_next_day + 1 + rng.randrange(3)  # past the clock-time reading too
            if amount.amount_op == "~":  # "about 11": a range (cues.approx_tolerance); the fault leaves it
                new = hedged_beyond(possible, possible + c.count_next_day) or new
            options.append((amount, str(new)))
        elif kind in ("name", "attribute") and c.id is ConstraintId.C5 and isinstance(c, KbFilterInstance):
            entities = csp.kbs[c.kb]
            for i, n in enumerate(c.variables):
                v = by_name[n]
                if v.span is None or v.speaker != "system" or (v.slot in ("name", "trainID")) != (kind == "name"):
                    continue
                if not any(a.span == v.span for a in dialogue.turns[v.turn].acts):
                    continue  # a value found by text matching, not annotated there: no place to fault
                if c.ops and c.ops[i] != "=":
                    continue
                others = [j for j in range(len(c.variables)) if j != i]
                cols = [c.columns[j] for j in others]
                ops = [c.ops[j] if c.ops else "=" for j in others]
                fitting = [e for e in entities if entity_match(e, cols, [said[c.variables[j]] for j in others], ops)[1]]
                if any(c.columns[i] not in e for e in fitting):
                    continue  # an entity lacking the column may have any value: no sure fault
                have = {e[c.columns[i]] for e in fitting}
                bad = sorted({e[c.columns[i]] for e in entities if c.columns[i] in e} - have)
                bad = [x for x in bad if not any(qualified_form(c.columns[i], h, x) for h in have)]  # "European"
                # for a modern European restaurant is true (primitives, "Qualified forms"): no fault
                if v.domain == "hotel" and v.slot == "type":
                    bad = [x for x in bad if x != "hotel"]  # "hotel" names any place to stay (README)
                if v.slot == "name":  # a name that is also a referring phrase ("place", The Place's name
                    bad = [x for x in bad if not refers(x)]  # without its article) reads as a reference
                if bad:
                    options.append((v, rng.choice(bad)))
        elif kind == "time_bound" and c.id is ConstraintId.C5 and isinstance(c, KbFilterInstance):
            options.extend(_time_bound(c, by_name, said, csp.kbs[c.kb]))
        elif kind == "whole_city" and c.id is ConstraintId.C4 and isinstance(c, KbFilterInstance):
            options.extend(_whole_city(c, by_name, said, csp.kbs[c.kb], dialogue))
    if kind == "booking_detail":
        options = _booking_detail(dialogue, csp, kb)
    if kind == "amenity":
        options = [(v, _flip_amenity(v.text or "")) for v in csp.variables
                   if v.slot in ("internet", "parking") and v.speaker == "system" and v.span is not None
                   and _flip_amenity(v.text or "") and any(c.id is ConstraintId.C5 and v.name in c.variables
                                                           for c in csp.constraints)]
    if kind == "hedged_count":
        for c in csp.constraints:
            if not isinstance(c, CountInstance):
                continue
            amount = by_name.get(c.count_variable)
            if amount is None or amount.span is None or amount.amount_op != "=":
                continue
            rows, values, ops = csp.kbs[c.kb], [said[n] for n in c.variables], c.ops or ["="] * len(c.columns)
            sure, possible = count_matches(rows, c.columns, values, ops)
            late = c.count_next_day  # trains arriving after midnight: the clock-time reading counts them too
            keep = [[i for i in range(len(c.columns)) if i not in lift]
                    for lift in combinations(range(len(c.columns)), max(0, min(2, len(c.columns) - 1)))]
            tables = [rows] + [csp.kbs[c.table.base]] * (c.table.base in csp.kbs)  # the belief state's filters lifted
            widest = max([possible] + [count_matches(t, [c.columns[i] for i in k], [values[i] for i in k],
                                                     [ops[i] for i in k])[1] for t in tables for k in keep + [list(range(len(ops)))]])
            new = hedged_beyond(sure, widest + late) if said[amount.name] == amount.value else None
            if new is not None and sure <= amount.value <= possible + late:
                options.append((amount, f"{HEDGES[amount.turn % len(HEDGES)]} {new}"))
    if kind == "amenity_coordination":
        options = []
        for v in csp.variables:
            utterance = dialogue.turns[v.turn].utterance
            found = negated_coordination(utterance, v.span, "free breakfast", v.turn + v.span.start) if (
                v.slot in ("internet", "parking") and v.speaker == "system" and v.span is not None
                and said[v.name] == "yes"
                and any(c.id is ConstraintId.C5 and v.name in c.variables for c in csp.constraints)) else None
            if found is not None and not any(
                    w.turn == v.turn and w is not v and w.span is not None and w.span.start < found[0].end
                    and found[0].start < w.span.end for w in csp.variables):
                options.append((v.model_copy(update={"span": found[0]}), found[1]))
    if not options:
        return None
    if kind == "whole_city":
        (area, value_var, new) = rng.choice(options)
        later, earlier = sorted([(area, "all of cambridge"), (value_var, new)], key=lambda x: -x[0].span.start)
        faulty = edit_text(dialogue, later[0].turn, later[0].span, later[1])
        return edit_text(faulty, earlier[0].turn, earlier[0].span, earlier[1])
    var, new = rng.choice(options)
    assert var.span is not None
    return edit_text(dialogue, var.turn, var.span, new)


def _flip_amenity(text: str) -> str:
    """A wifi / parking wording said the other way round: "free wifi" → "no wifi", "no parking" →
    "free parking"; "" when it has no such form."""
    if re.match(r"(?i)(?:no|not|n't)\b", text):
        return re.sub(r"(?i)^(?:no|not|n't)\s+(?:free\s+)?", "free ", text)
    if re.match(r"(?i)free\s+", text):
        return re.sub(r"(?i)^free\s+", "no ", text)
    return "no " + text if re.fullmatch(r"(?i)[\w -]+", text) else ""


def _booking_detail(dialogue: Dialogue, csp, kb) -> list:  # type: ignore[no-untyped-def]
    """Places for a ``booking_detail`` fault: an address, phone or postcode a booking confirmation
    informs (annotated span) becomes the value of another entity of its domain."""
    out = []
    for v in csp.variables:
        turn = dialogue.turns[v.turn]
        if (v.speaker != "system" or v.span is None or v.slot not in ("address", "phone", "postcode")
                or not any(a.role.value == "booked" for a in turn.acts)
                or not any(a.span == v.span and a.slot == v.slot for a in turn.acts)):
            continue
        table = kb.tables.get(v.domain)
        values = sorted({e[v.slot] for e in table.normalized() if v.slot in e}) if table else []
        if csp.assignment[v.name] in values and len(values) > 1:
            out.append((v, values[(values.index(csp.assignment[v.name]) + 7) % len(values)]))
    return out


def _time_bound(c, by_name, said, entities) -> list:  # type: ignore[no-untyped-def]
    """Places for a ``time_bound`` fault: a system time said as a bound in its own turn ("arrives
    by 10:30", ``ops`` not ``=``) moved 30 minutes past every train that fits the turn's other
    filters ("by" → before the earliest, "after" → later than the latest)."""
    out = []
    for i, n in enumerate(c.variables):
        v = by_name[n]
        op = c.ops[i] if c.ops else "="
        if op == "=" or v.speaker != "system" or v.turn != c.turn or v.span is None:
            continue
        keep = [j for j in range(len(c.variables)) if j != i and by_name[c.variables[j]].slot != v.slot]
        cols, vals = [c.columns[j] for j in keep], [said[c.variables[j]] for j in keep]
        ops = [c.ops[j] if c.ops else "=" for j in keep]
        times = sorted(e[c.columns[i]] for e in entities if c.columns[i] in e and entity_match(e, cols, vals, ops)[1])
        if not times or not re.fullmatch(r"\d\d:\d\d", times[0]) or not re.fullmatch(r"\d\d:\d\d", times[-1]):
            continue
        edge = times[0] if op == "<=" else times[-1]
        minutes = int(edge[:2]) * 60 + int(edge[3:]) + (-30 if op == "<=" else 30)
        if 0 <= minutes < 24 * 60:
            out.append((v, f"{minutes // 60:02d}:{minutes % 60:02d}"))
    return out


def _whole_city(c, by_name, said, entities, dialogue: Dialogue) -> list:  # type: ignore[no-untyped-def]
    """Places for a ``whole_city`` fault in a no-result (C4) turn: its area words become "all of
    cambridge" (no area filter) and another of its values one the KB has with the other filters
    (so "there are no X in all of cambridge" is false: C4)."""
    out = []
    mine = [by_name[n] for n in c.variables]
    areas = [v for v in mine if v.slot == "area" and v.span is not None and v.turn == c.turn]
    for area in areas[:1]:
        for i, n in enumerate(c.variables):
            v = by_name[n]
            if (v is area or v.span is None or v.turn != c.turn or v.slot in ("area", "name")
                    or (c.ops and c.ops[i] != "=") or v.span.start < area.span.end and area.span.start < v.span.end):
                continue
            keep = [j for j in range(len(c.variables)) if j != i and by_name[c.variables[j]].slot != "area"]
            cols, vals = [c.columns[j] for j in keep], [said[c.variables[j]] for j in keep]
            ops = [c.ops[j] if c.ops else "=" for j in keep]
            have = sorted({e[c.columns[i]] for e in entities if c.columns[i] in e
                           and entity_match(e, cols, vals, ops)[0]} - {said[n]})
            if have:
                out.append((area, v, have[len(have) // 2]))
    return out

SHARED = Path(__file__).resolve().parents[1].parent / "shared" / "data" / "multiwoz"


def flag_class(constraint: str, message: str) -> str:
    """A coarse class of a flag from its message: what kind of claim broke."""
    if constraint == "C5":
        return "C5 offer vs request" if "not with what was asked" in message else "C5 no such entity"
    if constraint == "C6":
        return "C6 count" + (" (bounded)" if re.search(r"leaveAt|arriveBy", message) else "")
    if constraint == "C2":
        slot = re.search(r"same ([\w.]+(?: \w+)?)", message)
        return f"C2 {slot.group(1).split('.')[-1] if slot else ''}".strip()
    return constraint


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--data", default=str(SHARED / "val.json.zip"))
    parser.add_argument("--kb", default=str(SHARED / "db"))
    parser.add_argument("--seed", type=int, default=7)
    parser.add_argument("--draw", type=int, default=30)
    args = parser.parse_args()
    kb = load_kb(args.kb)
    reports = [check_dialogue(d, kb, ["C1", "C2", "C3", "C4", "C5", "C6"]) if not isinstance(d, Exception) else d
               for d in load_corpus([args.data], kb=kb)]  # fmt: skip
    errors = sum(1 for r in reports if isinstance(r, Exception) or r.status is Status.ERROR)
    for r in reports:
        if isinstance(r, Exception):
            print(f"error: {r}", file=sys.stderr)
    checked = [r for r in reports if not isinstance(r, Exception)]
    flagged = [r for r in checked if r.status is Status.INCONSISTENT]
    print(f"dialogues: {len(reports)}, flagged: {len(flagged)} ({len(flagged) / len(reports):.1%}), errors: {errors}, "
          f"annotation defects: {sum(len(r.defects) for r in checked)}")  # fmt: skip
    flags = [(r.dialogue_id, v) for r in checked for v in r.violations]
    by_c, dial_c = Counter(v.constraint.value for _, v in flags), Counter()
    for r in flagged:
        dial_c.update({v.constraint.value for v in r.violations})
    print("\n| constraint | flags | dialogues |\n| --- | --- | --- |")
    for c in sorted(by_c):
        print(f"| {c} | {by_c[c]} | {dial_c[c]} |")
    by_class = Counter(flag_class(v.constraint.value, v.message) for _, v in flags)
    print("\n| class | flags |\n| --- | --- |")
    for k, n in by_class.most_common():
        print(f"| {k} | {n} |")
    print("\ninjected text-only faults on the accepted dialogues (flagged / injected):")
    rng = random.Random(args.seed)
    accepted = [d for d in load_corpus([args.data], kb=kb) if not isinstance(d, Exception)
                and check_dialogue(d, kb, ALL).status is Status.CONSISTENT]  # fmt: skip
    for kind in FAULT_KINDS:
        injected = flagged_n = right = 0
        missed = []
        for d in accepted:
            faulty = inject(d, kb, kind, rng)
            if faulty is None:
                continue
            injected += 1
            report = check_dialogue(faulty, kb, ALL)
            flagged_n += report.status is Status.INCONSISTENT
            right += any(v.constraint.value == EXPECTED[kind] for v in report.violations)
            if report.status is not Status.INCONSISTENT:
                missed.append(d.id)
        share = f"{flagged_n / injected:.1%}, by {EXPECTED[kind]} {right / injected:.1%}" if injected else "-"
        print(f"  {kind}: {flagged_n}/{injected} = {share}" + (f"  (missed: {', '.join(missed[:5])})" if missed else ""))
    print(f"\nseeded draw ({args.draw} flags, seed {args.seed}):")
    for i, (dialogue_id, v) in enumerate(random.Random(args.seed).sample(flags, min(args.draw, len(flags))), 1):
        print(f"{i}. {dialogue_id} {v.constraint.value} turns {v.turns}: {v.message}")
        for ref in v.variables:
            print(f"     {ref.name} turn {ref.turn} {ref.slot} {ref.text!r} = {ref.value!r}")


if __name__ == "__main__":
    main()
