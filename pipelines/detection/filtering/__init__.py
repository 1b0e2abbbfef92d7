"""What drops or relabels candidates before and after the merge: the named filter
rules, and a name the document uses as a place."""
