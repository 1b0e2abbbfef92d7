"""`corpus_memory_rebuild [--corpus NAME]`: learn a corpus's memory (issue 17) from
all its approved documents again, e.g. those approved before the memory existed."""

from django.core.management.base import BaseCommand, CommandError, CommandParser

from ingestion.models import Corpus
from review.selectors.corpora import corpus_named
from review.services.corpus_memory import corpus_memory_rebuild


class Command(BaseCommand):
    help = "Rebuild the corpus memory from every approved document (idempotent; removed entries stay removed)."

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("--corpus", help="the corpus's name (default: every corpus)")

    def handle(self, *args, **options) -> None:
        if options["corpus"]:
            corpus = corpus_named(options["corpus"])
            if corpus is None:
                raise CommandError(f"No corpus named {options['corpus']!r}.")
            corpora = [corpus]
        else:
            corpora = list(Corpus.objects.order_by("pk"))
        for corpus in corpora:
            read = corpus_memory_rebuild(corpus_id=corpus.pk)
            self.stdout.write(f"{corpus.name}: {read} approved document{'s' if read != 1 else ''} read")
