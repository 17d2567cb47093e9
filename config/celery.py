"""The Celery app: Redis broker when REDIS_URL is set, else the filesystem broker (embedded)."""

import os

from celery import Celery
from celery.signals import worker_init

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings.local")

app = Celery("leyou")
app.config_from_object("django.conf:settings", namespace="CELERY")
app.autodiscover_tasks()


@worker_init.connect
def _metrics_serve(**_kwargs):
    """The worker's /metrics on LEYOU_METRICS_PORT, when set (ops.metrics)."""
    from ops import metrics

    metrics.serve("worker")
