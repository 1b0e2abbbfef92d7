#!/usr/bin/env python
import os
import sys

# Options only Django's command runner understands: with any of them, or with a
# settings module of the deployment's own (which may set SPACY_MODEL), the
# command goes through Django as before.
DJANGO_OPTIONS = ("--settings", "--pythonpath", "-v", "--verbosity", "--traceback", "--no-color", "--force-color")
DEFAULT_SETTINGS = "anonymizer_site.settings"


def _engine_command(argv: list[str]) -> bool:
    """`detect` and `extract` are the engine's commands (pipelines/cli.py): they touch
    no database, so they run without setting Django up, which would double the
    start-up of a short run."""
    return (
        argv[1:2] in (["detect"], ["extract"])
        and os.environ.get("DJANGO_SETTINGS_MODULE", DEFAULT_SETTINGS) == DEFAULT_SETTINGS
        and not any(arg.split("=")[0] in DJANGO_OPTIONS for arg in argv[2:])
    )


def main() -> None:
    if _engine_command(sys.argv):
        from pipelines.cli import main as engine_main

        sys.exit(engine_main(sys.argv[1:]))
    os.environ.setdefault("DJANGO_SETTINGS_MODULE", DEFAULT_SETTINGS)
    from django.core.management import execute_from_command_line

    execute_from_command_line(sys.argv)


if __name__ == "__main__":
    main()
