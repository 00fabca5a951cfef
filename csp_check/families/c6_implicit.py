"""C6's implicit filters: a search value of the belief state that no variable mentions (the text
never says it where an act annotates it: :attr:`~csp_check.build.context.BuildContext.unlinked_values`)
still filters a count, as the state's value, recorded in the instance's ``reading``.

Reading rules

- A count under a belief-state search whose state holds a value no variable mentions ("pricerange
  cheap" with no "cheap" annotated) counts the entities with that value: the state's value is an
  implicit filter (:class:`StateValue`, the table restricted to it), its source said in the
  instance's reading ("filter pricerange='cheap' from the belief state (no mention in the text)").
- The state is not the text: a count that breaks under the implicit filter but holds without it,
  or with the value the user's own words last gave that slot, rests on a value the text never
  says, so it is *uncertain* (for review), not an inconsistency. One that breaks under every one
  of those readings is wrong whichever the search was.
- Not read as a filter, and the count uncertain if it breaks: an implicit bound (a time the text
  never says: which way it bounds is not said), a value the KB's column never has, a column some
  entity of the table lacks (its cell is unknown). An amenity the state sets to "no" ("The
  internet is not needed") is "not needed", as for an offer: no filter. A column the count's own words already fix
  ("8 guesthouses": its kind) takes no implicit filter.
"""

from __future__ import annotations

from csp_check.families.c6_scope import fits, values_table
from csp_check.families.kb_common import Restriction, Rows, TableView, derived
from csp_check.models import Variable, VariableKind

#: What :class:`StateValue` appends to a table's id.
STATE_MARK = "|state "


class StateValue(Restriction):
    """The entities whose ``column`` is ``value``: a belief-state filter the text never says."""

    column: str
    value: str

    def rows(self, entities: Rows) -> Rows:
        return [e for e in entities if e.get(self.column) == self.value]

    def mark(self) -> str:
        return f"{STATE_MARK}{self.column}={self.value}"


def implicit_filters(ctx, turn: int, domain: str, table: TableView, filters: list[Variable],
                     amount: Variable) -> tuple[TableView, list[str], str | None]:
    """``(table, reading, uncertain)``: ``table`` restricted to each belief-state value of
    ``domain`` at ``turn`` that no variable mentions and no filter already gives
    (:class:`StateValue`), the reading lines saying so, and the reason the count is uncertain
    (module doc), ``None`` when it is not."""
    state = ctx.unlinked_values.get((turn, domain), {})
    said = {f.slot for f in filters} | {getattr(r, "column", None) for r in table.restrictions}  # "8 guesthouses"
    plain = table
    reading: list[str] = []
    reason: str | None = None
    others: list[tuple[str, str]] = []  # (slot, the user's own last value for it)
    for slot, value in sorted(state.items()):
        if slot in said:
            continue
        rows = ctx.kbs.get(table.name) or []
        if slot in ctx.profile.amenities.values() and value == "no":
            reading.append(f"{slot}='no' of the belief state, which the text never says, read as 'not needed': no filter")
            continue
        if slot in ctx.profile.bounds:
            reason = reason or f"the belief state's {slot}={value!r} is a bound the text never says"
            continue
        if value not in ctx.vocab(table.base, slot):
            reason = reason or f"the belief state's {slot}={value!r}, which the text never says, is no value of the KB"
            continue
        if any(slot not in e for e in rows):
            reason = reason or f"the belief state's {slot}={value!r}, which the text never says, is unknown for some entity"
            continue
        table = derived(ctx, table, StateValue(column=slot, value=value))
        reading.append(f"filter {slot}={value!r} from the belief state (no mention in the text)")
        own = [v for v in ctx.variables if v.speaker == "user" and v.domain == domain and v.slot == slot
               and v.kind is VariableKind.SLOT and v.turn <= turn and isinstance(v.value, str)]
        if own and own[-1].value != value and own[-1].value in ctx.vocab(table.base, slot):
            others.append((slot, str(own[-1].value)))
    if table is not plain and not fits(ctx, table, filters, amount):
        if not filters:
            reason = reason or "every filter is the belief state's: the text says nothing of what is counted"
        if fits(ctx, plain, filters, amount):
            reason = reason or "holds without the belief state's " + ", ".join(f"{x.column}={x.value!r}" for x in table.of(StateValue)) \
                + ", which the text never says"
        for slot, value in others:
            if fits(ctx, values_table(ctx, plain, slot, [value]), filters, amount):
                reason = reason or f"holds with {slot}={value!r}, the user's own words, for the belief state's"
    return table, reading, reason
