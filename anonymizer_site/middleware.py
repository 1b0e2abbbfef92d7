"""Site-wide response headers."""

from collections.abc import Callable

from django.http import HttpRequest, HttpResponse
from django.utils.cache import patch_cache_control


class NoStoreMiddleware:
    """Every page of this site shows transcript text, spans, names of documents or
    the people in them: none may be kept by a browser or a proxy cache (back
    button on a shared computer, a proxy's disk). Static files are served by
    WhiteNoise before this runs and stay cacheable."""

    def __init__(self, get_response: Callable[[HttpRequest], HttpResponse]) -> None:
        self.get_response = get_response

    def __call__(self, request: HttpRequest) -> HttpResponse:
        response = self.get_response(request)
        patch_cache_control(response, no_store=True, no_cache=True, private=True, max_age=0)
        response.headers.setdefault("Pragma", "no-cache")
        return response
