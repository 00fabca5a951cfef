"""The raw-text annotator: dialogue text + KB → dialogue acts with spans and a belief state (spec §5, §6, §9).

Raw text (an LLM's output; what the pytest plugin sees) has no acts, spans or belief state.
:func:`annotate` finds the variables by matching the KB's values and amount words against each
utterance, recovers what the user asked for across turns, and gives every variable the role the
constraint builder reads (:mod:`csp_check.build.builder`); it emits only the existing
:class:`~csp_check.models.DialogueAct` / ``Turn.state`` model.

Reading rules

**Values.** A spaCy blank English tokenizer and a ``PhraseMatcher(attr="LOWER")`` with one label
per (domain, column) of every KB table (and the dialogue's ``ontology``), each value also in the
normaliser's spellings (:data:`SPELLINGS`), in the wordings of :data:`PARAPHRASES` ("mid-range",
"centre of town", "boating", "swimming pool") and, for names and places, in variants that name one
entity only ("B&B" / "bed and breakfast", "&" / "and", "King's" / "Kings", "the Lensfield" for
"the lensfield hotel"); text spaced differently ("78 - 80 milton road") maps to its value.
Besides: star ratings ("4-star", "a star rating of 4"), yes/no amenities from their keywords
("free wifi", "no parking": :data:`FLAG_WORDS`) and trip times with a cue (:func:`~csp_check.annotate.finders.times`).
Names the KB lacks, in a system turn, by their sentence's shape
(:mod:`~csp_check.annotate.offered_names`): capitalised words before "is a/an … <domain noun>" at a
sentence's start ("Cityview Lodge is a nice guesthouse") or after "I recommend", "how about" ("How
about Bluebird Kitchen ?"; one word only: a guess), read as the domain's ``name`` (C5 then finds no
entity has it).
Not matched: the ``id`` column, single-valued columns, yes/no/free flags, bare numbers of up to four
digits, descriptions (columns whose median value is over five words), an area's word that begins a
street's name ("East Road", "North Street"), a kind or area word after an address word ("Cambridge
Business Park", "Regent Street City Centre"), a clock time naming a trip ("the 19:59 train"), a table's own noun as a
value (the user's "hotel" is the domain, not ``type=hotel``: see below), everyday names ("the
place"), text inside the service's name ("Cambridge TownInfo centre", "your visit to Cambridge").

**Domain and column.** The longest match wins. A value several tables share is of the noun
English syntax binds it to: the domain noun right after it ("a taxi from the hotel to a *cheap
restaurant*") or the subject of the copula before it ("the *restaurant* for us should be *cheap*",
"a restaurant which is cheap"). Else it takes its domain from the nouns of its sentence (not those
that are a reference point: "as the hotel"; a sentence naming none: the nearest earlier one's,
with none the active domain's — a later sentence's noun is no antecedent), then the utterance's
unambiguous values (not a word inside a longer value: "Bridge" in "32 Bridge Street"), then the
active domain (the one the dialogue is about). Places and days
(:data:`CONTEXT_COLUMNS`) count only when their domain is in context ("on my trip to Cambridge I
need a hotel" names no station); a day said elsewhere is remembered for "the same day". Departure
or destination: a cue before ("from", "leaving", "arriving in", "for") or "X to …" after, else the
place the request already has, else the one it lacks. Trip times: the nearest cue word decides
``leaveAt`` ("leave after 17:00") or ``arriveBy`` ("arrive by 18:30"); the user's are bounds in
the belief state (the builder keeps them out of equality filters); a system's time is a claim only
when it is the time of a trip ("TR0397 leaves at 15:17"), not a bound restated ("arrive by 13:45").

**Roles and the request.** User values are ``inform`` and update the belief state (entity names
excepted; naming an entity makes the request that entity's values). Not a request: a negated
value ("I don't want a guesthouse", "rather than the east"; "I'd rather travel on Tuesday" asks)
or a rejected one ("the east won't work for me"), one said in a clause about someone else's ("my
sister lives in the north"), one a later value of the slot corrects ("the east . Sorry , I meant
the north"), one offered as an alternative to the domain noun ("a hotel or guesthouse"), a ranking ("the most expensive one"), a cuisine qualified by a word no value
has ("South Indian", "Latin American"), or a word of a people's shape no value has in a turn
asking for a place to eat ("I haven't had eritrean in forever"; the request is then *unread*). "The same area / price
range as the hotel", "the same day" add an implicit inform (no span) with the value set before.
System turns: a name is an ``offer``, and so are the other values of a turn that names an entity;
values restating the search in a plain statement ("there are a few cheap restaurants in the
east") are ``confirm``; values about "it" / "their address" without a name get an implicit
``inform`` of the entity under discussion (the last one named), so they are checked against that
entity; a booking's one name is a ``confirm`` of the entity under discussion; negated values
("neither is a guesthouse") and values offered as choices ("north, south or centre?") are no claims.

**Guesses** (``DialogueAct.doubt``: a violation resting on one is for review, not certain): a
value right after a negation ("not expensive", "no international food"), a user's value among
alternatives not all read ("any park or historical building"), a loose word ("downtown", the
user's "entertainment"), a system value in a sentence that names no entity and points to none but
brings one in by an indefinite noun after a sentence that named one ("How about X ? There is also
a 2 star option ."), "the same area as the restaurant" when the restaurants named or asked
differ there, a user's area given by another place ("north of the centre", "between the centre and
the north") or a value that is one end of a range ("low to moderate") — these leave the column
unread, as a vague price word does (see **Amounts**) —, a no-result in a turn that reports a failed
booking ("booking was unsuccessful") or answers a booking request with what is not "available"
(a booking's failure, not a search's) (:func:`~csp_check.annotate.mentions.doubted`, :func:`~csp_check.annotate.belief.same_as_before`).
A later trip bound with the other bound's time replaces it ("at 10:45", then "arrive by 10:45").

**Amounts** (system turns): a number or number word followed within :data:`MAX_GAP` words by a
domain noun that agrees in number gives a ``count`` act, and so does a bare one after "there are" /
"I have" before a word of the search ("there are 7 in the centre", "I have 5 that match": the
domain of the search in force; not one ending its sentence, "we have 21 .", nor one of an unread request); one after a bound or hedge ("over 30",
"more than 10", "about 70") is a count with that comparison (:func:`csp_check.language.cues.amount_op`).
Not a count: an amount after other :data:`APPROXIMATE` words ("some 20", "maybe 3"), a rating ("4 star hotels"), "two other guesthouses", a denial ("no cheap 4
star hotels"), a frequency ("two trains an hour"), an amount a superlative earlier in its sentence
picks ("the closest arrival time I show is 1 train"), "one" without an existential ("One place I'd recommend"), a count right after the
user named an entity, and several counts of one domain in a turn (a breakdown one search cannot
express). A turn that counts carries the search its count is about as its ``state``: the user's
request plus the values of the count's sentence before any entity or other number. A column the
count's turn asks ("What day will you be travelling?", "a preference on price range?") is not in
that search (a count left with no search is left out). A request with a price word no value reads
("affordable", "on the cheaper side", "anything cheaper ?" — which also lifts the price range
asked before, even in its own turn) or a place given by what it is near ("near All Saints"; the
value after "near" is a reference point) leaves that column unread: counts and no-results of its
domain are left out until the user gives a value of the column. A trip time repeating the
request's bound in a sentence naming no trip is no claim. The user's
"hotel" may be the domain or the type: a count (or no-result) true only under the type gets the
type as an implicit value (the reading under which the text holds, as with missing DB fields).

**No result** (system turns): a negative cue (:data:`NEGATIVE_CUES`, "nothing", a negation before
"any" / "find" / "have") followed by a domain noun or a value, or ending its clause, makes its
sentence (up to "but" / "however"; with the sentence before when it refers back: "Korean food ? I
have nothing like that in the centre") a no-result statement (not praise: "nothing beats X"; a
negation negates "any" only in its own sentence): a value-less ``no_result`` act and its
values re-labelled ``no_result``; the user's request values it does not repeat join as implicit
no-result values ("no matching restaurants in the north"). "No other options" is none, and so is the denial of a thing of the booking or the price ("there is
no fee for X", "no tables available at X": :data:`DENIED_THINGS`); a denial in a
domain whose request is unread ("Hungarian food"), or naming a word no value has, is left out.
A system turn reporting no result that offers an entity offers an alternative: its state is what
it offers (not where the no-result is a guess, a booking's failure: the search stays the request).

Limits: nothing is invented that is not written or set before; a user's yes/no question about an
entity ("is it cheap?") is read as a request; several entities listed in one sentence are each
checked with the request alone; a count whose search the turn cannot express (a breakdown by
value, "the cheapest") gets no C6; pronouns other than "it" / "they" are not resolved; the
wording tables (:data:`PARAPHRASES`, :data:`DOMAIN_NOUNS`, :data:`MASKED_PHRASES`) are English and
MultiWOZ-shaped, and a KB with other columns gets only the generic rules.

The word lists and patterns named here (:data:`SPELLINGS`, :data:`PARAPHRASES`, :data:`FLAG_WORDS`,
…) live in :mod:`csp_check.annotate.lexicon`.

**Modules**, in the order a turn meets them:

- :mod:`~csp_check.annotate.dialogue`: :func:`annotate`, the turn loop;
- :mod:`~csp_check.annotate.annotator`: :class:`~csp_check.annotate.annotator.Annotator`, the
  matchers of one KB and the acts of one utterance (``acts_in_context``);
- :mod:`~csp_check.annotate.wordings`: which KB values are matched, in which wordings;
- :mod:`~csp_check.annotate.resolve`: the domain and column of a matched value;
- :mod:`~csp_check.annotate.finders`: flags, star ratings, train ids, trip times;
- :mod:`~csp_check.annotate.offered_names`: names the KB lacks, by their sentence's shape;
- :mod:`~csp_check.annotate.mentions`: found values, the filters that drop them, their acts;
- :mod:`~csp_check.annotate.amounts`: counts and the search a count is about;
- :mod:`~csp_check.annotate.no_result`: no-result statements;
- :mod:`~csp_check.annotate.belief`: user turns and the belief state;
- :mod:`~csp_check.annotate.system_turn`: system turns (offers, confirms, bookings, the entity
  under discussion);
- :mod:`~csp_check.annotate.memory`: what is carried from turn to turn;
- :mod:`~csp_check.annotate.lexicon` (data) and :mod:`~csp_check.language.tokenizer` (spaCy).
"""

from csp_check.annotate.dialogue import annotate

__all__ = ["annotate"]
