"""Instruction parser (spec §3, docs/nlsi.md): a standing instruction → a :class:`Rule`.

A rule has a *condition* (a domain, or slot = value pairs of a domain: MultiHop) and an
*action* (slot = value, or "also call domain D"). Grounding uses the schema's ontology, not
templates: spaCy ``PhraseMatcher`` (blank English pipeline, ``LOWER`` attribute) over

- domain names and cue phrases (:data:`~csp_check.nlsi.cues.DOMAIN_CUES`: "something to do" → Events),
- slot names and slot cues ("kid-friendly" → ``good_for_kids``),
- every canonical value and alias of every slot in the ontology.

Values are assigned to (domain, slot) by scoring (mentioned domain, mentioned slot, a domain
holding both slots of a chain); the condition is the part governed by a condition word (if,
when, whenever, …). An instruction with no grounded value and no two domains with "also" is
returned as :class:`Unparsed` with the reason: never guessed silently.

Several actions in one rule (the release's "… then look for number of beds as 2, number of
baths as 1", "… then look for pets allowed, number of beds as 2") are split by
:func:`split_actions` into one instruction per action under the same condition, each parsed
alone; a piece without " as " after the first joins the one before ("location as London, UK"
is one action) unless it names a slot ("…, number of baths as 1, furnished": a True boolean).

The release's own template typos are read as the template (:func:`repair_template`): a
missing space after "look for" ("look forfree entry", "look fornumber of beds as 1") and
"preferance" for "preference"; the rule keeps the instruction's original text.
"""

from __future__ import annotations

import bisect
import itertools
import re
from dataclasses import dataclass, field
from functools import cached_property

from csp_check.language.tokenizer import PhraseMatcher, blank_english
from csp_check.nlsi.cues import (
    ALSO_WORDS,
    BOOL_FALSE,
    BOOL_TRUE,
    CONDITION_WORDS,
    NEGATIONS,
    domain_phrases,
    slot_phrases,
)
from csp_check.nlsi.schema import NlsiSchema, normalize


@dataclass(frozen=True)
class Rule:
    """One parsed standing instruction.

    ``domains``: the domains it can apply to (one, unless a chain leaves a choice);
    ``condition``: ``(slot, value)`` pairs that must hold in the call (empty = the domain is
    called); ``action``: ``(slot, value)`` to put in the call, or None when ``also_domain`` (the
    domain to call as well) is set. ``parsed_by``: ``rules``, or ``llm`` for the fallback.
    """

    instruction: str
    domains: tuple[str, ...]
    condition: tuple[tuple[str, str], ...] = ()
    action: tuple[str, str] | None = None
    also_domain: str | None = None
    instruction_id: str | int | None = None
    parsed_by: str = "rules"  # "rules" or "llm" (the optional fallback, csp_check.nlsi.llm_parse)

    def describe(self) -> str:
        """``Events: if event_type=Music then category=Blues`` style summary."""
        cond = " and ".join(f"{s}={v}" for s, v in self.condition) or "called"
        act = f"also call {self.also_domain}" if self.also_domain else f"{self.action[0]}={self.action[1]}"
        return f"{'/'.join(self.domains)}: if {cond} then {act}"


@dataclass(frozen=True)
class Unparsed:
    """An instruction the parser could not turn into a rule, and why."""

    instruction: str
    reason: str
    instruction_id: str | int | None = None


_TEMPLATE_TYPOS = (
    (re.compile(r"\b(look\s+for)(?=[^\W\d_])(?!ward)", re.IGNORECASE), r"\1 "),  # "look forfree entry"
    (re.compile(r"\bpreferance\b", re.IGNORECASE), "preference"),
)


def repair_template(text: str) -> str:
    """``text`` with the release's template typos mended (see the module doc)."""
    for pattern, repl in _TEMPLATE_TYPOS:
        text = pattern.sub(repl, text)
    return text


_LOOK_FOR = re.compile(r"^(?P<head>.*?\bthen\s+look\s+for\s+)(?P<tail>.+)$", re.IGNORECASE)


def split_actions(text: str, slot_names: frozenset[str] = frozenset()) -> list[str]:
    """One instruction per action of ``text``'s "… then look for A as 1, B as 2" (the
    condition repeated); ``[text]`` when it has one action. A piece that is a slot name with
    spaces (``slot_names``: "furnished", "has laundry service") is its own action: the
    release's generator writes a True boolean so."""
    m = _LOOK_FOR.match(repair_template(text).strip())
    if not m:
        return [text]
    pieces: list[str] = []
    for piece in (p.strip() for p in m.group("tail").split(",")):
        named = piece.lower().replace(" ", "_") in slot_names
        if pieces and not named and " as " not in f" {piece.lower()} " and " as " in f" {pieces[-1].lower()} ":
            pieces[-1] += ", " + piece  # a value with a comma ("London, UK")
        elif piece:
            pieces.append(piece)
    return [m.group("head") + p for p in pieces] if len(pieces) > 1 else [text]


@dataclass
class _Mention:
    start: int
    end: int
    kind: str  # "domain" | "slot" | "value" | "bool"
    options: set[tuple[str, str]] = field(default_factory=set)  # (domain, slot) or (domain, "")
    text: str = ""


class InstructionParser:
    """Parse instructions against one :class:`~csp_check.nlsi.schema.NlsiSchema` (reusable).

    ``parse(text)`` → :class:`Rule` or :class:`Unparsed`. Building the matchers costs about a
    second for a full SGD ontology; parse results are cached per text.
    """

    def __init__(self, schema: NlsiSchema):
        self.schema = schema
        self._cache: dict[str, Rule | Unparsed] = {}

    @cached_property
    def nlp(self):
        """Blank English spaCy pipeline (tokenizer only; no model download)."""
        return blank_english()

    @cached_property
    def _matchers(self):
        nlp = self.nlp
        matcher = PhraseMatcher(nlp.vocab, attr="LOWER")
        self._labels: dict[str, tuple[str, set[tuple[str, str]]]] = {}
        pats: dict[tuple[str, str], set[tuple[str, str]]] = {}
        surface: dict[tuple[str, str], str] = {}

        def add(kind: str, phrase: str, option: tuple[str, str]) -> None:
            phrase = phrase.strip()
            if not phrase:
                return
            pats.setdefault((kind, phrase.lower()), set()).add(option)
            surface.setdefault((kind, phrase.lower()), phrase)  # tokenised in its own case

        for domain, slots in self.schema.domains.items():
            for p in domain_phrases(domain):
                add("domain", p, (domain, ""))
            for slot, info in slots.items():
                for p in slot_phrases(domain, slot):
                    add("slot", p, (domain, slot))
                if info.is_boolean:
                    continue
                for value in sorted(info.values | set(self.schema.aliases.get((domain, slot), {}))):
                    canon = self.schema.canonical(domain, slot, value)
                    n = normalize(value)
                    if len(n) < 2 and not n.isdigit() or n in NEGATIONS | BOOL_TRUE | BOOL_FALSE:
                        continue
                    add("value", value, (domain, slot + "\x00" + canon))
        for word in ("true", "false"):
            add("bool", word, ("", word))
        for i, ((kind, phrase), options) in enumerate(pats.items()):
            key = f"{kind}:{i}"
            self._labels[key] = (kind, options)
            variants = {surface[(kind, phrase)], phrase}
            matcher.add(key, [nlp.make_doc(v) for v in sorted(variants)])
        return matcher

    def parse(self, text: str, instruction_id: str | int | None = None) -> Rule | Unparsed:
        """Parse one instruction text (see the module doc); cached on the text."""
        if text not in self._cache:
            out = self._parse(repair_template(text))
            self._cache[text] = type(out)(**{**out.__dict__, "instruction": text})
        out = self._cache[text]
        if instruction_id is not None:
            out = type(out)(**{**out.__dict__, "instruction_id": instruction_id})
        return out

    # -- internals -----------------------------------------------------------------------
    def mentions(self, text: str) -> tuple[object, list[_Mention]]:
        """Tokenise and match: the spaCy ``Doc`` and the mentions (longest first, no overlap
        within a kind; values win over domain cues on the same tokens)."""
        matcher = self._matchers
        doc = self.nlp.make_doc(text)
        raw = []
        for match_id, start, end in matcher(doc):
            kind, options = self._labels[self.nlp.vocab.strings[match_id]]
            if kind in ("slot", "domain") and (
                (start > 0 and doc[start - 1].text == "-" and not doc[start - 1].whitespace_)
                or (end < len(doc) and doc[end].text == "-" and not doc[end - 1].whitespace_)
            ):
                continue  # inside a hyphenated word ("go-to location" is not "to location")
            said = doc[start:end].text
            if kind == "value":  # the spelling the text uses, when the slot lists it ("breakthrough")
                options = {(d, _spelled(self.schema, d, o, said)) for d, o in options}
            raw.append(_Mention(start, end, kind, set(options), said))
        out: list[_Mention] = []
        for kind in ("value", "bool", "slot", "domain"):
            taken: set[int] = set()
            for m in sorted((m for m in raw if m.kind == kind), key=lambda m: (-(m.end - m.start), m.start)):
                if taken & set(range(m.start, m.end)):
                    continue
                taken |= set(range(m.start, m.end))
                out.append(m)
        return doc, sorted(out, key=lambda m: m.start)

    def _parse(self, text: str) -> Rule | Unparsed:
        doc, ms = self.mentions(text)
        words = [t.lower_ for t in doc]
        ms = _drop_slot_echoes(ms)
        values = [m for m in ms if m.kind == "value"]
        domains = [m for m in ms if m.kind == "domain"]
        def overlaps(a, b):
            return a.start < b.end and b.start < a.end
        # a phrase both a domain and a value ("Music", "House"): try reading each such phrase as
        # the domain first, then flip phrases to values, later ones first; the first rule wins
        def inside(a, b):
            return b.start <= a.start and a.end <= b.end and (a.start, a.end) != (b.start, b.end)
        # a domain word strictly inside a longer value ("SOMO Village Event Center") is the value
        ms = [m for m in ms if not (m.kind == "domain" and any(inside(m, v) for v in values))]
        domains = [m for m in ms if m.kind == "domain"]
        ambiguous = [d for d in domains if any(overlaps(d, v) for v in values)][:4]
        # default reading: a value right after "is / as / be / with / a", else a domain
        # or a value when a slot named within 3 tokens can hold it ("Music as the event type")
        slot_ms = [m for m in ms if m.kind == "slot"]

        def near_slot_holds(d: _Mention) -> bool:
            opts = {(dd, ss.split("\x00")[0]) for v in values if overlaps(d, v) for dd, ss in v.options}
            return any(
                (min(abs(x.start - d.end), abs(d.start - x.end)) <= 3) and (x.options & opts) for x in slot_ms
            )

        default = tuple((d.start > 0 and words[d.start - 1] in _VALUE_POSITION) or near_slot_holds(d) for d in ambiguous)
        masks = sorted(itertools.product((False, True), repeat=len(ambiguous)),
                       key=lambda mask: (sum(x != y for x, y in zip(mask, default)), [-i for i, x in enumerate(mask) if x]))
        first: Rule | Unparsed | None = None
        for mask in masks:
            as_value = [d for d, flip in zip(ambiguous, mask) if flip]
            as_domain = [d for d, flip in zip(ambiguous, mask) if not flip]
            kept = [m for m in ms if not (m.kind == "domain" and m in as_value)
                    and not (m.kind == "value" and any(overlaps(m, d) for d in as_domain))]
            out = self._interpret(text, words, kept)
            if isinstance(out, Rule):
                return out
            first = first or out
        return first

    def _interpret(self, text: str, words: list[str], ms: list[_Mention]) -> Rule | Unparsed:
        cond_lo, cond_hi = _condition_clause(words)
        values = [m for m in ms if m.kind == "value"]
        slots = [m for m in ms if m.kind == "slot"]
        slot_index, value_index = _Spans(slots), _Spans(values)
        doms_clean = [m for m in ms if m.kind == "domain"
                      and not any(s.start <= m.start and m.end <= s.end for s in slot_index.overlapping(m.start, m.end))]
        mentioned = [next(iter(m.options))[0] for m in doms_clean]
        also = bool(set(words) & ALSO_WORDS) or "as well" in " ".join(words)
        distinct = list(dict.fromkeys(mentioned))
        if also and len(distinct) >= 2:
            in_cond = [next(iter(m.options))[0] for m in doms_clean if cond_lo <= m.start < cond_hi]
            source = in_cond[0] if in_cond else distinct[0]
            target = next(d for d in distinct if d != source)
            return Rule(text, (source,), also_domain=target)
        slot_mentioned = {o for m in slots for o in m.options}
        # boolean slots: a slot phrase of a boolean slot, True unless negated / "false"
        bools = []
        for m in slots:
            if any(value_index.overlapping(m.start, m.end)):
                continue  # "Live Music" inside a venue name is not the has_live_music slot
            bool_opts = {(d, s) for d, s in m.options if (info := self.schema.slot(d, s)) is not None and info.is_boolean}
            if bool_opts:
                after = [w for w in words[m.end : m.end + 3] if w in ("true", "false")]
                window = words[max(0, m.start - 4) : m.start] + words[m.end : m.end + 3]
                neg = bool(set(window) & (NEGATIONS | BOOL_FALSE)) and not (set(window) & BOOL_TRUE)
                val = after[0].capitalize() if after else "False" if neg else "True"
                bools.append(_Mention(m.start, m.end, "value", {(d, s + "\x00" + val) for d, s in bool_opts}, m.text))
        cands = sorted(values + bools, key=lambda m: m.start)
        if not cands:
            return Unparsed(text, "no slot value of the schema found")
        if len(cands) > 2:
            # keep the values whose slot is named, then the first two
            named = [m for m in cands if any((d, s.split("\x00")[0]) in slot_mentioned for d, s in m.options)]
            cands = (named if len(named) >= 2 else cands)[:2] if len(named) <= 2 else named[:2]
        score_domain = set(mentioned)
        nearest: dict[int, set[tuple[str, str]]] = {}
        for m in cands:
            if slots:
                near = min(slots, key=lambda x: min(abs(x.start - m.end), abs(m.start - x.end)))
                nearest[m.start] = near.options

        def score(option: tuple[str, str], at: int | None = None) -> float:
            d, s = option
            slot = s.split("\x00")[0]
            info = self.schema.slot(d, slot)
            return (
                3 * (d in score_domain)
                + 1 * ((d, slot) in slot_mentioned)
                + 2 * (at is not None and (d, slot) in nearest.get(at, ()))
                + 1 * bool(info and info.instructional)
                + 0.5 * bool(info and info.is_categorical)
            )

        if len(cands) == 1:
            best = _best(cands[0].options, lambda o: score(o, cands[0].start))
            if not best:
                return Unparsed(text, "value matches no slot")
            d, s = best[0]
            slot, value = s.split("\x00")
            doms = tuple(sorted({o[0] for o in best}))
            if score_domain and not (set(doms) & score_domain):
                # a value outside the ontology of the named domain, next to a slot of that domain
                named = {o for o in nearest.get(cands[0].start, ()) if o[0] in score_domain}
                if len(named) == 1:
                    d, slot = next(iter(named))
                    return Rule(text, (d,), action=(slot, self.schema.canonical(d, slot, cands[0].text)))
                return Unparsed(text, f"value {value!r} is not a value of {', '.join(sorted(score_domain))}")
            return Rule(text, doms if len({o[1] for o in best}) == 1 else (d,), action=(slot, value))
        a, b = cands
        if cond_lo <= b.start < cond_hi and not (cond_lo <= a.start < cond_hi):
            a, b = b, a
        pairs = []
        for da, sa in a.options:
            for db, sb in b.options:
                if da == db and sa.split("\x00")[0] != sb.split("\x00")[0]:
                    pairs.append((score((da, sa), a.start) + score((db, sb), b.start), da, sa, sb))
        if not pairs:
            return Unparsed(text, f"no domain has slots for both {a.text!r} and {b.text!r}")
        top = max(p[0] for p in pairs)
        best = [p for p in pairs if p[0] == top]
        doms = tuple(sorted({p[1] for p in best}))
        _, _, sa, sb = best[0]
        ca, va = sa.split("\x00")
        cb, vb = sb.split("\x00")
        if len({(p[2], p[3]) for p in best}) > 1:
            doms = (best[0][1],)
        return Rule(text, doms, condition=((ca, va),), action=(cb, vb))


_DETERMINERS = {"the", "a", "an", "my", "your"}
_VALUE_POSITION = {"is", "as", "be", "with", "a", "an", "are", "="}


def _drop_slot_echoes(ms: list[_Mention]) -> list[_Mention]:
    """Drop value mentions that only repeat a slot name ("the city" as a value of ``city``)."""
    slots = _Spans([m for m in ms if m.kind == "slot"])
    out = []
    for m in ms:
        if m.kind == "value":
            core = " ".join(w for w in normalize(m.text).split() if w not in _DETERMINERS)
            for s in slots.overlapping(m.start, m.end):
                if (
                    set(core.split()) <= set(normalize(s.text).split()) or (s.start <= m.start and m.end <= s.end)
                ):
                    break
            else:
                out.append(m)
            continue
        out.append(m)
    return out


class _Spans:
    """Mentions indexed by start, for overlap queries in ``O(log n + k)`` (an instruction of
    thousands of mentions stays near-linear, not quadratic)."""

    def __init__(self, mentions: list[_Mention]) -> None:
        self.mentions = sorted(mentions, key=lambda m: m.start)
        self.starts = [m.start for m in self.mentions]
        self.longest = max((m.end - m.start for m in self.mentions), default=0)

    def overlapping(self, start: int, end: int) -> list[_Mention]:
        """The mentions ``s`` with ``s.start < end`` and ``start < s.end``, in start order."""
        hi = bisect.bisect_left(self.starts, end)
        lo = bisect.bisect_left(self.starts, start - self.longest, 0, hi)
        return [m for m in self.mentions[lo:hi] if start < m.end]


def _spelled(schema: NlsiSchema, domain: str, option: str, said: str) -> str:
    """A value option ``slot\x00canonical`` in the spelling ``said`` uses when it is one of the
    slot's values that normalise alike (:meth:`NlsiSchema.canonical`), else unchanged."""
    slot, canon = option.split("\x00")
    return option if said == canon or said not in schema.forms(domain, slot, canon) else f"{slot}\x00{said}"


def _best(options: set[tuple[str, str]], score) -> list[tuple[str, str]]:
    if not options:
        return []
    top = max(score(o) for o in options)
    return sorted(o for o in options if score(o) == top)


def _condition_clause(words: list[str]) -> tuple[int, int]:
    """Token range ``[lo, hi)`` governed by the first condition word ("if", "when", …).

    At the start of the sentence the clause ends at the first comma or "then"; later in the
    sentence it runs to the end. No condition word → an empty range.
    """
    for i, w in enumerate(words):
        if w in CONDITION_WORDS or (w == "case" and i and words[i - 1] == "in"):
            if i <= 2:
                for j in range(i + 1, len(words)):
                    if words[j] in {",", "then", ";"}:
                        return i, j
                return i, len(words)
            return i, len(words)
    return 0, 0
