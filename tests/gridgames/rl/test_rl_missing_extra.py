"""Without the rl extra, importing gridgames.rl fails in one line that names the install command."""

from __future__ import annotations

import importlib
import sys

import pytest

from gridgames.errors import GridGamesError, MissingExtraError


@pytest.mark.parametrize("missing", ["pettingzoo", "gymnasium"])
def test_importing_without_the_extra_names_the_install_command(monkeypatch: pytest.MonkeyPatch, missing: str) -> None:
    for name in [m for m in sys.modules if m == "gridgames.rl" or m.startswith("gridgames.rl.")]:
        monkeypatch.delitem(sys.modules, name)
    monkeypatch.setitem(sys.modules, missing, None)  # "import missing" now raises ImportError
    with pytest.raises(MissingExtraError) as raised:
        importlib.import_module("gridgames.rl")
    message = str(raised.value)
    assert 'pip install "gridgames[rl]"' in message and missing in message and "\n" not in message
    assert isinstance(raised.value, GridGamesError) and isinstance(raised.value, ImportError)
