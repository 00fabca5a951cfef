"""The attack suite in CI (docs/robustness.md "Attacks"): a sample of ``tests/support/attacks.py``
at small scale, each checked against the contract — no traceback, a proper exit code, no good
dialogue lost, within its time and memory bound. ``benchmarks/attack.py`` runs them all at full
scale (a 1 GiB zip bomb, a 2 GiB first line, a call of 20,000 arguments, a 300 MB answer, …)."""

from __future__ import annotations

from pathlib import Path

import pytest
from support import attacks

#: Fast ones, one or more per issue-21 item (the slower ones: benchmarks/attack.py).
SAMPLE = ["zip_bad_utf8_member", "zip_bomb", "sparse_huge_first_line", "link_cycle"]


@pytest.mark.parametrize("name", SAMPLE)
def test_an_attack_costs_only_itself(tmp_path: Path, name: str) -> None:
    outcome = attacks.run_attack(name, tmp_path / name)
    assert outcome.problems == [], (outcome, (tmp_path / name / ".stderr").read_text()[:2000])


def test_every_item_of_the_issue_has_attacks() -> None:
    assert {item for item, _ in attacks.ATTACKS.values()} == {1, 2, 3, 4, 5}


def test_the_contract_check_catches_a_lost_dialogue(tmp_path: Path, monkeypatch) -> None:
    def expects_one_more(folder: Path, full: bool) -> attacks.Setup:
        setup = attacks.ATTACKS["zip_encrypted"][1](folder, full)
        setup.good = {"good.json": 5}  # the file holds 4
        return setup

    monkeypatch.setitem(attacks.ATTACKS, "lossy", (1, expects_one_more))
    outcome = attacks.run_attack("lossy", tmp_path / "lossy")
    assert outcome.lost == 1 and outcome.problems == ["1 good dialogue(s) lost"]
