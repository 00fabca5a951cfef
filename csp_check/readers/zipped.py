"""Zip archives as the readers open them: every failure of an archive is one error, and a
member is never expanded past a budget.

An archive can fail in more ways than ``zipfile.BadZipFile``: an encrypted member
(``RuntimeError``), a compression method Python lacks (``NotImplementedError``), damaged
deflate / bzip2 / LZMA data (``zlib.error``, ``OSError``, ``lzma.LZMAError``, ``EOFError``), a
member whose size or CRC does not match. :data:`ZIP_ERRORS` names them all; the readers turn
them into one :class:`~csp_check.errors.InputError` for the archive, and the run goes on.

A member expanding to more than :func:`max_unzipped_bytes` (default
:data:`DEFAULT_MAX_UNZIPPED`, 512 MiB; ``--max-unzipped-mb`` or ``$CSP_CHECK_MAX_UNZIPPED_MB``)
is refused without being read: a 1 MB zip bomb of 1 GiB costs nothing. The member's
declared size is checked first and the bytes actually read are capped too (a size that lies).
Sniffing reads only a member's head (:func:`member_head`).
"""

from __future__ import annotations

import lzma
import os
import zipfile
import zlib
from pathlib import Path

#: Every exception opening or reading a zip archive raises for bad content.
ZIP_ERRORS: tuple[type[BaseException], ...] = (
    OSError, EOFError, ValueError, KeyError, RuntimeError, NotImplementedError,
    zipfile.BadZipFile, zlib.error, lzma.LZMAError,
)  # fmt: skip

#: The default budget of one expanded zip member, in bytes.
DEFAULT_MAX_UNZIPPED = 512 << 20
#: The environment variable holding the budget in MiB (set by ``--max-unzipped-mb``; worker
#: processes inherit it).
BUDGET_ENV = "CSP_CHECK_MAX_UNZIPPED_MB"


class OverBudget(ValueError):
    """A zip member larger than the budget; ``str()`` says the sizes and the option to raise it."""

    def __init__(self, name: str, size: int, limit: int):
        self.name, self.size, self.limit = name, size, limit
        super().__init__(f"{name} expands to {_mib(size)} or more, over the budget of {_mib(limit)} "
                         f"(raise it with --max-unzipped-mb or ${BUDGET_ENV})")  # fmt: skip


def _mib(size: int) -> str:
    return f"{size / (1 << 20):,.0f} MiB" if size >= 1 << 20 else f"{size:,} bytes"


def max_unzipped_bytes() -> int:
    """The budget of one expanded member in bytes: ``$CSP_CHECK_MAX_UNZIPPED_MB`` (MiB; a
    fraction allowed, for tests) if set and valid, else :data:`DEFAULT_MAX_UNZIPPED`."""
    raw = os.environ.get(BUDGET_ENV)
    try:
        value = float(raw) if raw else 0.0
    except ValueError:
        value = 0.0
    return int(value * (1 << 20)) if value > 0 else DEFAULT_MAX_UNZIPPED


def json_members(path: Path) -> list[str]:
    """The ``.json`` members of the archive (no ``__MACOSX`` entries). Raises one of :data:`ZIP_ERRORS`."""
    with zipfile.ZipFile(path) as archive:
        return [n for n in archive.namelist() if n.endswith(".json") and not n.startswith("__MACOSX")]


def member_head(path: Path, name: str, size: int = 1 << 16) -> str:
    """The first ``size`` bytes of a member, decoded (bad bytes replaced): for sniffing, never
    the whole member. Raises one of :data:`ZIP_ERRORS`."""
    with zipfile.ZipFile(path) as archive, archive.open(name) as member:
        return member.read(size).decode("utf-8", "replace")


def read_member(path: Path, name: str, limit: int | None = None) -> str:
    """A member's text: UTF-8, bytes that are not UTF-8 kept as ``surrogateescape`` characters
    (so the JSON reader blames only the item holding them, as for a plain file), a BOM kept.
    Raises :class:`OverBudget` past ``limit`` bytes (default :func:`max_unzipped_bytes`),
    or one of :data:`ZIP_ERRORS`."""
    limit = max_unzipped_bytes() if limit is None else limit
    with zipfile.ZipFile(path) as archive:
        info = archive.getinfo(name)
        if info.file_size > limit:
            raise OverBudget(name, info.file_size, limit)
        with archive.open(name) as member:
            data = member.read(limit + 1)
    if len(data) > limit:
        raise OverBudget(name, len(data), limit)
    try:
        return data.decode("utf-8")
    except UnicodeDecodeError:
        return data.decode("utf-8", "surrogateescape")


def zip_problem(err: BaseException) -> str:
    """What one of :data:`ZIP_ERRORS` means, in one line: ``encrypted (a password is needed)``,
    ``compression method not supported: …``, ``damaged compressed data: …``, …"""
    text = " ".join(str(err).split())
    if isinstance(err, RuntimeError) and "encrypted" in text:
        return "a member is encrypted (a password is needed); give it unpacked"
    if isinstance(err, NotImplementedError):
        return f"compression method not supported ({text}); give it unpacked"
    if isinstance(err, (zlib.error, lzma.LZMAError, EOFError)):
        return f"damaged compressed data ({text})"
    if isinstance(err, zipfile.BadZipFile):
        return f"not a valid zip archive ({text})"
    return f"{type(err).__name__}: {text}"


def read_small(path: Path, name: str, limit: int = 16 << 20) -> str | None:
    """The text of a small member (a list file), ``None`` when absent, unreadable or larger than
    ``limit`` bytes. Never raises."""
    try:
        with zipfile.ZipFile(path) as archive:
            if name not in archive.namelist():
                return None
        return read_member(path, name, limit).encode("utf-8", "replace").decode("utf-8", "replace")
    except ZIP_ERRORS:
        return None
