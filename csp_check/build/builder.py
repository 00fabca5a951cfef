"""Constraint builder: a delexicalized dialogue + KB → its CSP with C1–C6 (paper §3.2, spec §2, §6)
and S1 (annotation against text: :mod:`csp_check.families.annotation_common`).

Each family builds its own instances in its module (:mod:`csp_check.families`) from a
:class:`~csp_check.build.context.BuildContext` (:func:`build_instances` runs them); the domain
families (C4–C6) at each :class:`~csp_check.build.context.KbScope` of the one walk over the
dialogue's KB scopes (:meth:`~csp_check.build.context.BuildContext.kb_scopes`). Each family's own
reading rules are in its module's docstring (``csp-check constraints --rules``); the rules below
are those of the builder, which every domain family reads.

Reading rules

- **KB scope** of a domain constraint at turn t for domain d: for C4 and C6, the entities of
  the latest ``KbResult`` of d at or before t (SGD ``service_results``: the answer to the call
  the count is about); for C5, every entity of d that the dialogue's results show — the
  dialogue's KB, as in the paper (after a ``REQUEST_ALTS`` SGD systems offer the next entity of
  an earlier result list, and some results are annotated a turn late). Without any
  ``KbResult`` of d: the ``--kb`` table of d; without either, no domain constraint (``validate``
  warns on stderr which input files got none).
- **Which variables filter a count or an offer** (``BuildOptions.count_filter``). ``state``
  (default): the search constraints in force — the ``KbResult`` call's parameters (SGD) or the
  belief state of d (other corpora) — each linked to the latest variable that mentions that
  value. Excluded: parameters the back end itself ignores (a call whose own results contradict
  it: SGD RentalCars ignores ``pickup_time``: :func:`ignored_parameters`) and entity names
  (``name``, ``trainID``: the corpus profile's entity columns). ``utterance``: the paper's reading, the other
  slot variables of the same utterance and domain.
- **Bounds** (the corpus profile's; MultiWOZ's ``leaveAt`` / ``arriveBy``) are bounds ("leave after 12:45": the
  entity's ``leaveAt ≥ 12:45``; ``arriveBy ≤``): a filter carries an operator
  (``KbFilterInstance.ops``: ``=``, ``>=``, ``<=``), the same in the checker, CP-SAT and the MiniZinc
  model (``F_OP``), so counts under bounds are checked and an offered train must satisfy them.
- **"Hotel"** names any place to stay as well as one of the two hotel types
  (:meth:`~csp_check.corpora.profile.CorpusProfile.is_generic`): as a type it filters nothing, except where a
  family says otherwise (C4, C6).
- **What a KB table is asked** (:meth:`~csp_check.build.context.BuildContext.kb_claim`): a
  value of a closed column the table never has (attraction type "church", price range
  "cheaper"), a part of a name or address several entities share ("east road"), a list ("efes
  restaurant or anatolia"), a clock column whose value is no time ("every hour"), a value that
  says the information is missing, and an entity's name annotated as its address are wordings,
  no claim; an exact name of another domain's entity is no claim of the act's domain either.
- **Canonical values** (:func:`canonical_values`): an annotated value that refers instead of
  naming ("that day", "same area", "same price range as the Lovell Lodge") takes the value the
  belief state of its turn holds for the slot; a comparative act value where the text names a
  value ("expensive") takes the text's; a number word is its number ("four" stars = 4); a
  12-hour time is read against the state ("3:45" for 15:45; "6:30" annotated for "6:30pm" is
  18:30).
- Travel spans take the slot of the role their words give
  (:func:`csp_check.language.roles.with_text_roles`) before any instance is built.
"""

from __future__ import annotations

from bisect import insort
from collections import defaultdict

from csp_check.build.context import (  # noqa: F401  (re-exported: the builder's vocabulary)
    SYSTEM_CLAIMS,
    BuildContext,
    BuildOptions,
    KbScope,
    NormalizedResult,
    ignored_parameters,
    one_per_wording,
    referents,
)
from csp_check.corpora import CorpusProfile, profile_for
from csp_check.delexicalize.assignment import Lexicon, read_assignment, share_of
from csp_check.families import families
from csp_check.language.normalize import (
    MAX_COUNT,
    clock_slot,
    clock_time,
    comparative,
    normalize,
    normalized_entities,
    parse_amount,
    refers,
    same_clock,
    well_formed_time,
)
from csp_check.language.roles import with_text_roles
from csp_check.models import (
    CSP,
    ConstraintId,
    DelexicalizedDialogue,
    Dialogue,
    IndexedRows,
    KnowledgeBase,
    Value,
    Variable,
    VariableKind,
)


def build_csp(
    dialogue: Dialogue, delex: DelexicalizedDialogue, kb: KnowledgeBase | None, options: BuildOptions | None = None
) -> CSP:
    """The CSP of ``dialogue``: variables, V(type) domains, KB tables, constraints, assignment.

    ``delex`` must come from :func:`csp_check.delexicalize.delexicalizer.delexicalize` of the same dialogue.
    ``kb`` supplies tables (by domain) for turns without their own KB results.
    """
    options = options or BuildOptions()
    profile = profile_for(dialogue)
    variables = with_text_roles(dialogue, delex.variables)  # "from A to B": the text gives the slot
    lexicon = Lexicon.of(dialogue).attach(kb)
    canonical_values(dialogue, variables, lexicon)
    assignment = read_assignment(variables, lexicon, dialogue)
    results = normalized_results(dialogue)
    builder = BuildContext(dialogue, variables, kb, options, lexicon, results, assignment, profile)
    build_instances(builder)
    domains = _domains(dialogue, variables, kb, results, assignment, profile)
    amounts = [v for v in assignment.values() if isinstance(v, int)] + [
        v.value for v in variables if v.kind is VariableKind.AMOUNT and isinstance(v.value, int)
    ]
    max_amount = amount_bound(amounts, builder.kbs)
    return CSP(
        dialogue_id=dialogue.id,
        variables=variables,
        domains=domains,
        kbs=builder.kbs,
        constraints=builder.constraints,
        assignment=assignment,
        max_amount=max_amount,
        implied=builder.implied,
    )


def amount_bound(amounts: list[int], kbs: dict[str, list[dict[str, str]]]) -> int:
    """``CSP.max_amount``: the largest amount a count can be, so amount domains are
    ``0..max_amount`` — the size of the largest KB table, or an amount of the dialogue's own up to
    :data:`~csp_check.language.normalize.MAX_COUNT` (at least 1). A larger amount sizes nothing:
    it lies outside every amount domain, a wrong count (C1, and C6 where it counts a KB), and
    checking it costs O(KB), not O(its value) (docs/robustness.md, "Counts")."""
    return max([1, *(a for a in amounts if a <= MAX_COUNT), *(len(t) for t in kbs.values())])


def build_instances(ctx: BuildContext) -> None:
    """Every enabled family's instances (:meth:`~csp_check.families.registry.Family.build`), in
    registry order, added to ``ctx``; the domain group's (C4–C6) come from one walk over the
    dialogue's KB scopes (:meth:`BuildContext.kb_scopes`), run where that group starts: at each
    scope each family of the group builds its instances
    (:meth:`~csp_check.families.registry.Family.build_in_scope`, in the order of their ``scope_step``)."""
    walked = False
    for family in families():
        if family.group == "domain" and not walked:
            walked = True
            steps = sorted(families(("domain",)), key=lambda f: f.scope_step)
            if ctx.options.enabled & {ConstraintId(f.id) for f in steps}:
                for at in ctx.kb_scopes():
                    for step in steps:
                        for constraint in step.build_in_scope(ctx, at):
                            ctx.add(constraint)
        if ConstraintId(family.id) in ctx.options.enabled:
            for constraint in family.build(ctx):
                ctx.add(constraint)


def canonical_values(dialogue: Dialogue, variables: list[Variable], lexicon: Lexicon) -> None:
    """Give each slot variable (in place) the canonical form of its annotated value
    (:meth:`Lexicon.canon`: the KB's spelling of a wording, "museums" → "museum"). An annotated
    value that refers instead of naming ("that day", "same area") takes the value the belief
    state of its turn holds for the slot, when it holds one (spec §9). A comparative
    (:func:`~csp_check.language.normalize.comparative`: "the cheaper option") keeps its own words as value,
    which no KB column has, so it claims nothing in C5 / C2; a comparative act value where the text
    names a value takes the text's. Which slots name entities and take numbers is the dialogue's
    profile's (:attr:`~csp_check.corpora.CorpusProfile.entity_text_columns`,
    :attr:`~csp_check.corpora.CorpusProfile.number_slots`)."""
    profile = profile_for(dialogue)
    for v in variables:
        if v.kind is not VariableKind.SLOT or not isinstance(v.value, str):
            continue
        if refers(v.value) and lexicon.kb is not None and v.domain in lexicon.kb.tables:
            held = dialogue.turns[v.turn].state.get(v.domain, {}).get(v.slot) or []
            if len(held) == 1:
                v.value = lexicon.canon(v.slot_type, held[0])
                continue
        if v.text and v.slot not in profile.entity_text_columns and (comparative(v.text) or comparative(v.value)):
            # "the cheaper option": an order, no value of the slot; a comparative annotated where
            # the text names a value ("expensive"): that value (spec §9, normalize.comparative)
            v.value = normalize(v.text) if comparative(v.text) else lexicon.canon(v.slot_type, v.text)
            continue
        v.value = lexicon.canon(v.slot_type, v.value)
        if v.slot in profile.number_slots and not v.value.isdigit() and (number := parse_amount(v.value)) is not None:
            v.value = str(number)  # "three" annotated for a party size: the number 3, as the state writes it
        said = clock_time(normalize(v.text)) if v.text else None
        if said and said != v.value and same_clock(v.value, said):
            v.value = said  # "6:30" annotated for "6:30pm": the text is the truth (spec §9)
        held = dialogue.turns[v.turn].state.get(v.domain, {}).get(v.slot) or []
        for h in held:  # "3:45" said and annotated, the state's 15:45: the 12-hour reading of it
            if same_clock(v.text or str(v.value), lexicon.canon(v.slot_type, h)) and same_clock(str(v.value), lexicon.canon(v.slot_type, h)):
                v.value = lexicon.canon(v.slot_type, h)


def normalized_results(dialogue: Dialogue) -> list[NormalizedResult]:
    """Every KB result of ``dialogue`` in turn order, values normalised like variable values."""
    return [
        NormalizedResult(t.index, r.domain, r.call.parameters if r.call else None, normalized_entities(r.entities))
        for t in dialogue.turns
        for r in t.kb_results
    ]


def _domains(
    dialogue: Dialogue, variables: list[Variable], kb: KnowledgeBase | None, results: list[NormalizedResult],
    assignment: dict[str, Value] | None = None, profile: CorpusProfile | None = None,
) -> dict[str, list[str]]:
    """V(type) per slot type: the closed ontology set, else annotated ∪ KB values (see module
    doc). The KB here is every table the dialogue could use, whichever constraints are enabled.
    A clock slot's type (:func:`~csp_check.language.normalize.clock_slot`) has every well-formed time
    (:func:`~csp_check.language.normalize.well_formed_time`): a bound's time ("leave after 18:45") need
    not be a KB departure time. The domain lists those in play, so each time the text says at
    a span of the type is in it; a malformed time ("25:70") or a word is not. A fare's type has
    each price the text says per ticket (the profile's :attr:`~csp_check.corpora.CorpusProfile.fare_column`)."""
    fare = (profile or profile_for(dialogue)).fare_column
    values: dict[str, set[str]] = defaultdict(set)
    for v in variables:
        if v.kind is VariableKind.SLOT and isinstance(v.value, str):
            values[v.slot_type].add(v.value)
            said = (assignment or {}).get(v.name)
            if clock_slot(v.slot) and well_formed_time(said) or v.slot == fare and share_of(said, v.value):
                values[v.slot_type].add(said)  # a bound's time; a total's price per ticket (ticket_price)
    for r in results:
        for entity in r.entities:
            for column, value in entity.items():
                slot_type = f"{r.domain}.{column}"
                if slot_type in values:
                    values[slot_type].add(value)
    in_kb: dict[str, tuple[IndexedRows, str]] = {}  # slot type → the --kb rows whose column's values it also has
    if kb is not None:  # a --kb table's values per column are indexed (and sorted) once per run
        used = {v.domain for v in variables}
        for domain, table in kb.tables.items():
            if domain in used:
                rows = table.normalized()
                for slot_type in [t for t in values if t.startswith(domain + ".")]:
                    in_kb[slot_type] = (rows, slot_type[len(domain) + 1 :])
    for slot_type, closed in dialogue.ontology.items():
        if slot_type in values:
            rows_column = in_kb.pop(slot_type, None)
            have = values[slot_type] | (rows_column[0].column_values(rows_column[1]) if rows_column else set())
            values[slot_type] = {normalize(x) for x in closed} | ({"dontcare"} & have)
    return {k: _sorted_with(v, *in_kb[k]) if k in in_kb else sorted(v) for k, v in sorted(values.items())}


def _sorted_with(own: set[str], rows: IndexedRows, column: str) -> list[str]:
    """``sorted(own | rows.column_values(column))``, from the column's values sorted once per run
    and the few ``own`` values it lacks put in place."""
    kb_values = rows.column_values(column)
    out = list(rows.sorted_column_values(column))
    for value in sorted(own - kb_values):
        insort(out, value)
    return out
