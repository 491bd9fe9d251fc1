"""The package itself: its version, and what importing it costs."""

from __future__ import annotations

import importlib.metadata
import subprocess
import sys

import pytest

import gridgames


def test_the_version_is_the_installed_distributions() -> None:
    assert gridgames.__version__ == importlib.metadata.version("gridgames")


def test_importing_gridgames_leaves_importlib_metadata_until_the_version_is_asked_for() -> None:
    code = (
        "import sys, gridgames; before = 'importlib.metadata' in sys.modules; gridgames.__version__; "
        "print(before, 'importlib.metadata' in sys.modules)"
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True).stdout
    assert out.split() == ["False", "True"]


def test_an_unknown_attribute_is_an_attribute_error() -> None:
    with pytest.raises(AttributeError, match="no_such_name"):
        gridgames.no_such_name  # noqa: B018
