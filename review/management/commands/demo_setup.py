"""Set up the embedded demo: an admin login, a demo corpus with one transcript and a
French demo corpus with one (synthetic) court decision.

Idempotent: run by every `make run`. The admin password is generated once, kept
in the private var directory, and printed each time.
"""

import os
import secrets
from pathlib import Path

from django.conf import settings
from django.contrib.auth import get_user_model
from django.core.management.base import BaseCommand

from review.services.corpora import corpus_get_or_create
from review.services.uploads import upload

DEMO_FILE = Path(settings.BASE_DIR) / "demo" / "parole_hearing_demo.txt"
DEMO_CORPUS = "Demo corpus"
# A corpus has one language: the French decision has its own corpus.
FRENCH_DEMO_FILE = Path(settings.BASE_DIR) / "demo" / "decision_cour_appel_demo_fr.txt"
FRENCH_DEMO_CORPUS = "Demo corpus (French)"


class Command(BaseCommand):
    help = "Create the demo admin and corpus (idempotent) and print the login."

    def handle(self, *args, **options) -> None:
        password_file = settings.VAR_DIR / "admin_password"
        User = get_user_model()
        admin = User.objects.filter(username="admin").first()
        if admin is None or not password_file.exists():
            password = secrets.token_urlsafe(12)
            password_file.parent.mkdir(parents=True, exist_ok=True)
            password_file.write_text(password)
            password_file.chmod(0o600)
            if admin is None:
                admin = User.objects.create_superuser("admin", "admin@localhost", password)
            else:
                admin.set_password(password)
                admin.save(update_fields=["password"])
        password = password_file.read_text().strip()
        for name, language, path in ((DEMO_CORPUS, "en", DEMO_FILE), (FRENCH_DEMO_CORPUS, "fr", FRENCH_DEMO_FILE)):
            corpus = corpus_get_or_create(name=name, user=admin, language=language)
            (result,) = upload(corpus=corpus, name=path.name, data=path.read_bytes(), user=admin)
            document, created = result.document, result.created
            state = "queued for pre-annotation" if created else f"already there ({document.status})"
            self.stdout.write(f"{name}: {path.name} {state}")
        port = os.environ.get("PORT", "8000")
        self.stdout.write(self.style.SUCCESS(f"Log in at http://127.0.0.1:{port} as admin / {password}"))
