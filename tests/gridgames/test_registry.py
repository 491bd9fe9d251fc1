"""Tests for gridgames.registry: lazy listing, loading, and broken plugins reported, not fatal."""

from __future__ import annotations

import sys
from importlib.metadata import EntryPoint
from pathlib import Path

import pytest

from gridgames.errors import PluginError, UnknownGameError
from gridgames.registry import GROUP, Registry


def ep(name: str, value: str) -> EntryPoint:
    return EntryPoint(name=name, value=value, group=GROUP)


def test_names_are_listed_without_importing_the_game() -> None:
    sys.modules.pop("toy_games_lazy_probe", None)
    registry = Registry.from_list([ep("probe", "toy_games_lazy_probe:SPEC")])
    assert registry.names() == ["probe"]
    assert "toy_games_lazy_probe" not in sys.modules


def test_a_good_plugin_loads_its_spec() -> None:
    registry = Registry.from_list([ep("nim", "gridgames_test_support.toy_games:NIM_SPEC")])
    assert registry.load("nim").summary.startswith("Take 1 to 3")


@pytest.mark.parametrize(
    ("value", "reason"),
    [
        ("no_such_module_xyz:SPEC", "import failed: ModuleNotFoundError"),
        ("gridgames_test_support.toy_games:NO_SUCH_NAME", "import failed: AttributeError"),
        ("gridgames_test_support.toy_games:WRONG_OBJECT", "exposes a str, not a gridgames.game.GameSpec"),
        ("gridgames_test_support.toy_games:AN_INT", "exposes an int, not a gridgames.game.GameSpec"),
        ("gridgames_test_support.toy_games:MISNAMED_SPEC", "named 'other', not 'nim'"),
    ],
)
@pytest.mark.slow
def test_a_broken_plugin_is_reported_with_its_reason_and_others_still_load(value: str, reason: str) -> None:
    registry = Registry.from_list([ep("nim", value), ep("take", "gridgames_test_support.toy_games:TAKE_SPEC")])
    with pytest.raises(PluginError, match=reason):
        registry.load("nim")
    specs, broken = registry.load_all()
    assert [b.name for b in broken] == ["nim"] and reason in broken[0].reason
    assert [s.name for s in specs] == ["take"]


def test_a_repeated_name_is_kept_once_and_the_other_reported() -> None:
    registry = Registry.from_list([ep("nim", "gridgames_test_support.toy_games:NIM_SPEC"), ep("nim", "elsewhere:SPEC")])
    specs, broken = registry.load_all()
    assert [s.name for s in specs] == ["nim"]
    assert len(broken) == 1 and "is taken by" in broken[0].reason


def test_an_unknown_game_names_the_known_ones() -> None:
    registry = Registry.from_list([ep("nim", "gridgames_test_support.toy_games:NIM_SPEC")])
    with pytest.raises(UnknownGameError, match="no game named 'chess' .known games: nim."):
        registry.load("chess")


def test_entry_points_read_directly_are_importlib_metadatas(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    import importlib.metadata

    from gridgames.registry import entry_points

    info = tmp_path / "gg_direct_probe-1.0.dist-info"
    info.mkdir()
    info.joinpath("METADATA").write_text("Metadata-Version: 2.1\nName: gg-direct.Probe\nVersion: 1.0\n")
    info.joinpath("entry_points.txt").write_text(
        "[console_scripts]\nnot_a_game = x:y\n\n# a comment\n[gridgames.games]\nfirst = gg_first:SPEC\n"
        "second=gg_second.sub:Thing.SPEC [extra]\n"
    )
    (tmp_path / "gg_second").mkdir()
    (tmp_path / "gg_second" / "__init__.py").write_text("")
    (tmp_path / "gg_second" / "sub.py").write_text("class Thing:\n    SPEC = 42\n")
    monkeypatch.setattr(sys, "path", [str(tmp_path), *sys.path])
    ours = [(e.name, e.value, e.group, e.dist.name) for e in entry_points(GROUP)]
    theirs = [(e.name, e.value, e.group, e.dist.name) for e in importlib.metadata.entry_points(group=GROUP)]
    assert ours == theirs and ("second", "gg_second.sub:Thing.SPEC [extra]", GROUP, "gg-direct.Probe") in ours
    assert next(e for e in entry_points(GROUP) if e.name == "second").load() == 42
