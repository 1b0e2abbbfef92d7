"""Uploads are counted while they arrive, before memory or disk is spent on them."""

from django.conf import settings
from django.core.files.uploadhandler import FileUploadHandler, SkipFile

REFUSED_ATTRIBUTE = "upload_refusals"


def too_large(size: int | None = None) -> str:
    """Why a file over MAX_UPLOAD_BYTES is refused: dropped while it arrived, at
    upload (ingestion.services), or at extraction."""
    got = f" ({_size(size)} or more)" if size else ""
    return f"the file is larger than the limit of {_size(settings.MAX_UPLOAD_BYTES)}{got} (MAX_UPLOAD_BYTES)."


def _size(n: int) -> str:
    return f"{n / (1024 * 1024):.0f} MB" if n >= 1024 * 1024 else f"{n:,} bytes"


def refused_uploads(request) -> list[tuple[str, int]]:
    """(file name, bytes received when it was dropped) of the files of this request
    that went over MAX_UPLOAD_BYTES."""
    return getattr(request, REFUSED_ATTRIBUTE, [])


class SizeLimitUploadHandler(FileUploadHandler):
    """First in FILE_UPLOAD_HANDLERS: passes each chunk on to Django's handlers
    (memory up to FILE_UPLOAD_MAX_MEMORY_SIZE, a temporary file beyond) and drops
    a file the moment it goes over MAX_UPLOAD_BYTES. The rest of that file is
    read and thrown away chunk by chunk, the other files of the upload go on, and
    the view reports the dropped one by name (`refused_uploads`)."""

    def new_file(self, field_name, file_name, content_type, content_length, charset=None, content_type_extra=None):
        super().new_file(field_name, file_name, content_type, content_length, charset, content_type_extra)
        self.received = 0

    def receive_data_chunk(self, raw_data: bytes, start: int) -> bytes | None:
        self.received += len(raw_data)
        if self.received > settings.MAX_UPLOAD_BYTES:
            if self.request is not None:
                refusals = getattr(self.request, REFUSED_ATTRIBUTE, [])
                refusals.append((self.file_name, self.received))
                setattr(self.request, REFUSED_ATTRIBUTE, refusals)
            raise SkipFile
        return raw_data

    def file_complete(self, file_size: int) -> None:
        return None
