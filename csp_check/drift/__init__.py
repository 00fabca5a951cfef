"""Instruction drift (issue 23; paper *Measuring and Controlling Instruction (In)Stability in
Language Model Dialogs*): does an agent keep its system prompt, its KB and the user's standing
instructions over a long self-chat?

- :mod:`~csp_check.drift.suite`: the suite of system prompts (JSONL), the bundled one;
  :mod:`~csp_check.drift.nlsi_suite`: profile prompts built from NLSI examples;
- :mod:`~csp_check.drift.measures`: the deterministic stability measures f_B (language, contains,
  regex, answer_in, case, length, json); :mod:`~csp_check.drift.task_measures`: csp-check's own
  (``profile``: P1–P6, ``kb``: C4–C6);
- :mod:`~csp_check.drift.selfchat`: the protocol (§3, Figure 2) against an OpenAI-compatible server;
- :mod:`~csp_check.drift.results`: ``drift.json`` / ``drift.csv``;
- :mod:`~csp_check.drift.depth`: consistency by depth of a generated corpus;
  :mod:`~csp_check.drift.relexicalized`: an experiment's LLM-relexicalized text as such a corpus;
- :mod:`~csp_check.drift.plot`: Figure 3 (stability per round by category, confidence bands);
- :mod:`~csp_check.drift.attention`: π(t) and split-softmax on a Hugging Face causal LM (§3.2, §6.2).
"""
