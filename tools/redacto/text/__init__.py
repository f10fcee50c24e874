"""What every reader agrees on about words, below the readers themselves.

- `joined_elements`: a page's words joined into one text, with where each starts and the
  one rule for where a line starts (the rules, the NER tier and the page's text reading
  all search text this way);
- `not_names`: the words no detector may name a NAME on their own (`not_names.txt`);
- `not_identifiers`: values that identify no one under any label (a time of day, an
  amount) and the greetings cut from a name.

These need only `redacto.document`, so the rules, the NER tier, the lexicon and the
pipeline share them without reaching into one another (the phone's `NotIdentifiers.kt` is
in Kotlin's `text` package).
"""
