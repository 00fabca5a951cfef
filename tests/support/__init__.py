"""Helpers shared by the test modules (a package, not a test module: no test imports another).

- :mod:`support.data`: the paths of the shared real data and skip markers for them;
- :mod:`support.nlsi`: the hand-written NLSI schema and a compact example maker;
- :mod:`support.fuzzing`: structure-aware fuzzing of ``csp-check validate``;
- :mod:`support.sgd`: small SGD-format dialogues written into a temporary folder;
- :mod:`support.solvers`: random CSPs (hypothesis strategies) and a brute-force reference.
"""
