"""Measurements of crsearch: speed against baselines of the same run, and search quality.

Run each script as a module from the repository root, with crsearch installed
(``python -m bench.search_quality``); README.md lists them.  Nothing here
writes what the package ships: ``tools/`` does that.
"""
