"""Text extraction: uploaded bytes → normalized text, a layout map (page and line
of every character range) and the parsed transcript header. Plain Python."""
