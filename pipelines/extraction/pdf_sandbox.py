"""The child process that parses one PDF under resource limits.

`python -m pipelines.extraction.pdf_sandbox LIMITS_JSON` reads the PDF on stdin
and prints one JSON object (see `pdf.child_main`). Its address space and CPU
time are limited before anything is imported or parsed: a decompression bomb or
a pathological file ends this process (the parent reports which limit), never
the worker that asked."""

import json
import resource
import sys


def _limit(kind: int, value: int, grace: int = 0) -> None:
    _soft, hard = resource.getrlimit(kind)
    if hard != resource.RLIM_INFINITY:
        value = min(value, hard)
    else:
        hard = value + grace
    resource.setrlimit(kind, (value, hard))


def main() -> int:
    arguments = sys.argv[1]
    limits = json.loads(arguments)
    _limit(resource.RLIMIT_AS, int(limits["max_pdf_parse_memory_bytes"]))
    # SIGXCPU at the soft limit ends the process; the parent says why.
    _limit(resource.RLIMIT_CPU, int(limits["max_pdf_parse_seconds"]), grace=5)
    data = sys.stdin.buffer.read()

    from pipelines.extraction.pdf import child_main

    result = child_main(arguments, data)
    del data
    sys.stdout.write(json.dumps(result, ensure_ascii=False))
    sys.stdout.flush()
    return 0


if __name__ == "__main__":
    sys.exit(main())
