from django.db import migrations


class Migration(migrations.Migration):
    dependencies = [("review", "0008_quasi_identifiers")]

    operations: list = []
