"""Fit the mahjong bot's win-chance value (``play.VALUE_W``; issue #16 §2).

``log``: play the bench's mixed table (the bot in seat h mod 4, three baselines, as
``bench/mahjong_bot_ab.py``) and write, for every discard the bot makes, the features of the
position it leaves (``play.Decision.features``, three other draws before its next) and whether
the bot went on to win the hand — one JSON line per position.
``fit``: a logistic per shanten class (0, 1, 2, 3+) on those lines by Newton's method with a
small ridge, every fifth hand held out; prints the calibration of the held-out positions by
decile of the predicted chance and the weights to paste into ``play.VALUE_W``.

Usage:
    python bench/mahjong_value_fit.py log --game mahjong_yueqing --seed ab --start 300000 \
        --hands 3000 --out var/value.jsonl
    python bench/mahjong_value_fit.py fit var/value.jsonl
"""

from __future__ import annotations

import argparse
import json
import math
import sys
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "bench"))

from bots_vs_baseline import play, setup  # noqa: E402

from games.rules.mahjong import play as mjplay  # noqa: E402


def log(args: argparse.Namespace) -> None:
    over = {k: json.loads(v) for k, v in (item.split("=", 1) for item in args.set)}
    mjplay.TUNING[args.game] = {**mjplay.TUNING.get(args.game, {}), **over}
    ruleset, config, seats, bot, base = setup(args.game)
    with open(args.out, "a") as fh:
        for h in range(args.start, args.start + args.hands):
            rows: list[list[float]] = []

            def logged(rs: Any, st: Any, s: int, rows: list[list[float]] = rows) -> Any:
                action = bot(rs, st, s)
                if st.phase == "turn" and action["type"] == "discard":
                    d = mjplay.Decision(rs, st, s)
                    rest = list(st.hands[s])
                    rest.remove(action["tile"])
                    rows.append(d.features(rest, d.shanten(rest), 3))
                return action

            me = h % seats
            players = [logged if s == me else base for s in range(seats)]
            res = play(ruleset, config, f"{args.seed}-{h}", seats, players)
            won = 1 if me in res.winners else 0
            for f in rows:
                fh.write(json.dumps([h, *f, won]) + "\n")


def _solve(a: list[list[float]], b: list[float]) -> list[float]:
    """Solve a x = b (Gaussian elimination with partial pivoting; a small dense system)."""
    n = len(b)
    m = [row[:] + [b[i]] for i, row in enumerate(a)]
    for c in range(n):
        p = max(range(c, n), key=lambda r: abs(m[r][c]))
        m[c], m[p] = m[p], m[c]
        for r in range(c + 1, n):
            f = m[r][c] / m[c][c]
            for k in range(c, n + 1):
                m[r][k] -= f * m[c][k]
    x = [0.0] * n
    for r in range(n - 1, -1, -1):
        x[r] = (m[r][n] - sum(m[r][k] * x[k] for k in range(r + 1, n))) / m[r][r]
    return x


def logistic(xs: list[list[float]], ys: list[int], ridge: float = 1.0) -> list[float]:
    """Weights of the logistic regression of ``ys`` on ``xs`` (Newton, L2 ``ridge`` on all
    but the intercept)."""
    n = len(xs[0])
    w = [0.0] * n
    for _ in range(25):
        g = [0.0] * n
        hm = [[0.0] * n for _ in range(n)]
        for x, y in zip(xs, ys):
            z = sum(a * b for a, b in zip(w, x))
            p = 1.0 / (1.0 + math.exp(-max(-30.0, min(30.0, z))))
            q = p * (1 - p)
            for i in range(n):
                g[i] += (y - p) * x[i]
                xi = q * x[i]
                row = hm[i]
                for j in range(i, n):
                    row[j] += xi * x[j]
        for i in range(n):
            for j in range(i):
                hm[i][j] = hm[j][i]
            if i:
                g[i] -= ridge * w[i]
                hm[i][i] += ridge
        step = _solve(hm, g)
        w = [a + b for a, b in zip(w, step)]
        if max(abs(s) for s in step) < 1e-6:
            break
    return w


def fit(args: argparse.Namespace) -> None:
    rows = []
    for path in args.files:
        with open(path) as fh:
            rows.extend(json.loads(line) for line in fh)
    train = [r for r in rows if r[0] % 5]
    held = [r for r in rows if r[0] % 5 == 0]
    weights = []
    for c in range(4):
        part = [r for r in train if min(3, int(r[1])) == c]
        xs = [mjplay.value_inputs(r[1:-1]) for r in part]
        ys = [int(r[-1]) for r in part]
        w = logistic(xs, ys) if part else [0.0] * 8
        weights.append([round(v, 4) for v in w])
        print(f"class {c}: {len(part)} positions, win rate {sum(ys) / max(1, len(ys)):.3f}")
    mjplay.VALUE_W[:] = weights
    print(f"held out: {len(held)} positions of {len({r[0] for r in held})} hands")
    pred = sorted((mjplay.win_chance(r[1:-1]), int(r[-1]), min(3, int(r[1]))) for r in held)
    ll = sum(-math.log(p if y else 1 - p) for p, y, _c in pred) / max(1, len(pred))
    print(f"held-out log loss {ll:.4f}")
    for c in range(4):
        sub = [x for x in pred if x[2] == c]
        if not sub:
            continue
        k = len(sub)
        cells = []
        for i in range(5):
            part = sub[i * k // 5 : (i + 1) * k // 5]
            mp = sum(p for p, _y, _c in part) / len(part)
            my = sum(y for _p, y, _c in part) / len(part)
            cells.append(f"{mp:.2f}/{my:.2f}")
        print(f"class {c} quintiles predicted/observed: " + "  ".join(cells))
    print("VALUE_W = " + json.dumps(weights))


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    sub = ap.add_subparsers(dest="cmd", required=True)
    lg = sub.add_parser("log")
    lg.add_argument("--game", default="mahjong_yueqing")
    lg.add_argument("--seed", default="ab")
    lg.add_argument("--start", type=int, required=True)
    lg.add_argument("--hands", type=int, required=True)
    lg.add_argument("--set", action="append", default=[])
    lg.add_argument("--out", required=True)
    ft = sub.add_parser("fit")
    ft.add_argument("files", nargs="+")
    args = ap.parse_args()
    log(args) if args.cmd == "log" else fit(args)


if __name__ == "__main__":
    main()
