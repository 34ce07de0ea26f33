/* The solver's search, compiled: the same depth-first search as tripeaks/solver.py's _Search.
 *
 * It knows no rule and no layout of its own. Python hands it the deal's ranks, which rank fits
 * on which (from tripeaks.rules), and masks made once from tripeaks.layout: what the cards lie on,
 * what lies under each card, which cards can never be the one it goes on; and whether ranks wrap
 * round. This file only walks positions. It makes the same moves in the same order as the Python
 * search, so both return the same line and count the same nodes (the tests check that).
 *
 * Tables of positions are keyed by present (28 bits) | top << 28 and keep a count of draws.
 * A top of 0 (WILD) is an empty discard or a joker, on which any card goes; a stock card of rank 0
 * is the joker (docs/solver.md "The variants": which bounds count it and how).
 *
 * Beside it: the deal format's shuffle (deal_deck, the same cards as tripeaks/codes.py), decide
 * (the capped search in two move orders, then the backward pass over the 22,932 table sets), the
 * backward pass itself (prepare) and the best win by backward passes over a shortened stock.
 */
#define PY_SSIZE_T_CLEAN
#include <Python.h>
#include <limits.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#define TABLEAU 28
#define RANKS 14
#define MAX_STOCK 32
#define MAX_PATH 64
#define DRAW_STEP 255
#define NEVER 99 /* a count of draws past any stock */
/* The wildcard: the top of an empty discard or of a joker, and the joker's rank in the stock.
 * fits[WILD][r] is 1 for every rank (anything goes on it); no card goes on as a joker. */
#define WILD 0
#define ANY_TOP (15u << 28) /* the lost table's "these cards with any top" (a top is 0-13) */

#if defined(__GNUC__) || defined(__clang__)
#define PREFETCH(address) __builtin_prefetch(address)
#else /* any other C99 compiler: no hint to the cache, the same answers */
#define PREFETCH(address) ((void)(address))
#endif

/* ---- dealing: docs/deal-format.md, card for card the same as tripeaks/codes.py's deal ---- */

static inline uint64_t splitmix_next(uint64_t *state) {
    uint64_t z = (*state += 0x9E3779B97F4A7C15ULL);
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ULL;
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBULL;
    return z ^ (z >> 31);
}

/* A fair number below k: outputs at or past the largest multiple of k are thrown away (step 3).
 * rest is 2^64 mod k (in wrapping arithmetic, (0 - k) % k), handed over from a table. */
static inline uint64_t splitmix_below(uint64_t *state, uint64_t k, uint64_t rest) {
    for (;;) {
        uint64_t x = splitmix_next(state);
        if (rest == 0 || x < 0 - rest) return x % k;
    }
}

/* 2^64 mod k for k = 0..52 (0 for k < 2), made when the module loads: a 64-bit division fewer
 * a card. */
static uint64_t deal_rest[53];

static void make_deal_rest(void) {
    for (uint64_t k = 2; k <= 52; k++) deal_rest[k] = (0 - k) % k;
}

/* The shuffled deck of deal number n: tableau 0-27, the discard 28, the stock 29-51 top first.
 * The generator's state after the shuffle goes to *after (the joker's place is its next draw). */
static void deal_deck_from(uint64_t n, uint8_t deck[52], uint64_t *after) {
    uint64_t state = n;
    for (int c = 0; c < 52; c++) deck[c] = (uint8_t)c;
    for (int i = 51; i > 0; i--) {
        int j = (int)splitmix_below(&state, (uint64_t)i + 1, deal_rest[i + 1]);
        uint8_t card = deck[i];
        deck[i] = deck[j];
        deck[j] = card;
    }
    *after = state;
}

static void deal_deck(uint64_t n, uint8_t deck[52]) {
    uint64_t after;
    deal_deck_from(n, deck, &after);
}

/* ---- a map from 32-bit keys to a count of draws, open addressing ----
 * Key, value and the table's generation share one 64-bit entry (key low, value in the next 8
 * bits, the generation above), so a look costs one cache line, and emptying the table for the
 * next search is one increment: an entry of another generation is an empty slot. */

#define GEN_SHIFT 40
#define GEN_LIMIT (1u << 24)
#define SMALL_TABLE (1 << 11) /* 16 KB: a capped decide's few hundred positions, at most half full */

typedef struct {
    uint64_t *entries;
    size_t mask;       /* capacity - 1, a power of two */
    size_t used;
    uint64_t gen;      /* the generation of the live entries, from 1 */
    int failed;        /* an allocation failed: the search answers MemoryError */
} Table;

static int table_init(Table *t) {
    size_t capacity = SMALL_TABLE;
    t->entries = calloc(capacity, sizeof(uint64_t));
    t->mask = capacity - 1;
    t->used = 0;
    t->gen = 1;
    t->failed = t->entries == NULL;
    return !t->failed;
}

static void table_free(Table *t) {
    free(t->entries);
    t->entries = NULL;
}

/* Empty the table for another search: a new generation (a real clearing once in 2^24). A table
 * that grew goes back to the small size: a decide after a long search would otherwise look its
 * few hundred positions up all over a large table, most of it long out of the cache. */
static int table_reset(Table *t) {
    if (t->failed || t->mask + 1 > SMALL_TABLE) {
        table_free(t);
        return table_init(t);
    }
    t->used = 0;
    if (++t->gen == GEN_LIMIT) {
        memset(t->entries, 0, (t->mask + 1) * sizeof(uint64_t));
        t->gen = 1;
    }
    return 1;
}

static inline int live(const Table *t, uint64_t entry) { return entry >> GEN_SHIFT == t->gen; }

static inline size_t slot_of(uint32_t key, size_t mask) {
    return (size_t)(((uint64_t)key * 0x9E3779B97F4A7C15ULL) >> 29) & mask;
}

/* Index of key's slot, or of the empty slot where it would go. */
static inline size_t table_find(const Table *t, uint32_t key) {
    size_t i = slot_of(key, t->mask);
    while (live(t, t->entries[i]) && (uint32_t)t->entries[i] != key) i = (i + 1) & t->mask;
    return i;
}

static inline void table_prefetch(const Table *t, uint32_t key) {
    PREFETCH(&t->entries[slot_of(key, t->mask)]);
}

static inline int value_of(uint64_t entry) { return (int)(entry >> 32 & 0xFF); }

/* The value kept for key, NEVER when there is none. */
static inline int table_get(const Table *t, uint32_t key) {
    uint64_t entry = t->entries[table_find(t, key)];
    return live(t, entry) ? value_of(entry) : NEVER;
}

static void table_grow(Table *t) {
    size_t capacity = (t->mask + 1) * 2;
    uint64_t *entries = calloc(capacity, sizeof(uint64_t));
    if (entries == NULL) {
        t->failed = 1;
        return;
    }
    uint64_t gen = t->gen;
    for (size_t i = 0; i <= t->mask; i++) {
        if (!live(t, t->entries[i])) continue;
        size_t j = slot_of((uint32_t)t->entries[i], capacity - 1);
        while (entries[j] >> GEN_SHIFT == gen) j = (j + 1) & (capacity - 1);
        entries[j] = t->entries[i];
    }
    free(t->entries);
    t->entries = entries;
    t->mask = capacity - 1;
}

/* Keep value for key unless a smaller one is kept already. */
static void table_lower(Table *t, uint32_t key, int value) {
    size_t i = table_find(t, key);
    uint64_t entry = t->gen << GEN_SHIFT | (uint64_t)value << 32 | key;
    if (live(t, t->entries[i])) {
        if (value_of(t->entries[i]) > value) t->entries[i] = entry;
        return;
    }
    if (2 * (t->used + 1) > t->mask + 1) {
        table_grow(t);
        if (t->failed) return;
        i = table_find(t, key);
    }
    t->entries[i] = entry;
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
    /* spare[depth][u]: discard cards of rank u that an assignment found for the position at that
     * depth leaves unused (see predecessors_suffice), a witness its children can reuse. */
    int8_t spare[MAX_PATH + 1][RANKS + 2];
    int depth;
    long long nodes;
    long long cap; /* stop after this many positions (decide), LLONG_MAX otherwise */
    int order;     /* 0: plays lowest position first (as the Python search); else decide's order */
    int stock_left_for; /* 1 + the limit stock_left was filled for, 0 when not filled for this deal */
    unsigned layout_stamp; /* layout_stamp when the layout's masks were copied in, 0 never */
} Search;

#define DECIDE_TRY 200 /* positions of each of decide's two short tries */

/* Without -mpopcnt, __builtin_popcount calls a slow library routine: count in the register. */
static inline int bit_count(uint32_t x) {
    x = x - ((x >> 1) & 0x55555555u);
    x = (x & 0x33333333u) + ((x >> 2) & 0x33333333u);
    return (int)((((x + (x >> 4)) & 0x0F0F0F0Fu) * 0x01010101u) >> 24);
}
#if defined(__GNUC__) || defined(__clang__)
static inline int lowest(uint32_t x) { return __builtin_ctz(x); }
#else /* any other C99 compiler: the same answers, a little slower */
static inline int lowest(uint32_t x) {
    int n = 0;
    while (!(x & 1u)) {
        x >>= 1;
        n++;
    }
    return n;
}
#endif

/* The cards present that no present card lies on, from four looks at 7 cards at a time. */
static inline uint32_t free_mask(const Search *s, uint32_t present) {
    return present & ~(s->lying_under[0][present & 127] | s->lying_under[1][present >> 7 & 127] |
                       s->lying_under[2][present >> 14 & 127] | s->lying_under[3][present >> 21]);
}

/* Python's _Search.needs: -1 when some rank of `ranks` can no longer all be played, else the
 * cards one of which must be played now on `top` (0 when nothing is forced). s->counts must be
 * the counts of `present` by rank: the cards of a rank and those fitting on it are counted from
 * them (no population counts). */
static int64_t needs(const Search *s, uint32_t present, int drawn, int top, int limit,
                     const uint8_t *ranks, int count) {
    uint32_t must = 0;
    int have_free = 0;
    uint32_t free_cards = 0;
    for (int k = 0; k < count; k++) {
        int r = ranks[k];
        if (!s->counts[r]) continue;
        uint32_t cards = present & s->rank_mask[r];
        int from_stock = s->stock_fits[r][limit] - s->stock_fits[r][drawn];
        uint32_t sources = present & s->fit_mask[r];
        int spare = from_stock - s->counts[r];
        for (int j = 0; j < s->neighbour_count[r]; j++) spare += s->counts[s->neighbours[r][j]];
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
static int fed_around(const int *counts, const int *supply, int link, int wild) {
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
        if (need > left[above]) { /* the wildcards feed what is left unfed, if they can */
            wild -= need - left[above];
            if (wild < 0) return 0;
            need = left[above];
        }
        left[above] -= need;
    }
    return 1;
}

/* The ring of demands and supplies cut open at a rank nothing is left of: demand i is rank
 * i % 13 + 1 at even i, supply at odd i, and one walk from the cut decides it exactly. */
static int fed_from_gap(const int *counts, const int *supply, int gap, int wild) {
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
            if (carry < 0) { /* unfed: the wildcards' */
                wild += carry;
                if (wild < 0) return 0;
                carry = 0;
            }
            owed = 0;
        } else {
            int need = counts[r];
            int take = carry < need ? carry : need;
            owed = need - take;
            carry = 0;
        }
    }
    return owed <= wild;
}

/* spare: the discard cards of each rank the assignment found leaves unused (all 0 when the
 * answer came from the ring, which gives no such assignment here). A wildcard (a WILD top, a
 * joker still to come within the limit: stock[WILD]) feeds any one card, so the walks may leave
 * that many cards unfed; the greedy walk feeds the most cards there are (no demand has another
 * use for what it takes first). */
static int predecessors_suffice(const Search *s, const int *counts, int drawn, int top,
                                int8_t *spare) {
    const int *stock = s->stock_left[drawn];
    int supply[RANKS + 1];
    int fed = 1, wild = stock[WILD] + (top == WILD);
    /* Along the line: rank r takes from r - 1 (whose other neighbour, r - 2, came before) first,
     * then from r + 1. Walked in registers: before is what r - 1 has left, at what r has left
     * once r - 1 took from it; r - 1's last taker is r, so what it has left then is unused. */
    int before = 0, at = counts[1] + stock[1] + (top == 1);
    for (int r = 1; r < RANKS; r++) {
        int need = counts[r];
        int take = before < need ? before : need;
        need -= take;
        spare[r - 1] = (int8_t)(before - take);
        int above = r + 1 < RANKS ? counts[r + 1] + stock[r + 1] + (top == r + 1) : 0;
        if (need > above) {
            if (need - above > wild) {
                fed = 0;
                break;
            }
            wild -= need - above; /* fed by wildcards (never in the standard game) */
            need = above;
        }
        before = at;
        at = above - need;
    }
    if (fed) {
        spare[RANKS - 1] = (int8_t)before;
        return 1;
    }
    memset(spare, 0, RANKS + 2);
    if (!s->wraps) return 0;
    wild = stock[WILD] + (top == WILD);
    supply[0] = supply[RANKS] = 0;
    for (int r = 1; r < RANKS; r++) supply[r] = counts[r] + stock[r];
    if (top != WILD) supply[top] += 1;
    for (int r = 1; r < RANKS; r++)
        if (!counts[r]) return fed_from_gap(counts, supply, r, wild);
    int most = counts[1] < supply[13] ? counts[1] : supply[13];
    for (int link = 0; link <= most; link++)
        if (fed_around(counts, supply, link, wild)) return 1;
    return 0;
}

/* Python's _Search._dfs; the path of moves is kept in s->path[0..depth).
 * s->lost[present | top << 28] is the fewest draws at which that position was lost (ANY_TOP:
 * with any top; a top of 0 is the wildcard). Lost with d cards drawn means lost with any more drawn: whatever the later position
 * can do, the earlier one can too, drawing through the extra stock cards when the later one draws. */
static int dfs(Search *s, uint32_t present, int drawn, int top, int limit, uint32_t must,
               int gone) {
    s->nodes++;
    if (!present) return 1;
    if (s->nodes > s->cap) return 0; /* given up: what it would record is thrown away */
    if (s->lost.failed) return 0;
    uint32_t key = present | (uint32_t)top << 28; /* fetched ahead by the caller */
    if (table_get(&s->lost, key) <= drawn) return 0;
    /* Every card left needs its own discard card. The move here took one discard card of rank
     * `gone` (the old top) and one card needing one; when the parent's assignment left a card of
     * that rank unused, it still feeds everything here (a cut walk: the same answer). */
    int8_t *spare = s->spare[s->depth];
    if (gone && spare[-(RANKS + 2) + gone] > 0) {
        memcpy(spare, spare - (RANKS + 2), RANKS + 2);
        spare[gone]--;
    } else if (!predecessors_suffice(s, s->counts, drawn, top, spare)) {
        return 0;
    }
    uint32_t moves = must ? must : free_mask(s, present) & s->fit_mask[top];
    /* Every child's entry in the lost table, and the draw's, asked for at once: the looks are
     * the search's chain of cache misses, and one child's look then overlaps the others'. */
    for (uint32_t rest = moves; rest; rest &= rest - 1) {
        int pos = lowest(rest);
        table_prefetch(&s->lost, (present & ~(1u << pos)) | (uint32_t)s->ranks[pos] << 28);
    }
    if (drawn < limit) table_prefetch(&s->lost, present | ANY_TOP);
    int dead_end = 0;
    /* The plays in the order tried: lowest position first, as in the Python search, or (decide's
     * order) those that free the most cards first, then those after which another play follows
     * on the card just played, then the highest position. */
    int list[TABLEAU], n = 0, at = 0;
    if (s->order && (moves & (moves - 1))) {
        int keys[TABLEAU];
        uint32_t free_now = free_mask(s, present);
        for (uint32_t rest = moves; rest; rest &= rest - 1) {
            int pos = lowest(rest), rank = s->ranks[pos];
            uint32_t free_after = free_mask(s, present & ~(1u << pos));
            uint32_t freed = free_after & ~free_now; /* at most the two cards it lay over */
            int key = ((freed != 0) + ((freed & (freed - 1)) != 0)) * 256 +
                      ((free_after & s->fit_mask[rank]) != 0) * 64 + pos;
            int k = n++;
            for (; k > 0 && keys[k - 1] < key; k--) {
                keys[k] = keys[k - 1];
                list[k] = list[k - 1];
            }
            keys[k] = key;
            list[k] = pos;
        }
    } else {
        for (uint32_t rest = moves; rest; rest &= rest - 1) list[n++] = lowest(rest);
    }
    while (at < n) {
        int pos = list[at++];
        int rank = s->ranks[pos];
        uint32_t after = present & ~(1u << pos);
        if (!(after & s->fit_mask[rank])) dead_end = 1;
        s->counts[rank]--;
        int64_t next =
            needs(s, after, drawn, rank, limit, s->neighbours[rank], s->neighbour_count[rank]);
        if (next < 0) {
            s->counts[rank]++;
            continue;
        }
        s->path[s->depth++] = (uint8_t)pos;
        int won = dfs(s, after, drawn, rank, limit, (uint32_t)next, top);
        s->counts[rank]++;
        if (won) return 1;
        s->depth--;
    }
    if (!must && !dead_end && drawn < limit && table_get(&s->lost, present | ANY_TOP) > drawn) {
        int rank = s->stock[drawn];
        table_prefetch(&s->lost, present | (uint32_t)rank << 28);
        int64_t next = needs(s, present, drawn + 1, rank, limit, s->neighbours[rank],
                             s->neighbour_count[rank]);
        if (next >= 0) {
            s->path[s->depth++] = DRAW_STEP;
            if (dfs(s, present, drawn + 1, rank, limit, (uint32_t)next, top)) return 1;
            s->depth--;
        }
    }
    if (s->nodes > s->cap) return 0; /* not explored to the end: nothing proved lost */
    table_lower(&s->lost, key, drawn);
    /* Drawing from here reaches what drawing from any later count of draws with these cards does. */
    table_lower(&s->lost, present | ANY_TOP, drawn);
    return 0;
}

static const uint8_t ALL_RANKS[13] = {1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13};

/* Python's _Search.run: 1 and the path in s->path when won within `limit` draws in all. */
static int run(Search *s, uint32_t present, int drawn, int top, int limit) {
    s->depth = 0;
    if (s->stock_left_for != limit + 1) { /* decide's tries share one limit: filled once */
        for (int d = 0; d <= s->stock_size; d++)
            for (int r = 0; r < RANKS; r++)
                s->stock_left[d][r] =
                    d > limit ? 0 : s->stock_ranks[r][limit] - s->stock_ranks[r][d];
        s->stock_left_for = limit + 1;
    }
    for (int r = 0; r < RANKS; r++) s->counts[r] = bit_count(present & s->rank_mask[r]);
    int64_t must = needs(s, present, drawn, top, limit, ALL_RANKS, 13);
    if (must < 0) return 0;
    return dfs(s, present, drawn, top, limit, (uint32_t)must, 0);
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

/* The search's tables that follow from the deal's ranks, stock and fits (already in s). */
static void derive(Search *s) {
    for (int p = 0; p < TABLEAU; p++) s->rank_mask[s->ranks[p]] |= 1u << p;
    for (int r = 0; r < RANKS; r++) { /* from WILD: every rank goes on it */
        for (int n = 1; n < RANKS; n++)
            if (s->fits[r][n]) {
                s->neighbours[r][s->neighbour_count[r]++] = (uint8_t)n;
                s->fit_mask[r] |= s->rank_mask[n];
            }
    }
    /* The stock's running counts, one card at a time: each card adds to its own rank and to the
     * ranks that go on it (13 x 23 looks of fits were most of this function's time): a joker
     * (WILD) takes every rank, and stock_ranks[WILD] counts the jokers. */
    uint8_t fits[RANKS] = {0}, same[RANKS] = {0};
    for (int d = 0; d < s->stock_size; d++) {
        int q = s->stock[d];
        same[q]++;
        for (int r = 1; r < RANKS; r++) fits[r] += s->fits[q][r] != 0;
        for (int r = 0; r < RANKS; r++) {
            s->stock_fits[r][d + 1] = fits[r];
            s->stock_ranks[r][d + 1] = same[r];
        }
    }
    s->stock_left_for = 0;
}

/* The layout's masks as the last call handed them over, decoded: the same three bytes objects
 * (kept alive here, so their addresses cannot be reused) are not decoded again. */
static PyObject *layout_objects[3];
static uint32_t layout_lying_under[4][128], layout_under[TABLEAU], layout_no_bridge[TABLEAU];
static unsigned layout_stamp = 1; /* changes whenever the decoded layout does */

static int read_layout(PyObject *lying_under, PyObject *under, PyObject *no_bridge, Search *s) {
    if (lying_under != layout_objects[0] || under != layout_objects[1] ||
        no_bridge != layout_objects[2]) {
        if (!read_masks(lying_under, &layout_lying_under[0][0], 4 * 128, "lying_under") ||
            !read_masks(under, layout_under, TABLEAU, "under") ||
            !read_masks(no_bridge, layout_no_bridge, TABLEAU, "no_bridge")) {
            for (int k = 0; k < 3; k++) Py_CLEAR(layout_objects[k]);
            layout_stamp++;
            return 0;
        }
        layout_stamp++;
        PyObject *objects[3] = {lying_under, under, no_bridge};
        for (int k = 0; k < 3; k++) {
            Py_INCREF(objects[k]);
            Py_XSETREF(layout_objects[k], objects[k]);
        }
    }
    if (s->layout_stamp != layout_stamp) { /* a kept Search has them already (2.3 KB a call) */
        memcpy(s->lying_under, layout_lying_under, sizeof layout_lying_under);
        memcpy(s->under, layout_under, sizeof layout_under);
        memcpy(s->no_bridge, layout_no_bridge, sizeof layout_no_bridge);
        s->layout_stamp = layout_stamp;
    }
    return 1;
}

/* One Search kept between calls: taken and given back with the GIL held (so by one thread at a
 * time), it spares each decide a few kilobytes of allocation and clearing. A search while another
 * holds it gets its own. */
static Search *spare_search;

/* An empty Search with an empty lost table, NULL when out of memory. Needs the GIL. */
static Search *take_search(void) {
    Search *s = spare_search;
    spare_search = NULL;
    if (s == NULL) {
        s = calloc(1, sizeof(Search));
        if (s == NULL) return NULL;
        if (!table_init(&s->lost)) {
            free(s);
            return NULL;
        }
        return s;
    }
    /* Only what a new deal reads before writing is cleared (the whole Search is 7 KB, out of the
     * cache after a backward pass): what derive accumulates, and the counters. The rest (the
     * stock's running counts past column 0, the spare assignments, the path) is written before
     * it is read; column 0 of the running counts stays 0 from the calloc. */
    memset(s->rank_mask, 0, sizeof s->rank_mask);
    memset(s->fit_mask, 0, sizeof s->fit_mask);
    memset(s->neighbour_count, 0, sizeof s->neighbour_count);
    s->depth = 0;
    s->nodes = 0;
    s->order = 0;
    s->stock_left_for = 0;
    if (!table_reset(&s->lost)) {
        free(s);
        return NULL;
    }
    return s;
}

static void give_back(Search *s) {
    if (spare_search == NULL) {
        spare_search = s;
        return;
    }
    table_free(&s->lost);
    free(s);
}

/* A Search for the deal of ranks, stock and fits, with the layout's masks; NULL with an error set. */
static Search *new_search(const char *ranks, Py_ssize_t ranks_len, const char *stock,
                          Py_ssize_t stock_len, const char *fits, Py_ssize_t fits_len,
                          PyObject *lying_under, PyObject *under, PyObject *no_bridge, int wraps,
                          unsigned long present, int drawn, int top) {
    if (ranks_len != TABLEAU || stock_len > MAX_STOCK || fits_len != RANKS * RANKS ||
        present >> TABLEAU || drawn < 0 || drawn > stock_len || top < 0 || top >= RANKS) {
        PyErr_SetString(PyExc_ValueError, "not a position of a deal");
        return NULL;
    }
    Search *s = take_search();
    if (s == NULL) return (Search *)PyErr_NoMemory();
    memcpy(s->ranks, ranks, TABLEAU);
    for (Py_ssize_t d = 0; d < stock_len; d++)
        if (stock[d] < 0 || stock[d] >= RANKS) { /* 0: a joker */
            give_back(s);
            PyErr_SetString(PyExc_ValueError, "a stock rank out of 0-13");
            return NULL;
        }
    memcpy(s->stock, stock, (size_t)stock_len);
    memcpy(s->fits, fits, RANKS * RANKS);
    s->stock_size = (int)stock_len;
    s->wraps = wraps;
    s->cap = LLONG_MAX;
    if (!read_layout(lying_under, under, no_bridge, s)) {
        give_back(s);
        return NULL;
    }
    for (int p = 0; p < TABLEAU; p++)
        if (s->ranks[p] < 1 || s->ranks[p] >= RANKS) {
            give_back(s);
            PyErr_SetString(PyExc_ValueError, "a rank out of 1-13");
            return NULL;
        }
    derive(s);
    return s;
}

static void free_search(Search *s) { give_back(s); }

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
    Search *s = new_search(ranks, ranks_len, stock, stock_len, fits, fits_len, lying_under, under,
                           no_bridge, wraps, present, drawn, top);
    if (s == NULL) return NULL;
    PyObject *result = NULL;
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
    free_search(s);
    if (result == NULL && !PyErr_Occurred()) PyErr_NoMemory();
    return result;
}

/* ---- every position of a deal at once: the backward pass over the table sets ----
 *
 * A card leaves only when both cards over it are gone, so the cards on the table are always a
 * set closed downwards (with a card, every card it lies on): only 22,932 such sets exist. They
 * are numbered once, by card count and then mask, with the free cards of each and the set each
 * removal leads to. For a deal, reach[set][top] is one more than the most cards drawn from which
 * (set, drawn, top) can still be won, 0 when it cannot be won at all: drawing fewer never hurts,
 * so the position is won exactly when drawn < reach. Sets are worked from the fewest cards up,
 * since a removal leads to a set numbered lower, and within a set the draws from the last one
 * back: a draw keeps the set. */

#define MAX_SETS 32768
#define REACH_ROW 16 /* bytes per set: tops 0 (WILD) to 13, the rest 0 */
#define HEADER 272   /* prepared: magic, stock size, ranks, stock, fits, then reach */

static int set_count;
static uint32_t set_mask[MAX_SETS];
static uint64_t set_key[MAX_SETS]; /* card count << 32 | mask, ascending: the numbering */
static int32_t removal_start[MAX_SETS + 1];
static uint8_t *removal_pos;       /* free cards of each set, lowest position first */
static uint16_t *removal_next;     /* the set their removal leads to */
static uint32_t sets_lying_under[4][128];

static inline uint64_t key_of(uint32_t mask) { return (uint64_t)bit_count(mask) << 32 | mask; }

/* The first set whose key is at least `key` (set_count when none): the keys are sorted. */
static int first_key_at_least(uint64_t key) {
    int lo = 0, hi = set_count;
    while (lo < hi) {
        int mid = (lo + hi) / 2;
        if (set_key[mid] < key)
            lo = mid + 1;
        else
            hi = mid;
    }
    return lo;
}

/* The number of a table set, -1 when mask is not one. */
static int set_index(uint32_t mask) {
    uint64_t key = key_of(mask);
    int at = first_key_at_least(key);
    return at < set_count && set_key[at] == key ? at : -1;
}

static int compare_keys(const void *a, const void *b) {
    uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;
    return (x > y) - (x < y);
}

static inline uint32_t free_of(uint32_t present) {
    return present & ~(sets_lying_under[0][present & 127] | sets_lying_under[1][present >> 7 & 127] |
                       sets_lying_under[2][present >> 14 & 127] |
                       sets_lying_under[3][present >> 21]);
}

/* Number the table sets once, from the layout Python hands over; 0 with an error set. */
static PyObject *sets_layout_object; /* the bytes the sets were numbered from, kept alive */

static int number_sets(PyObject *lying_under) {
    if (set_count && lying_under == sets_layout_object) return 1;
    uint32_t layout[4][128];
    if (!read_masks(lying_under, &layout[0][0], 4 * 128, "lying_under")) return 0;
    if (set_count) {
        if (memcmp(layout, sets_lying_under, sizeof layout) == 0) {
            Py_INCREF(lying_under);
            Py_XSETREF(sets_layout_object, lying_under);
            return 1;
        }
        PyErr_SetString(PyExc_ValueError, "lying_under: another layout than the first one");
        return 0;
    }
    memcpy(sets_lying_under, layout, sizeof layout);
    /* Every set reached from the full table by removing free cards, in a hash set (mask + 1). */
    enum { SLOTS = 1 << 17 };
    uint32_t *seen = calloc(SLOTS, sizeof(uint32_t));
    uint32_t *stack = malloc(MAX_SETS * sizeof(uint32_t));
    int count = 0, depth = 0, ok = seen != NULL && stack != NULL;
    uint32_t full = (1u << TABLEAU) - 1;
    if (ok) {
        stack[depth++] = full;
        seen[slot_of(full, SLOTS - 1)] = full + 1;
    }
    while (ok && depth) {
        uint32_t mask = stack[--depth];
        if (count == MAX_SETS) {
            ok = 0;
            break;
        }
        set_key[count++] = key_of(mask);
        for (uint32_t rest = free_of(mask); rest; rest &= rest - 1) {
            uint32_t after = mask & ~(rest & -rest);
            size_t i = slot_of(after, SLOTS - 1);
            while (seen[i] && seen[i] != after + 1) i = (i + 1) & (SLOTS - 1);
            if (seen[i]) continue;
            if (depth == MAX_SETS) {
                ok = 0;
                break;
            }
            seen[i] = after + 1;
            stack[depth++] = after;
        }
    }
    free(seen);
    free(stack);
    if (!ok) {
        PyErr_NoMemory();
        return 0;
    }
    qsort(set_key, (size_t)count, sizeof set_key[0], compare_keys);
    int removals = 0;
    for (int i = 0; i < count; i++) {
        set_mask[i] = (uint32_t)set_key[i];
        removals += bit_count(free_of(set_mask[i]));
    }
    removal_pos = malloc((size_t)removals);
    removal_next = malloc((size_t)removals * sizeof(uint16_t));
    if (removal_pos == NULL || removal_next == NULL) {
        free(removal_pos);
        free(removal_next);
        PyErr_NoMemory();
        return 0;
    }
    set_count = count;
    int k = 0;
    for (int i = 0; i < count; i++) {
        removal_start[i] = k;
        for (uint32_t rest = free_of(set_mask[i]); rest; rest &= rest - 1) {
            int pos = lowest(rest);
            removal_pos[k] = (uint8_t)pos;
            removal_next[k++] = (uint16_t)set_index(set_mask[i] & ~(1u << pos));
        }
    }
    removal_start[count] = k;
    Py_INCREF(lying_under);
    Py_XSETREF(sets_layout_object, lying_under);
    return 1;
}

/* A row of reach is 16 bytes, one per top. The portable path keeps it as two words while a set
 * is worked: byte t of the row is bits 8(t % 8) of word t / 8, on any byte order. Every value is
 * below 128, so a max of bytes is a few word operations (SWAR). With SSE2 (every x86-64) the row
 * is one vector and a removal is one max instruction; the build picks it, and the tests compare
 * both paths' tables. */
#define LANES 0x0101010101010101ULL
static inline uint64_t max_bytes(uint64_t a, uint64_t b) {
    uint64_t a_at_least_b = (((a | 0x80 * LANES) - b) & 0x80 * LANES) >> 7;
    uint64_t take_a = a_at_least_b * 0xFF;
    return (a & take_a) | (b & ~take_a);
}

/* What the backward pass needs of a deal besides its table. */
typedef struct {
    uint8_t tops_of[RANKS][REACH_ROW]; /* 0xFF at the tops a card of rank r goes on */
    uint8_t drawn_to[RANKS][MAX_STOCK + 2];
    /* at[j][t]: 1 + the stock index of the j-th card of rank t (127 when there is none), for
     * the vector path's by_drawing; slots: the most cards of one rank in the stock. */
    uint8_t at[MAX_STOCK][REACH_ROW];
    int slots;
    int stock_size;
} Backward;

static void backward_tables(const uint8_t *stock, int stock_size, const uint8_t fits[RANKS][RANKS],
                            Backward *b) {
    memset(b, 0, sizeof *b);
    for (int r = 1; r < RANKS; r++)
        for (int t = 0; t < RANKS; t++) /* with WILD: every card goes on it */
            if (fits[t][r]) b->tops_of[r][t] = 0xFF;
    memset(b->at, 127, sizeof b->at);
    b->stock_size = stock_size;
    int seen[RANKS] = {0};
    for (int e = 0; e < stock_size; e++) {
        int t = stock[e];
        b->at[seen[t]++][t] = (uint8_t)(e + 1);
        if (seen[t] > b->slots) b->slots = seen[t];
    }
    /* drawn_to[t][v]: 1 + the latest stock card e of rank t with e + 1 < v, 0 if none. Drawing on
     * to it and playing on it wins from (set, drawn) for drawn <= e when reach[set][t] = v. */
    for (int t = 0; t < RANKS; t++) /* t = WILD: drawing on to the joker */
        for (int v = 1; v <= stock_size + 1; v++)
            for (int e = v - 2; e >= 0; e--)
                if (stock[e] == t) {
                    b->drawn_to[t][v] = (uint8_t)(e + 1);
                    break;
                }
}

/* Drawing on to the e-th stock card and playing there wins from any drawn <= e: the latest such e
 * decides every top at once. */
static inline uint8_t by_drawing(const Backward *b, const uint8_t *row) {
    uint8_t most = 0;
    for (int t = 0; t < RANKS; t++)
        if (most < b->drawn_to[t][row[t]]) most = b->drawn_to[t][row[t]];
    return most;
}

static void backward_portable(const uint8_t *ranks, const Backward *b, uint8_t *reach, int first,
                              int last) {
    uint64_t tops_of[RANKS][2] = {{0}};
    for (int r = 1; r < RANKS; r++)
        for (int t = 0; t < RANKS; t++)
            if (b->tops_of[r][t]) tops_of[r][t / 8] |= 0xFFULL << 8 * (t % 8);
    const uint64_t all_low = ~0ULL, all_high = 0xFFFFFFFFFFFFULL; /* tops 0-7, 8-13 */
    for (int i = first; i <= last; i++) { /* the sets below first are filled by the caller */
        uint64_t low = 0, high = 0;
        /* Playing the card at p on top t wins while drawn < reach of what it leaves. */
        for (int k = removal_start[i]; k < removal_start[i + 1]; k++) {
            int r = ranks[removal_pos[k]];
            uint64_t v = reach[(size_t)removal_next[k] * REACH_ROW + r] * LANES;
            low = max_bytes(low, v & tops_of[r][0]);
            high = max_bytes(high, v & tops_of[r][1]);
        }
        uint8_t *row = reach + (size_t)i * REACH_ROW;
        for (int t = 0; t < 8; t++) {
            row[t] = (uint8_t)(low >> 8 * t);
            row[t + 8] = (uint8_t)(high >> 8 * t);
        }
        uint64_t most = by_drawing(b, row) * LANES;
        low = max_bytes(low, most & all_low);
        high = max_bytes(high, most & all_high);
        for (int t = 0; t < 8; t++) {
            row[t] = (uint8_t)(low >> 8 * t);
            row[t + 8] = (uint8_t)(high >> 8 * t);
        }
    }
}

#if defined(__SSE2__)
#include <emmintrin.h>
#define HAVE_VECTOR 1
static void backward_vector(const uint8_t *ranks, const Backward *b, uint8_t *reach, int first,
                            int last) {
    __m128i tops_of[RANKS];
    for (int r = 0; r < RANKS; r++) tops_of[r] = _mm_loadu_si128((const __m128i *)b->tops_of[r]);
    const __m128i all_tops = _mm_setr_epi8(-1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, 0, 0);
    __m128i at[MAX_STOCK];
    for (int j = 0; j < MAX_STOCK; j++) at[j] = _mm_loadu_si128((const __m128i *)b->at[j]);
    /* spread[v << 4 | r]: the value v in the lanes of the tops a card of rank r goes on, so a
     * removal is one load and one maximum (a broadcast and a mask were five instructions). */
    __m128i spread[(MAX_STOCK + 2) << 4];
    for (int v = 0; v <= b->stock_size + 1; v++)
        for (int r = 0; r < REACH_ROW; r++)
            spread[v << 4 | r] =
                r < RANKS ? _mm_and_si128(_mm_set1_epi8((char)v), tops_of[r]) : _mm_setzero_si128();
    const int slots = b->slots;
    const uint8_t *pos = removal_pos + removal_start[first];
    const uint16_t *next = removal_next + removal_start[first];
    uint8_t *out = reach + (size_t)first * REACH_ROW;
    for (int i = first; i <= last; i++, out += REACH_ROW) {
        __m128i row = _mm_setzero_si128();
        for (const uint8_t *end = removal_pos + removal_start[i + 1]; pos < end; pos++, next++) {
            size_t r = ranks[*pos];
            size_t v = reach[((size_t)*next << 4) + r];
            row = _mm_max_epu8(row, _mm_load_si128(&spread[(v << 4) + r]));
        }
        /* by_drawing in the vector: stock card e of rank t counts when e + 1 < row[t] (all
         * values below 128, so the signed compare is exact; a missing card is 127, never
         * counted), and the greatest e + 1 of those is spread to every lane by a butterfly of
         * maxima. A stock has at most four cards of a rank: four compares, no loop. */
        __m128i most = _mm_max_epu8(_mm_and_si128(at[0], _mm_cmpgt_epi8(row, at[0])),
                                    _mm_and_si128(at[1], _mm_cmpgt_epi8(row, at[1])));
        most = _mm_max_epu8(most, _mm_max_epu8(_mm_and_si128(at[2], _mm_cmpgt_epi8(row, at[2])),
                                               _mm_and_si128(at[3], _mm_cmpgt_epi8(row, at[3]))));
        for (int j = 4; j < slots; j++)
            most = _mm_max_epu8(most, _mm_and_si128(at[j], _mm_cmpgt_epi8(row, at[j])));
        most = _mm_max_epu8(most, _mm_shuffle_epi32(most, _MM_SHUFFLE(1, 0, 3, 2)));
        most = _mm_max_epu8(most, _mm_shuffle_epi32(most, _MM_SHUFFLE(2, 3, 0, 1)));
        most = _mm_max_epu8(most, _mm_shufflehi_epi16(_mm_shufflelo_epi16(most, 0xB1), 0xB1));
        most = _mm_max_epu8(most, _mm_or_si128(_mm_srli_epi16(most, 8), _mm_slli_epi16(most, 8)));
        _mm_storeu_si128((__m128i *)out, _mm_max_epu8(row, _mm_and_si128(most, all_tops)));
    }
}
#else
#define HAVE_VECTOR 0
#endif

/* reach[set * REACH_ROW + top] for the sets first..last, the sets below first counting as won
 * from any count of draws (first = 1: only the empty table is; a higher first asks whether a
 * position can leave as few cards as the sets below first have). */
static void backward_range(const uint8_t *ranks, const uint8_t *stock, int stock_size,
                           const uint8_t fits[RANKS][RANKS], int portable, uint8_t *reach,
                           int first, int last) {
    Backward b;
    backward_tables(stock, stock_size, fits, &b);
    for (int t = 0; t < REACH_ROW; t++) reach[t] = (uint8_t)(t < RANKS ? stock_size + 1 : 0);
    for (int i = 1; i < first; i++) memcpy(reach + (size_t)i * REACH_ROW, reach, REACH_ROW);
#if HAVE_VECTOR
    if (!portable) {
        backward_vector(ranks, &b, reach, first, last);
        return;
    }
#endif
    (void)portable;
    backward_portable(ranks, &b, reach, first, last);
}

/* reach[set * REACH_ROW + top] for the deal, every set at once (see above). */
static void backward(const uint8_t *ranks, const uint8_t *stock, int stock_size,
                     const uint8_t fits[RANKS][RANKS], int portable, uint8_t *reach) {
    backward_range(ranks, stock, stock_size, fits, portable, reach, 1, set_count - 1);
}

/* A prepared deal: magic, stock size, ranks, stock, fits (HEADER bytes), then its reach table. */
static void fill_prepared(uint8_t *out, const uint8_t *ranks, const uint8_t *stock, int stock_len,
                          const uint8_t *fits, int portable) {
    memset(out, 0, HEADER);
    memcpy(out, "TPR1", 4);
    out[4] = (uint8_t)stock_len;
    memcpy(out + 8, ranks, TABLEAU);
    memcpy(out + 8 + TABLEAU, stock, (size_t)stock_len);
    memcpy(out + 8 + TABLEAU + MAX_STOCK, fits, RANKS * RANKS);
    backward(out + 8, out + 8 + TABLEAU, stock_len,
             (const uint8_t(*)[RANKS])(out + 8 + TABLEAU + MAX_STOCK), portable, out + HEADER);
}

static PyObject *py_prepare(PyObject *self, PyObject *args) {
    (void)self;
    const char *ranks, *stock, *fits;
    Py_ssize_t ranks_len, stock_len, fits_len;
    PyObject *lying_under;
    int portable = 0;
    if (!PyArg_ParseTuple(args, "y#y#y#S|p", &ranks, &ranks_len, &stock, &stock_len, &fits,
                          &fits_len, &lying_under, &portable))
        return NULL;
    if (ranks_len != TABLEAU || stock_len > MAX_STOCK || fits_len != RANKS * RANKS) {
        PyErr_SetString(PyExc_ValueError, "not a deal");
        return NULL;
    }
    for (Py_ssize_t i = 0; i < ranks_len + stock_len; i++) {
        int r = i < ranks_len ? ranks[i] : stock[i - ranks_len];
        if (r < (i >= ranks_len ? 0 : 1) || r >= RANKS) { /* a stock's 0 is a joker */
            PyErr_SetString(PyExc_ValueError, "a rank out of 1-13");
            return NULL;
        }
    }
    if (!number_sets(lying_under)) return NULL;
    PyObject *prepared = PyBytes_FromStringAndSize(NULL, HEADER + (Py_ssize_t)set_count * REACH_ROW);
    if (prepared == NULL) return NULL;
    uint8_t *out = (uint8_t *)PyBytes_AS_STRING(prepared);
    Py_BEGIN_ALLOW_THREADS
    fill_prepared(out, (const uint8_t *)ranks, (const uint8_t *)stock, (int)stock_len,
                  (const uint8_t *)fits, portable);
    Py_END_ALLOW_THREADS
    return prepared;
}

/* The prepared deal's reach row of the set present, or NULL with an error set. */
static const uint8_t *reach_row(PyObject *prepared, unsigned long present, int drawn, int top,
                                int *set) {
    if (!PyBytes_Check(prepared) || !set_count ||
        PyBytes_GET_SIZE(prepared) != HEADER + (Py_ssize_t)set_count * REACH_ROW ||
        memcmp(PyBytes_AS_STRING(prepared), "TPR1", 4) != 0) {
        PyErr_SetString(PyExc_ValueError, "not a prepared deal");
        return NULL;
    }
    const uint8_t *p = (const uint8_t *)PyBytes_AS_STRING(prepared);
    *set = present >> TABLEAU ? -1 : set_index((uint32_t)present);
    if (*set < 0 || drawn < 0 || drawn > p[4] || top < 0 || top >= RANKS) {
        PyErr_SetString(PyExc_ValueError, "not a position of the deal");
        return NULL;
    }
    return p + HEADER + (size_t)*set * REACH_ROW;
}

static PyObject *py_winnable_from(PyObject *self, PyObject *args) {
    (void)self;
    PyObject *prepared;
    unsigned long present;
    int drawn, top, set;
    if (!PyArg_ParseTuple(args, "Skii", &prepared, &present, &drawn, &top)) return NULL;
    const uint8_t *row = reach_row(prepared, present, drawn, top, &set);
    if (row == NULL) return NULL;
    return PyBool_FromLong(drawn < row[top]);
}

/* The first winning move from the position: the lowest card that wins, else the draw. */
static PyObject *py_hint_from(PyObject *self, PyObject *args) {
    (void)self;
    PyObject *prepared;
    unsigned long present;
    int drawn, top, set;
    if (!PyArg_ParseTuple(args, "Skii", &prepared, &present, &drawn, &top)) return NULL;
    const uint8_t *row = reach_row(prepared, present, drawn, top, &set);
    if (row == NULL) return NULL;
    const uint8_t *p = (const uint8_t *)PyBytes_AS_STRING(prepared);
    const uint8_t *ranks = p + 8, *fits = p + 8 + TABLEAU + MAX_STOCK;
    const uint8_t *reach = p + HEADER;
    if (drawn >= row[top] || !present) return PyLong_FromLong(-1);
    for (int k = removal_start[set]; k < removal_start[set + 1]; k++) {
        int r = ranks[removal_pos[k]];
        if (fits[top * RANKS + r] && drawn < reach[(size_t)removal_next[k] * REACH_ROW + r])
            return PyLong_FromLong(removal_pos[k]);
    }
    return PyLong_FromLong(DRAW_STEP); /* won from here but by no play: by the draw */
}

/* ---- the best win: the fewest draws by backward passes over a shortened stock ----
 *
 * A win with at most L draws in all is a win of the same deal with its stock cut after L cards,
 * and the backward pass answers that for every position at once. Winning within L draws only
 * gets easier as L grows, so a binary search over L (about five passes, each the same fixed
 * work as a preparation) finds the fewest draws, and the table for that L gives a line: any
 * move that keeps the position won under the cut stock, the lowest play first, else the draw,
 * leads to a win with exactly that many draws. A lost position gets the fewest cards it can
 * leave the same way: the pass that counts every set of at most k cards as won says whether k
 * cards left can be reached; most lost deals end at one or two cards, tried first. Every pass
 * stops at the position's own set: a removal only leads to sets numbered lower. */

/* The first set with at least `cards` cards (set_count when none). */
static int first_with(int cards) { return first_key_at_least((uint64_t)cards << 32); }

typedef struct {
    const uint8_t *ranks, *stock, *fits, *reach;
    int stock_size;
} Prepared;

static Prepared prepared_parts(const uint8_t *p) {
    Prepared d = {p + 8, p + 8 + TABLEAU, p + 8 + TABLEAU + MAX_STOCK, p + HEADER, p[4]};
    return d;
}

/* Can (set, drawn, top) be won within `limit` draws in all? The table is left in `table`. */
static int won_within(const Prepared *d, int limit, uint8_t *table, int set, int drawn, int top) {
    backward_range(d->ranks, d->stock, limit, (const uint8_t(*)[RANKS])d->fits, 0, table, 1, set);
    return drawn < table[(size_t)set * REACH_ROW + top];
}

/* Can (set, drawn, top) leave at most `cards` cards on the table? */
static int leaves(const Prepared *d, int cards, uint8_t *table, int set, int drawn, int top) {
    backward_range(d->ranks, d->stock, d->stock_size, (const uint8_t(*)[RANKS])d->fits, 0, table,
                   first_with(cards + 1), set);
    return drawn < table[(size_t)set * REACH_ROW + top];
}

/* A win from (set, drawn, top) by the table: the lowest play that keeps the position won, else
 * the draw. Writes it to line, its length to *length, and returns its count of draws. */
static int walk(const Prepared *d, const uint8_t *table, int set, int drawn, int top,
                uint8_t *line, int *length) {
    int n = 0, on = top, at = set, start = drawn;
    while (set_mask[at] && n < MAX_PATH) {
        int next = -1;
        for (int k = removal_start[at]; k < removal_start[at + 1]; k++) {
            int r = d->ranks[removal_pos[k]];
            if (d->fits[on * RANKS + r] && drawn < table[(size_t)removal_next[k] * REACH_ROW + r]) {
                next = k;
                break;
            }
        }
        if (next < 0) { /* won from here, by no play: by the draw */
            line[n++] = DRAW_STEP;
            on = d->stock[drawn++];
            continue;
        }
        line[n++] = removal_pos[next];
        on = d->ranks[removal_pos[next]];
        at = removal_next[next];
    }
    *length = n;
    return drawn - start;
}

/* Writes a best win from (set, drawn, top) to line and returns its length; -1 when the position
 * is lost, with *fewest_left the fewest cards any line leaves. scratch: two tables. */
static int best_line(const uint8_t *prepared, int set, int drawn, int top, uint8_t *line,
                     int *fewest_left, uint8_t *scratch) {
    Prepared d = prepared_parts(prepared);
    size_t cells = (size_t)set_count * REACH_ROW;
    *fewest_left = 0;
    if (drawn >= d.reach[(size_t)set * REACH_ROW + top]) {
        int lo = 0, hi = bit_count(set_mask[set]); /* leaves lo: no; leaves hi: yes */
        for (int k = 1; k <= 2 && k < hi; k++) {
            if (leaves(&d, k, scratch, set, drawn, top)) {
                hi = k;
                break;
            }
            lo = k;
        }
        while (hi - lo > 1) {
            int mid = (lo + hi) / 2;
            if (leaves(&d, mid, scratch, set, drawn, top))
                hi = mid;
            else
                lo = mid;
        }
        *fewest_left = hi;
        return -1;
    }
    /* Within lo draws: no (lo < drawn cannot be); within hi: yes. The line the prepared table
     * gives (plays before draws) is a win already: its draws are the first hi. */
    int length, lo = drawn - 1, hi = drawn + walk(&d, d.reach, set, drawn, top, line, &length);
    const uint8_t *table = d.reach;
    uint8_t *trying = scratch, *kept = scratch + cells;
    while (hi - lo > 1) {
        int mid = (lo + hi) / 2;
        if (won_within(&d, mid, trying, set, drawn, top)) {
            hi = mid;
            table = trying;
            uint8_t *swap = kept;
            kept = trying;
            trying = swap;
        } else {
            lo = mid;
        }
    }
    if (table != d.reach) walk(&d, table, set, drawn, top, line, &length);
    return length;
}

/* Two scratch tables for best_line, kept between calls like the Search (taken with the GIL). */
static uint8_t *spare_scratch;

static uint8_t *take_scratch(void) {
    uint8_t *scratch = spare_scratch;
    spare_scratch = NULL;
    return scratch != NULL ? scratch : malloc(2 * (size_t)set_count * REACH_ROW);
}

static void give_back_scratch(uint8_t *scratch) {
    if (spare_scratch == NULL)
        spare_scratch = scratch;
    else
        free(scratch);
}

/* The best win from the position: (line or None, the fewest cards left at best when lost). */
static PyObject *py_best_from(PyObject *self, PyObject *args) {
    (void)self;
    PyObject *prepared;
    unsigned long present;
    int drawn, top, set;
    if (!PyArg_ParseTuple(args, "Skii", &prepared, &present, &drawn, &top)) return NULL;
    const uint8_t *row = reach_row(prepared, present, drawn, top, &set);
    if (row == NULL) return NULL;
    const uint8_t *p = (const uint8_t *)PyBytes_AS_STRING(prepared);
    uint8_t *scratch = take_scratch();
    if (scratch == NULL) return PyErr_NoMemory();
    int fewest = 0, length;
    uint8_t line[MAX_PATH];
    Py_BEGIN_ALLOW_THREADS
    length = best_line(p, set, drawn, top, line, &fewest, scratch);
    Py_END_ALLOW_THREADS
    give_back_scratch(scratch);
    if (length < 0) return Py_BuildValue("Oi", Py_None, fewest);
    return Py_BuildValue("y#i", (const char *)line, (Py_ssize_t)length, 0);
}

/* Is the position won? The depth-first search, stopped after cap positions, answers most deals
 * in microseconds; the rest get the backward pass, whose time is the same for every deal.
 * Returns 1 won, 0 lost, -1 out of memory; *backward_pass says whether the backward pass answered.
 * Runs without the GIL. */
static int decide_search(Search *s, int set, uint32_t present, int drawn, int top, long long cap,
                         int *backward_pass) {
    /* The lost table and the Search are out of the cache after a backward pass (this deal's or
     * the last one's): fetched ahead in one sweep, they stream in instead of missing one line
     * at a time along the search's chain of dependent looks. */
    if (s->lost.mask < SMALL_TABLE)
        for (size_t i = 0; i <= s->lost.mask; i += 8) PREFETCH(&s->lost.entries[i]);
    for (size_t b = 0; b < sizeof *s; b += 64) PREFETCH((const char *)s + b);
    /* Two short tries in two orders first (a deal hard in one order is often easy in the
     * other), then the first order up to cap. What a try proved lost stays proved: a position
     * counts as lost only once explored to the end. */
    static const int orders[3] = {1, 0, 1};
    long long budgets[3] = {DECIDE_TRY, DECIDE_TRY, cap};
    int won = 0;
    for (int k = 0; k < 3 && !won; k++) {
        s->order = orders[k];
        s->cap = k < 2 ? s->nodes + budgets[k] : budgets[k];
        if (s->cap > cap) s->cap = cap;
        won = run(s, present, drawn, top, s->stock_size);
        if (s->nodes <= s->cap) break; /* explored to the end: won or lost for sure */
    }
    *backward_pass = 0;
    if (!won && (s->nodes > s->cap || s->lost.failed)) {
        *backward_pass = 1;
        uint8_t *reach = malloc((size_t)set_count * REACH_ROW);
        if (reach == NULL) return -1;
        backward(s->ranks, s->stock, s->stock_size, (const uint8_t(*)[RANKS])s->fits, 0, reach);
        won = drawn < reach[(size_t)set * REACH_ROW + top];
        free(reach);
    }
    return won;
}

static PyObject *py_decide(PyObject *self, PyObject *args) {
    (void)self;
    const char *ranks, *stock, *fits;
    Py_ssize_t ranks_len, stock_len, fits_len;
    PyObject *lying_under, *under, *no_bridge;
    int wraps, drawn, top;
    unsigned long present;
    long long cap;
    if (!PyArg_ParseTuple(args, "y#y#y#SSSpkiiL", &ranks, &ranks_len, &stock, &stock_len, &fits,
                          &fits_len, &lying_under, &under, &no_bridge, &wraps, &present, &drawn, &top,
                          &cap))
        return NULL;
    Search *s = new_search(ranks, ranks_len, stock, stock_len, fits, fits_len, lying_under, under,
                           no_bridge, wraps, present, drawn, top);
    if (s == NULL) return NULL;
    if (!number_sets(lying_under)) {
        free_search(s);
        return NULL;
    }
    int set = set_index((uint32_t)present);
    if (set < 0) {
        free_search(s);
        PyErr_SetString(PyExc_ValueError, "not a position of the deal");
        return NULL;
    }
    int won, backward_pass;
    Py_BEGIN_ALLOW_THREADS
    won = decide_search(s, set, (uint32_t)present, drawn, top, cap, &backward_pass);
    Py_END_ALLOW_THREADS
    free_search(s);
    if (won < 0) return PyErr_NoMemory();
    return Py_BuildValue("OO", won ? Py_True : Py_False, backward_pass ? Py_True : Py_False);
}

static PyObject *py_deal(PyObject *self, PyObject *args) {
    (void)self;
    unsigned long long number;
    if (!PyArg_ParseTuple(args, "K", &number)) return NULL;
    uint8_t deck[52];
    deal_deck(number, deck);
    return PyBytes_FromStringAndSize((const char *)deck, 52);
}

/* The option bits of the variants that change the cards (tripeaks.solver.EMPTY_DISCARD, JOKER). */
#define OPTION_EMPTY_DISCARD 1
#define OPTION_JOKER 2

/* The start of deal number n: its ranks (tableau then stock), the stock's size and the rank on
 * the discard. With OPTION_EMPTY_DISCARD the discard's card stays on the stock, on top, and the
 * top is WILD; with OPTION_JOKER a joker (WILD) joins the stock at the generator's next draw
 * below size + 1, as tripeaks.codes.deal does (docs/deal-format.md "Options"). */
static void ranks_of_deal(uint64_t n, int options, uint8_t ranks[TABLEAU],
                          uint8_t stock[MAX_STOCK], int *stock_size, int *top) {
    uint8_t deck[52];
    uint64_t state;
    deal_deck_from(n, deck, &state);
    for (int i = 0; i < TABLEAU; i++) ranks[i] = (uint8_t)(deck[i] % 13 + 1);
    int first = TABLEAU + 1;
    if (options & OPTION_EMPTY_DISCARD) {
        *top = WILD;
        first = TABLEAU;
    } else {
        *top = deck[TABLEAU] % 13 + 1;
    }
    int size = 0;
    for (int i = first; i < 52; i++) stock[size++] = (uint8_t)(deck[i] % 13 + 1);
    if (options & OPTION_JOKER) {
        int place = (int)splitmix_below(&state, (uint64_t)size + 1, deal_rest[size + 1]);
        memmove(stock + place + 1, stock + place, (size_t)(size - place));
        stock[place] = WILD;
        size++;
    }
    *stock_size = size;
}

#define FULL_TABLE ((1u << TABLEAU) - 1)

/* The tables every deal of one rules shares, read once per call from what Python hands over. */
typedef struct {
    const char *fits;
    PyObject *lying_under, *under, *no_bridge;
    int wraps;
    long long cap;
    int options; /* OPTION_EMPTY_DISCARD | OPTION_JOKER */
} Shared;

static int parse_shared(PyObject *args, unsigned long long *number, PyObject **numbers,
                        Shared *sh, int *best) {
    Py_ssize_t fits_len;
    *best = 0;
    sh->options = 0;
    int ok = numbers == NULL
                 ? PyArg_ParseTuple(args, "Ky#SSSpL|i", number, &sh->fits, &fits_len,
                                    &sh->lying_under, &sh->under, &sh->no_bridge, &sh->wraps,
                                    &sh->cap, &sh->options)
                 : PyArg_ParseTuple(args, "Sy#SSSpLp|i", numbers, &sh->fits, &fits_len,
                                    &sh->lying_under, &sh->under, &sh->no_bridge, &sh->wraps,
                                    &sh->cap, best, &sh->options);
    if (!ok) return 0;
    if (sh->options & ~(OPTION_EMPTY_DISCARD | OPTION_JOKER)) {
        PyErr_SetString(PyExc_ValueError, "options: the empty discard (1) and joker (2) bits");
        return 0;
    }
    if (fits_len != RANKS * RANKS) {
        PyErr_SetString(PyExc_ValueError, "fits: 196 bytes expected");
        return 0;
    }
    if (number != NULL && *number >= 8031810176ULL) {
        PyErr_SetString(PyExc_ValueError, "a deal number is 0 to 26**7 - 1");
        return 0;
    }
    return number_sets(sh->lying_under);
}

/* A Search of deal number n at its start; NULL with an error set. Needs the GIL. */
static Search *search_of_deal(uint64_t n, const Shared *sh, int *top) {
    uint8_t ranks[TABLEAU], stock[MAX_STOCK];
    int size;
    ranks_of_deal(n, sh->options, ranks, stock, &size, top);
    return new_search((const char *)ranks, TABLEAU, (const char *)stock, size, sh->fits,
                      RANKS * RANKS, sh->lying_under, sh->under, sh->no_bridge, sh->wraps,
                      FULL_TABLE, 0, *top);
}

/* Is deal number n won from its start? Dealt and decided here, with no Python object between. */
static PyObject *py_decide_deal(PyObject *self, PyObject *args) {
    (void)self;
    unsigned long long number;
    Shared sh;
    int best, top;
    if (!parse_shared(args, &number, NULL, &sh, &best)) return NULL;
    Search *s = search_of_deal(number, &sh, &top);
    if (s == NULL) return NULL;
    int won, backward_pass;
    Py_BEGIN_ALLOW_THREADS
    won = decide_search(s, set_count - 1, FULL_TABLE, 0, top, sh.cap, &backward_pass);
    Py_END_ALLOW_THREADS
    long long nodes = s->nodes;
    free_search(s);
    if (won < 0) return PyErr_NoMemory();
    return Py_BuildValue("OOL", won ? Py_True : Py_False, backward_pass ? Py_True : Py_False,
                         nodes);
}

/* s made over for deal number n at its start, its lost table emptied (and shrunk if it grew). */
static void redeal(Search *s, uint64_t n, int options, int *top) {
    memset(s->rank_mask, 0, sizeof s->rank_mask);
    memset(s->fit_mask, 0, sizeof s->fit_mask);
    memset(s->stock_fits, 0, sizeof s->stock_fits);
    memset(s->stock_ranks, 0, sizeof s->stock_ranks);
    memset(s->neighbours, 0, sizeof s->neighbours);
    memset(s->neighbour_count, 0, sizeof s->neighbour_count);
    s->nodes = 0;
    s->depth = 0;
    table_reset(&s->lost);
    ranks_of_deal(n, options, s->ranks, s->stock, &s->stock_size, top);
    derive(s);
}


/* Many deals at once, by number (little-endian 64-bit each), for the survey: one byte a deal,
 * 1 won and 0 lost; with best, the fewest draws of a win (0-23) and 255 when lost. */
static PyObject *py_survey(PyObject *self, PyObject *args) {
    (void)self;
    PyObject *numbers;
    Shared sh;
    int best;
    if (!parse_shared(args, NULL, &numbers, &sh, &best)) return NULL;
    Py_ssize_t count = PyBytes_GET_SIZE(numbers) / 8;
    if (PyBytes_GET_SIZE(numbers) % 8) {
        PyErr_SetString(PyExc_ValueError, "numbers: 64-bit little-endian deal numbers expected");
        return NULL;
    }
    const unsigned char *raw = (const unsigned char *)PyBytes_AS_STRING(numbers);
    PyObject *result = PyBytes_FromStringAndSize(NULL, count);
    if (result == NULL) return NULL;
    uint8_t *out = (uint8_t *)PyBytes_AS_STRING(result);
    /* One Search reused for every deal: made once from the first deal, re-dealt in place. */
    int top;
    Search *s = search_of_deal(0, &sh, &top);
    /* With best: a prepared deal, then best_line's two scratch tables. */
    uint8_t *prepared = best ? malloc(HEADER + 3 * (size_t)set_count * REACH_ROW) : NULL;
    if (s == NULL || (best && prepared == NULL)) {
        if (s != NULL) free_search(s);
        Py_DECREF(result);
        return s == NULL ? NULL : PyErr_NoMemory();
    }
    int failed = 0;
    Py_BEGIN_ALLOW_THREADS
    for (Py_ssize_t i = 0; i < count && !failed; i++) {
        uint64_t n = 0;
        for (int b = 7; b >= 0; b--) n = n << 8 | raw[8 * i + b];
        if (n >= 8031810176ULL) {
            failed = 2;
            break;
        }
        redeal(s, n, sh.options, &top);
        if (!best) {
            int backward_pass, won = decide_search(s, set_count - 1, FULL_TABLE, 0, top, sh.cap,
                                                   &backward_pass);
            if (won < 0) failed = 1;
            out[i] = (uint8_t)(won > 0);
            continue;
        }
        fill_prepared(prepared, s->ranks, s->stock, s->stock_size, &s->fits[0][0], 0);
        uint8_t line[MAX_PATH];
        int fewest, winnable = 0 < prepared[HEADER + (size_t)(set_count - 1) * REACH_ROW + top];
        int length = winnable ? best_line(prepared, set_count - 1, 0, top, line, &fewest,
                                          prepared + HEADER + (size_t)set_count * REACH_ROW)
                              : -1;
        int draws = 0;
        for (int k = 0; k < length; k++) draws += line[k] == DRAW_STEP;
        out[i] = length < 0 ? 255 : (uint8_t)draws;
    }
    Py_END_ALLOW_THREADS
    free(prepared);
    free_search(s);
    if (failed) {
        Py_DECREF(result);
        if (failed == 2) {
            PyErr_SetString(PyExc_ValueError, "a deal number is 0 to 26**7 - 1");
            return NULL;
        }
        return PyErr_NoMemory();
    }
    return result;
}

static PyMethodDef methods[] = {
    {"solve", py_solve, METH_VARARGS,
     "solve(ranks, stock, fits, lying_under, under, no_bridge, wraps, present, drawn, top, best_win)\n"
     "-> (line or None, cards left at best when lost (best_win only), nodes).\n"
     "line is bytes: a position 0-27 for a play, 255 for a draw."},
    {"decide", py_decide, METH_VARARGS,
     "decide(ranks, stock, fits, lying_under, under, no_bridge, wraps, present, drawn, top, cap)\n"
     "-> (winnable, whether the backward pass answered: the search passed cap positions)."},
    {"deal", py_deal, METH_VARARGS,
     "deal(number) -> the 52 cards (0-51) of deal number n as bytes, shuffled as "
     "docs/deal-format.md says: tableau 0-27, the discard 28, the stock 29-51 top first."},
    {"decide_deal", py_decide_deal, METH_VARARGS,
     "decide_deal(number, fits, lying_under, under, no_bridge, wraps, cap, options=0) -> "
     "(winnable from the start, whether the backward pass answered, positions), dealt in C; "
     "options: 1 an empty discard, 2 a joker."},
    {"survey", py_survey, METH_VARARGS,
     "survey(numbers, fits, lying_under, under, no_bridge, wraps, cap, best, options=0) -> one "
     "byte a deal (numbers: little-endian 64-bit): 1 won, 0 lost; with best the fewest draws, "
     "255 lost; options as decide_deal's."},
    {"prepare", py_prepare, METH_VARARGS,
     "prepare(ranks, stock, fits, lying_under, portable=False) -> the deal's answers for every "
     "position (bytes); portable: the plain C path even where a vector one was built."},
    {"winnable_from", py_winnable_from, METH_VARARGS,
     "winnable_from(prepared, present, drawn, top) -> can the position still be won?"},
    {"best_from", py_best_from, METH_VARARGS,
     "best_from(prepared, present, drawn, top) -> (the best win as bytes or None, the fewest "
     "cards left at best when lost), by backward passes over the stock cut short."},
    {"hint_from", py_hint_from, METH_VARARGS,
     "hint_from(prepared, present, drawn, top) -> the lowest winning play, 255 for the draw, -1 "
     "when lost."},
    {NULL, NULL, 0, NULL},
};

static struct PyModuleDef module = {
    PyModuleDef_HEAD_INIT, "tripeaks.solver._search",
    "The solver's depth-first search, compiled (see tripeaks/solver.py).", -1, methods,
};

PyMODINIT_FUNC PyInit__search(void) {
    make_deal_rest();
    PyObject *m = PyModule_Create(&module);
    /* VECTOR: whether the backward pass was built with a vector path (SSE2) beside the portable one. */
    if (m != NULL && PyModule_AddIntConstant(m, "VECTOR", HAVE_VECTOR) < 0) {
        Py_DECREF(m);
        return NULL;
    }
    return m;
}
