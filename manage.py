#!/usr/bin/env python
import os
import sys


def main() -> None:
    # `detect` and `extract` are the engine's commands (pipelines/cli.py): they touch
    # no database, so they run without setting Django up, which would double the
    # start-up of a short run. Anything else (or Django's own options) is Django's.
    command = sys.argv[1:2]
    if command and command[0] in ("detect", "extract") and not any(a.startswith("--settings") for a in sys.argv):
        from pipelines.cli import main as engine_main

        sys.exit(engine_main(sys.argv[1:]))
    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "anonymizer_site.settings")
    from django.core.management import execute_from_command_line

    execute_from_command_line(sys.argv)


if __name__ == "__main__":
    main()
