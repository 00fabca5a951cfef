"""Fault and true twin for the classes of the sixth blind reading of the raw text (stop 38: an
alternative the system offers openly, a negated "before", a fallback the user names, a user who
goes back to an earlier offer), in the form
of :mod:`csp_check.faults.raw_reading_pairs`: each chooser gives ``(fault edits, twin edits)``
(turn → new utterance) per place; the fault must be flagged certain, the twin must not be.

Reading rules (what each pair writes):

- ``open_alternative`` — a user turn whose request has no area before a system turn offering one
  restaurant, hotel or attraction X in area A that writes no area (naming no other domain): both
  make the user ask for another area B ("I want it in the B ."). The fault's system offers X as
  it did, ending "It is a great choice ." (C5: X is not in B); the twin's says openly that X is
  not what was asked (3 wordings: "There are no <plural> in the B . … It is in the A ."; "I could
  n't find any <plural> in the B , … It is in the A , though ."; "… It is in the A , not the B ,
  I 'm afraid .") — an alternative the system names as one, no claim that it fits. Skipped where
  the offer turn counts, a later turn says an area or another entity of the domain, the user's
  state names an entity or an earlier turn names one of the domain (the request is
  that entity, not a search), or the user's turn is of another domain or says a place; the two no-result
  wordings only with a B where the KB has no entity of the user's state filters (a no-result the
  KB contradicts is a real C4 error, no twin).
- ``negated_before`` — a user turn before a system turn offering a train T (one id of the DB,
  leaving at L, arriving later) whose request has no departure time and no arrival bound: the user
  adds a negated "before" (3 wordings: "I ca n't leave before t .", "I wo n't get out of work
  before t .", "I wo n't be able to depart before t ."), t an hour after L in the fault (C5: T
  leaves before the user can), an hour before L and every later departure said in the twin ("not
  before t" bounds the departure from below; it sets no arrival). Skipped where the user's turn
  says a time the reader did not take ("leave after 11").
- ``named_fallback`` — a user turn whose request has no price range before a system turn offering
  one restaurant or hotel X of price p: the fault asks for another price q ("I want a q place ."),
  the twin for q with p as the fallback (3 wordings: "q if possible , if not p .", "ideally q , but
  p would do .", "q , or p if there are none .").
- ``went_back`` — a system turn k offering one restaurant, hotel or attraction X in area A, the
  domain's first offer, whose system turn k + 4 names X again and whose user turn k + 3 names
  none: both make the user prefer another area B at k + 1 ("Actually ,
  I would prefer one in the B .") and the system offer Y at k + 2 ("Y is in the B ."; Y the first entity of the KB in B fitting what the user's turns asked). The fault leaves k + 3 as it
  is (k + 4 names X, not what was asked: C5); the twin's user goes back first (3 wordings: "Let
  's go back to the first one .", "On second thought , I 'll take the one you suggested first .",
  "Hmm , the first place sounds better after all .").
"""

from __future__ import annotations

import re

from csp_check.annotate.annotator import annotator_for
from csp_check.annotate.lexicon import ENTITY_COLUMNS
from csp_check.faults.raw_reading_pairs import AREAS, PLURALS, area_word, ended, offered_entity, says_area
from csp_check.models import ActRole, Dialogue, KnowledgeBase

Edits = dict[int, str]
Place = tuple[Edits, Edits]
#: The twin's wordings of an alternative offered openly: (before the offer, after it).
OPEN = (("There are no {plural} in the {b} . ", " It is in the {a} ."),
        ("I could n't find any {plural} in the {b} , ", " It is in the {a} , though ."),
        ("", " It is in the {a} , not the {b} , I 'm afraid ."))
NEGATED_BEFORE = ("I ca n't leave before {t} .", "I wo n't get out of work before {t} .",
                  "I wo n't be able to depart before {t} .")
FALLBACKS = ("I want a {q} place if possible , if not {p} .", "Ideally {q} , but {p} would do .",
             "I want a {q} place , or {p} if there are none .")
AREA_SAID = re.compile(r"(?i)\b(?:north|south|east|west|centre|center|central|side|part of town)\b")
TIME_SAID = re.compile(r"(?i)\b(?:after|before|until|by \d|\d{1,2}(?::\d\d)?\s*(?:am|pm)|\d{3,4}|o'clock|morning|afternoon|evening|noon|night)\b")
PRICES = ("cheap", "moderate", "expensive")
OTHER_DOMAIN = re.compile(r"\b(?:train|taxi|hotel|guest ?house|restaurant|museum|college|church|park|pool|theatre|cinema)s?\b", re.I)


def _offers(annotated: Dialogue, kb: KnowledgeBase, domains: tuple[str, ...]):  # type: ignore[no-untyped-def]
    """``(k, user turn, domain, row)`` of each system turn ``k`` offering one entity of ``domains``
    after a user turn."""
    annotator = annotator_for(kb, {})
    for k in range(1, len(annotated.turns)):
        domain, _, row = offered_entity(annotator, annotated.turns[k])
        user = annotated.turns[k - 1]
        if row is not None and domain in domains and user.speaker == "user":
            yield k, user, domain, row


def _lower_first(text: str) -> str:
    return text[:1].lower() + text[1:] if text[:2] != "I " else text


def _kb_has(kb: KnowledgeBase, domain: str, state: dict[str, str], area: str) -> bool:
    """Whether the KB has an entity of ``domain`` in ``area`` fitting the state's filters (a filter
    whose value no entity has, as the state writes it, is left out: it may be a surface variant)."""
    return bool(_fitting(kb, domain, state, area))


def open_alternative(annotated: Dialogue, kb: KnowledgeBase) -> list[Place]:
    out = []
    for k, user, domain, row in _offers(annotated, kb, ("restaurant", "hotel", "attraction")):
        turn, area, state = annotated.turns[k], area_word(row.get("area", "")), user.state.get(domain, {})
        if area not in AREAS or "area" in state or "name" in state or says_area(turn, domain):
            continue
        if any(a.slot in ENTITY_COLUMNS for t in annotated.turns[:k] for a in t.acts if a.domain == domain):
            continue  # an entity already named: the offer is no first answer to a search
        if any(a.domain != domain for a in user.acts) or AREA_SAID.search(user.utterance):
            continue  # a request of another kind, or one saying a place already: the added area could be of it
        later = [a for t in annotated.turns[k + 1 :] for a in t.acts if a.domain == domain]
        if any(a.role is ActRole.COUNT and a.domain == domain for a in turn.acts) or any(
                a.slot == "area" or a.slot in ENTITY_COLUMNS and a.canonical != row.get("name") for a in later):
            continue  # a count of the asked search, a later area or entity: the twin would make them false
        words = {m.group(0).lower().replace(" ", "") for m in OTHER_DOMAIN.finditer(turn.utterance)}
        if words - {domain, "guesthouse" if domain == "hotel" else domain}:
            continue  # a turn naming another kind: the added area's sentence could be of it
        empty = [a for a in AREAS if a != area and not _kb_has(kb, domain, state, a)]
        b = empty[0] if empty else next(a for a in AREAS[:4] if a != area)
        asked = {k - 1: f"{user.utterance} I want it in the {b} ."}
        system = turn.utterance.rstrip()
        ended = system if system[-1:] in ".!?" else f"{system} ."
        fault = {**asked, k: f"{ended} It is a great choice ."}
        for before, after in OPEN if empty else OPEN[2:]:
            fill = {"plural": PLURALS[domain], "a": area, "b": b}
            head = before.format(**fill)
            body = _lower_first(ended) if head.endswith(", ") else ended
            out.append((fault, {**asked, k: f"{head}{body}{after.format(**fill)}"}))
    return out


def _minutes(clock: str) -> int | None:
    m = re.fullmatch(r"(\d{1,2}):(\d{2})", clock.strip())
    return int(m.group(1)) * 60 + int(m.group(2)) if m else None


def _clock(minutes: int) -> str:
    return f"{minutes // 60:02d}:{minutes % 60:02d}"


def negated_before(annotated: Dialogue, kb: KnowledgeBase) -> list[Place]:
    out = []
    for k, user, _, row in _offers(annotated, kb, ("train",)):
        leave, arrive = _minutes(row.get("leaveAt", "")), _minutes(row.get("arriveBy", ""))
        if leave is None or arrive is None or not 120 <= leave <= 21 * 60 or arrive <= leave:
            continue
        if sum(e.get("trainID") == row.get("trainID") for e in kb.tables["train"].entities) != 1:
            continue
        asked = user.state.get("train", {})
        if "leaveAt" in asked or "arriveBy" in asked or any(a.slot in ("leaveAt", "arriveBy") for a in user.acts):
            continue
        if TIME_SAID.search(user.utterance):
            continue  # a time said in words the reader left: the added bound would be a second one
        leaves = [m for t in annotated.turns[k:] for a in t.acts if a.domain == "train" and a.slot == "leaveAt"
                  and (m := _minutes(str(a.canonical or ""))) is not None]  # fmt: skip
        for wording in NEGATED_BEFORE:  # the twin's bound is below every later departure said
            out.append(({k - 1: f"{user.utterance} {wording.format(t=_clock(leave + 60))}"},
                        {k - 1: f"{user.utterance} {wording.format(t=_clock(min([leave, *leaves]) - 60))}"}))
    return out


def named_fallback(annotated: Dialogue, kb: KnowledgeBase) -> list[Place]:
    out = []
    for k, user, domain, row in _offers(annotated, kb, ("restaurant", "hotel")):
        p = row.get("pricerange", "")
        if p not in PRICES or "pricerange" in user.state.get(domain, {}) or any(a.slot == "pricerange" for a in annotated.turns[k].acts):
            continue
        if any(a.role is ActRole.COUNT and a.domain == domain for a in annotated.turns[k].acts):
            continue
        q = next(x for x in PRICES if x != p)
        for wording in FALLBACKS:
            out.append(({k - 1: f"{user.utterance} I want a {q} place ."},
                        {k - 1: f"{user.utterance} {wording.format(q=q, p=p)}"}))
    return out


GOING_BACK = ("Let 's go back to the first one .", "On second thought , I 'll take the one you suggested first .",
              "Hmm , the first place sounds better after all .")


def went_back(annotated: Dialogue, kb: KnowledgeBase) -> list[Place]:
    out = []
    turns = annotated.turns
    for k, _, domain, row in _offers(annotated, kb, ("restaurant", "hotel", "attraction")):
        area, name = area_word(row.get("area", "")), row.get("name", "")
        if k + 4 >= len(turns) or area not in AREAS or turns[k + 1].speaker != "user":
            continue
        if any(a.slot in ENTITY_COLUMNS for t in turns[:k] for a in t.acts if a.domain == domain):
            continue  # the first offer of the domain only
        names = [{a.canonical for a in t.acts if a.domain == domain and a.slot in ENTITY_COLUMNS} for t in turns[k + 3 : k + 5]]
        if names[0] or names[1] != {name}:
            continue  # X named again four turns on, no name in the user's turn before
        if any(a.slot == "area" for t in turns[k + 1 : k + 5] for a in t.acts if a.domain == domain):
            continue
        state = {**turns[k + 1].state.get(domain, {}), **{a.slot: str(a.canonical) for t in turns[: k + 2] if t.speaker == "user"
                                                          for a in t.acts if a.domain == domain and a.slot and a.canonical}}  # fmt: skip
        other = next(((b, r) for b in AREAS if b != area for r in _fitting(kb, domain, state, b) if r.get("name") != name), None)
        if other is None:
            continue
        b, y = other
        asked = {k + 1: f"{ended(turns[k + 1].utterance)} Actually , I would prefer one in the {b} .",
                 k + 2: f"{y['name'][:1].upper()}{y['name'][1:]} is in the {b} ."}  # fmt: skip
        for wording in GOING_BACK:
            out.append((asked, {**asked, k + 3: f"{wording} {turns[k + 3].utterance}"}))
    return out


def _fitting(kb: KnowledgeBase, domain: str, state: dict[str, str], area: str) -> list[dict[str, str]]:
    """The KB's entities of ``domain`` in ``area`` fitting the state's filters (:func:`_kb_has`'s reading)."""
    rows = kb.tables[domain].entities
    filters = {s: v for s, v in state.items() if s != "area" and rows and s in rows[0] and any(r.get(s) == v for r in rows)}
    return sorted((r for r in rows if area_word(r.get("area", "")) == area and all(r.get(s) == v for s, v in filters.items())),
                  key=lambda r: r.get("name", ""))  # fmt: skip


#: The choosers by pair kind (their rules: the module doc).
CHOOSERS = {"open_alternative": open_alternative, "negated_before": negated_before, "named_fallback": named_fallback,
            "went_back": went_back}
