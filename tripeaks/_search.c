/* The solver's search, compiled: the same depth-first search as tripeaks/solver.py's _Search.
 *
 * It knows no rule and no layout of its own. Python hands it the deal's ranks, which rank fits
 * on which (from tripeaks.rules), and masks made once from tripeaks.layout: what the cards lie on,
 * what lies under each card, which cards can never be the one it goes on; and whether ranks wrap
 * round. This file only walks positions. It makes the same moves in the same order as the Python
 * search, so both return the same line and count the same nodes (the tests check that).
 *
 * Tables of positions are keyed by present (28 bits) | top << 28 and keep a count of draws.
 */
#define PY_SSIZE_T_CLEAN
#include <Python.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#define TABLEAU 28
#define RANKS 14
#define MAX_STOCK 32
#define MAX_PATH 64
#define DRAW_STEP 255
#define NEVER 99 /* a count of draws past any stock */

/* ---- a map from 32-bit keys (never 0) to a count of draws, open addressing ----
 * Key and value share one 64-bit entry (key low, value above), so a look costs one cache line. */

typedef struct {
    uint64_t *entries; /* 0: empty */
    size_t mask;       /* capacity - 1, a power of two */
    size_t used;
    int failed;        /* an allocation failed: the search answers MemoryError */
} Table;

static int table_init(Table *t) {
    size_t capacity = 1 << 12;
    t->entries = calloc(capacity, sizeof(uint64_t));
    t->mask = capacity - 1;
    t->used = 0;
    t->failed = t->entries == NULL;
    return !t->failed;
}

static void table_free(Table *t) {
    free(t->entries);
    t->entries = NULL;
}

static inline size_t slot_of(uint32_t key, size_t mask) {
    return (size_t)(((uint64_t)key * 0x9E3779B97F4A7C15ULL) >> 29) & mask;
}

/* Index of key's slot, or of the empty slot where it would go. */
static inline size_t table_find(const Table *t, uint32_t key) {
    size_t i = slot_of(key, t->mask);
    while (t->entries[i] && (uint32_t)t->entries[i] != key) i = (i + 1) & t->mask;
    return i;
}

static inline void table_prefetch(const Table *t, uint32_t key) {
    __builtin_prefetch(&t->entries[slot_of(key, t->mask)]);
}

/* The value kept for key, NEVER when there is none. */
static inline int table_get(const Table *t, uint32_t key) {
    uint64_t entry = t->entries[table_find(t, key)];
    return entry ? (int)(entry >> 32) : NEVER;
}

static void table_grow(Table *t) {
    size_t capacity = (t->mask + 1) * 2;
    uint64_t *entries = calloc(capacity, sizeof(uint64_t));
    if (entries == NULL) {
        t->failed = 1;
        return;
    }
    for (size_t i = 0; i <= t->mask; i++) {
        if (!t->entries[i]) continue;
        size_t j = slot_of((uint32_t)t->entries[i], capacity - 1);
        while (entries[j]) j = (j + 1) & (capacity - 1);
        entries[j] = t->entries[i];
    }
    free(t->entries);
    t->entries = entries;
    t->mask = capacity - 1;
}

/* Keep value for key unless a smaller one is kept already. */
static void table_lower(Table *t, uint32_t key, int value) {
    size_t i = table_find(t, key);
    if (t->entries[i]) {
        if ((int)(t->entries[i] >> 32) > value) t->entries[i] = (uint64_t)value << 32 | key;
        return;
    }
    if (2 * (t->used + 1) > t->mask + 1) {
        table_grow(t);
        if (t->failed) return;
        i = table_find(t, key);
    }
    t->entries[i] = (uint64_t)value << 32 | key;
    t->used++;
}

/* ---- the deal, prepared ---- */

typedef struct {
    uint8_t ranks[TABLEAU];
    uint8_t stock[MAX_STOCK];
    int stock_size;
    uint8_t fits[RANKS][RANKS]; /* fits[on][rank]: a card of rank goes on a discard of rank on */
    uint32_t lying_under[4][128]; /* [k][b]: the cards that the cards of bits 7k.. set in b lie on */
    uint32_t under[TABLEAU];
    uint32_t no_bridge[TABLEAU]; /* solver.NO_BRIDGE_MASK: never the discard card right before p */
    uint32_t rank_mask[RANKS];
    uint32_t fit_mask[RANKS];
    uint8_t stock_fits[RANKS][MAX_STOCK + 1];
    uint8_t stock_ranks[RANKS][MAX_STOCK + 1]; /* how many of the first d stock cards have rank r */
    int stock_left[MAX_STOCK + 1][RANKS]; /* [d][r]: stock cards of rank r from d to the limit */
    uint8_t neighbours[RANKS][RANKS];
    int neighbour_count[RANKS];
    int wraps;
    Table lost;
    int counts[RANKS]; /* cards present of each rank, kept up to date along the path */
    uint8_t path[MAX_PATH];
    int depth;
    long long nodes;
} Search;

/* Without -mpopcnt, __builtin_popcount calls a slow library routine: count in the register. */
static inline int bit_count(uint32_t x) {
    x = x - ((x >> 1) & 0x55555555u);
    x = (x & 0x33333333u) + ((x >> 2) & 0x33333333u);
    return (int)((((x + (x >> 4)) & 0x0F0F0F0Fu) * 0x01010101u) >> 24);
}
static inline int lowest(uint32_t x) { return __builtin_ctz(x); }

/* The cards present that no present card lies on, from four looks at 7 cards at a time. */
static inline uint32_t free_mask(const Search *s, uint32_t present) {
    return present & ~(s->lying_under[0][present & 127] | s->lying_under[1][present >> 7 & 127] |
                       s->lying_under[2][present >> 14 & 127] | s->lying_under[3][present >> 21]);
}

/* Python's _Search.needs: -1 when some rank of `ranks` can no longer all be played, else the
 * cards one of which must be played now on `top` (0 when nothing is forced). */
static int64_t needs(const Search *s, uint32_t present, int drawn, int top, int limit,
                     const uint8_t *ranks, int count) {
    uint32_t must = 0;
    int have_free = 0;
    uint32_t free_cards = 0;
    for (int k = 0; k < count; k++) {
        int r = ranks[k];
        uint32_t cards = present & s->rank_mask[r];
        if (!cards) continue;
        int from_stock = s->stock_fits[r][limit] - s->stock_fits[r][drawn];
        uint32_t sources = present & s->fit_mask[r];
        int spare = from_stock + bit_count(sources) - bit_count(cards);
        if (spare < -1) return -1;
        uint32_t lonely = 0;
        if (!from_stock) {
            uint32_t rest = cards;
            while (rest) {
                uint32_t low = rest & -rest;
                rest ^= low;
                if (!(sources & ~s->no_bridge[lowest(low)])) lonely |= low;
            }
        }
        if (spare >= 0 && !lonely) continue;
        if ((lonely & (lonely - 1)) || must || !s->fits[top][r]) return -1;
        if (!have_free) {
            free_cards = free_mask(s, present);
            have_free = 1;
        }
        must = (lonely ? lonely : cards) & free_cards;
        if (!must) return -1;
    }
    return must;
}

/* Every card still to be played goes on its own discard card of a neighbouring rank: a tableau
 * card, a stock card drawn within `limit`, or the top. Can the supply of each rank feed the
 * demand of both neighbouring ranks at once? Demands and supplies alternate along the ranks, so
 * a greedy walk answers it, each demand taking from the rank below first (nobody else can use
 * what is left there). With king and ace connected the ranks close into one ring: cut open
 * where a rank is missing, or else the walk along the line is tried first (enough, nearly
 * always), then the ring opened at each share of the king-ace link. */
static int fed_around(const int *counts, const int *supply, int link) {
    static const int ring[13] = {1, 3, 5, 7, 9, 11, 13, 2, 4, 6, 8, 10, 12};
    int left[RANKS + 1];
    memcpy(left, supply, sizeof left);
    left[13] -= link;
    for (int k = 0; k < 13; k++) {
        int r = ring[k];
        int need = counts[r] - (r == 1 ? link : 0);
        int below = r - 1, above = r == 13 ? 1 : r + 1;
        int take = left[below] < need ? left[below] : need;
        left[below] -= take;
        need -= take;
        if (need > left[above]) return 0;
        left[above] -= need;
    }
    return 1;
}

/* The ring of demands and supplies cut open at a rank nothing is left of: demand i is rank
 * i % 13 + 1 at even i, supply at odd i, and one walk from the cut decides it exactly. */
static int fed_from_gap(const int *counts, const int *supply, int gap) {
    static const int8_t rank_at[52] = {1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13,
                                       1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13,
                                       1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13,
                                       1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13};
    int cut = (gap - 1) % 2 == 0 ? gap - 1 : gap - 1 + 13;
    int carry = 0, owed = 0;
    for (int i = cut + 1; i < cut + 26; i++) {
        int r = rank_at[i];
        if (i & 1) {
            carry = supply[r] - owed;
            if (carry < 0) return 0;
            owed = 0;
        } else {
            int need = counts[r];
            int take = carry < need ? carry : need;
            owed = need - take;
            carry = 0;
        }
    }
    return owed == 0;
}

static int predecessors_suffice(const Search *s, const int *counts, int drawn, int top) {
    const int *stock = s->stock_left[drawn];
    int supply[RANKS + 1], left[RANKS + 1];
    supply[0] = supply[RANKS] = 0;
    for (int r = 1; r < RANKS; r++) supply[r] = counts[r] + stock[r];
    supply[top] += 1;
    memcpy(left, supply, sizeof left);
    int fed = 1;
    /* Along the line: rank r takes from r - 1 (whose other neighbour, r - 2, came before) first. */
    for (int r = 1; r < RANKS; r++) {
        int need = counts[r];
        int take = left[r - 1] < need ? left[r - 1] : need;
        left[r - 1] -= take;
        need -= take;
        if (need > left[r + 1]) {
            fed = 0;
            break;
        }
        left[r + 1] -= need;
    }
    if (fed || !s->wraps) return fed;
    for (int r = 1; r < RANKS; r++)
        if (!counts[r]) return fed_from_gap(counts, supply, r);
    int most = counts[1] < supply[13] ? counts[1] : supply[13];
    for (int link = 0; link <= most; link++)
        if (fed_around(counts, supply, link)) return 1;
    return 0;
}

/* Python's _Search._dfs; the path of moves is kept in s->path[0..depth).
 * s->lost[present | top << 28] is the fewest draws at which that position was lost (top 0: with
 * any top). Lost with d cards drawn means lost with any more drawn: whatever the later position
 * can do, the earlier one can too, drawing through the extra stock cards when the later one draws. */
static int dfs(Search *s, uint32_t present, int drawn, int top, int limit, uint32_t must) {
    s->nodes++;
    if (!present) return 1;
    if (s->lost.failed) return 0;
    uint32_t key = present | (uint32_t)top << 28; /* fetched ahead by the caller */
    if (table_get(&s->lost, key) <= drawn) return 0;
    if (!predecessors_suffice(s, s->counts, drawn, top)) return 0;
    uint32_t moves = must ? must : free_mask(s, present) & s->fit_mask[top];
    int dead_end = 0;
    while (moves) {
        int pos = lowest(moves);
        moves &= moves - 1;
        int rank = s->ranks[pos];
        uint32_t after = present & ~(1u << pos);
        table_prefetch(&s->lost, after | (uint32_t)rank << 28);
        if (!(after & s->fit_mask[rank])) dead_end = 1;
        int64_t next =
            needs(s, after, drawn, rank, limit, s->neighbours[rank], s->neighbour_count[rank]);
        if (next < 0) continue;
        s->path[s->depth++] = (uint8_t)pos;
        s->counts[rank]--;
        int won = dfs(s, after, drawn, rank, limit, (uint32_t)next);
        s->counts[rank]++;
        if (won) return 1;
        s->depth--;
    }
    if (!must && !dead_end && drawn < limit && table_get(&s->lost, present) > drawn) {
        int rank = s->stock[drawn];
        table_prefetch(&s->lost, present | (uint32_t)rank << 28);
        int64_t next = needs(s, present, drawn + 1, rank, limit, s->neighbours[rank],
                             s->neighbour_count[rank]);
        if (next >= 0) {
            s->path[s->depth++] = DRAW_STEP;
            if (dfs(s, present, drawn + 1, rank, limit, (uint32_t)next)) return 1;
            s->depth--;
        }
    }
    table_lower(&s->lost, key, drawn);
    /* Drawing from here reaches what drawing from any later count of draws with these cards does. */
    table_lower(&s->lost, present, drawn);
    return 0;
}

static const uint8_t ALL_RANKS[13] = {1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13};

/* Python's _Search.run: 1 and the path in s->path when won within `limit` draws in all. */
static int run(Search *s, uint32_t present, int drawn, int top, int limit) {
    s->depth = 0;
    for (int d = 0; d <= s->stock_size; d++)
        for (int r = 0; r < RANKS; r++)
            s->stock_left[d][r] = d > limit ? 0 : s->stock_ranks[r][limit] - s->stock_ranks[r][d];
    for (int r = 0; r < RANKS; r++) s->counts[r] = bit_count(present & s->rank_mask[r]);
    int64_t must = needs(s, present, drawn, top, limit, ALL_RANKS, 13);
    if (must < 0) return 0;
    return dfs(s, present, drawn, top, limit, (uint32_t)must);
}

/* ---- the most cards a lost position still lets a player remove ---- */

typedef struct {
    Search *s;
    Table seen;
    int floor;
    int best;
} Removal;

static uint32_t never_removed(const Search *s, uint32_t present, int drawn, int top) {
    uint32_t free_cards = free_mask(s, present), stuck = 0, rest = present;
    while (rest) {
        int pos = lowest(rest);
        rest &= rest - 1;
        int rank = s->ranks[pos];
        if (s->stock_fits[rank][s->stock_size] - s->stock_fits[rank][drawn] > 0 ||
            ((free_cards >> pos & 1) && s->fits[top][rank]))
            continue;
        if (!(present & s->fit_mask[rank] & ~s->no_bridge[pos])) stuck |= 1u << pos | s->under[pos];
    }
    return stuck & present;
}

static void visit(Removal *m, uint32_t present, int drawn, int top) {
    Search *s = m->s;
    /* As in the search: explored to the end with fewer cards drawn, it reached at least as much.
     * Only a finished position counts: one still being explored may be counting on this one. */
    uint32_t key = present | (uint32_t)top << 28;
    if (m->seen.failed || m->best <= m->floor || table_get(&m->seen, key) <= drawn) return;
    int left = bit_count(present);
    if (left < m->best) m->best = left;
    int dead_end = 0;
    uint32_t moves = free_mask(s, present) & s->fit_mask[top];
    while (moves) {
        int pos = lowest(moves);
        moves &= moves - 1;
        uint32_t after = present & ~(1u << pos);
        int rank = s->ranks[pos];
        if (!(after & s->fit_mask[rank])) dead_end = 1;
        visit(m, after, drawn, rank);
    }
    if (drawn < s->stock_size && !dead_end) visit(m, present, drawn + 1, s->stock[drawn]);
    table_lower(&m->seen, key, drawn);
}

/* ---- Python entry point ---- */

static int read_masks(PyObject *bytes, uint32_t *out, Py_ssize_t count, const char *what) {
    if (!PyBytes_Check(bytes) || PyBytes_GET_SIZE(bytes) != 4 * count) {
        PyErr_Format(PyExc_ValueError, "%s: %zd little-endian 32-bit masks expected", what, count);
        return 0;
    }
    const unsigned char *b = (const unsigned char *)PyBytes_AS_STRING(bytes);
    for (Py_ssize_t i = 0; i < count; i++)
        out[i] = (uint32_t)b[4 * i] | (uint32_t)b[4 * i + 1] << 8 | (uint32_t)b[4 * i + 2] << 16 |
                 (uint32_t)b[4 * i + 3] << 24;
    return 1;
}

static PyObject *py_solve(PyObject *self, PyObject *args) {
    (void)self;
    const char *ranks, *stock, *fits;
    Py_ssize_t ranks_len, stock_len, fits_len;
    PyObject *lying_under, *under, *no_bridge;
    int wraps, drawn, top, best_win;
    unsigned long present;
    if (!PyArg_ParseTuple(args, "y#y#y#SSSpkiip", &ranks, &ranks_len, &stock, &stock_len, &fits,
                          &fits_len, &lying_under, &under, &no_bridge, &wraps, &present, &drawn, &top,
                          &best_win))
        return NULL;
    if (ranks_len != TABLEAU || stock_len > MAX_STOCK || fits_len != RANKS * RANKS ||
        present >> TABLEAU || drawn < 0 || drawn > stock_len || top < 1 || top >= RANKS) {
        PyErr_SetString(PyExc_ValueError, "not a position of a deal");
        return NULL;
    }
    Search *s = calloc(1, sizeof(Search));
    if (s == NULL) return PyErr_NoMemory();
    memcpy(s->ranks, ranks, TABLEAU);
    for (Py_ssize_t d = 0; d < stock_len; d++)
        if (stock[d] < 1 || stock[d] >= RANKS) {
            free(s);
            PyErr_SetString(PyExc_ValueError, "a rank out of 1-13");
            return NULL;
        }
    memcpy(s->stock, stock, (size_t)stock_len);
    memcpy(s->fits, fits, RANKS * RANKS);
    s->stock_size = (int)stock_len;
    s->wraps = wraps;
    if (!read_masks(lying_under, &s->lying_under[0][0], 4 * 128, "lying_under") ||
        !read_masks(under, s->under, TABLEAU, "under") ||
        !read_masks(no_bridge, s->no_bridge, TABLEAU, "no_bridge")) {
        free(s);
        return NULL;
    }
    for (int p = 0; p < TABLEAU; p++) {
        if (s->ranks[p] < 1 || s->ranks[p] >= RANKS) {
            free(s);
            PyErr_SetString(PyExc_ValueError, "a rank out of 1-13");
            return NULL;
        }
        s->rank_mask[s->ranks[p]] |= 1u << p;
        for (int on = 1; on < RANKS; on++)
            if (s->fits[on][s->ranks[p]]) s->fit_mask[on] |= 1u << p;
    }
    for (int r = 1; r < RANKS; r++) {
        for (int d = 0; d < s->stock_size; d++) {
            s->stock_fits[r][d + 1] = s->stock_fits[r][d] + (s->fits[r][s->stock[d]] ? 1 : 0);
            s->stock_ranks[r][d + 1] = s->stock_ranks[r][d] + (s->stock[d] == r);
        }
        for (int n = 1; n < RANKS; n++)
            if (s->fits[r][n]) s->neighbours[r][s->neighbour_count[r]++] = (uint8_t)n;
    }
    PyObject *result = NULL;
    if (!table_init(&s->lost)) goto done;

    uint32_t start = (uint32_t)present;
    int won = 0, left = 0;
    uint8_t line[MAX_PATH];
    int line_length = 0;
    Py_BEGIN_ALLOW_THREADS
    won = run(s, start, drawn, top, s->stock_size);
    if (won) {
        memcpy(line, s->path, (size_t)s->depth);
        line_length = s->depth;
        while (best_win) {
            int draws = 0;
            for (int i = 0; i < line_length; i++) draws += line[i] == DRAW_STEP;
            if (!draws || !run(s, start, drawn, top, drawn + draws - 1)) break;
            memcpy(line, s->path, (size_t)s->depth);
            line_length = s->depth;
        }
    } else if (best_win && !s->lost.failed) {
        Removal m = {.s = s, .best = bit_count(start)};
        int floor = bit_count(never_removed(s, start, drawn, top));
        m.floor = floor > 1 ? floor : 1;
        if (table_init(&m.seen)) visit(&m, start, drawn, top);
        if (m.seen.failed) s->lost.failed = 1;
        table_free(&m.seen);
        left = m.best;
    }
    Py_END_ALLOW_THREADS
    if (s->lost.failed) {
        PyErr_NoMemory();
        goto done;
    }
    if (won)
        result = Py_BuildValue("y#iL", (const char *)line, (Py_ssize_t)line_length, 0, s->nodes);
    else
        result = Py_BuildValue("OiL", Py_None, left, s->nodes);
done:
    table_free(&s->lost);
    free(s);
    if (result == NULL && !PyErr_Occurred()) PyErr_NoMemory();
    return result;
}

static PyMethodDef methods[] = {
    {"solve", py_solve, METH_VARARGS,
     "solve(ranks, stock, fits, lying_under, under, no_bridge, wraps, present, drawn, top, best_win)\n"
     "-> (line or None, cards left at best when lost (best_win only), nodes).\n"
     "line is bytes: a position 0-27 for a play, 255 for a draw."},
    {NULL, NULL, 0, NULL},
};

static struct PyModuleDef module = {
    PyModuleDef_HEAD_INIT, "tripeaks._search",
    "The solver's depth-first search, compiled (see tripeaks/solver.py).", -1, methods,
};

PyMODINIT_FUNC PyInit__search(void) { return PyModule_Create(&module); }
