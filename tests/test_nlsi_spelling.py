"""One spelling per value, chosen by rule, never by a set's hash order: a value the ontology writes
several ways that normalise alike ("San Diego" / "San DIego") is emitted as the user's own
spelling when it is one of them, else the ordinary one (``schema.spelling``); derived calls on the
release's examples are the same under two ``PYTHONHASHSEED``s (skipped when ../shared/data/nlsi
is absent)."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

from csp_check.nlsi.instructions import InstructionParser
from csp_check.nlsi.schema import load_schema, spelling
from csp_check.nlsi.spans import answered_name

ROOT = Path(__file__).resolve().parents[1]
RELEASE = ROOT.parent / "shared" / "data" / "nlsi"
RAW = RELEASE / "old_instructions_dataset.json"
needs_release = pytest.mark.skipif(not RAW.exists(), reason="shared NLSI release files not present")

#: Derive the release's 175 examples and print one JSON line of the derived calls (compared, not read).
_DERIVE = """
import json, sys
from pathlib import Path
from csp_check.nlsi.check import Checker
from csp_check.nlsi.derive import derive
from csp_check.nlsi.models import Example
from csp_check.nlsi.readers import read_examples
from csp_check.nlsi.schema import load_schema
folder = Path(sys.argv[1])
checker = Checker(load_schema([folder]), use_annotation=False)
out = {}
for ex in read_examples(folder / "old_instructions_dataset.json"):
    if isinstance(ex, Example):
        out[str(ex.example_id)] = [str(c) for c in derive(checker.context(ex))[0]]
print(json.dumps(out, sort_keys=True))
"""


def test_spelling_rule():
    assert spelling(["San DIego", "San Diego"]) == "San Diego"  # no capital inside a word
    assert spelling(["new york", "New York"]) == "New York"  # words capitalised
    assert spelling(["St Louis", "St. Louis"]) == "St. Louis"  # punctuation kept
    assert spelling(["San DIego", "San Diego"], said="San DIego") == "San DIego"  # the user's own
    assert spelling(["San Diego"], said="san diego") == "San Diego"  # not a listed form: the rule's
    with pytest.raises(ValueError):
        spelling([])


def test_answered_name_before_a_comment():
    assert answered_name("Breakthrough, I hear it's good.") == "Breakthrough"
    assert answered_name("Yes, I hear it's good.") is None
    assert answered_name("Nobody Can Save Me.") == "Nobody Can Save Me"
    assert answered_name("I think so, thanks") is None


@needs_release
def test_release_ontology_spellings():
    schema = load_schema([RELEASE])
    assert schema.forms("Buses", "to_location", "san diego") == ["San DIego", "San Diego"]  # both listed
    assert schema.canonical("Buses", "to_location", "SAN DIEGO") == "San Diego"
    assert schema.canonical("Buses", "to_location", "san diego", said="San DIego") == "San DIego"
    parser = InstructionParser(schema)
    for text, want in (("A bus to San DIego", "San DIego"), ("A bus to San Diego", "San Diego")):
        _, ms = parser.mentions(text)
        said = {o.split("\x00")[1] for m in ms if m.kind == "value" for d, o in m.options
                if d == "Buses" and o.startswith("to_location")}
        assert said == {want}, (text, said)


@needs_release
def test_derived_calls_do_not_depend_on_hash_order():
    runs = []
    for seed in ("1", "2"):
        env = {**os.environ, "PYTHONHASHSEED": seed, "PYTHONPATH": str(ROOT)}
        done = subprocess.run([sys.executable, "-c", _DERIVE, str(RELEASE)], env=env, capture_output=True,
                              text=True, check=True, timeout=600)
        runs.append(json.loads(done.stdout))
    assert len(runs[0]) == 175
    assert runs[0] == runs[1]
