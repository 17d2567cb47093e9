"""The 斗地主 bot: scripted positions for the behaviours it is meant to have."""

from __future__ import annotations

from games.rules.doudizhu import RULESET, Config, State, bot
from games.rules.doudizhu.patterns import sort_cards


def _playing(hands: list[str], turn: int, played: tuple[str, str, str] = ("", "", "")) -> State:
    """A classic-room hand in play with seat 0 landlord, the given hands, seat `turn` to lead."""
    st = RULESET.new_game(Config(variant="classic"), "bot-test", 3)
    while st.phase != "playing":
        seat = min(RULESET.to_act(st))
        if st.phase == "bidding":
            action = {"type": "bid", "call": seat == 0}
        else:
            action = RULESET.auto_action(st, seat)
        RULESET.apply(st, seat, action)
    assert st.landlord == 0
    st.hands = [sort_cards(h) for h in hands]
    st.played = [sort_cards(p) for p in played]
    st.plays_count = [1, 1, 1]  # past the landlord's first play: no 明牌 offer
    st.turn, st.lead, st.passes = turn, None, 0
    return st


def _play_of(action: dict) -> str:
    assert action["type"] == "play", action
    return action["cards"]


def test_leads_the_unbeatable_play_before_the_last_one() -> None:
    """With the rocket and one single left, the rocket goes first (then the single goes out);
    led the other way round, a farmer takes the single's trick."""
    st = _playing(["3BR", "456789TJQKA22", "456789TJQKA22"], turn=0)
    assert _play_of(RULESET.bot_action(st, 0)) == "BR"


def test_sure_finish_counts_only_cards_others_may_hold() -> None:
    """A 2 is unbeatable only when no joker, bomb or other 2 can be out: with both jokers, the
    other 2s and one card of every rank played, 2 then the pair finishes; otherwise the pair
    goes first."""
    played = ("", "BR222456789TJQKA", "")
    st = _playing(["233", "456789TJQKA", "456789TJQK"], turn=0, played=played)
    assert _play_of(RULESET.bot_action(st, 0)) == "2"
    st = _playing(["233", "456789TJQKAB", "3456789TJQKR"], turn=0)
    assert _play_of(RULESET.bot_action(st, 0)) == "33"


def test_farmer_feeds_a_partner_with_one_card() -> None:
    """The farmer after the landlord leads his lowest single when his partner (who plays next,
    before the landlord) has one card left and the landlord still has many."""
    st = _playing(["3456789TJQKAA", "5577999JJQQK", "8"], turn=1)
    assert _play_of(RULESET.bot_action(st, 1)) == "5"


def test_farmer_with_a_pair_left_partner_gets_the_lowest_pair() -> None:
    """A farmer bot whose partner holds only a pair (對子) leads his lowest pair (55) so the
    partner can follow and go out."""
    st = _playing(["3456789TJQKAA", "5577999JJQQK", "88"], turn=1)
    assert _play_of(RULESET.bot_action(st, 1)) == "55"


def test_no_low_pair_into_an_opponent_with_two_cards() -> None:
    """The landlord does not lead a low pair when a farmer has two cards left (a pair may be
    all he holds): he leads his trio with a kicker instead."""
    st = _playing(["4499KKK", "56", "3456789TJQ"], turn=0)
    play = _play_of(RULESET.bot_action(st, 0))
    assert len(play) != 2 or play[0] in "A2", play


def test_farmer_beats_high_when_the_landlord_is_nearly_out() -> None:
    """The landlord, down to one card, leads a single: the farmer after him beats it with his
    highest single, not his lowest (the landlord must not get the trick back)."""
    st = _playing(["58", "799JJK", "3456789TJQ"], turn=0)
    RULESET.apply(st, 0, {"type": "play", "cards": "5"})
    assert _play_of(RULESET.bot_action(st, 1)) == "K"


def _moves(st: State, moves: list[tuple[int, str]]) -> None:
    """Play scripted moves (cards, or ``pass``) in turn order."""
    for seat, move in moves:
        assert st.turn == seat, (seat, move, st.turn)
        action = {"type": "pass"} if move == "pass" else {"type": "play", "cards": move}
        RULESET.apply(st, seat, action)


def test_a_farmer_who_beats_his_partner_is_taken_for_greedy() -> None:
    """bot.greedy_seats: before any tell the farmers are taken to cooperate (mask 0); when the
    farmer after the partner beats his partner's 5 with a 7 (the landlord far from out), both
    are taken for greedy: the one who told, and his partner, who has shown nothing either way."""
    st = _playing(["3456789TJQKA2222", "5899JQKA", "67TTJQKA"], turn=0)
    _moves(st, [(0, "3"), (1, "5")])
    assert bot.greedy_seats(st) == 0
    _moves(st, [(2, "7")])
    assert bot.greedy_seats(st) == 0b110


def test_a_farmer_who_let_his_partners_trick_run_with_a_beat_in_hand_cooperates() -> None:
    """bot.greedy_seats per farmer: seat 1 beats his partner's 6 (a greedy tell); seat 2 passes
    on his partner's 8 and 4, and his later single T (on the landlord's 9) proves he held a
    beat each time (cooperative tells): only seat 1 is modelled greedy. His passes alone,
    before the T shows, prove nothing."""
    st = _playing(["3456789TJQKA2222", "48JQKA99", "56TTJQKA"], turn=0)
    _moves(st, [(0, "3"), (1, "pass"), (2, "6"), (0, "pass"), (1, "8")])
    assert bot.greedy_seats(st) == 0b110  # seat 2 has told nothing yet: as his partner
    _moves(st, [(2, "pass"), (0, "pass"), (1, "4"), (2, "pass"), (0, "9"), (1, "pass")])
    assert bot.greedy_seats(st) == 0b110
    _moves(st, [(2, "T")])
    assert bot.greedy_seats(st) == 0b010


def test_beating_the_partner_with_the_landlord_nearly_out_is_no_tell() -> None:
    """Taking the lead from the partner when the landlord holds two cards or fewer may be
    what a cooperating farmer must do: bot.greedy_seats reads nothing into it."""
    st = _playing(["345", "5899JQKA", "67TTJQKA"], turn=0)
    _moves(st, [(0, "4"), (1, "5"), (2, "7")])
    assert len(st.hands[0]) == 2 and bot.greedy_seats(st) == 0


def test_greedy_seats_reads_only_the_public_moves() -> None:
    """Dealing the hidden hands again (same counts, other cards) never changes the answer,
    and a state without a trail (stored before it existed) reads as cooperative."""
    st = _playing(["3456789TJQKA2222", "5899JQKA", "67TTJQKA"], turn=0)
    _moves(st, [(0, "3"), (1, "5"), (2, "7")])
    want = bot.greedy_seats(st)
    pool = sorted(st.hands[1] + st.hands[2])
    for shift in range(1, len(pool)):
        cards = pool[shift:] + pool[:shift]
        st.hands[1] = sort_cards("".join(cards[: len(st.hands[1])]))
        st.hands[2] = sort_cards("".join(cards[len(st.hands[1]) :]))
        assert bot.greedy_seats(st) == want
    st.trail = []
    assert bot.greedy_seats(st) == 0
