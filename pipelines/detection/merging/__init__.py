"""From many candidates to one span per stretch of text: the vote and weighted merge,
propagation of confident names, and the calibrated score the reviewer sees."""
