"""Replays: captions in the viewer's language, every draw from the 墩, the 玩法 as the title."""

from __future__ import annotations

import re

import pytest
from django.conf import settings

from games import replays
from games.engine import registry
from games.models import HandEvent
from games.tests.replay_hands import GAMES, finished_hand, room_for

pytestmark = pytest.mark.django_db

DDZ = GAMES[0]
HUNAN = next(g for g in GAMES if g[:2] == ("paohuzi", "hunan"))
SHUANGWANG = next(g for g in GAMES if g[:2] == ("paohuzi", "shuangwang"))


def _labels(client, hand, steps: int) -> list[str]:
    out = []
    for step in range(1, steps + 1):
        html = client.get(f"/games/replay/{hand.pk}/step/{step}/").content.decode()
        out.append(re.search(r'class="replay-label">([^<]*)<', html).group(1))
    return out


def test_captions_follow_each_viewers_language_not_the_first_viewers(
    make_user, client, django_capture_on_commit_callbacks
):
    """A replay first opened by an English viewer is captioned in Chinese for the next viewer
    on a 繁體 page (the captions are not cached in the first viewer's language)."""
    replays._cache.clear()
    room = room_for(*DDZ)
    users = [make_user(beans=100000) for _ in range(3)]
    hand = finished_hand(room, users, django_capture_on_commit_callbacks)
    steps = min(HandEvent.objects.filter(hand=hand).count(), 6)
    client.force_login(users[0])
    client.cookies[settings.LANGUAGE_COOKIE_NAME] = "en"
    english = _labels(client, hand, steps)
    assert all(re.search(r"[A-Za-z]", label) for label in english), english
    client.cookies[settings.LANGUAGE_COOKIE_NAME] = "zh-hant"
    chinese = _labels(client, hand, steps)
    assert all(re.search(r"[\u4e00-\u9fff]", label) for label in chinese), chinese
    assert not any(re.search(r"[A-Za-z]{3}", label) for label in chinese), chinese


@pytest.mark.parametrize("spec", [HUNAN, SHUANGWANG], ids=["hunan", "shuangwang"])
def test_every_card_drawn_from_the_dun_is_a_step_of_the_replay(
    spec, make_user, client, django_capture_on_commit_callbacks
):
    """Every card that left the 墩 during play is shown as a step of its own (who drew what),
    in the order it was drawn, even when nobody could use it and the next seat drew at once;
    the seed check still passes and the last step is the end of the hand."""
    replays._cache.clear()
    ruleset = registry.get("paohuzi")
    for _attempt in range(5):  # a hand may end at the deal (天胡): play another
        room = room_for(*spec)
        users = [make_user(beans=100000) for _ in range(3)]
        hand = finished_hand(room, users, django_capture_on_commit_callbacks)
        dealt = ruleset.new_game(ruleset.config_from_params(hand.params), hand.seed, 3)
        drawn = dealt.wall[: len(dealt.wall) - len(hand.state["wall"])]
        if drawn:
            break
    assert drawn, "the hand drew from the 墩"
    replay = replays.replay_build(hand)
    draws = [c for c in replay.captions if c["kind"] == "draw"]
    from games.rules.paohuzi.cards import card_name

    assert [c["cards"][0] for c in draws] == [card_name(c) for c in drawn]
    assert replay.consistent and replay.last == len(replay.states) - 1
    assert replay.last == HandEvent.objects.filter(hand=hand).count() + len(draws)
    client.force_login(users[0])
    page = client.get(f"/games/replay/{hand.pk}/").content.decode()
    assert f'data-last="{replay.last}"' in page
    assert 'class="ok" id="check-replay"' in page
    # each draw step shows the drawn card in its caption, and the 墩 shrinks by one per draw
    walls = [len(s["wall"]) for s in replay.states]
    for step, caption in enumerate(replay.captions, start=1):
        if caption["kind"] == "draw":
            assert walls[step] == walls[step - 1] - 1, (step, walls[step - 1], walls[step])
    first = replay.captions.index(draws[0]) + 1
    html = client.get(f"/games/replay/{hand.pk}/step/{first}/").content.decode()
    caption = html[html.index('id="replay-caption"') : html.index("</p>")]
    assert "摸牌" in caption and 'class="zp' in caption
    last = client.get(f"/games/replay/{hand.pk}/step/{replay.last}/").content.decode()
    assert 'id="settlement"' in last


def test_a_shuangwang_replay_is_titled_by_its_own_game(
    make_user, client, django_capture_on_commit_callbacks
):
    """A 雙王扯胡子 hand's replay page is titled 雙王扯胡子, not 跑胡子."""
    room = room_for(*SHUANGWANG)
    users = [make_user(beans=100000) for _ in range(3)]
    hand = finished_hand(room, users, django_capture_on_commit_callbacks)
    client.force_login(users[0])
    page = client.get(f"/games/replay/{hand.pk}/").content.decode()
    heading = re.search(r"<h1>([^<]*)</h1>", page).group(1)
    title = re.search(r"<title>([^<]*)</title>", page).group(1)
    assert "雙王扯胡子" in heading and "雙王扯胡子" in title, (heading, title)
