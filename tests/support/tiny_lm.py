"""A tiny randomly initialised causal LM saved to a folder, for the attention tests (issue 23):
Llama architecture, 2 layers, hidden size 32, 4 heads (2 key-value heads: grouped-query
attention), a character-level tokenizer. Built from a config, nothing downloaded."""

from __future__ import annotations

import string
from pathlib import Path


def tiny_model(folder: Path, seed: int = 0) -> Path:
    """Save the tiny model and its tokenizer into ``folder``; return ``folder``."""
    import torch
    from tokenizers import Regex, Tokenizer, models, pre_tokenizers
    from transformers import LlamaConfig, LlamaForCausalLM, PreTrainedTokenizerFast

    chars = sorted(set(string.printable))
    vocab = {"[UNK]": 0, **{c: i + 1 for i, c in enumerate(chars)}}
    core = Tokenizer(models.WordLevel(vocab=vocab, unk_token="[UNK]"))
    core.pre_tokenizer = pre_tokenizers.Split(Regex("."), behavior="isolated")
    tokenizer = PreTrainedTokenizerFast(tokenizer_object=core, unk_token="[UNK]")
    torch.manual_seed(seed)
    config = LlamaConfig(vocab_size=len(vocab), hidden_size=32, intermediate_size=64, num_hidden_layers=2,
                         num_attention_heads=4, num_key_value_heads=2, max_position_embeddings=2048)  # fmt: skip
    model = LlamaForCausalLM(config)
    model.save_pretrained(folder)
    tokenizer.save_pretrained(folder)
    return folder
