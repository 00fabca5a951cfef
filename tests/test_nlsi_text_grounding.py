"""Text-only grounding classes found on data built from SGD dev (call dropped but not flagged,
gold flagged): each on real built examples, by their SGD dialogue id."""

from __future__ import annotations

import pytest
from support.nlsi import SGD_DEV, example

from csp_check.nlsi.build import build_examples
from csp_check.nlsi.calls import parse_calls
from csp_check.nlsi.check import Checker
from csp_check.nlsi.families import violations
from csp_check.nlsi.ground import ground


@pytest.fixture(scope="module")
def built():
    if not (SGD_DEV / "schema.json").exists():
        pytest.skip("shared SGD dev split not present")
    sch, examples = build_examples([SGD_DEV], seed=0)
    return Checker(sch, use_annotation=False), {e.example_id: e for e in examples}


def _dropped(checker, e, i=0):
    ctx = checker.context(e)
    gold, _ = parse_calls(e.api_calls)
    assert not violations(ctx, gold), violations(ctx, gold)
    return {v.family for v in violations(ctx, gold[:i] + gold[i + 1:])}


@pytest.mark.parametrize("eid, domain", [
    ("4_00000", "Homes"),     # "I'm looking for apartments."
    ("3_00112", "Homes"),     # "... find some nice apartment there?"
    ("4_00113", "Banks"),     # "I'd like to know my balance."
    ("5_00052", "Travel"),    # "I would like to visit an attraction"
    ("3_00051", "Services"),  # "Could you find me a San Jose therapist?"
    ("3_00104", "Weather"),   # "Can you tell me if it is going to rain?"
])  # fmt: skip
def test_request_words_ground_the_domain_so_a_dropped_call_is_flagged(built, eid, domain):
    checker, by_id = built
    e = by_id[eid]
    assert checker.context(e).grounding.domains == [domain]
    assert "P3" in _dropped(checker, e)


def test_a_place_stated_as_origin_is_not_also_the_destination(built):
    checker, by_id = built
    e = by_id["2_00091"]  # "a bus from Sacramento, CA on March 4th"; two preferred destinations
    g = checker.context(e).grounding
    assert g.values["Buses"].get("from_location") == "Sacramento" and "to_location" not in g.values["Buses"]
    gold, _ = parse_calls(e.api_calls)
    assert len(gold) == 2
    for i in range(2):
        assert "P5" in _dropped(checker, e, i)


@pytest.mark.parametrize("eid", ["6_00001", "6_00007", "6_00026"])  # "I'm bored, I'd like to watch a movie." ... (SGD Media)
def test_a_movie_to_watch_is_movies_or_media(built, eid):
    checker, by_id = built
    e = by_id[eid]
    ctx = checker.context(e)
    assert ctx.grounding.domains == ["Movies"] and ctx.grounding.alternatives == {"Movies": ["Media"]}
    gold, _ = parse_calls(e.api_calls)
    methods = [c.method for c in gold]
    assert "GetMedia" in methods and "GetMovies" not in methods
    assert not violations(ctx, gold)
    rest = [c for c in gold if c.method != "GetMedia"]
    assert "P3" in {v.family for v in violations(ctx, rest)}  # neither called: still flagged
    ruled = {d for r in ctx.rules for d in r.domains} & {"Movies", "Media"}
    assert ctx.requested()[0] == ("Media" if ruled == {"Media"} else "Movies")  # derive: the one the profile is about


def test_a_cinema_word_settles_movies(built):
    checker, _ = built
    e = example("User: I want to see a movie at the cinema tonight.", ["If I ask for Media, my preferred genre is Drama"],
                ['GetMedia(genre="Drama")'])
    ctx = checker.context(e)
    assert ctx.grounding.domains == ["Movies"] and not ctx.grounding.alternatives
    assert {v.family for v in violations(ctx, parse_calls(e.api_calls)[0])} == {"P3"}


@pytest.mark.parametrize("eid", ["6_00069", "2_00017"])  # "Can you find me one?", "help me to call the one."
def test_one_as_a_pronoun_states_no_count(built, eid):
    checker, by_id = built
    e = by_id[eid]
    ctx = checker.context(e)
    gold, _ = parse_calls(e.api_calls)
    assert not violations(ctx, gold)
    g = ground(example("User: I need one room at a hotel.", [], []), checker.parser, use_annotation=False)
    assert g.values["Hotels"]["number_of_rooms"] == "1"  # a count it still is


@pytest.mark.parametrize("eid", ["5_00039", "5_00049", "5_00055"])  # "something fun to do in Fresno, CA" (SGD Travel)
def test_something_fun_to_do_is_events_or_travel(built, eid):
    checker, by_id = built
    e = by_id[eid]
    ctx = checker.context(e)
    if "attraction" in e.user_utterance:  # "something fun, … an attraction to see": the alternative named settles it
        assert ctx.grounding.domains == ["Travel"] and not ctx.grounding.alternatives
    else:
        assert "Events" in ctx.grounding.domains and ctx.grounding.alternatives.get("Events") == ["Travel"]
    gold, _ = parse_calls(e.api_calls)
    assert not violations(ctx, gold)
    g = ground(example("User: Find me a concert, something fun to do.", [], []), checker.parser, use_annotation=False)
    assert g.domains == ["Events"] and not g.alternatives  # a concert is an event


@pytest.mark.parametrize("eid, slot", [("3_00116", "pets_allowed"), ("3_00117", "pets_allowed"), ("5_00031", "good_for_kids")])
def test_boolean_wordings_are_said(built, eid, slot):  # "an apartment that allows pets", "child attractions"
    checker, by_id = built
    e = by_id[eid]
    ctx = checker.context(e)
    gold, _ = parse_calls(e.api_calls)
    assert any(s == slot for c in gold for s, _ in c.arguments)
    assert not violations(ctx, gold)
