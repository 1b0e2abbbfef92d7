"""Encrypted storage of corpus-wide pseudonym maps, and the per-corpus secret."""

import hashlib
import hmac
import json

from cryptography.fernet import Fernet
from django.conf import settings

from ingestion.models import Corpus
from pipelines.pseudonymize.counters import NumberedMap
from review.models import PseudonymMap


def _fernet() -> Fernet:
    return Fernet(settings.PSEUDONYM_MAP_KEY.encode())


def load_map(corpus: Corpus) -> NumberedMap:
    stored = PseudonymMap.objects.filter(corpus=corpus).first()
    if stored is None:
        return NumberedMap()
    return NumberedMap.from_json(json.loads(_fernet().decrypt(bytes(stored.data))))


def save_map(corpus: Corpus, numbers: NumberedMap) -> None:
    token = _fernet().encrypt(json.dumps(numbers.to_json()).encode())
    PseudonymMap.objects.update_or_create(corpus=corpus, defaults={"data": token})


def corpus_secret(corpus: Corpus) -> str:
    """Salt for hashes, random characters and surrogates: stable per corpus (so
    re-exports agree) and underivable without the server's secret key."""
    return hmac.new(settings.SECRET_KEY.encode(), f"corpus:{corpus.pk}".encode(), hashlib.sha256).hexdigest()
