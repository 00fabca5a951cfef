"""Scale: the solver-free most similar solution, sharded reading (byte windows of large JSON
files, per-file shards), and identical reports across serial, ``--jobs 2`` and Ray."""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest
from hypothesis import given, settings
from support.data import SGD_DEV, needs_sgd
from support.solvers import SETTINGS, csps

from csp_check.check.evaluate import violations
from csp_check.models import CSP
from csp_check.solvers import get_solver, own_optimum
from csp_check.solvers.answers import solve_report

# -- the most similar solution without a solver ------------------------------------------------


@settings(max_examples=150, **SETTINGS)
@given(csps())
def test_own_optimum_is_what_the_solver_proves(csp: CSP) -> None:
    """Whenever the shortcut answers, CP-SAT's optimisation gives the same optimum and solution;
    it answers for every CSP whose own assignment is a solution in the solver's domains."""
    mine = own_optimum(csp)
    best = get_solver("cp-sat").most_similar(csp)
    if mine is None:
        assert violations(csp) or best.agreement < best.variables or best.solution != csp.assignment
        return
    assert not violations(csp)
    assert (mine.status, mine.agreement, mine.agreeing, mine.variables, mine.solution) == (
        best.status, best.agreement, best.agreeing, best.variables, best.solution
    )  # fmt: skip


@settings(max_examples=60, **SETTINGS)
@given(csps())
def test_solve_report_same_with_and_without_shortcut(csp: CSP) -> None:
    import csp_check.solvers.answers as answers

    fast = solve_report(csp, vca=True, repair=True)
    saved = answers.own_optimum
    answers.own_optimum = lambda *a, **k: None
    try:
        slow = solve_report(csp, vca=True, repair=True)
    finally:
        answers.own_optimum = saved
    assert fast.model_dump(exclude={"solve_seconds"}) == slow.model_dump(exclude={"solve_seconds"})


# -- SGD recognised by structure, large files read in windows ---------------------------------


def sgd_like(n: int, source: Path = SGD_DEV / "dialogues_001.json") -> list[dict]:
    """``n`` shared SGD dev dialogues renamed with ids unlike SGD's (``conv-…``)."""
    import json

    dialogues = json.loads(source.read_text(encoding="utf-8"))
    out = []
    for i in range(n):
        d = dict(dialogues[i % len(dialogues)])
        d["dialogue_id"] = f"conv-{i:05d}/{i % 7}"
        out.append(d)
    return out


def items_of(iterator) -> list:
    """Dialogues as they are, read errors as their message (exceptions compare by identity)."""
    from csp_check.errors import InputError

    return [("error", str(x)) if isinstance(x, InputError) else x for x in iterator]


@needs_sgd
@pytest.mark.parametrize("indent", [None, 2])
def test_sgd_with_other_ids_is_recognised_by_structure(tmp_path: Path, indent: int | None) -> None:
    import json

    from csp_check.readers import sniff_format

    path = tmp_path / "export.json"
    path.write_text(json.dumps(sgd_like(5), indent=indent), encoding="utf-8")
    assert sniff_format(path) == "sgd"
    mwoz22 = Path(__file__).parent / "fixtures" / "multiwoz" / "v22" / "dialogues_ours.json"
    assert sniff_format(mwoz22) == "multiwoz22"  # the same layout, MultiWOZ's slot names: not SGD


@needs_sgd
@pytest.mark.parametrize("damage", ["none", "invalid-item", "not-utf8", "truncated", "bom"])
@pytest.mark.parametrize("indent", [None, 2])
def test_windows_give_the_items_and_errors_of_the_whole_file(tmp_path: Path, damage: str, indent: int | None) -> None:
    """Reading a file window by window (any window size) gives exactly what reading it whole
    gives: the same dialogues, and the same errors with the same item, line and column."""
    import json

    from csp_check.readers import json_stream, sgd

    text = json.dumps(sgd_like(30), indent=indent, ensure_ascii=False)
    at = text.index('"conv-00017')
    if damage == "invalid-item":
        text = text[:at] + '"conv-00017" 1' + text[at + len('"conv-00017/3"'):]
    elif damage == "truncated":
        text = text[: len(text) * 2 // 3]
    elif damage == "bom":
        text = "\ufeff" + text
    data = text.encode("utf-8")
    if damage == "not-utf8":
        k = data.index(b"conv-00011")
        data = data[:k] + b"\xff" + data[k + 1 :]
    path = tmp_path / "big.json"
    path.write_bytes(data)
    whole = items_of(sgd.read(path))
    errors = [x for x in whole if isinstance(x, tuple)]
    assert (damage in ("none", "bom")) == (not errors)
    for target in (1, 20_000, 10**9):
        windows = json_stream.json_windows(path, target)
        assert windows and windows[-1].last
        read = items_of(x for w in windows for x in sgd.read(path, window=w, schema_errors=False))
        assert read == whole, (target, errors)
        if target == 20_000 and damage != "truncated":  # damage does not end the windowing
            assert len(windows) >= 8 and windows[-2].index > 20, [w.index for w in windows]


@needs_sgd
def test_a_large_file_is_streamed_not_read_whole(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """Over LARGE_FILE bytes, the reader never reads the whole file into memory."""
    import json

    from csp_check.readers import json_stream, read_dialogues

    path = tmp_path / "big.json"
    path.write_text(json.dumps(sgd_like(60), indent=2), encoding="utf-8")
    expected = items_of(read_dialogues([path]))
    monkeypatch.setattr(json_stream, "LARGE_FILE", path.stat().st_size // 10)
    monkeypatch.setattr(json_stream, "WINDOW_BYTES", path.stat().st_size // 10)
    largest = []
    real = json_stream.read_window
    monkeypatch.setattr(json_stream, "read_window", lambda p, w: largest.append(len(t := real(p, w))) or t)
    monkeypatch.setattr(json_stream, "read_text", lambda p: pytest.fail("read whole"))
    assert items_of(read_dialogues([path])) == expected
    assert len(largest) >= 5 and max(largest) < path.stat().st_size / 3


# -- shards: reading the plan is reading the corpus -------------------------------------------


@needs_sgd
def test_the_plan_read_in_order_is_the_corpus(tmp_path: Path) -> None:
    import json

    from csp_check.readers import read_dialogues
    from csp_check.run.shards import plan, read_shard

    (tmp_path / "sgd").mkdir()
    (tmp_path / "sgd" / "schema.json").write_text("[{]", encoding="utf-8")  # unreadable: said once
    (tmp_path / "sgd" / "dialogues_001.json").write_text(json.dumps(sgd_like(40)), encoding="utf-8")
    (tmp_path / "sgd" / "dialogues_002.json").write_text(json.dumps(sgd_like(3))[:-9], encoding="utf-8")
    paths = [tmp_path / "sgd", tmp_path / "missing.json", SGD_DEV / "dialogues_002.json",
             Path(__file__).parent.parent / "examples" / "dialogues.jsonl"]  # fmt: skip
    shards = list(plan(paths, window_bytes=30_000, max_items=7))
    assert len(shards) > 10 and sum(s.first for s in shards) == 4
    expected = items_of(read_dialogues(paths))
    assert sum(isinstance(x, tuple) for x in expected) >= 3  # the schema, the truncation, the missing path
    assert items_of(x for s in shards for x in read_shard(s)) == expected



@needs_sgd
def test_a_split_of_many_files_per_worker_is_sent_file_by_file() -> None:
    from csp_check.readers import read_dialogues
    from csp_check.run.shards import WHOLE_FILES_PER_JOB, plan, read_shard

    files = sorted(SGD_DEV.glob("dialogues_*.json"))
    assert len(files) >= WHOLE_FILES_PER_JOB  # the shared dev split: 1 worker sends its files whole
    whole = list(plan([SGD_DEV], jobs=1))
    assert [(s.path, s.window) for s in whole] == [(str(f), None) for f in files]
    windowed = list(plan([SGD_DEV], jobs=len(files) // WHOLE_FILES_PER_JOB + 1))
    assert len(windowed) > len(files) and all(s.window is not None for s in windowed)
    ids = [(d.source, d.id) for d in read_dialogues([SGD_DEV])]
    assert [(d.source, d.id) for s in whole for d in read_shard(s)] == ids
    assert [(d.source, d.id) for s in windowed for d in read_shard(s)] == ids

# -- the same reports serial, with --jobs 2 and on Ray ----------------------------------------



def _has_ray() -> bool:
    try:
        import ray  # noqa: F401
    except ImportError:
        return False
    return True


needs_ray = pytest.mark.skipif(not _has_ray(), reason="ray is not installed (pip install 'csp-check[ray]')")


@pytest.fixture(scope="module")
def local_ray():
    """One local Ray (2 CPUs) for the Ray tests of this module; the engine reuses it."""
    import os

    import ray

    before = os.environ.get("PYTHONPATH")
    here = str(Path(__file__).parent)  # Ray's workers import this module's check functions
    os.environ["PYTHONPATH"] = os.pathsep.join([here, *([before] if before else [])])
    try:
        ray.init(num_cpus=2, include_dashboard=False, log_to_driver=False, logging_level="ERROR")
    finally:
        if before is None:
            del os.environ["PYTHONPATH"]
        else:
            os.environ["PYTHONPATH"] = before
    yield ray
    ray.shutdown()


@pytest.fixture(scope="module")
def mixed_corpus(tmp_path_factory) -> list[Path]:
    """SGD files, one with other ids and a damaged item, and a JSONL file of our format."""
    import json

    tmp = tmp_path_factory.mktemp("corpus")
    text = json.dumps(sgd_like(45), indent=2)
    at = text.index('"conv-00030')
    (tmp / "export.json").write_text(text[:at] + '"conv-00030" 1' + text[at + len('"conv-00030/2"'):], encoding="utf-8")
    return [tmp / "export.json", SGD_DEV / "dialogues_003.json",
            Path(__file__).parent.parent / "examples" / "dialogues.jsonl"]  # fmt: skip


def once_then_die(dialogue, settings):
    """Kill the worker process the first time it meets dialogue ``conv-00007/0`` (a marker
    file beside the input remembers it): Ray must retry the task."""
    import os

    from csp_check.run.runner import default_check

    marker = Path(dialogue.source).with_name("died-once")
    if dialogue.id == "conv-00007/0" and not marker.exists():
        marker.touch()
        os._exit(3)
    return default_check(dialogue, settings)


def _dumped(reports) -> list[str]:
    out = []
    for r in reports:
        data = json.loads(r.model_dump_json())
        data.get("extra", {}).get("solver", {}).pop("solve_seconds", None)  # wall time differs run to run
        out.append(json.dumps(data, separators=(",", ":")))
    return out


@needs_sgd
@needs_ray
def test_serial_jobs_and_ray_give_identical_reports(mixed_corpus: list[Path], local_ray) -> None:
    from csp_check.run.runner import SolverSettings, validate

    solver = SolverSettings(vca=True)
    serial = _dumped(validate(mixed_corpus, solver=solver))
    assert len(serial) > 100 and any('"status":"error"' in r for r in serial)
    assert _dumped(validate(mixed_corpus, jobs=2, solver=solver)) == serial
    assert _dumped(validate(mixed_corpus, jobs=2, engine="ray", solver=solver)) == serial
    # a worker dying once: Ray runs the task again, and the reports are the same
    assert _dumped(validate(mixed_corpus, jobs=2, engine="ray", solver=solver, check=once_then_die, chunk_size=8)) == serial
    assert (mixed_corpus[0].parent / "died-once").exists()


@needs_sgd
@needs_ray
def test_cli_engine_ray_same_report_and_exit_code(mixed_corpus: list[Path], local_ray, tmp_path: Path) -> None:
    from click.testing import CliRunner

    from csp_check.cli.main import main

    runs = {}
    for name, extra in [("serial", []), ("jobs", ["--jobs", "2"]), ("ray", ["--engine", "ray", "--jobs", "2"])]:
        report = tmp_path / f"{name}.jsonl"
        result = CliRunner().invoke(main, ["validate", *map(str, mixed_corpus), "--report", str(report), "--quiet", *extra])
        runs[name] = (result.exit_code, report.read_bytes())
    assert runs["serial"][0] == 2  # an unreadable dialogue
    assert runs["jobs"] == runs["serial"] and runs["ray"] == runs["serial"]


@needs_ray
def test_calls_and_experiment_take_the_ray_engine(local_ray, tmp_path: Path) -> None:
    from click.testing import CliRunner
    from support.nlsi import SCHEMA_FILE, example

    from csp_check.cli.main import main
    from csp_check.nlsi.models import ReasoningType

    good = example("User: Find me a Gynecologist.", ["I'd like to get a Doctor in San Rafael if I can."],
                   ['GetDoctors(type="Gynecologist", location="San Rafael")'],
                   applicable=["I'd like to get a Doctor in San Rafael if I can."], rtype=ReasoningType.PLAIN, eid="good")
    bad = good.model_copy(update={"example_id": "bad", "api_calls": ['GetDoctors(type="Gynecologist")']})
    path = tmp_path / "b.jsonl"
    path.write_text("".join(e.model_dump_json() + "\n" for e in [good, bad] * 20), encoding="utf-8")
    reports = {}
    for name, extra in [("serial", []), ("ray", ["--engine", "ray"])]:
        report = tmp_path / f"{name}.jsonl"
        result = CliRunner().invoke(main, ["calls", str(path), "--schema", str(SCHEMA_FILE), "--report", str(report), *extra])
        reports[name] = (result.exit_code, report.read_text())
    assert reports["serial"][0] == 1 and reports["ray"] == reports["serial"]
    if SGD_DEV.is_dir():
        source = SGD_DEV.parent / "train" / "dialogues_001.json"
        outs = []
        for extra in ([], ["--engine", "ray", "--jobs", "2"]):
            out = tmp_path / f"exp{len(outs)}"
            result = CliRunner().invoke(main, ["experiment", str(source), "--limit", "3", "--no-plots", "--out", str(out), *extra])
            assert result.exit_code == 0, result.output
            outs.append(re.sub(r"; [\d.]+ s\.", "", (out / "tables.md").read_text()))  # but the run time
        assert outs[0] == outs[1]


def test_engine_options_are_checked(tmp_path: Path) -> None:
    from click.testing import CliRunner

    from csp_check.cli.main import main

    result = CliRunner().invoke(main, ["validate", str(tmp_path), "--ray-address", "auto"])
    assert result.exit_code == 2 and "--ray-address needs --engine ray" in result.output


def test_an_unreachable_ray_address_fails_fast() -> None:
    """A host:port where nothing listens: one line, exit 2, no minutes of Ray retries."""
    import time

    from click.testing import CliRunner

    from csp_check.cli.main import main

    pytest.importorskip("ray")
    for address in ("127.0.0.1:1", "ray://127.0.0.1:1"):
        start = time.monotonic()
        result = CliRunner().invoke(main, ["validate", str(Path(__file__).parent.parent / "examples" / "dialogues.jsonl"), "--engine", "ray", "--ray-address", address])
        assert result.exit_code == 2 and f"cannot reach Ray at {address}" in result.output, result.output
        assert time.monotonic() - start < 10


def test_the_ray_extra_brings_ray_client() -> None:
    """docs/scale.md's ray://HEAD:10001 needs Ray Client, which plain `ray` lacks ("requires ray[client]")."""
    import tomllib

    pyproject = tomllib.loads((Path(__file__).resolve().parents[1] / "pyproject.toml").read_text(encoding="utf-8"))
    extra = pyproject["project"]["optional-dependencies"]["ray"]
    assert any(re.match(r"ray\[[^]]*\bclient\b", req) for req in extra), extra
