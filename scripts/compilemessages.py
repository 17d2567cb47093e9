"""Build locale/<lang>/LC_MESSAGES/*.mo from the project's .po files (run by ./leyou at set-up).

With GNU gettext's ``msgfmt`` on the PATH this is Django's ``compilemessages``; without it a small
pure-Python compiler below writes the same GNU .mo format (magic 0x950412de, revision 0, sorted
original/translation tables), so a fresh clone on a machine without gettext still gets catalogs.
Fuzzy entries and empty translations are left out, as msgfmt does. ``--python`` forces the
pure-Python compiler (a test compares its catalogs with msgfmt's).
"""

from __future__ import annotations

import ast
import shutil
import struct
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
LOCALE = ROOT / "locale"


def _unquote(line: str) -> str:
    value = ast.literal_eval(line)  # a C-style quoted string; Python's escapes are a superset
    if not isinstance(value, str):
        raise TypeError(f"not a string: {line!r}")
    return value


def po_parse(text: str) -> dict[bytes, bytes]:
    """The translated entries of a .po file as {msgid: msgstr} in the .mo's byte encoding.

    msgctxt becomes ``ctxt\\x04msgid`` and plural forms are NUL-joined, as in GNU .mo files.
    """
    catalog: dict[bytes, bytes] = {}
    entry: dict[str, str] = {}
    plural: dict[int, str] = {}
    key = ""
    fuzzy = False

    def flush() -> None:
        nonlocal entry, plural, fuzzy
        if "msgid" in entry and (not fuzzy or not entry["msgid"]):  # a fuzzy header is kept
            msgid = entry["msgid"]
            if "msgctxt" in entry:
                msgid = entry["msgctxt"] + "\x04" + msgid
            if "msgid_plural" in entry:
                msgid += "\x00" + entry["msgid_plural"]
                strs = [plural[i] for i in sorted(plural)]
                msgstr = "\x00".join(strs) if all(strs) else ""
            else:
                msgstr = entry.get("msgstr", "")
            if msgstr or not entry["msgid"]:  # the header (empty msgid) is always kept
                catalog[msgid.encode()] = msgstr.encode()
        entry, plural, fuzzy = {}, {}, False

    for raw in text.splitlines():
        line = raw.strip()
        if line.startswith("#,") and "fuzzy" in line:
            if "msgid" in entry:
                flush()
            fuzzy = True
            continue
        if not line or line.startswith("#"):
            continue
        if line.startswith('"'):
            chunk = _unquote(line)
            if key.startswith("msgstr["):
                plural[int(key[7:-1])] += chunk
            else:
                entry[key] += chunk
            continue
        word, _, rest = line.partition(" ")
        if word in ("msgctxt", "msgid") and "msgid" in entry:
            flush()
        key = word
        if word.startswith("msgstr["):
            plural[int(word[7:-1])] = _unquote(rest)
        else:
            entry[word] = _unquote(rest)
    flush()
    return catalog


def mo_bytes(catalog: dict[bytes, bytes]) -> bytes:
    """A GNU .mo file for the catalog (no hash table, which readers do not need)."""
    keys = sorted(catalog)
    ids = strs = b""
    offsets: list[tuple[int, int, int, int]] = []
    for k in keys:
        offsets.append((len(ids), len(k), len(strs), len(catalog[k])))
        ids += k + b"\0"
        strs += catalog[k] + b"\0"
    n = len(keys)
    key_start = 7 * 4 + 16 * n
    value_start = key_start + len(ids)
    table = b""
    for o1, l1, _o2, _l2 in offsets:
        table += struct.pack("<2I", l1, o1 + key_start)
    for _o1, _l1, o2, l2 in offsets:
        table += struct.pack("<2I", l2, o2 + value_start)
    header = struct.pack("<7I", 0x950412DE, 0, n, 7 * 4, 7 * 4 + n * 8, 0, 0)
    return header + table + ids + strs


def compile_python(locale: Path = LOCALE) -> list[Path]:
    """Compile every .po under ``locale`` with the pure-Python compiler; return the .mo paths."""
    written = []
    for po in sorted(locale.glob("*/LC_MESSAGES/*.po")):
        mo = po.with_suffix(".mo")
        mo.write_bytes(mo_bytes(po_parse(po.read_text(encoding="utf-8"))))
        written.append(mo)
    return written


def main(argv: list[str]) -> int:
    if "--python" not in argv and shutil.which("msgfmt"):
        return subprocess.call(
            [sys.executable, "manage.py", "compilemessages", "-v", "0"], cwd=ROOT
        )
    compile_python()
    return 0


if __name__ == "__main__":
    raise SystemExit(main(sys.argv[1:]))
