"""How many dialogues a single JSON file (or a zip holding one) has: the progress bar's total.

JSONL inputs and folders of files have a total already (lines; files). A single JSON file or zip
(``../shared/data/multiwoz/val.json.zip``) would show a count with no total and no ETA:
:func:`count_dialogues` parses it once (C speed: about 1 s for MultiWOZ val's 26 MB) in a
background thread, :func:`count_in_background`, while the run goes, and the bar gets its total.
Only for display: anything unusual (another format, a file over :data:`MAX_BYTES`, damage) is
``None`` and the bar stays without a total.
"""

from __future__ import annotations

import json
import threading
import zipfile
from collections.abc import Callable
from pathlib import Path

from csp_check.readers import sniff_format

#: Files (uncompressed) larger than this are not counted: parsing them whole would cost memory.
MAX_BYTES = 128 << 20
#: The formats whose one file holds its dialogues as the items of its top-level JSON value.
COUNTED = {"multiwoz": dict, "sgd": list, "multiwoz22": list, "unified": list}


def count_dialogues(path: Path, fmt: str = "auto") -> int | None:
    """The dialogues of ``path`` (a JSON file of a format in :data:`COUNTED`, or a zip holding
    one ``.json`` member): the items of its top-level value; ``None`` when it cannot tell.
    Never raises."""
    try:
        name = sniff_format(path) if fmt == "auto" else fmt
        if name not in COUNTED:
            return None
        if zipfile.is_zipfile(path):
            with zipfile.ZipFile(path) as archive:
                members = [m for m in archive.infolist() if m.filename.endswith(".json")]
                if len(members) != 1 or members[0].file_size > MAX_BYTES:
                    return None
                data = json.loads(archive.read(members[0]))
        else:
            if path.stat().st_size > MAX_BYTES:
                return None
            data = json.loads(path.read_bytes())
    except Exception:  # only a display: any failure means no total
        return None
    return len(data) if isinstance(data, COUNTED[name]) else None


def count_in_background(path: Path, fmt: str, done: Callable[[int], None]) -> threading.Thread:
    """Start a daemon thread calling ``done(n)`` with :func:`count_dialogues` of ``path`` (not
    called when it is ``None``); returns the thread."""

    def work() -> None:
        n = count_dialogues(path, fmt)
        if n is not None:
            done(n)

    thread = threading.Thread(target=work, name="csp-check-count", daemon=True)
    thread.start()
    return thread
