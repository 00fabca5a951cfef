"""Knowledge bases: load the ``--kb`` argument into a :class:`~csp_check.models.KnowledgeBase`.

Accepted inputs (:func:`load_kb`):

(a) our KB JSON, one table ``{"domain": "restaurant", "entities": [{column: value}, …]}`` or
    a whole KB ``{"tables": {domain: {"domain": domain, "entities": […]}}}`` (the
    :class:`KnowledgeBase` JSON); ``kb/restaurants.json`` is an example;
(b) a directory of MultiWOZ ``*_db.json`` files (github.com/budzianowski/multiwoz, ``db/``),
    one table per file named by the file stem without ``_db`` (``restaurant_db.json`` →
    ``restaurant``);
(c) a single MultiWOZ ``*_db.json`` file (a JSON list of entities);
(d) the short form ``{domain: [entity, …]}`` (an entity maps column → value), as a file or, through
    :func:`kb_from_json`, as data (the pytest plugin's ``kb=`` argument, docs/pytest-plugin.md).

This is the one KB loader: every command's ``--kb`` (:func:`csp_check.readers.kinds.load_kb_option`, which first refuses a file of another kind), the experiment and
the pytest plugin load through it.

Entity values become strings (:func:`entity_strings`): numbers and booleans by ``str()``
(``1`` → ``"1"``, ``True`` → ``"True"`` as SGD writes them), lists of strings joined with
``", "``, lists holding numbers (MultiWOZ ``location`` coordinates) dropped, nested objects
flattened to ``"<key> <subkey>"`` (hotel ``price.single`` → ``"price single"``), and ``null``,
``""`` and MultiWOZ's unknown marker ``"?"`` dropped: a column an entity lacks is *unknown*
there (see :mod:`csp_check.check.evaluate`). Values are otherwise kept as written; the constraint
builder normalises them. Column names are kept as written (they are MultiWOZ's DB columns,
which the readers map slot names onto).
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from csp_check.errors import InputError, json_error_text
from csp_check.models import KbTable, KnowledgeBase
from csp_check.readers.surrogates import lone_surrogate, safe

_UNKNOWN = {"", "?"}


def load_kb(path: str | Path) -> KnowledgeBase:
    """The knowledge base at ``path`` (a KB JSON file, a ``*_db.json`` file or a directory of them).

    Raises :class:`InputError` naming the file (and ``entities[i]`` / ``tables.D.entities[i]``
    for a bad entity) when the path is missing, is not JSON, or has the wrong shape.
    """
    path = Path(path)
    if path.is_dir():
        files = sorted(path.glob("*_db.json"))
        if not files:
            raise InputError(str(path), "no *_db.json files in this directory")
        return KnowledgeBase(tables={_table_name(f): _db_table(f) for f in files})
    if not path.is_file():
        raise InputError(str(path), "no such KB file or directory")
    return kb_from_json(_load_json(path), path)


def kb_from_json(data: Any, source: str | Path = "<kb>") -> KnowledgeBase:
    """The knowledge base held by decoded JSON ``data``, in any shape of the module docstring
    (a list of entities is the table named by ``source``'s file stem, as a ``*_db.json`` file).

    Raises :class:`InputError` naming ``source`` (and the field) for any other shape or a bad
    entity.
    """
    path = Path(source)
    if isinstance(data, list):
        return KnowledgeBase(tables={_table_name(path): _table(path, _table_name(path), data, "entities")})
    if not isinstance(data, dict):
        raise InputError(str(path), "a KB must be a JSON object or a list of entities")
    if "tables" in data:
        tables = data["tables"]
        if not isinstance(tables, dict):
            raise InputError(str(path), "must be an object: domain → table", field="tables")
        out = {}
        for name, table in tables.items():
            if not isinstance(table, dict):
                raise InputError(str(path), "a table must be an object", field=f"tables.{name}")
            out[name] = _table(path, str(table.get("domain", name)), table.get("entities"), f"tables.{name}.entities")
        return KnowledgeBase(tables=out)
    if "entities" in data:
        domain = data.get("domain")
        if not isinstance(domain, str) or not domain:
            raise InputError(str(path), "a KB table needs its domain name", field="domain")
        return KnowledgeBase(tables={domain: _table(path, domain, data["entities"], "entities")})
    if data and all(isinstance(rows, list) for rows in data.values()):
        return short_form(data, str(path))
    raise InputError(
        str(path), 'not a KB: expected {"domain", "entities"}, {"tables"}, {domain: [entity, …]} or a list of entities'
    )


def entity_strings(entity: dict[str, Any]) -> dict[str, str]:
    """An entity with every value as a string (see the module docstring for the rules)."""
    out: dict[str, str] = {}
    for column, value in entity.items():
        if isinstance(value, dict):
            for sub, inner in entity_strings(value).items():
                out[f"{column} {sub}"] = inner
            continue
        text = _string(value)
        if text is not None:
            out[str(column)] = text
    return out


def _string(value: Any) -> str | None:
    if value is None:
        return None
    if isinstance(value, list):
        if not value or any(isinstance(v, (int, float, list, dict)) and not isinstance(v, bool) for v in value):
            return None
        return ", ".join(str(v) for v in value)
    text = str(value).strip()
    return None if text in _UNKNOWN else text


def _table_name(path: Path) -> str:
    stem = path.stem
    return stem[: -len("_db")] if stem.endswith("_db") else stem


def _db_table(path: Path) -> KbTable:
    data = _load_json(path)
    if not isinstance(data, list):
        raise InputError(str(path), "a MultiWOZ DB file must be a JSON list of entities")
    return _table(path, _table_name(path), data, "entities")


def short_form(data: dict[str, Any], source: str = "<kb>") -> KnowledgeBase:
    """A KB from ``{domain: [entity, …]}`` (values made strings like :func:`load_kb` does);
    raises :class:`InputError` naming ``source`` and the domain for a malformed table."""
    return KnowledgeBase(tables={d: _table(Path(source), d, rows, d) for d, rows in data.items()})


def _table(path: Path, domain: str, entities: Any, field: str) -> KbTable:
    if lone_surrogate(domain) is not None:  # a table's name is printed in warnings and reports too
        raise InputError(str(path), "a lone surrogate (not text) in a table's name", field=safe(domain))
    if not isinstance(entities, list):
        raise InputError(str(path), "must be a list of entities", field=field)
    rows = []
    for i, entity in enumerate(entities):
        if not isinstance(entity, dict):
            raise InputError(str(path), f"an entity must be a JSON object, not {type(entity).__name__}", field=f"{field}[{i}]")
        row = entity_strings(entity)
        where = lone_surrogate(row)
        if where is not None:  # no text, and not writable in a report: one error naming the field
            raise InputError(str(path), "a lone surrogate (not text) in a value", field=f"{field}[{i}].{where}")
        rows.append(row)
    return KbTable(domain=domain, entities=rows)


def _load_json(path: Path) -> Any:
    try:
        return json.loads(path.read_text(encoding="utf-8-sig"))  # a UTF-8 BOM is fine
    except (OSError, UnicodeDecodeError) as err:
        raise InputError(str(path), f"cannot read: {err}") from err
    except json.JSONDecodeError as err:
        raise InputError(str(path), f"invalid JSON at line {err.lineno}, column {err.colno}: {json_error_text(err.msg)}") from err
