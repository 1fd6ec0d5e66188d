"""Magic cards as a second source beside the rules: their Oracle text and rulings.

The card data is imported from MTGJSON's AtomicCards or Scryfall's bulk files
(``read``), written to the data folder as a name index and shards of card
JSON (``build``, ``store``), and read back by name or found in a question's
text (``names``, ``store``).  Card texts are Wizards of the Coast's, shown
under its Fan Content Policy; they are never shipped with crsearch.

This package sits between the store and the search: it imports only
``crsearch.rules``, ``crsearch.store`` and the top-level leaf modules.
"""
