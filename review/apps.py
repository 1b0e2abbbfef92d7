from django.apps import AppConfig


class ReviewConfig(AppConfig):
    name = "review"
    default_auto_field = "django.db.models.BigAutoField"

    def ready(self) -> None:
        # Services queue tasks by name (review/services/jobs.py); registering them
        # here makes every process (web, command line, worker) know them, so eager
        # mode and routing work without importing the tasks module anywhere else.
        from review import tasks  # noqa: F401
