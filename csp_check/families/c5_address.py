"""C5 for an address a system gives over several acts ("kingfisher way , hinchinbrook business
park , huntingdon", MultiWOZ annotates each part): one address of one entity, not a list of
entities (:func:`address_parts`), checked with the entity's name and the turn's other values
(:class:`AddressParts`).

Reading rules

- Several values of the address column in one system turn whose spans follow each other with
  only spaces and commas between them, where the turn names at most one entity, are the parts of
  one address: the turn's C5 keeps its other values (the name) and checks every part with them.
- A part holds for an entity when it is the entity's whole address, one of its comma-separated
  pieces, or its postcode (a postcode annotated as a part, "Back Lane , Cambourne , CB236BW");
  a part the text reads as a whole address holds when it is that entity's address. An entity
  with no address may match.
"""

from __future__ import annotations

import re

from csp_check.families.kb_common import Restriction, Rows
from csp_check.models import Variable

#: What may stand between two parts of one address in the text.
_BETWEEN = re.compile(r"[\s,]*")


def part_column(address: str, k: int) -> str:
    """The column of a derived table that part ``k`` (from 1) of an address is compared with:
    ``"address part 2"`` for the profile's address column ``"address"``."""
    return f"{address} part {k}"


def pieces(entity: dict[str, str], address: str, postcode: str) -> set[str]:
    """The values an address part may take for ``entity``: its whole address, each comma-separated
    piece of it, its postcode."""
    whole = entity.get(address) or ""
    out = {whole, *(p.strip() for p in whole.split(","))}
    if entity.get(postcode):
        out.add(entity[postcode])
    return {p for p in out if p}


class AddressParts(Restriction):
    """A copy of the table with one column per part of an address (:func:`part_column`): the part
    as read (``parts[k-1]``) for an entity that has it as a piece (:func:`pieces`), else the
    entity's whole address, so the part's variable matches the column exactly when the part is one
    of the entity's. Entities with no address keep no such column (they may match)."""

    address: str
    postcode: str
    parts: tuple[str, ...]

    def rows(self, entities: Rows) -> Rows:
        out = []
        for e in entities:
            if not e.get(self.address):
                out.append(e)
                continue
            have = pieces(e, self.address, self.postcode)
            out.append({**e, **{part_column(self.address, k): p if p in have else e[self.address]
                                for k, p in enumerate(self.parts, 1)}})
        return out

    def mark(self) -> str:
        return f"|{self.address} parts={'/'.join(self.parts)}"


def address_parts(utterance: str, address: str, turn: int, claims: list[Variable]) -> list[Variable]:
    """The parts of one address among ``claims`` (one system turn's C5 values): the values of the
    ``address`` column of turn ``turn``, at least two, spanned and adjacent in the ``utterance``
    (only spaces and commas between). ``[]`` otherwise: values of the column spread over the turn
    ("Golden Wok is at 191 Histon Road … The nirala is at 7 Milton Road …") list entities."""
    mine = [v for v in claims if v.slot == address and v.turn == turn]
    spanned = sorted((v for v in mine if v.span is not None), key=lambda v: v.span.start)  # type: ignore[union-attr]
    if len(spanned) < 2 or len(spanned) < len(mine):
        return []
    for a, b in zip(spanned, spanned[1:]):
        if not _BETWEEN.fullmatch(utterance[a.span.end : b.span.start]):  # type: ignore[union-attr]
            return []
    return spanned
