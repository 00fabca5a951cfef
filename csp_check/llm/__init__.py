"""LLM relexicalization support (paper §4.5, Appendix A): the prompt, the HTTP client with its
disk cache, and the alignment of an answer back to the masks.

- :mod:`csp_check.llm.prompt` — the zero-shot prompt (task, KB as a numbered list, the dialogue
  with ``[MASK]`` placeholders, one ``User:`` / ``System:`` turn per line);
- :mod:`csp_check.llm.client` — any OpenAI-compatible server through the ``openai`` package
  (imported lazily: ``pip install -e ".[llm]"``), cached on disk, retried, concurrent;
- :mod:`csp_check.llm.align` — the answer's text → one value per mask, with a report of what
  could not be aligned.
"""
