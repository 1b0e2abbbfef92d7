from django.db import migrations, models


class Migration(migrations.Migration):
    dependencies = [("review", "0009_corpus_memory")]

    operations: list = [
        migrations.AddField(
            model_name="annotationrun",
            name="model",
            field=models.CharField(blank=True, default="", max_length=300),
        ),
    ]
