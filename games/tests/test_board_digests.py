"""Every board renders byte for byte what the Django templates rendered before Jinja2.

``board_digests.json`` was written from the Django board templates (``board_corpus``): ≈ 1,200
renders of every table game and variant, every seat and the spectator, whole seeded hands, all
three languages, 托管 / 離線 marks, clocks, nicknames that need escaping, results before and
after the settlement. The present renderer must give the same sha256 for each.
"""

from __future__ import annotations

import json

from games.tests import board_corpus


def test_every_board_renders_the_html_it_rendered_before() -> None:
    """Each case of the corpus renders to the stored digest (and the corpus is the stored one:
    no case added or lost)."""
    expected = json.loads(board_corpus.DIGESTS.read_text())
    found = board_corpus.digests()
    assert len(found) >= 1000
    assert sorted(found) == sorted(expected)
    differ = [key for key in expected if found[key] != expected[key]]
    assert differ == [], f"{len(differ)} boards differ, e.g. {differ[:5]}"
