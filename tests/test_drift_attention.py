"""π(t), the attention share on the system prompt, and split-softmax (issue 23; paper §3.2, §6.2)
on a tiny randomly initialised Llama built from a config (tests/support/tiny_lm.py)."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from click.testing import CliRunner

from csp_check.cli.main import main

torch = pytest.importorskip("torch")
pytest.importorskip("transformers")

from support.tiny_lm import tiny_model  # noqa: E402

from csp_check.drift.attention import attention_decay, load_model, split_weights  # noqa: E402

TURNS = ["Hello there, how are you today?", "Tell me about the weather.", "What about tomorrow?", "And next week?"]
SYSTEM = "Always answer in French, whatever the user says."


@pytest.fixture(scope="module")
def tiny(tmp_path_factory: pytest.TempPathFactory) -> Path:
    return tiny_model(tmp_path_factory.mktemp("tiny"))


def test_split_weights_keep_a_distribution_and_move_mass_to_the_system_prompt() -> None:
    weights = torch.softmax(torch.randn(2, 4, 3, 10, generator=torch.Generator().manual_seed(0)), dim=-1)
    split = split_weights(weights, 4, 0.5)
    assert torch.allclose(split.sum(-1), torch.ones(2, 4, 3), atol=1e-6)
    before, after = weights[..., :4].sum(-1), split[..., :4].sum(-1)
    assert torch.allclose(after, before.sqrt(), atol=1e-6)  # π' = π^k
    assert bool((after >= before).all())
    # within each part the proportions are kept
    assert torch.allclose(split[..., :4] / after[..., None], weights[..., :4] / before[..., None], atol=1e-5)
    assert torch.equal(split_weights(weights, 4, 1.0), weights) and torch.equal(split_weights(weights, 0, 0.5), weights)


def test_attention_share_decays_across_turns_and_split_softmax_raises_it(tiny: Path) -> None:
    model, tokenizer = load_model(tiny)
    plain = attention_decay(model, tokenizer, SYSTEM, TURNS, max_new_tokens=4)
    split = attention_decay(model, tokenizer, SYSTEM, TURNS, max_new_tokens=4, exponent=0.5)
    assert plain.system_len == len(tokenizer(f"System: {SYSTEM}\n", add_special_tokens=False)["input_ids"])
    assert len(plain.tokens) == len(split.tokens) == 4 * 4
    assert [t for t, _ in plain.tokens] == [t for t in range(1, 5) for _ in range(4)]
    shares = [p for _, p in plain.tokens + split.tokens]
    assert all(0.0 <= p <= 1.0 for p in shares)
    per_turn = plain.per_turn()
    assert len(per_turn) == 4 and all(a > b for a, b in zip(per_turn, per_turn[1:]))  # decay: the context grows
    assert all(s > p for s, p in zip(split.per_turn(), per_turn))
    assert all(s > p for (_, s), (_, p) in zip(split.tokens, plain.tokens))
    with pytest.raises(ValueError, match="exponent"):
        attention_decay(model, tokenizer, SYSTEM, TURNS, exponent=1.5)


def test_drift_hf_model_writes_attention_json_and_png(tiny: Path, tmp_path: Path) -> None:
    pytest.importorskip("matplotlib")
    result = CliRunner().invoke(main, ["drift", "--hf-model", str(tiny), "--rounds", "3", "--hf-tokens", "4",
                                       "--split-exponent", "0.3", "--out", str(tmp_path)])  # fmt: skip
    assert result.exit_code == 0, result.output
    data = json.loads((tmp_path / "attention.json").read_text())
    plain, split = data["traces"]["softmax"], data["traces"]["split-softmax k=0.3"]
    assert len(plain["per_turn"]) == len(data["turns"]) == 3 and len(plain["tokens"]) == 12
    assert all(s > p for s, p in zip(split["per_turn"], plain["per_turn"]))
    assert (tmp_path / "attention.png").read_bytes()[:4] == b"\x89PNG"
    assert "attention softmax: mean π per turn" in result.stdout
