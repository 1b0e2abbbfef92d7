"""Writes, one module per concern (see ARCHITECTURE.md). Every table has one
writer: `spans` writes Span rows (machine and human), `audit` ReviewEvent rows,
`annotation` the machine runs, `export` the export batches, `queue` the
assignments, `corpora` the memberships; Document and Corpus rows are written by
`ingestion.services`."""
