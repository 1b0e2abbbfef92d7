"""`generate_transcripts OUT.jsonl [--count N] [--seed S]`: the synthetic hearing gold set."""

from pathlib import Path

from django.core.management.base import BaseCommand, CommandParser

from pipelines.synthetic_transcripts import gazetteer_overlap, generate, write_jsonl


class Command(BaseCommand):
    help = "Write seeded synthetic parole-hearing transcripts with gold spans (JSONL, as `evaluate` reads it)."
    requires_system_checks: list = []

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("out", type=Path)
        parser.add_argument("--count", type=int, default=60)
        parser.add_argument("--seed", type=int, default=1)

    def handle(self, *args, **options) -> None:
        documents = list(generate(options["count"], options["seed"]))
        write_jsonl(documents, options["out"])
        spans = sum(len(d.spans) for d in documents)
        words = sum(len(d.text.split()) for d in documents)
        overlap = gazetteer_overlap()
        self.stdout.write(
            f"{len(documents)} transcripts, {words} words, {spans} gold spans → {options['out']}; "
            f"names known to the detector's gazetteer: {overlap['first_names']:.0%} of first names, "
            f"{overlap['surnames']:.0%} of surnames"
        )
