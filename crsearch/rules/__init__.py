"""The rules domain: the model of one release, rule numbers, references, the
glossary and text folding. No I/O."""
