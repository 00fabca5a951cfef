"""Corpus profiles: what is particular to MultiWOZ, SGD, ConvLab-3, our JSONL and raw text
(:class:`CorpusProfile`, one module per corpus), picked for a dialogue by :func:`profile_for`.

The build context carries the dialogue's profile; the families read it, never a corpus name.
Code that runs without a dialogue (a KB table normalised when loaded, the checker and the
solvers' primitives, the language helpers) reads the words of every profile
(:mod:`csp_check.corpora.shared`).

A new corpus is a reader (:mod:`csp_check.readers`) and a profile here: a module defining one
:class:`CorpusProfile` whose ``formats`` name the reader, listed in :data:`PROFILES`.
"""

from __future__ import annotations

from typing import Protocol

from csp_check.corpora.citod import CITOD
from csp_check.corpora.convlab import CONVLAB
from csp_check.corpora.jsonl import JSONL
from csp_check.corpora.multiwoz import MULTIWOZ
from csp_check.corpora.profile import CorpusProfile
from csp_check.corpora.sgd import SGD
from csp_check.corpora.text import TEXT

#: Every profile, in the order their words are merged where no dialogue is known.
PROFILES: tuple[CorpusProfile, ...] = (MULTIWOZ, CONVLAB, SGD, JSONL, TEXT, CITOD)
#: The profile of a dialogue whose format no profile names (a dialogue built in code): ours.
DEFAULT = JSONL

_BY_FORMAT = {fmt: profile for profile in PROFILES for fmt in profile.formats}


class Formatted(Protocol):
    """Anything with a reader's name as ``format`` (a :class:`~csp_check.models.Dialogue`)."""

    format: str


def profile_for(dialogue: Formatted) -> CorpusProfile:
    """The profile of ``dialogue``, by the reader that produced it (``Dialogue.format``); a
    format no profile names (``""``: built in code) gets :data:`DEFAULT`."""
    return _BY_FORMAT.get(dialogue.format, DEFAULT)


__all__ = ["CITOD", "CONVLAB", "DEFAULT", "JSONL", "MULTIWOZ", "PROFILES", "SGD", "TEXT", "CorpusProfile", "profile_for"]
