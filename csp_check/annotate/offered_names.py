"""Names a system offers that no KB value matched, read by the shape of their sentence (the
package docstring's **Values**, names the KB lacks).

A KB value is matched wherever it is written; a name the KB lacks is matched nowhere, so an offer
of an invented entity ("Cityview Lodge is a nice guesthouse in the north") would go unread and
unchecked. :func:`unknown_names` reads such a name where English gives the sentence one shape only:

- ``<Name> is a/an [up to four words] <domain noun>`` at the start of a sentence ("Cityview Lodge
  is a nice guesthouse", "Bluebell is a place in the north"): the noun gives the domain (a generic
  noun, "place", the domain the dialogue is about);
- ``I (would) recommend / suggest <Name>``, ``How / what about <Name>?``, ``It is called / named
  <Name>``: the domain the dialogue is about, or the domain noun of the sentence;
- a member of a list of KB names closed by "and" / "or" ("I have Caffe Uno, <Name> and Clowns
  Cafe"): the domain of the KB names beside it, always with a doubt (for review: it may be a
  variant of a KB name the lexicon lacks). A word before a comma with no "and" / "or" in the
  list ("Second, <KB name> is …") is no member.

``<Name>``: one or more capitalised words (with "the", "of", "and", "&", "'s" inside), none of them
read as a KB name (a capitalised type word goes on the name: "Parkside Guest House"), not a pronoun, a courtesy or a place the service is in (:data:`NOT_NAMES`). It
becomes a value of the domain's entity column (``name``), which the system offers: C5 then finds
that no entity has it. A name read by the second shape with one word only carries a doubt (it may
be a kind, a day or a place, not an entity): a violation resting on it is for review.
"""

from __future__ import annotations

import re

from csp_check.annotate.lexicon import MAX_GAP, SENTENCE_END
from csp_check.annotate.mentions import Found
from csp_check.annotate.resolve import DomainContext
from csp_check.language.normalize import normalize

#: Capitalised words that begin a sentence or a phrase but name no entity.
NOT_NAMES = frozenset({
    "i", "it", "its", "this", "that", "there", "they", "these", "those", "he", "she", "we", "you", "which", "what",
    "where", "when", "how", "yes", "no", "sure", "okay", "ok", "great", "well", "both", "all", "each", "either",
    "neither", "one", "another", "unfortunately", "sorry", "also", "and", "but", "so", "then", "here", "our", "my",
    "your", "their", "cambridge", "please", "thank", "thanks", "certainly", "absolutely", "alright", "perfect",
    "wonderful", "excellent", "good", "nice", "lovely", "fine", "yeah", "hello", "hi", "sounds", "if", "as", "or",
    "monday", "tuesday", "wednesday", "thursday", "friday", "saturday", "sunday", "today", "tomorrow", "tonight",
    "an", "a", "the", "some", "any", "other", "most", "many", "several", "few", "just", "only", "now", "not",
    "unique", "fantastic", "definitely", "indeed", "actually", "however", "otherwise", "let", "would", "could",
    "english", "british", "european", "north", "south", "east", "west", "centre", "center", "town", "city",
})  # fmt: skip
#: Words that may stand inside a name after its first word ("Museum of Technology", "Bed and Breakfast").
NAME_LINKS = frozenset({"of", "and", "&", "'s", "the", "-"})
#: The last words of :data:`PROPOSING` (a cheap test before the pattern).
PROPOSING_ENDS = ("recommend", "suggest", "about", "called", "named")
#: The verbs that propose the name after them.
PROPOSING = re.compile(r"(?:\bi (?:would |'d |can |could |might |do )?(?:recommend|suggest)|\bhow about|\bwhat about|"
                       r"\bmay i suggest|\bmay i recommend|\b(?:is|it's|it 's|one) called|\b(?:is|one) named)\s*$")


def unknown_names(  # type: ignore[no-untyped-def]
    doc, utterance: str, found: list[Found], nouns: dict[int, tuple[str, bool]], context: DomainContext,
    masked: set[int], columns: dict[str, set[str]],
) -> list[Found]:
    """The names (module doc) a system utterance offers that no found value covers. ``doc``: the
    folded (lowered) ``utterance``, aligned with it character for character; ``nouns``:
    token → (domain or "" for a generic noun, plural); ``masked``: tokens naming the service;
    ``columns``: domain → its KB columns."""
    taken = {i for f in found for i in range(f.start, f.end)} | masked
    kinds = frozenset(i for f in found if f.slot != "name" and not f.amount for i in range(f.start, f.end)) - masked
    capital = {t.i for t in doc if t.is_alpha and utterance[t.idx : t.idx + 1].isupper()}
    named = [d for d in columns if "name" in columns[d]]
    out = []
    for first in _sentence_starts(doc):
        end = _name_end(doc, first, taken, capital, kinds)
        if end is None:
            continue
        domain = _described_as(doc, end, nouns, context, named)
        if domain is not None:
            out.append(Found(first, end, domain, "name", normalize(doc[first:end].text)))
    for i in range(1, len(doc)):
        if not doc[i - 1].lower_.endswith(PROPOSING_ENDS) or not PROPOSING.search(doc[max(0, i - 4) : i].text.lower()):
            continue
        start = i + (doc[i].lower_ == "the" and i + 1 in capital)
        end = _name_end(doc, start, taken, capital, kinds)
        if end is None:
            continue
        sentence = _sentence(doc, i)
        kinds = [nouns[k][0] for k in sentence if k in nouns and nouns[k][0] in named]
        domain = context.pick(kinds or named, guess=bool(kinds))
        if domain is None or (not kinds and domain != context.active):
            continue
        doubt = "one capitalised word proposed: a name, or a kind, day or place" if end - start == 1 else None
        out.append(Found(start, end, domain, "name", normalize(doc[start:end].text), doubt=doubt))
    out += _list_members(doc, found, taken, capital, named)
    return list({(f.start, f.end): f for f in out}.values())


#: Tokens that join the members of a list ("A, B and C", "A or B").
LIST_JOINS = frozenset({",", "and", "or"})


def _list_members(doc, found: list[Found], taken: set[int], capital: set[int], named: list[str]) -> list[Found]:  # type: ignore[no-untyped-def]
    """Capitalised names that stand as members of a list beside a KB name ("I have Acorn Guest
    House, Maple Crest Inn and Cityroomz"): a name of the neighbour's domain. Always with a doubt
    (for review): the member may be a variant of a KB name the lexicon does not know."""
    name_at_end = {f.end: f.domain for f in found if f.slot == "name" and f.domain in named}
    name_at_start = {f.start: f.domain for f in found if f.slot == "name" and f.domain in named}
    out = []
    for start in range(1, len(doc)):
        if start - 1 in capital and start - 1 not in taken:
            continue  # inside a capitalised run: not where a name starts
        end = _name_end(doc, start, taken, capital)
        if end is None:
            continue
        joins: list[str] = []
        domains: list[str] = []
        left = start  # walk the list leftwards: joins, then a KB name ending there
        while True:
            k = left - 1
            while k >= 0 and doc[k].lower_ in LIST_JOINS:
                k -= 1
            if k == left - 1 or k + 1 not in name_at_end:
                break
            joins += [t.lower_ for t in doc[k + 1 : left]]
            domains.append(name_at_end[k + 1])
            left = next(f.start for f in found if f.end == k + 1 and f.slot == "name")
        right = end  # and rightwards: joins, then a KB name starting there
        while True:
            k = right
            while k < len(doc) and doc[k].lower_ in LIST_JOINS:
                k += 1
            if k == right or k not in name_at_start:
                break
            joins += [t.lower_ for t in doc[right:k]]
            domains.append(name_at_start[k])
            right = next(f.end for f in found if f.start == k and f.slot == "name")
        # a list of names is closed by "and" / "or" ("A, B and C"); "Second, B is …" is no list
        domain = domains[0] if domains and ({"and", "or"} & set(joins)) else None
        if domain is not None:
            out.append(Found(start, end, domain, "name", normalize(doc[start:end].text),
                             doubt="a capitalised list member beside KB names: an unknown name, or a variant of one"))
    return out


def _sentence_starts(doc) -> list[int]:  # type: ignore[no-untyped-def]
    return [0] + [i + 1 for i in range(len(doc) - 1) if doc[i].text in SENTENCE_END]


def _sentence(doc, i: int) -> range:  # type: ignore[no-untyped-def]
    first = max([0] + [k + 1 for k in range(i) if doc[k].text in SENTENCE_END])
    last = next((k for k in range(i, len(doc)) if doc[k].text in SENTENCE_END), len(doc))
    return range(first, last)


def _name_end(doc, start: int, taken: set[int], capital: set[int], kinds: frozenset[int] = frozenset()) -> int | None:  # type: ignore[no-untyped-def]
    """The end of the name starting at token ``start`` (``capital``: the tokens written with a
    capital), or ``None`` if none starts there. ``kinds``: tokens of a found value that names no
    entity (a type, "Guest House"): written with a capital they go on a name ("Parkside Guest
    House"); any other found value the name runs into makes it a KB name written longer."""
    if start >= len(doc):
        return None
    head = doc[start]
    if head.lower_ == "the" and start + 1 in capital:
        head = doc[start + 1]
    if head.i not in capital or head.lower_ in NOT_NAMES or head.i in taken:
        return None
    end = head.i + 1
    while end < len(doc) and (end not in taken or (end in kinds and end in capital)):
        tok = doc[end]
        if end in capital and tok.lower_ not in NOT_NAMES - {"the"}:
            end += 1
        elif tok.lower_ in NAME_LINKS and end + 1 in capital and end + 1 not in taken:
            end += 1
        else:
            break
    if end < len(doc) and end in taken:
        return None  # runs into a KB value: a name the KB has, written longer
    return end


def _described_as(doc, end: int, nouns: dict[int, tuple[str, bool]], context: DomainContext, named: list[str]) -> str | None:  # type: ignore[no-untyped-def]
    """The domain of the noun in "<name> is a/an [words] <noun>" after the name ending at ``end``."""
    if end + 2 >= len(doc) or doc[end].lower_ != "is" or doc[end + 1].lower_ not in ("a", "an"):
        return None
    for k in range(end + 2, min(end + 3 + MAX_GAP, len(doc))):
        if k in nouns:
            domain, plural = nouns[k]
            if plural:
                return None
            if domain:
                return domain if domain in named else None
            return context.active if context.active in named else None
        if not doc[k].is_alpha:
            return None
    return None
