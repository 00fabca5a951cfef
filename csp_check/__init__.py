"""csp-check: task-oriented dialogue consistency as a constraint satisfaction problem."""

from csp_check.pipeline import check_dialogue, dialogue_csp, load_corpus

__all__ = ["check_dialogue", "dialogue_csp", "load_corpus"]
__version__ = "0.1.0"
