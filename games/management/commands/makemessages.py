"""Django's makemessages, which also finds the table's JavaScript ``t("…")`` calls.

static/js/leyou.js defines ``t(s)`` as the catalog's ``gettext(s)`` (or ``s`` without it), so the
djangojs domain is extracted with ``t`` as one more keyword. Use as usual (docs/i18n.md):
``manage.py makemessages -d djangojs -l zh_Hant -l zh_Hans -l en``.
"""

from __future__ import annotations

from typing import Any

from django.core.management.commands import makemessages


class Command(makemessages.Command):
    def handle(self, *args: Any, **options: Any) -> None:
        if options.get("domain") == "djangojs":
            self.xgettext_options = [*makemessages.Command.xgettext_options, "--keyword=t"]
        super().handle(*args, **options)
