from django.db import migrations


class Migration(migrations.Migration):
    dependencies = [("review", "0009_corpus_memory")]

    operations: list = []
