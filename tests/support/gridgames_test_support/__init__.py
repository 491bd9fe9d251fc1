"""Helpers shared by the test suite: Hypothesis strategies, toy games, executor helpers.

Importable as ``gridgames_test_support`` (pytest puts only ``tests/support`` on the path), a name no
real module has, so it can never shadow ``gridgames`` or a game package.
"""
