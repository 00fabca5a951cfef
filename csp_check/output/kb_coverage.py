"""The warning of a ``--kb`` that covers the corpus badly: per domain, with counts.

What a ``--kb`` feeds (read from the families and the builder): a KB table of a domain builds
that domain's **C4–C6** instances (no result, offers, amounts: ``families/c4_no_instance.py``,
``c5_some_instance.py``, ``c6_*.py`` through ``BuildContext.kb_scopes``), adds its values to
**C1**'s value sets V(type) (``build/builder.py``), and gives the spellings every value is read
against (``delexicalize/assignment.py``, ``Lexicon.attach``: what C1–C3, S1 and S2 compare). So a
KB of other domains changes C1 verdicts too, not only C4–C6.

:func:`kb_coverage_warning` is one line for stderr (or ``--json``'s ``warnings``) when

- a domain of the dialogues has no table in the KB: the KB gives its dialogues no C4–C6 (each such
  domain named with its number of dialogues; the KB's domains too when it covers none), or
- a domain it covers has more than :data:`SUSPECT_SHARE` of its dialogues flagged (certain) by
  C4–C6 against the KB: most likely a toy or foreign KB (12 invented restaurants on MultiWOZ),
  not the corpus's own.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Mapping

#: A covered domain with more of its dialogues flagged by C4–C6 than this share is suspect.
SUSPECT_SHARE = 1 / 3

#: What a KB table feeds, said once in every KB warning.
KB_FEEDS = ("a KB table of a domain builds that domain's C4-C6 (no-result, offers, amounts) and adds its values "
            "to C1's value sets and to the spellings values are read against (C1-C3, S1, S2)")  # fmt: skip


def _n(x: int) -> str:
    return f"{x:,}"


def _counted(x: int, noun: str, plural: str | None = None) -> str:
    return f"{x:,} {noun if x == 1 else plural or noun + 's'}"


def kb_coverage_warning(
    kb_path: object, kb_sizes: Mapping[str, int], dialogues: Mapping[str, int], flagged: Counter[str],
    scanned: int | None = None,
) -> str | None:  # fmt: skip
    """The warning, or ``None`` when the KB covers every domain and flags none suspiciously.

    ``kb_sizes``: the KB's tables (domain → entities); ``dialogues``: domain → dialogues having
    it (of those read); ``flagged``: domain → dialogues with a certain C4–C6 violation on it;
    ``scanned``: when the domains were counted on the first ``scanned`` dialogues only (said so).
    """
    missing = {d: n for d, n in dialogues.items() if d not in kb_sizes}
    covered = {d: n for d, n in dialogues.items() if d in kb_sizes}
    suspect = {d for d, n in covered.items() if n and flagged.get(d, 0) / n > SUSPECT_SHARE}
    if not missing and not suspect:
        return None
    of = f" (domains counted on the first {_n(scanned)} dialogues)" if scanned else ""
    parts = []
    if covered:
        shown = [f"{d} ({_counted(n, 'dialogue')}, {_counted(kb_sizes[d], 'KB entity', 'KB entities')}; C4-C6 flag {_n(flagged.get(d, 0))})"
                 for d, n in sorted(covered.items(), key=lambda kv: (-kv[1], kv[0]))]  # fmt: skip
        parts.append(f"covers {len(covered)} of the dialogues' {_counted(len(dialogues), 'domain')}: {', '.join(shown)}")
    else:  # the KB's domains and the dialogues'
        theirs = ", ".join(f"{d} ({_counted(n, 'dialogue')})" for d, n in sorted(missing.items())) or "(none annotated)"
        parts.append(f"gave none of the dialogues a KB constraint (C4-C6 not built): the KB's domains are "
                     f"{', '.join(sorted(kb_sizes)) or '(none)'}; the dialogues' domains are {theirs}")  # fmt: skip
        missing = {}
    if missing:
        listed = ", ".join(f"{d} ({_n(n)})" for d, n in sorted(missing.items(), key=lambda kv: (-kv[1], kv[0])))
        parts.append(f"no table for {listed}: the KB builds no C4-C6 for those (only results inside the data can)")
    if suspect:
        parts.append(f"more than a third of the {', '.join(sorted(suspect))} dialogues flagged by C4-C6 against it: "
                     "is it the corpus's own KB?")  # fmt: skip
    parts[0] += of
    body = "; ".join(parts)
    return f"warning: --kb {kb_path} {body}{' ' if body.endswith('?') else '. '}{KB_FEEDS[0].upper()}{KB_FEEDS[1:]}."
