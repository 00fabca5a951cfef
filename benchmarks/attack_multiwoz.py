"""An adversary's faults on MultiWOZ 2.1 val: edits an LLM relexicaliser or an annotator makes.

    python benchmarks/attack_multiwoz.py [--seed 11] [--limit 400] [--raw-limit 150] [--show 3]

(about 4 minutes with the defaults on one core)

Independent of the injectors of ``benchmarks/multiwoz.py`` and ``csp_check.faults``: each kind
below finds its place from the checker's reading of an accepted dialogue (variables, their
values) and the DB, and writes a *fault* (the dialogue becomes false against the DB or itself)
and a *twin* at the same place (other words, the dialogue stays true). Three runs:

- ``annotated/text``: MultiWOZ 2.1 val with acts, the edit in the text only (acts stale);
- ``annotated/text+ann``: the edit in the text and in the act annotated at that span;
- ``raw``: the same dialogues as raw text (``User:`` / ``System:`` lines, benchmarks/rawtext.py),
  annotated from the text against the DB, the same edit.

Only dialogues the checker accepts (C1-C6; with S1 too for the ``state_value`` kind) are
edited. Per kind it prints the faults flagged, the share flagged by the constraint the kind
must trip, and the twins flagged (which must stay ~0). Kinds and the constraint each must trip:

==============  =====================================================================  =====
hotel_type      a place of type hotel called a "guesthouse" / "B&B" (twin: a guesthouse  C5
                called a "hotel", true: a hotel names any place to stay)
area_word       the area said of an offered entity becomes another area in other words   C5
                ("the southern part of town", "downtown"; twin: its own area reworded)
price_word      the price range of an offered entity becomes another ("pricey",          C5
                "upscale", "budget"; twin: its own range reworded, "inexpensive")
stars           the stars of an offered hotel become another number ("two"; twin: words) C5
count_word      a count the DB confirms becomes an amount it does not ("a dozen",        C6
                "just one"; twin: the count in words, or "several" / "a few")
no_result       a count the DB confirms becomes "no" ("there are no X")                  C4/C6
train_time      an offered train's departure / arrival moved an hour, said on the        C5
                12-hour clock ("6:15 pm"; twin: the true time so said, "5:15 pm")
train_id        an offered train id with two digits swapped (twin: lower case)           C5
train_day       the day said with an offered train becomes another day (twin: capitals)  C5
name_swap       an offered name becomes a DB entity of another area / price range        C5
                stated in the turn (twin: with or without "the")
food_swap       an offered restaurant's food becomes a close cuisine ("indian" →         C5
                "chinese"; twin: capitalised)
people          a booking confirmed for one more person than the user asked (twin: the  C2
                party size in words)
state_value     (annotation) the belief state records another value than the user said   S1
                (twin: the same value in capitals); text+ann run only
==============  =====================================================================  =====
"""

from __future__ import annotations

import argparse
import random
import re
import sys
import time
from collections import Counter
from dataclasses import dataclass
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))  # this checkout's csp_check
sys.path.insert(0, str(Path(__file__).resolve().parent))

from csp_check.check.evaluate import count_matches
from csp_check.families.c6_instance_count import CountInstance
from csp_check.models import Dialogue, Status
from csp_check.pipeline import check_dialogue, dialogue_csp, load_corpus
from csp_check.readers.kb import load_kb

SHARED = Path(__file__).resolve().parents[2] / "shared" / "data" / "multiwoz"
PAPER = ["C1", "C2", "C3", "C4", "C5", "C6"]
WITH_S1 = PAPER + ["S1"]

EXPECTED = {"hotel_type": {"C5"}, "area_word": {"C5"}, "price_word": {"C5"}, "stars": {"C5"},
            "count_word": {"C6"}, "no_result": {"C4", "C6"}, "train_time": {"C5"}, "train_id": {"C5"},
            "train_day": {"C5"}, "name_swap": {"C5"}, "food_swap": {"C5"}, "people": {"C2"},
            "state_value": {"S1"}}  # fmt: skip
TEXT_KINDS = [k for k in EXPECTED if k != "state_value"]

AREA_WORDS = {  # area -> ways to say it after "in the" / as the annotated span
    "north": ["north", "northern part of town", "north side of the city"],
    "south": ["south", "southern part of town", "south side of the city"],
    "east": ["east", "eastern part of town", "east side of the city"],
    "west": ["west", "western part of town", "west side of the city"],
    "centre": ["centre", "centre of town", "city centre", "downtown area"],
}
PRICE_WORDS = {
    "cheap": ["cheap", "inexpensive", "budget", "low-cost"],
    "moderate": ["moderately priced", "mid-range", "reasonably priced"],
    "expensive": ["expensive", "pricey", "upscale", "high-end"],
}
NUMBER_WORDS = ["zero", "one", "two", "three", "four", "five", "six", "seven", "eight", "nine", "ten",
                "eleven", "twelve"]
CLOSE_FOOD = {"indian": ["chinese", "thai"], "chinese": ["japanese", "korean", "thai", "indian"],
              "italian": ["spanish", "french", "mediterranean"], "thai": ["chinese", "vietnamese"],
              "british": ["european", "french"], "european": ["british", "italian"],
              "french": ["italian", "british"], "japanese": ["chinese", "korean"],
              "mediterranean": ["italian", "spanish", "turkish"], "spanish": ["italian", "portuguese"],
              "asian oriental": ["chinese", "indian"], "portuguese": ["spanish"], "turkish": ["lebanese"],
              "modern european": ["british", "french"], "gastropub": ["british"], "seafood": ["italian"],
              "korean": ["japanese", "chinese"], "vietnamese": ["thai", "chinese"], "lebanese": ["turkish"],
              "north american": ["british"], "international": ["italian"], "african": ["indian"]}
DAYS = ["monday", "tuesday", "wednesday", "thursday", "friday", "saturday", "sunday"]


@dataclass
class Edit:
    """``new`` written over ``[start, end)`` of turn ``turn``'s text; ``canonical`` the value the
    act at that span takes in the text+ann run (``None``: the act's value is the new text)."""

    turn: int
    start: int
    end: int
    new: str
    canonical: str | None = None


@dataclass
class Place:
    """One place of a kind: the fault edit and its true twin at the same span."""

    kind: str
    fault: Edit
    twin: Edit


def _area(value: str) -> str:
    return "centre" if value in ("center", "centre") else value


def _entities(csp, dialogue: Dialogue, kb):  # type: ignore[no-untyped-def]
    """(turn, domain) -> KB entities the system names in that turn (by the checker's reading)."""
    out: dict[tuple[int, str], list[dict]] = {}
    for v in csp.variables:
        if v.speaker != "system" or v.slot not in ("name", "trainID") or v.span is None:
            continue
        table = kb.tables.get(v.domain)
        said = str(csp.assignment.get(v.name, "")).lower()
        hits = [e for e in table.normalized() if e.get(v.slot, "").lower() == said] if table else []
        if len(hits) == 1:
            out.setdefault((v.turn, v.domain), []).append(hits[0])
    return out


def _one_entity(named, v):  # type: ignore[no-untyped-def]
    got = named.get((v.turn, v.domain), [])
    return got[0] if len(got) == 1 else None


def _clock12(hhmm: str, shift: int = 0) -> str | None:
    m = re.fullmatch(r"(\d\d):(\d\d)", hhmm)
    if not m:
        return None
    minutes = (int(m[1]) * 60 + int(m[2]) + shift) % (24 * 60)
    h, mm = divmod(minutes, 60)
    if h == 0 or h == 12:
        return None  # "12:10 am" / noon: leave the ambiguous hours out
    return f"{(h - 1) % 12 + 1}:{mm:02d} {'pm' if h >= 12 else 'am'}"


def places(dialogue: Dialogue, kb, rng: random.Random) -> dict[str, list[Place]]:  # type: ignore[no-untyped-def]
    """Every place of every kind in ``dialogue`` (an accepted, annotated dialogue)."""
    csp = dialogue_csp(dialogue, kb, WITH_S1)
    said = csp.assignment
    named = _entities(csp, dialogue, kb)
    out: dict[str, list[Place]] = {k: [] for k in EXPECTED}
    for v in csp.variables:
        if v.span is None or any(w is not v and w.turn == v.turn and w.span is not None and w.span != v.span
                                 and w.span.start <= v.span.start < w.span.end for w in csp.variables):
            continue  # "North" of "City Centre North B&B": part of a name (or address), not an area
        text = dialogue.turns[v.turn].utterance
        surface = text[v.span.start : v.span.end]
        at = (v.turn, v.span.start, v.span.end)
        if v.speaker == "system":
            e = _one_entity(named, v)
            value = str(said.get(v.name, "")).lower()
            if v.slot == "area" and e and "area" in e and _area(e["area"]) == _area(value):
                own = _area(e["area"])
                others = [a for a in AREA_WORDS if a != own]
                wrong = rng.choice(others)
                twin = [w for w in AREA_WORDS[own] if w != surface.lower()]
                out["area_word"].append(Place("area_word", Edit(*at, rng.choice(AREA_WORDS[wrong]), wrong),
                                              Edit(*at, rng.choice(twin), own)))
            elif v.slot == "pricerange" and e and e.get("pricerange") == value and value in PRICE_WORDS:
                wrong = rng.choice([p for p in PRICE_WORDS if p != value])
                twin = [w for w in PRICE_WORDS[value] if w != surface.lower()]
                out["price_word"].append(Place("price_word", Edit(*at, rng.choice(PRICE_WORDS[wrong]), wrong),
                                               Edit(*at, rng.choice(twin), value)))
            elif v.slot == "stars" and e and e.get("stars") == value and surface.isdigit():
                wrong = rng.choice([s for s in "012345" if s != value])
                out["stars"].append(Place("stars", Edit(*at, NUMBER_WORDS[int(wrong)], wrong),
                                          Edit(*at, NUMBER_WORDS[int(value)], value)))
            elif v.slot == "food" and e and e.get("food") == value and value in CLOSE_FOOD:
                close = [f for f in CLOSE_FOOD[value] if f != value]
                if close:
                    wrong = rng.choice(close)
                    out["food_swap"].append(Place("food_swap", Edit(*at, wrong, wrong),
                                                  Edit(*at, surface.title(), value)))
            elif v.slot in ("leaveAt", "arriveBy") and v.domain == "train" and e and e.get(v.slot) == value:
                before = text[max(0, v.span.start - 12) : v.span.start].lower()
                if re.search(r"\b(?:after|before|by|until|no later than)\s*$", before):
                    continue  # a bound, not the train's own time
                wrong, twin = _clock12(value, 60), _clock12(value)
                if wrong and twin and re.fullmatch(r"\d\d?:\d\d", surface):
                    out["train_time"].append(Place("train_time", Edit(*at, wrong, None), Edit(*at, twin, value)))
            elif v.slot == "day" and v.domain == "train" and e and e.get("day") == value and surface.lower() in DAYS:
                wrong = rng.choice([d for d in DAYS if d != value])
                out["train_day"].append(Place("train_day", Edit(*at, wrong.title(), wrong),
                                              Edit(*at, surface.title() if surface.islower() else surface.lower(), value)))
            elif v.slot == "trainID" and re.fullmatch(r"(?i)tr\d{4}", surface):
                digits = list(surface[2:])
                i = rng.randrange(3)
                if digits[i] != digits[i + 1]:
                    digits[i], digits[i + 1] = digits[i + 1], digits[i]
                    wrong = surface[:2] + "".join(digits)
                    table = kb.tables["train"].normalized()
                    mine = next((t for t in table if t["trainID"] == surface.lower()), None)
                    theirs = next((t for t in table if t["trainID"] == wrong.lower()), None)
                    if mine and (theirs is None or any(theirs.get(c) != mine.get(c) for c in
                                                       ("departure", "destination", "day", "leaveAt"))):
                        out["train_id"].append(Place("train_id", Edit(*at, wrong, wrong.lower()),
                                                     Edit(*at, surface.lower() if surface.isupper() else surface.upper(),
                                                          surface.lower())))
            elif v.slot == "name" and v.domain in ("restaurant", "hotel", "attraction") and e:
                stated = {w.slot: str(said[w.name]).lower() for w in csp.variables if w.turn == v.turn
                          and w.domain == v.domain and w.slot in ("area", "pricerange") and w.span is not None}
                stated = {s: x for s, x in stated.items() if e.get(s) and _area(e[s]) == _area(x)}
                if stated:
                    others = [o for o in kb.tables[v.domain].normalized() if o["name"] != e["name"]
                              and all(o.get(s) and _area(o[s]) != _area(x) for s, x in stated.items())]
                    if others:
                        other = rng.choice(others)
                        twin = surface[4:] if surface.lower().startswith("the ") else "the " + surface
                        out["name_swap"].append(Place("name_swap", Edit(*at, other["name"].title(), other["name"]),
                                                      Edit(*at, twin, e["name"])))
            if v.domain == "hotel" and v.slot == "name" and e and e.get("type") == "hotel":
                for m in re.finditer(r"(?i)\bhotel\b", text):
                    if v.span.start <= m.start() < v.span.end or any(
                            w.turn == v.turn and w.span is not None and w.span.start <= m.start() < w.span.end
                            for w in csp.variables if w.slot == "name"):
                        continue  # "hotel" inside a name
                    spot = (v.turn, m.start(), m.end())
                    out["hotel_type"].append(Place("hotel_type", Edit(*spot, rng.choice(["guesthouse", "guest house",
                                                                                         "B&B"]), "guesthouse"),
                                                   Edit(*spot, "hotel", "hotel")))
                    break
            if v.domain == "hotel" and v.slot == "name" and e and e.get("type") == "guesthouse":
                for m in re.finditer(r"(?i)\bguest ?house\b", text):
                    if any(w.turn == v.turn and w.span is not None and w.span.start <= m.start() < w.span.end
                           for w in csp.variables if w.slot == "name"):
                        continue
                    spot = (v.turn, m.start(), m.end())
                    wrong_type = "hotel"  # fault of this spot is none: "hotel" names any place to stay
                    out["hotel_type"].append(Place("hotel_twin_only", Edit(*spot, wrong_type, "hotel"),
                                                   Edit(*spot, wrong_type, "hotel")))
                    break
        elif v.slot in ("area", "pricerange", "food", "day") and v.role.value == "inform":
            value = str(said.get(v.name, "")).lower()
            record = dialogue.turns[v.turn].state.get(v.domain, {}).get(v.slot)
            if record and record[0].lower() == value:
                pool = {"area": list(AREA_WORDS), "pricerange": list(PRICE_WORDS), "day": DAYS,
                        "food": sorted(CLOSE_FOOD)}[v.slot]
                wrong = rng.choice([p for p in pool if _area(p) != _area(value)])
                out["state_value"].append(Place("state_value", Edit(v.turn, 0, 0, "", f"{v.domain}|{v.slot}|{wrong}"),
                                                Edit(v.turn, 0, 0, "", f"{v.domain}|{v.slot}|{record[0].upper()}")))
    by_name = {v.name: v for v in csp.variables}
    for c in csp.constraints:
        if not isinstance(c, CountInstance):
            continue
        amount = by_name.get(c.count_variable)
        if amount is None or amount.span is None or amount.amount_op != "=" or amount.speaker != "system":
            continue
        surface = dialogue.turns[amount.turn].utterance[amount.span.start : amount.span.end]
        sure, possible = count_matches(csp.kbs[c.kb], c.columns, [said[n] for n in c.variables], c.ops)
        n = said.get(amount.name)
        if not isinstance(n, int) or not sure <= n <= possible or not surface.isdigit():
            continue
        at = (amount.turn, amount.span.start, amount.span.end)
        wrong = [w for w, k in (("a dozen", 12), ("just one", 1), ("only two", 2), ("over twenty", 21)) if not
                 (sure <= k <= possible or (w == "over twenty" and possible > 20))]
        twin = NUMBER_WORDS[n] if n < len(NUMBER_WORDS) else None
        if n >= 3:
            twin = rng.choice([x for x in (twin, "several") if x])
        if wrong and twin:
            out["count_word"].append(Place("count_word", Edit(*at, rng.choice(wrong)), Edit(*at, twin)))
        if sure >= 1 and twin:
            out["no_result"].append(Place("no_result", Edit(*at, "no"), Edit(*at, twin)))
    for t, turn in enumerate(dialogue.turns):  # people: a booking confirmed for another party size
        if turn.speaker != "system" or not any(a.role.value == "booked" for a in turn.acts):
            continue
        for a in turn.acts:
            if a.slot == "book people" and a.span is not None and (a.value or "").isdigit():
                asked = [u for u in csp.variables if u.speaker == "user" and u.slot == "book people" and u.turn < t
                         and str(said.get(u.name)) == a.value]
                if asked:
                    n = int(a.value or 0)
                    at = (t, a.span.start, a.span.end)
                    out["people"].append(Place("people", Edit(*at, str(n + 1)),
                                               Edit(*at, NUMBER_WORDS[n] if n < len(NUMBER_WORDS) else str(n))))
    return out


def apply(dialogue: Dialogue, edit: Edit, annotate: bool) -> Dialogue:
    """``dialogue`` with ``edit`` (annotated run): the text edited and, with ``annotate``, the act
    at that span given the new value; a ``state_value`` edit rewrites the belief state from its
    turn on instead (the text untouched)."""
    from multiwoz import edit_text  # the repo's span-aligning text edit

    if edit.start == edit.end == 0 and edit.new == "" and edit.canonical and "|" in edit.canonical:
        domain, slot, value = edit.canonical.split("|")
        out = dialogue.model_copy(deep=True)
        old = out.turns[edit.turn].state[domain][slot][0]
        for turn in out.turns[edit.turn :]:
            record = turn.state.get(domain, {}).get(slot)
            if record and record[0] == old:
                turn.state[domain][slot] = [value]
        return out
    from csp_check.models import Span

    out = edit_text(dialogue, edit.turn, Span(start=edit.start, end=edit.end), edit.new)
    if annotate:
        for a in out.turns[edit.turn].acts:
            if a.span is not None and a.span.start == edit.start and a.span.end == edit.start + len(edit.new):
                a.value = edit.new
                a.canonical = edit.canonical or edit.new
    return out


def raw_apply(raw: Dialogue, annotated: Dialogue, edit: Edit) -> Dialogue | None:
    """The raw-text twin of ``annotated`` with ``edit``: the same words replaced in the raw turn
    (found by their occurrence in the annotated turn), ``None`` if they cannot be found."""
    text = annotated.turns[edit.turn].utterance
    old = text[edit.start : edit.end]
    k = text[: edit.start].count(old) if old else 0
    out = raw.model_copy(deep=True)
    utterance = out.turns[edit.turn].utterance
    pos = -1
    for _ in range(k + 1):
        pos = utterance.find(old, pos + 1)
        if pos < 0:
            return None
    if not old or utterance.count(old) != text.count(old):
        return None
    out.turns[edit.turn].utterance = utterance[:pos] + edit.new + utterance[pos + len(old) :]
    return out


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--data", default=str(SHARED / "val.json.zip"))
    parser.add_argument("--kb", default=str(SHARED / "db"))
    parser.add_argument("--seed", type=int, default=11)
    parser.add_argument("--limit", type=int, default=400, help="annotated dialogues to attack (a seeded sample)")
    parser.add_argument("--raw-limit", type=int, default=150, help="raw-text dialogues to attack (a seeded sample)")
    parser.add_argument("--show", type=int, default=3, help="missed faults / flagged twins to print per kind")
    args = parser.parse_args()
    start = time.perf_counter()
    kb = load_kb(args.kb)
    dialogues = sorted((d for d in load_corpus([args.data], kb=kb) if isinstance(d, Dialogue)), key=lambda d: d.id)
    if args.limit is not None and args.limit < len(dialogues):  # a seeded sample, in id order
        dialogues = sorted(random.Random(args.seed).sample(dialogues, args.limit), key=lambda d: d.id)
    rng = random.Random(args.seed)
    chosen: list[tuple[Dialogue, Place]] = []
    for d in dialogues:
        report = check_dialogue(d, kb, WITH_S1)
        if report.status is not Status.CONSISTENT and any(v.constraint.value != "S1" for v in report.violations):
            continue
        s1_clean = report.status is Status.CONSISTENT
        for kind, found in places(d, kb, rng).items():
            found = [p for p in found if p.kind == kind or kind == "hotel_type"]
            if kind == "state_value" and not s1_clean:
                continue
            if found:
                chosen.append((d, rng.choice(found)))
    results: Counter = Counter()
    notes: dict[tuple[str, str], list[str]] = {}

    def record(run: str, kind: str, got: list[str], twin_got: list[str] | None, what: str) -> None:
        results[(run, kind, "n")] += 1
        results[(run, kind, "flagged")] += bool(got)
        results[(run, kind, "expected")] += bool(set(got) & EXPECTED[kind.replace("_twin_only", "")]) if got else 0
        if twin_got is not None:
            results[(run, kind, "twins")] += 1
            results[(run, kind, "twin_flagged")] += bool(twin_got)
        if not got and "twin_only" not in kind:
            notes.setdefault((run, kind + " missed"), []).append(what)
        if twin_got:
            notes.setdefault((run, kind + " twin flagged"), []).append(what + f" {sorted(set(twin_got))}")

    def ids(d: Dialogue, cs: list[str]) -> list[str]:
        return [v.constraint.value for v in check_dialogue(d, kb, cs).violations]

    for d, place in chosen:
        cs = WITH_S1 if place.kind == "state_value" else PAPER
        old = d.turns[place.fault.turn].utterance[place.fault.start : place.fault.end]
        what = f"{d.id} t{place.fault.turn} {old!r} -> {place.fault.new!r} / twin {place.twin.new!r}"
        if place.kind == "state_value":
            what = f"{d.id} t{place.fault.turn} state -> {place.fault.canonical} / twin {place.twin.canonical}"
        for run, annotate in (("annotated/text", False), ("annotated/text+ann", True)):
            if place.kind == "state_value" and not annotate:
                continue
            got = [] if place.kind == "hotel_twin_only" else ids(apply(d, place.fault, annotate), cs)
            twin = ids(apply(d, place.twin, annotate), cs)
            if place.kind == "hotel_twin_only":
                results[(run, "hotel_type", "twins")] += 1
                results[(run, "hotel_type", "twin_flagged")] += bool(twin)
                if twin:
                    notes.setdefault((run, "hotel_type twin flagged"), []).append(what + f" {sorted(set(twin))}")
                continue
            record(run, place.kind, got, twin, what)
    annotated_time = time.perf_counter() - start
    # raw text: the same places on the raw-text reading of the dialogues
    from rawtext import raw_dialogues, read_zip

    data = read_zip(Path(args.data))
    raw_ids = sorted({d.id for d, p in chosen if p.kind not in ("state_value", "hotel_twin_only")})
    raw_ids = sorted(random.Random(args.seed).sample(raw_ids, min(args.raw_limit, len(raw_ids))))
    raw = {r.id: r for r in raw_dialogues(data, raw_ids) if isinstance(r, Dialogue)}
    raw_ok = {i for i, r in raw.items() if check_dialogue(r, kb, PAPER).status is Status.CONSISTENT}
    for d, place in chosen:
        if d.id not in raw_ok or place.kind in ("state_value", "hotel_twin_only"):
            continue
        fault, twin = raw_apply(raw[d.id], d, place.fault), raw_apply(raw[d.id], d, place.twin)
        if fault is None or twin is None:
            continue
        old = d.turns[place.fault.turn].utterance[place.fault.start : place.fault.end]
        record("raw", place.kind, ids(fault, PAPER), ids(twin, PAPER),
               f"{d.id} t{place.fault.turn} {old!r} -> {place.fault.new!r} / twin {place.twin.new!r}")
    print(f"{len(dialogues)} annotated dialogues, {len(chosen)} places; raw text: {len(raw_ok)} of {len(raw_ids)} "
          f"accepted; annotated {annotated_time:.0f} s, all {time.perf_counter() - start:.0f} s (seed {args.seed})")
    print("\n| run | kind | must trip | faults | flagged | by expected | twins | twins flagged |")
    print("| --- | --- | --- | --- | --- | --- | --- | --- |")
    for run in ("annotated/text", "annotated/text+ann", "raw"):
        for kind in EXPECTED:
            n = results[(run, kind, "n")]
            if not n and not results[(run, kind, "twins")]:
                continue
            f, e = results[(run, kind, "flagged")], results[(run, kind, "expected")]
            tn, tf = results[(run, kind, "twins")], results[(run, kind, "twin_flagged")]
            print(f"| {run} | {kind} | {'/'.join(sorted(EXPECTED[kind]))} | {n} | {f / max(n, 1):.1%} | "
                  f"{e / max(n, 1):.1%} | {tn} | {tf / max(tn, 1):.1%} |")
    if args.show:
        print()
        for (run, what), items in sorted(notes.items()):
            print(f"{run} {what} ({len(items)}):")
            for item in random.Random(args.seed).sample(items, min(args.show, len(items))):
                print(f"    {item}")


if __name__ == "__main__":
    main()
