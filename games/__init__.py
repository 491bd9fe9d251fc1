"""Not a package: ``games/`` is the source folder of the built-in games.

They install under names this project owns, ``gridgames_connect4`` and ``gridgames_pentomino``
(found, like any plugin, through the ``gridgames.games`` entry points). This file exists so
that ``import games`` run from a checkout fails with this explanation instead of importing
the folder as a namespace package.
"""

raise ImportError("there is no module 'games': the built-in games are gridgames_connect4 and gridgames_pentomino")
