"""Constraint families: one module per family, named by its id, all in one registry (:mod:`.registry`).

=====  ==============================  ==========  =========================================
id     module                          group       lowers to
=====  ==============================  ==========  =========================================
C1     :mod:`.c1_value_type`           linguistic  member of V(type)
C2     :mod:`.c2_coreference`          dialogic    all equal
C3     :mod:`.c3_distinct_mentions`    dialogic    all different
C4     :mod:`.c4_no_instance`          domain      KB count = 0
C5     :mod:`.c5_some_instance`        domain      KB count ≥ 1
C6     :mod:`.c6_instance_count`       domain      KB count between bounds from the amount
S1     :mod:`.s1_annotation_text`      annotation  member of the recorded values
S2     :mod:`.s2_ruled_out`            annotation  not a member of the recorded values
P1–P6  :mod:`csp_check.nlsi.families`  profile     clauses over API calls (a call structure)
=====  ==============================  ==========  =========================================

What S1 and S2 share is :mod:`.annotation_common`, what C4–C6 share :mod:`.kb_common`; C6's
reading of a count's scope is :mod:`.c6_scope`. The profile families P1–P6 check API calls
against a profile: they live with the NLSI models, and the registry imports them when the
``profile`` group is first asked for (:data:`~csp_check.families.registry.HOMES`).

A new family is one module: define its instance type there (a subclass of
:class:`~csp_check.models.Constraint` with the family's own fields, or ``Constraint`` itself if it
needs none), subclass ``Family[ThatType]``, decorate it with :func:`register`, and import the
module (here, for a built-in family, whose id and group are also declared in
:data:`csp_check.constraint_ids.BUILT_IN`). Its module docstring states its reading rules
under the line ``Reading rules`` (``csp-check constraints --rules`` writes them to
``docs/rules.md``).
"""

from csp_check.families import (  # noqa: F401  (registration order is the listing order)
    c1_value_type,
    c2_coreference,
    c3_distinct_mentions,
    c4_no_instance,
    c5_some_instance,
    c6_instance_count,
    s1_annotation_text,
    s2_ruled_out,
)
from csp_check.families.registry import (
    DIALOGUE_GROUPS,
    GROUPS,
    HOMES,
    PAPER_GROUPS,
    Family,
    UnknownFamily,
    families,
    get,
    ids,
    instance,
    label,
    register,
    unregister,
)

__all__ = ["DIALOGUE_GROUPS", "GROUPS", "HOMES", "PAPER_GROUPS", "Family", "UnknownFamily", "families", "get", "ids", "instance", "label", "register", "unregister"]
