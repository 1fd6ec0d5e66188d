"""Scripts that build the data crsearch ships (``data/``), reproducibly.

Run them as modules from the repository root (``python -m tools.learn_fusion``);
README.md lists them.  ``bench/`` measures and writes nothing the package ships.
"""
