"""Board fragments rendered once per distinct input (``{% memo %}``) change no seat's frame.

Through a live hand of every table game played by the services, each seat's board and the
spectator's are rendered the old way (``LEYOU["BOARD_MEMO"] = False``: every fragment rendered
from the full context) and the new way (fragments from the process's store, kept warm across
the seats and the steps, rendered in an order that lets one seat's fragment serve another) and
must be byte-identical, in every language of the site. The tag itself: a fragment that reads a
value it does not name is caught, keys tell values of different types apart, a value that is
not plain data is never stored, and the language is part of the key.
"""

from __future__ import annotations

import re
from typing import Any

import pytest
from django.conf import settings as django_settings
from django.template import Context, Template
from django.utils import translation

from games import rendering
from games.engine import registry
from games.templatetags import board_memo

TABLE_GAMES = [g for g in registry.GAME_MODULES if not registry.get(g).room_wide]


def _without_clock(html: str) -> str:
    return re.sub(r'data-now="[^"]*"', "", html)


def _render(snapshot: dict[str, Any], seat: int | None, user: Any, *, memo: bool) -> str:
    django_settings.LEYOU["BOARD_MEMO"] = memo
    try:
        return _without_clock(rendering.render_html(snapshot, seat, user))
    finally:
        django_settings.LEYOU["BOARD_MEMO"] = True


@pytest.fixture
def memo_plain(settings):
    """The tag's own path only: no both-ways verification (each test restores the settings)."""
    settings.LEYOU = {**settings.LEYOU, "BOARD_MEMO": True, "BOARD_MEMO_VERIFY": False}
    board_memo.memo_store_clear()
    yield
    board_memo.memo_store_clear()


@pytest.mark.django_db
@pytest.mark.parametrize("game_id", TABLE_GAMES)
def test_every_seat_gets_the_same_board_with_and_without_the_fragment_store(
    game_id: str, make_user: Any, memo_plain: None
) -> None:
    """The waiting board, then a whole live hand of the game: after every action, every seat's
    board and the spectator's are byte-identical rendered from the full context (the old path)
    and with the fragment store (warm from the other seats and the earlier steps), in every
    language."""
    from games.models import Hand, Seat
    from games.selectors.tables import table_snapshot
    from games.services import seating, tables
    from lobby import services as lobby_services
    from lobby.models import Room

    ruleset = registry.get(game_id)
    seats = ruleset.min_seats
    room = Room.objects.create(
        name="同一畫面",
        game=game_id,
        variant=ruleset.variants[0].id if ruleset.variants else "",
        seats=seats,
        base_score=1,
        factor=1,
        rake=0,
        min_beans=0,
        bot_wait_seconds=0,
    )
    users = [make_user(beans=100_000) for _ in range(seats)]
    table = lobby_services.quick_join(user=users[0], room_id=room.pk)
    waiting = table_snapshot(table.pk)  # no hand yet: the waiting board, for a seat and a watcher
    assert waiting is not None and waiting["hand"] is None
    for seat, user in ((0, users[0]), (None, None)):
        assert _render(waiting, seat, user, memo=True) == _render(waiting, seat, user, memo=False)
    for user in users[1:]:
        seating.seat_take(table_id=table.pk, user=user)
    languages = [code for code, _ in django_settings.LANGUAGES]
    compared = 0
    for step in range(150):
        snapshot = table_snapshot(table.pk)
        assert snapshot is not None and snapshot["hand"] is not None, "no hand was dealt"
        hand = snapshot["hand"]
        by_seat = {
            s.index: s.user
            for s in Seat.objects.filter(table_id=table.pk, user__isnull=False).select_related(
                "user"
            )
        }
        viewers: list[tuple[int | None, Any]] = [*by_seat.items(), (None, None)]
        if step % 2:
            viewers.reverse()  # another seat fills the store first
        for language in languages if step % 5 == 0 else languages[:1]:
            with translation.override(language):
                for seat, user in viewers:
                    old = _render(snapshot, seat, user, memo=False)
                    new = _render(snapshot, seat, user, memo=True)
                    assert new == old, f"step {step}, {language}: seat {seat}'s board differs"
                    compared += 1
        if hand["status"] != Hand.Status.PLAYING:
            break
        state = ruleset.state_from_json(hand["state"])
        e = min(ruleset.to_act(state))
        actor = next(u for u in users if u.pk == hand["players"][e]["user_id"])
        tables.move_submit(
            table_id=table.pk,
            user=actor,
            action=ruleset.bot_action(state, e),
            expected_seq=snapshot["table"]["seq"],
            action_id=f"memo-{step}",
        )
    assert compared > 4 * (seats + 1)
    assert hand["status"] != Hand.Status.PLAYING, "the hand did not finish in 150 steps"


def test_a_fragment_that_reads_a_value_it_does_not_name_is_caught(settings) -> None:
    """With verification on (as in every test), a fragment whose body reads an unnamed value
    raises instead of serving another viewer's HTML; without it, the unnamed value is simply
    absent (the body never sees the full context)."""
    board_memo.memo_store_clear()
    tpl = Template("{% load board_memo %}{% memo a %}{{ a }}-{{ secret }}{% endmemo %}")
    settings.LEYOU = {**settings.LEYOU, "BOARD_MEMO_VERIFY": True}
    with pytest.raises(AssertionError, match="reads more than"):
        tpl.render(Context({"a": 1, "secret": "K"}))
    settings.LEYOU = {**settings.LEYOU, "BOARD_MEMO_VERIFY": False}
    board_memo.memo_store_clear()
    assert tpl.render(Context({"a": 1, "secret": "K"})) == "1-"
    assert tpl.render(Context({"a": 1, "secret": "Q"})) == "1-"


def test_keys_are_exact_and_only_plain_data_is_stored(memo_plain: None) -> None:
    """Equal-looking values of other types get their own fragments; dotted names carry only
    their own leaf; a lazy translation is rendered every time and never stored; the language
    is part of the key."""
    from django.utils.translation import gettext_lazy

    tpl = Template("{% load board_memo %}{% memo v.x %}{{ v.x }}|{{ v.y }}{% endmemo %}")
    outs = [tpl.render(Context({"v": {"x": x, "y": "hidden"}})) for x in (1, True, "1", 1.0)]
    assert outs == ["1|", "True|", "1|", "1.0|"]
    stored = len(board_memo._store)
    assert stored == 4
    with translation.override("en"):
        tpl.render(Context({"v": {"x": gettext_lazy("托管")}}))
    assert len(board_memo._store) == stored
    words = Template("{% load board_memo i18n %}{% memo a %}{% translate '托管' %}{% endmemo %}")
    with translation.override("zh-hant"):
        zh = words.render(Context({"a": 1}))
    with translation.override("en"):
        en = words.render(Context({"a": 1}))
    assert zh == "托管" and en != zh


def test_a_full_store_keeps_the_fragments_still_in_use(monkeypatch) -> None:
    """When the store is full the fragments used since the last roll-over stay (a later render
    of them is a hit), those unused since are dropped, and the bound holds."""
    monkeypatch.setattr(board_memo, "_STORE_MAX", 4)  # two generations of two fragments
    board_memo.memo_store_clear()
    tpl = Template("{% load board_memo %}{% memo v %}[{{ v }}]{% endmemo %}")

    def show(value: str) -> str:
        return tpl.render(Context({"v": value}))

    def kept() -> set[str]:
        return {*board_memo._store.values(), *board_memo._store_old.values()}

    for value in ("a", "b", "c"):  # a and b fill the young generation; c rolls it over
        assert show(value) == f"[{value}]"
    assert kept() == {"[a]", "[b]", "[c]"}
    show("a")  # still in use: back into the young generation
    show("d")  # rolls over again: b, unused since the last roll-over, goes
    assert kept() == {"[a]", "[c]", "[d]"}
    assert board_memo.memo_store_size() <= 4
    assert show("a") == "[a]" and show("b") == "[b]"
    board_memo.memo_store_clear()
