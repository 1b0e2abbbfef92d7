"""`detect INPUT --out OUTPUT`: the engine's command (pipelines/cli.py). manage.py
runs it without setting Django up; this class makes it callable as a management
command too (`call_command`, `manage.py help`)."""

from django.conf import settings
from django.core.management.base import BaseCommand, CommandError, CommandParser

from pipelines import cli


class Command(BaseCommand):
    help = "Run the default detection pipeline over JSONL texts ({id, text} per line; '-' is stdin)."
    requires_system_checks: list = []

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("input", nargs="?", help="JSONL file, or - for stdin")
        parser.add_argument("--out", help="JSONL output file, or - for stdout")
        parser.add_argument(
            "--model",
            nargs="?",
            const="",
            default=None,
            help="sm, md, research, a package or a directory (default: the SPACY_MODEL setting); alone: list them",
        )
        parser.add_argument(
            "--jobs", type=int, default=None, help="processes sharing the documents (default: one per core)"
        )
        parser.add_argument("--list-models", action="store_true", help="list the models with their licences")
        parser.add_argument("--language", default="en", help="the texts' language (en, fr…): its pipeline and model")

    def handle(self, *args, **options) -> None:
        try:
            if options["model"] == "" or options["list_models"]:
                cli.list_models(self.stdout)
                return
            if options["input"] is None or options["out"] is None:
                raise cli.UsageError("detect needs an input and --out (or --model alone to list the models)")
            language = options["language"]
            # English keeps the site's model; another language brings its own.
            model = options["model"] or (settings.SPACY_MODEL if language == "en" else None)
            cli.detect(options["input"], options["out"], model, language, options["jobs"])
        except cli.UsageError as exc:
            raise CommandError(str(exc)) from exc
