"""Align an LLM's answer back to the masks of the prompt: answer text → one value per variable.

Robust by design (spec §4: what cannot be aligned is a wrong value, reported, never a crash):

1. **Turns.** The answer is split into ``User:`` / ``System:`` lines (labels matched loosely:
   case, markdown ``**``, numbering); lines before the first label are chatter and dropped, an
   unlabelled line right after a turn continues it. Answer turns are paired with prompt turns by
   a monotone alignment (dynamic programming over :mod:`difflib` similarities of the fixed
   text), so a dropped, added or reworded turn only loses its own masks.
2. **Masks.** Each prompt turn is split at its masks; the fixed text between masks is searched
   in the answer turn as an anchor — in a folded form (case, whitespace and punctuation
   ignored), exactly first, then with a small edit distance. The text between two anchors is the
   filler of the mask between them.
3. **Values.** A filler becomes a value: an amount word or number → ``int`` (a number written
   like a phone number or an id is none: the annotator's reading of a count,
   :func:`~csp_check.language.normalize.parse_count`); a slot filler is
   normalised and mapped onto the V(type) / KB value it names. A filler that cannot be read is
   :data:`~csp_check.relexicalize.base.UNALIGNED`.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from difflib import SequenceMatcher
from itertools import combinations

from pydantic import BaseModel, Field

from csp_check.language.normalize import fold, normalize, parse_amount, parse_count, phone_like
from csp_check.models import CSP, Value, Variable, VariableKind

from .prompt import MASK, MaskedTurn

UNALIGNED = "<unaligned>"  # same sentinel as csp_check.relexicalize.base.UNALIGNED

_LABEL = re.compile(r"^\s*(?:[-*>#]+\s*|\d+[.)]\s*)*\**\s*(user|system)\s*\**\s*[:：]\s*\**\s*(.*)$", re.IGNORECASE)
_NUMBER_TOKEN = re.compile(r"[a-z]+(?:-[a-z]+)?|\d{1,3}(?:,\d{3})+(?!\d)|\d+", re.IGNORECASE)
_DIGIT_RUN = re.compile(r"[\d(+][\d\s().+-]*\d")  # digits with a phone number's marks (normalize.PHONE_SHAPE)
_TURN_MATCH_MIN = 0.5
_JOIN = (-1, -1)  # bound of a space-only segment between two masks
Splitter = Callable[[str, list[int]], list[str | None]]  # share of a prompt turn's fixed text an answer turn must contain


class MaskIssue(BaseModel):
    """One variable whose value could not be read from the answer."""

    variable: str
    turn: int
    reason: str


class AlignmentReport(BaseModel):
    """What the alignment of one dialogue's answer found (one per dialogue)."""

    dialogue_id: str = ""
    masks: int = 0
    aligned: int = 0
    missing_turns: list[int] = Field(default_factory=list, description="prompt turns with no answer turn")
    extra_lines: int = Field(0, description="answer lines that matched no prompt turn (chatter, added turns)")
    issues: list[MaskIssue] = Field(default_factory=list)
    error: str | None = Field(None, description="the request failed: every mask is unaligned")

    @property
    def ok(self) -> bool:
        return self.error is None and not self.issues and not self.missing_turns


# --------------------------------------------------------------------------- turns


def parse_answer(text: str) -> tuple[list[tuple[str, str]], int]:
    """``([(speaker, text), …], dropped_lines)`` of an answer. ``speaker`` is ``user`` / ``system``."""
    turns: list[tuple[str, str]] = []
    dropped = 0
    continuing = False
    for line in text.splitlines():
        m = _LABEL.match(line)
        if m:
            turns.append((m.group(1).lower(), m.group(2).strip().rstrip("*").strip()))
            continuing = True
        elif not line.strip():
            continuing = False
        elif continuing and turns:
            speaker, prev = turns[-1]
            turns[-1] = (speaker, f"{prev} {line.strip()}")
        else:
            dropped += 1
    return turns, dropped


def _fixed(template: str) -> str:
    return _fold_alnum(template.replace(MASK, " "))[0]


def turn_similarity(turn: MaskedTurn, speaker: str, text: str) -> float:
    """Share of the prompt turn's fixed text (folded) found in the answer turn, in order; 0 when
    the speakers differ. A turn that is all masks scores 0.6 against a same-speaker turn."""
    if speaker != turn.speaker:
        return 0.0
    fixed = _fixed(turn.template)
    if not fixed:
        return 0.6
    answer = _fold_alnum(text)[0]
    matched = sum(b.size for b in SequenceMatcher(None, fixed, answer, autojunk=False).get_matching_blocks())
    return matched / len(fixed)


def align_turns(turns: list[MaskedTurn], answer: list[tuple[str, str]]) -> list[int | None]:
    """For each prompt turn, the index of its answer turn (or ``None``): the monotone pairing
    that maximises the summed similarity, pairs below :data:`_TURN_MATCH_MIN` not allowed."""
    n, m = len(turns), len(answer)
    if n == m and all(turns[i].speaker == answer[i][0] for i in range(n)):
        sims = [turn_similarity(turns[i], *answer[i]) for i in range(n)]
        if all(s >= _TURN_MATCH_MIN for s in sims):
            return list(range(n))
    score = [[0.0] * (m + 1) for _ in range(n + 1)]
    move = [[""] * (m + 1) for _ in range(n + 1)]
    for i in range(n + 1):
        for j in range(m + 1):
            if i == 0 and j == 0:
                continue
            best, how = -1.0, ""
            if i > 0 and j > 0:
                s = turn_similarity(turns[i - 1], *answer[j - 1])
                if s >= _TURN_MATCH_MIN and score[i - 1][j - 1] + s > best:
                    best, how = score[i - 1][j - 1] + s, "pair"
            if i > 0 and score[i - 1][j] > best:
                best, how = score[i - 1][j], "skip-prompt"
            if j > 0 and score[i][j - 1] > best:
                best, how = score[i][j - 1], "skip-answer"
            score[i][j], move[i][j] = best, how
    pairing: list[int | None] = [None] * n
    i, j = n, m
    while i > 0 or j > 0:
        how = move[i][j]
        if how == "pair":
            pairing[i - 1] = j - 1
            i, j = i - 1, j - 1
        elif how == "skip-prompt":
            i -= 1
        else:
            j -= 1
    return pairing


# --------------------------------------------------------------------------- masks in a turn


def _fold_alnum(text: str) -> tuple[str, list[int]]:
    """``text`` folded to lower-case letters and digits only, with each kept character's index in
    ``text`` (fold keeps positions: NFKC may change the length of exotic characters, which we
    then drop rather than misplace)."""
    out, where = [], []
    for i, ch in enumerate(text):
        f = fold(ch)
        if len(f) == 1 and f.isalnum():
            out.append(f)
            where.append(i)
    return "".join(out), where


def find_anchor(pattern: str, text: str, start: int) -> tuple[int, int] | None:
    """``(begin, end)`` of the first occurrence of ``pattern`` in ``text[start:]``, exact or
    within an edit distance of ``len(pattern) // 5`` (patterns of 5+ characters), else ``None``.
    Both strings are already folded."""
    exact = text.find(pattern, start)
    if exact >= 0:
        return exact, exact + len(pattern)
    m = len(pattern)
    limit = m // 5
    if limit == 0:
        return None
    cost = list(range(m + 1))  # cost[i]: distance of pattern[:i] to the best substring ending here
    begin = [start] * (m + 1)  # where that substring begins
    found: tuple[int, int, int] | None = None  # (distance, begin, end)
    for j in range(start, len(text)):
        ch = text[j]
        new_cost, new_begin = [0] * (m + 1), [j + 1] * (m + 1)
        for i in range(1, m + 1):
            new_cost[i], new_begin[i] = min(
                (cost[i - 1] + (pattern[i - 1] != ch), begin[i - 1]),
                (cost[i] + 1, begin[i]),
                (new_cost[i - 1] + 1, new_begin[i - 1]),
                key=lambda option: option[0],
            )
        cost, begin = new_cost, new_begin
        if cost[m] <= limit and (found is None or cost[m] < found[0]):
            found = (cost[m], begin[m], j + 1)
        elif found is not None:
            break  # past the first local minimum
    return (found[1], found[2]) if found else None


def fill_turn(template: str, text: str, split: Splitter | None = None) -> list[str | None]:
    """The filler of each ``[MASK]`` of ``template`` in the answer turn ``text``; ``None`` for a
    mask whose boundaries cannot be found (or that was left as ``[MASK]``).

    Masks only a space apart (``There are [MASK] [MASK] restaurants``) share one filler, cut by
    ``split(filler, mask indices)`` (default :func:`split_words`; :func:`align_answer` passes one
    that tries every cut and keeps the one whose pieces name known values)."""
    segments = template.split(MASK)
    k = len(segments) - 1
    if k == 0:
        return []
    folded, where = _fold_alnum(text)
    # boundaries[i]: (start of segment i, end of segment i) in original text positions, or None
    bounds: list[tuple[int, int] | None] = []
    pos = 0  # folded position to search from
    raw_pos = 0  # original position reached
    for i, segment in enumerate(segments):
        key = _fold_alnum(segment)[0]
        if i == 0 and not key:
            bounds.append((0, 0))
            continue
        if i == k and not key:
            bounds.append((len(text), len(text)))
            continue
        if not key:  # masks separated by punctuation / spaces only: look for the raw mark
            mark = segment.strip()
            if not mark:  # only a space: the masks' fillers are split later (see _split)
                bounds.append(_JOIN)
                continue
            at = text.find(mark, raw_pos)
            if at < 0:
                bounds.append(None)
                continue
            bounds.append((at, at + len(mark)))
            raw_pos = at + len(mark)
            pos = next((p for p, w in enumerate(where) if w >= raw_pos), len(folded))
            continue
        hit = find_anchor(key, folded, pos)
        if i == 0 and hit is not None and hit[0] > max(3, len(key) // 2):
            hit = None  # the turn should start with its first segment
        if hit is None:
            bounds.append(None)
            continue
        b, e = hit
        start, end = where[b], where[e - 1] + 1
        if i < k:  # fixed text ends with punctuation ("in [MASK]" vs "in, [MASK]") — keep raw end
            end = _extend_raw(text, end, segment)
        bounds.append((start, end))
        pos, raw_pos = e, end
    fills: list[str | None] = []
    i = 0
    while i < k:
        j = i  # masks i..j are separated by spaces only
        while j + 1 < k and bounds[j + 1] is _JOIN:
            j += 1
        left, right = bounds[i], bounds[j + 1]
        if left is None or right is None or right is _JOIN or right[0] < left[1]:
            fills.extend([None] * (j - i + 1))
        else:
            raw = text[left[1] : right[0]]
            region = raw.strip().strip(" \t,.;:!?\"'()[]")
            if not region or "[mask]" in raw.lower():
                fills.extend([None] * (j - i + 1))
            elif i == j:
                fills.append(region)
            else:
                fills.extend((split or split_words)(region, list(range(i, j + 1))))
        i = j + 1
    return fills


def split_words(region: str, masks: list[int]) -> list[str | None]:
    """Default split of the filler of adjacent masks: one word each when the word count matches,
    else unaligned."""
    words = region.split()
    return words if len(words) == len(masks) else [None] * len(masks)


def _extend_raw(text: str, end: int, segment: str) -> int:
    """Move ``end`` past the trailing punctuation the segment itself ends with."""
    tail = segment.rstrip()
    trail = len(tail) - len(tail.rstrip(" ,.;:!?\"'()"))
    marks = tail[len(tail) - trail :] if trail else ""
    for ch in marks:
        while end < len(text) and text[end] == " ":
            end += 1
        if end < len(text) and text[end] == ch:
            end += 1
    return end


# --------------------------------------------------------------------------- values


def to_value(
    filler: str, var: Variable, csp: CSP, kb_values: list[str] | None = None, forms: dict[str, str] | None = None
) -> Value:
    """The value a filler names for ``var``: an ``int`` for an amount (digits or words; the first
    number in the filler), else the V(type) / KB value whose normalised form equals (or, longest
    first, occurs as whole words in) the normalised filler; else the normalised filler itself
    (a value outside the domain: wrong, but what the model said). :data:`UNALIGNED` when an
    amount has no number, or its first is no count: written like a phone number, a postcode or
    an id ("01223364917"), or above :data:`~csp_check.language.normalize.MAX_COUNT` — the
    annotator's reading of a count, :func:`~csp_check.language.normalize.parse_count`. ``forms``: surface form → value pairs the dialogue itself uses for
    this slot type (``"11:30 am"`` → ``"11:30"``, ``"today"`` → ``"2019-03-01"``)."""
    if var.kind is VariableKind.AMOUNT:
        # "01223 364917", "call 01223 332 360": a phone number is no count, nor are its digit groups
        words = _DIGIT_RUN.sub(lambda m: " " if phone_like(m.group(0)) else m.group(0), filler)
        for token in (words, *_NUMBER_TOKEN.findall(words)):  # the filler, else its first number
            amount = parse_amount(token)
            if amount is not None:  # a number above MAX_COUNT is none: unaligned, not a smaller one of it
                return UNALIGNED if parse_count(token) is None else amount
        return UNALIGNED
    key = normalize(filler)
    candidates = _candidates(var, csp, kb_values, forms)
    if key in candidates:
        return candidates[key]
    for norm in sorted(candidates, key=len, reverse=True):
        if norm and re.search(rf"(?<!\w){re.escape(norm)}(?!\w)", key):
            return candidates[norm]
    return key or UNALIGNED


def _candidates(
    var: Variable, csp: CSP, kb_values: list[str] | None, forms: dict[str, str] | None
) -> dict[str, str]:
    """Normalised form → value of every value ``var`` could name."""
    candidates = {normalize(v): v for v in [*csp.domains.get(var.slot_type, []), *(kb_values or [])]}
    for surface, value in (forms or {}).items():
        candidates.setdefault(surface, value)
    return candidates


def _value_splitter(variables: list[Variable | None], known: Callable[[str, Variable], bool]) -> Splitter:
    """A :data:`Splitter` that cuts the words of adjacent masks' filler where most pieces name a
    known value of their variable (ties: the earliest cuts)."""

    def split(region: str, masks: list[int]) -> list[str | None]:
        words = region.split()
        n = len(masks)
        if len(words) < n:
            return [None] * n
        best, best_score = None, -1
        for cuts in combinations(range(1, len(words)), n - 1):
            edges = (0, *cuts, len(words))
            pieces = [" ".join(words[a:b]) for a, b in zip(edges, edges[1:])]
            score = sum(1 for m, piece in zip(masks, pieces) if variables[m] is not None and known(piece, variables[m]))
            if score > best_score:
                best, best_score = pieces, score
        if best is None or (best_score < n and len(words) != n):
            return [None] * n
        return list(best)

    return split


def align_answer(
    turns: list[MaskedTurn], answer: str, csp: CSP, kb_values: dict[str, list[str]] | None = None
) -> tuple[dict[str, Value], AlignmentReport]:
    """Values of every masked variable of ``turns`` read from ``answer``, and the report.

    ``kb_values``: slot → the KB's values for it (helps map a filler onto a value). Variables
    that cannot be aligned get :data:`UNALIGNED` and a :class:`MaskIssue`. Never raises on any
    answer text.
    """
    by_name = {v.name: v for v in csp.variables}
    forms: dict[str, dict[str, str]] = {}
    for v in csp.variables:
        if v.text and isinstance(v.value, str):
            forms.setdefault(v.slot_type, {}).setdefault(normalize(v.text), v.value)
    report = AlignmentReport(dialogue_id=csp.dialogue_id, masks=sum(len(t.masks) for t in turns))
    parsed, dropped = parse_answer(answer)
    pairing = align_turns(turns, parsed)
    report.extra_lines = dropped + (len(parsed) - sum(p is not None for p in pairing))
    values: dict[str, Value] = {}
    for turn, j in zip(turns, pairing):
        if j is None:
            if turn.masks or _fixed(turn.template):
                report.missing_turns.append(turn.index)
            for name in turn.masks:
                values[name] = UNALIGNED
                report.issues.append(MaskIssue(variable=name, turn=turn.index, reason="turn missing from the answer"))
            continue
        turn_vars = [by_name.get(name) for name in turn.masks]

        def known(piece: str, var: Variable) -> bool:
            if var.kind is VariableKind.AMOUNT:
                return parse_count(piece) is not None
            return normalize(piece) in _candidates(var, csp, (kb_values or {}).get(var.slot), forms.get(var.slot_type))

        fills = fill_turn(turn.template, parsed[j][1], _value_splitter(turn_vars, known))
        for name, filler in zip(turn.masks, fills):
            var = by_name.get(name)
            if filler is None or var is None:
                values[name] = UNALIGNED
                report.issues.append(MaskIssue(variable=name, turn=turn.index, reason="mask not found in the answer turn"))
                continue
            value = to_value(filler, var, csp, (kb_values or {}).get(var.slot), forms.get(var.slot_type))
            values[name] = value
            if value == UNALIGNED:
                report.issues.append(MaskIssue(variable=name, turn=turn.index, reason=f"no amount in {filler!r}"))
            else:
                report.aligned += 1
    return values, report
