"""`manage.py sweep`: queue again what waited too long for a worker, and take back
what dead workers left (what Celery beat runs every SWEEP_INTERVAL_SECONDS)."""

import json

from django.core.management.base import BaseCommand

from review.services.sweeper import sweep


class Command(BaseCommand):
    help = "Re-queue or fail documents, re-annotations and exports stuck queued or running."

    def handle(self, *args, **options) -> None:
        self.stdout.write(json.dumps(sweep().to_dict()))
