"""Values found by rule rather than by a KB wording: yes / no amenities from their keywords,
star ratings, train ids, codes of a KB code column's form (phones, postcodes) and trip times
with a cue.

Each finder takes ``columns``: domain → its KB columns (in KB order), and finds values only for
a column exactly one domain has (trip times: the one domain the context is about).
"""

from __future__ import annotations

import re
from collections import Counter

from csp_check.annotate.lexicon import (
    ARRIVE_CUES,
    BOUND_COLUMNS,
    BOUND_WORDS,
    CLOCK_TIME,
    FLAG_WORDS,
    LEAVE_CUES,
    NAMING_DETERMINERS,
    NEGATIONS,
    TRAIN_ID,
    TRIP_NOUNS,
)
from csp_check.annotate.mentions import Found
from csp_check.annotate.resolve import DomainContext
from csp_check.annotate.wordings import compact
from csp_check.language.normalize import clock_time, normalize, parse_amount

#: :data:`~csp_check.annotate.lexicon.FLAG_WORDS` with each keyword's number of words.
_FLAG_WIDTHS = {column: [(w, len(w.split())) for w in words] for column, words in FLAG_WORDS.items()}
#: Per column, every prefix of its keywords: a token that is none starts no keyword (:func:`flags`).
_FLAG_PREFIXES = {column: frozenset(w[:k] for w in words for k in range(len(w) + 1)) for column, words in FLAG_WORDS.items()}


def flags(doc, speaker: str, columns: dict[str, set[str]]) -> list[Found]:  # type: ignore[no-untyped-def]
    """Yes / no columns from their keywords ("free parking", "wifi"): yes, or for the system
    no when negated in the clause ("no parking"); a negated user request is left out."""
    out = []
    lowers = [t.lower_ for t in doc]  # a keyword starts with its first token: the span is read only then
    for column, words in _FLAG_WIDTHS.items():
        domains = [d for d in columns if column in columns[d]]
        if len(domains) != 1:
            continue
        prefixes = _FLAG_PREFIXES[column]
        for i, low in enumerate(lowers):
            if low not in prefixes:
                continue
            width = next((n for w, n in words if w.startswith(low) and doc[i : i + n].text.lower() == w), 0)
            if not width:
                continue
            clause = []
            for t in reversed(doc[max(0, i - 6) : i]):
                if (t.is_punct and t.text != "-") or t.lower_ == "but":
                    break
                clause.append(t.lower_)
            negated = bool(NEGATIONS & set(clause))
            if negated and speaker == "user":
                continue
            out.append(Found(i, i + width, domains[0], column, "no" if negated else "yes"))
    return out


def stars(doc, columns: dict[str, set[str]]) -> list[Found]:  # type: ignore[no-untyped-def]
    """Star ratings: a number before "star(s)" ("4 stars", "4-star", "four star")."""
    domains = [d for d in columns if "stars" in columns[d]]
    if len(domains) != 1 or "star" not in doc.text.lower():
        return []  # both wordings have the token "star(s)"
    out = []
    tokens = list(doc)
    for i, tok in enumerate(tokens[:-1]):
        j = i + 1 + (tokens[i + 1].text == "-" and i + 2 < len(tokens))
        if tokens[j].lower_ not in ("star", "stars"):
            continue
        amount = parse_amount(tok.text)
        if amount is not None and amount <= 5:
            out.append(Found(i, i + 1, domains[0], "stars", str(amount)))
    for i, tok in enumerate(tokens[:-2]):  # "a star rating of 4", "a star of 4"
        j = i + 1 + (tokens[i + 1].lower_ == "rating")
        if tok.lower_ in ("star", "stars") and j + 1 < len(tokens) and tokens[j].lower_ == "of":
            amount = parse_amount(tokens[j + 1].text)
            if amount is not None and amount <= 5:
                out.append(Found(j + 1, j + 2, domains[0], "stars", str(amount)))
    return out


def trip_ids(doc, found: list[Found], columns: dict[str, set[str]]) -> list[Found]:  # type: ignore[no-untyped-def]
    """Train ids of the KB's form ("TR1234") that no KB value matched: an id is a KB value, not
    a wording, so one no train has is still an id (and C5 refutes it), not an unread word."""
    if "train" not in columns or "trainID" not in columns["train"]:
        return []
    taken = {i for f in found for i in range(f.start, f.end)}
    return [Found(i, i + 1, "train", "trainID", tok.lower_) for i, tok in enumerate(doc)
            if i not in taken and TRAIN_ID.fullmatch(tok.lower_)]  # fmt: skip


def code_form(text: str) -> str | None:
    """The form of a code ("CB5 8BS" → ``cb9 9aa`` compacted to ``"cb99aa"``; "01223 351880" →
    ``"01999999999"``): its first two characters, then a digit as 9 and a letter as a; ``None``
    for text that is no code (under five characters, anything but letters and digits once spaces
    and hyphens are dropped, no digit, fewer than seven digits alone, or a run of four letters: a
    word, as in "50 minutes")."""
    code = re.sub(r"[\s-]", "", text.lower())
    if len(code) < 5 or not code.isascii() or not code.isalnum() or not any(c.isdigit() for c in code):
        return None
    if (code.isdigit() and len(code) < 7) or re.search(r"[a-z]{4}", code):
        return None
    return code[:2] + re.sub(r"[a-z]", "a", re.sub(r"\d", "9", code[2:]))


#: A share of a code column's KB values a form must have to be the column's: a rare form (two
#: attractions' mobile numbers "07…") is no sign of the column (a taxi's contact number has it).
COMMON_FORM = 0.1


def code_columns(kb_columns: dict[str, dict[str, list[str]]]) -> dict[str, list[tuple[str, str]]]:
    """Form → the (domain, column) pairs whose KB values commonly have it (:data:`COMMON_FORM`),
    over the columns every value of which is a code (:func:`code_form`): a KB's phones and
    postcodes. ``kb_columns``: domain → column → its values."""
    forms: dict[str, list[tuple[str, str]]] = {}
    for domain, columns in kb_columns.items():
        for column, values in columns.items():
            shapes = Counter(code_form(v) for v in values)
            if values and None not in shapes:
                for shape, n in shapes.items():
                    if n >= COMMON_FORM * len(values):
                        forms.setdefault(shape, []).append((domain, column))  # type: ignore[arg-type]
    return forms


def codes(doc, found: list[Found], context: DomainContext, forms: dict[str, list[tuple[str, str]]]) -> list[Found]:  # type: ignore[no-untyped-def]
    """Codes a system turn gives that no KB value matched, of the form of a KB code column (a
    phone "01223 999999", a postcode "CB5 9ZZ", up to three tokens): a code is a KB value, not a
    wording, so one no entity has is still that column's value (and C5 refutes it), as
    :func:`trip_ids`. The column's domain is the one the context settles among those with that
    form (:meth:`DomainContext.pick` without a guess); none when the utterance names a domain that
    has no such column (a taxi's contact number)."""
    if not any(c.isdigit() for c in doc.text):
        return []  # every code has a digit
    taken = {i for f in found for i in range(f.start, f.end)}
    digit = [any(c.isdigit() for c in t.text) for t in doc]
    out = []
    i = 0
    while i < len(doc):
        for width in (3, 2, 1):
            if i + width > len(doc) or not any(digit[i : i + width]):
                continue  # past the end, or no digit: no code (and no slice of the doc made)
            span = doc[i : i + width]
            if taken & set(range(i, i + width)) or any(t.is_punct for t in span):
                continue
            options = forms.get(code_form(span.text) or "")
            if not options:
                continue
            if context.mentioned - {d for d, _ in options}:
                break  # "the taxi's contact number is …": a code of a domain with no such column
            domain = context.pick([d for d, _ in options], guess=False)
            columns = [c for d, c in options if d == domain]
            if domain is not None and len(columns) == 1:
                out.append(Found(i, i + width, domain, columns[0], compact(span.text)))
                i += width - 1
            break
        i += 1
    return out


#: Verbs of arriving: a negated "before" after one ("I can't arrive before 10:00") bounds the
#: arrival from below, which no trip column holds.
ARRIVING = frozenset({"arrive", "arrives", "arriving", "arrival", "reach", "reaches", "reaching", "there", "here"})
#: Words that negate a "before" read back in its clause.
NOT_BEFORE = frozenset({"not", "n't", "never", "cannot", "unable", "can't", "won't", "cant", "wont"})


def _before_bound(doc, at: int) -> str | None:  # type: ignore[no-untyped-def]
    """The column "before" at token ``at`` bounds, read back in its clause (up to ten words): a
    negated "before" is a lower bound ("I can't leave before 10:00", "I won't get out of work
    before 10:00" → leaveAt; after an arrival verb: no column), a departure verb just before it
    an upper bound on leaving ("leave before 10:00": no column); else an arrival bound (arriveBy)."""
    words = []
    for tok in reversed(doc[max(0, at - 10) : at]):
        if tok.is_punct and tok.text not in (":", "-"):
            break
        words.append(tok.lower_)
    if any(w in NOT_BEFORE for w in words):  # the verb nearest to "before" says what is bounded
        verb = next((w for w in words if w in ARRIVING or w in LEAVE_CUES), None)
        return None if verb in ARRIVING else "leaveAt"
    if words and words[0] in LEAVE_CUES - {"after"}:
        return None
    return "arriveBy"


def times(doc, context: DomainContext, found: list[Found], speaker: str, columns: dict[str, set[str]]) -> list[Found]:  # type: ignore[no-untyped-def]
    """Trip bounds: a clock time whose nearest cue word before it (within six words of its
    clause) is a departure word ("leave after 17:00" → leaveAt) or an arrival word ("arrive by
    18:30" → arriveBy), in a domain with those columns that the context is about. A time between
    a determiner and a trip noun ("the arrival time of the 19:59 train", "that 10:15 one") names
    a trip, it is no bound: it gives no value. "before" is read by :func:`_before_bound` (a
    negated one bounds the departure from below)."""
    domains = [d for d in columns if set(BOUND_COLUMNS) <= columns[d]]
    sure = {f.domain for f in found}
    domains = [d for d in domains if d in context.mentioned or d == context.active or d in sure]
    if len(domains) != 1:
        return []
    out = []
    for match in CLOCK_TIME.finditer(doc.text):
        span = doc.char_span(match.start(1), match.end(1), alignment_mode="expand")
        value = clock_time(normalize(match.group(1)))
        if span is None or value is None:
            continue
        if (span.start > 0 and doc[span.start - 1].lower_ in NAMING_DETERMINERS
                and span.end < len(doc) and doc[span.end].lower_ in TRIP_NOUNS):
            continue  # "the 19:59 train": which train, not when
        column = cue = None
        for tok in reversed(doc[max(0, span.start - 6) : span.start]):
            if tok.is_punct and tok.text not in (":", "-"):
                break
            if tok.lower_ in BOUND_WORDS and cue is None:
                cue = tok.lower_  # "arrive no later than 21:00": a bound whatever verb comes before
            if tok.lower_ in LEAVE_CUES:
                column, cue = "leaveAt", cue or tok.lower_
                break
            if tok.lower_ == "before" and (bound := _before_bound(doc, tok.i)) != "arriveBy":
                column, cue = bound, cue or "before"
                break
            if tok.lower_ in ARRIVE_CUES:
                column, cue = "arriveBy", cue or tok.lower_
                break
        if column is not None and speaker == "system" and cue in BOUND_WORDS:
            continue  # "8 trains arrive by 13:45" restates the bound; only a time a train has is a claim
        if column is not None:
            out.append(Found(span.start, span.end, domains[0], column, value))
    return out
