"""Win rate of the 斗地主 bot against RLCard 1.2.0's rule agent (``doudizhu-rule-v1``), issue #16.

RLCard's own game makes seat 0 landlord with a random hand (no bidding), so do we: each seeded
deal is scripted to the play phase with seat 0 landlord (it calls, the others decline, nobody
doubles), and the play is ours (our engine and rules). Per deal and role, three games are played
on the same cards (paired deals):

* **landlord**: the bot as landlord against two rule-agent farmers;
* **farmers**: the bot in both farmer seats against a rule-agent landlord;
* **reference**: the rule agent in all three seats (what the role wins when the bot is replaced).

A figure is the share of deals the bot's side wins, with a 95 % Wilson interval. The rule agent
(``rlcard.models.doudizhu_rule_models.DouDizhuRuleAgentV1``) is RLCard's, imported unchanged from
the package installed for benchmarks only (never a project requirement)::

    .venv/bin/pip install --no-deps --target var/bench-deps rlcard==1.2.0 numpy termcolor

It gets RLCard's raw observation: ``current_hand``, ``trace`` [(seat, cards | 'pass')],
``actions`` (our legal plays in RLCard's notation — the same letters, cards sorted — that
RLCard's card-type table knows, plus 'pass' when following), ``landlord``, ``self``. Its random
fallback draws from numpy's global generator, seeded per deal. A play of its own that our rules
refuse (none were seen) would be replaced by our weakest legal play and counted.

With ``--against current`` the rule agent is replaced by the bot committed at ``--baseline``
(git history, run as a separate module): the 癩子場 / 悶抓場 comparison, where RLCard has no
such rules. Decision times of the bot under test (every call to ``choose`` in the play phase
are printed as percentiles, wall clock and the thread's CPU time, with the load average.
Prints figures, asserts nothing. Usage::

    python bench/doudizhu_bot_rlcard.py [--deals 2000] [--roles landlord,farmers]
        [--variant classic] [--against rule|current] [--baseline HEAD] [--start 0]
        [--set NAME=int ...] [--baseline-set NAME=int ...] [--log deals.txt]
"""

from __future__ import annotations

import argparse
import math
import os
import re
import subprocess
import sys
import time
import types
from collections.abc import Callable
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from games.rules.doudizhu import RULESET, Config
from games.rules.doudizhu.bot import choose as current_choose
from games.rules.doudizhu.patterns import IDX

Player = Callable[[Any, int, list[tuple[int, str]]], dict[str, Any]]
TIMES: dict[str, list[float]] = {"play": [], "cpu": []}


def load_baseline(commit: str) -> Callable[..., dict[str, Any]]:
    """The bot as committed at ``commit`` (bot.py and its bot_* helper modules), imported apart."""
    files = subprocess.run(
        ["git", "ls-tree", "--name-only", commit, "games/rules/doudizhu/"],
        cwd=ROOT,
        check=True,
        capture_output=True,
        text=True,
    ).stdout.split()
    names = [Path(f).stem for f in files if Path(f).name.startswith("bot") and f.endswith(".py")]
    sources = {
        name: subprocess.run(
            ["git", "show", f"{commit}:games/rules/doudizhu/{name}.py"],
            cwd=ROOT,
            check=True,
            capture_output=True,
            text=True,
        ).stdout
        for name in names
    }

    def needs(name: str) -> set[str]:
        """The other bot modules ``name`` imports (either import form)."""
        text = sources[name]
        return {
            other
            for other in names
            if other != name
            and (
                f"games.rules.doudizhu.{other}" in text
                or re.search(rf"from games\.rules\.doudizhu import [^\n]*\b{other}\b", text)
            )
        }

    modules: dict[str, types.ModuleType] = {}
    pending = sorted(names)
    while pending:  # a module after the ones it imports, so it gets the baseline's, not ours
        ready = [n for n in pending if needs(n) <= set(modules)] or pending[:1]
        name = ready[0]
        pending.remove(name)
        source = sources[name]
        for other in modules:
            source = re.sub(
                rf"from games\.rules\.doudizhu import {other}\b",
                f"import baseline_{other} as {other}",
                source,
            )
            source = source.replace(f"games.rules.doudizhu.{other}", f"baseline_{other}")
        module = types.ModuleType(f"baseline_{name}")
        sys.modules[f"baseline_{name}"] = module
        exec(compile(source, f"{commit}:{name}.py", "exec"), module.__dict__)  # noqa: S102
        modules[name] = module
    return modules["bot"].choose


def to_play(variant: str, seed: str) -> Any:
    st = RULESET.new_game(
        Config(variant=variant, seat_beans=(0, 0, 0), double_threshold=1), seed, 3
    )
    while st.phase != "playing":
        seat = min(RULESET.to_act(st))
        if st.phase == "start":
            action: dict[str, Any] = {"type": "start", "mingpai": False}
        elif st.phase == "dealing":
            action = {"type": "ready"}
        elif st.phase == "bidding":
            if variant == "menzhua" and not st.looked[seat]:
                action = {"type": "look"}
            else:
                action = {"type": "bid", "call": seat == 0}
        elif st.phase == "robbing":
            action = {"type": "rob", "rob": False}
        else:
            action = RULESET.auto_action(st, seat)
        RULESET.apply(st, seat, action)
    return st


def bot_player(choose: Callable[..., dict[str, Any]], timed: bool) -> Player:
    def act(st: Any, seat: int, trace: list[tuple[int, str]]) -> dict[str, Any]:
        t0, c0 = time.perf_counter(), time.thread_time()
        action = choose(RULESET, st, seat)
        if timed:
            TIMES["play"].append(time.perf_counter() - t0)
            TIMES["cpu"].append(time.thread_time() - c0)
        return action

    return act


def _sorted(cards: str) -> str:
    return "".join(sorted(cards, key=lambda ch: IDX[ch]))


def rule_player(counters: dict[str, int]) -> Player:
    from rlcard.games.doudizhu.utils import CARD_TYPE
    from rlcard.models.doudizhu_rule_models import DouDizhuRuleAgentV1

    agent = DouDizhuRuleAgentV1()

    def act(st: Any, seat: int, trace: list[tuple[int, str]]) -> dict[str, Any]:
        plays = RULESET.legal_plays_for(st, seat)
        ours = {_sorted(p.partition("/")[0]): p for p in plays if "/" not in p}
        actions = [a for a in ours if a in CARD_TYPE[0]]
        if st.lead is not None:
            actions.append("pass")
        raw = {
            "current_hand": _sorted(st.hands[seat]),
            "trace": list(trace),
            "actions": actions,
            "landlord": st.landlord,
            "self": seat,
        }
        target = trace[-1][1] if trace else ""
        if target == "pass" and len(trace) > 1:
            target = trace[-2][1]
        leading = st.lead is None
        if not leading and target not in CARD_TYPE[0]:
            counters["unreadable_target"] += 1  # cannot happen in classic: every play is known
        if (
            leading
            and trace
            and not (len(trace) >= 3 and trace[-1][1] == "pass" and trace[-2][1] == "pass")
        ):
            trace_view = []  # its lead test reads the trace; a won trick always ends in 2 passes
            raw["trace"] = trace_view
        choice = agent.step({"raw_obs": raw})
        if choice == "pass":
            return {"type": "pass"}
        play = ours.get(_sorted(choice))
        if play is None:
            counters["refused"] += 1
            play = plays[0]
        return {"type": "play", "cards": play}

    return act


def play_out(st: Any, players: list[Player]) -> int:
    trace: list[tuple[int, str]] = []
    while st.phase != "over":
        seat = st.turn
        action = players[seat](st, seat, trace)
        RULESET.apply(st, seat, action)
        if action["type"] == "play":
            trace.append((seat, _sorted(action["cards"])))
        elif action["type"] == "pass":
            trace.append((seat, "pass"))
    return int(st.winner)


def wilson(wins: int, n: int, z: float = 1.96) -> tuple[float, float]:
    if n == 0:
        return 0.0, 0.0
    p = wins / n
    centre = (p + z * z / (2 * n)) / (1 + z * z / n)
    half = z * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n)) / (1 + z * z / n)
    return centre - half, centre + half


def pct(values: list[float], q: float) -> float:
    if not values:
        return 0.0
    s = sorted(values)
    return s[min(len(s) - 1, int(q * len(s)))]


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--deals", type=int, default=2000)
    parser.add_argument("--start", type=int, default=0)
    parser.add_argument("--roles", default="landlord,farmers")
    parser.add_argument("--variant", default="classic")
    parser.add_argument("--against", default="rule", choices=("rule", "current"))
    parser.add_argument("--baseline", default="HEAD")
    parser.add_argument("--no-reference", action="store_true")
    parser.add_argument("--work", type=int, default=None, help="bot.SEARCH_WORK override")
    parser.add_argument("--set", action="append", help="NAME=int: override a bot.py constant")
    parser.add_argument(
        "--baseline-set",
        action="append",
        help="NAME=int: override a constant of the --baseline bot (with --against current)",
    )
    parser.add_argument("--log", help="write one line per deal and role: deal role won (0/1)")
    args = parser.parse_args()
    counters = {"refused": 0, "unreadable_target": 0}
    if args.work is not None:
        from games.rules.doudizhu import bot

        bot.SEARCH_WORK = args.work
    for item in args.set or []:
        from games.rules.doudizhu import bot

        name, _, value = item.partition("=")
        setattr(bot, name, type(getattr(bot, name))(int(value)))
    if args.against == "rule":
        sys.path.insert(0, str(ROOT / "var" / "bench-deps"))
        import numpy as np

        other = rule_player(counters)

        def reseed(i: int) -> None:
            np.random.seed(i)
    else:
        baseline = load_baseline(args.baseline)
        for item in args.baseline_set or []:
            name, _, value = item.partition("=")
            scope = baseline.__globals__  # the baseline bot module's own constants
            scope[name] = type(scope[name])(int(value))
        other = bot_player(baseline, timed=False)

        def reseed(i: int) -> None:
            return None

    tested = bot_player(current_choose, timed=True)
    roles = args.roles.split(",")
    wins = dict.fromkeys(roles, 0)
    ref = dict.fromkeys(roles, 0)
    deals = range(args.start, args.start + args.deals)
    t0 = time.perf_counter()
    load0 = os.getloadavg()[0]
    log = open(args.log, "w") if args.log else None  # noqa: SIM115
    for i in deals:
        seed = f"bench-{args.variant}-{i}"
        for role in roles:
            players = [tested, other, other] if role == "landlord" else [other, tested, tested]
            reseed(i)
            winner = play_out(to_play(args.variant, seed), players)
            won = (winner == 0) == (role == "landlord")
            wins[role] += won
            if log is not None:
                print(i, role, int(won), file=log, flush=True)
        if not args.no_reference:
            reseed(i)
            winner = play_out(to_play(args.variant, seed), [other, other, other])
            for role in roles:
                ref[role] += (winner == 0) == (role == "landlord")
        done = i - args.start + 1
        if done % 100 == 0:  # progress, so a long run that is stopped still tells something
            print(
                f"  … {done} deals: "
                + ", ".join(f"{r} {wins[r]}" for r in roles)
                + (
                    ", reference " + ", ".join(f"{r} {ref[r]}" for r in roles)
                    if not args.no_reference
                    else ""
                )
                + f" ({time.perf_counter() - t0:.0f} s)",
                file=sys.stderr,
                flush=True,
            )
    n = len(deals)
    dt = time.perf_counter() - t0
    print(
        f"斗地主 bot (working tree) vs {args.against} ({args.variant}), {n} deals "
        f"{args.start}…{args.start + n - 1}, {dt:.0f} s, load {load0:.2f} → "
        f"{os.getloadavg()[0]:.2f}"
    )
    for role in roles:
        lo, hi = wilson(wins[role], n)
        line = f"  {role:8s} {wins[role] / n:6.1%}  95% CI [{lo:.1%}, {hi:.1%}]"
        if not args.no_reference:
            rlo, rhi = wilson(ref[role], n)
            line += f"   reference {ref[role] / n:6.1%} [{rlo:.1%}, {rhi:.1%}]"
        print(line)
    for label, t in (("wall", TIMES["play"]), ("cpu", TIMES["cpu"])):
        print(
            f"  decisions {len(t)} ({label}): p50 {pct(t, 0.5) * 1e3:.2f} ms  p95 "
            f"{pct(t, 0.95) * 1e3:.2f} ms  p99 {pct(t, 0.99) * 1e3:.2f} ms  max "
            f"{max(t or [0]) * 1e3:.2f} ms"
        )
    if args.against == "rule":
        print(
            f"  rule-agent plays refused by our rules: {counters['refused']}, unreadable "
            f"targets: {counters['unreadable_target']}"
        )


if __name__ == "__main__":
    main()
