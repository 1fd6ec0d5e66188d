"""The version of crsearch (a leaf: the site and the downloads name it too)."""

__version__ = "0.2.0"
