"""The plugin registry: games found through the ``gridgames.games`` entry-point group.

Names are listed without importing any game; a game module is imported only when
it is used. ``gridgames list`` shows summaries through `Registry.list_all`: gridgames'
own games are loaded here, every other plugin is imported in a child process
(`gridgames._plugin_probe`) whose output is discarded and which is killed when an
import takes more than `PLUGIN_IMPORT_SECONDS`: a plugin that sleeps, exits or prints
at import is listed as BROKEN with its reason, and cannot stall, end or pollute the
listing. A subprocess rather than a thread because a thread can neither be stopped
(a stalled import would keep running and could print later), nor catch ``os._exit``
or writes to file descriptor 1. A plugin that fails to import, exposes something other than a
`GameSpec`, or repeats a name already taken is reported with its reason, and every
other game keeps working. The built-in games are declared in gridgames' own
``pyproject.toml`` exactly as a third party declares theirs::

    [project.entry-points."gridgames.games"]
    mygame = "mypackage.mygame:SPEC"
"""

from __future__ import annotations

import json
import os
import select
import subprocess
import sys
import time
from collections.abc import Iterable
from importlib.metadata import EntryPoint, entry_points

import attrs

from gridgames.errors import PluginError, UnknownGameError
from gridgames.game import GameSpec

GROUP = "gridgames.games"

PLUGIN_IMPORT_SECONDS = 2.0
"""How long ``gridgames list`` lets a plugin's import take (env GRIDGAMES_PLUGIN_SECONDS) before listing it BROKEN."""

PROBE_START_SECONDS = 20.0
"""How long the probing child process may take to start (Python and gridgames itself, not a plugin)."""

OWN_DISTRIBUTION = "gridgames"
"""Entry points of this distribution (the built-in games) are trusted: loaded in this process."""


@attrs.frozen
class Listing:
    """One line of ``gridgames list``: a game's name, kind and summary."""

    name: str
    kind: str
    summary: str


@attrs.frozen
class BrokenPlugin:
    """A plugin that could not be used, with the reason."""

    name: str
    target: str
    reason: str


def _source(ep: EntryPoint) -> str:
    dist = getattr(ep, "dist", None)
    return f"{ep.value} (from {dist.name})" if dist is not None else ep.value


@attrs.define
class Registry:
    """The games available through entry points, loaded lazily and cached."""

    entries: dict[str, EntryPoint] = attrs.field(factory=dict)
    duplicates: list[BrokenPlugin] = attrs.field(factory=list)
    _loaded: dict[str, GameSpec] = attrs.field(factory=dict, init=False)
    _broken: dict[str, BrokenPlugin] = attrs.field(factory=dict, init=False)

    @classmethod
    def from_entry_points(cls, group: str = GROUP) -> Registry:
        """The registry of every entry point in ``group`` of the installed distributions."""
        return cls.from_list(entry_points(group=group))

    @classmethod
    def from_list(cls, eps: Iterable[EntryPoint]) -> Registry:
        """A registry of the given entry points; a repeated name keeps its first entry, the others are reported."""
        entries: dict[str, EntryPoint] = {}
        duplicates: list[BrokenPlugin] = []
        for ep in eps:
            if ep.name in entries:
                if entries[ep.name].value != ep.value:
                    duplicates.append(BrokenPlugin(ep.name, _source(ep), f"the name {ep.name!r} is taken by {_source(entries[ep.name])}"))
                continue
            entries[ep.name] = ep
        return cls(entries, duplicates)

    def names(self) -> list[str]:
        """The registered game names, without importing any game."""
        return sorted(self.entries)

    def load(self, name: str) -> GameSpec:
        """The `GameSpec` of a game, importing its module; raises `UnknownGameError` or `PluginError`."""
        if name in self._loaded:
            return self._loaded[name]
        if name in self._broken:
            raise PluginError(f"game {name!r} is broken: {self._broken[name].reason}")
        if name not in self.entries:
            known = ", ".join(self.names()) or "none"
            raise UnknownGameError(f"no game named {name!r} (known games: {known})")
        ep = self.entries[name]
        try:
            spec = ep.load()
        except Exception as error:  # a plugin's import may fail in any way; report it, stay up
            return self._fail(name, ep, f"import failed: {type(error).__name__}: {error}")
        if not isinstance(spec, GameSpec):
            return self._fail(name, ep, f"exposes {_a(type(spec).__name__)}, not a gridgames.game.GameSpec")
        if spec.name != name:
            return self._fail(name, ep, f"its GameSpec is named {spec.name!r}, not {name!r}")
        self._loaded[name] = spec
        return spec

    def _fail(self, name: str, ep: EntryPoint, reason: str) -> GameSpec:
        self._broken[name] = BrokenPlugin(name, _source(ep), reason)
        raise PluginError(f"game {name!r} is broken: {reason}")

    def load_all(self) -> tuple[list[GameSpec], list[BrokenPlugin]]:
        """Every game that loads, and every plugin that does not (with its reason)."""
        specs: list[GameSpec] = []
        for name in self.names():
            try:
                specs.append(self.load(name))
            except PluginError:
                pass
        return specs, sorted([*self._broken.values(), *self.duplicates], key=lambda b: b.name)


    def list_all(self, seconds: float | None = None) -> tuple[list[Listing], list[BrokenPlugin]]:
        """Every game's listing and every broken plugin; plugins are imported in a child process, ``seconds`` each at most."""
        limit = seconds if seconds is not None else _plugin_seconds()
        foreign = [(name, self.entries[name]) for name in self.names() if not _trusted(self.entries[name])]
        probe = _Probe(foreign, limit) if foreign else None  # the child works while the built-ins load here
        listings: list[Listing] = []
        for name in self.names():
            if _trusted(self.entries[name]):
                try:
                    spec = self.load(name)
                except PluginError:
                    continue
                listings.append(Listing(spec.name, spec.kind.value, spec.summary))
        probed, broken = probe.collect() if probe is not None else ([], [])
        listings = sorted([*listings, *probed], key=lambda item: item.name)
        return listings, sorted([*self._broken.values(), *broken, *self.duplicates], key=lambda b: b.name)


def _trusted(ep: EntryPoint) -> bool:
    dist = getattr(ep, "dist", None)
    return dist is not None and dist.name == OWN_DISTRIBUTION


def _plugin_seconds() -> float:
    try:
        seconds = float(os.environ.get("GRIDGAMES_PLUGIN_SECONDS", PLUGIN_IMPORT_SECONDS))
    except ValueError:
        return PLUGIN_IMPORT_SECONDS
    return seconds if 0 < seconds < 3600 else PLUGIN_IMPORT_SECONDS


class _Probe:
    """Each plugin imported in a child process of its own, all at once; one that stalls or dies is reported broken."""

    def __init__(self, entries: list[tuple[str, EntryPoint]], seconds: float) -> None:
        self.seconds = seconds
        self.children = {name: (ep, self._start(name, ep)) for name, ep in entries}

    @staticmethod
    def _start(name: str, ep: EntryPoint) -> subprocess.Popen[bytes]:
        env = {**os.environ, "PYTHONPATH": os.pathsep.join(p for p in sys.path if p)}
        return subprocess.Popen(
            [sys.executable, "-m", "gridgames._plugin_probe", json.dumps([[name, ep.value]])],
            stdin=subprocess.DEVNULL, stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, env=env,
        )  # fmt: skip

    def collect(self) -> tuple[list[Listing], list[BrokenPlugin]]:
        """Every plugin's listing, or why it is broken (its import stalled, ended the process or failed)."""
        listings: list[Listing] = []
        broken: list[BrokenPlugin] = []
        waiting = {child.stdout.fileno(): name for name, (_, child) in self.children.items()}  # type: ignore[union-attr]
        buffers = {fd: b"" for fd in waiting}
        deadlines = {name: time.monotonic() + PROBE_START_SECONDS for name in self.children}
        started: set[str] = set()
        try:
            while waiting:
                now = time.monotonic()
                for fd, name in list(waiting.items()):
                    if now > deadlines[name]:
                        del waiting[fd]
                        what = f"its import did not finish within {self.seconds:g} s" if name in started else "its probe did not start"
                        broken.append(BrokenPlugin(name, _source(self.children[name][0]), what))
                if not waiting:
                    break
                ready = select.select(list(waiting), [], [], max(0.0, min(deadlines[n] for n in waiting.values()) - now))[0]
                for fd in ready:
                    name = waiting[fd]
                    chunk = os.read(fd, 65536)
                    buffers[fd] += chunk
                    *lines, buffers[fd] = buffers[fd].split(b"\n")
                    for line in lines:
                        message = json.loads(line)
                        if "start" in message:
                            started.add(name)
                            deadlines[name] = time.monotonic() + self.seconds
                        elif "reason" in message:
                            broken.append(BrokenPlugin(name, _source(self.children[name][0]), message["reason"]))
                            del waiting[fd]
                        else:
                            listings.append(Listing(name, message["kind"], message["summary"]))
                            del waiting[fd]
                    if not chunk and fd in waiting:  # the child ended without a result: the plugin ended it
                        del waiting[fd]
                        child = self.children[name][1]
                        child.wait(timeout=5)
                        broken.append(BrokenPlugin(name, _source(self.children[name][0]), f"its import ended the process (exit code {child.returncode})"))
        finally:
            for _, child in self.children.values():
                child.kill()
                child.wait()
                if child.stdout is not None:
                    child.stdout.close()
        return listings, broken


_default: Registry | None = None


def default_registry() -> Registry:
    """The process-wide registry of installed games (built once)."""
    global _default
    if _default is None:
        _default = Registry.from_entry_points()
    return _default


def load_game(name: str) -> GameSpec:
    """The `GameSpec` of an installed game by name."""
    return default_registry().load(name)


def _a(noun: str) -> str:
    """The noun with its indefinite article ("an int", "a str")."""
    return f"{'an' if noun[:1].lower() in 'aeiou' else 'a'} {noun}"
