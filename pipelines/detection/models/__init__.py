"""The NER models by name (`catalog.py`), the one spaCy pipeline per process
(`nlp.py`) and research-trf's NumPy encoder (`minilm.py`)."""
