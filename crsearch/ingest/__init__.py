"""Where releases come from: downloads, decoding, parsing (TXT and HTML) and the
import pipeline that stores them."""
