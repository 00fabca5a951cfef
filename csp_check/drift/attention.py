"""Attention decay and split-softmax on a Hugging Face ``transformers`` causal LM (paper §3.2,
§5 and §6.2; extra ``hf``: ``pip install torch==2.13.0 transformers``).

**π(t)**, the share of attention on the system prompt: while the model generates token t, the
last position's attention row α_{t,1..t} (softmax over every earlier position, itself
included) is summed over the system prompt's positions 1..|s_B|; π(t) is that sum averaged
over every head of every layer, in [0, 1]. The paper finds it nearly constant within a turn and
falling from turn to turn (Figure 4): :func:`attention_decay` measures it for each generated
token of a chat whose agent turns the model writes itself (greedy), and its mean per turn.

**Split-softmax** (§6.2), at inference, no training: each attention row is computed as usual,
then its system-prompt part is rescaled so that its sum becomes π^k and the rest
(1 − π^k) / (1 − π) times itself::

    α'_{t,i} = α_{t,i} · π^k / π            for i ≤ |s_B|
    α'_{t,i} = α_{t,i} · (1 − π^k) / (1 − π)  otherwise

which keeps a distribution and, with an exponent 0 < k < 1, raises the share of the system
prompt (k = 1 is plain softmax). It is installed as an attention implementation of
``transformers`` (:data:`IMPLEMENTATION`, registered with ``AttentionInterface`` and the eager
mask), so any model whose attention modules dispatch through that interface (Llama, Mistral,
Qwen2, GPT-2 in recent releases, …) runs with it; the system prompt's length and k travel as
forward keyword arguments (``system_len``, ``split_exponent``).

Chat layout: plain text, ``"System: s_B\\n"`` then ``"User: …\\nAssistant:"`` per turn, the
model's answer appended after it (no chat template, so that any tokenizer works and the system
prompt's token span is exact: the tokens of ``"System: s_B\\n"``).
"""

from __future__ import annotations

import inspect
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from csp_check.drift.plot import pyplot
from csp_check.install import pip_extra

IMPLEMENTATION = "csp_split_softmax"


def _torch() -> Any:
    try:
        import torch
    except ImportError as err:  # pragma: no cover - depends on the environment
        raise RuntimeError(f"--hf-model needs torch and transformers: {pip_extra('hf')}") from err
    return torch


def split_weights(weights: Any, system_len: int, exponent: float) -> Any:
    """Split-softmax of attention ``weights`` (…, query, key), rows summing to 1: the first
    ``system_len`` keys of each row rescaled to sum π^k, the rest to 1 − π^k. Rows whose π is
    0 or 1 (nothing to move) are left as they are."""
    torch = _torch()
    if system_len <= 0 or exponent == 1.0:
        return weights
    pi = weights[..., :system_len].sum(dim=-1, keepdim=True).clamp(0.0, 1.0)
    target = pi.pow(exponent)
    inside = torch.where(pi > 0, target / pi.clamp_min(1e-12), torch.ones_like(pi))
    outside = torch.where(pi < 1, (1 - target) / (1 - pi).clamp_min(1e-12), torch.ones_like(pi))
    scale = torch.cat([inside.expand(*pi.shape[:-1], system_len),
                       outside.expand(*pi.shape[:-1], weights.shape[-1] - system_len)], dim=-1)  # fmt: skip
    return weights * scale.to(weights.dtype)


def split_softmax_attention(
    module: Any, query: Any, key: Any, value: Any, attention_mask: Any, scaling: float | None = None,
    dropout: float = 0.0, system_len: int = 0, split_exponent: float = 1.0, **kwargs: Any,
) -> tuple[Any, Any]:  # fmt: skip
    """Eager attention (``query`` (b, heads, q, d), ``key`` / ``value`` (b, kv_heads, k, d),
    an additive ``attention_mask`` (b, 1, q, k) or None) with split-softmax over the first
    ``system_len`` keys at exponent ``split_exponent``. Returns the output (b, q, heads, d) and
    the weights (b, heads, q, k), as ``transformers``' eager attention does."""
    torch = _torch()
    groups = query.shape[1] // key.shape[1]
    if groups > 1:
        key = key.repeat_interleave(groups, dim=1)
        value = value.repeat_interleave(groups, dim=1)
    scale = scaling if scaling is not None else query.shape[-1] ** -0.5
    scores = torch.matmul(query, key.transpose(2, 3)) * scale
    if attention_mask is not None:
        scores = scores + attention_mask[:, :, :, : key.shape[-2]]
    weights = torch.nn.functional.softmax(scores, dim=-1, dtype=torch.float32)
    weights = split_weights(weights, system_len, split_exponent).to(query.dtype)
    weights = torch.nn.functional.dropout(weights, p=dropout, training=getattr(module, "training", False))
    out = torch.matmul(weights, value).transpose(1, 2).contiguous()
    return out, weights


def register() -> None:
    """Register :data:`IMPLEMENTATION` with ``transformers`` (attention and its eager mask)."""
    try:
        from transformers import AttentionInterface
        from transformers.masking_utils import AttentionMaskInterface, eager_mask
    except ImportError as err:  # pragma: no cover - depends on the environment
        raise RuntimeError(f"--hf-model needs transformers >= 4.56: {pip_extra('hf')}") from err
    AttentionInterface.register(IMPLEMENTATION, split_softmax_attention)
    AttentionMaskInterface.register(IMPLEMENTATION, eager_mask)


def load_model(path: Path | str) -> tuple[Any, Any]:
    """The causal LM and tokenizer saved in folder ``path`` (``save_pretrained``), on the CPU,
    in eval mode, running :data:`IMPLEMENTATION`; nothing is downloaded (``local_files_only``)."""
    register()
    from transformers import AutoModelForCausalLM, AutoTokenizer

    tokenizer = AutoTokenizer.from_pretrained(str(path), local_files_only=True)
    model = AutoModelForCausalLM.from_pretrained(str(path), local_files_only=True, attn_implementation=IMPLEMENTATION)
    model.eval()
    return model, tokenizer


@dataclass
class AttentionTrace:
    """π(t) of one chat: ``tokens[j]`` = (turn, π) of generated token j, turns numbered from 1;
    ``system_len`` the system prompt's tokens; ``exponent`` the split-softmax k (1: none)."""

    system_len: int
    exponent: float
    tokens: list[tuple[int, float]] = field(default_factory=list)
    replies: list[str] = field(default_factory=list)

    def per_turn(self) -> list[float]:
        """Mean π over each turn's generated tokens, turn 1 first."""
        turns = sorted({t for t, _ in self.tokens})
        return [sum(p for t, p in self.tokens if t == k) / sum(1 for t, _ in self.tokens if t == k) for k in turns]

    def to_json(self) -> dict[str, Any]:
        return {"system_len": self.system_len, "exponent": self.exponent, "per_turn": [round(p, 6) for p in self.per_turn()],
                "tokens": [[t, round(p, 6)] for t, p in self.tokens], "replies": self.replies}  # fmt: skip


def system_share(attentions: Any, system_len: int) -> float:
    """π of the last position: its attention on the first ``system_len`` keys, averaged over
    the heads of every layer (``attentions``: per layer (b, heads, q, k))."""
    shares = [layer[0, :, -1, :system_len].sum(dim=-1).mean() for layer in attentions]
    return float(sum(float(s) for s in shares) / len(shares))


def attention_decay(
    model: Any, tokenizer: Any, system_prompt: str, user_turns: list[str], max_new_tokens: int = 24,
    exponent: float = 1.0,
) -> AttentionTrace:  # fmt: skip
    """π(t) for every token the model generates (greedy, ``max_new_tokens`` a turn) as the
    agent of a chat with system prompt ``system_prompt`` and the given user turns, with
    split-softmax at ``exponent`` (1: plain softmax). Raises ``ValueError`` for an exponent
    outside (0, 1] or a chat longer than the model's positions."""
    torch = _torch()
    if not 0 < exponent <= 1:
        raise ValueError(f"the split-softmax exponent must lie in (0, 1], not {exponent}")
    system_ids = tokenizer(f"System: {system_prompt}\n", add_special_tokens=False)["input_ids"]
    trace = AttentionTrace(system_len=len(system_ids), exponent=exponent)
    ids: list[int] = list(system_ids)
    limit = getattr(model.config, "max_position_embeddings", None) or getattr(model.config, "n_positions", None)
    extra = {"system_len": trace.system_len, "split_exponent": exponent}
    # the key-value cache is the argument ``cache`` in recent transformers, ``past_key_values`` in older ones
    cache_name = "cache" if "cache" in inspect.signature(model.forward).parameters else "past_key_values"
    with torch.no_grad():
        for turn, text in enumerate(user_turns, 1):
            ids += tokenizer(f"User: {text}\nAssistant:", add_special_tokens=False)["input_ids"]
            if limit and len(ids) + max_new_tokens > limit:
                raise ValueError(f"the chat needs {len(ids) + max_new_tokens} positions; the model has {limit}")
            out = model(input_ids=torch.tensor([ids]), use_cache=True, output_attentions=True, **extra)
            reply: list[int] = []
            for _ in range(max_new_tokens):
                trace.tokens.append((turn, system_share(out.attentions, trace.system_len)))
                token = int(out.logits[0, -1].argmax())
                reply.append(token)
                out = model(input_ids=torch.tensor([[token]]), use_cache=True, output_attentions=True, **extra,
                            **{cache_name: getattr(out, cache_name)})  # fmt: skip
            ids += reply + tokenizer("\n", add_special_tokens=False)["input_ids"]
            trace.replies.append(tokenizer.decode(reply))
    return trace


def plot_attention(traces: dict[str, AttentionTrace], path: Path) -> Path:
    """``attention.png``: π(t) per generated token (turn boundaries dotted) and its mean per
    turn, one line per trace (e.g. ``softmax`` and ``split-softmax k=0.5``)."""
    plt = pyplot()
    fig, (ax, bx) = plt.subplots(1, 2, figsize=(11, 4))
    for label, trace in traces.items():
        ax.plot(range(1, len(trace.tokens) + 1), [p for _, p in trace.tokens], label=label, linewidth=1)
        bx.plot(range(1, len(trace.per_turn()) + 1), trace.per_turn(), marker="o", label=label)
    first = next(iter(traces.values()), None)
    if first is not None:
        for j in range(1, len(first.tokens)):
            if first.tokens[j][0] != first.tokens[j - 1][0]:
                ax.axvline(j + 0.5, color="grey", linestyle=":", linewidth=0.8)
    ax.set(xlabel="generated token t", ylabel="π(t): attention share on the system prompt", ylim=(0, 1.02))
    bx.set(xlabel="turn", ylabel="mean π over the turn", ylim=(0, 1.02))
    ax.legend(fontsize=8)
    ax.grid(alpha=0.3)
    bx.grid(alpha=0.3)
    fig.tight_layout()
    fig.savefig(path, dpi=120)
    plt.close(fig)
    return path
