/*
 * games.rules.doudizhu._movegen: the 斗地主 legal-play generator in C.
 *
 * This is a port of _classic and _wild in patterns.py, which stay the reference: for every
 * input the functions here return the same list of strings in the same order (the
 * differential test in tests/test_native_movegen.py checks it). It exists because a CPython
 * generator costs 30-40 us per call without 癩子 and several ms leading with four 癩子, while
 * the goals are about 1 us and under 1 ms.
 *
 * Representation. A multiset of cards is a uint64_t with 3 bits per rank
 * (count << 3 * rank, ranks 0 = '3' ... 12 = '2', 13 = 'B', 14 = 'R'), so adding two multisets
 * is adding two integers. A packed multiset is written as its sorted card string the way the
 * Python string tables _S0/_S1/_S2 do: in three groups of five ranks, and a group holding an
 * impossible count (over 4, or over 1 for a joker) writes nothing, exactly as the Python table
 * lookup gives "" for it.
 *
 * Algorithm (the same as the Python one). Each card type is generated once per (kind, main
 * ranks): without 癩子 from the rank counts (maximal runs of ranks for the chains, kicker
 * multisets enumerated on the packed vectors); with 癩子 the main group is filled from the
 * natural cards with 癩子 making up what is missing and, with spare 癩子, every way of replacing
 * natural cards too, crossed with the kicker sets of the other ranks. Every play string goes
 * into one flat character buffer with an entry (bucket key, offset, length, its first 16 bytes
 * as two big-endian integers); the entries are then ordered by bucket (bomb tier, main rank,
 * size: a counting sort over the buckets in use of the 375 possible) and by string inside a
 * bucket (merge sort; the prefix words compare as integers, the rest with memcmp), airplanes
 * that read two ways are deduplicated as the Python code does (a hash set across buckets), and
 * the Python list of str is built once at the end. The classic plays of a fixed shape (runs of
 * a rank, 三帶一/三帶二, chains) are str constants made when the module loads, since making a
 * str costs more than generating the play; no result is cached between calls.
 *
 * Entry points (all validate their arguments and raise ValueError/TypeError on bad ones):
 *   classic(counts: bytes[15], want, length, rank, tier, size) -> list[str]
 *   wild(counts: bytes[15], laizi_rank, want, length, rank, tier, size) -> list[str]
 *   legal_plays(hand: str, last: str | None, laizi_rank: int) -> list[str] | None
 * ``want`` is 0 when leading, else the kind code of the play to beat (KIND_* below, the same
 * numbering as patterns._KIND_CODE); ``rank``/``length``/``tier`` are that play's fields.
 * legal_plays is patterns.legal_plays in one call (laizi_rank -1 without 癩子): it reads a plain
 * ``last`` naturally like patterns._read_plain (in a 癩子 room a natural play reads as itself,
 * a bomb of the 癩子 rank being the pure one) and appends 'pass' when following; it returns None
 * whenever the Python code must decide (a character that is no card, an impossible hand, a
 * ``cards/reading`` play, a play with no natural reading).
 */
#define PY_SSIZE_T_CLEAN
#include <Python.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

static const char RANK_CHARS[] = "3456789TJQKA2BR";
enum { NRANKS = 15, ACE = 11, TWO = 12, SMALL = 13, BIG = 14 };
enum { TIER_NONE = 0, TIER_SOFT = 1, TIER_HARD = 2, TIER_PURE = 3, TIER_ROCKET = 4 };
enum {
    KIND_LEAD = 0, KIND_SINGLE, KIND_PAIR, KIND_TRIO, KIND_TRIO_SINGLE, KIND_TRIO_PAIR,
    KIND_CHAIN, KIND_PAIR_CHAIN, KIND_PLANE, KIND_PLANE_SOLO, KIND_PLANE_PAIR,
    KIND_FOUR_TWO_SOLO, KIND_FOUR_TWO_PAIR, KIND_BOMB, KIND_ROCKET,
    KIND_BOMB_ONLY, /* internal: following a bomb or the rocket */
    KIND_COUNT
};
/* valid lengths (in units) of the kinds whose main group is a chain; 0 = not a chain kind */
static const int CHAIN_MIN[KIND_COUNT] = {[KIND_CHAIN] = 5, [KIND_PAIR_CHAIN] = 3,
                                          [KIND_PLANE] = 2, [KIND_PLANE_SOLO] = 2,
                                          [KIND_PLANE_PAIR] = 2};
static const int CHAIN_MAX[KIND_COUNT] = {[KIND_CHAIN] = 12, [KIND_PAIR_CHAIN] = 10,
                                          [KIND_PLANE] = 6, [KIND_PLANE_SOLO] = 5,
                                          [KIND_PLANE_PAIR] = 4};
/* _PRIORITY in patterns.py: which reading a play on the table is read as */
static const int PRIORITY[KIND_COUNT] = {
    [KIND_ROCKET] = 0, [KIND_BOMB] = 1, [KIND_SINGLE] = 2, [KIND_PAIR] = 3, [KIND_TRIO] = 4,
    [KIND_TRIO_SINGLE] = 5, [KIND_TRIO_PAIR] = 6, [KIND_CHAIN] = 7, [KIND_PAIR_CHAIN] = 8,
    [KIND_PLANE] = 9, [KIND_FOUR_TWO_SOLO] = 10, [KIND_FOUR_TWO_PAIR] = 11,
    [KIND_PLANE_SOLO] = 12, [KIND_PLANE_PAIR] = 13};

#define BIT(r) ((uint64_t)1 << (3 * (r)))
#define MAX_SIZE 20                       /* no play has more cards (lengths are checked) */
/* dense bucket keys: tier 0 by (top, size), then the bombs by (tier, top) */
#define NKEYS (NRANKS * (MAX_SIZE + 1) + 4 * NRANKS)
#define MAX_PLAY_CHARS 128                /* cards + '/' + reading, with room to spare */

static inline int key_plain(int top, int size) { return top * (MAX_SIZE + 1) + size; }
static inline int key_bomb(int tier, int top) {
    return NRANKS * (MAX_SIZE + 1) + (tier - 1) * NRANKS + top;
}

/* ------------------------------------------------------------------------------------------ */
/* the output: play strings in one char buffer, one entry each */

typedef struct {
    uint64_t prefix; /* the first 8 bytes big-endian, zero padded: orders as the string does */
    uint64_t prefix2; /* the next 8 (plays of one bucket often share their first 8) */
    uint32_t off;    /* into Gen.chars, or a constant's index in CONSTANTS when is_const */
    uint16_t key;
    uint8_t len;     /* DROPPED once the entry is found to repeat an earlier one */
    uint8_t is_const;
} Entry; /* 24 bytes: the sort moves every entry several times, so it is kept small */

#define DROPPED 0xff /* no play is that long (MAX_PLAY_CHARS) */

/* a play string built once when the module loads (the fixed classic plays) */
typedef struct {
    PyObject *obj;   /* borrowed from the module's _constants list */
    uint64_t prefix, prefix2;
    uint32_t index;  /* its place in that list */
    uint16_t len;
} Const;

static PyObject *CONSTANTS; /* list owning every constant str */

#define STACK_ENTRIES 256
#define STACK_CHARS 4096

typedef struct {
    Entry *entries;
    size_t count, cap;
    char *chars;
    size_t used, room;
    int failed;                   /* out of memory: the caller raises MemoryError */
    uint64_t dedup[(NKEYS + 63) / 64]; /* buckets whose repeats are dropped (airplanes) */
    int any_dedup;
    int pooled;                   /* the buffers (and the sort space) are POOL's */
    Entry entries_stack[STACK_ENTRIES];
    char chars_stack[STACK_CHARS];
} Gen;

static void gen_init(Gen *g) {
    g->entries = g->entries_stack;
    g->count = 0;
    g->cap = STACK_ENTRIES;
    g->chars = g->chars_stack;
    g->used = 0;
    g->room = STACK_CHARS;
    g->failed = 0;
    g->any_dedup = 0;
    g->pooled = 0;
    memset(g->dedup, 0, sizeof g->dedup);
}

#define KEY_BIT(set, key) ((set)[(key) >> 6] >> ((key) & 63) & 1)
#define SET_KEY_BIT(set, key) ((set)[(key) >> 6] |= (uint64_t)1 << ((key) & 63))
static inline void mark_dedup(Gen *g, int key) {
    SET_KEY_BIT(g->dedup, key);
    g->any_dedup = 1;
}

/* Scratch memory kept from one 癩子 call to the next (memory only, never a result). A lead
 * with four 癩子 needs ~1.5 MB for its entries, characters and sort space; malloc serves
 * blocks that large as fresh pages (mmap) and gives them back on free, and touching them
 * again cost ~200 page faults a call, a fifth of its time. The pool keeps the largest blocks a
 * call has used. One call holds it at a time: a call that starts while it is out (a
 * finalizer run by the garbage collector inside gen_finish may call legal_plays) uses the
 * stack buffers and malloc as before. The blocks live as long as the process. */
static struct {
    int busy;
    Entry *entries;
    size_t entries_cap;
    char *chars;
    size_t chars_room;
    Entry *sort; /* gen_finish: the sorted entries and the merge sort's second array */
    size_t sort_cap;
} POOL;

enum { POOL_ENTRIES = 16384, POOL_AVG_CHARS = 24 }; /* the first blocks: a large lead's size */

static void gen_take_pool(Gen *g) {
    if (POOL.busy) return;
    if (!POOL.entries) {
        POOL.entries = malloc(POOL_ENTRIES * sizeof(Entry));
        POOL.chars = malloc(POOL_ENTRIES * POOL_AVG_CHARS);
        if (!POOL.entries || !POOL.chars) { /* not fatal: the stack buffers grow as usual */
            free(POOL.entries);
            free(POOL.chars);
            POOL.entries = NULL;
            POOL.chars = NULL;
            return;
        }
        POOL.entries_cap = POOL_ENTRIES;
        POOL.chars_room = POOL_ENTRIES * POOL_AVG_CHARS;
    }
    POOL.busy = 1;
    g->pooled = 1;
    g->entries = POOL.entries;
    g->cap = POOL.entries_cap;
    g->chars = POOL.chars;
    g->room = POOL.chars_room;
}

static void gen_free(Gen *g) {
    if (g->pooled) { /* back to the pool, as grow() may have moved and enlarged them */
        POOL.entries = g->entries;
        POOL.entries_cap = g->cap;
        POOL.chars = g->chars;
        POOL.chars_room = g->room;
        POOL.busy = 0;
        return;
    }
    if (g->entries != g->entries_stack) free(g->entries);
    if (g->chars != g->chars_stack) free(g->chars);
}

static int grow(void **buf, void *stack_buf, size_t *cap, size_t item, size_t need) {
    size_t cap2 = *cap;
    while (cap2 < need) {
        if (cap2 > ((size_t)1 << 40) / item) return -1;
        cap2 *= 2;
    }
    void *p;
    if (*buf == stack_buf) {
        p = malloc(cap2 * item);
        if (p) memcpy(p, *buf, *cap * item);
    } else {
        p = realloc(*buf, cap2 * item);
    }
    if (!p) return -1;
    *buf = p;
    *cap = cap2;
    return 0;
}

/* room for one more play of at most MAX_PLAY_CHARS characters; NULL when out of memory */
static inline char *gen_reserve(Gen *g) {
    if (g->failed) return NULL;
    if (g->used + MAX_PLAY_CHARS > g->room &&
        (g->used > UINT32_MAX - 2 * MAX_PLAY_CHARS ||
         grow((void **)&g->chars, g->chars_stack, &g->room, 1, g->used + MAX_PLAY_CHARS))) {
        g->failed = 1;
        return NULL;
    }
    if (g->count == g->cap &&
        grow((void **)&g->entries, g->entries_stack, &g->cap, sizeof(Entry), g->count + 1)) {
        g->failed = 1;
        return NULL;
    }
    return g->chars + g->used;
}

/* s has at least 8 readable bytes (every play is written into a MAX_PLAY_CHARS reservation) */
static inline uint64_t prefix_of(const char *s, size_t len) {
    uint64_t p;
#if defined(__GNUC__) && defined(__BYTE_ORDER__) && __BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__
    memcpy(&p, s, 8);
    p = __builtin_bswap64(p);
#else
    size_t i;
    p = 0;
    for (i = 0; i < 8; i++) p = (p << 8) | (uint8_t)s[i];
#endif
    return len >= 8 ? p : len ? p & ~(~(uint64_t)0 >> (8 * len)) : 0;
}

/* the play just written at gen_reserve()'s pointer, ``len`` characters, into bucket ``key`` */
static inline void gen_commit(Gen *g, int key, size_t len) {
    Entry *e = &g->entries[g->count++];
    e->is_const = 0;
    e->off = (uint32_t)g->used;
    e->len = (uint8_t)len;
    e->key = (uint16_t)key;
    e->prefix = prefix_of(g->chars + g->used, len);
    e->prefix2 = len > 8 ? prefix_of(g->chars + g->used + 8, len - 8) : 0;
    g->used += len;
}

static inline char *put_run(char *p, int rank, int n) {
    char ch = RANK_CHARS[rank];
    while (n-- > 0) *p++ = ch;
    return p;
}

/* the slow path of put_packed: some 5-rank group holds an impossible count */
static char *put_packed_groups(char *p, uint64_t v) {
    int group, i;
    for (group = 0; group < 3; group++) {
        uint64_t seg = group < 2 ? (v >> (15 * group)) & 0x7fff : v >> 30;
        int ok = seg < 0x8000;
        for (i = 0; i < 5 && ok; i++) {
            unsigned n = (unsigned)(seg >> (3 * i)) & 7;
            if (n > (group == 2 && i >= 3 ? 1u : 4u)) ok = 0;
        }
        if (!ok) continue; /* the Python table has no string for this group: it writes "" */
        for (i = 0; i < 5; i++) p = put_run(p, 5 * group + i, (int)(seg >> (3 * i)) & 7);
    }
    return p;
}

#define FIELD_LOW 0x1249249249249ull /* bit 0 of each of the 15 rank fields */
#define JOKER_FIELDS (BIT(SMALL) * 7 + BIT(BIG) * 7)

static inline int lowest_bit(uint64_t v) {
#if defined(__GNUC__)
    return __builtin_ctzll(v);
#else
    int i = 0;
    while (!(v & 1)) v >>= 1, i++;
    return i;
#endif
}

/* the characters of two adjacent ranks 2i, 2i+1 with counts (a, b) = 6 bits of a packed
 * multiset: PAIR_CHARS[i][a + 8 * b] holds them (zero padded to 8), PAIR_LEN[i][..] how many.
 * Built at import; 8 KB, so it stays in the L1 cache while a call writes its plays. */
static uint64_t PAIR_CHARS[8][64];
static uint8_t PAIR_LEN[8][64];

/* the sorted card string of a packed multiset, as _S0[v & 32767] + _S1[..] + _S2[v >> 30].
 * Writes up to 7 bytes past the string (the caller's buffer has MAX_PLAY_CHARS of room): each
 * pair of ranks stores eight characters and advances by its count. Two ranks per table lookup
 * rather than a loop over the ranks present: this is the most frequent step of a 癩子 call
 * (the cards of every play, the reading of every kicker set). */
static inline char *put_packed(char *p, uint64_t v) {
    uint64_t over_four = (v >> 2) & (v | (v >> 1)) & FIELD_LOW; /* a field of 5, 6 or 7 */
    if (over_four || ((v & JOKER_FIELDS) & ~(BIT(SMALL) | BIT(BIG))) || v >> 45)
        return put_packed_groups(p, v);
    for (int i = 0; v; i++, v >>= 6) {
        unsigned f = (unsigned)(v & 63);
        memcpy(p, &PAIR_CHARS[i][f], 8);
        p += PAIR_LEN[i][f];
    }
    return p;
}

static inline void add_packed(Gen *g, int key, uint64_t v) {
    char *start = gen_reserve(g);
    if (!start) return;
    gen_commit(g, key, (size_t)(put_packed(start, v) - start));
}

/* a constant play: no characters to write, no str to build */
static inline void add_const(Gen *g, int key, const Const *c) {
    if (g->failed) return;
    if (g->count == g->cap &&
        grow((void **)&g->entries, g->entries_stack, &g->cap, sizeof(Entry), g->count + 1)) {
        g->failed = 1;
        return;
    }
    Entry *e = &g->entries[g->count++];
    e->is_const = 1;
    e->prefix = c->prefix;
    e->prefix2 = c->prefix2;
    e->len = (uint8_t)c->len;
    e->key = (uint16_t)key;
    e->off = c->index;
}

static inline void add_run(Gen *g, int key, int rank, int n) {
    char *start = gen_reserve(g);
    if (!start) return;
    gen_commit(g, key, (size_t)(put_run(start, rank, n) - start));
}

/* ------------------------------------------------------------------------------------------ */
/* ordering: by bucket key, then by string; then the Python list */

static inline const char *entry_chars(const Gen *g, const Entry *e) {
    return e->is_const ? (const char *)PyUnicode_1BYTE_DATA(PyList_GET_ITEM(CONSTANTS, e->off))
                       : g->chars + e->off;
}

static inline int entry_less(const Gen *g, const Entry *a, const Entry *b) {
    if (a->prefix != b->prefix) return a->prefix < b->prefix;
    if (a->prefix2 != b->prefix2) return a->prefix2 < b->prefix2;
    if (a->len <= 16 || b->len <= 16) return a->len < b->len;
    size_t n = (a->len < b->len ? a->len : b->len) - 16;
    int d = memcmp(entry_chars(g, a) + 16, entry_chars(g, b) + 16, n);
    return d ? d < 0 : a->len < b->len;
}

static inline int entry_equal(const Gen *g, const Entry *a, const Entry *b) {
    return a->prefix == b->prefix && a->prefix2 == b->prefix2 && a->len == b->len &&
           (a->len <= 16 || !memcmp(entry_chars(g, a) + 16, entry_chars(g, b) + 16, a->len - 16));
}

static void insertion_sort(const Gen *g, Entry *e, size_t n) {
    size_t i, j;
    for (i = 1; i < n; i++) {
        Entry x = e[i];
        for (j = i; j > 0 && entry_less(g, &x, &e[j - 1]); j--) e[j] = e[j - 1];
        e[j] = x;
    }
}

/* merge sort of a[0..n) by string, the result left in a (to_a) or in b; the other array is
 * scratch of n entries. The halves are sorted into the array the merge reads from, so each
 * level moves every entry once (copying the merged run back cost a third of the sort). */
static void merge_sort(const Gen *g, Entry *a, Entry *b, size_t n, int to_a) {
    if (n <= 16) {
        insertion_sort(g, a, n);
        if (!to_a) memcpy(b, a, n * sizeof(Entry));
        return;
    }
    size_t half = n / 2, i = 0, j = half, k = 0;
    merge_sort(g, a, b, half, !to_a);
    merge_sort(g, a + half, b + half, n - half, !to_a);
    Entry *src = to_a ? b : a, *dst = to_a ? a : b;
    if (!entry_less(g, &src[half], &src[half - 1])) { /* already in order */
        memcpy(dst, src, n * sizeof(Entry));
        return;
    }
    while (i < half && j < n) dst[k++] = entry_less(g, &src[j], &src[i]) ? src[j++] : src[i++];
    while (i < half) dst[k++] = src[i++];
    while (j < n) dst[k++] = src[j++];
}

static inline int key_less(const Gen *g, const Entry *a, const Entry *b) {
    return a->key != b->key ? a->key < b->key : entry_less(g, a, b);
}

/* a hash of the string, eight bytes at a time (a byte-wise FNV was 3 % of a 14,000-reading
 * call): the two prefix words, then the rest in 8-byte words, the last one ending at the end
 * of the string (it may overlap the one before). Only the airplane buckets are hashed. */
static uint64_t hash_entry(const Gen *g, const Entry *e) {
    uint64_t h = (e->prefix * 0x9e3779b97f4a7c15ull) ^ e->len;
    h = (h ^ e->prefix2) * 0xff51afd7ed558ccdull;
    if (e->len > 16) {
        const char *s = entry_chars(g, e);
        size_t i;
        uint64_t word;
        for (i = 16; i + 8 < e->len; i += 8) {
            memcpy(&word, s + i, 8);
            h = (h ^ word) * 0xc4ceb9fe1a85ec53ull;
        }
        memcpy(&word, s + e->len - 8, 8);
        h = (h ^ word) * 0xc4ceb9fe1a85ec53ull;
    }
    return h ^ (h >> 29);
}

static PyObject *make_str(const char *s, size_t len) {
    if (len == 1) return PyUnicode_FromStringAndSize(s, 1); /* CPython's shared 1-char str */
    PyObject *o = PyUnicode_New((Py_ssize_t)len, 127);
    if (o) memcpy(PyUnicode_1BYTE_DATA(o), s, len);
    return o;
}

static PyObject *PASS_STR; /* 'pass', appended by legal_plays when following */

/* the entries in their final order: by bucket and string, the repeated airplanes marked
 * DROPPED (gen_sort); its memory is given back by sorted_free */
typedef struct {
    Entry *order;     /* g->entries (sorted in place) or `sorted` */
    size_t n;
    Entry *sorted, *tmp;
    Entry sort_stack[2 * STACK_ENTRIES];
} Sorted;

static void sorted_free(const Gen *g, Sorted *s) {
    if (s->sorted && s->sorted != s->sort_stack && !(g->pooled && s->sorted == POOL.sort)) {
        free(s->sorted);
        free(s->tmp);
    }
    s->sorted = s->tmp = NULL;
}

/* order the entries and mark the repeated airplanes; -1 when out of memory (no exception set) */
static int gen_sort(Gen *g, Sorted *s) {
    size_t *seen = NULL, seen_mask = 0, n = g->count, i;
    s->sorted = s->tmp = NULL;
    s->n = n;
    if (g->failed) return -1;
    Entry *order = g->entries;
    if (n <= 12) {
        for (i = 1; i < n; i++) { /* small: insertion sort on (key, string) */
            Entry x = order[i];
            size_t j;
            for (j = i; j > 0 && key_less(g, &x, &order[j - 1]); j--) order[j] = order[j - 1];
            order[j] = x;
        }
    } else {
        /* counting sort over the buckets in use only (a bit set of the keys seen) */
        uint64_t used[(NKEYS + 63) / 64] = {0};
        size_t at_key[NKEYS], w, total = 0;
        if (n <= STACK_ENTRIES) {
            s->sorted = s->sort_stack;
            s->tmp = s->sort_stack + STACK_ENTRIES;
        } else if (g->pooled) { /* the pool's sort space, enlarged if need be */
            if (POOL.sort_cap < 2 * n) {
                free(POOL.sort);
                POOL.sort_cap = 2 * n > 2 * POOL_ENTRIES ? 2 * n : 2 * POOL_ENTRIES;
                POOL.sort = malloc(POOL.sort_cap * sizeof(Entry));
                if (!POOL.sort) {
                    POOL.sort_cap = 0;
                    return -1;
                }
            }
            s->sorted = POOL.sort;
            s->tmp = POOL.sort + n;
        } else {
            s->sorted = malloc(n * sizeof(Entry));
            s->tmp = malloc(n * sizeof(Entry));
            if (!s->sorted || !s->tmp) {
                free(s->sorted);
                free(s->tmp);
                s->sorted = s->tmp = NULL;
                return -1;
            }
        }
        Entry *sorted = s->sorted, *tmp = s->tmp;
        for (i = 0; i < n; i++) {
            int key = order[i].key;
            if (!KEY_BIT(used, key)) {
                SET_KEY_BIT(used, key);
                at_key[key] = 0;
            }
            at_key[key]++;
        }
        for (w = 0; w < (NKEYS + 63) / 64; w++) /* bucket sizes -> bucket starts */
            for (uint64_t bits = used[w]; bits; bits &= bits - 1) {
                size_t key = 64 * w + (size_t)lowest_bit(bits), size = at_key[key];
                at_key[key] = total;
                total += size;
            }
        for (i = 0; i < n; i++) sorted[at_key[order[i].key]++] = order[i];
        size_t begin = 0; /* at_key[k] is now the end of bucket k */
        for (w = 0; w < (NKEYS + 63) / 64; w++)
            for (uint64_t bits = used[w]; bits; bits &= bits - 1) {
                size_t end = at_key[64 * w + (size_t)lowest_bit(bits)];
                if (end - begin > 1) merge_sort(g, sorted + begin, tmp, end - begin, 1);
                begin = end;
            }
        order = sorted;
    }
    s->order = order;
    if (g->any_dedup) {
        size_t in_dedup = 0, cap = 16;
        for (i = 0; i < n; i++) in_dedup += KEY_BIT(g->dedup, order[i].key);
        while (cap < 2 * in_dedup) cap *= 2;
        seen = calloc(cap, sizeof(size_t)); /* entry index + 1, 0 = empty */
        if (!seen) {
            sorted_free(g, s);
            return -1;
        }
        seen_mask = cap - 1;
        /* mark what is dropped by setting len to DROPPED */
        for (i = 0; i < n; i++) {
            Entry *e = &order[i];
            if (!KEY_BIT(g->dedup, e->key)) continue;
            if (i > 0 && order[i - 1].key == e->key && order[i - 1].len != DROPPED &&
                entry_equal(g, &order[i - 1], e)) {
                e->len = DROPPED; /* repeated inside its bucket */
                continue;
            }
            size_t slot = (size_t)hash_entry(g, e) & seen_mask;
            int dup = 0;
            while (seen[slot]) {
                if (entry_equal(g, &order[seen[slot] - 1], e)) {
                    dup = 1;
                    break;
                }
                slot = (slot + 1) & seen_mask;
            }
            if (dup) { /* already placed in an earlier bucket */
                e->len = DROPPED;
                continue;
            }
            seen[slot] = i + 1;
        }
        free(seen);
    }
    return 0;
}

/* order the entries, drop the repeated airplanes, build the list (plus 'pass' if asked) */
static PyObject *gen_finish(Gen *g, int with_pass) {
    PyObject *list = NULL;
    size_t kept = 0, i, n;
    Sorted *s = malloc(sizeof(Sorted));
    if (!s) return PyErr_NoMemory();
    if (gen_sort(g, s)) {
        free(s);
        return PyErr_NoMemory();
    }
    Entry *order = s->order;
    n = s->n;
    for (i = 0; i < n; i++) kept += order[i].len != DROPPED;
    list = PyList_New((Py_ssize_t)(kept + (with_pass ? 1 : 0)));
    if (!list) goto done;
    Py_ssize_t at = 0;
    for (i = 0; i < n; i++) {
        if (order[i].len == DROPPED) continue;
        PyObject *o;
        if (order[i].is_const) {
            o = PyList_GET_ITEM(CONSTANTS, order[i].off);
            Py_INCREF(o);
        } else {
            o = make_str(g->chars + order[i].off, order[i].len);
        }
        if (!o) {
            Py_CLEAR(list);
            goto done;
        }
        PyList_SET_ITEM(list, at++, o);
    }
    if (with_pass) {
        Py_INCREF(PASS_STR);
        PyList_SET_ITEM(list, at, PASS_STR);
    }
done:
    sorted_free(g, s);
    free(s);
    return list;
}

/* ------------------------------------------------------------------------------------------ */
/* constant plays: the classic plays of a fixed shape, built as str once at import (a str per
 * play costs ~20 ns to build, more than generating it) */

static Const RUN_CONST[NRANKS][5];          /* n cards of a rank: singles .. bombs */
static Const TRIO_SINGLE_CONST[13][NRANKS]; /* trio of r + one card of k */
static Const TRIO_PAIR_CONST[13][13];       /* trio of r + a pair of k */
static Const CHAIN_CONST[4][ACE + 1][13];   /* [per][lowest rank][length] */
static Const ROCKET_CONST;

static int make_const(Const *c, uint64_t packed) {
    char buf[MAX_PLAY_CHARS];
    size_t len = (size_t)(put_packed(buf, packed) - buf), i;
    PyObject *o = PyUnicode_FromStringAndSize(buf, (Py_ssize_t)len);
    if (!o) return -1;
    PyUnicode_InternInPlace(&o);
    if (PyList_Append(CONSTANTS, o)) {
        Py_DECREF(o);
        return -1;
    }
    Py_DECREF(o); /* the list keeps it */
    c->obj = o;
    c->index = (uint32_t)(PyList_GET_SIZE(CONSTANTS) - 1);
    c->len = (uint16_t)len;
    c->prefix = c->prefix2 = 0;
    for (i = 0; i < 8; i++) c->prefix = (c->prefix << 8) | (i < len ? (uint8_t)buf[i] : 0);
    for (i = 8; i < 16; i++) c->prefix2 = (c->prefix2 << 8) | (i < len ? (uint8_t)buf[i] : 0);
    return 0;
}

static int build_constants(void) {
    int r, k, n, per, lo;
    CONSTANTS = PyList_New(0);
    if (!CONSTANTS) return -1;
    for (r = 0; r < NRANKS; r++)
        for (n = 1; n <= (r >= SMALL ? 1 : 4); n++)
            if (make_const(&RUN_CONST[r][n], n * BIT(r))) return -1;
    for (r = 0; r < 13; r++)
        for (k = 0; k < NRANKS; k++) {
            if (k == r) continue;
            if (make_const(&TRIO_SINGLE_CONST[r][k], 3 * BIT(r) + BIT(k))) return -1;
            if (k < 13 && make_const(&TRIO_PAIR_CONST[r][k], 3 * BIT(r) + 2 * BIT(k))) return -1;
        }
    for (per = 1; per <= 3; per++)
        for (lo = 0; lo <= ACE; lo++)
            for (n = 1; lo + n - 1 <= ACE; n++) {
                uint64_t v = 0;
                for (r = lo; r < lo + n; r++) v += per * BIT(r);
                if (make_const(&CHAIN_CONST[per][lo][n], v)) return -1;
            }
    return make_const(&ROCKET_CONST, BIT(SMALL) + BIT(BIG));
}

/* ------------------------------------------------------------------------------------------ */
/* the play to beat */

typedef struct {
    int want;    /* KIND_LEAD, a kind, or KIND_BOMB_ONLY */
    int length;  /* units of the main group (chains) */
    int rank;    /* main rank; -1 when leading */
    int tier;    /* bomb tier; -1 when leading */
} Last;

/* (tier, r) > (last.tier, last.rank), always true when leading */
static inline int bomb_beats(const Last *last, int tier, int r) {
    return tier > last->tier || (tier == last->tier && r > last->rank);
}

/* ------------------------------------------------------------------------------------------ */
/* no 癩子: _classic */

typedef struct {
    Gen *g;
    const int *c;
    int key;
    uint64_t base;
} SoloCtx;

/* every multiset of exactly ``left`` more cards from ranks[i..] (at most c[r] each) */
static void classic_solo(SoloCtx *x, const int *ranks, int nranks, int i, int left, uint64_t v) {
    if (left == 0) {
        add_packed(x->g, x->key, x->base + v);
        return;
    }
    if (i == nranks) return;
    int r = ranks[i], u, most = x->c[r] < left ? x->c[r] : left;
    for (u = 0; u <= most; u++) classic_solo(x, ranks, nranks, i + 1, left - u, v + u * BIT(r));
}

/* every set of ``left`` more distinct ranks from ranks[i..], two cards each */
static void classic_pairs(SoloCtx *x, const int *ranks, int nranks, int i, int left, uint64_t v) {
    if (left == 0) {
        add_packed(x->g, x->key, x->base + v);
        return;
    }
    for (; nranks - i >= left; i++)
        classic_pairs(x, ranks, nranks, i + 1, left - 1, v + 2 * BIT(ranks[i]));
}

static void classic_gen(Gen *g, const int *c, const Last *last, int size) {
    int total = 0, present[NRANKS], np = 0, i, j, r;
    const int want = last->want, wr = last->rank, wl = last->length;
    for (r = 0; r < NRANKS; r++) {
        total += c[r];
        if (c[r]) present[np++] = r;
    }
#define WANTS(kind) (want == KIND_LEAD || want == (kind))
#define FREE(n) ((!size || size == (n)) && (n) <= total)
    if (WANTS(KIND_SINGLE) && FREE(1))
        for (i = 0; i < np; i++)
            if (present[i] > wr) add_const(g, key_plain(present[i], 1), &RUN_CONST[present[i]][1]);
    for (j = 2; j <= 3; j++)
        if (WANTS(j == 2 ? KIND_PAIR : KIND_TRIO) && FREE(j))
            for (i = 0; i < np; i++) {
                r = present[i];
                if (r > wr && r < SMALL && c[r] >= j) add_const(g, key_plain(r, j), &RUN_CONST[r][j]);
            }
    int singles = WANTS(KIND_TRIO_SINGLE) && FREE(4);
    int pairs = WANTS(KIND_TRIO_PAIR) && FREE(5);
    if (singles || pairs)
        for (i = 0; i < np; i++) {
            r = present[i];
            if (r <= wr || r >= SMALL || c[r] < 3) continue;
            for (j = 0; j < np; j++) {
                int k = present[j];
                if (k == r) continue;
                if (singles) add_const(g, key_plain(r, 4), &TRIO_SINGLE_CONST[r][k]);
                if (pairs && k < SMALL && c[k] >= 2)
                    add_const(g, key_plain(r, 5), &TRIO_PAIR_CONST[r][k]);
            }
        }
    /* maximal runs (first, end) of ranks 3..A holding at least ``per`` cards */
    int run_first[4][7], run_end[4][7], nruns[4] = {0, 0, 0, 0};
    if (want == KIND_LEAD || CHAIN_MIN[want])
        for (int per = 1; per <= 3; per++) {
            int prev = -2;
            for (r = 0; r <= ACE; r++) {
                if (c[r] < per) continue;
                if (r != prev + 1) {
                    run_first[per][nruns[per]++] = r;
                }
                run_end[per][nruns[per] - 1] = r;
                prev = r;
            }
        }
    static const int chain_kinds[3] = {KIND_CHAIN, KIND_PAIR_CHAIN, KIND_PLANE};
    for (int per = 1; per <= 3; per++) {
        int kind = chain_kinds[per - 1];
        if (!WANTS(kind)) continue;
        for (i = 0; i < nruns[per]; i++) {
            int first = run_first[per][i], end = run_end[per][i];
            int lo_len = want == KIND_LEAD ? CHAIN_MIN[kind] : wl;
            int hi_len = want == KIND_LEAD ? (CHAIN_MAX[kind] < end - first + 1 ? CHAIN_MAX[kind]
                                                                                : end - first + 1)
                                           : wl;
            for (int length = lo_len; length <= hi_len; length++) {
                int n = length * per;
                if (!FREE(n)) continue;
                int top = first + length - 1 > wr + 1 ? first + length - 1 : wr + 1;
                for (; top <= end; top++) {
                    add_const(g, key_plain(top, n), &CHAIN_CONST[per][top - length + 1][length]);
                    if (per == 3 && n == 12) mark_dedup(g, key_plain(top, n));
                }
            }
        }
    }
    for (int per_kick = 1; per_kick <= 2; per_kick++) {
        int kind = per_kick == 1 ? KIND_PLANE_SOLO : KIND_PLANE_PAIR;
        if (!WANTS(kind)) continue;
        for (i = 0; i < nruns[3]; i++) {
            int first = run_first[3][i], end = run_end[3][i];
            int lo_len = want == KIND_LEAD ? 2 : wl, hi_len = want == KIND_LEAD ? CHAIN_MAX[kind] : wl;
            for (int length = lo_len; length <= hi_len; length++) {
                int n = length * (3 + per_kick);
                if (!FREE(n)) continue;
                int top = first + length - 1 > wr + 1 ? first + length - 1 : wr + 1;
                for (; top <= end; top++) {
                    int lo = top - length + 1, ranks[NRANKS], nr = 0;
                    SoloCtx x = {g, c, key_plain(top, n), 0};
                    for (r = lo; r <= top; r++) x.base += 3 * BIT(r);
                    for (j = 0; j < np; j++) {
                        r = present[j];
                        if (r >= lo && r <= top) continue;
                        if (per_kick == 1 || (r < SMALL && c[r] >= 2)) ranks[nr++] = r;
                    }
                    if (per_kick == 1) {
                        classic_solo(&x, ranks, nr, 0, length, 0);
                        if (n == 12 || n == 16 || n == 20) mark_dedup(g, x.key);
                    } else {
                        classic_pairs(&x, ranks, nr, 0, length, 0);
                    }
                    if (g->failed) return;
                }
            }
        }
    }
    int solo42 = WANTS(KIND_FOUR_TWO_SOLO) && FREE(6);
    int pair42 = WANTS(KIND_FOUR_TWO_PAIR) && FREE(8);
    if (solo42 || pair42)
        for (i = 0; i < np; i++) {
            r = present[i];
            if (r <= wr || r >= SMALL || c[r] != 4) continue;
            int ranks[NRANKS], nr = 0;
            SoloCtx x = {g, c, key_plain(r, 6), 4 * BIT(r)};
            if (solo42) {
                for (j = 0; j < np; j++)
                    if (present[j] != r) ranks[nr++] = present[j];
                classic_solo(&x, ranks, nr, 0, 2, 0);
            }
            if (pair42) {
                nr = 0;
                for (j = 0; j < np; j++)
                    if (present[j] != r && present[j] < SMALL && c[present[j]] >= 2)
                        ranks[nr++] = present[j];
                x.key = key_plain(r, 8);
                classic_pairs(&x, ranks, nr, 0, 2, 0);
            }
        }
    if (!size || size == 4)
        for (i = 0; i < np; i++) {
            r = present[i];
            if (r < SMALL && c[r] == 4 && bomb_beats(last, TIER_HARD, r))
                add_const(g, key_bomb(TIER_HARD, r), &RUN_CONST[r][4]);
        }
    if ((!size || size == 2) && c[SMALL] && c[BIG] && last->tier < TIER_ROCKET)
        add_const(g, key_bomb(TIER_ROCKET, BIG), &ROCKET_CONST);
#undef FREE
}

/* ------------------------------------------------------------------------------------------ */
/* with 癩子: _wild */

typedef struct {
    uint64_t cards;  /* the natural and 癩子 cards of the main group */
    int wild;        /* 癩子 among them */
} Fill;

typedef struct {
    uint64_t cards;     /* the kicker cards */
    uint32_t ys_off;    /* the reading string of main group + kickers, in WildCtx.ys */
    uint8_t ys_len;
    uint8_t same;       /* the kickers read as themselves */
    uint8_t wild;       /* 癩子 among the kicker cards */
} Kick;

#define MAX_FILLS 1100  /* <= C(14, 4) = 1001 ways to pick up to 4 cards to replace */

typedef struct {
    Gen *g;
    int nat[NRANKS];    /* natural counts (the 癩子 rank counts 0) */
    int wild;           /* 癩子 in hand */
    int lz;
    uint64_t lzb;
    int everything[NRANKS], n_everything; /* ranks with natural cards */
    Kick *kicks;
    size_t nkicks, kick_cap;
    char *ys;
    size_t ys_used, ys_room;
    Kick kicks_stack[512];
    char ys_stack[8192];
    Fill fills[MAX_FILLS];
    int nfills;
    /* while building kickers */
    uint64_t reading;   /* the main group's reading */
    uint64_t main_mask; /* its ranks, one bit each */
    int k;              /* kicker units */
    int max_wild;       /* 癩子 the kickers may hold: those the main group leaves at least */
    int free_rank;      /* solo: what a 癩子 kicker reads as */
} WildCtx;

static void add_kick(WildCtx *w, uint64_t cards, uint64_t reading, int same, int wild) {
    Gen *g = w->g;
    if (g->failed) return;
    if (w->nkicks == w->kick_cap &&
        grow((void **)&w->kicks, w->kicks_stack, &w->kick_cap, sizeof(Kick), w->nkicks + 1)) {
        g->failed = 1;
        return;
    }
    if (w->ys_used + MAX_PLAY_CHARS > w->ys_room &&
        (w->ys_used > UINT32_MAX - 2 * MAX_PLAY_CHARS ||
         grow((void **)&w->ys, w->ys_stack, &w->ys_room, 1, w->ys_used + MAX_PLAY_CHARS))) {
        g->failed = 1;
        return;
    }
    Kick *kk = &w->kicks[w->nkicks++];
    char *start = w->ys + w->ys_used;
    kk->cards = cards;
    kk->ys_off = (uint32_t)w->ys_used;
    kk->ys_len = (uint8_t)(put_packed(start, reading) - start);
    kk->same = (uint8_t)same;
    kk->wild = (uint8_t)wild;
    w->ys_used += kk->ys_len;
}

/* solo_kickers: natural multisets of ranks[i..] reaching between smallest and k cards;
 * the rest (j = k - size) are 癩子 read as free_rank */
static void wild_solo(WildCtx *w, const int *ranks, int nranks, int i, int size, uint64_t v,
                      int smallest) {
    if (i == nranks) {
        if (size < smallest) return;
        int j = w->k - size, f = w->free_rank;
        /* free_rank is the 癩子 rank or the lowest rank outside the main group; in the latter
         * case the natural kickers may hold that rank already, and the reading must not get
         * more than four of it (solo_kickers in patterns.py: the next rank outside main) */
        if (j && f != w->lz && w->k > 4)
            while ((w->main_mask >> f & 1) || (int)((v >> (3 * f)) & 7) + j > 4) f++;
        uint64_t fb = BIT(f);
        add_kick(w, v + j * w->lzb, w->reading + j * fb + v, j == 0 || fb == w->lzb, j);
        return;
    }
    int r = ranks[i], u, most = w->nat[r] < w->k - size ? w->nat[r] : w->k - size;
    for (u = 0; u <= most; u++) wild_solo(w, ranks, nranks, i + 1, size + u, v + u * BIT(r), smallest);
}

/* pair_kickers: each rank skipped, a natural pair or half a pair (one natural, one 癩子);
 * the missing pairs are pure 癩子 pairs read as the 癩子 rank when free, else the lowest free */
static void wild_pairs(WildCtx *w, const int *ranks, int nranks, int i, int pairs, int half,
                       uint64_t v, uint64_t rv, uint64_t taken) {
    if (i == nranks) {
        int j = w->k - pairs;
        if (half + 2 * j > w->max_wild) return;
        taken |= w->main_mask;
        while (j-- > 0) {
            int free_rank = w->lz;
            if (taken >> w->lz & 1)
                for (free_rank = 0; taken >> free_rank & 1; free_rank++) {
                }
            taken |= (uint64_t)1 << free_rank;
            v += 2 * w->lzb;
            rv += 2 * BIT(free_rank);
            half += 2;
        }
        add_kick(w, v, w->reading + rv, v == rv, half);
        return;
    }
    int r = ranks[i];
    uint64_t b = BIT(r), m = (uint64_t)1 << r;
    wild_pairs(w, ranks, nranks, i + 1, pairs, half, v, rv, taken);
    if (pairs < w->k) {
        if (w->nat[r] >= 2)
            wild_pairs(w, ranks, nranks, i + 1, pairs + 1, half, v + 2 * b, rv + 2 * b, taken | m);
        if (half < w->max_wild)
            wild_pairs(w, ranks, nranks, i + 1, pairs + 1, half + 1, v + b + w->lzb, rv + 2 * b,
                       taken | m);
    }
}

/* the kicker rows of ``k`` solo (kick 1) or pair (kick 2) kickers outside ranks lo..hi, with
 * at most ``max_wild`` 癩子 among them: every fill of the main group takes at least its
 * shortfall of 癩子, and a kicker set with more than the rest would be built for nothing
 * (wild_emit skips it; in the largest leads more than half the kicker sets were such) */
static void build_kicks(WildCtx *w, int kick, int lo, int hi, int k, uint64_t reading,
                        int max_wild) {
    int ranks[NRANKS], nr = 0, i, r;
    w->max_wild = max_wild;
    w->nkicks = 0;
    w->ys_used = 0;
    w->reading = reading;
    w->k = k;
    w->main_mask = 0;
    for (r = lo; r <= hi; r++) w->main_mask |= (uint64_t)1 << r;
    for (i = 0; i < w->n_everything; i++) {
        r = w->everything[i];
        if (r >= lo && r <= hi) continue;
        if (kick == 1 || r < SMALL) ranks[nr++] = r;
    }
    if (kick == 1) {
        /* a 癩子 kicker reads as itself when it may, else as the lowest rank outside main */
        w->free_rank = w->lz;
        if (w->main_mask >> w->lz & 1) {
            for (r = 0; w->main_mask >> r & 1; r++) {
            }
            w->free_rank = r;
        }
        wild_solo(w, ranks, nr, 0, 0, 0, k - (max_wild < k ? max_wild : k));
    } else {
        wild_pairs(w, ranks, nr, 0, 0, 0, 0, 0, 0);
    }
}

/* fills: every way to make ``per`` of each rank lo..hi from the natural cards (``natural``
 * packed, ``shortfall`` 癩子 for what is missing), and with the spare 癩子 replacing natural
 * cards too (at most min(nat, per) of a rank) */
static void fill_more(WildCtx *w, int r, int hi, int per, int spare, uint64_t cards, int used) {
    if (w->nfills >= MAX_FILLS) return; /* cannot happen with at most 4 癩子 */
    if (r > hi || spare == 0) {
        w->fills[w->nfills].cards = cards;
        w->fills[w->nfills].wild = used;
        w->nfills++;
        return;
    }
    int most = w->nat[r] < per ? w->nat[r] : per, d;
    if (most > spare) most = spare;
    for (d = 0; d <= most; d++)
        fill_more(w, r + 1, hi, per, spare - d, cards - d * BIT(r) + d * w->lzb, used + d);
}

static void make_fills(WildCtx *w, int lo, int hi, int per, uint64_t natural, int shortfall) {
    w->nfills = 0;
    fill_more(w, lo, hi, per, w->wild - shortfall, natural + shortfall * w->lzb, shortfall);
}

/* emit: the main-group fills crossed with the kicker rows (or alone when kicks == 0) */
static void wild_emit(WildCtx *w, int key, int n, uint64_t reading, int with_kicks) {
    Gen *g = w->g;
    uint64_t allwild = n * w->lzb; /* only 癩子: their own rank, no other reading */
    int f;
    size_t i;
    if (!with_kicks) {
        char ys[MAX_PLAY_CHARS];
        size_t ylen = (size_t)(put_packed(ys, reading) - ys);
        for (f = 0; f < w->nfills; f++) {
            uint64_t x = w->fills[f].cards;
            if (x != reading && x == allwild) continue;
            char *p = gen_reserve(g), *start = p;
            if (!p) return;
            if (x != reading) {
                p = put_packed(p, x);
                *p++ = '/';
            }
            memcpy(p, ys, ylen);
            gen_commit(g, key, (size_t)(p + ylen - start));
        }
        return;
    }
    for (f = 0; f < w->nfills; f++) {
        uint64_t cm = w->fills[f].cards;
        int wm = w->fills[f].wild, natural = cm == reading;
        for (i = 0; i < w->nkicks; i++) {
            const Kick *kk = &w->kicks[i];
            if (kk->wild > w->wild - wm) continue;
            uint64_t x = cm + kk->cards;
            int plain = natural && kk->same;
            if (!plain && x == allwild) continue;
            char *p = gen_reserve(g), *start = p;
            if (!p) return;
            if (!plain) {
                p = put_packed(p, x);
                *p++ = '/';
            }
            memcpy(p, w->ys + kk->ys_off, kk->ys_len);
            gen_commit(g, key, (size_t)(p + kk->ys_len - start));
        }
    }
}

static void wild_gen(Gen *g, WildCtx *w, const int *c, int lz, const Last *last, int size) {
    int total = 0, r, i;
    const int want = last->want, wr = last->rank, wl = last->length;
    w->g = g;
    w->lz = lz;
    w->lzb = BIT(lz);
    w->wild = c[lz];
    w->n_everything = 0;
    for (r = 0; r < NRANKS; r++) {
        total += c[r];
        w->nat[r] = r == lz ? 0 : c[r];
        if (w->nat[r]) w->everything[w->n_everything++] = r;
    }
    const int wild = w->wild;
    const uint64_t lzb = w->lzb;
#define ON(kind, n) (WANTS(kind) && (!size || size == (n)) && (n) <= total)
    /* one-rank kinds: (kind, cards of the rank, kicker kind 0/1 solo/2 pair, units, size) */
    static const int simple[7][5] = {
        {KIND_SINGLE, 1, 0, 0, 1},       {KIND_PAIR, 2, 0, 0, 2},
        {KIND_TRIO, 3, 0, 0, 3},         {KIND_TRIO_SINGLE, 3, 1, 1, 4},
        {KIND_TRIO_PAIR, 3, 2, 1, 5},    {KIND_FOUR_TWO_SOLO, 4, 1, 2, 6},
        {KIND_FOUR_TWO_PAIR, 4, 2, 2, 8}};
    for (i = 0; i < 7; i++) {
        int kind = simple[i][0], need = simple[i][1], kick = simple[i][2], k = simple[i][3];
        int n = simple[i][4];
        if (!ON(kind, n)) continue;
        for (r = wr + 1 > 0 ? wr + 1 : 0; r < 13; r++) {
            int have = w->nat[r];
            if (have + wild < need) continue;
            int used = have < need ? have : need;
            if (kick) build_kicks(w, kick, r, r, k, need * BIT(r), wild - (need - used));
            make_fills(w, r, r, need, used * BIT(r), need - used);
            wild_emit(w, key_plain(r, n), n, need * BIT(r), kick != 0);
            if (g->failed) return;
        }
    }
    if (WANTS(KIND_SINGLE) && (!size || size == 1))
        for (r = SMALL; r <= BIG; r++)
            if (c[r] && r > wr) add_run(g, key_plain(r, 1), r, 1);
    /* chains and airplanes: (kind, per, kicker kind) */
    static const int groups[5][3] = {{KIND_CHAIN, 1, 0}, {KIND_PAIR_CHAIN, 2, 0},
                                     {KIND_PLANE, 3, 0}, {KIND_PLANE_SOLO, 3, 1},
                                     {KIND_PLANE_PAIR, 3, 2}};
    for (i = 0; i < 5; i++) {
        int kind = groups[i][0], per = groups[i][1], kick = groups[i][2];
        if (!WANTS(kind)) continue;
        int unit = per + kick;
        /* below rank r: shortfall[r] cards that must be 癩子, packed[r] the reading, natp[r]
         * the natural cards the main group can use */
        int shortfall[ACE + 2];
        uint64_t packed[ACE + 2], natp[ACE + 2];
        shortfall[0] = 0;
        packed[0] = natp[0] = 0;
        for (r = 0; r <= ACE; r++) {
            int n = w->nat[r];
            shortfall[r + 1] = shortfall[r] + (per > n ? per - n : 0);
            packed[r + 1] = packed[r] + per * BIT(r);
            natp[r + 1] = natp[r] + (n < per ? n : per) * BIT(r);
        }
        int lo_len = want == KIND_LEAD ? CHAIN_MIN[kind] : wl;
        int hi_len = want == KIND_LEAD ? CHAIN_MAX[kind] : wl;
        for (int length = lo_len; length <= hi_len; length++) {
            int n = unit * length;
            if ((size && size != n) || n > total) continue;
            int top = length - 1 > wr + 1 ? length - 1 : wr + 1;
            for (; top <= ACE; top++) {
                int lo = top - length + 1, need = shortfall[top + 1] - shortfall[lo];
                if (need > wild) continue;
                uint64_t reading = packed[top + 1] - packed[lo];
                if (kick) build_kicks(w, kick, lo, top, length, reading, wild - need);
                make_fills(w, lo, top, per, natp[top + 1] - natp[lo], need);
                wild_emit(w, key_plain(top, n), n, reading, kick != 0);
                if (g->failed) return;
            }
        }
    }
    /* bombs and the rocket */
    if ((!size || size == 4) && last->tier < TIER_ROCKET)
        for (r = 0; r < 13; r++) {
            int have = w->nat[r], u;
            if (have + wild < 4) continue;
            for (u = have < 4 ? have : 4; u >= (4 - wild > 0 ? 4 - wild : 0); u--) {
                int tier = u == 4 ? TIER_HARD : (u == 0 && r == lz ? TIER_PURE : TIER_SOFT);
                if (!bomb_beats(last, tier, r)) continue;
                w->fills[0].cards = u * BIT(r) + (4 - u) * lzb;
                w->fills[0].wild = 4 - u;
                w->nfills = 1;
                wild_emit(w, key_bomb(tier, r), 4, 4 * BIT(r), 0);
            }
        }
    if ((!size || size == 2) && c[SMALL] && c[BIG] && last->tier < TIER_ROCKET) {
        char *p = gen_reserve(g);
        if (!p) return;
        p[0] = 'B';
        p[1] = 'R';
        gen_commit(g, key_bomb(TIER_ROCKET, BIG), 2);
    }
    /* airplanes that also read as another airplane: the Python code dedups every plain
     * bucket of 12, 16 or 20 cards */
    for (r = 0; r < NRANKS; r++) {
        mark_dedup(g, key_plain(r, 12));
        mark_dedup(g, key_plain(r, 16));
        mark_dedup(g, key_plain(r, 20));
    }
#undef ON
#undef WANTS
}

/* ------------------------------------------------------------------------------------------ */
/* argument checks and entry points */

static int parse_counts(PyObject *obj, int *c) {
    if (!PyBytes_Check(obj)) {
        PyErr_SetString(PyExc_TypeError, "counts must be bytes");
        return -1;
    }
    if (PyBytes_GET_SIZE(obj) != NRANKS) {
        PyErr_SetString(PyExc_ValueError, "counts must hold 15 rank counts");
        return -1;
    }
    const unsigned char *s = (const unsigned char *)PyBytes_AS_STRING(obj);
    for (int r = 0; r < NRANKS; r++) {
        c[r] = s[r];
        if (c[r] > (r >= SMALL ? 1 : 4)) {
            PyErr_SetString(PyExc_ValueError, "a count over 4 (or over 1 for a joker)");
            return -1;
        }
    }
    return 0;
}

static int make_last(Last *last, int want, int length, int rank, int tier, int size) {
    if (want < 0 || want > KIND_ROCKET) {
        PyErr_SetString(PyExc_ValueError, "want is not a kind code");
        return -1;
    }
    if (size < 0 || size > MAX_SIZE) {
        PyErr_SetString(PyExc_ValueError, "size must be 0..20");
        return -1;
    }
    if (want == KIND_LEAD) {
        last->want = KIND_LEAD;
        last->length = 0;
        last->rank = last->tier = -1;
        return 0;
    }
    if (rank < -1 || rank >= NRANKS || tier < TIER_NONE || tier > TIER_ROCKET) {
        PyErr_SetString(PyExc_ValueError, "rank must be -1..14 and tier 0..4");
        return -1;
    }
    if (CHAIN_MIN[want] && (length < CHAIN_MIN[want] || length > CHAIN_MAX[want])) {
        PyErr_SetString(PyExc_ValueError, "length out of range for the kind");
        return -1;
    }
    last->want = tier ? KIND_BOMB_ONLY : want;
    last->length = length;
    last->rank = rank;
    last->tier = tier;
    return 0;
}

static PyObject *py_classic(PyObject *self, PyObject *args) {
    PyObject *counts;
    int want, length, rank, tier, size, c[NRANKS];
    Last last;
    (void)self;
    if (!PyArg_ParseTuple(args, "Oiiiii:classic", &counts, &want, &length, &rank, &tier, &size))
        return NULL;
    if (parse_counts(counts, c) || make_last(&last, want, length, rank, tier, size)) return NULL;
    Gen gen; /* ~8 KB: the common calls need no allocation */
    gen_init(&gen);
    classic_gen(&gen, c, &last, size);
    PyObject *out = gen_finish(&gen, 0);
    gen_free(&gen);
    return out;
}

static PyObject *run_wild(const int *c, int lz, const Last *last, int size, int with_pass);

static PyObject *py_wild(PyObject *self, PyObject *args) {
    PyObject *counts;
    int lz, want, length, rank, tier, size, c[NRANKS];
    Last last;
    (void)self;
    if (!PyArg_ParseTuple(args, "Oiiiiii:wild", &counts, &lz, &want, &length, &rank, &tier,
                          &size))
        return NULL;
    if (parse_counts(counts, c) || make_last(&last, want, length, rank, tier, size)) return NULL;
    if (lz < 0 || lz > TWO || c[lz] == 0) {
        PyErr_SetString(PyExc_ValueError, "laizi_rank must be 0..12 with a 癩子 in hand");
        return NULL;
    }
    return run_wild(c, lz, &last, size, 0);
}

/* _wild on valid arguments, and the list (plus 'pass' if asked) */
static PyObject *run_wild(const int *c, int lz, const Last *last, int size, int with_pass) {
    Gen *g = malloc(sizeof(Gen));
    WildCtx *w = malloc(sizeof(WildCtx));
    if (!g || !w) {
        free(g);
        free(w);
        return PyErr_NoMemory();
    }
    gen_init(g);
    gen_take_pool(g);
    w->kicks = w->kicks_stack;
    w->kick_cap = sizeof w->kicks_stack / sizeof(Kick);
    w->ys = w->ys_stack;
    w->ys_room = sizeof w->ys_stack;
    w->nkicks = w->ys_used = 0;
    wild_gen(g, w, c, lz, last, size);
    PyObject *out = gen_finish(g, with_pass);
    if (w->kicks != w->kicks_stack) free(w->kicks);
    if (w->ys != w->ys_stack) free(w->ys);
    gen_free(g);
    free(g);
    free(w);
    return out;
}

static signed char RANK_OF[256]; /* rank index of a card character, -1 if none */

/* counts of an ASCII card string; -1 on a character that is no card or an impossible count */
static int counts_of_str(PyObject *s, int *c, int *n) {
    if (!PyUnicode_Check(s) || !PyUnicode_IS_ASCII(s)) return -1;
    const unsigned char *p = PyUnicode_1BYTE_DATA(s);
    Py_ssize_t len = PyUnicode_GET_LENGTH(s), i;
    memset(c, 0, NRANKS * sizeof(int));
    for (i = 0; i < len; i++) {
        int r = RANK_OF[p[i]];
        if (r < 0) return -1;
        if (++c[r] > (r >= SMALL ? 1 : 4)) return -1;
    }
    *n = (int)len;
    return 0;
}

/* _read_plain's reading of the counts c of a play of n cards (the readings of _readings, the
 * first by (_PRIORITY, -rank)); 0 if it reads as nothing */
static int read_plain(const int *c, int n, Last *out) {
    int present[NRANKS], np = 0, r, best_kind = -1, best_rank = -1, best_len = 0;
    for (r = 0; r < NRANKS; r++)
        if (c[r]) present[np++] = r;
#define READ(kind, rank, len)                                                          \
    do {                                                                               \
        int k_ = (kind), r_ = (rank);                                                  \
        if (best_kind < 0 || PRIORITY[k_] < PRIORITY[best_kind] ||                     \
            (PRIORITY[k_] == PRIORITY[best_kind] && r_ > best_rank)) {                 \
            best_kind = k_;                                                            \
            best_rank = r_;                                                            \
            best_len = (len);                                                          \
        }                                                                              \
    } while (0)
    if (n == 0) return 0;
    if (n == 1) {
        READ(KIND_SINGLE, present[0], 1);
    } else if (n == 2) {
        if (np == 1) READ(KIND_PAIR, present[0], 1);
        else if (np == 2 && present[0] == SMALL && present[1] == BIG) READ(KIND_ROCKET, BIG, 1);
    } else if (n == 3) {
        if (np == 1) READ(KIND_TRIO, present[0], 1);
    } else {
        int four = -1, three = -1, i;
        for (i = 0; i < np; i++) {
            if (c[present[i]] == 4 && four < 0) four = present[i];
            if (c[present[i]] >= 3 && three < 0) three = present[i];
        }
        if (n == 4) {
            if (four >= 0) READ(KIND_BOMB, four, 1);
            else if (three >= 0) READ(KIND_TRIO_SINGLE, three, 1);
        } else {
            if (n == 5 && np == 2 && three >= 0 && c[three] == 3) {
                int other = present[0] == three ? present[1] : present[0];
                if (c[other] == 2) READ(KIND_TRIO_PAIR, three, 1);
            }
            int lo = present[0], hi = present[np - 1], span = hi - lo + 1;
            if (hi <= ACE && span == np) {
                int per = c[lo], same = 1;
                for (i = 0; i < np; i++) same &= c[present[i]] == per;
                static const int kind_by_per[4] = {0, KIND_CHAIN, KIND_PAIR_CHAIN, KIND_PLANE};
                static const int minimum[4] = {0, 5, 3, 2};
                if (same && per <= 3 && span >= minimum[per]) READ(kind_by_per[per], hi, span);
            }
            if (n == 6 && four >= 0) READ(KIND_FOUR_TWO_SOLO, four, 1);
            if (n == 8 && four >= 0) {
                int rest = 0, twos = 0;
                for (i = 0; i < np; i++)
                    if (present[i] != four) {
                        rest++;
                        twos += c[present[i]] == 2;
                    }
                if (rest == 2 && twos == 2) READ(KIND_FOUR_TWO_PAIR, four, 1);
            }
            if (n % 4 == 0 && n >= 8) {
                int k = n / 4, top;
                for (top = ACE; top >= k - 1; top--) {
                    int ok = 1;
                    for (r = top - k + 1; r <= top; r++) ok &= c[r] == 3;
                    if (ok) READ(KIND_PLANE_SOLO, top, k);
                }
            }
            if (n % 5 == 0 && n >= 10) {
                int k = n / 5, top;
                for (top = ACE; top >= k - 1; top--) {
                    int ok = 1, rest = 0, twos = 0;
                    for (r = top - k + 1; r <= top; r++) ok &= c[r] == 3;
                    if (!ok) continue;
                    for (i = 0; i < np; i++)
                        if (present[i] < top - k + 1 || present[i] > top) {
                            rest++;
                            twos += c[present[i]] == 2;
                        }
                    if (rest == k && twos == k) READ(KIND_PLANE_PAIR, top, k);
                }
            }
        }
    }
#undef READ
    if (best_kind < 0) return 0;
    out->want = best_kind;
    out->rank = best_rank;
    out->length = best_len;
    out->tier = best_kind == KIND_ROCKET ? TIER_ROCKET : best_kind == KIND_BOMB ? TIER_HARD
                                                                             : TIER_NONE;
    return 1;
}

static PyObject *py_legal_plays(PyObject *self, PyObject *const *args, Py_ssize_t nargs) {
    PyObject *hand, *last_obj;
    int c[NRANKS], lc[NRANKS], n, ln, following = 0;
    long lz;
    Last last = {KIND_LEAD, 0, -1, -1};
    (void)self;
    if (nargs != 3) {
        PyErr_SetString(PyExc_TypeError, "legal_plays(hand, last, laizi_rank) takes 3 arguments");
        return NULL;
    }
    hand = args[0];
    last_obj = args[1];
    lz = PyLong_AsLong(args[2]);
    if (lz == -1 && PyErr_Occurred()) return NULL;
    if (lz < -1 || lz > TWO) {
        PyErr_SetString(PyExc_ValueError, "laizi_rank must be -1 (none) or 0..12");
        return NULL;
    }
    if (counts_of_str(hand, c, &n)) Py_RETURN_NONE;
    if (last_obj != Py_None) {
        if (!PyUnicode_Check(last_obj)) Py_RETURN_NONE;
        if (PyUnicode_CompareWithASCIIString(last_obj, "pass") != 0) {
            /* a plain play read naturally; a 'cards/reading' play, or one that is no natural
             * play (in a 癩子 room it may still have a substituted reading): Python decides */
            if (counts_of_str(last_obj, lc, &ln) || !read_plain(lc, ln, &last)) Py_RETURN_NONE;
            if (CHAIN_MIN[last.want] &&
                (last.length < CHAIN_MIN[last.want] || last.length > CHAIN_MAX[last.want]))
                Py_RETURN_NONE; /* a chain longer than any the generator makes: Python's call */
            if (last.want == KIND_BOMB && last.rank == lz) last.tier = TIER_PURE;
            if (last.tier) last.want = KIND_BOMB_ONLY;
            following = 1;
        }
    }
    if (lz >= 0 && c[lz]) return run_wild(c, (int)lz, &last, 0, following);
    Gen gen;
    gen_init(&gen);
    classic_gen(&gen, c, &last, 0);
    PyObject *out = gen_finish(&gen, following);
    gen_free(&gen);
    return out;
}

/* ------------------------------------------------------------------------------------------ */
/* the fast policy and its play-outs: bot_search._lead, _follow and rollout in C
 *
 * A port of the Python functions, which stay the reference (bot_search.NATIVE off, or this
 * module not built): the same play for every position, so a play-out ends with the same
 * winner (tests/test_native_rollout.py compares them). A hand is a packed multiset (its
 * string in the Python code is sorted, so its first card is its lowest rank); the play to
 * beat is its classify() reading (kind, main rank, length, bomb tier). Whenever the Python
 * code would do anything these functions do not model (a play with no reading of its own, an
 * unsorted hand, a bad argument), they answer None and the Python code decides. The fast
 * policy's answers are kept in a table (per hand, 癩子 rank and situation; a pure function of
 * those, so the table changes the time and never the answer). */

/* classify(play, laizi) for the fields the fast policy reads: its best reading's kind (as
 * ``want``), main rank, length and bomb tier. 1 when the play has a reading of its own; 0 when
 * it has none (or needs readings_of: a plain string with only substituted readings). */
static int classify_str(const char *s, size_t len, int lz, Last *out) {
    int cc[NRANKS] = {0}, rc[NRANKS] = {0}, nc = 0, nr = 0, r;
    size_t i, slash = len;
    for (i = 0; i < len; i++)
        if (s[i] == '/') {
            slash = i;
            break;
        }
    if (slash == 0 || len > 2 * MAX_SIZE + 1) return 0;
    for (i = 0; i < slash; i++) {
        r = RANK_OF[(unsigned char)s[i]];
        if (r < 0) return 0;
        cc[r]++;
        nc++;
    }
    if (slash + 1 < len) { /* "cards/" reads as "cards", as parse_play does */
        for (i = slash + 1; i < len; i++) {
            r = RANK_OF[(unsigned char)s[i]];
            if (r < 0) return 0;
            rc[r]++;
            nr++;
        }
    } else {
        memcpy(rc, cc, sizeof rc);
        nr = nc;
    }
    /* _check_substitution */
    int same = nc == nr;
    for (r = 0; r < NRANKS; r++) same &= cc[r] == rc[r];
    if (!same) {
        if (lz < 0 || nc != nr || cc[lz] == nc) return 0;
        int extra = 0;
        for (r = 0; r < NRANKS; r++) {
            int natural = r == lz ? 0 : cc[r];
            if (rc[r] < natural || (r >= SMALL && rc[r] != natural)) return 0;
            extra += rc[r] - natural;
        }
        if (extra != cc[lz]) return 0;
    }
    /* _possible */
    for (r = 0; r < NRANKS; r++)
        if (cc[r] > (r >= SMALL ? 1 : 4) || rc[r] > (r >= SMALL ? 1 : 4)) return 0;
    if (lz >= 0 && cc[lz] == nc && nc == 4) {
        out->want = KIND_BOMB;
        out->rank = lz;
        out->length = 1;
        out->tier = TIER_PURE;
        return 1;
    }
    if (!read_plain(rc, nr, out)) return 0;
    if (out->want == KIND_BOMB && lz >= 0 && cc[lz]) /* _tier */
        out->tier = cc[lz] == 4 ? TIER_PURE : TIER_SOFT;
    return 1;
}

/* a classify() reading as the play to beat; 0 when the generator takes no such play */
static int as_last(Last *t) {
    if (CHAIN_MIN[t->want] && (t->length < CHAIN_MIN[t->want] || t->length > CHAIN_MAX[t->want]))
        return 0;
    if (t->tier) t->want = KIND_BOMB_ONLY;
    return 1;
}

#define FAST_PLAY_CHARS 48 /* a play of at most 20 cards, '/' and its reading: 41 */

typedef struct {
    uint64_t k1, k2;  /* the situation (fast_key); k1 == 0: empty */
    uint64_t cards;   /* the play's cards, packed */
    Last last;        /* its reading, as the play to beat (as_last) */
    uint8_t ncards;   /* 0: pass */
    uint8_t slen;
    char s[FAST_PLAY_CHARS];
} Fast;

#define FAST_BITS 16
static Fast *FAST_TABLE; /* the fast policy's answers, 2^FAST_BITS of them, direct mapped */

/* the legal plays of one call, ordered as legal_plays() lists them (without 'pass') */
typedef struct {
    Gen g;
    WildCtx w;
    Sorted s;
    int wild_used, sorted_made;
} Work;

static void work_done(Work *k) {
    if (k->sorted_made) sorted_free(&k->g, &k->s);
    if (k->wild_used) {
        if (k->w.kicks != k->w.kicks_stack) free(k->w.kicks);
        if (k->w.ys != k->w.ys_stack) free(k->w.ys);
    }
    gen_free(&k->g);
    k->wild_used = k->sorted_made = 0;
}

/* 0, or -1 when out of memory (work_done frees what was taken either way) */
static int work_plays(Work *k, const int *c, int lz, const Last *last) {
    gen_init(&k->g);
    k->wild_used = k->sorted_made = 0;
    if (lz >= 0 && c[lz]) {
        WildCtx *w = &k->w;
        k->wild_used = 1;
        gen_take_pool(&k->g);
        w->kicks = w->kicks_stack;
        w->kick_cap = sizeof w->kicks_stack / sizeof(Kick);
        w->ys = w->ys_stack;
        w->ys_room = sizeof w->ys_stack;
        w->nkicks = w->ys_used = 0;
        wild_gen(&k->g, w, c, lz, last, 0);
    } else {
        classic_gen(&k->g, c, last, 0);
    }
    if (gen_sort(&k->g, &k->s)) return -1;
    k->sorted_made = 1;
    return 0;
}

static inline size_t cards_len(const char *s, size_t len) {
    const char *slash = memchr(s, '/', len);
    return slash ? (size_t)(slash - s) : len;
}

/* the answer ``e`` of the work's plays into ``f``; 0 when it has no reading (Python decides) */
static int fast_set(Fast *f, const Work *k, const Entry *e, int lz) {
    const char *s = entry_chars(&k->g, e);
    size_t len = e->len, n = cards_len(s, len), i;
    if (len >= FAST_PLAY_CHARS || n == 0) return 0;
    if (!classify_str(s, len, lz, &f->last) || !as_last(&f->last)) return 0;
    f->cards = 0;
    for (i = 0; i < n; i++) f->cards += BIT(RANK_OF[(unsigned char)s[i]]);
    f->ncards = (uint8_t)n;
    f->slen = (uint8_t)len;
    memcpy(f->s, s, len);
    return 1;
}

static inline void fast_pass(Fast *f) {
    f->ncards = 0;
    f->slen = 0;
    f->cards = 0;
}

/* whether entry e (a play of the work) is plain: its reading no bomb; -1: it has no reading */
static int entry_plain(const Work *k, const Entry *e, int lz) {
    Last t;
    if (!classify_str(entry_chars(&k->g, e), e->len, lz, &t)) return -1;
    return t.tier == 0;
}

/* bot_search._lead (last NULL) or _follow on the packed hand of n cards; 1 found (f filled),
 * 0 Python decides, -1 out of memory */
static int fast_compute(Work *k, uint64_t hand, int n, int lz, const Last *last, int mode,
                        int one, int feed, Fast *f) {
    int c[NRANKS], r, result = 0;
    static const Last LEAD = {KIND_LEAD, 0, -1, -1};
    if (!hand && !last) return 0; /* no lowest card: Python's own business */
    for (r = 0; r < NRANKS; r++) c[r] = (int)(hand >> (3 * r) & 7);
    if (work_plays(k, c, lz, last ? last : &LEAD)) {
        work_done(k);
        return -1;
    }
    Entry *order = k->s.order, *e, *first = NULL, *best = NULL;
    size_t count = k->s.n, i;
#define EACH(i) for (i = 0; i < count; i++) if ((e = &order[i])->len != DROPPED)
#define STR(e) entry_chars(&k->g, (e))
    EACH(i) { /* go out if one play can */
        if (!first) first = e;
        if ((int)cards_len(STR(e), e->len) == n) {
            result = fast_set(f, k, e, lz);
            goto done;
        }
    }
    if (!last) { /* _lead */
        if (feed) {
            for (int size = feed == 2 ? 2 : 1; size >= 1; size--) EACH(i) {
                    const char *s = STR(e);
                    size_t j;
                    if (e->len != size) continue;
                    for (j = 1; j < e->len && s[j] == s[0]; j++) {}
                    if (j == e->len && s[0] != '/') {
                        result = fast_set(f, k, e, lz);
                        goto done;
                    }
                }
        }
        char low = RANK_CHARS[lowest_bit(hand) / 3];
        int best_len = -1;
        EACH(i) {
            const char *s = STR(e);
            if (s[0] == '/') goto done; /* no cards: Python's own business */
            if (s[0] != low) continue;
            int plain = entry_plain(k, e, lz);
            if (plain < 0) goto done;
            if (!plain) continue;
            int size = (int)cards_len(s, e->len);
            if (one && size == 1) size = 0;
            if (size > best_len) {
                best = e;
                best_len = size;
            }
        }
        if (!best) {
            if (first) result = fast_set(f, k, first, lz);
            goto done;
        }
        if (best_len == 0) { /* the highest single */
            for (i = count; i-- > 0;) {
                e = &order[i];
                if (e->len != DROPPED && cards_len(STR(e), e->len) == 1) {
                    result = fast_set(f, k, e, lz);
                    goto done;
                }
            }
            goto done;
        }
        result = fast_set(f, k, best, lz);
        goto done;
    }
    /* _follow */
    if (mode == 0 || !first) {
        fast_pass(f);
        result = 1;
        goto done;
    }
    Entry *plain = NULL;
    EACH(i) {
        int p = entry_plain(k, e, lz);
        if (p < 0) goto done;
        if (p) {
            plain = e;
            break;
        }
    }
    if (mode == 5 || !plain) {
        if (plain) result = fast_set(f, k, plain, lz);
        else if (mode <= 2) result = fast_set(f, k, first, lz);
        else {
            fast_pass(f);
            result = 1;
        }
        goto done;
    }
    if (mode == 1) { /* the highest plain play */
        for (i = count; i-- > 0;) {
            e = &order[i];
            if (e->len == DROPPED) continue;
            int p = entry_plain(k, e, lz);
            if (p < 0) goto done;
            if (p) {
                result = fast_set(f, k, e, lz);
                goto done;
            }
        }
        goto done;
    }
    {
        const char *s = STR(plain);
        size_t n_cards = cards_len(s, plain->len);
        if (mode == 4 && RANK_OF[(unsigned char)s[n_cards - 1]] >= TWO && last->rank < TWO - 2) {
            fast_pass(f);
            result = 1;
            goto done;
        }
        result = fast_set(f, k, plain, lz);
    }
#undef EACH
#undef STR
done:
    work_done(k);
    return result;
}

/* fast_compute through FAST_TABLE */
static int fast_lookup(Work *k, uint64_t hand, int n, int lz, const Last *last, int mode, int one,
                       int feed, const Fast **out) {
    uint64_t k1 = hand | (uint64_t)(lz + 1) << 45 | (uint64_t)(last ? mode : 7) << 49 |
                  (uint64_t)one << 52 | (uint64_t)feed << 53 | (uint64_t)1 << 63;
    uint64_t k2 = last ? (uint64_t)last->want | (uint64_t)(last->rank + 1) << 5 |
                             (uint64_t)last->length << 10 | (uint64_t)(last->tier + 1) << 15
                       : 0;
    static Fast spare; /* when the table could not be made */
    Fast *f = &spare;
    if (!FAST_TABLE) FAST_TABLE = calloc((size_t)1 << FAST_BITS, sizeof(Fast));
    if (FAST_TABLE) {
        uint64_t h = (k1 * 0x9e3779b97f4a7c15ull) ^ (k2 * 0xc2b2ae3d27d4eb4full);
        h ^= h >> 29;
        f = &FAST_TABLE[(h * 0xbf58476d1ce4e5b9ull) >> (64 - FAST_BITS)];
        if (f->k1 == k1 && f->k2 == k2) {
            *out = f;
            return 1;
        }
    }
    int got = fast_compute(k, hand, n, lz, last, mode, one, feed, f);
    if (got == 1) {
        f->k1 = k1;
        f->k2 = k2;
        *out = f;
    } else {
        f->k1 = 0; /* the entry was written over */
    }
    return got;
}

/* a card string: packed counts and length; 0 unless sorted by rank with possible counts */
static int packed_hand(PyObject *s, uint64_t *hand, int *n) {
    if (!PyUnicode_Check(s) || !PyUnicode_IS_ASCII(s)) return 0;
    const unsigned char *p = PyUnicode_1BYTE_DATA(s);
    Py_ssize_t len = PyUnicode_GET_LENGTH(s), i;
    int c[NRANKS] = {0}, prev = 0;
    if (len > 54) return 0;
    *hand = 0;
    for (i = 0; i < len; i++) {
        int r = RANK_OF[p[i]];
        if (r < prev || ++c[r] > (r >= SMALL ? 1 : 4)) return 0;
        prev = r;
        *hand += BIT(r);
    }
    *n = (int)len;
    return 1;
}

/* the play to beat from a str (None: leading); 0 when Python must read it */
static int last_of(PyObject *o, int lz, Last *t, int *leading) {
    *leading = o == Py_None;
    if (*leading) return 1;
    if (!PyUnicode_Check(o) || !PyUnicode_IS_ASCII(o)) return 0;
    return classify_str((const char *)PyUnicode_1BYTE_DATA(o), (size_t)PyUnicode_GET_LENGTH(o), lz,
                        t) &&
           as_last(t);
}

/* an int argument in lo..hi; 0 if it is not one (no exception left: Python decides) */
static int int_arg(PyObject *o, long lo, long hi, long *v) {
    if (!PyLong_Check(o)) return 0;
    *v = PyLong_AsLong(o);
    if (*v == -1 && PyErr_Occurred()) {
        PyErr_Clear();
        return 0;
    }
    return *v >= lo && *v <= hi;
}

/* fast_play(hand, last, laizi_rank, mode, one_card, feed) -> str | None: bot_search._lead
 * (last None: one_card, feed) or _follow (mode) with the answer's play string, '' for a pass,
 * or None when the Python code must decide */
static PyObject *py_fast_play(PyObject *self, PyObject *const *args, Py_ssize_t nargs) {
    long lz, mode, one, feed;
    uint64_t hand;
    int n, leading;
    Last last = {KIND_LEAD, 0, -1, -1};
    const Fast *f;
    (void)self;
    if (nargs != 6) {
        PyErr_SetString(PyExc_TypeError, "fast_play takes 6 arguments");
        return NULL;
    }
    if (!int_arg(args[2], -1, TWO, &lz) || !int_arg(args[3], 0, 5, &mode) ||
        !int_arg(args[4], 0, 1, &one) || !int_arg(args[5], 0, 2, &feed) ||
        !packed_hand(args[0], &hand, &n) || !n || !last_of(args[1], (int)lz, &last, &leading))
        Py_RETURN_NONE;
    Work *k = malloc(sizeof(Work));
    if (!k) return PyErr_NoMemory();
    int got = fast_lookup(k, hand, n, (int)lz, leading ? NULL : &last, (int)mode, (int)one,
                          (int)feed, &f);
    free(k);
    if (got < 0) return PyErr_NoMemory();
    if (!got) Py_RETURN_NONE;
    /* copied out first: making the str may run the collector, and so other threads' calls
     * that write the same FAST_TABLE entry */
    char play[FAST_PLAY_CHARS];
    size_t len = f->slen;
    memcpy(play, f->s, len);
    return PyUnicode_FromStringAndSize(play, (Py_ssize_t)len);
}

/* rollout(hands, landlord, turn, laizi_rank, lead, lead_seat, passes, greedy, limit)
 * -> int | None: bot_search.rollout on Sim's fields (the winner's seat), or None when the
 * Python code must play it out */
static PyObject *py_rollout(PyObject *self, PyObject *const *args, Py_ssize_t nargs) {
    long ll, turn, lz, lead_seat, passes, greedy, limit;
    uint64_t hands[3];
    int n[3], s, leading;
    Last last = {KIND_LEAD, 0, -1, -1};
    (void)self;
    if (nargs != 9) {
        PyErr_SetString(PyExc_TypeError, "rollout takes 9 arguments");
        return NULL;
    }
    if (!int_arg(args[1], 0, 2, &ll) || !int_arg(args[2], 0, 2, &turn) ||
        !int_arg(args[3], -1, TWO, &lz) || !int_arg(args[5], -1, 2, &lead_seat) ||
        !int_arg(args[6], 0, 1, &passes) || !int_arg(args[7], 0, LONG_MAX, &greedy) ||
        !int_arg(args[8], 0, 1 << 20, &limit))
        Py_RETURN_NONE;
    PyObject *seq = args[0];
    if (!(PyList_Check(seq) || PyTuple_Check(seq)) || PySequence_Fast_GET_SIZE(seq) != 3)
        Py_RETURN_NONE;
    for (s = 0; s < 3; s++)
        if (!packed_hand(PySequence_Fast_GET_ITEM(seq, s), &hands[s], &n[s]) || !n[s])
            Py_RETURN_NONE;
    if (!last_of(args[4], (int)lz, &last, &leading)) Py_RETURN_NONE;
    if (!leading && lead_seat < 0) Py_RETURN_NONE;
    Work *k = malloc(sizeof(Work));
    if (!k) return PyErr_NoMemory();
    long winner = ll, step;
    int seat = (int)turn, got = 1;
    for (step = 0; step < limit; step++) {
        int danger, mode = 0, one = 0, feed = 0;
        const Fast *f;
        if (seat == ll) {
            int a = n[(seat + 1) % 3], b = n[(seat + 2) % 3];
            danger = a < b ? a : b;
        } else {
            danger = n[ll];
        }
        if (leading) {
            if (seat != ll && danger > 2) {
                feed = n[3 - seat - ll];
                if (feed > 2) feed = 0;
            }
            one = danger == 1;
        } else {
            int greedy_seat = (int)(greedy >> seat & 1);
            if (seat != ll && lead_seat != ll) mode = greedy_seat ? 5 : 0;
            else if (danger <= 2) mode = 1;
            else if (danger <= 4 || n[lead_seat] <= 4) mode = 2;
            else if (danger == 5 || n[seat] <= 6) mode = 3;
            else mode = greedy_seat && seat != ll ? 3 : 4;
        }
        got = fast_lookup(k, hands[seat], n[seat], (int)lz, leading ? NULL : &last, mode, one,
                          feed, &f);
        if (got != 1) break;
        if (!f->ncards) { /* Sim.move(None) */
            if (++passes == 2) {
                seat = (int)lead_seat;
                leading = 1;
                passes = 0;
            } else {
                seat = (seat + 1) % 3;
            }
            continue;
        }
        uint64_t cards = f->cards;
        for (int r = 0; r < NRANKS; r++)
            if ((cards >> (3 * r) & 7) > (hands[seat] >> (3 * r) & 7)) got = 0;
        if (!got) break; /* never: the play came from this hand */
        hands[seat] -= cards;
        n[seat] -= f->ncards;
        last = f->last;
        leading = 0;
        lead_seat = seat;
        passes = 0;
        if (!n[seat]) {
            winner = seat;
            break;
        }
        seat = (seat + 1) % 3;
    }
    free(k);
    if (got < 0) return PyErr_NoMemory();
    if (!got) Py_RETURN_NONE;
    return PyLong_FromLong(winner);
}

/* ------------------------------------------------------------------------------------------ */
/* the endgame solver: bot_search.Solver._node in C
 *
 * The same search as the Python one (which stays the reference): the same move order (the
 * fast policy's play, then legal_plays() order, the pass last), the same memo keyed as the
 * Python one (the three hands, the seat to move, the play to beat as a string, the passes) and
 * the same count of positions expanded, so it returns the same values, stops at the same node
 * when the count runs out and leaves the same positions in its table. The table lives across
 * solve() calls (a decision's samples and candidates share it); each call marks the entries it
 * adds, so when the C code declines a position (one it does not model: the Python code then
 * decides) the caller can take the entries of the calls before (solver_items) and redo the
 * call in Python with exactly the table and count the Python search would have had. */

typedef struct {
    uint64_t h[3];
    uint32_t gen;     /* the solve() call that stored it */
    uint8_t used, seat, passes, value;
    uint8_t leadlen;  /* 0xff: no play to beat */
    char lead[FAST_PLAY_CHARS];
} Memo;

typedef struct {
    Memo *slots;
    size_t cap, count;
    uint32_t gen;      /* solve() calls so far */
    uint32_t dropped;  /* the last call that declined (its entries are not the Python table's) */
} MemoTable;

static void memo_table_free(PyObject *capsule) {
    MemoTable *t = PyCapsule_GetPointer(capsule, "leyou.doudizhu.solver_table");
    if (t) {
        free(t->slots);
        free(t);
    }
}

static uint64_t memo_hash(const uint64_t *h, int seat, int passes, const char *lead, int leadlen) {
    uint64_t x = (h[0] * 0x9e3779b97f4a7c15ull) ^ (h[1] * 0xc2b2ae3d27d4eb4full) ^
                 (h[2] * 0x165667b19e3779f9ull) ^ ((uint64_t)(seat * 4 + passes) << 56);
    if (leadlen != 0xff)
        for (int i = 0; i < leadlen; i++) x = (x ^ (uint8_t)lead[i]) * 0x100000001b3ull;
    else
        x ^= 0x5555;
    x ^= x >> 31;
    x *= 0xbf58476d1ce4e5b9ull;
    return x ^ (x >> 29);
}

static inline int memo_same(const Memo *m, const uint64_t *h, int seat, int passes,
                            const char *lead, int leadlen) {
    return m->h[0] == h[0] && m->h[1] == h[1] && m->h[2] == h[2] && m->seat == seat &&
           m->passes == passes && m->leadlen == leadlen &&
           (leadlen == 0xff || !memcmp(m->lead, lead, (size_t)leadlen));
}

static Memo *memo_find(MemoTable *t, const uint64_t *h, int seat, int passes, const char *lead,
                       int leadlen) {
    if (!t->cap) return NULL;
    size_t i = (size_t)memo_hash(h, seat, passes, lead, leadlen) & (t->cap - 1);
    for (; t->slots[i].used; i = (i + 1) & (t->cap - 1))
        if (memo_same(&t->slots[i], h, seat, passes, lead, leadlen)) return &t->slots[i];
    return NULL;
}

/* 0, or -1 when out of memory */
static int memo_put(MemoTable *t, const uint64_t *h, int seat, int passes, const char *lead,
                    int leadlen, int value) {
    if (2 * (t->count + 1) > t->cap) {
        size_t cap = t->cap ? 2 * t->cap : 1024, i;
        Memo *slots = calloc(cap, sizeof(Memo));
        if (!slots) return -1;
        for (i = 0; i < t->cap; i++) {
            Memo *m = &t->slots[i];
            if (!m->used) continue;
            size_t j = (size_t)memo_hash(m->h, m->seat, m->passes, m->lead, m->leadlen) & (cap - 1);
            while (slots[j].used) j = (j + 1) & (cap - 1);
            slots[j] = *m;
        }
        free(t->slots);
        t->slots = slots;
        t->cap = cap;
    }
    size_t i = (size_t)memo_hash(h, seat, passes, lead, leadlen) & (t->cap - 1);
    while (t->slots[i].used) i = (i + 1) & (t->cap - 1);
    Memo *m = &t->slots[i];
    memcpy(m->h, h, sizeof m->h);
    m->gen = t->gen;
    m->used = 1;
    m->seat = (uint8_t)seat;
    m->passes = (uint8_t)passes;
    m->value = (uint8_t)value;
    m->leadlen = (uint8_t)leadlen;
    if (leadlen != 0xff) memcpy(m->lead, lead, (size_t)leadlen);
    t->count++;
    return 0;
}

typedef struct {
    MemoTable *t;
    long nodes_left;
    int ll, lz;
    Work *k;
} SolveCtx;

enum { S_OUT = -1, S_DECLINE = -2, S_NOMEM = -3 };

typedef struct {
    char s[FAST_PLAY_CHARS];
    uint8_t slen, ncards; /* ncards 0: the pass */
    uint64_t cards;
} SMove;

/* the fast policy's mode and so on for the seat to move (bot_search._fast), and its play */
static int fast_at(Work *k, const uint64_t *hands, const int *n, int ll, int seat, int lz,
                   const Last *last, int lead_seat, int greedy_seat, const Fast **f) {
    int danger, mode = 0, one = 0, feed = 0;
    if (seat == ll) {
        int a = n[(seat + 1) % 3], b = n[(seat + 2) % 3];
        danger = a < b ? a : b;
    } else {
        danger = n[ll];
    }
    if (!last) {
        if (seat != ll && danger > 2) {
            feed = n[3 - seat - ll];
            if (feed > 2) feed = 0;
        }
        one = danger == 1;
    } else if (seat != ll && lead_seat != ll) mode = greedy_seat ? 5 : 0;
    else if (danger <= 2) mode = 1;
    else if (danger <= 4 || n[lead_seat] <= 4) mode = 2;
    else if (danger == 5 || n[seat] <= 6) mode = 3;
    else mode = greedy_seat && seat != ll ? 3 : 4;
    return fast_lookup(k, hands[seat], n[seat], lz, last, mode, one, feed, f);
}

static int solve_node(SolveCtx *x, const uint64_t *h, const int *n, int seat, const Last *last,
                      const char *lead, int leadlen, int lead_seat, int passes) {
    Memo *m = memo_find(x->t, h, seat, passes, lead, leadlen);
    if (m) return m->value;
    if (x->nodes_left <= 0) return S_OUT;
    x->nodes_left--;
    int mover = seat == x->ll, c[NRANKS], r, result = !mover, got;
    static const Last LEAD = {KIND_LEAD, 0, -1, -1};
    for (r = 0; r < NRANKS; r++) c[r] = (int)(h[seat] >> (3 * r) & 7);
    Work *k = x->k;
    if (work_plays(k, c, x->lz, last ? last : &LEAD)) {
        work_done(k);
        return S_NOMEM;
    }
    size_t count = 0, i, nm = 0;
    int out = 0;
    for (i = 0; i < k->s.n; i++) count += k->s.order[i].len != DROPPED;
    SMove *moves = malloc((count + 1) * sizeof(SMove));
    if (!moves) {
        work_done(k);
        return S_NOMEM;
    }
    for (i = 0; i < k->s.n; i++) {
        const Entry *e = &k->s.order[i];
        if (e->len == DROPPED) continue;
        const char *s = entry_chars(&k->g, e);
        size_t cl = cards_len(s, e->len), j;
        SMove *mv = &moves[nm++];
        if (e->len >= FAST_PLAY_CHARS || cl == 0) {
            work_done(k);
            free(moves);
            return S_DECLINE;
        }
        if ((int)cl == n[seat]) out = 1;
        memcpy(mv->s, s, e->len);
        mv->slen = (uint8_t)e->len;
        mv->ncards = (uint8_t)cl;
        mv->cards = 0;
        for (j = 0; j < cl; j++) mv->cards += BIT(RANK_OF[(unsigned char)s[j]]);
    }
    work_done(k);
    if (last) { /* the pass, last */
        moves[nm].ncards = moves[nm].slen = 0;
        nm++;
    }
    if (out) {
        free(moves);
        if (memo_put(x->t, h, seat, passes, lead, leadlen, mover)) return S_NOMEM;
        return mover;
    }
    const Fast *f;
    got = fast_at(k, h, n, x->ll, seat, x->lz, last, lead_seat, 0, &f);
    if (got != 1) {
        free(moves);
        return got < 0 ? S_NOMEM : S_DECLINE;
    }
    SMove first;
    first.ncards = f->ncards;
    first.slen = f->slen;
    first.cards = f->cards;
    memcpy(first.s, f->s, f->slen);
    int nxt = (seat + 1) % 3;
    for (i = 0; i <= nm; i++) {
        const SMove *mv;
        if (i == 0) {
            mv = &first;
        } else {
            mv = &moves[i - 1];
            if (mv->ncards == first.ncards && mv->slen == first.slen &&
                !memcmp(mv->s, first.s, mv->slen))
                continue; /* the fast policy's play, tried first */
        }
        int value;
        if (!mv->ncards) {
            if (passes == 1) value = solve_node(x, h, n, lead_seat, NULL, NULL, 0xff, -1, 0);
            else value = solve_node(x, h, n, nxt, last, lead, leadlen, lead_seat, passes + 1);
        } else {
            uint64_t h2[3] = {h[0], h[1], h[2]};
            int n2[3] = {n[0], n[1], n[2]};
            Last t;
            for (r = 0; r < NRANKS; r++)
                if ((mv->cards >> (3 * r) & 7) > (h[seat] >> (3 * r) & 7)) {
                    free(moves);
                    return S_DECLINE; /* never: the play came from this hand */
                }
            if (!classify_str(mv->s, mv->slen, x->lz, &t) || !as_last(&t)) {
                free(moves);
                return S_DECLINE;
            }
            h2[seat] -= mv->cards;
            n2[seat] -= mv->ncards;
            value = solve_node(x, h2, n2, nxt, &t, mv->s, mv->slen, seat, 0);
        }
        if (value < 0) {
            free(moves);
            return value;
        }
        if (value == mover) {
            result = mover;
            break;
        }
    }
    free(moves);
    if (memo_put(x->t, h, seat, passes, lead, leadlen, result)) return S_NOMEM;
    return result;
}

static PyObject *py_solver_table(PyObject *self, PyObject *noargs) {
    (void)self;
    (void)noargs;
    MemoTable *t = calloc(1, sizeof(MemoTable));
    if (!t) return PyErr_NoMemory();
    PyObject *cap = PyCapsule_New(t, "leyou.doudizhu.solver_table", memo_table_free);
    if (!cap) free(t);
    return cap;
}

/* solve(table, hands, turn, lead, lead_seat, passes, landlord, laizi_rank, nodes_left)
 * -> (bool | None, nodes_left) | None: Solver.solve (None as the value: the count ran out),
 * or None when the Python code must decide (the call then leaves the table as it was) */
static PyObject *py_solve(PyObject *self, PyObject *const *args, Py_ssize_t nargs) {
    long turn, lead_seat, passes, ll, lz, nodes;
    uint64_t hands[3];
    int n[3], s, leading;
    Last last = {KIND_LEAD, 0, -1, -1};
    (void)self;
    if (nargs != 9) {
        PyErr_SetString(PyExc_TypeError, "solve takes 9 arguments");
        return NULL;
    }
    MemoTable *t = PyCapsule_GetPointer(args[0], "leyou.doudizhu.solver_table");
    if (!t) return NULL;
    if (!int_arg(args[2], 0, 2, &turn) || !int_arg(args[4], -1, 2, &lead_seat) ||
        !int_arg(args[5], 0, 1, &passes) || !int_arg(args[6], 0, 2, &ll) ||
        !int_arg(args[7], -1, TWO, &lz) || !int_arg(args[8], LONG_MIN, LONG_MAX, &nodes))
        Py_RETURN_NONE;
    PyObject *seq = args[1];
    if (!(PyList_Check(seq) || PyTuple_Check(seq)) || PySequence_Fast_GET_SIZE(seq) != 3)
        Py_RETURN_NONE;
    for (s = 0; s < 3; s++)
        if (!packed_hand(PySequence_Fast_GET_ITEM(seq, s), &hands[s], &n[s])) Py_RETURN_NONE;
    if (!last_of(args[3], (int)lz, &last, &leading)) Py_RETURN_NONE;
    if (!leading && (lead_seat < 0 || PyUnicode_GET_LENGTH(args[3]) >= FAST_PLAY_CHARS))
        Py_RETURN_NONE;
    if (leading && passes) Py_RETURN_NONE;
    Work *k = malloc(sizeof(Work));
    if (!k) return PyErr_NoMemory();
    SolveCtx x = {t, nodes, (int)ll, (int)lz, k};
    t->gen++;
    int got = solve_node(&x, hands, n, (int)turn, leading ? NULL : &last,
                         leading ? NULL : (const char *)PyUnicode_1BYTE_DATA(args[3]),
                         leading ? 0xff : (int)PyUnicode_GET_LENGTH(args[3]),
                         leading ? -1 : (int)lead_seat, (int)passes);
    free(k);
    if (got == S_NOMEM) return PyErr_NoMemory();
    if (got == S_DECLINE) {
        t->dropped = t->gen;
        Py_RETURN_NONE;
    }
    if (got == S_OUT) return Py_BuildValue("(Ol)", Py_None, x.nodes_left);
    return Py_BuildValue("(Nl)", PyBool_FromLong(got), x.nodes_left);
}

/* the sorted card string of a packed hand */
static PyObject *hand_str(uint64_t h) {
    char buf[64];
    int len = 0;
    for (int r = 0; r < NRANKS; r++)
        for (int u = (int)(h >> (3 * r) & 7); u > 0 && len < 63; u--) buf[len++] = RANK_CHARS[r];
    return PyUnicode_FromStringAndSize(buf, len);
}

/* solver_items(table) -> dict: the table as Solver.table holds it, {(h0, h1, h2, seat, lead,
 * passes): value}, without the entries of a solve() call that declined */
static PyObject *py_solver_items(PyObject *self, PyObject *arg) {
    (void)self;
    MemoTable *t = PyCapsule_GetPointer(arg, "leyou.doudizhu.solver_table");
    if (!t) return NULL;
    PyObject *d = PyDict_New();
    if (!d) return NULL;
    for (size_t i = 0; i < t->cap; i++) {
        Memo *m = &t->slots[i];
        if (!m->used || m->gen == t->dropped) continue;
        PyObject *lead = m->leadlen == 0xff ? Py_NewRef(Py_None)
                                            : PyUnicode_FromStringAndSize(m->lead, m->leadlen);
        PyObject *key = lead ? Py_BuildValue("(NNNiNi)", hand_str(m->h[0]), hand_str(m->h[1]),
                                             hand_str(m->h[2]), m->seat, lead, m->passes)
                             : NULL;
        if (!key || PyDict_SetItem(d, key, m->value ? Py_True : Py_False)) {
            Py_XDECREF(key);
            Py_DECREF(d);
            return NULL;
        }
        Py_DECREF(key);
    }
    return d;
}

static PyMethodDef methods[] = {
    {"classic", py_classic, METH_VARARGS,
     "classic(counts, want, length, rank, tier, size) -> list[str]: patterns._classic"},
    {"wild", py_wild, METH_VARARGS,
     "wild(counts, laizi_rank, want, length, rank, tier, size) -> list[str]: patterns._wild"},
    {"legal_plays", (PyCFunction)(void (*)(void))py_legal_plays, METH_FASTCALL,
     "legal_plays(hand, last, laizi_rank) -> list[str] | None: patterns.legal_plays in one "
     "call (laizi_rank -1 without 癩子), or None when the Python code must decide"},
    {"fast_play", (PyCFunction)(void (*)(void))py_fast_play, METH_FASTCALL,
     "fast_play(hand, last, laizi_rank, mode, one_card, feed) -> str | None: bot_search._lead "
     "(last None) or _follow; '' for a pass, None when the Python code must decide"},
    {"rollout", (PyCFunction)(void (*)(void))py_rollout, METH_FASTCALL,
     "rollout(hands, landlord, turn, laizi_rank, lead, lead_seat, passes, greedy, limit) -> "
     "int | None: bot_search.rollout's winner, or None when the Python code must decide"},
    {"solver_table", py_solver_table, METH_NOARGS,
     "solver_table() -> the C solver's memo table (a capsule), empty"},
    {"solve", (PyCFunction)(void (*)(void))py_solve, METH_FASTCALL,
     "solve(table, hands, turn, lead, lead_seat, passes, landlord, laizi_rank, nodes_left) -> "
     "(bool | None, nodes_left) | None: Solver.solve, or None when the Python code must decide"},
    {"solver_items", py_solver_items, METH_O,
     "solver_items(table) -> dict: the table as the Python Solver keeps it (the entries of a "
     "declined last call left out)"},
    {NULL, NULL, 0, NULL}};

static struct PyModuleDef module = {PyModuleDef_HEAD_INIT, "_movegen",
                                    "斗地主 legal-play generator (C port of patterns.py).", -1,
                                    methods, NULL, NULL, NULL, NULL};

PyMODINIT_FUNC PyInit__movegen(void) {
    if (!CONSTANTS) { /* once per process: the tables are shared by every module object */
        int r;
        memset(RANK_OF, -1, sizeof RANK_OF);
        for (r = 0; r < NRANKS; r++) {
            RANK_OF[(unsigned char)RANK_CHARS[r]] = (signed char)r;
        }
        for (int i = 0; i < 8; i++)
            for (int f = 0; f < 64; f++) { /* counts over 4 never reach the table */
                char chars[8] = {0};
                int a = f & 7, b = f >> 3, n = 0;
                if (a > 4 || b > 4 || (2 * i + 1 >= NRANKS && b)) continue;
                while (a-- > 0) chars[n++] = RANK_CHARS[2 * i];
                while (b-- > 0) chars[n++] = RANK_CHARS[2 * i + 1];
                memcpy(&PAIR_CHARS[i][f], chars, 8);
                PAIR_LEN[i][f] = (uint8_t)n;
            }
        PASS_STR = PyUnicode_InternFromString("pass");
        if (!PASS_STR || build_constants()) {
            Py_CLEAR(PASS_STR);
            Py_CLEAR(CONSTANTS);
            return NULL;
        }
    }
    PyObject *m = PyModule_Create(&module);
    if (m && PyModule_AddObjectRef(m, "_constants", CONSTANTS)) Py_CLEAR(m);
    return m;
}
