"""MultiWOZ 2.1 val dialogues as raw text (their text only, spaces collapsed, as
``benchmarks/rawtext.py`` writes them), for tests that edit a turn and check the copy under
C1–C6 against the DB. The zip is read once per test process, in place (never copied)."""

from __future__ import annotations

import json
import zipfile
from functools import cache

from csp_check.models import Dialogue, KnowledgeBase, Turn
from csp_check.pipeline import check_dialogue
from csp_check.readers.kb import load_kb
from support.data import MULTIWOZ_DB, MULTIWOZ_VAL

PAPER = ["C1", "C2", "C3", "C4", "C5", "C6"]


@cache
def kb() -> KnowledgeBase:
    """The MultiWOZ DB, loaded once."""
    return load_kb(MULTIWOZ_DB)


@cache
def _val() -> dict[str, dict]:
    with zipfile.ZipFile(MULTIWOZ_VAL) as z:
        member = next(n for n in z.namelist() if n.endswith(".json"))
        return json.loads(z.read(member))


def val_log(dialogue_id: str) -> list[dict]:
    """The release's turns of one val dialogue (``{"text": …, …}`` each)."""
    data = _val()
    return (data.get(dialogue_id) or data[dialogue_id + ".json"])["log"]


def raw_val(dialogue_id: str, edits: dict[int, str] | None = None) -> Dialogue:
    """The val dialogue as raw text, turns alternating user / system, with the utterances of
    ``edits`` (turn → new utterance) in place of the release's."""
    edits = edits or {}
    texts = [" ".join(t["text"].split()) for t in val_log(dialogue_id)]
    return Dialogue(id=dialogue_id, turns=[Turn(index=k, speaker="user" if k % 2 == 0 else "system",
                                                utterance=edits.get(k, text)) for k, text in enumerate(texts)])  # fmt: skip


def edited(dialogue: Dialogue, edits: dict[int, str]) -> Dialogue:
    """A copy of ``dialogue`` with the utterances of ``edits`` (turn → new utterance)."""
    turns = [Turn(index=t.index, speaker=t.speaker, utterance=edits.get(t.index, t.utterance)) for t in dialogue.turns]
    return Dialogue(id=dialogue.id, turns=turns)


def certain(dialogue: Dialogue) -> bool:
    """Whether C1–C6 flag ``dialogue`` with a certain violation."""
    return any(v.certain for v in check_dialogue(dialogue, kb(), PAPER).violations)
