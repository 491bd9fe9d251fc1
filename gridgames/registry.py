"""The plugin registry: games found through the ``gridgames.games`` entry-point group.

Names are listed without importing any game; a game module is imported only when
it is used. A plugin that fails to import, exposes something other than a
`GameSpec`, or repeats a name already taken is reported with its reason, and every
other game keeps working. The built-in games are declared in gridgames' own
``pyproject.toml`` exactly as a third party declares theirs::

    [project.entry-points."gridgames.games"]
    mygame = "mypackage.mygame:SPEC"
"""

from __future__ import annotations

from collections.abc import Iterable
from importlib.metadata import EntryPoint, entry_points

import attrs

from gridgames.errors import PluginError, UnknownGameError
from gridgames.game import GameSpec

GROUP = "gridgames.games"


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
