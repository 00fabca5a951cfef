"""After a failed transaction (SGD NOTIFY_FAILURE): what the turn informs of the entity is a
claim (a fault there is flagged certain), the alternative it proposes is a new try (changed, it
is never flagged certain). Real SGD dialogues (restaurants: train dialogues_001, dialogues_003),
read in place."""

from __future__ import annotations

import json
import random

import pytest
from support.data import SGD

from csp_check.errors import InputError
from csp_check.faults.failure import failed_call_slots, proposed_alternative_twin
from csp_check.faults.inject import trial
from csp_check.models import ActRole, ConstraintId
from csp_check.pipeline import check_dialogue, load_corpus

PATHS = [SGD / "train" / "dialogues_001.json", SGD / "train" / "dialogues_003.json"]
pytestmark = pytest.mark.skipif(not all(p.exists() for p in PATHS), reason="../shared/data/sgd/train is not beside the repo")


@pytest.fixture(scope="module")
def failures():
    """(dialogue, SGD JSON) of the accepted dialogues of the file with a failed transaction."""
    out = []
    for path in PATHS:
        raws = {d["dialogue_id"]: d for d in json.loads(path.read_text(encoding="utf-8"))}
        for d in load_corpus([path]):
            if isinstance(d, InputError) or not any(failed_call_slots(d, t.index) is not None for t in d.turns):
                continue
            if not check_dialogue(d).violations:
                out.append((d, raws[d.id]))
    return out


def test_a_false_inform_after_a_failure_is_certain(failures):
    rng = random.Random(0)
    trials = [t for d, raw in failures if (t := trial(d, "failed_inform", "text", rng, raw=raw)) is not None]
    assert len(trials) >= 5
    assert all(ConstraintId.C5 in t.found for t in trials)
    # "Their address is … . Shall I try for 2 at 12 pm?": the stated address is false on its own
    assert sum(t.flagged_certain for t in trials) / len(trials) >= 0.5


def test_a_changed_proposal_after_a_failure_is_never_certain(failures):
    """A proposal changed where the failed call returned nothing is a new try: never certain.
    Where the call returned the alternative (SGD's services answer a failed booking with the
    one they have, and every proposal of these files has one), the twin is no twin: none is made."""
    for d, raw in failures:
        twin = proposed_alternative_twin(d, raw)
        if twin is not None:
            found = check_dialogue(twin).violations
            assert not any(v.certain for v in found), (d.id, [v.message for v in found if v.certain])


def test_a_proposal_after_a_failure_states_the_calls_alternative(failures):
    """Every failure turn proposing a value for a slot of its failed call carries the call's
    result, and the proposal is what the result has (the dialogues are accepted)."""
    proposals = 0
    for d, _ in failures:
        for t in d.turns:
            slots = failed_call_slots(d, t.index)
            if slots and any(a.role is ActRole.OFFER and a.slot in slots for a in t.acts):
                proposals += 1
                assert any(r.call is not None and r.entities for r in t.kb_results), (d.id, t.index)
    assert proposals >= 5
