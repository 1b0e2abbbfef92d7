"""`extract FILE`: the engine's command (pipelines/cli.py). manage.py runs it
without setting Django up; this class makes it callable as a management command
too (`call_command`, `manage.py help`)."""

from django.core.management.base import BaseCommand, CommandError, CommandParser

from pipelines import cli


class Command(BaseCommand):
    help = 'Extract a .txt or .pdf file and print {"text", "metadata", "pages", "layout"} as one JSON object.'
    # Pure extraction: no database, so it runs where none is configured.
    requires_system_checks: list = []

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("file")

    def handle(self, *args, **options) -> None:
        try:
            cli.extract(options["file"], self.stdout)
        except cli.UsageError as exc:
            raise CommandError(str(exc)) from exc
