"""Development and the embedded default: one command, no servers."""

from config.settings.base import *  # noqa: F403

DEBUG = True
