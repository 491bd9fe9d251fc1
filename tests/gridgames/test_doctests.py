"""The examples in the docstrings of gridgames and the built-in games run, and give what they show."""

from __future__ import annotations

import doctest
import importlib
import pkgutil

import pytest

PACKAGES = ("gridgames", "gridgames_connect4", "gridgames_pentomino")
# import only where their optional extra is installed
NEEDS_EXTRA = ("gridgames.rl", "gridgames.web")
FLAGS = doctest.ELLIPSIS | doctest.NORMALIZE_WHITESPACE


def _module_names() -> list[str]:
    names = []
    for package_name in PACKAGES:
        package = importlib.import_module(package_name)
        names.append(package_name)
        names += [info.name for info in pkgutil.walk_packages(package.__path__, package_name + ".")]
    return sorted(names)


def _modules_with_examples() -> list[str]:
    found = []
    for name in _module_names():
        try:
            module = importlib.import_module(name)
        except ImportError:
            if name.startswith(NEEDS_EXTRA):
                continue
            raise
        if any(test.examples for test in doctest.DocTestFinder().find(module)):
            found.append(name)
    return found


WITH_EXAMPLES = _modules_with_examples()


def test_the_public_modules_carry_examples() -> None:
    public = (
        "gridgames",
        "gridgames.grid",
        "gridgames.game",
        "gridgames.cli_support",
        "gridgames_connect4.position.rules",
    )
    for name in public:
        assert name in WITH_EXAMPLES, f"{name} has no docstring example"


@pytest.mark.parametrize("name", WITH_EXAMPLES)
def test_docstring_examples_run(name: str) -> None:
    result = doctest.testmod(importlib.import_module(name), optionflags=FLAGS, verbose=False)
    assert result.attempted > 0
    assert result.failed == 0, f"{result.failed} of {result.attempted} docstring examples failed in {name}"
