"""Django's makemessages, which also finds the table's JavaScript ``t("…")`` calls and the
board templates' strings.

static/js/leyou.js defines ``t(s)`` as the catalog's ``gettext(s)`` (or ``s`` without it), so the
djangojs domain is extracted with ``t`` as one more keyword. The boards are Jinja2
(``templates/games/boards/*.jinja``), which Django's templatize cannot read: for the django
domain the .jinja files are taken too, each turned into one ``gettext("…")`` line per string
Jinja2's own parse finds (on the string's line, so the references point at the template). Use
as usual (docs/i18n.md): ``manage.py makemessages -d djangojs -l zh_Hant -l zh_Hans -l en``.
"""

from __future__ import annotations

import json
from typing import Any

from django.core.management.commands import makemessages


class JinjaBuildFile(makemessages.BuildFile):
    """A .jinja board template handed to xgettext as Python calls of its strings."""

    def preprocess(self) -> None:
        if not self.path.endswith(".jinja"):
            super().preprocess()
            return
        from games.board_jinja import env

        with open(self.path, encoding="utf-8") as fp:
            source = fp.read()
        lines = [""] * (source.count("\n") + 1)
        for line, func, message in env.extract_translations(source):
            texts = message if isinstance(message, tuple) else (message,)
            calls = [f"{func}({json.dumps(t, ensure_ascii=False)})" for t in texts if t]
            lines[line - 1] += " ".join(calls) + " "
        with open(self.work_path, "w", encoding="utf-8") as fp:
            fp.write("\n".join(lines))


class Command(makemessages.Command):
    build_file_class = JinjaBuildFile

    def handle(self, *args: Any, **options: Any) -> None:
        if options.get("domain") == "djangojs":
            self.xgettext_options = [*makemessages.Command.xgettext_options, "--keyword=t"]
        elif not options.get("extensions"):
            options["extensions"] = ["html", "txt", "py", "jinja"]
        super().handle(*args, **options)
