"""Reads, one module per page or concern; views call these and run no query of their own."""
