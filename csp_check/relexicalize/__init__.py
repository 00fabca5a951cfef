"""Relexicalizers: fill a delexicalized dialogue's variables with values (paper §4.6, spec §4).

Every relexicalizer has ``name`` and ``relexicalize(csp, delex, rng) -> {variable: value}``
(:class:`~csp_check.relexicalize.base.Relexicalizer`); :func:`get_relexicalizer` builds one by
name: ``random``, ``most-frequent``, ``csp`` (a solver solution) and ``llm`` (a chat model;
needs ``settings=LLMSettings(…)`` and the ``llm`` extra).
"""

from __future__ import annotations

from typing import Any

from .base import UNALIGNED, Relexicalizer, relexicalize_many
from .baselines import MostFrequentRelexicalizer, RandomRelexicalizer
from .llm import LLMRelexicalizer
from .solver import CspRelexicalizer

NAMES = ("random", "most-frequent", "csp", "llm")


def get_relexicalizer(name: str, **options: Any) -> Relexicalizer:
    """A relexicalizer by name (see :data:`NAMES`); ``options`` go to its constructor
    (``csp``: ``solver``, ``time_limit``; ``llm``: ``settings``, ``progress``).
    Raises ``ValueError`` for an unknown name."""
    if name == "random":
        return RandomRelexicalizer()
    if name in ("most-frequent", "most_frequent", "mf"):
        return MostFrequentRelexicalizer()
    if name == "csp":
        return CspRelexicalizer(**options)
    if name == "llm":
        return LLMRelexicalizer(**options)
    raise ValueError(f"unknown relexicalizer {name!r}; choose one of {', '.join(NAMES)}")


__all__ = [
    "NAMES", "UNALIGNED", "CspRelexicalizer", "MostFrequentRelexicalizer", "RandomRelexicalizer",
    "Relexicalizer", "get_relexicalizer", "relexicalize_many",
]
