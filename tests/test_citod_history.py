"""CI-ToD HI classes of calendar and navigate found on train (issue 20, third round): the kind of
place the user asked for holds when no turn before the query named a place."""

from __future__ import annotations

from pathlib import Path

from test_citod_classes import CITOD, labels, needs_citod

from csp_check.score.citod_bench import fault_rates, run


def test_the_kind_asked_holds_when_no_place_was_named(tmp_path: Path) -> None:
    asked = ["where is the nearest rest_stop", "the nearest rest_stop is 3_miles away", "what is the address"]
    assert labels(tmp_path, "navigate", [*asked, "trader_joes is at 408_university_ave"])[:2] == (True, True)
    assert not any(labels(tmp_path, "navigate", [*asked, "hotel_keen is at 578_arbol_dr"]))


@needs_citod
def test_kind_unnamed_on_real_train_dialogues() -> None:
    """navigate train items 171 ("the closest hospital is at 214_el_camino_real" / "set the gps
    there" / "hava a good time in mandarin_roots") and 453 (a grocery_store, then chef_chu_s) are
    HI as gold says; the hi_kind_unnamed pairs are caught and their twins are not."""
    bench = run([CITOD / "navigate_train.json"])
    for index in (171, 453):
        assert bench.scored[index].labels.hi and bench.scored[index].gold.hi
    pairs, caught, twins = fault_rates(bench)["hi_kind_unnamed"]
    assert pairs >= 100 and caught == pairs and twins == 0
