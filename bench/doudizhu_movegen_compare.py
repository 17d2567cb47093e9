"""Our legal_plays against public Dou Dizhu move generators, on identical cases (no 癩子).

Cases: the same seeded cases as bench/doudizhu_legal_plays.py (17/20-card hands, half leading,
half following a play drawn from another random hand), converted to each library's notation.
Each call is timed alone (best of --repeat per case; ours and theirs back to back on the
same case, so both see the same machine load), median over the cases each library can take.
The libraries are installed for this benchmark only, never into the project's requirements:

    .venv/bin/pip install --no-deps --target var/bench-deps douzero==1.1.0 rlcard==1.2.0 \
        numpy termcolor
    .venv/bin/pip install --no-deps --target var/bench-deps-openspiel open_spiel

What is timed, per library (its public generator from scratch on the hand):
- DouZero 1.1.0 (`douzero.env.game.GameEnv.get_legal_card_play_actions`: MovesGener on the
  hand, move_detector on the play to beat, move_selector filtering, bombs, pass);
- RLCard 1.2.0 (`DoudizhuJudger.playable_cards_from_hand` when leading, `utils.get_gt_cards`
  when following — the table lookups its game uses);
- OpenSpiel 2.0.2 `dou_dizhu` (C++, `state.legal_actions()`): its states only arise from a real
  deal and bidding, so only the cases a real state can hold are taken: the landlord's first lead
  with 20 cards, and the next seat's 17-card reply to the landlord's opening play.
The rules differ a little (none has 癩子; some kicker sets differ, so the plays per call are
printed too): a case whose play to beat a library cannot read is left out of that library's
figure and counted. "ours" is legal_plays with the C generator (patterns.NATIVE; the figure is
marked "(Python)" when the extension is not built or LEYOU_NATIVE=0), "py" the Python reference
generator on the same case (patterns.NATIVE switched off for the call). Prints figures, asserts
nothing. Usage: python bench/doudizhu_movegen_compare.py [--cases 2000] [--repeat 3]
"""

from __future__ import annotations

import argparse
import os
import statistics
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "bench"))

from doudizhu_legal_plays import make_cases  # noqa: E402

from games.rules.doudizhu import legal_plays, patterns  # noqa: E402
from games.rules.doudizhu.patterns import RANKS, sort_cards  # noqa: E402


def python_legal_plays(hand: str, last: str | None) -> list[str]:
    """legal_plays with the Python reference generator."""
    saved = patterns.NATIVE
    patterns.NATIVE = False
    try:
        return legal_plays(hand, last)
    finally:
        patterns.NATIVE = saved


def timed(fn, repeat: int) -> tuple[float, object]:
    best = None
    out = None
    for _ in range(repeat):
        t0 = time.perf_counter_ns()
        out = fn()
        dt = time.perf_counter_ns() - t0
        best = dt if best is None else min(best, dt)
    return best / 1e3, out


# -- DouZero ---------------------------------------------------------------------------------


def douzero_runner():
    from douzero.env import move_detector as md
    from douzero.env.game import GameEnv

    env_card = dict(zip(RANKS, [3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 17, 20, 30]))

    class Info:
        def __init__(self, cards):
            self.player_hand_cards = cards

    class Fake:
        """Just the attributes get_legal_card_play_actions reads."""

        def __init__(self, hand, last):
            self.acting_player_position = "landlord"
            self.info_sets = {"landlord": Info(hand)}
            self.card_play_action_seq = [last] if last else []

    def prepare(hand: str, last: str | None):
        rival = [env_card[c] for c in last] if last else []
        if rival and md.get_move_type(rival)["type"] == md.TYPE_15_WRONG:
            return None
        fake = Fake([env_card[c] for c in hand], rival)
        return lambda: GameEnv.get_legal_card_play_actions(fake)

    return prepare


# -- RLCard ----------------------------------------------------------------------------------


def rlcard_runner():
    from rlcard.games.doudizhu.judger import DoudizhuJudger
    from rlcard.games.doudizhu.utils import CARD_TYPE, get_gt_cards

    class Card:
        def __init__(self, rank):
            self.rank, self.suit = rank, ""

    class Player:
        def __init__(self, hand, played=None):
            self.current_hand = [Card(c) for c in hand]
            self.played_cards = played

    def prepare(hand: str, last: str | None):
        if last is None:
            return lambda: DoudizhuJudger.playable_cards_from_hand(hand)
        if last not in CARD_TYPE[0]:
            return None
        me, them = Player(hand), Player("", last)
        return lambda: get_gt_cards(me, them)

    return prepare


# -- OpenSpiel -------------------------------------------------------------------------------


def openspiel_runner():
    import pyspiel

    game = pyspiel.load_game("dou_dizhu")

    def ids_of(cards: str, used: set[int]) -> list[int]:
        out = []
        for ch in cards:
            r = RANKS.index(ch)
            options = [52 + (r - 13)] if r >= 13 else [r + 13 * s for s in range(4)]
            card = next(c for c in options if c not in used)
            used.add(card)
            out.append(card)
        return out

    def play_string(state, action) -> str:
        text = state.action_to_string(state.current_player(), action)
        text = text.replace("(BWJ)", "B").replace("(CJ)", "R").replace("-", "")
        return sort_cards(text)

    def deal(seat0: list[int], seat1: list[int], leftover: set[int]):
        """seat 0 gets seat0 (17) + the 3 undealt cards, seat 1 gets seat1, seat 2 the rest."""
        used = set(seat0) | set(seat1) | leftover
        rest = [c for c in range(54) if c not in used]
        order = []
        for i in range(17):
            order += [seat0[i], seat1[i], rest[i]]
        state = game.new_initial_state()
        state.apply_action(0)  # the face-up card is seat 0's first: seat 0 bids first
        for card in order:
            state.apply_action(51 + card)
        state.apply_action(3)  # seat 0 bids 3: landlord at once
        return state

    def prepare(hand: str, last: str | None, filler: str):
        used: set[int] = set()
        if last is None:
            if len(hand) != 20:
                return None
            cards = ids_of(hand, used)
            other = ids_of(filler[:17], used)
            state = deal(cards[:17], other, set(cards[17:]))
        else:
            if len(hand) != 17:
                return None
            mine = ids_of(hand, used)
            lead = ids_of(last, used)
            pad = ids_of(filler[: 20 - len(last)], used)
            landlord = lead + pad
            state = deal(landlord[:17], mine, set(landlord[17:]))
            action = next((a for a in state.legal_actions() if play_string(state, a) == last), None)
            if action is None:
                return None
            state.apply_action(action)
        return state.legal_actions

    return prepare


def fillers(hand: str, last: str | None) -> str:
    """Cards not in hand or last, in a fixed order (for OpenSpiel's other seats)."""
    left = {r: (1 if r in "BR" else 4) for r in RANKS}
    for ch in hand + (last or ""):
        left[ch] -= 1
    return "".join(r * n for r, n in left.items())


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--cases", type=int, default=2000)
    parser.add_argument("--repeat", type=int, default=3)
    parser.add_argument("--deps", default=str(ROOT / "var" / "bench-deps"))
    parser.add_argument("--openspiel", default=str(ROOT / "var" / "bench-deps-openspiel"))
    args = parser.parse_args()
    sys.path.append(args.deps)
    sys.path.append(args.openspiel)
    cases = make_cases(args.cases, 0)
    libraries = {}
    for name, make in (
        ("DouZero", douzero_runner),
        ("RLCard", rlcard_runner),
        ("OpenSpiel", openspiel_runner),
    ):
        try:
            libraries[name] = make()
        except ImportError as exc:
            print(f"  {name}: not installed ({exc}); skipped")
    native = "C" if patterns.NATIVE else "Python: the C extension is not in use"
    print(
        f"legal_plays ({native}) vs public generators: {len(cases)} seeded no-癩子 cases, "
        f"best of {args.repeat} per call, µs; load average {os.getloadavg()[0]:.2f}"
    )
    for name, prepare in libraries.items():
        for label, pick in (
            ("all", lambda c: True),
            ("lead", lambda c: c[1] is None),
            ("follow", lambda c: c[1] is not None),
        ):
            ours, ours_py, theirs, n_ours, n_theirs, skipped = [], [], [], 0, 0, 0
            for _i, case in enumerate(cases):
                if not pick(case):
                    continue
                hand, last, _lz = case
                fn = (
                    prepare(hand, last, fillers(hand, last))
                    if name == "OpenSpiel"
                    else prepare(hand, last)
                )
                if fn is None:
                    skipped += 1
                    continue
                # timed back to back on the same case, so both see the same machine load
                t_ours, mine = timed(lambda h=hand, lst=last: legal_plays(h, lst), args.repeat)
                t_py, _ = timed(lambda h=hand, lst=last: python_legal_plays(h, lst), args.repeat)
                t, out = timed(fn, args.repeat)
                theirs.append(t)
                ours_py.append(t_py)
                n_theirs += len(out)
                ours.append(t_ours)
                n_ours += len(mine)
            if not theirs:
                continue
            a, b = statistics.median(ours), statistics.median(theirs)
            py = statistics.median(ours_py)
            print(
                f"  {name:9s} {label:6s} cases {len(theirs):5d} (left out {skipped:4d})  "
                f"ours median {a:7.2f}  py {py:6.1f}  theirs {b:8.2f}  ratio theirs/ours "
                f"{b / a:5.2f} (py {b / py:5.2f})   "
                f"plays/call ours {n_ours / len(ours):6.1f} theirs {n_theirs / len(theirs):6.1f}"
            )


if __name__ == "__main__":
    main()
