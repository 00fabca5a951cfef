"""csp-check: task-oriented dialogue consistency as a constraint satisfaction problem."""

from csp_check.pipeline import check_dialogue, dialogue_csp, load_corpus
from csp_check.runner import validate
from csp_check.score import CorpusSummary

__all__ = ["CorpusSummary", "check_dialogue", "dialogue_csp", "load_corpus", "validate"]
__version__ = "0.1.0"
