"""NLSI data layer: the safe API-call parser, the readers (list and literal-string layouts)."""

from __future__ import annotations

import json

import pytest

from csp_check.nlsi.calls import CallSyntaxError, parse_call, parse_calls, split_calls
from csp_check.nlsi.models import ApiCall, ReasoningType, split_turns
from csp_check.nlsi.readers import SCHEMA_PATH, ExampleError, json_schema, read_examples


def test_parse_call_quotes_escapes_and_order():
    call = parse_call('GetRestaurants(city="San Jose", cuisine=\'Ital\\\'ian\', note="say \\"hi\\"")')
    assert call.method == "GetRestaurants"
    assert call.arguments == (("city", "San Jose"), ("cuisine", "Ital'ian"), ("note", 'say "hi"'))
    assert parse_call("GetTravel()").arguments == ()
    assert parse_call("GetHotels(average_rating=1, good=True)").args() == {"average_rating": "1", "good": "True"}
    assert parse_call("GetEvents(city=\u201cSeattle, WA\u201d)").args() == {"city": "Seattle, WA"}


@pytest.mark.parametrize("bad", ['GetX(a="1"', 'GetX(a="1)', "GetX(a)", "GetX a=1", "(a=1)", 'GetX(a="1") junk', "GetX(a=b(c))"])
def test_malformed_calls_raise_one_line(bad):
    with pytest.raises(CallSyntaxError) as info:
        parse_call(bad)
    assert "\n" not in str(info.value) and repr(bad) in str(info.value)


def test_render_round_trips():
    call = ApiCall(method="GetX", arguments=(("a", 'q"uo\\te'), ("b", "")))
    assert parse_call(call.render()).arguments == call.arguments


def test_parse_calls_keeps_the_good_ones():
    calls, errors = parse_calls(['GetA(x="1") GetB(y="2")', 'GetC(x="1"', "", 'GetD(z="a, b")'])
    assert [c.method for c in calls] == ["GetA", "GetB", "GetD"]
    assert len(errors) == 2 and "empty call" in str(errors[1])
    assert split_calls('GetA(x=")") GetB()') == ['GetA(x=")")', "GetB()"]


def test_split_turns_repeated_prefixes():
    assert split_turns("User: User: hi Agent: where? User: SF") == [("user", "hi"), ("agent", "where?"), ("user", "SF")]


def test_readers_both_layouts_and_bad_lines(tmp_path):
    profile = [{"nl_instruction": "If I ask for Travel, my preferred location is Vegas", "instruction_id": 1, "instruction_src": "x"}]
    lines = [
        json.dumps({"example_id": 1, "user_utterance": "User: hi", "all_standing_instructions": profile,
                    "applicable_standing_instructions": profile, "api_calls": ['GetTravel(location="Vegas")'],
                    "metadata": {"type": "chains_domains"}}),
        json.dumps({"example_id": "2", "user_utterance": "User: hi", "all_standing_instructions": repr(profile),
                    "applicable_standing_instructions": "[]", "api_calls": repr(['GetTravel(location="Vegas")'])}),
        "{not json",
        json.dumps({"example_id": 3, "user_utterance": "x", "all_standing_instructions": "__import__('os').system('echo pwned')"}),
        json.dumps({"example_id": 4}),
    ]
    path = tmp_path / "in.jsonl"
    path.write_text("\n".join(lines) + "\n")
    items = list(read_examples(path))
    good = [x for x in items if not isinstance(x, ExampleError)]
    bad = [x for x in items if isinstance(x, ExampleError)]
    assert [g.example_id for g in good] == [1, "2"]
    assert good[0].reasoning_type is ReasoningType.MULTI_DOMAIN
    assert good[1].all_standing_instructions[0].nl_instruction.startswith("If I ask for Travel")
    assert good[1].api_calls == ['GetTravel(location="Vegas")']
    assert [b.line for b in bad] == [3, 4, 5]
    assert "not JSON" in str(bad[0]) and "example 3" in str(bad[1]) and "user_utterance" in str(bad[2])
    assert all("\n" not in str(b) for b in bad)


def test_published_json_schema_is_current():
    assert json.loads(SCHEMA_PATH.read_text()) == json_schema()
