"""The lexical judge: whether an utterance *names* a slot value outright (any known wording),
or has content words that *point to* it (the paper's indirection strategies, §6.1).

Its output is :class:`Evidence`: a phrase of the utterance and the candidate values it allows
(a unary constraint ``x ∈ values`` of the unambiguity CSP, :mod:`csp_check.iur.criteria`).

- **Named** (:func:`names`): the value's normalised text (the normaliser merges spellings:
  "center" / "centre", "guest house" / guesthouse), a word form of a one-word value ("southern"
  for south), a number in digits or words, a clock time in any notation ("6 pm" for 18:00, on
  the 12-hour clock when no period is said), and for a true / false slot the slot's own cue with
  its negation (:func:`csp_check.language.cues.boolean_span`: "no live music", "pets are not
  allowed"; MultiWOZ's amenities by :func:`~csp_check.language.cues.amenity_span`);
  :func:`names_loosely` adds the normaliser's paraphrases, a name's distinctive words and typos
  (detection's and the check's "any known wording").
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
from functools import lru_cache

from csp_check.iur.words import (
    ALONE,
    AVERSION,
    FOR_ME,
    GENERIC_NAME_WORDS,
    GROUP_WORDS,
    HYPONYMS,
    OTHERS,
    PEOPLE_WORDS,
    PERMITS,
    SHORT_YEAR,
    SPEAKER,
    STOP_WORDS,
    STRATEGY_CUES,
    YEARS_BACK,
)
from csp_check.language.cue_words import NEGATORS
from csp_check.language.cues import amenity_span, boolean_span, read_boolean
from csp_check.language.lexicon import ADVERBS
from csp_check.language.normalize import (
    NUMBER_WORDS,
    clock_time,
    edit_distance,
    fold_aligned,
    normalize,
    one_typo,
    parse_amount,
)

BOOLEAN_VALUES = frozenset({"true", "false", "yes", "no"})
_TIME = re.compile(r"\b\d{3,4}(?=\s*(?:hrs?|[ap]\.?m)\b)|\b\d{1,2}(?::\d\d)?\s*(?:a\.?m\.?|p\.?m\.?|o'?clock)?|\b(?:noon|midnight)\b", re.I)
_NUMBER = re.compile(r"\b(?:\d+|" + "|".join(sorted(NUMBER_WORDS, key=len, reverse=True)) + r")\b")
_FRAME = frozenset("has is are allowed allow offers offer serves serve good for with accepts accept the of".split())


@dataclass(frozen=True)
class Evidence:
    """A phrase of the utterance (``words``, lower case) and the candidate ``values`` it allows;
    ``strategy`` is ``direct`` (named), ``hyponym/synonym swap`` or ``elaboration``."""

    words: str
    values: frozenset[str]
    strategy: str


def joined(text: str) -> str:
    """``text`` with tokenised hyphens joined ("high - end", "Wi - Fi": MultiWOZ's spacing)."""
    return re.sub(r"(?<=\w) - (?=\w)", "-", text)


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
    frame words (``pets_allowed`` → pet; ``has_live_music`` → live music, music), singular, then
    the content words of its schema ``description`` ("Boolean flag indicating if pets are
    allowed" → pet, flag, …; only keys of :data:`HYPONYMS` ever match)."""
    words = [_stem(w) for w in re.split(r"[_\s]+", slot.lower()) if w and w not in _FRAME]
    out = [" ".join(words)] if len(words) > 1 else []
    described = [_stem(w) for w in re.findall(r"[a-z]+", description.lower()) if w not in STOP_WORDS and w not in _FRAME]
    return list(dict.fromkeys(out + words + described))


def names(text: str, value: str, slot: str = "") -> str | None:
    """The words of ``text`` that name ``value`` of ``slot`` outright in a known wording (module
    docstring), or ``None``. ``text`` is raw; a true / false value is named by the slot's cue.
    The text is read as it is, then with tokenised hyphens joined (:func:`joined`)."""
    said = _names(text, value, slot)
    if said is None and joined(text) != text:
        said = _names(joined(text), value, slot)
    return said


def _names(text: str, value: str, slot: str) -> str | None:
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
            raw = m.group(0).strip()
            said = f"{int(raw[:-2]):02d}:{raw[-2:]}" if raw.isdigit() and len(raw) >= 3 else clock_time(raw)  # "1215hrs"
            if said is None:
                continue
            h, mm = said.split(":")
            half = not re.search(r"[ap]\.?m|noon|midnight", m.group(0))
            if said == key or (half and int(h) < 12 and f"{int(h) + 12:02d}:{mm}" == key):
                return m.group(0).strip()
        return None
    text_key = normalize(text)  # the normaliser merges spellings ("center" / "centre", "guest house")
    if re.search(rf"(?<![\w]){re.escape(key)}(?![\w])", text_key):
        return key
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
    if PERMITS.search(before):
        return "true"  # "no restriction for smoking"
    near = " ".join(before.split()[-4:])
    return "false" if NEGATORS.search(near) or AVERSION.search(before) else "true"


def stem(word: str) -> str:
    """A crude English stem for comparing word forms ("sharing" / "shared" / "share" → "shar")."""
    for suffix in ("ing", "ed", "es", "s", "e"):
        if word.endswith(suffix) and len(word) - len(suffix) >= 4:
            return word[: -len(suffix)]
    return word


def distinguishing(value: str, candidates: list[str]) -> list[str]:
    """The words of a multi-word ``value`` that no other candidate has ("bedroom" of "Bedroom
    speaker" beside "Kitchen speaker"), its head noun aside ("class" of "First Class" is no
    modifier): naming them swaps the head for another word ("my bedroom device")."""
    own = [w for w in normalize(value).split() if w not in STOP_WORDS]
    others = {w for c in candidates if c != value for w in normalize(c).split()}
    return [w for w in own[:-1] if w not in others] if len(own) > 1 else []  # modifiers: the head is what is swapped


def year_said(text: str, year: int | None) -> tuple[str, str] | None:
    """(words, year) of a two-digit year ("'15" → 2015) or a year counted back from ``year``
    ("six years back" → year − 6), or ``None``."""
    low = fold_aligned(text)
    m = SHORT_YEAR.search(low)
    if m:
        return m.group(0), f"20{m.group(1)}"
    m = YEARS_BACK.search(low)
    if m and year is not None:
        back = 1 if m.group(0) == "last year" or m.group(1) == "a" else parse_amount(m.group(1))
        return (m.group(0), str(year - back)) if back is not None else None
    return None


def party_size(text: str) -> tuple[str, int] | None:
    """(the words, the number of people) an elaboration of a party counts ("me and my wife" →
    2, "just me" → 1), or ``None`` when the text names no people."""
    low = fold_aligned(text)
    alone = ALONE.search(low)
    if alone:
        return alone.group(0), 1
    others = OTHERS.search(low)
    if others:
        n = parse_amount(others.group(1))
        return (others.group(0), n + 1) if n is not None else None  # "four of my friends": with the speaker, 5
    count, words = 0, list[str]()
    for phrase, n in GROUP_WORDS.items():
        for m in re.finditer(rf"\b{re.escape(phrase)}\b", low):
            count, words = count + n, [*words, m.group(0)]
    for m in PEOPLE_WORDS.finditer(low):
        count, words = count + 1, [*words, m.group(0)]
    if not words:
        me = FOR_ME.search(low)
        return (me.group(0), 1) if me else None
    if SPEAKER.search(low) and not re.search(r"\bof us\b", " ".join(words)):
        count += 1
    return ", ".join(words), count


def evidence(text: str, slot: str, candidates: list[str], description: str = "", year: int | None = None) -> list[Evidence]:
    """The phrases of ``text`` that name or point to some of ``candidates`` (values of
    ``slot``), each with the candidates it allows (module docstring). Phrases that point to
    several candidates (a word in the lists of two values) allow all of them; a phrase under a
    negation allows the others ("not very costly": not pricey). ``year``: the dialogue's year,
    for a year counted back. The text is read as it is, then (when that finds nothing) with
    tokenised hyphens joined."""
    found = _evidence(text, slot, candidates, description, year)
    if not found and joined(text) != text:
        found = _evidence(joined(text), slot, candidates, description, year)
    return found


def _evidence(text: str, slot: str, candidates: list[str], description: str, year: int | None) -> list[Evidence]:
    low = fold_aligned(text)
    out: list[Evidence] = []
    boolean = is_boolean(candidates)
    for v in candidates:
        said = names_loosely(text, v, slot)  # any known wording (the check's "direct")
        if said is not None:
            at = low.find(said)
            if not boolean and at >= 0 and _polarity(low, at) == "false":
                out.append(Evidence(said, frozenset(candidates) - {v}, "direct, negated"))
            else:
                out.append(Evidence(said, frozenset({v}), "direct"))
    by_phrase: dict[tuple[int, int], set[str]] = {}
    negated: set[tuple[int, int]] = set()
    if boolean:
        truth = {_truth(v): v for v in candidates}
        for word in cue_words(slot.rpartition(".")[2], description):
            pattern = HYPONYMS.get(word)
            for m in re.finditer(rf"(?<![\w-])(?:{pattern})(?![\w-])", low) if pattern else ():
                polarity = _polarity(low, m.start())
                if polarity in truth:
                    by_phrase.setdefault((m.start(), m.end()), set()).add(truth[polarity])
        cues = {stem(w) for c in cue_words(slot.rpartition(".")[2]) for w in c.split()}  # the name's own words only
        for m in re.finditer(r"[a-z]+", low):  # the cue in another word form ("sharing is fine" for shared)
            polarity = _polarity(low, m.start())
            if stem(m.group(0)) in cues and polarity in truth:
                by_phrase.setdefault((m.start(), m.end()), set()).add(truth[polarity])
    else:
        for v in candidates:
            for word in {normalize(v), v.lower(), *(_stem(w) for w in normalize(v).split() if w not in STOP_WORDS)}:
                pattern = HYPONYMS.get(word)
                for m in re.finditer(rf"(?<![\w-])(?:{pattern})(?![\w-])", low) if pattern else ():
                    by_phrase.setdefault((m.start(), m.end()), set()).add(v)
                    if _polarity(low, m.start()) == "false":
                        negated.add((m.start(), m.end()))
            for word in distinguishing(v, candidates):
                for m in re.finditer(rf"(?<![\w-]){re.escape(word)}(?![\w-])", low):
                    by_phrase.setdefault((m.start(), m.end()), set()).add(v)
        said_year = year_said(text, year)
        if said_year is not None and said_year[1] in candidates:
            out.append(Evidence(said_year[0], frozenset({said_year[1]}), "elaboration"))
        if candidates and all(normalize(v).isdigit() for v in candidates):
            party = party_size(text)
            if party is not None and str(party[1]) in {normalize(v) for v in candidates}:
                out.append(Evidence(party[0], frozenset({c for c in candidates if normalize(c) == str(party[1])}),
                                    "elaboration"))
    direct = {e.words for e in out}
    for (start, end), values in sorted(by_phrase.items()):
        words = low[start:end]
        if not any(words in d or d in words for d in direct):
            if (start, end) in negated:
                out.append(Evidence(words, frozenset(candidates) - values, "hyponym/synonym swap, negated"))
            else:
                out.append(Evidence(words, frozenset(values), "hyponym/synonym swap"))
    return out


def strategies(text: str) -> list[str]:
    """The non-deciding strategies the text shows (:data:`STRATEGY_CUES`: justification, small talk)."""
    low = fold_aligned(text)
    return [name for name, pattern in STRATEGY_CUES.items() if pattern.search(low)]


def content_words(text: str) -> set[str]:
    """The lower-case words of ``text`` that are not stop words (the appropriateness test's words)."""
    return {_stem(w) for w in re.findall(r"[a-z]+", normalize(text)) if w not in STOP_WORDS and len(w) > 2}


@lru_cache(maxsize=1 << 12)  # detection asks it of one turn's words for each candidate after it
def names_loosely(text: str, value: str, slot: str = "") -> str | None:
    """:func:`names`, or a wording the corpora use beside the value's own (the words detection
    accepts as naming, so that a value is a candidate only when no wording of it is written):
    a paraphrase the normaliser knows (:data:`csp_check.language.lexicon.ADVERBS`: "upscale"
    for expensive), a name's distinctive words without its generic ones
    ("acorn" for acorn guest house, all of them in the text), or one word one typo away from a
    one-word value of five letters or more ("expensiv")."""
    said = names(text, value, slot)
    if said is not None:
        return said
    return _loosely(text, value) or (_loosely(joined(text), value) if joined(text) != text else None)


def _loosely(text: str, value: str) -> str | None:
    key, text_key = normalize(value), normalize(text)
    for surface, meant in ADVERBS.items():
        if meant == key and re.search(rf"(?<![\w]){re.escape(normalize(surface))}(?![\w])", text_key):
            return surface
    words = set(re.findall(r"[a-z0-9']+", text_key))
    own = [w for w in key.split() if w not in GENERIC_NAME_WORDS and w not in STOP_WORDS]
    if len(key.split()) > 1 and own and all(w in words or any(_word_form(w, t) for t in words) for w in own):
        return " ".join(own)
    if " " not in key and len(key) >= 5 and not key.isdigit():
        typo = next((w for w in words if len(w) >= 5 and one_typo(w, key)), None)
        if typo is not None:
            return typo
    squeezed, value_squeezed = re.sub(r"[\W_]+", "", text_key), re.sub(r"[\W_]+", "", key)
    if len(value_squeezed) >= 6 and value_squeezed in squeezed:
        return key  # "queen 's college", "night club", "tocambridge": the value's letters, spacing aside
    tokens = text_key.split()
    n = len(key.split())
    if n > 1 and len(value_squeezed) >= 8:
        for i in range(len(tokens) - n + 1):  # "cambrige artworks", "stasted airport": two edits over the name
            window = "".join(tokens[i : i + n])
            if edit_distance(window, value_squeezed, 2) <= 2:
                return " ".join(tokens[i : i + n])
    return None
