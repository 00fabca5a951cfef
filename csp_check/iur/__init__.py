"""Indirect user requests (IURs; Mannekote et al., *IndirectRequests*): user turns that imply a
slot value without naming it ("my dog comes along everywhere" → ``pets_allowed = True``).

=================  =====================================================================
module             what it holds
=================  =====================================================================
:mod:`.records`    the IndirectRequests record format (read / written, pydantic)
:mod:`.words`      language data: indirection cues, hypernyms of schema values, stop words
:mod:`.lexical`    the lexical judge: whether words name a value, or point to it
:mod:`.criteria`   the paper's criteria (§3): direct, appropriateness, the unambiguity CSP
:mod:`.detect`     implied / unsaid values gained by the state of a corpus's user turns
:mod:`.judge`      the LLM proxies of §5 (N+1-way unambiguity, world understanding 1–10)
:mod:`.generate`   the generation pipeline of §4.1 / Appendix C (situation, facts, IURs)
:mod:`.augment`    a direct SGD request swapped for a generated IUR, annotation kept
=================  =====================================================================

The package imports nothing from :mod:`csp_check.families` below :mod:`.detect`: S1 reads
:func:`csp_check.iur.detect.implied_values` to report implied values for review (docs/iur.md).
"""
