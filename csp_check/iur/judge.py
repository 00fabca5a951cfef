"""The paper's proxy evaluators with an LLM judge (§5, Appendix B) over any OpenAI-compatible
server (:class:`csp_check.llm.client.ChatClient`: cache, retries), scored as Table 3.

- **Unambiguity** as an N+1-way classification: the judge lists the implied values
  (:data:`csp_check.iur.prompts.UNAMBIGUITY`); one candidate listed is that class, several, none
  or an answer naming no candidate is ``<ambiguous>`` (the extra class). Accuracy over the
  records with a ``target_slot_value``.
- **World understanding**: the first number 1–10 of the answer
  (:data:`~csp_check.iur.prompts.WORLD_UNDERSTANDING`); Pearson's r against the records'
  ``mean_world_understanding`` (r is scale-free: the crowd's 1–100 slider and the 1–10 answers
  compare as they are). ``None`` with fewer than two pairs or no variance.

A request that fails for good (unreachable server, HTTP error after retries) raises
:class:`JudgeError` naming the server's URL.
"""

from __future__ import annotations

import math
import re
from collections.abc import Sequence

from pydantic import BaseModel

from csp_check.iur.prompts import UNAMBIGUITY, WORLD_UNDERSTANDING
from csp_check.iur.records import AMBIGUOUS, IndirectRequest
from csp_check.language.normalize import normalize
from csp_check.llm.client import ChatClient, Completion


class JudgeError(RuntimeError):
    """The server did not answer: ``url`` and the client's last error."""

    def __init__(self, url: str, error: str):
        super().__init__(f"the LLM server at {url} failed: {error}")
        self.url = url


class Judgement(BaseModel):
    """One record's proxies: the judge's answers, the class and rating read from them."""

    index: int
    implied: list[str]
    predicted: str
    target: str | None = None
    correct: bool | None = None
    world_understanding: float | None = None
    label_world_understanding: float | None = None
    answers: list[str]


class Scores(BaseModel):
    """Table 3's two figures over the records that carry the labels."""

    records: int
    labelled: int
    accuracy: float | None
    rated: int
    pearson: float | None


def listed_values(answer: str, candidates: list[str]) -> list[str]:
    """The candidates an answer lists (case and punctuation aside), in the candidates' order."""
    said = {normalize(part) for part in re.split(r"[,;\n]|\band\b", answer) if part.strip()}
    return [c for c in candidates if normalize(c) in said]


def unambiguity_class(implied: list[str]) -> str:
    """The N+1-way class: the one implied candidate, or ``<ambiguous>``."""
    return implied[0] if len(implied) == 1 else AMBIGUOUS


def rating(answer: str) -> float | None:
    """The first number of ``answer`` within 1–10, or ``None``."""
    for m in re.finditer(r"\d+(?:\.\d+)?", answer):
        value = float(m.group(0))
        if 1 <= value <= 10:
            return value
    return None


def pearson(xs: Sequence[float], ys: Sequence[float]) -> float | None:
    """Pearson's r of two equal-length series, or ``None`` (fewer than 2 pairs, no variance)."""
    n = len(xs)
    if n < 2:
        return None
    mx, my = sum(xs) / n, sum(ys) / n
    sx = math.sqrt(sum((x - mx) ** 2 for x in xs))
    sy = math.sqrt(sum((y - my) ** 2 for y in ys))
    if sx == 0 or sy == 0:
        return None
    return sum((x - mx) * (y - my) for x, y in zip(xs, ys, strict=True)) / (sx * sy)


def prompts_for(record: IndirectRequest) -> tuple[str, str]:
    """(unambiguity prompt, world-understanding prompt) of a record."""
    fields = {"situation": record.situation, "slot_description": record.slot_description,
              "values": ", ".join(record.possible_slot_values), "utterance": record.utterance}
    target = record.target_slot_value if record.target_slot_value not in (None, AMBIGUOUS) else "(none)"
    return UNAMBIGUITY.format(**fields), WORLD_UNDERSTANDING.format(**fields, target=target)


def judge(records: list[IndirectRequest], client: ChatClient, progress: bool = False) -> list[Judgement]:
    """Both proxies for every record (two prompts a record). Raises :class:`JudgeError`."""
    prompts = [(p, None) for r in records for p in prompts_for(r)]
    answers = client.complete_many(prompts, progress=progress, description="judge")
    texts: list[str] = []
    for answer in answers:
        if not isinstance(answer, Completion):
            raise JudgeError(client.settings.base_url, answer.error)
        texts.append(answer.text)
    out = []
    for i, record in enumerate(records):
        unamb, world = texts[2 * i], texts[2 * i + 1]
        implied = listed_values(unamb, record.possible_slot_values)
        predicted = unambiguity_class(implied)
        target = record.target_slot_value
        out.append(Judgement(
            index=i, implied=implied, predicted=predicted, target=target,
            correct=None if target is None else predicted == target, world_understanding=rating(world),
            label_world_understanding=record.mean_world_understanding, answers=[unamb, world],
        ))
    return out


def score(judgements: list[Judgement]) -> Scores:
    """Accuracy (unambiguity) and Pearson's r (world understanding) against the labels present."""
    labelled = [j for j in judgements if j.correct is not None]
    pairs = [(j.world_understanding, j.label_world_understanding) for j in judgements
             if j.world_understanding is not None and j.label_world_understanding is not None]
    return Scores(
        records=len(judgements), labelled=len(labelled),
        accuracy=sum(bool(j.correct) for j in labelled) / len(labelled) if labelled else None,
        rated=len(pairs), pearson=pearson([p[0] for p in pairs], [p[1] for p in pairs]),
    )
