"""The judge's desk: explain a card's text, check citations, quote rules."""
