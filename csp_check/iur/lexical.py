"""The lexical judge: whether an utterance *names* a slot value outright (any known wording),
or has content words that *point to* it (the paper's indirection strategies, §6.1).

Its output is :class:`Evidence`: a phrase of the utterance and the candidate values it allows
(a unary constraint ``x ∈ values`` of the unambiguity CSP, :mod:`csp_check.iur.criteria`).

- **Named** (:func:`names`): the value's normalised text or a spelling of it
  (:func:`csp_check.annotate.wordings.spellings`), a word form of a one-word value ("southern"
  for south), a number in digits or words, a clock time in any notation ("6 pm" for 18:00, on
  the 12-hour clock when no period is said), and for a true / false slot the slot's own cue with
  its negation (:func:`csp_check.language.cues.boolean_span`: "no live music", "pets are not
  allowed"; MultiWOZ's amenities by :func:`~csp_check.language.cues.amenity_span`).
- **Pointed to** (:func:`evidence`): a hyponym or synonym of a value word or of a true / false
  slot's cue (:data:`csp_check.iur.words.HYPONYMS`: "my dog" → pets, "a jazz gig" → music,
  "budget" → cheap), with the polarity of its clause for a true / false slot (a negation or an
  aversion before it: "I'm allergic to cats" → false); an elaboration of a party size ("me, my
  wife and our twins" → 4).

The value words come from the schema (the value itself, the slot's name and its description);
the related words from :mod:`csp_check.iur.words`, never from a dialogue.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from csp_check.annotate.wordings import spellings
from csp_check.iur.words import ALONE, AVERSION, GROUP_WORDS, HYPONYMS, PEOPLE_WORDS, SPEAKER, STOP_WORDS, STRATEGY_CUES
from csp_check.language.cue_words import NEGATORS
from csp_check.language.cues import amenity_span, boolean_span, read_boolean
from csp_check.language.normalize import NUMBER_WORDS, clock_time, fold_aligned, normalize, parse_amount

BOOLEAN_VALUES = frozenset({"true", "false", "yes", "no"})
_TIME = re.compile(r"\b\d{1,2}(?::\d\d)?\s*(?:a\.?m\.?|p\.?m\.?|o'?clock)?|\b(?:noon|midnight)\b", re.I)
_NUMBER = re.compile(r"\b(?:\d+|" + "|".join(sorted(NUMBER_WORDS, key=len, reverse=True)) + r")\b")
_FRAME = frozenset("has is are allowed allow offers offer serves serve good for with accepts accept the of".split())


@dataclass(frozen=True)
class Evidence:
    """A phrase of the utterance (``words``, lower case) and the candidate ``values`` it allows;
    ``strategy`` is ``direct`` (named), ``hyponym/synonym swap`` or ``elaboration``."""

    words: str
    values: frozenset[str]
    strategy: str


def is_boolean(values: list[str] | set[str] | frozenset[str]) -> bool:
    """Whether a slot's candidate values are a true / false (yes / no) pair."""
    return bool(values) and {normalize(v) for v in values} <= BOOLEAN_VALUES


def _truth(value: str) -> str:
    return "true" if normalize(value) in ("true", "yes") else "false"


def _stem(word: str) -> str:
    return word[:-1] if word.endswith("s") and len(word) > 3 and not word.endswith("ss") else word


def _word_form(a: str, b: str) -> bool:
    """One word a form of the other ("southern" / "south", "concerts" / "concert")."""
    short, long_ = sorted((a, b), key=len)
    return a == b or (len(short) >= 4 and not short.isdigit() and long_.startswith(short) and len(long_) - len(short) <= 4)


def cue_words(slot: str, description: str = "") -> list[str]:
    """The words of a slot that :data:`HYPONYMS` may be keyed by: the slot name's words less its
    frame words (``pets_allowed`` → pet; ``has_live_music`` → live music, music), singular."""
    words = [_stem(w) for w in re.split(r"[_\s]+", slot.lower()) if w and w not in _FRAME]
    out = [" ".join(words)] if len(words) > 1 else []
    return out + words


def names(text: str, value: str, slot: str = "") -> str | None:
    """The words of ``text`` that name ``value`` of ``slot`` outright in a known wording (module
    docstring), or ``None``. ``text`` is raw; a true / false value is named by the slot's cue."""
    key = normalize(value)
    if not key:
        return None
    low = fold_aligned(text)
    if key in BOOLEAN_VALUES:
        bare = slot.rpartition(".")[2]
        keys = [bare] if " " not in bare.strip() else [w for w in cue_words(bare) if " " not in w and w not in STOP_WORDS]
        for key_word in keys:  # a description given for the slot: each of its content words as a cue
            span = boolean_span(text, key_word) or amenity_span(text, key_word)
            if span is not None and read_boolean(low[span.start : span.end]) == _truth(value):
                return low[span.start : span.end]
        return None
    n = parse_amount(key) if key.isdigit() or key in NUMBER_WORDS else None
    if n is not None:
        for m in _NUMBER.finditer(low):
            if parse_amount(m.group(0)) == n:
                return m.group(0)
        return None
    if re.fullmatch(r"\d{1,2}:\d\d", key):
        for m in _TIME.finditer(low):
            said = clock_time(m.group(0).strip())
            if said is None:
                continue
            h, mm = said.split(":")
            half = not re.search(r"[ap]\.?m|noon|midnight", m.group(0))
            if said == key or (half and int(h) < 12 and f"{int(h) + 12:02d}:{mm}" == key):
                return m.group(0).strip()
        return None
    text_key = normalize(text)
    for form in {key, *(normalize(s) for s in spellings(value))}:
        if form and re.search(rf"(?<![\w]){re.escape(form)}(?![\w])", text_key):
            return form
    if " " not in key:
        for word in re.findall(r"[a-z0-9]+", text_key):
            if _word_form(word, key):
                return word
    return None


def _clause_before(low: str, start: int) -> str:
    cut = max((m.end() for m in re.finditer(r"[.!?;,]|\bbut\b", low[:start])), default=0)
    return low[cut:start]


def _polarity(low: str, start: int) -> str:
    """``"false"`` when a negator among the four words before ``start`` in its clause, or an
    aversion anywhere before it in the clause, turns the phrase; else ``"true"``."""
    before = _clause_before(low, start)
    near = " ".join(before.split()[-4:])
    return "false" if NEGATORS.search(near) or AVERSION.search(before) else "true"


def party_size(text: str) -> tuple[str, int] | None:
    """(the words, the number of people) an elaboration of a party counts ("me and my wife" →
    2, "just me" → 1), or ``None`` when the text names no people."""
    low = fold_aligned(text)
    if ALONE.search(low):
        return ALONE.search(low).group(0), 1  # type: ignore[union-attr]
    count, words = 0, []
    for phrase, n in GROUP_WORDS.items():
        for m in re.finditer(rf"\b{re.escape(phrase)}\b", low):
            count, words = count + n, [*words, m.group(0)]
    for m in PEOPLE_WORDS.finditer(low):
        count, words = count + 1, [*words, m.group(0)]
    if not words:
        return None
    if SPEAKER.search(low) and not re.search(r"\bof us\b", " ".join(words)):
        count += 1
    return ", ".join(words), count


def evidence(text: str, slot: str, candidates: list[str], description: str = "") -> list[Evidence]:
    """The phrases of ``text`` that name or point to some of ``candidates`` (values of
    ``slot``), each with the candidates it allows (module docstring). Phrases that point to
    several candidates (a word in the lists of two values) allow all of them."""
    low = fold_aligned(text)
    out: list[Evidence] = []
    for v in candidates:
        said = names(text, v, slot)
        if said is not None:
            out.append(Evidence(said, frozenset({v}), "direct"))
    by_phrase: dict[tuple[int, int], set[str]] = {}
    if is_boolean(candidates):
        truth = {_truth(v): v for v in candidates}
        for word in cue_words(slot.rpartition(".")[2], description):
            pattern = HYPONYMS.get(word)
            for m in re.finditer(rf"(?<![\w-])(?:{pattern})(?![\w-])", low) if pattern else ():
                polarity = _polarity(low, m.start())
                if polarity in truth:
                    by_phrase.setdefault((m.start(), m.end()), set()).add(truth[polarity])
    else:
        for v in candidates:
            for word in {normalize(v), *(_stem(w) for w in normalize(v).split() if w not in STOP_WORDS)}:
                pattern = HYPONYMS.get(word)
                for m in re.finditer(rf"(?<![\w-])(?:{pattern})(?![\w-])", low) if pattern else ():
                    by_phrase.setdefault((m.start(), m.end()), set()).add(v)
        if candidates and all(normalize(v).isdigit() for v in candidates):
            party = party_size(text)
            if party is not None and str(party[1]) in {normalize(v) for v in candidates}:
                out.append(Evidence(party[0], frozenset({c for c in candidates if normalize(c) == str(party[1])}),
                                    "elaboration"))
    direct = {e.words for e in out}
    for (start, end), values in sorted(by_phrase.items()):
        words = low[start:end]
        if not any(words in d or d in words for d in direct):
            out.append(Evidence(words, frozenset(values), "hyponym/synonym swap"))
    return out


def strategies(text: str) -> list[str]:
    """The non-deciding strategies the text shows (:data:`STRATEGY_CUES`: justification, small talk)."""
    low = fold_aligned(text)
    return [name for name, pattern in STRATEGY_CUES.items() if pattern.search(low)]


def content_words(text: str) -> set[str]:
    """The lower-case words of ``text`` that are not stop words (the appropriateness test's words)."""
    return {_stem(w) for w in re.findall(r"[a-z]+", normalize(text)) if w not in STOP_WORDS and len(w) > 2}
