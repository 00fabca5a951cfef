"""Fault generators: break a consistent dialogue in one known way, to measure detection (spec §8, §9).

Evaluation tools: nothing in the checker imports this package; the benchmarks and tests do.

===================  ==========================================================================
module               what it holds
===================  ==========================================================================
:mod:`.inject`       :func:`~.inject.inject` / :func:`~.inject.trial`: one fault of a kind, in
                     ``text`` or ``annotated`` mode, and the check of the faulty dialogue
:mod:`.registry`     the kinds (name → chooser, expected constraints), ``KINDS``, ``EXPECTED``
:mod:`.model`        ``FaultKind``, ``Mode``, :class:`~.model.Fault`, :class:`~.model.Trial`
:mod:`.counts`       ``amount``, ``amount_bound``, ``hedged_amount`` (C6)
:mod:`.kb_swaps`     ``kb_swap``, ``listed_unknown``, ``listed_misfit`` (C5, C1)
:mod:`.mentions`     ``coreference`` (C2), ``duplicate`` (C3)
:mod:`.categorical`  ``categorical``, ``boolean_answer`` (C5 or C2)
:mod:`.negation`     ``coordinated_negation``, ``negated_unit`` (C5 or C2)
:mod:`.dates`        ``reworded_date``, ``relative_date`` (C2, S1)
:mod:`.change_of_mind`  ``change_of_mind`` (S1)
:mod:`.booking`      ``booking_detail`` (C5), ``restated_detail`` (C2)
:mod:`.stale_canonical`  a time rewritten in text and ``values``, ``canonical_values`` left (SGD, C5)
:mod:`.raw_text`     faults in raw text (no acts): ``inject_raw_text``
:mod:`.annotation`   faults in the annotation alone (S1): ``inject_annotation``
:mod:`.common`       what the generators ask of a CSP (counts, claims, lists, a broken constraint)
:mod:`.wording`      how a value is written in place of a variable's words
:mod:`.rewrite`      writing the fault into a dialogue, or into its SGD JSON read again
:mod:`.words`        the words and patterns the generators write or look for
===================  ==========================================================================
"""
