/*
 * games.rules.mahjong._mjsim: the mahjong bot's shanten with wilds, and a table simulator, in C.
 *
 * Shanten. The same count as games/rules/mahjong/bot.py's regular_shanten (which stays the
 * reference; tests/test_mjsim.py checks the two agree on many random hands): each suit (9
 * kinds, or the 7 honours) is searched apart for its table (sets, pair) -> most partial sets,
 * exactly as bot._partials does (the same branches in the same order, a partial set waiting
 * only on dead kinds is none), and the four tables are combined keeping, per (sets capped at
 * the sets needed, pair), the most partials. A suit's table is memoised in a fixed hash table
 * keyed by the suit's counts (base 5), its dead bits and whether it is suited; an entry may be
 * overwritten by another (it is a cache: the key is checked on every read).
 *
 * Simulator. One determinisation deals the tiles the bot cannot see at random (from a seeded
 * splitmix64 stream: the same seed gives the same deals) into the three other hands and a
 * wall; each sampled hand then warms up (draws and discards by its own rule as many times as
 * its seat has discarded, the tiles let go going back to the wall), so it is shaped like a
 * hand that has been played rather than a fresh deal. Then the rest of the hand is played for
 * all four seats from the bot's discard of a candidate tile: every seat 胡 when its hand (with
 * the tile) is a win of the regular shape (sets + a pair, 財神 wild; the engine's rare reading
 * restrictions are ignored), the first seat in turn order after the discarder winning; a seat
 * 碰 / 吃 only when the meld lowers its shanten (碰 before 吃, 吃 only off the left seat, never a
 * 槓, never a wild); a seat discards the tile leaving the lowest shanten (a wild only when
 * nothing else does) — the others (the baseline's rule) ties to the lowest kind, the bot to the
 * most 進張 (the copies it has not seen, weighted by the claim routes as play.py's peng_w /
 * chi_w when not ready), then the lowest keep value. Flowers drawn are set aside and replaced
 * from the back; 流局 when a draw is due with `reserve` tiles left. Every candidate plays the
 * SAME determinisations (common random numbers), so the comparison between candidates is
 * paired.
 *
 * Entry points:
 *   shanten(counts: bytes[34], wilds, sets, dead) -> int
 *   discard(counts: bytes[34], wilds, sets, dead) -> (kind, shanten)   the simulated baseline
 *   meld(counts: bytes[34], wilds, sets, dead, a, b) -> kind or -1       (its discard / claim)
 *   search(hand: bytes[34], wilds, sets, opp_sizes: bytes[3], opp_sets: bytes[3],
 *          opp_warm: bytes[3], unseen: bytes[34], extra, wall_len, reserve, wild_kind,
 *          flowers, dead, from_seat, tile, candidates: bytes, n_det, seed, peng_w, chi_w
 *          [, passed: (int, int, int), redeal: int, peng_passed: bool])
 *          -> bytes[n_det * number of candidates]
 * ``from_seat`` 0: the bot's turn (3k+2 tiles), one candidate discard (a kind) per byte;
 * 1-3 (seats after the bot in turn order): the bot's answer to that seat's discard ``tile``
 * (3k+1 tiles), two bytes per candidate — the two kinds of its hand a 碰 / 吃 takes (after
 * which it discards by its own rule), or 255 255 for a pass.
 * ``opp_warm``: per opponent, draws and discards it makes by its own rule right after the
 * deal (the discarded tiles go back to the wall): a warm-up that shapes a random hand like
 * one that has been played for that many turns.
 * ``passed``: per opponent, a bit mask of the kinds it let pass since its hand last changed (it
 * did not 胡 on them); a determinisation giving it a hand that wins on one of them is dealt
 * again, up to ``redeal`` times (after that it is kept as it is); with ``peng_passed`` also a
 * hand for which a 碰 of one of them would have lowered its shanten (the baseline's claim rule).
 * ``dead`` and ``flowers`` are bit masks over the 34 kinds (bit k for kind k); ``wild_kind``
 * is -1 without wilds; a candidate equal to ``wild_kind`` discards a wild. The result holds,
 * for determinisation i and candidate j at i * (number of candidates) + j, 1 when the bot won the
 * simulated hand, 2 when another seat won, 0 on 流局.
 */
#define PY_SSIZE_T_CLEAN
#include <Python.h>
#include <stdint.h>
#include <string.h>

#define NK 34
/* a suit of at most 17 tiles holds at most 5 sets: the count is for hands of up to 17 tiles
 * (the Python wrapper counts larger ones) */
#define MAXM 5

/* -- per-suit tables ------------------------------------------------------------------- */

/* (sets, pair) -> most partial sets, as a list of the pairs that some decomposition gives:
 * one byte each, sets << 5 | pair << 4 | partials */
typedef struct {
    uint8_t n;
    uint8_t e[2 * (MAXM + 1)];
} Tab;

/* the same as a dense array (-1: none), while a table or the combined states are built */
typedef struct {
    int8_t t[MAXM + 1][2];
} St;

#define EM(x) ((x) >> 5)
#define EP(x) (((x) >> 4) & 1)
#define ET(x) ((x)&15)

/* The list of a dense table, without the entries another one dominates (as many sets or more,
 * as many partials or more, the same pair): combined with anything, the dominating entry never
 * gives a higher count, so the values are unchanged and the products below shorter. */
static void pack(const St *d, Tab *out) {
    out->n = 0;
    for (int p = 0; p < 2; p++) {
        int best_t = -1; /* the most partials among the entries with more sets */
        for (int m = MAXM; m >= 0; m--) {
            int t = d->t[m][p];
            if (t < 0 || t <= best_t) continue;
            out->e[out->n++] = (uint8_t)(m << 5 | p << 4 | t);
            best_t = t;
        }
    }
}

typedef struct {
    uint32_t key; /* 0: empty */
    Tab tab;
} Slot;

#define MEMO_BITS 18
#define MEMO_SIZE (1u << MEMO_BITS)
static Slot *memo = NULL;

static const uint32_t P5[9] = {1, 5, 25, 125, 625, 3125, 15625, 78125, 390625};
static const int GLO[4] = {0, 9, 18, 27};
static const int GN[4] = {9, 9, 9, 7};
static const int KGROUP[NK] = {0, 0, 0, 0, 0, 0, 0, 0, 0, 1, 1, 1, 1, 1, 1, 1, 1, 1,
                               2, 2, 2, 2, 2, 2, 2, 2, 2, 3, 3, 3, 3, 3, 3, 3};

static uint32_t slot_of(uint32_t key) {
    uint32_t h = key * 2654435761u;
    return h >> (32 - MEMO_BITS);
}

static void merge(St *out, const Tab *sub, int dm, int dp, int dt) {
    for (int j = 0; j < sub->n; j++) {
        int m = EM(sub->e[j]) + dm, p = EP(sub->e[j]) + dp, v = ET(sub->e[j]) + dt;
        if (p > 1 || m > MAXM) continue;
        if (out->t[m][p] < v) out->t[m][p] = (int8_t)v;
    }
}

static int live(int k, int n, unsigned dead) { return k >= 0 && k < n && !((dead >> k) & 1); }

/* bot._partials for the suit counts c[0..n) (every count <= 4), code = sum c[i] * 5^i */
static void partials(int8_t *c, int n, int suited, unsigned dead, uint32_t code, Tab *out) {
    if (code == 0) {
        out->n = 1;
        out->e[0] = 0;
        return;
    }
    uint32_t key = (code | (dead << 21) | ((uint32_t)suited << 30)) + 1;
    uint32_t h = slot_of(key);
    for (int probe = 0; probe < 4; probe++) {
        Slot *s = &memo[(h + probe) & (MEMO_SIZE - 1)];
        if (s->key == key) {
            *out = s->tab;
            return;
        }
        if (s->key == 0) break;
    }
    int i = 0;
    while (c[i] == 0) i++;
    Tab sub;
    St built, *dense = &built;
    memset(built.t, -1, sizeof built.t);
    if (c[i] >= 3) {
        c[i] -= 3;
        partials(c, n, suited, dead, code - 3 * P5[i], &sub);
        c[i] += 3;
        merge(dense, &sub, 1, 0, 0);
    }
    if (suited && i <= 6 && c[i + 1] && c[i + 2]) {
        c[i]--, c[i + 1]--, c[i + 2]--;
        partials(c, n, suited, dead, code - P5[i] - P5[i + 1] - P5[i + 2], &sub);
        c[i]++, c[i + 1]++, c[i + 2]++;
        merge(dense, &sub, 1, 0, 0);
    }
    if (c[i] >= 2) {
        c[i] -= 2;
        partials(c, n, suited, dead, code - 2 * P5[i], &sub);
        c[i] += 2;
        merge(dense, &sub, 0, 1, 0);
        if (live(i, n, dead)) merge(dense, &sub, 0, 0, 1);
    }
    if (suited && i <= 7 && c[i + 1] && (live(i - 1, n, dead) || live(i + 2, n, dead))) {
        c[i]--, c[i + 1]--;
        partials(c, n, suited, dead, code - P5[i] - P5[i + 1], &sub);
        c[i]++, c[i + 1]++;
        merge(dense, &sub, 0, 0, 1);
    }
    if (suited && i <= 6 && c[i + 2] && live(i + 1, n, dead)) {
        c[i]--, c[i + 2]--;
        partials(c, n, suited, dead, code - P5[i] - P5[i + 2], &sub);
        c[i]++, c[i + 2]++;
        merge(dense, &sub, 0, 0, 1);
    }
    c[i]--;
    partials(c, n, suited, dead, code - P5[i], &sub);
    c[i]++;
    merge(dense, &sub, 0, 0, 0);
    pack(&built, out);
    /* store: the first empty slot of the probe window, else the home slot */
    Slot *dst = &memo[h];
    for (int probe = 0; probe < 4; probe++) {
        Slot *s = &memo[(h + probe) & (MEMO_SIZE - 1)];
        if (s->key == 0) {
            dst = s;
            break;
        }
    }
    dst->key = key;
    dst->tab = *out;
}

/* the table of group g of the counts c (34 kinds), given the group's code */
static void group_tab(int8_t *c, int g, uint64_t dead, uint32_t code, Tab *out) {
    unsigned gd = (unsigned)((dead >> GLO[g]) & ((1u << GN[g]) - 1));
    partials(c + GLO[g], GN[g], g < 3, gd, code, out);
}

static uint32_t group_code(const int8_t *c, int g) {
    uint32_t code = 0;
    for (int i = GN[g] - 1; i >= 0; i--) code = code * 5 + (uint32_t)c[GLO[g] + i];
    return code;
}

/* -- combining the groups ------------------------------------------------------------------ */

static void st_init(St *s) {
    memset(s->t, -1, sizeof s->t);
    s->t[0][0] = 0;
}

/* two entries of disjoint parts together: their sets (capped at `sets`), partials and pair;
 * 0 when both hold the pair */
static inline int join(uint8_t a, uint8_t b, int sets, int *m, int *p, int *t) {
    *p = EP(a) + EP(b);
    if (*p > 1) return 0;
    *m = EM(a) + EM(b);
    if (*m > sets) *m = sets;
    *t = ET(a) + ET(b);
    return 1;
}

/* the shanten (before wilds) of m sets, t partials and p pairs toward `sets` sets and a pair */
static inline int cell_value(int m, int p, int t, int sets) {
    int r = sets - m;
    return 2 * r - (t < r ? t : r) - p;
}

/* the states of two disjoint parts, sets capped at `sets` */
static void tab_combine(const Tab *a, const Tab *b, int sets, St *out) {
    memset(out->t, -1, sizeof out->t);
    int m, p, t;
    for (int i = 0; i < a->n; i++)
        for (int j = 0; j < b->n; j++)
            if (join(a->e[i], b->e[j], sets, &m, &p, &t) && out->t[m][p] < t)
                out->t[m][p] = (int8_t)t;
}

static void st_tab(const St *a, const Tab *b, int sets, St *out) {
    Tab la;
    pack(a, &la);
    tab_combine(&la, b, sets, out);
}

static int finish(int best, int wilds) {
    best -= wilds;
    return best < -1 ? -1 : best;
}

static int st_value(const St *s, int wilds, int sets) {
    int best = 99;
    for (int m = 0; m <= sets; m++)
        for (int p = 0; p < 2; p++) {
            int t = s->t[m][p];
            if (t < 0) continue;
            int v = cell_value(m, p, t, sets);
            if (v < best) best = v;
        }
    return finish(best, wilds);
}

/* the value of two disjoint parts together, without building their states */
static int tab_value(const Tab *a, const Tab *b, int wilds, int sets) {
    int best = 99, m, p, t;
    for (int i = 0; i < a->n; i++)
        for (int j = 0; j < b->n; j++) {
            if (!join(a->e[i], b->e[j], sets, &m, &p, &t)) continue;
            int v = cell_value(m, p, t, sets);
            if (v < best) best = v;
        }
    return finish(best, wilds);
}

static int st_tab_value(const St *a, const Tab *b, int wilds, int sets) {
    Tab la;
    pack(a, &la);
    return tab_value(&la, b, wilds, sets);
}

static int shanten34(int8_t *c, int wilds, int sets, uint64_t dead) {
    St a, b;
    Tab t;
    st_init(&a);
    for (int g = 0; g < 4; g++) {
        group_tab(c, g, dead, group_code(c, g), &t);
        if (g == 3) return st_tab_value(&a, &t, wilds, sets);
        st_tab(&a, &t, sets, &b);
        a = b;
    }
    return 99;
}

/* -- the simulator ------------------------------------------------------------------------ */

typedef struct {
    int8_t c[NK];
    uint32_t code[4];
    int wilds, sets, sh;
    uint64_t dead;
} Seat;

typedef struct BotView BotView;

typedef struct {
    Seat s[4];
    int8_t wall[160];
    int front, back, reserve, wk;
    uint64_t flowers;
} Sim;

static void seat_add(Seat *s, int k) {
    s->c[k]++;
    s->code[KGROUP[k]] += P5[k - GLO[KGROUP[k]]];
}

static void seat_del(Seat *s, int k) {
    s->c[k]--;
    s->code[KGROUP[k]] -= P5[k - GLO[KGROUP[k]]];
}

static int seat_shanten(Seat *s) {
    St a, b;
    Tab t;
    st_init(&a);
    for (int g = 0; g < 4; g++) {
        group_tab(s->c, g, s->dead, s->code[g], &t);
        if (g == 3) return st_tab_value(&a, &t, s->wilds, s->sets);
        st_tab(&a, &t, s->sets, &b);
        a = b;
    }
    return 99;
}

/* core.py's _keep_value of kind k in the hand after it left (lower: discard first) */
static int keep_value(const int8_t *c, int k) {
    if (k >= 27) return c[k] * 3;
    int n = k % 9, lo = k - n, score = c[k] * 3;
    static const int D[4] = {-2, -1, 1, 2};
    for (int j = 0; j < 4; j++) {
        int x = n + D[j];
        if (x >= 0 && x <= 8 && c[lo + x]) score += (D[j] == 1 || D[j] == -1) ? 2 : 1;
    }
    return score + ((n == 0 || n == 8) ? 0 : 1);
}

/* What the bot's own rule needs in the simulation: the copies of each kind it has not seen
 * (its 進張 count) and the weights of the claim routes (play.py's peng_w / chi_w). */
struct BotView {
    int8_t left[NK];
    double pw, cw;
};

/* play.Decision.route_weight: a kind the hand holds a pair of can also come by a 碰, one that
 * completes a run by a 吃 */
static double route_weight(const int8_t *c, int j, const BotView *v) {
    if (c[j] >= 2) return 1.0 + v->pw;
    if (v->cw != 0.0 && j < 27) {
        int n = j % 9, lo = j - n;
#define H(x) ((x) >= 0 && (x) <= 8 && c[lo + (x)] > 0)
        if ((H(n - 2) && H(n - 1)) || (H(n - 1) && H(n + 1)) || (H(n + 1) && H(n + 2)))
            return 1.0 + v->cw;
#undef H
    }
    return 1.0;
}

/* a group's table with one more tile of kind j, for the groups a discard leaves unchanged:
 * the same for every discard of another group, so built once per choose_discard */
typedef struct {
    uint64_t have;
    Tab tab[NK];
} Plus;

/* The bot's 進張 after discarding kind k of group g (tk: that group's table after it), at
 * shanten sh: the unseen copies of each kind whose draw lowers it (weighted by the routes when
 * not ready), over the kinds held or next to a held suited kind (bot.useful_kinds), as
 * play.Decision.ukeire counts; comp[g][h] is the other two groups combined. */
static double ukeire(Seat *s, int k, int g, Tab comp[4][4], Plus *plus, const Tab *tk,
                     const Tab *others_g, int sh, int wk, const BotView *v) {
    int8_t *c = s->c;
    c[k]--;
    uint64_t useful = 0;
    for (int j = 0; j < NK; j++) {
        if (!c[j]) continue;
        useful |= 1ull << j;
        if (j < 27) {
            int n = j % 9;
            for (int d = -2; d <= 2; d++)
                if (n + d >= 0 && n + d <= 8) useful |= 1ull << (j + d);
        }
    }
    double total = 0.0;
    for (int h = 0; h < 4; h++) {
        Tab base;
        if (h == g) {
            base = *others_g;
        } else {
            St a;
            tab_combine(&comp[g][h], tk, s->sets, &a);
            pack(&a, &base);
        }
        uint32_t code = s->code[h] - (h == g ? P5[k - GLO[g]] : 0);
        for (int j = GLO[h]; j < GLO[h] + GN[h]; j++) {
            if (!((useful >> j) & 1) || j == wk || v->left[j] <= 0 || ((s->dead >> j) & 1))
                continue;
            if (c[j] >= 4) continue;
            Tab tj, *tp = &tj;
            if (h != g) {
                tp = &plus->tab[j];
                if (!((plus->have >> j) & 1)) {
                    c[j]++;
                    group_tab(c, h, s->dead, code + P5[j - GLO[h]], tp);
                    c[j]--;
                    plus->have |= 1ull << j;
                }
            } else {
                c[j]++;
                group_tab(c, h, s->dead, code + P5[j - GLO[h]], &tj);
                c[j]--;
            }
            if (tab_value(&base, tp, s->wilds, s->sets) < sh)
                total += v->left[j] * (sh > 0 ? route_weight(c, j, v) : 1.0);
        }
    }
    c[k]++;
    return total;
}

/* The discard of seat s (3k+2 tiles, sets as they stand): the lowest shanten, a wild only when
 * nothing else gives it; ties to the lowest kind (the baseline), or with the bot's view `v` to
 * the most 進張, then the lowest keep value, then the lowest kind (the bot's own rule).
 * Removes it, sets s->sh to the shanten after it and returns its kind (wk for a wild). */
static int choose_discard(Seat *s, int wk, const BotView *v) {
    Tab T[4], others[4], tk[NK];
    St pre, nxt, suf[5], oth;
    int shk[NK];
    for (int g = 0; g < 4; g++) group_tab(s->c, g, s->dead, s->code[g], &T[g]);
    st_init(&suf[4]);
    for (int g = 3; g >= 0; g--) st_tab(&suf[g + 1], &T[g], s->sets, &suf[g]);
    int best_sh = 99, best_k = -1;
    /* no discard leaves fewer than the whole hand's count (a tile more never raises it): the
     * baseline's rule (ties to the lowest kind) stops at the first kind that reaches it, and
     * the groups before it are combined only as the scan reaches them */
    int floor_sh = v ? -99 : st_value(&suf[0], s->wilds, s->sets);
    st_init(&pre);
    for (int g = 0; g < 4 && best_sh > floor_sh; g++) {
        if (g > 0) {
            st_tab(&pre, &T[g - 1], s->sets, &nxt);
            pre = nxt;
        }
        int any = 0;
        for (int k = GLO[g]; k < GLO[g] + GN[g]; k++) any |= s->c[k];
        if (!any) continue;
        Tab pa, pb;
        pack(&pre, &pa);
        pack(&suf[g + 1], &pb);
        tab_combine(&pa, &pb, s->sets, &oth);
        pack(&oth, &others[g]);
        for (int k = GLO[g]; k < GLO[g] + GN[g]; k++) {
            shk[k] = 99;
            if (!s->c[k]) continue;
            s->c[k]--;
            group_tab(s->c, g, s->dead, s->code[g] - P5[k - GLO[g]], &tk[k]);
            s->c[k]++;
            shk[k] = tab_value(&others[g], &tk[k], s->wilds, s->sets);
            if (shk[k] < best_sh) {
                best_sh = shk[k];
                best_k = k;
                if (best_sh == floor_sh) break;
            }
        }
    }
    if (s->wilds > 0) {
        int sh = st_value(&suf[0], s->wilds - 1, s->sets);
        if (sh < best_sh || best_k < 0) {
            s->wilds--;
            s->sh = sh;
            return wk;
        }
    }
    if (v) {
        double best_uk = -1.0;
        int best_keep = 1 << 30, ties = 0;
        for (int k = 0; k < NK; k++) ties += s->c[k] && shk[k] == best_sh;
        /* per pair of groups {g, h}, the other two combined: a 進張 count's rest of the hand */
        Tab comp[4][4];
        Plus plus;
        plus.have = 0;
        if (ties > 1)
            for (int g = 0; g < 4; g++)
                for (int h = g + 1; h < 4; h++) {
                    int x = -1, y = -1;
                    for (int z = 0; z < 4; z++)
                        if (z != g && z != h) {
                            if (x < 0)
                                x = z;
                            else
                                y = z;
                        }
                    tab_combine(&T[x], &T[y], s->sets, &oth);
                    pack(&oth, &comp[g][h]);
                    comp[h][g] = comp[g][h];
                }
        for (int k = 0; k < NK; k++) {
            if (!s->c[k] || shk[k] != best_sh) continue;
            int g = KGROUP[k];
            double uk =
                ties > 1 ? ukeire(s, k, g, comp, &plus, &tk[k], &others[g], best_sh, wk, v) : 0.0;
            s->c[k]--;
            int kv = keep_value(s->c, k);
            s->c[k]++;
            if (uk > best_uk || (uk == best_uk && kv < best_keep)) {
                best_uk = uk;
                best_keep = kv;
                best_k = k;
            }
        }
    }
    seat_del(s, best_k);
    s->sh = best_sh;
    return best_k;
}

/* A 碰 / 吃 taking kinds a and b from seat s's hand, made only when the best discard after it
 * leaves a lower shanten than now (the baseline's rule): returns the discard, or -1 (no meld). */
static int try_meld(Seat *s, int a, int b, int wk, const BotView *v) {
    Seat probe = *s;
    seat_del(&probe, a);
    seat_del(&probe, b);
    probe.sets--;
    /* its best discard leaves no fewer than the hand after the meld counts */
    if (seat_shanten(&probe) >= s->sh) return -1;
    int d = choose_discard(&probe, wk, v);
    if (probe.sh >= s->sh) return -1;
    *s = probe;
    return d;
}

/* whether seat s (3k+1 tiles, ready) wins with the natural tile k */
static int wins_with(Seat *s, int k) {
    if (s->sh > 0) return 0;
    seat_add(s, k);
    int w = seat_shanten(s) < 0;
    seat_del(s, k);
    return w;
}

/* Play the hand out from seat 0's discard of `tile` (already taken out of its hand): the
 * winner's seat (0 the bot), or -1 on 流局. */
/* Play the hand out from seat `from`'s discard of `tile` (out of its hand): the winner's seat
 * (0 the bot), or -1 on 流局. `fresh`: the bot has not counted that tile as seen yet;
 * `bot_out`: the bot passes on it (neither 胡 nor a claim: it was asked already). */
static int play_out(Sim *sim, BotView *v, int from, int tile, int fresh, int bot_out) {
    for (int first = 1;; first = 0) {
        if (from != 0 && (fresh || !first)) v->left[tile]--; /* the bot sees every discard */
        int skip0 = first && bot_out;
        /* 胡 on the discard: the first seat in turn order */
        for (int i = 1; i < 4; i++) {
            int o = (from + i) & 3;
            if (o == 0 && skip0) continue;
            if (wins_with(&sim->s[o], tile)) return o;
        }
        int claimed = 0;
        if (sim->back - sim->front > sim->reserve && tile != sim->wk) {
            for (int i = 1; i < 4 && !claimed; i++) {
                int o = (from + i) & 3;
                if (o == 0 && skip0) continue;
                if (sim->s[o].c[tile] >= 2) {
                    int d = try_meld(&sim->s[o], tile, tile, sim->wk, o == 0 ? v : NULL);
                    if (d >= 0) {
                        if (o != 0) v->left[tile] -= 2;
                        from = o;
                        tile = d;
                        claimed = 1;
                    }
                }
            }
            if (!claimed && tile < 27 && !(skip0 && ((from + 1) & 3) == 0)) {
                int o = (from + 1) & 3, n = tile % 9;
                Seat *s = &sim->s[o];
                for (int st = n - 2; st <= n && !claimed; st++) {
                    if (st < 0 || st + 2 > 8) continue;
                    int a = -1, b = -1;
                    for (int x = st; x < st + 3; x++) {
                        if (x == n) continue;
                        if (a < 0)
                            a = tile - n + x;
                        else
                            b = tile - n + x;
                    }
                    if (a == sim->wk || b == sim->wk || !s->c[a] || !s->c[b]) continue;
                    int d = try_meld(s, a, b, sim->wk, o == 0 ? v : NULL);
                    if (d >= 0) {
                        if (o != 0) v->left[a]--, v->left[b]--;
                        from = o;
                        tile = d;
                        claimed = 1;
                    }
                }
            }
        }
        if (claimed) continue;
        int o = (from + 1) & 3, back = 0, k;
        for (;;) {
            if (sim->back - sim->front <= sim->reserve) return -1;
            k = back ? sim->wall[--sim->back] : sim->wall[sim->front++];
            if ((sim->flowers >> k) & 1) {
                back = 1;
                continue;
            }
            break;
        }
        Seat *s = &sim->s[o];
        if (o == 0) v->left[k]--;
        int ready = s->sh <= 0;
        if (k == sim->wk)
            s->wilds++;
        else
            seat_add(s, k);
        if (ready && seat_shanten(s) < 0) return o;
        from = o;
        tile = choose_discard(s, sim->wk, o == 0 ? v : NULL);
    }
}

/* The bot claims seat `from`'s discard `tile` with kinds a and b of its hand (a 碰 when a == b
 * == tile, else a 吃) and discards by its own rule — unless another seat 胡 first, or (for a
 * 吃) 碰 it first. The winner's seat, or -1 on 流局. */
static int play_claim(Sim *sim, BotView *v, int from, int tile, int a, int b) {
    for (int i = 1; i < 4; i++) {
        int o = (from + i) & 3;
        if (o != 0 && wins_with(&sim->s[o], tile)) return o;
    }
    if (a != tile || b != tile) {
        for (int i = 1; i < 4; i++) {
            int o = (from + i) & 3;
            if (o == 0 || sim->s[o].c[tile] < 2) continue;
            int d = try_meld(&sim->s[o], tile, tile, sim->wk, NULL);
            if (d >= 0) {
                v->left[tile] -= 2;
                return play_out(sim, v, o, d, 1, 0);
            }
        }
    }
    Seat *me = &sim->s[0];
    seat_del(me, a);
    seat_del(me, b);
    me->sets--;
    int d = choose_discard(me, sim->wk, v);
    return play_out(sim, v, 0, d, 0, 0);
}

static uint64_t splitmix(uint64_t *x) {
    uint64_t z = (*x += 0x9e3779b97f4a7c15ull);
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
    return z ^ (z >> 31);
}

static int below(uint64_t *x, int n) { return (int)(((splitmix(x) >> 32) * (uint64_t)n) >> 32); }

static void shuffle(int8_t *a, int n, uint64_t *rng) {
    for (int i = n - 1; i > 0; i--) {
        int j = below(rng, i + 1);
        int8_t t = a[i];
        a[i] = a[j];
        a[j] = t;
    }
}

static void seat_set(Seat *s, const int8_t *c, int wilds, int sets, uint64_t dead) {
    memcpy(s->c, c, NK);
    for (int g = 0; g < 4; g++) s->code[g] = group_code(c, g);
    s->wilds = wilds;
    s->sets = sets;
    s->dead = dead;
    s->sh = 99;
}

/* -- Python entry points ------------------------------------------------------------------ */

static int memo_ready(void) {
    if (memo) return 1;
    memo = (Slot *)PyMem_RawCalloc(MEMO_SIZE, sizeof(Slot));
    if (!memo) {
        PyErr_NoMemory();
        return 0;
    }
    return 1;
}

static int read_counts(Py_buffer *b, int8_t *out, Py_ssize_t n, const char *what) {
    if (b->len != n) {
        PyErr_Format(PyExc_ValueError, "%s: %zd bytes expected", what, n);
        return 0;
    }
    for (Py_ssize_t i = 0; i < n; i++) {
        unsigned char v = ((unsigned char *)b->buf)[i];
        if (v > 4) {
            PyErr_Format(PyExc_ValueError, "%s: a count over 4", what);
            return 0;
        }
        out[i] = (int8_t)v;
    }
    return 1;
}

static PyObject *py_shanten(PyObject *self, PyObject *args) {
    Py_buffer b;
    int wilds, sets;
    unsigned long long dead;
    if (!PyArg_ParseTuple(args, "y*iiK", &b, &wilds, &sets, &dead)) return NULL;
    int8_t c[NK];
    int ok = read_counts(&b, c, NK, "counts");
    PyBuffer_Release(&b);
    if (!ok) return NULL;
    int total = 0;
    for (int k = 0; k < NK; k++) total += c[k];
    if (sets < 0 || sets > MAXM || wilds < 0 || total > 17) {
        PyErr_SetString(PyExc_ValueError, "sets, wilds or tiles out of range");
        return NULL;
    }
    if (!memo_ready()) return NULL;
    return PyLong_FromLong(shanten34(c, wilds, sets, (uint64_t)dead));
}

static PyObject *py_search(PyObject *self, PyObject *args) {
    Py_buffer hb, osz, ost, owb, ub, cb;
    int wilds, sets, extra, wall_len, reserve, wk, n_det, from, tile;
    unsigned long long flowers, dead, seed;
    BotView bv;
    /* per opponent, the kinds it let pass since its hand last changed (it did not 胡 on them) */
    unsigned long long passed[3] = {0, 0, 0};
    int redeal = 0, peng_passed = 0;
    if (!PyArg_ParseTuple(args, "y*iiy*y*y*y*iiiiKKiiy*iKdd|(KKK)ip", &hb, &wilds, &sets, &osz,
                          &ost, &owb, &ub, &extra, &wall_len, &reserve, &wk, &flowers, &dead,
                          &from, &tile, &cb, &n_det, &seed, &bv.pw, &bv.cw, &passed[0],
                          &passed[1], &passed[2], &redeal, &peng_passed))
        return NULL;
    int8_t hand[NK], unseen[NK], sizes[3], osets[3], warm[3];
    uint8_t cand[2 * NK + 2];
    /* the bot's turn: one kind per candidate discard; a claim: two per candidate */
    int per = from ? 2 : 1;
    Py_ssize_t nc = cb.len / per;
    int ok = read_counts(&hb, hand, NK, "hand") && read_counts(&ub, unseen, NK, "unseen");
    if (ok && (osz.len != 3 || ost.len != 3 || owb.len != 3 || nc < 1 || nc > NK ||
               cb.len != nc * per || from < 0 || from > 3 || (from && (tile < 0 || tile >= NK)))) {
        PyErr_SetString(PyExc_ValueError, "three opponents, 1-34 candidates, a seat and tile");
        ok = 0;
    }
    if (ok) {
        for (int i = 0; i < 3; i++) {
            sizes[i] = ((int8_t *)osz.buf)[i];
            osets[i] = ((int8_t *)ost.buf)[i];
            warm[i] = ((int8_t *)owb.buf)[i];
            if (sizes[i] < 0 || sizes[i] > 17 || osets[i] < 0 || osets[i] > MAXM || warm[i] < 0)
                ok = 0;
        }
        if (!ok) PyErr_SetString(PyExc_ValueError, "opponents' sizes, sets or warm-up");
        for (Py_ssize_t j = 0; j < cb.len; j++) cand[j] = ((uint8_t *)cb.buf)[j];
    }
    PyBuffer_Release(&hb);
    PyBuffer_Release(&osz);
    PyBuffer_Release(&ost);
    PyBuffer_Release(&owb);
    PyBuffer_Release(&ub);
    PyBuffer_Release(&cb);
    if (!ok) return NULL;
    /* the pool: the natural tiles to deal into hands, then the flowers (wall only) */
    int8_t pool[160];
    int np = 0, nf = 0;
    int8_t fl[64];
    for (int k = 0; k < NK; k++)
        for (int j = 0; j < unseen[k]; j++) {
            if ((flowers >> k) & 1)
                fl[nf++] = (int8_t)k;
            else
                pool[np++] = (int8_t)k;
        }
    int in_hands = sizes[0] + sizes[1] + sizes[2];
    if (sets < 0 || sets > MAXM || wilds < 0 || wk < -1 || wk >= NK || extra < 0 ||
        reserve < 0 || n_det < 1 || n_det > 100000 ||
        in_hands + extra > np || np + nf - in_hands - extra != wall_len) {
        PyErr_SetString(PyExc_ValueError, "the unseen tiles do not fill the hands and the wall");
        return NULL;
    }
    for (Py_ssize_t j = 0; j < nc; j++) {
        int bad;
        if (!from) {
            int k = cand[j];
            bad = k >= NK || (k == wk ? wilds < 1 : hand[k] < 1);
        } else {
            int a = cand[2 * j], b = cand[2 * j + 1];
            bad = !(a == 255 && b == 255) &&
                  (a >= NK || b >= NK || a == wk || b == wk || hand[a] < 1 || hand[b] < 1 ||
                   (a == b && hand[a] < 2));
        }
        if (bad) {
            PyErr_SetString(PyExc_ValueError, "a candidate the hand does not hold");
            return NULL;
        }
    }
    memcpy(bv.left, unseen, NK);
    if (!memo_ready()) return NULL;
    PyObject *res = PyBytes_FromStringAndSize(NULL, (Py_ssize_t)n_det * nc);
    if (!res) return NULL;
    char *out = PyBytes_AS_STRING(res);
    /* the GIL stays held: the memo is shared by every thread of the process */
    uint64_t rng = seed;
    Sim base, sim;
    memset(&base, 0, sizeof base);
    base.reserve = reserve;
    base.wk = wk;
    base.flowers = flowers;
    for (int d = 0; d < n_det; d++) {
      for (int attempt = 0;; attempt++) {
        int8_t deal[160];
        memcpy(deal, pool, np);
        shuffle(deal, np, &rng);
        int at = 0;
        seat_set(&base.s[0], hand, wilds, sets, dead);
        for (int o = 0; o < 3; o++) {
            int8_t c[NK];
            int w = 0;
            memset(c, 0, NK);
            for (int j = 0; j < sizes[o]; j++) {
                int k = deal[at++];
                if (k == wk)
                    w++;
                else
                    c[k]++;
            }
            /* the opponents count like the baseline: no dead kinds */
            seat_set(&base.s[o + 1], c, w, osets[o], 0);
            base.s[o + 1].sh = seat_shanten(&base.s[o + 1]);
        }
        at += extra;
        /* warm-up: each opponent draws and discards warm[o] times by its own rule (the tiles
         * it let go return to the wall), so its hand is shaped like one that has been played,
         * not a fresh random deal */
        int8_t back_in[160];
        int nb = 0;
        for (int o = 0; o < 3; o++)
            for (int j = 0; j < warm[o] && at < np; j++) {
                Seat *s = &base.s[o + 1];
                int k = deal[at++];
                if (k == wk)
                    s->wilds++;
                else
                    seat_add(s, k);
                back_in[nb++] = (int8_t)choose_discard(s, wk, NULL);
            }
        int nw = 0;
        for (int j = at; j < np; j++) base.wall[nw++] = deal[j];
        for (int j = 0; j < nb; j++) base.wall[nw++] = back_in[j];
        for (int j = 0; j < nf; j++) base.wall[nw++] = fl[j];
        shuffle(base.wall, nw, &rng);
        base.front = 0;
        base.back = nw;
        /* a deal where an opponent's hand wins on a tile it let pass is redealt (up to
         * `redeal` times): at the table it would have 胡'd */
        int fits = 1;
        for (int o = 0; o < 3 && fits && attempt < redeal; o++) {
            Seat *s = &base.s[o + 1];
            if (!passed[o]) continue;
            for (int k = 0; k < NK && fits; k++) {
                if (!((passed[o] >> k) & 1) || k == wk) continue;
                if (s->sh <= 0 && s->c[k] < 4 && wins_with(s, k)) fits = 0;
                /* `peng_passed`: nor a 碰 it let pass that would have lowered its shanten (the
                 * baseline's claim rule) */
                if (fits && peng_passed && s->c[k] >= 2) {
                    Seat probe = *s;
                    if (try_meld(&probe, k, k, wk, NULL) >= 0) fits = 0;
                }
            }
        }
        if (fits) break;
      }
        for (Py_ssize_t j = 0; j < nc; j++) {
            sim = base;
            Seat *me = &sim.s[0];
            BotView view = bv;
            int w;
            if (!from) {
                int k = cand[j];
                if (k == wk)
                    me->wilds--;
                else
                    seat_del(me, k);
                me->sh = seat_shanten(me);
                w = play_out(&sim, &view, 0, k, 0, 0);
            } else {
                me->sh = seat_shanten(me);
                if (cand[2 * j] == 255)
                    w = play_out(&sim, &view, from, tile, 0, 1);
                else
                    w = play_claim(&sim, &view, from, tile, cand[2 * j], cand[2 * j + 1]);
            }
            out[(Py_ssize_t)d * nc + j] = (char)(w == 0 ? 1 : (w < 0 ? 0 : 2));
        }
    }
    return res;
}

/* a baseline seat of the given counts (2 to 17 tiles, at least one set), for the two checks
 * below; it releases `buf`, which the caller's PyArg_ParseTuple acquired ("y*") */
static int baseline_seat(Py_buffer *buf, int wilds, int sets, unsigned long long dead, Seat *s) {
    int8_t c[NK];
    int ok = read_counts(buf, c, NK, "counts");
    PyBuffer_Release(buf);
    if (!ok || !memo_ready()) return 0;
    int total = wilds;
    for (int k = 0; k < NK; k++) total += c[k];
    if (wilds < 0 || sets < 1 || total > 17 || total < 2) {
        PyErr_SetString(PyExc_ValueError, "2 to 17 tiles and at least one set expected");
        return 0;
    }
    seat_set(s, c, wilds, sets, (uint64_t)dead);
    return 1;
}

static PyObject *py_discard(PyObject *self, PyObject *args) {
    Py_buffer buf;
    int wilds, sets;
    unsigned long long dead;
    Seat s;
    if (!PyArg_ParseTuple(args, "y*iiK", &buf, &wilds, &sets, &dead)) return NULL;
    if (!baseline_seat(&buf, wilds, sets, dead, &s)) return NULL;
    int k = choose_discard(&s, NK, NULL);
    return Py_BuildValue("(ii)", k, s.sh);
}

static PyObject *py_meld(PyObject *self, PyObject *args) {
    Py_buffer buf;
    int wilds, sets, a, b;
    unsigned long long dead;
    Seat s;
    if (!PyArg_ParseTuple(args, "y*iiKii", &buf, &wilds, &sets, &dead, &a, &b)) return NULL;
    if (!baseline_seat(&buf, wilds, sets, dead, &s)) return NULL;
    if (a < 0 || a >= NK || b < 0 || b >= NK || s.c[a] < 1 || s.c[b] < 1 + (a == b)) {
        PyErr_SetString(PyExc_ValueError, "the meld's two kinds must be in the hand");
        return NULL;
    }
    s.sh = seat_shanten(&s);
    return PyLong_FromLong(try_meld(&s, a, b, NK, NULL));
}

static PyMethodDef methods[] = {
    {"discard", py_discard, METH_VARARGS,
     "discard(counts: bytes[34], wilds, sets, dead) -> (kind, shanten): the simulated "
     "baseline's discard (34: a wild) of a 3k+2 hand and the shanten it leaves."},
    {"meld", py_meld, METH_VARARGS,
     "meld(counts: bytes[34], wilds, sets, dead, a, b) -> int: the simulated baseline's "
     "discard after a 碰 / 吃 taking kinds a and b from a 3k+1 hand, or -1 when it would not "
     "claim (the meld does not lower its shanten)."},
    {"shanten", py_shanten, METH_VARARGS,
     "shanten(counts: bytes[34], wilds, sets, dead) -> int: bot.regular_shanten in C."},
    {"search", py_search, METH_VARARGS,
     "search(hand, wilds, sets, opp_sizes, opp_sets, opp_warm, unseen, extra, wall_len, "
     "reserve, wild_kind, flowers, dead, from_seat, tile, candidates, n_det, seed, peng_w, "
     "chi_w[, passed, redeal, peng_passed]) -> bytes: the simulated outcomes."},
    {NULL, NULL, 0, NULL}};

static struct PyModuleDef module = {PyModuleDef_HEAD_INIT, "_mjsim",
                                    "Mahjong shanten with wilds and a table simulator in C.", -1,
                                    methods};

PyMODINIT_FUNC PyInit__mjsim(void) { return PyModule_Create(&module); }
