"""The Celery app: Redis broker when REDIS_URL is set, else the filesystem broker (embedded)."""

import os

from celery import Celery

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings.local")

app = Celery("leyou")
app.config_from_object("django.conf:settings", namespace="CELERY")
app.autodiscover_tasks()
