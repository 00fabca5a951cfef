"""Print or rewrite the JSON Schema of a JSONL line: ``python -m csp_check.schema [--write]``.

The schema is ``Dialogue.model_json_schema()``; a test checks that the committed
``dialogue.schema.json`` equals it, so run ``--write`` after changing :mod:`csp_check.models`.
"""

from __future__ import annotations

import sys

from csp_check.readers.jsonl import SCHEMA_PATH, schema_text


def main(argv: list[str]) -> int:
    if argv == ["--write"]:
        SCHEMA_PATH.write_text(schema_text(), encoding="utf-8")
        print(f"wrote {SCHEMA_PATH}")
        return 0
    if argv:
        print("usage: python -m csp_check.schema [--write]", file=sys.stderr)
        return 2
    sys.stdout.write(schema_text())
    return 0


if __name__ == "__main__":
    raise SystemExit(main(sys.argv[1:]))
