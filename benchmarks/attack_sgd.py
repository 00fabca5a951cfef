"""Adversarial fault run on SGD, with injectors of its own (not csp_check.faults).

Usage: python benchmarks/attack_sgd.py [PATH] [--sample N] [--all] [--seed S]
       [--kinds a,b] [--misses K]
(default path: ../shared/data/sgd/dev, a seeded sample of 250 accepted dialogues; --all: every one)

Each kind is an edit a relexicalizer LLM or an annotator makes: counts in other words ("a
dozen", "15+", "more than ten", number words), a list with a duplicate in other casing or a
short form, an entity swapped for a real entity of the same service from another dialogue's
results, a yes/no feature said in words ("pets are welcome", "non-smoking") the other way
round, times, dates and prices in words ("half past six", "Tuesday the 5th", "45 bucks"), a
rating, a party size in words ("a party of four"), and a system confirmation of a value the
user has changed since. Every kind also makes a *twin*: the same edit with the true value,
which keeps the dialogue true and must not be flagged. Two modes: ``text`` (utterance only;
acts, spans' slots and state untouched, spans re-aligned to the new text) and ``annotated``
(act values and, in user turns, the state and calls changed along with the text).

Prints per kind and mode: faults placed, % flagged, % flagged by an expected constraint, and
the twins' flag rate.
"""

from __future__ import annotations

import argparse
import copy
import json
import random
import re
import sys
import time
from collections import Counter, defaultdict
from collections.abc import Callable
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))  # this checkout's csp_check, not an installed one

from csp_check.errors import InputError
from csp_check.pipeline import check_dialogue, load_corpus
from csp_check.readers.sgd import from_raw

SHARED = Path(__file__).resolve().parents[2] / "shared" / "data" / "sgd"

ONES = "zero one two three four five six seven eight nine ten eleven twelve thirteen fourteen fifteen sixteen seventeen eighteen nineteen".split()
TENS = "_ _ twenty thirty forty fifty sixty seventy eighty ninety".split()


def words(n: int) -> str:
    """0..99 in English words ("forty-five")."""
    if n < 20:
        return ONES[n]
    return TENS[n // 10] + ("" if n % 10 == 0 else "-" + ONES[n % 10])


# --- editing the raw JSON ---------------------------------------------------------------------


def edit(turn: dict, start: int, end: int, new: str) -> None:
    """Replace ``utterance[start:end]`` by ``new``; every frame's spans re-aligned to the new text."""
    if new.lower().startswith("the ") and turn["utterance"][:start].lower().endswith("the "):
        new = new[4:]
    delta = len(new) - (end - start)
    turn["utterance"] = turn["utterance"][:start] + new + turn["utterance"][end:]
    for frame in turn.get("frames") or []:
        for s in frame.get("slots") or []:
            if s["start"] >= end and not (s["start"] == end == start):
                s["start"] += delta
                s["exclusive_end"] += delta
            elif s["start"] >= start and s["exclusive_end"] <= end:
                s["start"], s["exclusive_end"] = start, start + len(new)
            elif s["start"] <= start and s["exclusive_end"] >= end:
                s["exclusive_end"] += delta


def set_act_value(frame: dict, act_names: set[str] | None, slot: str, old: str, new: str) -> None:
    for a in frame.get("actions") or []:
        if a.get("slot") != slot or (act_names and a["act"] not in act_names):
            continue
        vals, canon = a.get("values") or [], a.get("canonical_values") or []
        for lst in (vals, canon):
            for i, v in enumerate(lst):
                if v.lower() == old.lower():
                    lst[i] = new


def set_user_value(raw: dict, ti: int, service: str, slot: str, old: str, new: str) -> None:
    """Annotated user edit: acts of the turn, and the state and calls from this turn on while they keep ``old``."""
    for t in raw["turns"][ti:]:
        for frame in t.get("frames") or []:
            if frame.get("service") != service:
                continue
            if t is raw["turns"][ti]:
                set_act_value(frame, None, slot, old, new)
            sv = (frame.get("state") or {}).get("slot_values") or {}
            if slot in sv and any(v.lower() == old.lower() for v in sv[slot]):
                sv[slot] = [new]
            call = frame.get("service_call")
            if call and str(call.get("parameters", {}).get(slot, "")).lower() == old.lower():
                call["parameters"][slot] = new


def spans_of(turn: dict, frame: dict, slot: str) -> list[dict]:
    return [s for s in frame.get("slots") or [] if s["slot"] == slot]


def text_of(turn: dict, s: dict) -> str:
    return turn["utterance"][s["start"] : s["exclusive_end"]]


# A place: (turn index, a function(raw copy, mode, true: bool) -> bool (made), expected ids)
Place = tuple[int, Callable[[dict, str, bool], bool], frozenset[str]]

# --- kinds ------------------------------------------------------------------------------------

COUNT_STYLES = ("dozen", "two_dozen", "plus", "more_than", "number_words", "couple", "commas")


def system_actions(raw: dict):
    """(turn index, turn, frame index, frame, action) for every action of every system turn of an
    SGD dialogue, in order."""
    for ti, t in enumerate(raw["turns"]):
        if t["speaker"] == "SYSTEM":
            for fi, frame in enumerate(t["frames"]):
                for a in frame["actions"]:
                    yield ti, t, fi, frame, a


def count_places(raw: dict, ctx: dict) -> list[Place]:
    out = []
    for ti, t, _fi, frame, a in system_actions(raw):
        if a["act"] != "INFORM_COUNT" or not a.get("values"):
            continue
        n = int(a["values"][0])
        m = re.search(rf"(?<![\d,.:$])\b{n}\b(?![\d:]|[.,]\d)(?! (?:bed|bath|room|people|person|ticket|seat|layover|stop|star)s?\b)",
                      t["utterance"])
        if not m:
            continue
        for style in ctx["count_styles"]:
            out.append((ti, _count_edit(frame["service"], n, m.start(), m.end(), style), frozenset({"C6"})))
    return out


def _count_edit(service: str, n: int, start: int, end: int, style: str):
    def make(raw: dict, mode: str, true: bool) -> bool:
        turn = raw["turns"][make.ti]
        if style == "dozen":  # exactly 12: fault where 12 is outside any reading of n
            if true and n != 12 or not true and 9 <= n <= 15:
                return False
            text, m = "a dozen", 12
        elif style == "two_dozen":
            if true and n != 24 or not true and 18 <= n <= 30:
                return False
            text, m = "two dozen", 24
        elif style == "plus":  # "N+" = at least N
            m = n if true else n + 3
            text = f"{m}+"
        elif style == "more_than":
            if true and n < 2:
                return False
            m = n - 1 if true else n + 2
            text = f"more than {words(m) if m < 20 else m}"
        elif style == "number_words":
            m = n if true else n + 3
            if m > 99:
                return False
            text = words(m)
        elif style == "couple":  # "a couple of" = two, loosely: a fault only far from 2
            if true and n != 2 or not true and n < 6:
                return False
            text, m = "a couple of", 2
        elif style == "commas":  # a count with a thousands separator
            if true:
                return False
            m = n + 1000
            text = f"{m:,}"
        else:
            raise ValueError(style)
        u = turn["utterance"]
        after = u[end:]
        if style == "couple" and after.startswith(" of "):
            text = "a couple"
        edit(turn, start, end, text)
        if mode == "annotated" and not true:
            for frame in turn["frames"]:
                if frame["service"] == service:
                    for a in frame["actions"]:
                        if a["act"] == "INFORM_COUNT":
                            a["values"] = [str(m)]
                            a["canonical_values"] = [str(m)]
        return True

    make.ti = None  # set by caller
    return make


def _bind(places: list[Place]) -> list[Place]:
    for ti, f, _ in places:
        if hasattr(f, "ti") and f.ti is None:
            f.ti = ti
    return places


NAME_SLOTS = re.compile(r"(^|_)(name|title)$")


def list_places(raw: dict, ctx: dict) -> list[Place]:
    """A system act listing several entities of one slot, each spanned."""
    out = []
    for ti, t, fi, frame, a in system_actions(raw):
        if len(a.get("values") or []) < 2:
            continue
        sp = sorted(spans_of(t, frame, a["slot"]), key=lambda s: s["start"])
        if len(sp) < 2 or len({text_of(t, s).lower() for s in sp}) != len(sp):
            continue
        out.append((ti, _list_edit(fi, a["slot"], ctx["rng"].random()), frozenset({"C3"})))
    return out


def _short(name: str) -> str | None:
    for pre in ("The ", "Hotel ", "Restaurant ", "Cafe "):
        if name.startswith(pre) and len(name) > len(pre) + 3:
            return name[len(pre):]
    for suf in (" Hotel", " Restaurant", " Inn", " Cafe", " Theater", " Theatre", " Cinema", " Bar", " Grill", " Museum"):
        if name.endswith(suf) and len(name) > len(suf) + 3:
            return name[: -len(suf)]
    return None


def _list_edit(fi: int, slot: str, r: float):
    def make(raw: dict, mode: str, true: bool) -> bool:
        turn = raw["turns"][make.ti]
        frame = turn["frames"][fi]
        sp = sorted(spans_of(turn, frame, slot), key=lambda s: s["start"])
        first, last = text_of(turn, sp[0]), text_of(turn, sp[-1])
        if true:  # the same list with an Oxford comma / "and" in place of the separators
            between = turn["utterance"][sp[-2]["exclusive_end"] : sp[-1]["start"]]
            m = re.fullmatch(r"(,?\s*)(and|or)(\s+)", between)
            if m:
                new_sep = (", " if not m.group(1).strip() else " ") + m.group(2) + " "
                if len(sp) == 2:
                    new_sep = " and also " if m.group(2) == "and" else " or perhaps "
            elif between == ", ":
                new_sep = " and "
            else:
                return False
            edit(turn, sp[-2]["exclusive_end"], sp[-1]["start"], new_sep)
            return True
        short = _short(first)
        dup = short if short and r < 0.5 else (first.lower() if r < 0.75 else first.upper())
        if dup == first:
            return False
        s = sp[-1]
        edit(turn, s["start"], s["exclusive_end"], dup)
        if mode == "annotated":
            set_act_value(frame, None, slot, last, dup)
        return True

    make.ti = None
    return make


def kb_places(raw: dict, ctx: dict) -> list[Place]:
    """A system offer / inform / confirm of an entity name: swap for a real entity of the same
    service seen in another dialogue's results, not in this dialogue's."""
    own = defaultdict(set)
    for t in raw["turns"]:
        for frame in t["frames"]:
            for e in frame.get("service_results") or []:
                for k, v in e.items():
                    own[(frame["service"], k)].add(v.lower())
    out = []
    for ti, t, fi, frame, a in system_actions(raw):
        if a["act"] not in ("OFFER", "CONFIRM", "INFORM") or not NAME_SLOTS.search(a["slot"] or ""):
            continue
        if len(a.get("values") or []) != 1:
            continue
        sp = spans_of(t, frame, a["slot"])
        if len(sp) != 1:
            continue
        pool = sorted(v for v in ctx["pool"].get((frame["service"], a["slot"]), ()) if v.lower() not in own[(frame["service"], a["slot"])])
        if not pool:
            continue
        new = ctx["rng"].choice(pool)
        out.append((ti, _kb_edit(fi, a["slot"], new), frozenset({"C1", "C2", "C5"})))
    return out


def _kb_edit(fi: int, slot: str, new: str):
    def make(raw: dict, mode: str, true: bool) -> bool:
        turn = raw["turns"][make.ti]
        frame = turn["frames"][fi]
        s = spans_of(turn, frame, slot)[0]
        old = text_of(turn, s)
        if true:  # the same entity in other casing, or with "the" before it
            rep = old.lower() if old != old.lower() else old.title()
            if rep == old:
                return False
        else:
            rep = new
        edit(turn, s["start"], s["exclusive_end"], rep)
        if mode == "annotated" and not true:
            set_act_value(frame, None, slot, old, new)
        return True

    make.ti = None
    return make


BOOL_WORDS: dict[str, tuple[tuple[str, ...], tuple[str, ...]]] = {
    "pets_allowed": (("Pets are welcome there.", "It's pet-friendly."), ("No pets are permitted there.", "Pets aren't welcome there.")),
    "furnished": (("It comes fully furnished.", "The place is furnished."), ("It's unfurnished.", "It comes without any furniture.")),
    "has_wifi": (("Wifi is included.", "There's wireless internet."), ("There's no wifi.", "They don't offer internet access.")),
    "smoking_allowed": (("Smoking is permitted.", "You may smoke there."), ("It's a non-smoking hotel.", "Smoking is prohibited.")),
    "has_seating_outdoors": (("You can sit outside.", "There is patio seating."), ("There's no outdoor seating.", "Seating is indoors only.")),
    "has_vegetarian_options": (("Vegetarians are catered for.", "They have veggie dishes."), ("They have no vegetarian dishes.", "They don't cater to vegetarians.")),
    "free_entry": (("Admission is free.", "There's no entrance fee."), ("There is an admission fee.", "It isn't free to get in.")),
    "good_for_kids": (("It's kid-friendly.", "It's great for children."), ("It's not suitable for kids.", "It's adults only.")),
    "serves_alcohol": (("They serve alcohol.", "You can get drinks with alcohol there."), ("They serve no alcohol.", "It's an alcohol-free place.")),
    "has_live_music": (("They have live music.", "There's a live band."), ("There's no live music.", "They don't have live music.")),
    "refundable": (("It's refundable.", "You can get a refund."), ("It's non-refundable.", "It is not refundable.")),
    "is_unisex": (("It's unisex.", "They serve men and women."), ("It isn't unisex.", "It's not a unisex salon.")),
}


BOOL_CUES = {
    "pets_allowed": "pet|dog|cat", "furnished": "furnish|furniture", "has_wifi": "wi-?fi|internet",
    "smoking_allowed": "smok", "has_seating_outdoors": "outdoor|outside|patio", "has_vegetarian_options": "vegetarian|veg",
    "free_entry": "free|fee|entry|admission", "good_for_kids": "kid|child", "serves_alcohol": "alcohol|liquor|drink",
    "has_live_music": "music", "refundable": "refund", "is_unisex": "unisex|men|women",
}


def bool_places(raw: dict, ctx: dict) -> list[Place]:
    """A system INFORM of a yes/no feature whose sentence carries no span: that sentence rewritten."""
    out = []
    for ti, t, fi, _frame, a in system_actions(raw):
        if a["act"] != "INFORM" or a["slot"] not in BOOL_WORDS or a.get("values", [""])[0] not in ("True", "False"):
            continue
        others = [b for f in t["frames"] for b in f["actions"] if b is not a and b["slot"] in BOOL_WORDS]
        if others:
            continue
        sents = [(m.start(), m.end()) for m in re.finditer(r"(?:[^.!?]|[.!?](?=\S))+[.!?]*", t["utterance"])]
        spans = [s for f in t["frames"] for s in f.get("slots") or []]
        free = [(s, e) for s, e in sents if not any(s <= sp["start"] < e for sp in spans) and t["utterance"][s:e].strip()]
        valued = [b for f in t["frames"] for b in f["actions"] if b is not a and b.get("values")]
        unspanned = [b for b in valued if not spans_of(t, t["frames"][0], b["slot"]) and not any(spans_of(t, f, b["slot"]) for f in t["frames"])]
        if len(free) != 1 or unspanned:
            continue
        cue = BOOL_CUES[a["slot"]]
        if spans and not re.search(cue, t["utterance"][free[0][0] : free[0][1]], flags=re.I):
            continue
        k = ctx["rng"].randrange(2)
        out.append((ti, _bool_edit(fi, a["slot"], a["values"][0] == "True", free[0], k), frozenset({"C2", "C5", "C1"})))
    return out


def _bool_edit(fi: int, slot: str, value: bool, where: tuple[int, int], k: int):
    def make(raw: dict, mode: str, true: bool) -> bool:
        turn = raw["turns"][make.ti]
        said = value if true else not value
        sentence = BOOL_WORDS[slot][0 if said else 1][k]
        s, e = where
        lead = " " if s > 0 and turn["utterance"][s] == " " else ""
        edit(turn, s, e, lead + sentence + (" " if e < len(turn["utterance"]) else ""))
        if mode == "annotated" and not true:
            for a in turn["frames"][fi]["actions"]:
                if a["slot"] == slot:
                    a["values"] = a["canonical_values"] = [str(said)]
        return True

    make.ti = None
    return make


TIME_SLOT = re.compile(r"time$")
DATE_SLOT = re.compile(r"date$|^date|_day$|check_in|check_out")
PRICE_SLOT = re.compile(r"price|fare|cost|rent|balance|amount")
COUNT_SLOT = re.compile(r"^number_of_|passengers|party_size|^travelers$|number_of_seats|number_of_riders|number_of_rooms|number_of_tickets")
HOUR_WORDS = {h: words(h) for h in range(1, 13)}


def time_words(hhmm: str) -> str | None:
    h, m = map(int, hhmm.split(":"))
    if (h, m) == (12, 0):
        return "noon"
    part = "in the morning" if h < 12 else ("in the afternoon" if h < 17 else ("in the evening" if h < 21 else "at night"))
    h12 = h % 12 or 12
    if m == 0:
        return f"{HOUR_WORDS[h12]} o'clock {part}"
    if m == 30:
        return f"half past {HOUR_WORDS[h12]} {part}"
    if m == 15:
        return f"a quarter past {HOUR_WORDS[h12]} {part}"
    if m == 45:  # the half of the day of the time itself: 11:45 is "a quarter to twelve in the morning"
        nxt = (h + 1) % 24
        return f"a quarter to {HOUR_WORDS[nxt % 12 or 12]} {part}"
    return None


ORD = {1: "1st", 2: "2nd", 3: "3rd", 21: "21st", 22: "22nd", 23: "23rd", 31: "31st"}
DAYS = "Monday Tuesday Wednesday Thursday Friday Saturday Sunday".split()


def date_words(iso: str, style: int) -> str | None:
    import datetime as dt

    try:
        d = dt.date.fromisoformat(iso)
    except ValueError:
        return None
    o = ORD.get(d.day, f"{d.day}th")
    return [f"{DAYS[d.weekday()]} the {o}", f"{d.month}/{d.day}", f"the {o} of {d.strftime('%B')}"][style]


def value_places(raw: dict, ctx: dict, which: str) -> list[Place]:
    """Spanned values of a time / date / price / party-size / rating slot in system offers,
    informs, confirmations, and user informs (whose state is then the truth)."""
    pat = {"time": TIME_SLOT, "date": DATE_SLOT, "price": PRICE_SLOT, "party": COUNT_SLOT, "rating": re.compile(r"rating")}[which]
    out = []
    for ti, t in enumerate(raw["turns"]):
        for fi, frame in enumerate(t["frames"]):
            for a in frame["actions"]:
                if a["act"] not in ("OFFER", "CONFIRM", "INFORM") or not pat.search(a["slot"] or "") or len(a.get("values") or []) != 1:
                    continue
                sp = spans_of(t, frame, a["slot"])
                canon = (a.get("canonical_values") or a["values"])[0]
                if which != "party" and len(sp) != 1:
                    continue
                if any(b["act"] == "NOTIFY_FAILURE" for f in t["frames"] for b in f["actions"]):
                    continue  # an alternative after a failure: nothing says which values are free
                if t["speaker"] == "SYSTEM" and a["act"] == "CONFIRM" and _overridden(raw, ti, frame["service"], a["slot"]):
                    continue  # the user answers with another value: the confirmed one is dropped unchecked
                expected = {"C2", "C5", "C1", "S1"} if t["speaker"] == "SYSTEM" else {"S1", "C2"}
                style = ctx["rng"].randrange(3)
                out.append((ti, _value_edit(which, fi, a["slot"], canon, style), frozenset(expected)))
    return out


def _overridden(raw: dict, ti: int, service: str, slot: str) -> bool:
    """Whether the user's next turn gives ``slot`` a value of its own (rejects a confirmation)."""
    nxt = raw["turns"][ti + 1] if ti + 1 < len(raw["turns"]) else None
    return nxt is not None and any(
        b["act"] == "INFORM" and b["slot"] == slot for f in nxt["frames"] if f["service"] == service for b in f["actions"])


def _value_edit(which: str, fi: int, slot: str, canon: str, style: int):
    def make(raw: dict, mode: str, true: bool) -> bool:
        turn = raw["turns"][make.ti]
        if mode == "annotated" and turn["speaker"] == "USER":
            return False
        frame = turn["frames"][fi]
        sp = spans_of(turn, frame, slot)
        if which == "time":
            if not re.fullmatch(r"\d\d:\d\d", canon):
                return False
            h, m = map(int, canon.split(":"))
            new = canon if true else f"{(h + 2) % 24:02d}:{m:02d}"
            text = time_words(new)
        elif which == "date":
            import datetime as dt

            try:
                d = dt.date.fromisoformat(canon)
            except ValueError:
                return False
            new_d = d if true else d + dt.timedelta(days=1)
            new = new_d.isoformat()
            text = date_words(new, style)
        elif which == "price":
            try:
                v = float(canon)
            except ValueError:
                return False
            if v != int(v) or v < 1:
                return False
            n = int(v) if true else int(v) + 10
            new = str(n)
            text = [f"{n} bucks", f"{words(n)} dollars" if n < 100 else f"{n} dollars", f"USD {n}"][style]
        elif which == "rating":
            try:
                v = float(canon)
            except ValueError:
                return False
            n = v if true else round(v - 0.3, 1) if v >= 1.3 else round(v + 0.3, 1)
            new = str(n)
            text = [f"{n} stars", f"{n} out of 10" if v > 5 else f"{n} out of 5", f"{n}-star"][style]
        else:  # party
            if not canon.isdigit():
                return False
            n = int(canon) if true else int(canon) + 1
            new = str(n)
            m = None
            if sp:
                s0 = sp[0]
            else:  # unspanned number: its digit or word
                m = re.search(rf"(?<=\bfor )({canon}|{words(int(canon))})\b|\b({canon}|{words(int(canon))})(?= (?:people|persons?|tickets?|rooms?|seats?|passengers?|adults?)\b)", turn["utterance"], flags=re.I)
                if not m:
                    return False
                s0 = None
            text = words(n)
            if s0 is not None:
                start, end = s0["start"], s0["exclusive_end"]
            else:
                start, end = m.start(), m.end()
            old = turn["utterance"][start:end]
            edit(turn, start, end, text)
            if mode == "annotated" and not true:
                _annotate(raw, make.ti, frame, slot, old, canon, new)
            return True
        if text is None or not sp:
            return False
        s = sp[0]
        old = text_of(turn, s)
        edit(turn, s["start"], s["exclusive_end"], text)
        if mode == "annotated" and not true:
            _annotate(raw, make.ti, frame, slot, old, canon, new)
        return True

    make.ti = None
    return make


def _annotate(raw: dict, ti: int, frame: dict, slot: str, old: str, canon: str, new: str) -> None:
    turn = raw["turns"][ti]
    if turn["speaker"] == "USER":
        set_user_value(raw, ti, frame["service"], slot, old, new)
        set_user_value(raw, ti, frame["service"], slot, canon, new)
    else:
        set_act_value(frame, None, slot, old, new)
        set_act_value(frame, None, slot, canon, new)


def stale_confirm_places(raw: dict, ctx: dict) -> list[Place]:
    """A system CONFIRM of a spanned value where the user earlier said another value of the slot
    (the state recorded it, then changed): the confirmation written with the older value, in the
    user's own words."""
    out = []
    said: dict[tuple[str, str], list[tuple[str, str]]] = defaultdict(list)  # (state value, user's words)
    for ti, t in enumerate(raw["turns"]):
        for fi, frame in enumerate(t["frames"]):
            if t["speaker"] == "USER":
                sv = (frame.get("state") or {}).get("slot_values") or {}
                for s in frame.get("slots") or []:
                    if s["slot"] in sv:
                        said[(frame["service"], s["slot"])].append((sv[s["slot"]][0], text_of(t, s)))
                continue
            for a in frame["actions"]:
                if a["act"] != "CONFIRM" or len(a.get("values") or []) != 1:
                    continue
                sp = spans_of(t, frame, a["slot"])
                if len(sp) != 1:
                    continue
                history = said[(frame["service"], a["slot"])]
                canon = (a.get("canonical_values") or a["values"])[0]
                if not history or history[-1][0].lower() != canon.lower():
                    continue
                olds = [(v, w) for v, w in history if v.lower() != canon.lower()]
                if not olds:
                    continue
                out.append((ti, _stale_edit(fi, a["slot"], olds[-1][1], history[-1][1], olds[-1][0]), frozenset({"C2"})))
    return out


def _stale_edit(fi: int, slot: str, older: str, latest: str, older_value: str):
    def make(raw: dict, mode: str, true: bool) -> bool:
        turn = raw["turns"][make.ti]
        frame = turn["frames"][fi]
        s = spans_of(turn, frame, slot)[0]
        old = text_of(turn, s)
        rep = latest if true else older  # twin: the current value in the user's own words
        if rep.lower() == old.lower() and true:
            return False
        edit(turn, s["start"], s["exclusive_end"], rep)
        if mode == "annotated" and not true:
            for a in frame["actions"]:
                if a["act"] == "CONFIRM" and a["slot"] == slot:
                    a["values"], a["canonical_values"] = [older], [older_value]
        return True

    make.ti = None
    return make


DETAIL_SLOT = re.compile(r"address|phone|rating|price|street|number$")
PRONOUN = re.compile(r"\b(?:It|They|The place|This place|That place)(?= (?:is|are|has|have|'s|can)\b)|\b(?:Its|Their)\b(?= )")


def coreference_places(raw: dict, ctx: dict) -> list[Place]:
    """A system INFORM of a detail (address, phone, rating…) said with a pronoun ("It is at …",
    "Their number is …") after two entities were offered: the pronoun replaced by the name of
    the entity offered before the one under discussion (fault) or by that one's own name (twin)."""
    out = []
    offered: list[tuple[str, str, str]] = []  # (service, slot, name) in order
    for ti, t in enumerate(raw["turns"]):
        if t["speaker"] != "SYSTEM":
            continue
        names = []
        for frame in t["frames"]:
            for a in frame["actions"]:
                if a["act"] == "OFFER" and NAME_SLOTS.search(a["slot"] or "") and len(a.get("values") or []) == 1:
                    names.append((frame["service"], a["slot"], a["values"][0]))
        for _fi, frame in enumerate(t["frames"]):
            details = [a for a in frame["actions"] if a["act"] == "INFORM" and DETAIL_SLOT.search(a["slot"] or "")
                       and spans_of(t, frame, a["slot"])]
            if not details or names or any(NAME_SLOTS.search(s["slot"]) for s in frame.get("slots") or []):
                continue
            mine = [o for o in offered if o[0] == frame["service"]]
            distinct = list(dict.fromkeys(o[2] for o in mine))
            m = PRONOUN.search(t["utterance"])
            if len(distinct) < 2 or m is None:
                continue
            current, other = distinct[-1], distinct[-2]
            out.append((ti, _coref_edit(m.start(), m.end(), current, other), frozenset({"C5"})))
        offered += names
    return out


def _coref_edit(start: int, end: int, current: str, other: str):
    def make(raw: dict, mode: str, true: bool) -> bool:
        if mode == "annotated":
            return False  # a name in place of a pronoun has no act of its own: text only
        turn = raw["turns"][make.ti]
        word = turn["utterance"][start:end]
        name = current if true else other
        edit(turn, start, end, name + ("'s" if word in ("Its", "Their") else ""))
        return True

    make.ti = None
    return make


KINDS: dict[str, Callable[[dict, dict], list[Place]]] = {
    **{f"count_{s}": (lambda s: lambda raw, ctx: _bind(count_places(raw, {**ctx, "count_styles": (s,)})))(s) for s in COUNT_STYLES},  # noqa: B023 (s is bound by the outer lambda)
    "list_duplicate": lambda raw, ctx: _bind(list_places(raw, ctx)),
    "kb_swap_other_dialogue": lambda raw, ctx: _bind(kb_places(raw, ctx)),
    "boolean_words": lambda raw, ctx: _bind(bool_places(raw, ctx)),
    "time_words": lambda raw, ctx: _bind(value_places(raw, ctx, "time")),
    "date_words": lambda raw, ctx: _bind(value_places(raw, ctx, "date")),
    "price_words": lambda raw, ctx: _bind(value_places(raw, ctx, "price")),
    "rating": lambda raw, ctx: _bind(value_places(raw, ctx, "rating")),
    "party_words": lambda raw, ctx: _bind(value_places(raw, ctx, "party")),
    "stale_confirm": lambda raw, ctx: _bind(stale_confirm_places(raw, ctx)),
    "coreference_name": lambda raw, ctx: _bind(coreference_places(raw, ctx)),
}
MODES = ("text", "annotated")


def kb_pool(raws: list[dict]) -> dict[tuple[str, str], set[str]]:
    pool: dict[tuple[str, str], set[str]] = defaultdict(set)
    for raw in raws:
        for t in raw["turns"]:
            for frame in t["frames"]:
                for e in frame.get("service_results") or []:
                    for k, v in e.items():
                        if NAME_SLOTS.search(k):
                            pool[(frame["service"], k)].add(v)
    return pool


def found(raw: dict, gold) -> set[str]:
    d = from_raw(raw, gold.ontology, gold.source, gold.slot_descriptions)
    return {v.constraint.value for v in check_dialogue(d).violations}


def run(path: str, sample: int | None, seed: int, kinds: list[str], show: int) -> Counter:
    rng = random.Random(seed)
    files = sorted(Path(path).glob("dialogues_*.json"))
    raws = {d["dialogue_id"]: d for f in files for d in json.loads(f.read_text(encoding="utf-8"))}
    pool = kb_pool(list(raws.values()))
    golds = [d for d in load_corpus([path]) if not isinstance(d, InputError)]
    if sample is not None:
        golds = random.Random(seed).sample(golds, min(sample, len(golds)))
    counts: Counter = Counter()
    misses: dict[tuple[str, str], list[str]] = defaultdict(list)
    for gold in golds:
        if check_dialogue(gold).violations:
            continue
        counts["dialogues"] += 1
        raw = raws[gold.id]
        ctx = {"rng": rng, "pool": pool}
        for kind in kinds:
            places = KINDS[kind](raw, ctx)
            if not places:
                continue
            ti, make, expected = rng.choice(places)
            for mode in MODES:
                for true in (False, True):
                    r = copy.deepcopy(raw)
                    before = r["turns"][ti]["utterance"]
                    if not make(r, mode, true):
                        continue
                    got = found(r, gold)
                    key = (kind, mode, "twin" if true else "fault")
                    counts[key + ("n",)] += 1
                    counts[key + ("flagged",)] += bool(got)
                    counts[key + ("right",)] += bool(got & expected)
                    bad = (not got) if not true else bool(got)
                    if bad and len(misses[key]) < show:
                        misses[key].append(f"{gold.id} t{ti} {sorted(got)}\n      - {before}\n      + {r['turns'][ti]['utterance']}")
    for key, ms in sorted(misses.items()):
        print(f"## {'/'.join(key)} ({'missed' if key[2] == 'fault' else 'twin flagged'})")
        for m in ms:
            print("   ", m)
    return counts


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("path", nargs="?", default=str(SHARED / "dev"))
    ap.add_argument("--sample", type=int, default=250)
    ap.add_argument("--all", action="store_true", help="every dialogue, not a sample")
    ap.add_argument("--seed", type=int, default=0)
    ap.add_argument("--kinds", default=",".join(KINDS))
    ap.add_argument("--misses", type=int, default=0, help="print up to K misses / flagged twins per kind and mode")
    args = ap.parse_args()
    kinds = [k for k in args.kinds.split(",") if k]
    t0 = time.time()
    c = run(args.path, None if args.all else args.sample, args.seed, kinds, args.misses)
    print(f"{c['dialogues']} accepted dialogues, {time.time() - t0:.0f} s")
    print(f"{'kind':24} {'mode':9} {'faults':>6} {'flagged':>8} {'expected':>8} | {'twins':>5} {'flagged':>7}")
    tot = Counter()
    for kind in kinds:
        for mode in MODES:
            n = c[(kind, mode, "fault", "n")]
            tn = c[(kind, mode, "twin", "n")]
            if not n and not tn:
                continue
            for k in ("n", "flagged", "right"):
                tot[("fault", k)] += c[(kind, mode, "fault", k)]
                tot[("twin", k)] += c[(kind, mode, "twin", k)]
            print(
                f"{kind:24} {mode:9} {n:6} {_pct(c[(kind, mode, 'fault', 'flagged')], n):>8} "
                f"{_pct(c[(kind, mode, 'fault', 'right')], n):>8} | {tn:5} {_pct(c[(kind, mode, 'twin', 'flagged')], tn):>7}"
            )
    print(
        f"{'all':24} {'':9} {tot[('fault', 'n')]:6} {_pct(tot[('fault', 'flagged')], tot[('fault', 'n')]):>8} "
        f"{_pct(tot[('fault', 'right')], tot[('fault', 'n')]):>8} | {tot[('twin', 'n')]:5} "
        f"{_pct(tot[('twin', 'flagged')], tot[('twin', 'n')]):>7}"
    )


def _pct(a: int, b: int) -> str:
    return f"{100 * a / b:.1f}%" if b else "-"


if __name__ == "__main__":
    sys.exit(main())
