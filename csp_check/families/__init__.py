"""Constraint families: one module per family, named by its id, all in one registry (:mod:`.registry`).

=====  ==============================  ==========  ==================================
A new family is one module: define its instance type there (a subclass of
:class:`~csp_check.models.Constraint` with the family's own fields, or ``Constraint`` itself if it
needs none), subclass ``Family[ThatType]``, decorate it with :func:`register`, and import the
module (here, for a built-in family). Its module docstring states its reading rules
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
