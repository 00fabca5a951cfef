"""SGD ratings written with their scale after a slash ("4.5/5", "4.3 / 5") are the rating
(csp_check/language/normalize.py ``rated``; a slash is a scale, never a decimal point). Real SGD dev
dialogues of the work half whose system turn gives a rating: the rating written "N/5" inside its
span is no flag (true twin); another rating written the same way is a certain break (fault)."""

from __future__ import annotations

import json
import shutil
from pathlib import Path

import pytest
from support.data import SGD_DEV

from csp_check.errors import InputError
from csp_check.language.normalize import rated, wording_key
from csp_check.models import Dialogue, Status
from csp_check.pipeline import check_dialogue, load_corpus
from csp_check.score.split import half_of

pytestmark = pytest.mark.skipif(not SGD_DEV.exists(), reason="../shared/data/sgd is not beside the repo")


def test_a_slash_scale_is_the_rating_and_never_a_decimal_point() -> None:
    assert [rated(t) for t in ("4.5/5", "4.3 / 5", "6.2/10", "4/5", "4.5")] == ["4.5", "4.3", "6.2", "4", None]
    assert wording_key("rating", "4.5/5") == wording_key("rating", "4.5")
    assert wording_key("rating", "4/5") != wording_key("rating", "4.5")  # was one key: "45"


def sites(limit: int = 6) -> list[tuple[dict, int, dict]]:
    """(SGD dialogue JSON, system turn, its rating slot) of dev dialogues_00[1-9].json, work half,
    a decimal rating whose span holds just its number."""
    out = []
    for path in sorted(SGD_DEV.glob("dialogues_00*.json")):
        for raw in json.loads(path.read_text(encoding="utf-8")):
            if half_of(raw["dialogue_id"]) != "work":
                continue
            site = next(((k, slot) for k, turn in enumerate(raw["turns"]) if turn["speaker"] == "SYSTEM"
                         for frame in turn["frames"] for slot in frame["slots"]
                         if slot["slot"] == "rating" and _decimal(turn["utterance"][slot["start"] : slot["exclusive_end"]])),
                        None)  # fmt: skip
            if site is not None:
                out.append((raw, *site))
            if len(out) >= limit:
                return out
    return out


def _decimal(text: str) -> bool:
    return "." in text and text.replace(".", "", 1).isdigit()


def with_rating(tmp_path: Path, raw: dict, k: int, slot: dict, new: str) -> Dialogue:
    """``raw`` with turn ``k``'s rating span written ``new`` (later spans of the turn shifted)."""
    raw = json.loads(json.dumps(raw))
    turn = raw["turns"][k]
    start, end = slot["start"], slot["exclusive_end"]
    grow = len(new) - (end - start)
    turn["utterance"] = turn["utterance"][:start] + new + turn["utterance"][end:]
    for frame in turn["frames"]:
        for s in frame["slots"]:
            if s["start"] >= end:
                s["start"] += grow
                s["exclusive_end"] += grow
            elif s["start"] == start:
                s["exclusive_end"] += grow
    folder = tmp_path / f"{raw['dialogue_id']}_{new.replace('/', '_')}"
    folder.mkdir()
    shutil.copy(SGD_DEV / "schema.json", folder / "schema.json")
    (folder / "dialogues_001.json").write_text(json.dumps([raw]), encoding="utf-8")
    return next(d for d in load_corpus([folder]) if not isinstance(d, InputError))


def test_a_rating_over_a_slash_scale_is_no_flag_and_another_rating_is_certain(tmp_path: Path) -> None:
    found = sites()
    assert len(found) >= 4
    for raw, k, slot in found:
        said = raw["turns"][k]["utterance"][slot["start"] : slot["exclusive_end"]]
        original = check_dialogue(with_rating(tmp_path, raw, k, slot, said))
        twin = check_dialogue(with_rating(tmp_path, raw, k, slot, f"{said}/5"))
        assert twin.status is original.status and len(twin.violations) == len(original.violations), raw["dialogue_id"]
        other = f"{float(said) + 0.3:.1f}" if float(said) < 4.7 else f"{float(said) - 0.3:.1f}"
        fault = check_dialogue(with_rating(tmp_path, raw, k, slot, f"{other}/5"))
        assert fault.status is Status.INCONSISTENT and any(v.certain for v in fault.violations), raw["dialogue_id"]
