"""What a reviewer operation can be refused with (the message is shown as is)."""


class ReviewError(Exception):
    """A decision that cannot be applied; the message is shown to the reviewer."""


class StaleSpan(ReviewError):
    """Someone changed the span after this reviewer saw it; nothing was written."""


STALE = "Someone else changed some of these spans meanwhile. Nothing was applied; refreshed."
CONFLICT = "Someone else made a span with the same boundaries and label meanwhile. Nothing was applied; refreshed."
APPROVED = "This document is approved: its spans can no longer change."
