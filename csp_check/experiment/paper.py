"""The paper's figures (Labruna & Magnini 2024, arXiv 2407.11857, Tables 1–5; spec §4), printed
beside ours. Setting: 131 MultiWOZ 2.3 restaurant dialogues, 768 variables, GPT-3.5-Turbo at
temperature 0.9, MiniZinc + Chuffed. Fractions are 0..1.
"""

from __future__ import annotations

#: Table 1: solution group → (dialogues, variables).
TABLE1 = {"all": (131, 768), "0": (56, 403), "1": (16, 58), "2-10": (27, 143), "11-100": (18, 95), "101+": (14, 69)}

#: Table 2: constraint → (variables, coverage).
TABLE2 = {"C1": (768, 1.00), "C2": (686, 0.89), "C3": (108, 0.14), "C4": (9, 0.01), "C5": (394, 0.51), "C6": (197, 0.25)}

#: Table 3: relexicalizer → (GCA, VCA). The paper's LLM is GPT-3.5; it has no CSP row.
TABLE3 = {"random": (0.01, 0.06), "most-frequent": (0.01, 0.10), "llm": (0.15, 0.27)}

#: Table 4 (GPT-3.5): solution group → (GCA, VCA).
TABLE4 = {"0": (0.0, 0.0), "1": (0.31, 0.48), "2-10": (0.22, 0.53), "11-100": (0.22, 0.55), "101+": (0.36, 0.70)}

#: Table 5 (GPT-3.5): configuration → (GCA, VCA).
TABLE5 = {
    "all": (0.15, 0.27),
    "all except C1": (0.15, 0.31),
    "all except C2": (0.15, 0.27),
    "all except C3": (0.15, 0.29),
    "all except C4": (0.16, 0.30),
    "all except C5": (0.15, 0.32),
    "all except C6": (0.21, 0.48),
    "all except dialogic": (0.15, 0.30),
    "all except domain": (0.23, 0.56),
}

GROUPS = ("0", "1", "2-10", "11-100", "101+")
