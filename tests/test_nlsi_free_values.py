"""Free values in the user's words (dates, times, places by role), the service a call speaks for,
the domain the user's values settle, and the release's MultiDomain carry-over — on the NLSI
release's own examples (work half of ``csp_check.score.split``; skipped when
../shared/data/nlsi is absent)."""

from __future__ import annotations

import random
from pathlib import Path

import pytest

from csp_check.nlsi.calls import parse_calls, without_requests
from csp_check.nlsi.check import Checker
from csp_check.nlsi.derive import derive, derive_with
from csp_check.nlsi.metrics import release_items, release_scores
from csp_check.nlsi.models import Example, StandingInstruction
from csp_check.nlsi.readers import read_examples
from csp_check.nlsi.release_faults import make_release, twin
from csp_check.nlsi.schema import load_schema
from csp_check.nlsi.spans import (
    answered_counts,
    answered_name,
    date_spans,
    date_time_values,
    destinations,
    in_places,
    kind_names,
    offered_name,
    role_places,
    time_spans,
)
from csp_check.nlsi.templates import parse_template
from csp_check.nlsi.variants import chosen_service

RELEASE = Path(__file__).resolve().parents[2] / "shared" / "data" / "nlsi"
RAW = RELEASE / "old_instructions_dataset.json"
needs_release = pytest.mark.skipif(not RAW.exists(), reason="shared NLSI release files not present")


def test_date_and_time_spans_keep_the_users_words():
    assert [w for _, w in date_spans("on the 13th of March, or next Friday, or the day after tomorrow")] == [
        "13th of March", "next Friday", "day after tomorrow"]
    assert [w for _, w in date_spans("from March 1st until the 5th, Wednesday next week")] == [
        "March 1st", "the 5th", "Wednesday next week"]
    assert [w for _, w in date_spans("I'm free today and have 2 rooms")] == []
    assert [w for _, w in time_spans("at morning 9:15, or 12:30 in the afternoon, or 3 pm; 2 rooms")] == [
        "morning 9:15", "12:30 in the afternoon", "3 pm"]


def test_dates_fill_start_and_end_slots():
    slots = ["pickup_date", "pickup_time", "dropoff_date", "pickup_city"]
    assert date_time_values(["I need it from March 9th until March 11th and pick it up at 3 pm."], slots) == {
        "pickup_date": "March 9th", "dropoff_date": "March 11th", "pickup_time": "3 pm"}
    assert date_time_values(["I'd like 2 rooms"], slots) == {}
    assert date_time_values(["next Friday"], ["area", "number_of_beds"]) == {}


def test_role_places():
    assert role_places("I'm going from Vancouver to Seattle.") == [("origin", "Vancouver"), ("destination", "Seattle")]
    assert role_places("I'm leaving out of Long Beach the day after tomorrow") == [("origin", "Long Beach")]
    assert role_places("I want to fly from Washington. I'd like to go on the 1st") == [("origin", "Washington")]
    assert role_places("I want to listen to music") == []


@pytest.fixture(scope="module")
def release():
    """(checker, {example id: example}) over the release files, text grounding."""
    checker = Checker(load_schema([RELEASE]), use_annotation=False)
    return checker, {str(i.example_id): i for i in read_examples(RAW)}


def _em(checker, example) -> bool:
    calls, _ = derive(checker.context(example))
    return release_scores(calls, example.api_calls)[0]


@needs_release
def test_release_dates_times_and_places_derive_the_gold(release):
    """Dates, times and places in the user's words (a bus "to Sacramento … out of Long Beach the
    day after tomorrow at 10:45", a rental "from March 9th until March 11th … at 3 pm", the
    weather "on the 13th of March") give the gold calls exactly; before, none was stated."""
    checker, examples = release
    g = checker.context(examples["2671"]).grounding
    assert g.values["Buses"] == {"from_location": "Long Beach", "to_location": "Sacramento", "travelers": "1",
                                 "leaving_date": "day after tomorrow", "leaving_time": "10:45"}
    for eid in ("2671", "3111", "3136", "1624", "1636", "1959", "3902"):
        assert _em(checker, examples[eid]), eid
        assert checker.check(examples[eid]).status.value == "consistent", eid


@needs_release
def test_release_service_follows_the_profile(release):
    """"If destination is Las Vegas then look for airlines as …" names Flights_2's slots, so the
    user's origin is ``origin``, not Flights_1's ``origin_city`` (common-domain-slots.tsv)."""
    checker, examples = release
    schema = checker.schema
    assert ("origin_city", "origin") in schema.same_slots["Flights"]
    ctx = checker.context(examples["1938"])
    assert chosen_service(schema, "Flights", ctx.rules, ()) == "Flights_2"
    assert ctx.grounding.stated("Flights", "origin") == "SFO" and ctx.grounding.stated("Flights", "origin_city") is None
    assert _em(checker, examples["1938"])


@needs_release
def test_release_values_settle_the_alternative_domain(release):
    """"a movie … directed by Dean DeBlois" is Media (only it has ``directed_by``), though the
    profile has a Movies rule; "my savings account" is ``account_type``, not the recipient's."""
    checker, examples = release
    ctx = checker.context(examples["1483"])
    assert ctx.requested() == ["Media"]
    assert checker.context(examples["1195"]).grounding.stated("Banks", "account_type") == "savings"
    for eid in ("1483", "725", "1195", "1164"):
        assert _em(checker, examples[eid]), eid


@needs_release
def test_release_multidomain_carry_over(release):
    """The release's generator gives the second call the first call's values by slot *name*
    (its merged SGD frame), and one place: Events ``city`` → Hotels ``destination`` (2756),
    but Events ``date`` is no RentalCars ``pickup_date`` (1959); the solver derives the same."""
    checker, examples = release
    assert checker.schema.carry_same_names
    for eid in ("2756", "1959", "2528"):
        calls, _ = derive(checker.context(examples[eid]))
        assert release_scores(calls, examples[eid].api_calls)[0], eid
    calls, _ = derive(checker.context(examples["1959"]))
    rental = next(c for c in calls if c.method == "GetRentalCars")
    assert "pickup_date" not in rental.args() and "date" in next(c for c in calls if c.method == "GetEvents").args()


@needs_release
def test_release_carry_over_solver_agrees(release):
    """CP-SAT over the lowered P1–P6 with the release's carry preferences derives the calls the
    interpreter does (normalised), on the MultiDomain examples of the work half."""
    pytest.importorskip("ortools")
    checker, examples = release
    for eid in ("2756", "1959", "2528", "1923"):
        ctx = checker.context(examples[eid])
        assert release_items(derive_with(ctx, "cp-sat")[0]) == release_items(derive(ctx)[0]), eid


@needs_release
def test_release_counts_by_their_unit_words(release):
    """"tickets for 3 people" (2782) and "1 Economy class ticket" (1937) state the travellers /
    passengers, "a 1 star hotel" (1451) the star rating, not the number of rooms."""
    checker, examples = release
    assert checker.context(examples["2782"]).grounding.stated("Buses", "travelers") == "3"
    assert checker.context(examples["1937"]).grounding.stated("Flights", "passengers") == "1"
    g = checker.context(examples["1451"]).grounding
    assert g.stated("Hotels", "star_rating") == "1" and g.stated("Hotels", "number_of_rooms") is None
    for eid in ("2782", "1937", "1451"):
        assert _em(checker, examples[eid]), eid


def test_names_answered_and_offered():
    assert answered_name("Nobody Can Save Me.") == "Nobody Can Save Me"
    assert answered_name("Play Business Dinners") == "Business Dinners"
    assert answered_name("That one is good.") is None
    assert offered_name("Would you like to listen to Heartbeat by Enrique Iglesias on the Euphoria album?") == "Heartbeat"
    assert offered_name("how many tickets do you need?") is None


@needs_release
def test_release_names_the_agent_asks_for_or_offers(release):
    """"Agent: What song? User: Nobody Can Save Me." (1860) and an accepted offer of "Heartbeat
    by Enrique Iglesias" (1797) state the song, not its artist or album."""
    checker, examples = release
    assert checker.context(examples["1860"]).grounding.stated("Music", "song_name") == "Nobody Can Save Me"
    g = checker.context(examples["1797"]).grounding
    assert g.stated("Music", "song_name") == "Heartbeat" and g.stated("Music", "artist") is None
    for eid in ("1860", "1797"):
        assert _em(checker, examples[eid]), eid
        assert checker.check(examples[eid]).status.value == "consistent", eid


@needs_release
def test_release_everyday_phrasing_is_no_value(release):
    """"I want to go out and do something" (267): "to go" is no cuisine "to-go" (so no
    Restaurants request), "do something" asks for Events; the gold is then derived."""
    checker, examples = release
    g = checker.context(examples["267"]).grounding
    assert "Restaurants" not in g.values and g.domains == ["Events"]
    assert _em(checker, examples["267"])


@needs_release
def test_release_template_shapes_with_free_values(release):
    """Chains whose values no ontology lists ("… restaurant name as Sushi Ichimoto") are read by
    the template's shape; a categorical value outside the schema is still refused."""
    checker, _ = release
    rule = parse_template(checker.schema, "If cuisine is Japanese then look for restaurant name as Sushi Ichimoto")
    assert rule is not None and rule.domains == ("Restaurants",)
    assert rule.condition == (("cuisine", "Japanese"),) and rule.action == ("restaurant_name", "Sushi Ichimoto")
    pref = parse_template(checker.schema, "If I ask for Dentist, my preferred dentist name is A-1 Dental Care")
    assert pref is not None and pref.domains == ("Dentists",) and pref.action == ("dentist_name", "A-1 Dental Care")
    assert parse_template(checker.schema, "If I ask for Banks, my preferred account type is golden") is None
    assert parse_template(checker.schema, "I like trains") is None
    for ex in read_examples(RAW):
        assert not checker.context(ex).unparsed, ex.example_id


@needs_release
def test_release_one_service_drops_a_second_reading(release):
    """"Courtyard By Marriott Portland Airport hotel in Portland, OR" (1923): the profile names
    Hotels_1's ``destination``, so Hotels_3's ``location`` "Portland" (read inside the hotel
    name) is dropped, and the gold set is consistent."""
    checker, examples = release
    g = checker.context(examples["1923"]).grounding
    assert g.stated("Hotels", "destination") == "Portland, OR" and g.stated("Hotels", "location") is None
    assert checker.check(examples["1923"]).status.value == "consistent"


def test_more_date_and_time_shapes():
    assert [w for _, w in date_spans("this coming Friday or the 8th March")] == ["this coming Friday", "8th March"]
    assert [w for _, w in time_spans("at 6 in the evening or 8 o'clock")] == ["6 in the evening", "8 o'clock"]


@needs_release
def test_release_boolean_piece_of_several_actions(release):
    """"… then look for number of beds as 3, number of baths as 1, furnished" (a profile rule
    of 1164): three rules, the last the True boolean ``furnished``."""
    checker, examples = release
    homes = [r for r in checker.context(examples["1164"]).rules if r.domains == ("Homes",) and r.condition]
    assert sorted(r.action for r in homes if r.action) == [
        ("furnished", "True"), ("number_of_baths", "1"), ("number_of_beds", "3")]


@needs_release
def test_release_boolean_said_in_other_words(release):
    """"a dentist that has cosmetic options" (837) states ``offers_cosmetic_services``."""
    checker, examples = release
    assert checker.context(examples["837"]).grounding.stated("Dentists", "offers_cosmetic_services") == "True"
    assert checker.check(examples["837"]).status.value == "consistent" and _em(checker, examples["837"])


def test_date_range_and_title_case_state_code():
    """Generator-style SGD dev turns: two dates with "to" between are a range, a postal code typed
    in title case stays with its place; a word-like code does not."""
    slots = ["pickup_date", "dropoff_date", "pickup_city"]
    assert date_time_values(["Pick up is Phoenix and rental is March 10th to the 11th."], slots) == {
        "pickup_date": "March 10th", "dropoff_date": "the 11th"}
    assert role_places("I'm going to Sacramento, CA from Anaheim, Ca") == [
        ("destination", "Sacramento, CA"), ("origin", "Anaheim, Ca")]
    assert role_places("I want to go to Portland, Or maybe Seattle") == [("destination", "Portland")]


def _derived(checker, text: str) -> list[str]:
    ex = Example(example_id="x", user_utterance=text, all_standing_instructions=[], applicable_standing_instructions=[], api_calls=[])
    return [c.render() for c in derive(checker.context(ex))[0]]


def test_weekday_with_its_week_and_end_dates():
    """Generator-style SGD dev turns: "on Saturday this week" keeps its week; a date after "until"
    is no start date when the service has no end slot (Hotels_1 counts days); "heading out on
    March 1st" leaves (only "check out" ends a stay)."""
    assert [w for _, w in date_spans("I am planning to go from LAX on Saturday this week.")] == ["Saturday this week"]
    assert [w for _, w in date_spans("from LAX on Saturday.")] == ["Saturday"]
    assert date_time_values(["I want to stay in London until the 11th."], ["check_in_date", "number_of_days"]) == {}
    assert date_time_values(["I want to check out on the 5th"], ["check_in_date", "check_out_date"]) == {
        "check_out_date": "the 5th"}
    assert date_time_values(["I'm heading out on March 1st and going to Anaheim, CA."], ["leaving_date"]) == {
        "leaving_date": "March 1st"}


@needs_release
def test_number_word_before_its_unit_and_one_value_in_twin_slots(release):
    """Generator-style SGD dev turns: "one ticket" is a head count ("a one way flight" is not);
    "Compact" read into RentalCars' twin slots (``type`` / ``car_type``) is said once, in the
    prior service's slot; the count's fault is flagged (P3) and its re-worded twin is not."""
    checker = release[0]
    bus = ("User: Can you help me find a bus, I just need one ticket for the 8th of this month.\nAgent: Where and you "
           "leaving and coming from?\nUser: I'm going to Sacramento, CA from Anaheim, Ca\n")
    gold = 'GetBuses(from_location="Anaheim, Ca", leaving_date="8th of this month", to_location="Sacramento, CA", travelers="1")'
    assert _derived(checker, bus) == [gold]
    assert _derived(checker, "User: Find me a one way flight to Seattle.\n") == ['GetFlights(destination="Seattle")']
    assert _derived(checker, "User: I need to find a Compact rental car.\n") == ['GetRentalCars(car_type="Compact")']
    ex = Example(example_id="x", user_utterance=bus, applicable_standing_instructions=[], api_calls=[gold],
                 all_standing_instructions=[StandingInstruction(nl_instruction="If I ask for Hotels, my preference is that it has wifi")])
    ctx = checker.context(ex)
    calls = parse_calls([gold])[0]
    assert checker.check_calls(ex, calls, ctx).status.value == "consistent"
    for kind in ("count_changed", "free_value_moved"):
        fault = make_release(kind, ctx, calls, random.Random(0))
        assert fault is not None, kind
        assert any(v.family == "P3" for v in checker.check_calls(ex, fault.calls, ctx).violations), (kind, fault.detail)
        good = twin(kind, ctx, calls, random.Random(0))
        assert good is None or checker.check_calls(ex, good, ctx).status.value == "consistent", kind


@needs_release
def test_destination_after_visit_with_street_words(release):
    """Generator-style SGD dev turns: a cab's destination after "visit" or "to the place at",
    lower-case street words and "&" inside it; the place's cut is flagged (P3), its twin not."""
    assert destinations("I want to visit Chili's Grill & Bar for which I need to call a cab") == ["Chili's Grill & Bar"]
    assert destinations("to the place at 2050 Broadway and cab with shared ride will be okay") == ["2050 Broadway"]
    assert destinations("I need to go to One Ferry building #35. I'm okay to share.") == ["One Ferry building #35"]
    assert destinations("I want to go to the beach") == []
    checker = release[0]
    text = ("User: Hey, could you book me a cab? I need to go to One Ferry building #35. I'm okay to share.\nAgent: How "
            "many people are travelling?\nUser: There's 2 of us.\n")
    gold = 'GetRideSharing(destination="One Ferry building #35", number_of_riders="2", shared_ride="True")'
    assert _derived(checker, text) == [gold]
    ex = Example(example_id="x", user_utterance=text, applicable_standing_instructions=[], api_calls=[gold],
                 all_standing_instructions=[StandingInstruction(nl_instruction="If I ask for Hotels, my preference is that it has wifi")])
    ctx = checker.context(ex)
    calls = parse_calls([gold])[0]
    fault = make_release("place_cut", ctx, calls, random.Random(0))
    assert fault is not None
    assert any(v.family == "P3" for v in checker.check_calls(ex, fault.calls, ctx).violations), fault.detail
    good = twin("place_cut", ctx, calls, random.Random(0))
    assert good is not None and checker.check_calls(ex, good, ctx).status.value == "consistent"


@needs_release
def test_boolean_asked_about_an_offer_is_no_constraint(release):
    """Generator-style SGD dev turns: "Is this a child-friendly museum?" asks about the offer (no
    ``good_for_kids``); "take my kids to", "without entry fees" state booleans. The asked
    boolean set True is flagged (P2); its request-marker twin is not."""
    checker = release[0]
    text = ("User: Can you find me a museum to visit in London, UK?\nAgent: I've found a museum for you. It's Apsley "
            "House.\nUser: Is this a child-friendly museum? What's their number?\n")
    gold = 'GetTravel(category="Museum", location="London, UK")'
    assert _derived(checker, text) == [gold]
    assert _derived(checker, "User: Can you find me a child-friendly museum in London, UK?\n") == [
        'GetTravel(category="Museum", good_for_kids="True", location="London, UK")']
    assert _derived(checker, "User: Find attractions in Paris I could take my kids to, without entry fees.\n") == [
        'GetTravel(free_entry="True", good_for_kids="True", location="Paris")']
    ex = Example(example_id="x", user_utterance=text, applicable_standing_instructions=[], api_calls=[gold],
                 all_standing_instructions=[StandingInstruction(nl_instruction="If I ask for Hotels, my preference is that it has wifi")])
    ctx = checker.context(ex)
    calls = parse_calls([gold])[0]
    fault = make_release("asked_boolean", ctx, calls, random.Random(0))
    assert fault is not None
    assert any(v.family == "P2" for v in checker.check_calls(ex, fault.calls, ctx).violations)
    good = twin("asked_boolean", ctx, calls, random.Random(0))
    assert good is not None and dict(good[0].arguments)["good_for_kids"] == "?"
    assert checker.check_calls(ex, [without_requests(c) for c in good], ctx).status.value == "consistent"
    ex.api_calls = [good[0].render()]
    assert checker.check(ex).status.value == "consistent"


@needs_release
def test_bare_number_answers_how_many_and_role_word_opens_no_name(release):
    """Generator-style SGD dev turns: "how many bedrooms?" answered "I think two is fine" states
    ``number_of_beds`` (not a time or a second number: "at 2 pm", "2 rooms for 3 days"); "From SD,
    this Saturday" answers no car name. The count's change is flagged (P3)."""
    assert answered_counts([("agent", "Sure, how many bedrooms?"), ("user", "I think two is fine")]) == [("bed", "2")]
    assert answered_counts([("agent", "How many rooms?"), ("user", "at 2 pm please")]) == []
    assert answered_counts([("agent", "How many days?"), ("user", "2 rooms for 3 days")]) == []
    assert answered_counts([("user", "How many rooms?"), ("agent", "Two")]) == []
    assert answered_name("From SD, this Saturday, around evening 4:30") is None
    assert answered_name("Nobody Can Save Me.") == "Nobody Can Save Me"
    checker = release[0]
    text = "User: Can you help me find an apartment please.\nAgent: Sure, how many bedrooms?\nUser: I think two is fine\n"
    gold = 'GetHomes(number_of_beds="2")'
    assert _derived(checker, text) == [gold]
    car = ("User: I need a rental car until 3rd of March\nAgent: From which city do you want to rent a car? What day "
           "and time do you want to pick it up?\nUser: From SD, this Saturday, around evening 4:30\n")
    assert _derived(checker, car) == [
        'GetRentalCars(dropoff_date="3rd of March", pickup_city="SD", pickup_date="this Saturday", pickup_time="evening 4:30")']
    ex = Example(example_id="x", user_utterance=text, applicable_standing_instructions=[], api_calls=[gold],
                 all_standing_instructions=[StandingInstruction(nl_instruction="If I ask for Hotels, my preference is that it has wifi")])
    ctx = checker.context(ex)
    calls = parse_calls([gold])[0]
    assert checker.check_calls(ex, calls, ctx).status.value == "consistent"
    fault = make_release("count_changed", ctx, calls, random.Random(0))
    assert fault is not None
    assert any(v.family == "P3" for v in checker.check_calls(ex, fault.calls, ctx).violations), fault.detail


@needs_release
def test_travel_request_words_and_free_as_the_speakers_time(release):
    """Generator-style SGD dev turns: "child-friendly places to go", "a view point" ask for
    Travel; "I am free for some days" is the speaker's time, no ``free_entry`` ("free
    attractions" is). The free entry added where only "I'm free" was said is flagged (P2); the
    same call after "free attractions" is consistent."""
    checker = release[0]
    kids = ("User: I'm going out with the family and need some child-friendly places to go. Can you help?\nAgent: I "
            "sure can. Where would you like me to look?\nUser: In Toronto, Ontario please\n")
    assert _derived(checker, kids) == ['GetTravel(good_for_kids="True", location="Toronto, Ontario")']
    assert _derived(checker, "User: I have a plan to go for a view point in LAX.\n") == ['GetTravel(location="LAX")']
    free = "User: I am free for some days and wish to go outdoors. Are there any beautiful destinations to visit in Paris?\n"
    assert _derived(checker, free) == ['GetTravel(location="Paris")']
    wants = "User: I'm free this weekend, find me free attractions in Paris.\n"
    assert _derived(checker, wants) == ['GetTravel(free_entry="True", location="Paris")']
    profile = [StandingInstruction(nl_instruction="If I ask for Hotels, my preference is that it has wifi")]
    for text, ok in ((free, False), (wants, True)):
        call = 'GetTravel(free_entry="True", location="Paris")'
        ex = Example(example_id="x", user_utterance=text, applicable_standing_instructions=[], api_calls=[call],
                     all_standing_instructions=profile)
        report = checker.check_calls(ex, parse_calls([call])[0], checker.context(ex))
        assert (report.status.value == "consistent") == ok, report.violations
        assert ok or any(v.family == "P2" for v in report.violations)


@needs_release
def test_weather_for_a_place_named_later(release):
    """Generator-style SGD dev turns: "how's the weather for Kenwood" after "the weather in
    Nairobi, Kenya" asks for Kenwood (the later place); the place moved is flagged (P3), its
    re-cased twin is not."""
    assert in_places("Alright, how's the weather for Kenwood on March 5th 2019?") == ["Kenwood"]
    assert in_places("I need a table for Tuesday") == []
    checker = release[0]
    text = ("User: Can you tell me what the weather is like in Nairobi, Kenya.\nAgent: The temperature average during "
            "the day is 105 degrees Fahrenheit. And there's also a 0 percent chance it will rain.\nUser: Alright, how's "
            "the weather for Kenwood on March 5th 2019?\n")
    gold = 'GetWeather(city="Kenwood", date="March 5th 2019")'
    assert _derived(checker, text) == [gold]
    ex = Example(example_id="x", user_utterance=text, applicable_standing_instructions=[], api_calls=[gold],
                 all_standing_instructions=[StandingInstruction(nl_instruction="If I ask for Hotels, my preference is that it has wifi")])
    ctx = checker.context(ex)
    calls = parse_calls([gold])[0]
    assert checker.check_calls(ex, calls, ctx).status.value == "consistent"
    fault = make_release("free_value_moved", ctx, calls, random.Random(0))
    assert fault is not None
    assert any(v.family == "P3" for v in checker.check_calls(ex, fault.calls, ctx).violations), fault.detail
    good = twin("free_value_moved", ctx, calls, random.Random(0))
    assert good is not None and checker.check_calls(ex, good, ctx).status.value == "consistent"


@needs_release
def test_name_given_with_the_domains_noun(release):
    """"I would like to stay at Courtyard By Marriott Portland Airport hotel in Portland, OR"
    (1923, work half): the title-cased span between "at" and the lower-case "hotel" is the hotel's
    name; "at" with no such noun after it names none. The name cut to its first word is flagged
    (P3, ``name_cut``), its re-cased twin is not."""
    assert kind_names("a table at Sushi Boat restaurant, please", "Restaurants") == ["Sushi Boat"]
    assert kind_names("I land at Portland Airport at 5 pm", "Hotels") == []
    assert kind_names("stay at Hilton hotel", "Restaurants") == []
    checker, examples = release
    ex = examples["1923"]
    ctx = checker.context(ex)
    assert ctx.grounding.stated("Hotels", "hotel_name") == "Courtyard By Marriott Portland Airport"
    assert _em(checker, ex)
    calls = [without_requests(c) for c in parse_calls(ex.api_calls)[0]]
    assert checker.check_calls(ex, calls, ctx).status.value == "consistent"
    fault = make_release("name_cut", ctx, calls, random.Random(0))
    assert fault is not None and "'Courtyard'" in fault.detail
    assert any(v.family == "P3" for v in checker.check_calls(ex, fault.calls, ctx).violations), fault.detail
    good = twin("name_cut", ctx, calls, random.Random(0))
    assert good is not None and checker.check_calls(ex, good, ctx).status.value == "consistent"
