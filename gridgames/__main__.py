"""``python -m gridgames``: the same command line as ``gridgames``."""

from gridgames.cli import main

if __name__ == "__main__":
    main()
