"""Entry points of the installed distributions, read from their metadata folders without importlib.metadata.

The registry (`gridgames.registry`) lists games through them, and the console script (`gridgames.launch`) finds a
built-in game's quick answer through them before anything heavier is imported: this module imports no more than
the interpreter has loaded at start (docs/startup.md).
"""

from __future__ import annotations

import importlib
import os
import sys

# (typing's import is a few milliseconds of a fresh process; mypy reads the name as usual)
TYPE_CHECKING = False
if TYPE_CHECKING:
    from typing import Any

__all__ = ["entry_points"]


class _Distribution:
    """The distribution an entry point comes from (its ``name``, as importlib.metadata's ``Distribution.name``)."""

    __slots__ = ("name", "folder")

    def __init__(self, name: str, folder: str | None = None) -> None:
        self.name = name
        self.folder = folder  # its metadata folder (``*.dist-info``), where known


class _EntryPoint:
    """An entry point read from a distribution's entry_points.txt: ``name``, ``value``, ``group``, ``dist``, `load`,
    as importlib.metadata's ``EntryPoint`` has them."""

    __slots__ = ("name", "value", "group", "dist")

    def __init__(self, name: str, value: str, group: str, dist: _Distribution | None) -> None:
        self.name, self.value, self.group, self.dist = name, value, group, dist

    def load(self) -> Any:
        """Import the module named before the colon and return the attribute named after it."""
        # "module:attr [extra]": extras name no code to import
        target = self.value.split("[", 1)[0].strip()
        module, _, attr = target.partition(":")
        found: Any = importlib.import_module(module.strip())
        for part in filter(None, attr.strip().split(".")):
            found = getattr(found, part)
        return found


def _normalized(name: str) -> str:
    return name.lower().replace("-", "_").replace(".", "_")


def _read_section(path: str, group: str) -> list[tuple[str, str]]:
    """The ``name = value`` lines of the ``[group]`` section of an entry_points.txt ([] when it has none)."""
    try:
        with open(path, encoding="utf-8") as handle:
            text = handle.read()
    except (OSError, UnicodeDecodeError):
        return []
    found, inside = [], False
    for line in text.splitlines():
        line = line.strip()
        if not line or line[0] in "#;":
            continue
        if line.startswith("[") and line.endswith("]"):
            inside = line[1:-1].strip() == group
        elif inside and "=" in line:
            name, value = line.split("=", 1)
            found.append((name.strip(), value.strip()))
    return found


def _distribution_name(folder: str, fallback: str) -> str:
    """The Name field of a distribution's METADATA (or PKG-INFO), else ``fallback``."""
    for leaf in ("METADATA", "PKG-INFO"):
        try:
            with open(os.path.join(folder, leaf), encoding="utf-8") as handle:
                for line in handle:
                    if line.startswith("Name:"):
                        return line[5:].strip()
                    if not line.strip():
                        break
        except (OSError, UnicodeDecodeError):
            continue
    return fallback


def entry_points(group: str) -> list[Any]:
    """The entry points of ``group`` in the installed distributions, as ``importlib.metadata.entry_points(group=...)``.

    The distributions' metadata folders (``*.dist-info``, ``*.egg-info``) on ``sys.path`` are read directly, the first
    folder of each distribution name winning as importlib.metadata has it: importing importlib.metadata (the email
    and zip modules it loads) costs a process about 20 ms, more than the rest of ``gridgames connect4 show`` (see
    docs/startup.md). With a zip file on ``sys.path``, importlib.metadata itself looks (it reads zips).
    """
    found: list[Any] = []
    seen: set[str] = set()
    for entry in sys.path:
        where = entry or "."
        if not os.path.isdir(where):
            # a zip archive: importlib.metadata knows how to read its metadata
            if os.path.isfile(where):
                from importlib.metadata import entry_points as metadata_entry_points

                return list(metadata_entry_points(group=group))
            continue
        try:
            names = os.listdir(where)
        except OSError:
            continue
        for leaf in names:
            stem, dot, kind = leaf.rpartition(".")
            if not dot or kind not in ("dist-info", "egg-info"):
                continue
            key = _normalized(stem.split("-", 1)[0])
            if key in seen:
                continue
            seen.add(key)
            folder = os.path.join(where, leaf)
            lines = _read_section(os.path.join(folder, "entry_points.txt"), group)
            if lines:
                dist = _Distribution(_distribution_name(folder, stem.split("-", 1)[0]), folder)
                found.extend(_EntryPoint(name, value, group, dist) for name, value in lines)
    return found
