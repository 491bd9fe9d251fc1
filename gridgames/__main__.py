"""``python -m gridgames``: the same command line as ``gridgames``."""

from gridgames.launch import main

if __name__ == "__main__":
    main()
