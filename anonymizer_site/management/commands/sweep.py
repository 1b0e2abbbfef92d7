"""`manage.py sweep`: what Celery beat runs every SWEEP_INTERVAL_SECONDS, now: take
back what lost workers held (silent for WORKER_LOST_AFTER), queue again what waited
too long for a worker, fail what took TASK_MAX_ATTEMPTS workers with it."""

import json

from django.core.management.base import BaseCommand

from review.services.sweeper import sweep


class Command(BaseCommand):
    help = (
        "Re-queue or fail documents, re-annotations, exports and training runs stuck queued or held by a lost worker."
    )

    def handle(self, *args, **options) -> None:
        report = sweep()
        self.stdout.write(json.dumps(report.to_dict()))
        self.stderr.write(report.summary())
