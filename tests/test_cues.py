"""Words located by their form (csp_check.language.cues) and read from the text (spec §9)."""

from __future__ import annotations

import pytest

from csp_check.language.cues import boolean_span, count_spans, measure_spans, read_boolean
from csp_check.models import Span
from csp_check.readers.sgd import align_spans


def _texts(utterance, spans):
    return [utterance[s.start : s.end] for s in spans]


@pytest.mark.parametrize(
    ("utterance", "counts"),
    [
        ("I found 12 hotels that suit you.", ["12"]),
        ("There are five options for you.", ["five"]),
        ("I have 4 for you.", ["4"]),
        ("There are over 70 results.", ["70"]),
        ("The first three out of 10 movies I found are Dogman, Hackers and High Life.", ["10"]),
        ("Sure, one moment. I have located 3 restaurants.", ["3"]),
        ("A table for 2 at 7 pm costs $30; it has 4 stars and 0 layovers.", []),
        ("One of them is Basta at 1,000 Main Street, released in 2015.", []),
        ("I found it on 4 days. There's one today.", ["4"]),
        ("I found half a dozen hotels for you.", ["half a dozen"]),
    ],
)
def test_numbers_that_count_entities(utterance, counts):
    assert _texts(utterance, count_spans(utterance)) == counts


def test_wordings_of_one_value_compare_equal():
    """Rewordings an LLM makes that name the same value (found by an adversarial run): "half a
    dozen" is 6, not the 12 of "a dozen"; "noon" / "midnight" are clock times; "reasonably
    priced" is MultiWOZ's moderate price range."""
    from csp_check.language.normalize import clock_time, parse_amount, wording_key

    assert parse_amount("half a dozen") == 6 and parse_amount("a dozen") == 12
    assert [clock_time(t) for t in ("noon", "at noon", "12 noon", "midday", "midnight")] == [
        "12:00", "12:00", "12:00", "12:00", "00:00"]
    assert clock_time("noon pm") is None
    assert wording_key("pricerange", "reasonably priced") == wording_key("pricerange", "moderate")


def test_a_number_inside_another_variable_is_no_count():
    utterance = "I found 3 flights leaving at 10:35 am."
    assert _texts(utterance, count_spans(utterance, avoid=[Span(start=8, end=9)])) == []


@pytest.mark.parametrize(
    ("utterance", "slot", "words", "value"),
    [
        ("This museum is free to visit.", "free_entry", "free", "true"),
        ("It is not free, I'm afraid.", "free_entry", "not free", "false"),
        ("There is no live music there.", "has_live_music", "no live music", "false"),
        ("The apartment comes unfurnished.", "furnished", "unfurnished", "false"),
        ("Pets are not allowed at this hotel.", "pets_allowed", "Pets are not", "false"),
        ("No, the ticket is non refundable.", "refundable", "non refundable", "false"),
        ("They do not have live music or serve alcohol.", "serves_alcohol", "not have live music or serve alcohol", "false"),
        ("No live music, sorry.", "has_live_music", "No live music", "false"),
        ("It is a red-eye flight.", "is_redeye", "red-eye", "true"),
    ],
)
def test_boolean_words_and_their_negation(utterance, slot, words, value):
    span = boolean_span(utterance, slot)
    assert span is not None and utterance[span.start : span.end] == words
    assert read_boolean(words) == value


@pytest.mark.parametrize(
    ("utterance", "slot"),
    [("I don't mind a shared ride.", "shared_ride"), ("A shared ride or not, either is fine.", "shared_ride"),
     ("Where is it?", "free_entry")],
)
def test_no_boolean_stated(utterance, slot):
    assert boolean_span(utterance, slot) is None


@pytest.mark.parametrize(
    ("utterance", "slot", "description", "numbers"),
    [
        ("It has 0 layovers and costs $184.", "number_stops", "Number of stops in the itinerary", ["0"]),
        ("Can you book a table for 2 at 7 pm?", "party_size", "Party size for a reservation", ["2"]),
        ("Instead of two tickets I want 3 tickets.", "number_of_tickets", "", ["3"]),
        ("There's 1 of us.", "number_of_riders", "Number of riders to call taxi for", ["1"]),
        ("It has 2 bedrooms and 1 bath.", "number_of_baths", "Number of baths in the apartment", ["1"]),
        ("Book me one table at 6 pm.", "party_size", "", []),
    ],
)
def test_numbers_of_units(utterance, slot, description, numbers):
    assert _texts(utterance, measure_spans(utterance, slot, description=description)) == numbers


def test_act_values_align_with_their_spans_in_order():
    utterance = "How about Dogman, Dogman or High Life?"
    spans = [Span(start=10, end=16), Span(start=18, end=24), Span(start=28, end=37)]
    # the act still lists Dogman, Hackers, High Life: Hackers takes the span left, which says Dogman
    assert align_spans(utterance, ["Dogman", "Hackers", "High Life"], spans) == spans
    assert align_spans(utterance, ["High Life", "Dogman"], spans) == [spans[2], spans[0]]


@pytest.mark.parametrize(
    ("utterance", "value", "previous", "states"),
    [
        ("I want to fly with United Airlines.", "United Airlines", "", True),
        ("Not on the TV, play it in the kitchen.", "TV", "", False),
        ("That's pretty expensive.", "expensive", "", False),
        ("You licked the TV?", "TV", "Playing it on the TV.", False),
        ("Play it from my TV instead.", "TV", "Shall I play it on the TV?", True),
    ],
)
def test_what_a_user_states(utterance, value, previous, states):
    from csp_check.language.cues import user_states

    start = utterance.index(value)
    assert user_states(utterance, Span(start=start, end=start + len(value)), previous) is states


def _dialogue(system: str, acts, entities, ontology=None):
    from csp_check.models import ApiCall, Dialogue, DialogueAct, KbResult, Turn

    call = KbResult(domain="Hotels_1", call=ApiCall(domain="Hotels_1", method="Search", parameters={}), entities=entities)
    return Dialogue(
        id="d", format="sgd", domains=["Hotels_1"], ontology=ontology or {},
        turns=[
            Turn(index=0, speaker="user", utterance="Find me a hotel."),
            Turn(index=1, speaker="system", utterance=system, kb_results=[call],
                 acts=[DialogueAct(role=r, act=a, domain="Hotels_1", slot=s, value=v, canonical=v) for r, a, s, v in acts]),
        ],
    )


def test_the_count_the_text_says_is_checked_not_the_annotated_one():
    from csp_check.pipeline import check_dialogue

    entities = [{"hotel_name": f"H{i}"} for i in range(10)]
    count = [("count", "INFORM_COUNT", "count", "10")]
    assert not check_dialogue(_dialogue("I found 10 hotels for you.", count, entities)).violations
    report = check_dialogue(_dialogue("I found 12 hotels for you.", count, entities))
    assert [(v.constraint.value, v.variables[-1].text) for v in report.violations] == [("C6", "12")]


def test_a_boolean_the_text_states_is_checked_not_the_annotated_one():
    from csp_check.pipeline import check_dialogue

    entities = [{"hotel_name": "Ritz", "has_wifi": "False"}]
    acts = [("offer", "OFFER", "hotel_name", "Ritz"), ("inform", "INFORM", "has_wifi", "False")]
    ontology = {"Hotels_1.has_wifi": ["True", "False"]}
    assert not check_dialogue(_dialogue("The Ritz has no wifi.", acts, entities, ontology)).violations
    report = check_dialogue(_dialogue("The Ritz has wifi.", acts, entities, ontology))
    assert {v.constraint.value for v in report.violations} == {"C5"}


def test_quantity_words_without_a_number_claim_no_exact_amount() -> None:
    from csp_check.delexicalize.assignment import Lexicon, read_value
    from csp_check.language.normalize import parse_amount
    from csp_check.models import ActRole, Span, Variable, VariableKind

    assert parse_amount("a dozen") == 12 and parse_amount("twenty-one") == 21
    assert parse_amount("several") is None and parse_amount("a couple of") is None and parse_amount("a few") is None

    def amount(text: str, annotated: int) -> object:
        var = Variable(name="x1", turn=1, speaker="system", kind=VariableKind.AMOUNT, domain="train", slot="choice",
                       role=ActRole.COUNT, span=Span(start=0, end=len(text)), text=text, value=annotated)  # fmt: skip
        return read_value(var, Lexicon())

    assert amount("several", 5) == 5  # no claim of its own: nothing for C1 or C6 to contradict
    assert amount("a couple of", 5) == 5
    assert amount("a dozen", 5) == 12  # a number: the text is the truth
    assert amount("12", 10) == 12


@pytest.mark.parametrize("utterance, op", [
    ("I found over 70 hotels.", ">"), ("There are more than 3 restaurants.", ">"),
    ("I have at least five options.", ">="), ("I found fewer than 4 flights.", "<"),
    ("There are up to 5 trains.", "<="), ("I found 3 or more hotels.", ">="),
    ("I found no more than 6 places.", "<="), ("I found 10 hotels.", "="), ("I found 12 hotels. Any more?", "="),
])
def test_amount_said_as_a_bound(utterance, op):
    from csp_check.language.cues import amount_op

    spans = count_spans(utterance)
    assert len(spans) == 1
    assert amount_op(utterance, spans[0]) == op


def test_over_a_span_of_days_is_no_bound():
    """SGD 4_00099: "happening over 3 days" is across 3 days (3 events), not more than 3."""
    from csp_check.language.cues import amount_op

    utterance = "This event is happening over 3 days and starts tomorrow."
    assert amount_op(utterance, count_spans(utterance)[0]) == "="


@pytest.mark.parametrize("text, key", [
    ("the 9th of March", "03-09"), ("March 9th", "03-09"), ("on March 9th", "03-09"), ("Mar. 9", "03-09"),
    ("the ninth of March", "03-09"), ("March 9, 2019", "03-09"), ("next Tuesday", "relative"),
    ("this weekend", "relative"), ("tomorrow", "relative"), ("March", None), ("9th", None),
])
def test_dates_in_other_words(text, key):
    """Equal dates compare equal; a day relative to an unknown today claims none (spec §9)."""
    from csp_check.language.normalize import date_key

    assert date_key(text) == key
