"""The pytest plugin, run inside pytest's own ``pytester``: generated passing and failing
datasets, the readable failure message, dialogue files collected as items, the marker and the
KB option."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from csp_check.errors import UsageError
from csp_check.plugin.dialogues import InconsistentDialogues, assert_consistent, check

pytest_plugins = ["pytester"]

CITY, CUISINE = "San Jose", "Italian"


def sgd_dialogue(dialogue_id: str, count: int, names: list[str], with_results: bool = True) -> dict:
    """A two-turn SGD dialogue: the user asks for Italian food in San Jose; the system says it
    found ``count`` restaurants and offers ``names[0]``. Its results hold one entity per name,
    so it is consistent iff ``count == len(names)`` (C6)."""
    user = f"I want {CUISINE} food in {CITY}."
    system = f"I found {count} restaurants. {names[0]} is a nice one in {CITY}."

    def span(slot: str, text: str, utterance: str, last: bool = False) -> dict:
        start = utterance.rindex(text) if last else utterance.index(text)
        return {"slot": slot, "start": start, "exclusive_end": start + len(text)}

    def act(act: str, slot: str, value: str) -> dict:
        return {"act": act, "slot": slot, "values": [value], "canonical_values": [value]}

    system_frame = {
        "service": "Restaurants_1",
        "slots": [span("restaurant_name", names[0], system), span("city", CITY, system, last=True)],
        "actions": [act("INFORM_COUNT", "count", str(count)), act("OFFER", "restaurant_name", names[0]), act("OFFER", "city", CITY)],
    }
    if with_results:
        system_frame["service_call"] = {"method": "FindRestaurants", "parameters": {"city": CITY, "cuisine": CUISINE}}
        system_frame["service_results"] = [entity(n) for n in names]
    return {
        "dialogue_id": dialogue_id,
        "services": ["Restaurants_1"],
        "turns": [
            {"speaker": "USER", "utterance": user, "frames": [{
                "service": "Restaurants_1",
                "slots": [span("cuisine", CUISINE, user), span("city", CITY, user)],
                "actions": [act("INFORM", "cuisine", CUISINE), act("INFORM", "city", CITY)],
                "state": {"active_intent": "FindRestaurants", "requested_slots": [],
                          "slot_values": {"cuisine": [CUISINE], "city": [CITY]}},
            }]},
            {"speaker": "SYSTEM", "utterance": system, "frames": [system_frame]},
        ],
    }  # fmt: skip


def entity(name: str) -> dict:
    return {"city": CITY, "cuisine": CUISINE, "restaurant_name": name, "price_range": "moderate"}


GOOD = [sgd_dialogue("1_00001", 2, ["Napoli", "Mario"]), sgd_dialogue("1_00002", 1, ["Roma"])]
BAD = [sgd_dialogue("1_00003", 3, ["Napoli", "Mario"])]


def write(pytester: pytest.Pytester, name: str, dialogues: list[dict]) -> None:
    (pytester.path / name).write_text(json.dumps(dialogues), encoding="utf-8")


def test_fixture_passes_on_a_consistent_dataset(pytester: pytest.Pytester):
    write(pytester, "dialogues_001.json", GOOD)
    pytester.makepyfile(
        """
        def test_generated_data(csp_check):
            reports = csp_check.assert_consistent("dialogues_001.json")
            assert [r.dialogue_id for r in reports] == ["1_00001", "1_00002"]
        """
    )
    pytester.runpytest("-p", "no:cacheprovider").assert_outcomes(passed=1)


def test_fixture_fails_with_a_readable_message(pytester: pytest.Pytester):
    write(pytester, "dialogues_001.json", GOOD + BAD)
    pytester.makepyfile(
        """
        def test_generated_data(csp_check):
            csp_check.assert_consistent("dialogues_001.json")
        """
    )
    result = pytester.runpytest("-p", "no:cacheprovider")
    result.assert_outcomes(failed=1)
    result.stdout.fnmatch_lines(
        [
            "*1 of 3 dialogue(s) not consistent:*",
            "*dialogue 1_00003 (*dialogues_001.json): 1 violation(s)*",
            "*[[]C6[]] turns 0, 1: 'San Jose' (x5 = 'san jose'), 'Italian' (x1 = 'italian'), '3' (x3 = 3): *"
            "says 3 with Restaurants_1.city='san jose', Restaurants_1.cuisine='italian'; the KB has 2: napoli; mario*",
        ]
    )
    assert "1_00001" not in result.stdout.str().split("not consistent:")[1]


def test_marker_selects_constraints(pytester: pytest.Pytester):
    write(pytester, "dialogues_001.json", BAD)
    pytester.makepyfile(
        """
        import pytest

        @pytest.mark.csp_check(constraints=["C1", "C2", "C3"])
        def test_without_domain_constraints(csp_check):
            csp_check.assert_consistent("dialogues_001.json")

        def test_with_all(csp_check):
            csp_check.assert_consistent("dialogues_001.json")
        """
    )
    pytester.runpytest("-p", "no:cacheprovider").assert_outcomes(passed=1, failed=1)


def test_dialogue_files_are_collected_one_item_per_dialogue(pytester: pytest.Pytester):
    write(pytester, "dialogues_001.json", GOOD + BAD)
    pytester.makeini("[pytest]\ncsp_check_files = dialogues_*.json\n")
    result = pytester.runpytest("-p", "no:cacheprovider", "-v")
    result.assert_outcomes(passed=2, failed=1)
    result.stdout.fnmatch_lines(
        [
            "*dialogues_001.json::1_00001 PASSED*",
            "*dialogues_001.json::1_00003 FAILED*",
            "*dialogue 1_00003 (*): 1 violation(s)*",
            "*[[]C6[]] turns 0, 1: *the KB has 2: napoli; mario*",
        ]
    )


def test_a_pattern_with_a_folder_matches_the_path_from_the_rootdir(pytester: pytest.Pytester):
    (pytester.path / "out").mkdir()
    write(pytester, "out/run.jsonl.json", GOOD)
    write(pytester, "elsewhere.jsonl.json", BAD)  # same name shape, not under out/
    pytester.makeini("[pytest]\ncsp_check_files = out/*.json\n")
    result = pytester.runpytest("-p", "no:cacheprovider", "-v")
    result.assert_outcomes(passed=len(GOOD))
    result.stdout.fnmatch_lines(["*out/run.jsonl.json::1_00001 PASSED*"])


def test_files_are_not_collected_without_the_ini_option(pytester: pytest.Pytester):
    write(pytester, "dialogues_001.json", BAD)
    pytester.runpytest("-p", "no:cacheprovider").assert_outcomes()


def test_kb_option_for_dialogues_without_results(pytester: pytest.Pytester):
    write(pytester, "dialogues_001.json", [sgd_dialogue("1_00009", 3, ["Napoli", "Mario"], with_results=False)])
    (pytester.path / "three.json").write_text(json.dumps({"Restaurants_1": [entity(n) for n in ("Napoli", "Mario", "Roma")]}))
    (pytester.path / "two.json").write_text(json.dumps({"Restaurants_1": [entity(n) for n in ("Napoli", "Mario")]}))
    pytester.makepyfile("def test_data(csp_check):\n    csp_check.assert_consistent('dialogues_001.json')\n")
    pytester.runpytest("-p", "no:cacheprovider", "--csp-check-kb", "three.json").assert_outcomes(passed=1)
    result = pytester.runpytest("-p", "no:cacheprovider", "--csp-check-kb", "two.json")
    result.assert_outcomes(failed=1)
    result.stdout.fnmatch_lines(["*[[]C6[]]*says 3*the KB has 2*"])


def test_unreadable_and_empty_inputs_fail(tmp_path):
    bad = tmp_path / "dialogues_001.json"
    bad.write_text('[{"dialogue_id": "1_00001", "turns": [{"speaker": "USER"}]}]')
    with pytest.raises(InconsistentDialogues, match="unreadable"):
        assert_consistent(bad)
    with pytest.raises(InconsistentDialogues) as info:
        assert_consistent(bad)
    assert str(info.value).splitlines()[1] == (f"csp-check: error: {bad}: dialogue 1_00001: turns[0]: missing field "
                                               "'utterance'")  # the command line's line  # fmt: skip
    with pytest.raises(InconsistentDialogues) as info:
        assert_consistent([])
    assert str(info.value) == "csp-check: error: no dialogues in [] (an empty list)"
    assert assert_consistent([], allow_empty=True) == []
    empty = tmp_path / "empty.json"
    empty.write_text("\n")
    with pytest.raises(InconsistentDialogues) as info:
        assert_consistent(empty)
    assert str(info.value) == f"csp-check: error: no dialogues in {empty} (the file is empty)"  # NoDialogues' shape
    assert assert_consistent(empty, allow_empty=True) == []  # an empty file is empty, not unreadable
    (tmp_path / "folder").mkdir()
    with pytest.raises(InconsistentDialogues, match=r"^csp-check: error: no dialogues in .*folder \(an empty folder\)$"):
        assert_consistent(tmp_path / "folder")


def test_helper_works_without_pytest_fixtures(tmp_path):
    path = tmp_path / "dialogues_001.json"
    path.write_text(json.dumps(BAD))
    with pytest.raises(AssertionError) as info:
        assert_consistent(path)
    assert info.value.reports[0].dialogue_id == "1_00003"  # type: ignore[attr-defined]
    assert [r.status.value for r in check(path, constraints=["C1", "C2"])] == ["consistent"]


def test_profile_and_unknown_constraint_ids_are_refused(pytester: pytest.Pytester):
    """P1-P6 check API calls; naming one (or a typo) in the marker must not silently check nothing."""
    write(pytester, "dialogues_001.json", BAD)
    pytester.makepyfile(
        """
        import pytest

        @pytest.mark.csp_check(constraints=["P1"])
        def test_profile(csp_check):
            csp_check.assert_consistent("dialogues_001.json")

        @pytest.mark.csp_check(constraints=["C9"])
        def test_typo(csp_check):
            csp_check.assert_consistent("dialogues_001.json")

        @pytest.mark.csp_check(constraints=["c1", "C6"])
        def test_lower_case(csp_check):
            csp_check.assert_consistent("dialogues_001.json")
        """
    )
    result = pytester.runpytest("-p", "no:cacheprovider")
    result.assert_outcomes(errors=2, failed=1)
    result.stdout.fnmatch_lines(["*P1 is a profile family*", "*unknown constraint 'C9'*"])
    with pytest.raises(UsageError, match="profile family"):
        check(pytester.path / "dialogues_001.json", constraints=["P3"])


def test_a_missing_file_is_not_called_inconsistent(tmp_path):
    with pytest.raises(FileNotFoundError) as info:
        assert_consistent(tmp_path / "nope.jsonl")
    assert str(info.value).startswith(f"csp-check: error: {tmp_path / 'nope.jsonl'}: no such file or directory (cwd ")


def test_collected_bad_and_empty_files_fail_with_the_command_line_s_lines(pytester: pytest.Pytester):
    """A collected file's unreadable dialogue and an empty collected file: the items fail with
    validate's lines (``FILE: dialogue ID: FIELD: what``, ``no dialogues in FILE (why)``)."""
    (pytester.path / "dialogues_001.json").write_text('[{"dialogue_id": "1_00001", "turns": [{"speaker": "USER"}]}]')
    (pytester.path / "dialogues_002.json").write_text("")
    pytester.makeini("[pytest]\ncsp_check_files = dialogues_*.json\n")
    result = pytester.runpytest("-p", "no:cacheprovider")
    result.assert_outcomes(failed=2)
    lines = result.stdout.lines
    assert f"csp-check: error: {pytester.path / 'dialogues_001.json'}: dialogue 1_00001: turns[0]: missing field 'utterance'" in lines
    assert f"csp-check: error: no dialogues in {pytester.path / 'dialogues_002.json'} (the file is empty)" in lines


def test_the_docs_example_output_is_what_pytest_prints(pytester: pytest.Pytester):
    """docs/pytest-plugin.md's complete example, run: its pasted failure lines are the real ones."""
    import re
    from pathlib import Path

    doc = (Path(__file__).resolve().parents[1] / "docs" / "pytest-plugin.md").read_text(encoding="utf-8")
    example = doc.split("## A complete example", 1)[1].split("\n## ", 1)[0]
    kb, code, shown = (body for _, body in re.findall(r"```(\w+)\n(.*?)```", example, re.S))
    (pytester.path / "kb.json").write_text(kb, encoding="utf-8")
    (pytester.path / "tests").mkdir()
    (pytester.path / "tests" / "test_generated_dialogues.py").write_text(code, encoding="utf-8")
    result = pytester.runpytest("-q", "-p", "no:cacheprovider")
    result.assert_outcomes(passed=2, failed=1)
    wanted = [line for line in shown.splitlines() if line.startswith(("E ", "csp_check = "))]
    assert wanted and all(line in result.stdout.lines for line in wanted), (wanted, result.stdout.str())


def test_failure_shows_the_kb_the_call_passed(pytester: pytest.Pytester):
    """pytest prints the fixture's repr on a failure: it names the KB of the failing call, not ``kb=None``."""
    write(pytester, "dialogues_001.json", BAD)
    kb = Path(__file__).resolve().parents[1] / "kb" / "restaurants.json"
    pytester.makepyfile(
        f"""
        def test_generated_data(csp_check):
            csp_check.assert_consistent("dialogues_001.json", kb={str(kb)!r})
        """
    )
    result = pytester.runpytest("-p", "no:cacheprovider")
    result.assert_outcomes(failed=1)
    result.stdout.fnmatch_lines([f"csp_check = CspCheck(kb={str(kb)!r}, constraints=(*"])
    assert "kb=None" not in result.stdout.str()
