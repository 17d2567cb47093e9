"""games.frames: the checks every incoming frame passes before a service sees it."""

from __future__ import annotations

import json

import pytest

from games import frames

KINDS = frames.TABLE_KINDS


@pytest.mark.parametrize(
    "raw",
    [
        '{"kind":"move","action":{"type":"pass"},"seq":Infinity}',
        '{"kind":"move","action":{"type":"pass"},"seq":1e400}',
        '{"kind":"move","action":{"type":"pass"},"seq":-Infinity}',
        '{"kind":"move","action":{"type":"pass"},"seq":NaN}',
        '{"kind":"move","seq":' + "9" * 40 + "}",
        '{"kind":"move","x":' + "[" * 1000 + "]" * 1000 + "}",
        '{"kind":"move","x":' + '{"a":' * 600 + "1" + "}" * 600 + "}",
        '{"kind":"move","action_id":"a\\u0000b"}',
        '{"kind":"move","action":{"type":"\\ud800"}}',
        '{"kind\\u0000":"move"}',
        "[1]",
        "not json",
        "",
    ],
)
def test_hostile_frames_are_malformed(raw):
    """Non-finite or huge numbers, deep nesting, NUL and lone surrogates: refused, no crash."""
    with pytest.raises(frames.FrameError) as error:
        frames.frame_decode(raw, kinds=KINDS)
    assert error.value.code == "malformed"


@pytest.mark.parametrize("kind", ['"fly"', "null", "1", '{"k":1}', "[]"])
def test_unknown_kinds_are_refused(kind):
    """A frame whose kind is not a known string (unknown name, null, a number, an object, a
    list) is refused with FrameError code 'unknown_kind'."""
    with pytest.raises(frames.FrameError) as error:
        frames.frame_decode(f'{{"kind":{kind}}}', kinds=KINDS)
    assert error.value.code == "unknown_kind"


def test_brackets_inside_strings_do_not_count_as_depth():
    """A string full of brackets and escaped quotes is not nesting."""
    raw = json.dumps({"kind": "resync", "a": '\\"' + "[" * 500, "b": "\\", "c": "]]{{"})
    assert frames.frame_decode(raw, kinds=KINDS)["kind"] == "resync"


def test_the_clients_frames_pass():
    """What leyou.js, doudizhu.js, dafengshou.js and the htmx ws extension send is accepted
    unchanged."""
    move = frames.frame_decode(
        json.dumps(
            {
                "kind": "move",
                "action": {"type": "play", "cards": "33", "as": "pair"},
                "seq": 12,
                "action_id": "k3-9f",
                "HEADERS": {"HX-Request": "true"},
            }
        ),
        kinds=KINDS,
    )
    assert frames.move_fields(move) == frames.Move(
        {"type": "play", "cards": "33", "as": "pair"}, 12, "k3-9f"
    )
    assert frames.seq_field({"seq": -1}) == -1 and frames.seq_field({"seq": "7"}) == 7
    assert frames.seq_field({}) is None and frames.action_id_field({"action_id": ""}) is None
    assert frames.flag_field({"on": True}, "on") is True
    assert frames.flag_field({"on": False}, "on") is False
    bet = frames.bet_fields(
        {"kind": "bet", "object": "apple", "amount": "100", "round": 3, "action_id": "b1"}
    )
    assert bet == frames.Bet(3, "apple", "100", "b1")


@pytest.mark.parametrize(
    "fields",
    [
        {"seq": True},
        {"seq": 1.5},
        {"seq": 2**31},
        {"seq": "abc"},
        {"seq": []},
        {"action_id": 7},
        {"action_id": "a" * 65},
        {"action_id": "a\nb"},
        {"action_id": "a\x00"},
        {"action": [1]},
        {"action": {"type": 1}},
        {"action": {f"k{i}": i for i in range(20)}},
    ],
)
def test_mistyped_move_fields_are_malformed(fields):
    """A move frame with a mistyped seq (bool, float, too big, text), action_id (not text, too
    long, control characters) or action (not an object, too many keys) is 'malformed'."""
    message = {"kind": "move", "action": {"type": "pass"}, "seq": 3, **fields}
    with pytest.raises(frames.FrameError) as error:
        frames.move_fields(message)
    assert error.value.code == "malformed"


@pytest.mark.parametrize(
    "fields",
    [
        {"round": 1e300},
        {"round": "1e400"},
        {"object": 7},
        {"object": "x" * 40},
        {"amount": 10.5},
        {"amount": "10x"},
        {"amount": None},
        {"action_id": "\ud800"},
    ],
)
def test_mistyped_bets_are_malformed(fields):
    """A bet frame with an out-of-range round, a bad crop name, a non-integer amount or an
    unpaired surrogate in action_id is refused with FrameError."""
    message = {
        "kind": "bet",
        "object": "apple",
        "amount": 10,
        "round": 3,
        "action_id": "b",
        **fields,
    }
    with pytest.raises(frames.FrameError):
        frames.bet_fields(message)
