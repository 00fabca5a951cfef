"""Reading the assignment: what the dialogue's text says at each variable's span (spec §1).

The annotations give the structure; the *text* gives the assignment. A span's text is mapped
to a canonical value through the dialogue's :class:`Lexicon`: every surface form the
dialogue's own annotations pair with a canonical value (SGD ``values`` / ``canonical_values``,
belief-state alternatives), plus KB and ontology values. Text the lexicon does not know is
taken as written (normalised), so a relexicalized value is read as itself. Which columns name
entities, addresses and kinds is the dialogue's corpus profile's (:attr:`Lexicon.profile`).

Reading rules

- **Structure versus assignment.** Annotations (acts, spans, belief state, service calls) give
  the structure: which spans are variables, their slot types, which ones corefer, which ones a
  count is about. The assignment is read from the text at each span: a known surface form of the
  dialogue (SGD ``values`` / ``canonical_values``, belief-state alternatives, KB and ontology
  values) maps to its canonical value; any other text is taken as written. So a relexicalized
  text that drifted from its annotation is caught. SGD value alternatives
  (``state.slot_values`` lists) are surface forms of one value.
- **The KB's spelling** (MultiWOZ with a ``--kb`` DB, spec §9): the text, the acts, the state
  and the DB meet on the DB's spelling: the lexicon keys every KB value by its wording key
  (:func:`csp_check.language.normalize.wording_key`), so a wording of a KB value takes the KB's
  spelling (:meth:`Lexicon.resolve`).
- **Names and addresses** by their distinguishing words: "The Meze Bar Restaurant" = "meze
  bar", "the Gonville" = "gonville hotel", one typo allowed ("huntington marriott"). A misspelt
  name of 5+ letters within 1 edit (2 when both have 7+ letters and the longer 8+) of exactly one
  DB name of any table, with its first letter, is that entity ("The Gardina" = "gardenia":
  :func:`misspelt_name`); an exact DB name is always itself, so a name swapped for another
  entity's stays that entity. A short form several entities share ("pizza hut") names none, and
  "pizza hut fen ditton" never matches "pizza express fen ditton". An address followed by its
  postcode is the address (:func:`split_postcode`).
- **Ticket prices**: a price its sentence gives as the party's total ("50.50 pounds total for 5
  people", "66 GBP for four tickets", "the total fee is 70.7 GBP" with 7 in the state), or one no
  train costs whose share of the party's tickets is a DB price, is read per ticket (50.50 / 5 =
  10.10); a total that does not split into whole-penny tickets is read per ticket only at a DB
  price within a penny of it (75.59 for 2 at 37.80, the booking tool's float arithmetic; 75.80
  stays as said) (:func:`ticket_price`).
- **A clock's period after its span**: a time whose span stops before its "pm" / "a.m." / "in the
  evening" ("after [3:45] PM") is read with it (15:45): the period is part of the time the text says
  (:func:`with_period`).
- **Today**: a relative day ("tomorrow", "this Monday") is read from the dialogue's today: its
  own relative date acts, else SGD's Friday 2019-03-01 (:func:`dialogue_today`); "next Tuesday"
  with no known today claims nothing.
"""

from __future__ import annotations

import re
from collections import Counter, defaultdict
from datetime import date, timedelta
from functools import lru_cache

from csp_check.corpora import DEFAULT, CorpusProfile, profile_for
from csp_check.corpora.shared import ENTITY_TEXT_COLUMNS
from csp_check.language.cues import AMENITIES, BOOLEAN, bound_number, read_boolean, sentence_of
from csp_check.language.dates import resolve_dates
from csp_check.language.lexicon import BARE_AMOUNT, EACH, EDGE_POSTCODE, ISO_DATE, SCALE_NOUN_AFTER, TOTAL
from csp_check.language.negated_units import negated_amount
from csp_check.language.normalize import (
    clock_slot,
    comparative,
    contains_words,
    date_key,
    edit_distance,
    money,
    name_words,
    normalize,
    one_typo,
    parse_amount,
    refers,
    same_clock,
    vague_amount,
    wording_key,
)
from csp_check.language.roles import partners
from csp_check.models import Dialogue, KbTable, KnowledgeBase, Value, Variable, VariableKind

#: ``(id(table), column)`` → (table, wording key → KB values, [(name words, value)]).
_KB_INDEX: dict[tuple[int, str], tuple[KbTable, dict[str, set[str]], list[tuple[frozenset[str], str]]]] = {}
#: ``id(kb)`` → (kb, the wording keys of every name of every table): :func:`misspelt_name`'s "any other name".
_EVERY_NAME: dict[int, tuple[KnowledgeBase | None, set[str]]] = {}
#: ``(id(kb), id(profile))`` → (kb, profile, (slot type, surface) → :meth:`Lexicon.resolve`'s
#: answer): a run resolves the same wordings against the same KB dialogue after dialogue (the
#: KB is read-only once checked against, as :func:`kb_index` takes it). Emptied past
#: :data:`_RESOLVED_MAX` answers, so memory stays flat over a corpus.
_RESOLVED: dict[tuple[int, int], tuple[KnowledgeBase, CorpusProfile, dict[tuple[str, str], str | None]]] = {}
_RESOLVED_MAX = 1 << 17


def kb_index(table: KbTable, column: str) -> tuple[dict[str, set[str]], list[tuple[frozenset[str], str]]]:
    """The values of one KB column by wording key (:func:`csp_check.language.normalize.wording_key`), and
    for name / address columns (any corpus's, :data:`~csp_check.corpora.shared.ENTITY_TEXT_COLUMNS`:
    a table is indexed without its dialogue) each value's distinguishing words; built once per table."""
    cached = _KB_INDEX.get((id(table), column))
    if cached is not None and cached[0] is table:
        return cached[1], cached[2]
    keys: dict[str, set[str]] = defaultdict(set)
    words: list[tuple[frozenset[str], str]] = []
    for value in sorted({e[column] for e in table.normalized() if column in e}):
        keys[wording_key(column, value)].add(value)
        if column in ENTITY_TEXT_COLUMNS:
            words.append((name_words(value), value))
    _KB_INDEX[(id(table), column)] = (table, dict(keys), words)
    return dict(keys), words


def misspelt_name(key: str, names: dict[str, set[str]], every_name: set[str]) -> str | None:
    """The one DB name a text name's wording key ``key`` is a misspelling of, else ``None``
    (spec §9, MultiWOZ wording: "the Gardina" for "the gardenia").

    Conservative: ``key`` is no DB name of any table (``every_name``: every name column's wording
    keys; an exact name, such as another entity swapped in, is that entity); it has 5+ letters;
    exactly one name of the domain (``names``: wording key → values) and no other name of any
    table lies within the threshold — 1 edit, or 2 when both have 7+ letters and the edits are at
    most a quarter of the longer; and that name starts with the same letter."""
    if key in every_name or sum(c.isalpha() for c in key) < 5:
        return None

    def limit(other: str) -> int:
        return 2 if min(len(key), len(other)) >= 7 and 2 * 4 <= max(len(key), len(other)) else 1

    near = [k for k in every_name if edit_distance(key, k, limit(k)) <= limit(k)]
    if len(near) != 1 or near[0] not in names or near[0][:1] != key[:1] or len(names[near[0]]) != 1:
        return None
    return next(iter(names[near[0]]))


def _fuzzy_subset(mine: frozenset[str], theirs: frozenset[str], loose: bool = False) -> bool:
    """Each of ``mine`` is one of ``theirs`` or, for words of 5+ letters, one typo away or cut
    short ("hunting" for "huntingdon"); a word with a digit (a house number, "50210" for
    "40210") is another number, never a typo. ``loose`` (addresses, :func:`_near_word`): a
    long word may also be two edits away ("hincibrook" for "hinchinbrook")."""
    return bool(mine) and all(
        w in theirs or (len(w) >= 5 and w.isalpha() and any(
            len(x) >= 5 and (one_typo(w, x) or x.startswith(w) or (loose and _near_word(w, x))) for x in theirs))
        for w in mine
    )


def _near_word(word: str, other: str) -> bool:
    """Whether two words of 7+ letters are at most two edits apart, the edits at most a quarter
    of the longer, and start with the same letter ("hincibrook" / "hinchinbrook"; the limit
    :func:`misspelt_name` puts on a whole name)."""
    return (min(len(word), len(other)) >= 7 and word[0] == other[0] and 2 * 4 <= max(len(word), len(other))
            and edit_distance(word, other, 2) <= 2)


def split_postcode(text: str) -> tuple[str, str | None]:
    """(the address words of ``text``, the UK postcode written before or after them, else
    ``None``): ``"5 jordans yard bridge street city center cb21ug"`` → (``"5 jordans yard
    bridge street city center"``, ``"cb21ug"``). Text that is a postcode alone is no address
    with one: (``text``, ``None``)."""
    t = normalize(text)
    m = EDGE_POSTCODE.match(t)
    if not m:
        return t, None
    rest = (m["rest_l"] if m["lead"] else m["rest_t"]).strip(" ,.")
    return (rest, m["lead"] or m["trail"]) if rest else (t, None)


class Lexicon:
    """Slot type → normalised surface form → canonical values it may stand for.

    With a KB attached (:meth:`attach`), canonical values are the KB's own spelling wherever a
    wording of them names one KB value (:meth:`resolve`), so the text, the annotation, the
    belief state and the KB meet on one value (spec §9, MultiWOZ wording). ``profile``: the
    corpus profile whose columns name entities, addresses and kinds (the default profile
    without one)."""

    def __init__(self, profile: CorpusProfile | None = None) -> None:
        self.forms: dict[str, dict[str, set[str]]] = defaultdict(lambda: defaultdict(set))
        self.kb: KnowledgeBase | None = None
        #: The corpus profile of the dialogue (:func:`~csp_check.corpora.profile_for`).
        self.profile: CorpusProfile = profile or DEFAULT
        #: The dialogue's "today" (:func:`dialogue_today`), against which "tomorrow" / "this
        #: Friday" in its text are read; ``None``: unknown (such words then claim no day).
        self.today: date | None = None

    def attach(self, kb: KnowledgeBase | None) -> Lexicon:
        """Resolve values against ``kb``'s tables (by domain) from now on; returns ``self``.
        Forms already added are re-canonicalised."""
        self.kb = kb
        if kb is not None:
            for slot_type, table in self.forms.items():
                for surface, values in table.items():
                    table[surface] = {self.resolve(slot_type, v) or v for v in values}
        return self

    def add(self, slot_type: str, surface: str, canonical: str) -> None:
        resolved = self.resolve(slot_type, canonical) if self.kb is not None else None  # no KB: none to resolve
        self.forms[slot_type][normalize(surface)].add(resolved or canonical)

    def resolve(self, slot_type: str, surface: str) -> str | None:
        """The one KB value of ``slot_type`` that ``surface`` is a wording of, else ``None``:
        equal wording keys ("museums" → "museum", "centre of town" → "center"), or for names and
        addresses the same distinguishing words, else the one value whose words contain (or are
        contained in) the text's ("The Meze Bar Restaurant" → "meze bar"; "the Gonville" →
        "gonville hotel"; "pizza hut fen ditton" never → "pizza express fen ditton")."""
        kb = self.kb
        if kb is None or "." not in slot_type:
            return None
        memo = _RESOLVED.get((id(kb), id(self.profile)))
        if memo is None or memo[0] is not kb or memo[1] is not self.profile:
            if sum(len(m[2]) for m in _RESOLVED.values()) > _RESOLVED_MAX:
                _RESOLVED.clear()
            memo = _RESOLVED[(id(kb), id(self.profile))] = (kb, self.profile, {})
        answers = memo[2]
        key = (slot_type, surface)
        if key not in answers:
            if len(answers) > _RESOLVED_MAX:
                answers.clear()
            answers[key] = self._resolve(slot_type, surface)
        return answers[key]

    def _resolve(self, slot_type: str, surface: str) -> str | None:
        """:meth:`resolve`, computed."""
        domain, column = slot_type.split(".", 1)
        table = self.kb.tables.get(domain) if self.kb is not None else None
        if table is None:
            return None
        p = self.profile
        if column == p.address_column:  # "5 Jordans Yard Bridge Street City Centre cb21ug": the address, then its postcode
            rest, code = split_postcode(surface)
            if code is not None:
                found = self.resolve(slot_type, rest)
                codes = {wording_key(p.postcode_column, e.get(p.postcode_column) or "") for e in table.normalized()
                         if e.get(p.address_column) == found}
                return found if found is not None and wording_key(p.postcode_column, code) in codes else None
        keys, words = kb_index(table, column)
        key = wording_key(column, surface)
        found = keys.get(key)
        if found and len(found) == 1:
            return next(iter(found))
        if not found and len(key) >= 7 and sum(c.isalpha() for c in key) >= 6:  # a misspelt word ("petersborough")
            digits = "".join(c for c in key if c.isdigit())  # numbers must agree ("22 signey street")
            near = {v for k, vs in keys.items() if one_typo(k, key) and "".join(c for c in k if c.isdigit()) == digits
                    for v in vs}
            if len(near) == 1:
                return next(iter(near))
        if column not in p.entity_text_columns:
            return "dontcare" if wording_key(column, surface) == "dontcare" else None
        mine = name_words(surface)
        if not mine:
            return None
        for test in (lambda w: w == mine, lambda w: mine < w, lambda w: w < mine and len(w) >= 1,
                     lambda w: _fuzzy_subset(mine, w)):  # a misspelt word ("huntington marriott")
            hits = {value for w, value in words if test(w)}
            if len(hits) == 1:
                return next(iter(hits))
            if hits:
                return None
        if column == p.address_column and not self._an_address_elsewhere(mine):  # "Hincibrook buisness park"
            hits = {value for w, value in words if _fuzzy_subset(mine, w, loose=True)}
            if len(hits) == 1:
                return next(iter(hits))
        if column == p.name_column:  # a misspelt name ("the gardina"): the one DB name it is close to
            return misspelt_name(key, keys, self._every_name()) or self._one_word_replaced(mine, words)
        return None

    def _one_word_replaced(self, mine: frozenset[str], words: list[tuple[frozenset[str], str]]) -> str | None:
        """The one DB name (of ``words``: a table's name words and names) that the name words
        ``mine`` (no DB name's) give with one of three or more distinguishing words replaced
        ("Cherry Hinton Water Park" for "cherry hinton water play"), else ``None``: the same
        number of words, all but one shared, and no other name of any table of the attached KB
        shares as many (spec §9: name variants of one DB entity are matched to that entity and
        no other). A list of two names ("Graffiti and Travellers Rest") has more words than
        either."""
        if len(mine) < 3:
            return None
        hits = {value for w, value in words if len(w) == len(mine) and len(w & mine) == len(mine) - 1}
        if len(hits) != 1:
            return None
        near = sum(len(w & mine) >= len(mine) - 1 for table in (self.kb.tables.values() if self.kb else ())
                   for w, _ in kb_index(table, self.profile.name_column)[1])
        return next(iter(hits)) if near == 1 else None

    def _an_address_elsewhere(self, mine: frozenset[str]) -> bool:
        """Whether the address words ``mine`` are (a part of) the words of an address of any
        table of the attached KB: such text is that address, never a misspelling of another."""
        for table in self.kb.tables.values() if self.kb else ():
            if any(mine <= w for w, _ in kb_index(table, self.profile.address_column)[1]):
                return True
        return False

    def _every_name(self) -> set[str]:
        """The wording keys of every name of every table of the attached KB (computed once per KB)."""
        kb = self.kb
        cached = _EVERY_NAME.get(id(kb))
        if cached is None or cached[0] is not kb:
            names: set[str] = set()
            for table in kb.tables.values() if kb else ():
                names.update(kb_index(table, self.profile.name_column)[0])
            cached = _EVERY_NAME[id(kb)] = (kb, names)
        return cached[1]

    def canon(self, slot_type: str, surface: str) -> str:
        """The canonical value ``surface`` stands for: its one known form, else its KB value
        (:meth:`resolve`), else the surface normalised."""
        known = self.lookup(slot_type, surface)
        if len(known) == 1:
            return next(iter(known))
        return self.resolve(slot_type, surface) or normalize(surface)

    def variant_of(self, slot_type: str, text: str, value: str) -> bool:
        """Whether ``text`` is a wording of ``value`` (spec §9): the same wording key or clock
        time; and for a domain of the attached ``--kb`` (MultiWOZ): ``value`` written inside a
        longer phrase ("south part of town", "more moderate"); a part of a name or address with
        the value's own words; a hypernym ("hotel" for a guesthouse); or words that refer back
        to a value ("same area", "that day"). Text that is another DB value of the column
        ("modern european" for "european") is that value, not a longer wording of this one."""
        domain, _, column = slot_type.partition(".")
        p = self.profile
        if value == "dontcare":
            return wording_key(column, text) == "dontcare"
        if column not in p.entity_text_columns and comparative(text) and not comparative(value):
            return False  # "cheaper" is an order, not a wording of "cheap" (normalize.comparative)
        if wording_key(column, text) == wording_key(column, value) or same_clock(text, value):
            return True
        if self.kb is None or domain not in self.kb.tables:
            return False  # the looser readings below are MultiWOZ's wording, against its DB (spec §9)
        if refers(text):
            return True
        if column == p.kind_column and p.hypernyms.get(wording_key(column, text)) == value:
            return True  # "hotel" said of a guesthouse
        if column not in p.entity_text_columns and self.resolve(slot_type, text) not in (None, value, "dontcare"):
            return False  # the text is another DB value: "modern european" is not "european"
        if column == p.address_column and split_postcode(text)[1] is not None:
            return self.resolve(slot_type, text) == value  # the postcode written with it must be the address's
        if contains_words(text, value):
            return True
        t, v = normalize(text), normalize(value)
        if len(v) >= 4 and t.startswith(v) and t[len(v):].isalpha() and len(t) - len(v) <= 4:
            return True  # a word glued on in tokenised text ("12:15on")
        if column in p.entity_text_columns:
            mine, theirs = name_words(text), name_words(value)
            return bool(mine) and bool(theirs) and (mine <= theirs or theirs <= mine)
        return False

    def lookup(self, slot_type: str, surface: str) -> set[str]:
        table = self.forms.get(slot_type)
        return table.get(normalize(surface), set()) if table else set()

    @classmethod
    def of(cls, dialogue: Dialogue) -> Lexicon:
        """The lexicon of one dialogue: its act values, belief-state alternatives and ontology,
        with the dialogue's corpus profile (:func:`~csp_check.corpora.profile_for`)."""
        lex = cls(profile_for(dialogue))
        lex.today = dialogue_today(dialogue)
        for turn in dialogue.turns:
            for act in turn.acts:
                if act.value is not None and act.slot:
                    canonical = normalize(act.canonical if act.canonical is not None else act.value)
                    lex.add(f"{act.domain}.{act.slot}", act.value, canonical)
                    lex.add(f"{act.domain}.{act.slot}", canonical, canonical)
        # A state repeats the slots in force turn after turn; forms only gain values here, so
        # alternatives whose known canonicals were once one or more add nothing when met again.
        settled: set[tuple[str, tuple[str, ...]]] = set()
        for turn in dialogue.turns:  # alternatives name one value: link them to a known canonical
            for domain, slots in turn.state.items():
                for slot, alternatives in slots.items():
                    slot_type = f"{domain}.{slot}"
                    seen = (slot_type, tuple(alternatives))
                    if seen in settled:
                        continue
                    known = set().union(*(lex.lookup(slot_type, a) for a in alternatives)) if alternatives else set()
                    if known:
                        settled.add(seen)
                    if len(known) == 1:
                        for alternative in alternatives:
                            lex.add(slot_type, alternative, next(iter(known)))
        for slot_type, values in dialogue.ontology.items():
            for value in values:
                lex.add(slot_type, value, normalize(value))
        return lex


def read_value(var: Variable, lexicon: Lexicon) -> Value:
    """The value ``var``'s text says: its annotated value when implicit, when the text is one
    of that value's known forms or a wording of it (:meth:`Lexicon.variant_of`), else the value
    the text names (a known form, a KB value it is a wording of) or the text itself."""
    if var.text is None:
        return var.value
    if var.kind is VariableKind.AMOUNT:
        if vague_amount(var.text):
            return var.value  # "several trains", "a couple of options": no exact count claimed
        amount = parse_amount(var.text)
        if amount is None:  # "over 70": the number of a bound (Variable.amount_op)
            amount = parse_amount(bound_number(var.text))
        return amount if amount is not None else normalize(var.text)
    if var.slot in AMENITIES and var.speaker == "system" and var.value in ("yes", "no") and AMENITIES[var.slot].search(
            var.text.lower()):  # "free wifi" / "no parking" (cues.amenity_span): the text says yes or no
        return "no" if read_boolean(var.text) == "false" else var.value  # the words' negation, else as found
    area = lexicon.profile.area_column
    if var.slot == area and wording_key(area, var.text) == "dontcare":
        return "dontcare"  # "in all of cambridge", "anywhere in town": no area filter (lexicon.WHOLE_CITY)
    if isinstance(var.value, str) and var.value.isdigit() and negated_amount(var.text, var.slot) == 0:
        return "0"  # "no layovers", "non-stop" (csp_check.language.negated_units)
    if (isinstance(var.value, str) and (var.value.isdigit() or var.slot in lexicon.profile.number_slots
                                        and parse_amount(var.value) is not None) and not normalize(var.text).isdigit()
            and (number := parse_amount(var.text)) is not None):
        return str(number)  # a numeric slot's value written as a word: "for four" = 4 (annotated "4" or "four")
    if var.value in BOOLEAN and not lexicon.lookup(var.slot_type, var.text):
        return read_boolean(var.text)  # "not free" → false (csp_check.language.cues)
    candidates = lexicon.lookup(var.slot_type, var.text)
    for other in partners(var.slot) if not candidates else []:  # a span its role words moved ("from
        candidates = lexicon.lookup(f"{var.domain}.{other}", var.text)  # Chi-town" annotated destination)
        if candidates:
            break
    if var.value in candidates or normalize(var.text) == var.value:
        return var.value
    if isinstance(var.value, str) and lexicon.variant_of(var.slot_type, var.text, var.value):
        return var.value
    if candidates:
        return min(candidates)
    if isinstance(var.value, str) and ISO_DATE.fullmatch(var.value):
        key = date_key(var.text, int(var.value[5:7]))  # "the 9th of March" for 2019-03-09; "next Tuesday" with no today known
        if key == "relative":  # "tomorrow", "this Friday": the day it names from the dialogue's today
            named = resolve_dates(var.text, lexicon.today) if lexicon.today is not None else []
            return named[0].isoformat() if len(named) == 1 else var.value  # no today known: no claim
        if key is not None:
            return var.value if key == var.value[5:] else f"{var.value[:4]}-{key}"
    return lexicon.resolve(var.slot_type, var.text) or normalize(var.text)


@lru_cache(maxsize=4096)
def _said_on(words: str, day: date) -> frozenset[date]:
    """The days within two weeks before ``day`` on which ``words`` ("tomorrow") name ``day``."""
    return frozenset(day - timedelta(days=k) for k in range(14) if resolve_dates(words, day - timedelta(days=k)) == [day])


def dialogue_today(dialogue: Dialogue) -> date | None:
    """The day a dialogue takes as "today", from its own annotation: each act whose surface
    value is a day said relatively ("tomorrow", "this Friday", "next Tuesday") and whose
    canonical value is an ISO date gives the days it could have been said on (within the two
    weeks before that date, :func:`csp_check.language.dates.resolve_dates`); the day most of them
    allow, if one leads alone. A dialogue whose profile fixes a today
    (:attr:`~csp_check.corpora.CorpusProfile.today`) without such an act (or where that today
    ties for the lead) takes it: SGD's Friday 2019-03-01
    (:data:`csp_check.language.dates.SGD_TODAY`: all 3,235 relative dates of the shared dev +
    train read so). ``None`` when nothing anchors it (spec §9: a relative day is then no claim)."""
    votes: Counter[date] = Counter()
    for turn in dialogue.turns:
        for act in turn.acts:
            canonical = act.canonical or ""
            if not act.value or not ISO_DATE.fullmatch(canonical) or date_key(act.value) != "relative":
                continue
            try:
                day = date.fromisoformat(canonical)
            except ValueError:
                continue
            votes.update(_said_on(normalize(act.value), day))
    ranked = votes.most_common(2)
    if ranked and (len(ranked) == 1 or ranked[0][1] > ranked[1][1]):
        return ranked[0][0]
    today = profile_for(dialogue).today
    if today is not None and (not ranked or votes[today] == ranked[0][1]):
        return today  # none, or a tie the corpus's today is in ("this Friday" alone allows a week)
    return None


def read_assignment(variables: list[Variable], lexicon: Lexicon, dialogue: Dialogue | None = None) -> dict[str, Value]:
    """Variable name → value read from the text, for every variable. With ``dialogue`` (the one
    the variables come from), a price its text gives as the party's total is read per ticket
    (:func:`ticket_price`; the fare column is the lexicon's profile's)."""
    out: dict[str, Value] = {}
    fare = lexicon.profile.fare_column
    for v in variables:
        value = read_value(with_scale_noun(with_period(v, dialogue), dialogue), lexicon)
        if dialogue is not None and v.slot == fare and v.span is not None and isinstance(value, str):
            value = ticket_price(v, value, dialogue.turns[v.turn].utterance, party_size(v, dialogue, variables), lexicon)
        out[v.name] = value
    return out


#: A clock's period word right after a span that stops before it ("3:45| PM").
PERIOD_AFTER = re.compile(r"^\s*(a\.\s?m\.|p\.\s?m\.|am|pm|in the (?:morning|afternoon|evening))\b", re.I)


def with_scale_noun(var: Variable, dialogue: Dialogue | None) -> Variable:
    """``var``, or — when its span is a comparative of a price word the text goes on with the
    scale's noun ("on the [cheaper] side", "in the [more expensive] price range") — a copy whose
    text includes the noun: the words name an end of the scale (normalize.wording_key)."""
    if dialogue is None or var.span is None or not var.text or var.slot != "pricerange" or not comparative(var.text):
        return var
    m = SCALE_NOUN_AFTER.match(dialogue.turns[var.turn].utterance[var.span.end :])
    return var.model_copy(update={"text": var.text + m.group(0)}) if m else var


def with_period(var: Variable, dialogue: Dialogue | None) -> Variable:
    """``var``, or — when its span is a clock time without its period and the text goes on with it
    ("after [3:45] PM") — a copy whose text includes the period (module doc)."""
    if dialogue is None or var.span is None or not var.text or not clock_slot(var.slot):
        return var
    if re.search(r"\b(am|pm|a\.m\.|p\.m\.|morning|afternoon|evening|night|noon|midnight)\b", var.text, re.I):
        return var  # "evening 5:45": the span has its period already
    m = PERIOD_AFTER.match(dialogue.turns[var.turn].utterance[var.span.end :])
    return var.model_copy(update={"text": var.text + m.group(0)}) if m else var


def party_size(var: Variable, dialogue: Dialogue, variables: list[Variable]) -> int | None:
    """How many people ``var``'s turn books or asks for in ``var``'s domain: "for 5 people" in
    the sentence of its span (:data:`~csp_check.language.lexicon.TOTAL`), else a party size
    annotated in that turn ("for four tickets": ``book people`` / ``people``, the profile's
    :attr:`~csp_check.corpora.CorpusProfile.party_slots`), else the belief state's ``book
    people`` at that turn or the turn before; ``None`` when none is known."""
    party = profile_for(dialogue).party_slots
    utterance = dialogue.turns[var.turn].utterance
    start, end = sentence_of(utterance, var.span) if var.span is not None else (0, len(utterance))
    for m in TOTAL.finditer(utterance[start:end]):
        if m["n"] and (n := parse_amount(m["n"])):
            return n
    for v in variables:
        if v.turn == var.turn and v.domain == var.domain and v.slot in party:
            if (n := parse_amount(str(v.value))):
                return n
    for index in (var.turn, var.turn - 1):
        if 0 <= index < len(dialogue.turns):
            held = dialogue.turns[index].state.get(var.domain, {})
            said = next((held[slot] for slot in party if held.get(slot)), [])
            if len(said) == 1 and (n := parse_amount(said[0])):
                return n
    return None


def ticket_price(var: Variable, said: str, utterance: str, party: int | None, lexicon: Lexicon) -> str:
    """The price per ticket that a price ``said`` at ``var``'s span stands for (spec §9, text is
    the truth; MultiWOZ's wizards often give the party's total, "The cost would be 50.50 pounds
    total for 5 people"): ``said`` / ``party`` when it is a total — its sentence says so
    (:data:`~csp_check.language.lexicon.TOTAL`, not "each" / "per person" after it), or, with no such words, ``said`` is no
    price of the domain's KB table while ``said`` / ``party`` is. Else ``said`` itself, and
    always when the domain has no table in the ``--kb`` (MultiWOZ's wording, read against its
    DB). A total that does not split into ``party`` whole-penny tickets is read per ticket only
    at a KB price within a penny of it (75.59 for 2 at 37.80: the booking tool's float
    arithmetic); else it stays as said (75.80 for 2 is a wrong total, not a price per ticket)."""
    table = lexicon.kb.tables.get(var.domain) if lexicon.kb is not None else None
    pence = _pence(said)
    if (table is None or not party or party < 2 or pence is None or var.span is None
            or EACH.match(utterance, var.span.end)):
        return said
    prices = kb_index(table, var.slot)[0]
    if pence % party:  # a share within a penny of the total, at a price some row has
        near = [f"{share / 100:.2f} pounds" for share in (pence // party, pence // party + 1)
                if abs(share * party - pence) <= 1]
        near = [each for each in near if wording_key(var.slot, each) in prices]
        if len(near) != 1:
            return said
        each = near[0]
    else:
        each = f"{pence // party / 100:.2f} pounds"
    start, end = sentence_of(utterance, var.span)
    if any(not m["n"] or parse_amount(m["n"]) for m in TOTAL.finditer(utterance[start:end])):
        return each
    return each if wording_key(var.slot, said) not in prices and wording_key(var.slot, each) in prices else said


def share_of(said: Value, total: Value) -> bool:
    """Whether price ``said`` is ``total`` split into 2 or more equal tickets (both amounts of
    money, "10.10 pounds" of "50.50 pounds", to within a penny: "37.80 pounds" of "75.59 GBP"): the
    per-ticket reading :func:`ticket_price` gives a total."""
    each, whole = _pence(said), _pence(total)
    return (each is not None and whole is not None and 0 < each < whole
            and abs(round(whole / each) * each - whole) <= 1)


def _pence(price: Value) -> int | None:
    """An amount of money ("50.50 pounds", "£50.5", a bare "50.50") in pence, else ``None``."""
    if not isinstance(price, str):
        return None
    pounds = money(price) or (price if BARE_AMOUNT.fullmatch(price) else None)
    return round(float(pounds.split()[0]) * 100) if pounds else None
