"""Instruction parser and dialogue grounding on a hand-written schema (paper Table 1 wordings)."""

from __future__ import annotations

import pytest
from support.nlsi import example, schema

from csp_check.nlsi.ground import ground
from csp_check.nlsi.instructions import InstructionParser, Rule, Unparsed


@pytest.fixture(scope="module")
def parser():
    return InstructionParser(schema())


@pytest.mark.parametrize("text, domains, condition, action", [
    ("If I ask for Events, my preferred event type is Music", ("Events",), (), ("event_type", "Music")),
    ("If I'm looking for something to do, I'd rather it be a Music event.", ("Events",), (), ("event_type", "Music")),
    ("When the event type is Music, search for Blues as the category.", ("Events",), (("event_type", "Music"),), ("category", "Blues")),
    ("Search for the event name Greensky Bluegrass if the category is Blues.", ("Events",), (("category", "Blues"),), ("event_name", "Greensky Bluegrass")),
    ("If I'm flying American Airlines, check for Economy seating class.", ("Flights",), (("airlines", "American Airlines"),), ("seating_class", "Economy")),
    ("If airlines is American Airlines then look for seating class as Economy", ("Flights",), (("airlines", "American Airlines"),), ("seating_class", "Economy")),
    ("When I request Restaurants, I prefer Italian cuisine.", ("Restaurants",), (), ("cuisine", "Italian")),
    ("I'd like to get a Doctor in San Rafael if I can.", ("Doctors",), (), ("location", "San Rafael")),
    ("If I'm looking for a doctor, I'd rather have a General Practitioner.", ("Doctors",), (), ("type", "General Practitioner")),
    ("I'd like my travel to be kid-friendly.", ("Travel",), (), ("good_for_kids", "True")),
    ("For sightseeing, it should not be family friendly.", ("Travel",), (), ("good_for_kids", "False")),
    ("My first choice when requesting Travel is Vegas", ("Travel",), (), ("location", "Vegas")),
    ("When it comes to Hotels, I prefer ones that are rated 1-star.", ("Hotels",), (), ("average_rating", "1")),
])
def test_value_rules(parser, text, domains, condition, action):
    rule = parser.parse(text)
    assert isinstance(rule, Rule), rule
    assert (rule.domains, rule.condition, rule.action) == (domains, condition, action)


@pytest.mark.parametrize("text, source, target", [
    ("If I ask for Travel, then also look at Hotels", "Travel", "Hotels"),
    ("If I'm looking into Travel, I should also check out Hotels.", "Travel", "Hotels"),
    ("Whenever I ask about places to visit, look at a hotel room too.", "Travel", "Hotels"),
])
def test_also_rules(parser, text, source, target):
    rule = parser.parse(text)
    assert isinstance(rule, Rule) and rule.domains == (source,) and rule.also_domain == target and rule.action is None


@pytest.mark.parametrize("text", ["I like to sing in the shower.", "Remind me to call mom.", ""])
def test_unparseable_is_reported(parser, text):
    out = parser.parse(text)
    assert isinstance(out, Unparsed) and out.reason


def test_grounding_text_values_domains_and_override(parser):
    ex = example("User: I want Italian food in San Jose. Agent: Sure. User: Actually, not Italian, make it Mexican.", ["x"], [])
    g = ground(ex, parser)
    assert g.domains == ["Restaurants"]
    assert g.values["Restaurants"] == {"city": "San Jose", "cuisine": "Mexican"}
    ex2 = example("User: Find me Italian restaurants. User: Hmm, not Italian.", ["x"], [])
    g2 = ground(ex2, parser)
    assert "cuisine" not in g2.values.get("Restaurants", {}) and g2.negated["Restaurants"]["cuisine"] == {"Italian"}


def test_grounding_prefers_annotation(parser):
    ex = example("User: hello", ["x"], [], sgd_state={"Flights": {"origin": "SFO"}}, requested_domains=["Flights"])
    g = ground(ex, parser)
    assert g.source == "annotation" and g.domains == ["Flights"] and g.stated("Flights", "origin") == "SFO"
    assert ground(ex, parser, use_annotation=False).source == "text"
