"""``python -m crsearch``."""

from crsearch.cli import main

if __name__ == "__main__":
    main()
