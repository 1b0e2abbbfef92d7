import os

from celery import Celery

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "anonymizer_site.settings")

app = Celery("anonymizer_site")
app.config_from_object("django.conf:settings", namespace="CELERY")
app.autodiscover_tasks()


# Run by beat (CELERY_BEAT_SCHEDULE, every SWEEP_INTERVAL_SECONDS): the periodic
# sweeper of review/services/sweeper.py. It takes no id; it is idempotent (each
# service claims what it re-queues with a conditional UPDATE).
@app.task(name="review.sweep", acks_late=True, ignore_result=True)
def sweep() -> None:
    from review.services.sweeper import sweep as run

    run()
