"""Fill the 简体中文 catalogs' empty entries with OpenCC drafts and list what English lacks.

Development tool (needs ``opencc`` from requirements-dev.txt). After ``makemessages`` (docs/i18n.md)
run ``.venv/bin/python scripts/i18n_check.py``: every empty ``msgstr`` of locale/zh_Hans gets
the Taiwan → mainland conversion of its msgid (phrases too: 帳號 → 账号), to be read over before
committing; the English entries still empty are printed (write them by hand, game terms kept
Chinese with a gloss: ``地主 (landlord)``). Exit status 1 while English entries are missing.
"""

from __future__ import annotations

import re
from pathlib import Path

import opencc

ROOT = Path(__file__).resolve().parent.parent
FIXES = [("暱", "昵"), ("帐号", "账号"), ("帐户", "账户")]  # where OpenCC keeps the Taiwan form
_convert = opencc.OpenCC("tw2sp").convert
ENTRY = re.compile(r'((?:^msgid .*\n)(?:^".*\n)*)(^msgstr ""\n)(?!")', re.MULTILINE)


def hans(text: str) -> str:
    out = _convert(text)
    for old, new in FIXES:
        out = out.replace(old, new)
    return out


def _msgid(block: str) -> str:
    parts = re.findall(r'"((?:[^"\\]|\\.)*)"', block)
    return "".join(parts)


def main() -> int:
    for po in (ROOT / "locale" / "zh_Hans" / "LC_MESSAGES").glob("*.po"):
        text = po.read_text(encoding="utf-8")

        def fill(m: re.Match[str]) -> str:
            msgid = _msgid(m.group(1))
            return m.group(1) + (f'msgstr "{hans(msgid)}"\n' if msgid else m.group(2))

        po.write_text(ENTRY.sub(fill, text), encoding="utf-8")
    missing = []
    for po in (ROOT / "locale" / "en" / "LC_MESSAGES").glob("*.po"):
        for m in ENTRY.finditer(po.read_text(encoding="utf-8")):
            if _msgid(m.group(1)):
                missing.append(f"{po.name}: {_msgid(m.group(1))}")
    print("\n".join(missing) or "English: every entry translated")
    return 1 if missing else 0


if __name__ == "__main__":
    raise SystemExit(main())
