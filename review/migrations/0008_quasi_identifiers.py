from django.db import migrations


class Migration(migrations.Migration):
    dependencies = [("review", "0007_export_keep_stems")]

    operations: list = []
