"""API-call consistency against user profiles of standing instructions (NLSI; docs/nlsi.md).

Source: *Interpreting User Requests in the Context of Natural Language Standing Instructions*
(NLSI) and ``docs/api-call-spec.md``. Pipeline: :mod:`.readers` → :mod:`.models` (examples) →
:mod:`.instructions` (instruction → :class:`~.rules.Rule`) and :mod:`.ground` (dialogue values)
→ :mod:`.families` P1–P6 (:mod:`.check`) or :mod:`.derive` (the consistent call set) →
:mod:`.metrics` / :mod:`.cli`.
"""
