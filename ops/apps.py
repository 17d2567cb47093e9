from django.apps import AppConfig


class OpsConfig(AppConfig):
    """What an operator looks at: health endpoints, metrics, the backup drill's checks."""

    name = "ops"
    verbose_name = "運維"
