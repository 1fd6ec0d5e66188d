"""Scripts that build the data crsearch ships (``data/``), reproducibly.

Run them from a checkout (``python tools/learn_fusion.py``); ``bench/``
measures and writes nothing the package ships.
"""
