"""crsearch: the Magic: The Gathering Comprehensive Rules, exact and fast.

Nothing heavy is imported here so that ``crsearch rule`` starts quickly.
"""

__version__ = "0.1.0"
