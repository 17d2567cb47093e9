"""What a seat is sent: the 斗地主 board HTML and JSON never carry another seat's concealed cards.

A live hand is created and played through the services (one seat shows its hand with 明牌 before
the deal); after every accepted action each seat's frame is parsed and every SVG card in it is
accounted for against the engine state.
"""

from __future__ import annotations

import json
import re
from collections import Counter
from html.parser import HTMLParser

import pytest

from games import caches, rendering
from games.engine import registry
from games.models import Hand, Seat
from games.selectors.tables import table_snapshot
from games.services import tables
from lobby import services as lobby_services

pytestmark = pytest.mark.django_db

RULES = registry.get("doudizhu")
VOID = {"input", "br", "img", "hr", "meta", "link", "source", "col", "wbr", "area", "base"}


class _Cards(HTMLParser):
    """Collect every SVG card with the chain of elements around it."""

    def __init__(self) -> None:
        super().__init__(convert_charrefs=True)
        self.stack: list[dict] = []
        self.cards: list[dict] = []
        self.opponents = 0  # opponent blocks seen so far (they follow the viewer's seat order)

    def handle_starttag(self, tag, attrs):
        attrs = dict(attrs)
        classes = (attrs.get("class") or "").split()
        node = {"tag": tag, "classes": classes, "id": attrs.get("id")}
        if tag == "div" and "opponent" in classes:
            self.opponents += 1
            node["opponent"] = self.opponents
        if tag == "svg" and "card" in classes:
            self.cards.append(
                {"classes": classes, "rank": attrs.get("data-rank"), "around": list(self.stack)}
            )
        if tag not in VOID:
            self.stack.append(node)

    def handle_startendtag(self, tag, attrs):
        pass  # <rect/>, <circle/>, <path/>: nothing inside

    def handle_endtag(self, tag):
        if tag in VOID:
            return
        while self.stack:
            if self.stack.pop()["tag"] == tag:
                break


def _parse(html: str) -> list[dict]:
    parser = _Cards()
    parser.feed(html)
    parser.close()
    return parser.cards


def _has(card: dict, *, cls: str | None = None, id_: str | None = None) -> bool:
    return any(
        (cls is None or cls in n["classes"]) and (id_ is None or n["id"] == id_)
        for n in card["around"]
    )


def _owner_seat(card: dict, me: int) -> int | None:
    """The seat a card's block belongs to: an opponent block, or the viewer's own area."""
    for node in card["around"]:
        if "opponent" in node:
            return (me + node["opponent"]) % 3
    return me if _has(card, cls="me") else None


def _sorted(cards: str | None) -> list[str]:
    return sorted(cards or "")


def _check_frame(html: str, st, me: int | None) -> None:
    """Every card in the frame is one the viewer may see, in the place it belongs."""
    cards = _parse(html)
    own = [c for c in cards if "selectable" in c["classes"]]
    face_up = [c for c in cards if "back" not in c["classes"] and "selectable" not in c["classes"]]
    backs = [c for c in cards if "back" in c["classes"]]

    # the viewer's own hand: exactly his cards, selectable, inside #my-hand
    if me is None or st.phase == "start":
        assert own == []
    else:
        assert all(_has(c, id_="my-hand") for c in own)
        assert len(own) == len(st.hands[me])
        assert sorted(c["rank"] for c in own) == _sorted(st.hands[me])

    allowed = Counter()
    by_place: dict[tuple, list[str]] = {}
    for card in face_up:
        assert not _has(card, id_="my-hand")
        if _has(card, cls="dipai"):
            place = ("dipai", None)
        elif _has(card, cls="played"):
            place = ("played", _owner_seat(card, me if me is not None else 0))
        elif _has(card, cls="shown"):
            place = ("shown", _owner_seat(card, me if me is not None else 0))
        else:
            raise AssertionError(f"a face-up card outside any public place: {card}")
        by_place.setdefault(place, []).append(card["rank"])
    for (kind, seat), ranks in by_place.items():
        if kind == "dipai":
            assert st.landlord is not None, "底牌 face up before anyone took it"
            assert sorted(ranks) == _sorted(st.dipai)
        elif kind == "played":
            assert sorted(ranks) == _sorted(st.last[seat])
        else:
            assert seat != me
            assert st.mingpai[seat] > 0 or st.phase == "over", f"seat {seat}'s hand shown"
            assert sorted(ranks) == _sorted(st.hands[seat])
        allowed.update(ranks)

    # nothing face up beyond 底牌 (once shown) + plays on the table + shown hands
    public = Counter(st.dipai if st.landlord is not None else "")
    for seat in range(3):
        if st.last[seat] and st.last[seat] != "pass":
            public.update(st.last[seat])
        if seat != me and (st.mingpai[seat] > 0 or st.phase == "over"):
            public.update(st.hands[seat])
    assert not Counter(c["rank"] for c in face_up) - public

    # opponents whose hands are concealed appear as backs only, one per card
    if st.phase not in ("start", "over"):
        for seat in range(3):
            if seat == me or st.mingpai[seat] > 0:
                continue
            theirs = [
                c
                for c in backs
                if _owner_seat(c, me if me is not None else 0) == seat and _has(c, cls="backs")
            ]
            if me is not None:
                assert len(theirs) == len(st.hands[seat])
            assert ("shown", seat) not in by_place
        if st.landlord is None:
            assert len([c for c in backs if _has(c, cls="dipai")]) == 3


def _redealt_html(snapshot: dict, st, seat: int, n: int) -> str:
    """Render the same frame after re-dealing every card the seat cannot see."""
    other = RULES.resample_hidden(st, seat, f"{n:064x}")
    fake = {**snapshot, "hand": {**snapshot["hand"], "state": RULES.state_to_json(other)}}
    caches.clear_all()
    try:
        return rendering.render_html(fake, seat, None)
    finally:
        caches.clear_all()


def _without_clock(html: str) -> str:
    return re.sub(r'data-now="[^"]*"', "", html)


def _seat_users(table_id: int) -> dict[int, object]:
    return {s.index: s.user for s in Seat.objects.filter(table_id=table_id).select_related("user")}


@pytest.fixture
def live_table(room, make_user):
    users = [make_user(beans=5000) for _ in range(3)]
    for user in users:
        table = lobby_services.quick_join(user=user, room_id=room.pk)
    return table


def test_each_seat_sees_only_its_own_cards_through_a_whole_hand(live_table):
    """After every action of a hand (seat 0 明牌 before the deal), each seat's HTML has its own
    hand as selectable cards; other cards face up only in the 底牌 once taken, the plays on the
    table, or a 明牌 seat's hand; concealed hands are backs; re-dealing what a seat cannot see
    leaves its HTML unchanged; the spectator sees no hand at all."""
    table_id = live_table.pk
    users = _seat_users(table_id)
    phases, redeals = set(), 0
    for step in range(400):
        snapshot = table_snapshot(table_id)
        hand = snapshot["hand"]
        st = RULES.state_from_json(hand["state"])
        phases.add(st.phase)
        for seat in range(3):
            html = rendering.render_html(snapshot, seat, users[seat])
            _check_frame(html, st, seat)
            if step % 3 == seat:  # the re-deal check on a third of the frames keeps it quick
                assert _without_clock(_redealt_html(snapshot, st, seat, step)) == _without_clock(
                    html
                )
                redeals += 1
        _check_frame(rendering.render_html(snapshot, None, None), st, None)
        if hand["status"] != Hand.Status.PLAYING:
            break
        seat = min(RULES.to_act(st))
        if st.phase == "start":
            action = {"type": "start", "mingpai": seat == 0}
        else:
            action = RULES.bot_action(st, seat)
        tables.move_submit(
            table_id=table_id,
            user=users[seat],
            action=action,
            expected_seq=snapshot["table"]["seq"],
            action_id=f"r{step}",
        )
    else:
        raise AssertionError("the hand did not finish")
    assert {"start", "bidding", "playing", "over"} <= phases
    # one re-deal check a frame: a short hand (the landlord out fast) has 19 frames, not 20+
    assert st.mingpai[0] > 0 and redeals > 10


def test_render_json_is_the_engine_view_of_that_seat(live_table):
    """The JSON frame's view is exactly the engine's view for the seat (and the spectator's),
    except that the 記牌器 counts are withheld from a seat that has not bought it."""
    table_id = live_table.pk
    users = _seat_users(table_id)
    for step in range(12):
        snapshot = table_snapshot(table_id)
        st = RULES.state_from_json(snapshot["hand"]["state"])
        for seat in range(3):
            frame = json.loads(rendering.render_json(snapshot, seat, users[seat]))
            assert frame["seat"] == seat and frame["seq"] == snapshot["table"]["seq"]
            engine = json.loads(json.dumps(RULES.view(st, seat)))
            view = dict(frame["view"])
            # the one thing rendering adds: whether the seat holds the 記牌器 (a priced item)
            if not view.pop("counter_owned", True):
                engine["counter"] = None
            view.pop("counter_price", None)
            assert view == engine
            others = [s for s in range(3) if s != seat and not st.mingpai[s]]
            for other in others:
                assert st.hands[other] not in (frame["view"].get("shown") or {}).values()
        spectator = json.loads(rendering.render_json(snapshot, None, None))
        assert spectator["view"] == json.loads(json.dumps(RULES.spectator_view(st)))
        assert "hand" not in spectator["view"]
        seat = min(RULES.to_act(st))
        action = (
            {"type": "start", "mingpai": False}
            if st.phase == "start"
            else RULES.bot_action(st, seat)
        )
        tables.move_submit(
            table_id=table_id,
            user=users[seat],
            action=action,
            expected_seq=snapshot["table"]["seq"],
            action_id=f"j{step}",
        )
