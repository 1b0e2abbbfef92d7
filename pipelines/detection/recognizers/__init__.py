"""The recognizers: each finds candidates on its own (the model's NER, Presidio over
the same Doc, patterns, cues, name lists, the cover page's names, a corpus's own
patterns and memory). `registry.py` lists which ones a configuration can turn on."""
