from django.db import migrations, models


class Migration(migrations.Migration):
    dependencies = [
        ("ingestion", "0007_work_queue_heartbeat"),
    ]

    operations = [
        migrations.AddField(
            model_name="corpus",
            name="language",
            field=models.CharField(default="en", max_length=8),
        ),
    ]
