import os

from django.conf import settings
from django.core.files.storage import FileSystemStorage


class PrivateStorage(FileSystemStorage):
    """Originals and exports: never under a served URL; views stream them after an
    access check. The root is read from settings at use, not at import, so tests
    and deployments can move it."""

    @property
    def base_location(self) -> str:  # type: ignore[override]
        return str(settings.PRIVATE_STORAGE_ROOT)

    @property
    def location(self) -> str:  # type: ignore[override]
        return os.path.abspath(self.base_location)

    @property
    def base_url(self) -> None:  # type: ignore[override]
        return None


_storage = PrivateStorage()


def private_storage() -> PrivateStorage:
    return _storage
