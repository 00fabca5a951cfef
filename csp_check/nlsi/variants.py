"""Which of a domain's SGD services a call speaks for (the release's slot names; issue 19).

An NLSI domain merges its SGD services' slots (``Flights_1`` has ``origin_city``, ``Flights_2``
``origin``), but every call of the release uses the slot names of *one* service, the one its
SGD dialogue came from (measured: on the 175 shared examples no call mixes two). Text does not
name the service, the profile does: its instructions were generated from the same dialogue's
service ("If destination is Las Vegas then look for airlines as …" is Flights_2). So
:func:`chosen_service` scores each service of the domain by the slots the profile's rules for the
domain name (conditions and actions, 2 each) and the slots the user stated (1 each), and takes
the best; on a tie, the service :data:`SERVICE_PRIOR` names (the one most calls of the work half
of the 175 shared examples use, ``csp_check.score.split``; measured, a prior, not a rule of
the release), else none (all the domain's slots stay open).

:func:`settle` then moves each stated value of a slot outside the chosen service to the slot of
that service the release's ``common-domain-slots.tsv`` pairs it with
(:attr:`~csp_check.nlsi.schema.NlsiSchema.same_slots`: ``origin_city`` ↔ ``origin``); when
that slot is stated already, the value outside the service is dropped (a call speaks for one
service: Hotels_3's ``location`` "Portland", read from inside a hotel name, beside Hotels_1's
``destination`` "Portland, OR"). Without the table (an SGD schema folder) nothing moves.
"""

from __future__ import annotations

from collections.abc import Iterable

from csp_check.nlsi.instructions import Rule
from csp_check.nlsi.schema import NlsiSchema

#: Tie-break of :func:`chosen_service`: the service most calls of the work half of the shared
#: examples use (Buses_1 3 of 3, Events_2 7 of 7, Flights_2 5 of 7, RentalCars_2 3 of 3;
#: Hotels_1 and Hotels_3 3 each: no prior).
SERVICE_PRIOR = {"Buses": "Buses_1", "Events": "Events_2", "Flights": "Flights_2", "RentalCars": "RentalCars_2"}


def chosen_service(schema: NlsiSchema, domain: str, rules: Iterable[Rule], stated: Iterable[str]) -> str | None:
    """The service of ``domain`` its call speaks for (module doc), or None when the domain has
    one service (or none known) or the evidence ties without a prior."""
    services = [s for s, d in schema.services.items() if d == domain and s in schema.service_slots]
    if len(services) < 2:
        return None
    named = [s for r in rules if domain in r.domains and not r.also_domain
             for s, _ in list(r.condition) + ([r.action] if r.action else [])]
    stated = list(stated)
    score = {sv: 2 * sum(s in schema.service_slots[sv] for s in named) + sum(s in schema.service_slots[sv] for s in stated)
             for sv in services}
    top = max(score.values())
    best = [sv for sv in services if score[sv] == top]
    if len(best) == 1:
        return best[0]
    prior = SERVICE_PRIOR.get(domain)
    return prior if prior in best else None


def service_slots(schema: NlsiSchema, domain: str, rules: Iterable[Rule], stated: Iterable[str]) -> list[str]:
    """The slots of the chosen service of ``domain`` (:func:`chosen_service`), or all the
    domain's slots when none is chosen."""
    sv = chosen_service(schema, domain, rules, stated)
    return list(schema.service_slots[sv]) if sv is not None else list(schema.domains.get(domain, {}))


def settle(schema: NlsiSchema, values: dict[str, dict[str, str]], rules: list[Rule]) -> None:
    """Move stated values (``values[domain][slot]``, in place) to the chosen service's slots
    (module doc)."""
    for domain, slots in values.items():
        sv = chosen_service(schema, domain, rules, slots)
        if sv is None:
            continue
        own = set(schema.service_slots[sv])
        pairs = schema.same_slots.get(domain, [])
        for slot in [s for s in slots if s not in own]:
            twin = next((b if a == slot else a for a, b in pairs if slot in (a, b) and (b if a == slot else a) in own), None)
            if twin is not None and twin not in slots:
                slots[twin] = slots.pop(slot)
            elif twin is not None:
                del slots[slot]  # one thing read twice ("Portland" of a hotel name beside "Portland, OR")
