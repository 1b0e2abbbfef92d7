"""Quasi-identifier flags (ages, dates, places, occupations, relations, events) from
the same Doc, with their word lists."""
