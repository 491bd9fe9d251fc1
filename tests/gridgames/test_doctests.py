"""The examples in the docstrings of gridgames and the built-in games run, and give what they show."""

from __future__ import annotations

import doctest
import importlib
import pkgutil
from types import ModuleType

import pytest

PACKAGES = ("gridgames", "gridgames_connect4", "gridgames_pentomino")
OPTIONAL = ("gridgames.rl", "gridgames.web")  # need extras; their doctests run where the extra is installed


def _modules() -> list[str]:
    names = []
    for package_name in PACKAGES:
        package = importlib.import_module(package_name)
        names.append(package_name)
        names += [info.name for info in pkgutil.walk_packages(package.__path__, package_name + ".")]
    return sorted(names)


def _has_examples(module: ModuleType) -> bool:
    return any(test.examples for test in doctest.DocTestFinder().find(module))


@pytest.mark.parametrize("name", _modules())
def test_docstring_examples_run(name: str) -> None:
    try:
        module = importlib.import_module(name)
    except ImportError as error:
        if name.startswith(OPTIONAL):
            pytest.skip(f"{name} needs an optional extra: {error}")
        raise
    if not _has_examples(module):
        pytest.skip(f"{name} has no docstring examples")
    result = doctest.testmod(module, optionflags=doctest.ELLIPSIS | doctest.NORMALIZE_WHITESPACE, verbose=False)
    assert result.failed == 0, f"{result.failed} of {result.attempted} docstring examples failed in {name}"
