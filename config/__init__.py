"""Project configuration. Importing the package loads Celery so @shared_task binds to our app."""

from config.celery import app as celery_app

__all__ = ["celery_app"]
