from django import template

from pipelines.labels import label_colour

register = template.Library()


@register.filter
def colour(label: str) -> str:
    return label_colour(label)
