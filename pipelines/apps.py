from django.apps import AppConfig


class PipelinesConfig(AppConfig):
    name = "pipelines"
    default_auto_field = "django.db.models.BigAutoField"
