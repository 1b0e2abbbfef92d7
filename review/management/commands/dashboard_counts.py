"""`dashboard_counts --check | --rebuild [--corpus NAME]`: compare the dashboard's
kept counts (review.models.DashboardCount) with a full recount of every span
and review event, or write them again from that recount."""

from django.core.management.base import BaseCommand, CommandError, CommandParser
from django.db import transaction

from review.selectors.corpora import corpus_named
from review.services import dashboard_counts


class Command(BaseCommand):
    help = "Check the corpus dashboard's kept counts against a full recount (--check), or rebuild them (--rebuild)."

    def add_arguments(self, parser: CommandParser) -> None:
        what = parser.add_mutually_exclusive_group(required=True)
        what.add_argument("--check", action="store_true", help="compare with a full recount; exit 1 if they differ")
        what.add_argument("--rebuild", action="store_true", help="write the counts again from a full recount")
        parser.add_argument("--corpus", help="the corpus's name (default: every corpus)")

    def handle(self, *args, **options) -> None:
        corpus_id = None
        if options["corpus"]:
            corpus = corpus_named(options["corpus"])
            if corpus is None:
                raise CommandError(f"No corpus named {options['corpus']!r}.")
            corpus_id = corpus.pk
        if options["rebuild"]:
            with transaction.atomic():
                dashboard_counts.rebuild(corpus_id)
            self.stdout.write("Dashboard counts rebuilt from a full recount.")
            return
        extra, missing = dashboard_counts.differences(corpus_id)
        if extra or missing:
            for label, rows in (("kept, not in the recount", extra), ("in the recount, not kept", missing)):
                for row, times in sorted(rows.items(), key=repr)[:20]:
                    self.stderr.write(f"{label}: {dict(zip(dashboard_counts.COLUMNS, row, strict=True))} ×{times}")
            raise CommandError(
                f"Dashboard counts differ from a full recount: {sum(extra.values())} row(s) kept that it does not "
                f"give, {sum(missing.values())} row(s) it gives that are not kept. "
                "Run `manage.py dashboard_counts --rebuild`."
            )
        self.stdout.write("Dashboard counts match a full recount.")
