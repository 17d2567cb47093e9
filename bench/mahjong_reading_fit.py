import sys, json, collections
sys.path.insert(0, "/work/main"); sys.path.insert(0, "/work/main/bench")
from bots_vs_baseline import setup
from games.rules.mahjong.tiles import KIND_INDEX
from games.engine.tiles import KINDS
game = "mahjong_yueqing"
ruleset, config, seats, bot, base = setup(game)
seed, start, n, out = sys.argv[1], int(sys.argv[2]), int(sys.argv[3]), sys.argv[4]
num = collections.defaultdict(float); den = collections.defaultdict(float); cnt = collections.Counter()
def bucket(v, cuts):
    for i, c in enumerate(cuts):
        if v <= c: return i
    return len(cuts)
def features(st, me, o, k, wk):
    riv = [KIND_INDEX[t] for t in st.discards[o]]
    nd = len(riv)
    self_d = sum(1 for x in riv if x == k)
    near1 = near2 = 0
    if k < 27:
        for x in riv:
            if x < 27 and x // 9 == k // 9:
                if abs(x - k) == 1: near1 += 1
                elif abs(x - k) == 2: near2 += 1
    cls = 0 if k >= 27 else (1 if k % 9 in (0, 8) else (2 if k % 9 in (1, 7) else 3))
    return (cls, bucket(self_d, [0, 1]), bucket(near1, [0, 1]), bucket(near2, [0, 1]), bucket(nd, [3, 7, 11]))
for h in range(start, start + n):
    me = h % 4
    players = [bot if s == me else base for s in range(4)]
    st = ruleset.new_game(config, f"{seed}-{h}", 4)
    while not ruleset.is_over(st):
        seat = min(ruleset.to_act(st))
        if seat == me:
            wild = ruleset.wild_kinds(st)
            wk = KIND_INDEX[next(iter(wild))] if len(wild) == 1 else -1
            seen = [0] * 34
            def add(ts):
                for t in ts:
                    kk = KIND_INDEX.get(t)
                    if kk is not None: seen[kk] += 1
            add(st.hands[me])
            for s, ms in enumerate(st.melds):
                for m in ms:
                    if m["kind"] != "angang" or s == me: add(m["tiles"])
            for r in st.discards: add(r)
            for f in st.flowers: add(f)
            add(list(st.vars.get("set_aside", [])))
            unseen = [max(0, 4 - x) for x in seen]
            flw = [ruleset.tile_is_flower(st, KINDS[k]) for k in range(34)]
            pool = sum(u for k, u in enumerate(unseen) if not flw[k])
            for o in range(4):
                if o == me: continue
                size = len(st.hands[o])
                true = collections.Counter(KIND_INDEX[t] for t in st.hands[o])
                for k in range(34):
                    if flw[k] or k == wk or unseen[k] == 0: continue
                    f = features(st, me, o, k, wk)
                    num[f] += true[k]; den[f] += unseen[k] * size / pool; cnt[f] += 1
        a = (bot if seat == me else base)(ruleset, st, seat)
        ruleset.apply(st, seat, a)
json.dump([[list(f), num[f], den[f], cnt[f]] for f in den], open(out, "w"))
