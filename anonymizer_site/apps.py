import sqlite3

from django.apps import AppConfig
from django.db.backends.signals import connection_created


def _sqlite_variable_limit(sender, connection, **kwargs) -> None:
    """Django assumes SQLite's compile-time default of 999 variables per query and
    splits a bulk insert into batches of 999 // fields rows: an add over 100
    occurrences became 35 queries on SQLite and 12 on PostgreSQL. The SQLite we
    run on reports its real limit (250,000 on Debian's 3.40), so one operation is
    one INSERT on both databases."""
    if connection.vendor == "sqlite":
        limit = connection.connection.getlimit(sqlite3.SQLITE_LIMIT_VARIABLE_NUMBER)
        connection.features.max_query_params = max(limit, 999)


class SiteConfig(AppConfig):
    name = "anonymizer_site"
    verbose_name = "Transcript anonymizer"

    def ready(self) -> None:
        connection_created.connect(_sqlite_variable_limit, dispatch_uid="sqlite_variable_limit")
        configure_engine_limits()


def configure_engine_limits() -> None:
    """The engine is plain Python: the limits it applies to corpus patterns come
    from the settings here, once per process (web, worker, command line)."""
    from django.conf import settings

    from pipelines.detection.recognizers import corpus_patterns

    corpus_patterns.configure(
        corpus_patterns.PatternLimits(
            max_patterns=settings.MAX_CORPUS_PATTERNS,
            max_length=settings.MAX_PATTERN_LENGTH,
            max_program_size=settings.MAX_PATTERN_PROGRAM_SIZE,
            budget_seconds=settings.CORPUS_PATTERN_BUDGET_SECONDS,
            max_matches=settings.MAX_CORPUS_PATTERN_MATCHES,
            max_match_chars=settings.MAX_CORPUS_PATTERN_MATCH_CHARS,
            max_list_entries=settings.MAX_LIST_ENTRIES,
            max_list_entry_chars=settings.MAX_LIST_ENTRY_CHARS,
            max_list_chars=settings.MAX_LIST_CHARS,
        )
    )
