/* The solver's search, compiled: the same depth-first search as tripeaks/solver/portable.py's.
 *
 * It knows no rule and no layout of its own. Python hands it the deal's ranks, which rank fits
 * on which (from tripeaks.rules), and a layout as data made once from tripeaks.engine.layout
 * (tripeaks/solver/tables.py compiled_layout): how many cards it has, what the cards lie on, what
 * lies under each card, which cards can never be the one it goes on; and whether ranks wrap
 * round. This file only walks positions. It makes the same moves in the same order as the Python
 * search, so both return the same line and count the same nodes (the tests check that).
 *
 * Any layout of at most MAX_TABLEAU (35) cards: a set of cards is a 64-bit mask of positions.
 * Tables of positions are keyed by present (size bits) | top << size and keep a count of draws.
 * A top of 0 (WILD) is an empty discard or a joker, on which any card goes; a stock card of rank 0
 * is the joker (docs/solver.md "The variants": which bounds count it and how).
 *
 * Beside it: the deal format's shuffle (deal_deck, the same cards as tripeaks/codes.py), decide
 * (the capped search in two move orders, then the backward pass over the layout's table sets:
 * 22,932 on Three Peaks), the backward pass itself (prepare) and the best win by one forward
 * pass over the positions the prepared table says are won.
 */
#define PY_SSIZE_T_CLEAN
#include <Python.h>
#include <limits.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

/* The largest layout: its positions and a top (4 bits) make a key of at most KEY_BITS (40). */
#define MAX_TABLEAU 35
#define CHUNKS 5 /* 7 positions a chunk: ceil(MAX_TABLEAU / 7) */
#define RANKS 14
#define MAX_STOCK 52 /* a layout of 1 card with an empty discard and a joker */
#define MAX_PATH 64
#define DRAW_STEP 255
#define NEVER 99 /* a count of draws past any stock */
/* The wildcard: the top of an empty discard or of a joker, and the joker's rank in the stock.
 * fits[WILD][r] is 1 for every rank (anything goes on it); no card goes on as a joker. */
#define WILD 0
#define ANY_TOP 15 /* the lost table's "these cards with any top" (a top is 0-13), shifted by size */

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

/* ---- a map from 40-bit keys to a count of draws, open addressing ----
 * Key, value and the table's generation share one 64-bit entry (the key in the low 40 bits, the
 * value in the next 8, the generation above), so a look costs one cache line, and emptying the
 * table for the next search is one increment: an entry of another generation is an empty slot. */

#define KEY_BITS 40
#define KEY_MASK ((1ULL << KEY_BITS) - 1)
#define GEN_SHIFT 48
#define GEN_LIMIT (1u << 16)
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

/* Empty the table for another search: a new generation (a real clearing once in 2^16). A table
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

static inline size_t slot_of(uint64_t key, size_t mask) {
    return (size_t)((key * 0x9E3779B97F4A7C15ULL) >> 29) & mask;
}

/* Index of key's slot, or of the empty slot where it would go. */
static inline size_t table_find(const Table *t, uint64_t key) {
    size_t i = slot_of(key, t->mask);
    while (live(t, t->entries[i]) && (t->entries[i] & KEY_MASK) != key) i = (i + 1) & t->mask;
    return i;
}

static inline void table_prefetch(const Table *t, uint64_t key) {
    PREFETCH(&t->entries[slot_of(key, t->mask)]);
}

static inline int value_of(uint64_t entry) { return (int)(entry >> KEY_BITS & 0xFF); }

/* The value kept for key, NEVER when there is none. */
static inline int table_get(const Table *t, uint64_t key) {
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
        size_t j = slot_of(t->entries[i] & KEY_MASK, capacity - 1);
        while (entries[j] >> GEN_SHIFT == gen) j = (j + 1) & (capacity - 1);
        entries[j] = t->entries[i];
    }
    free(t->entries);
    t->entries = entries;
    t->mask = capacity - 1;
}

/* Keep value for key unless a smaller one is kept already. */
static void table_lower(Table *t, uint64_t key, int value) {
    size_t i = table_find(t, key);
    uint64_t entry = t->gen << GEN_SHIFT | (uint64_t)value << KEY_BITS | key;
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

/* ---- a layout, as Python hands it over (tripeaks/solver/tables.py compiled_layout) ----
 * Its size, then for each 7 positions and each set of them the cards those lie on (free cards in
 * five looks), what lies under each card and which cards can never be the discard card it goes
 * on, all as little-endian 64-bit masks; and its table sets, numbered when first needed (see
 * "every position of a deal at once" below). Kept by the bytes object handed over, a few at once. */

typedef struct {
    int size;
    uint64_t full; /* every position */
    uint64_t lying_under[CHUNKS][128];
    uint64_t under[MAX_TABLEAU];
    uint64_t no_bridge[MAX_TABLEAU];
    PyObject *data;         /* the bytes it was read from, kept alive: its identity */
    unsigned long id;       /* unique among every layout ever read (a Search's copy names it) */
    int users;              /* calls using it now, without the GIL: never dropped meanwhile */
    unsigned long used_at;  /* for dropping the least recently used one */
    /* The table sets (set_count 0 until numbered): */
    int set_count;
    uint64_t *set_key;      /* card count << 56 | mask, ascending: the numbering */
    int32_t *removal_start; /* set_count + 1 */
    uint8_t *removal_pos;   /* free cards of each set, lowest position first */
    uint16_t *next16;       /* the set their removal leads to, with at most 65,536 sets */
    uint32_t *next32;       /* ... with more (one of the two is NULL) */
} Layout;

#define SET_MASK ((1ULL << 56) - 1)

/* ---- the deal, prepared ---- */

typedef struct {
    uint8_t ranks[MAX_TABLEAU];
    uint8_t stock[MAX_STOCK];
    int stock_size;
    int size;                   /* the layout's cards: a key is present | top << size */
    uint64_t any_top;           /* ANY_TOP << size */
    uint8_t fits[RANKS][RANKS]; /* fits[on][rank]: a card of rank goes on a discard of rank on */
    uint64_t rank_mask[RANKS];
    uint64_t fit_mask[RANKS];
    uint64_t under[MAX_TABLEAU];
    uint64_t no_bridge[MAX_TABLEAU]; /* NO_BRIDGE_MASK: never the discard card right before p */
    uint8_t stock_fits[RANKS][MAX_STOCK + 1];
    uint8_t stock_ranks[RANKS][MAX_STOCK + 1]; /* how many of the first d stock cards have rank r */
    int8_t stock_left[MAX_STOCK + 1][RANKS]; /* [d][r]: stock cards of rank r from d to the limit */
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
    unsigned long layout_id; /* the id of the layout whose masks were copied in, 0 none */
    /* The layout's, copied in: [k][b] the cards that the cards of bits 7k.. set in b lie on.
     * Last: a layout of n cards looks at the first (n + 6) / 7 chunks only (and row 0 of the
     * rest). */
    uint64_t lying_under[CHUNKS][128];
} Search;

#define DECIDE_TRY 200 /* positions of each of decide's two short tries */

/* Without -mpopcnt, __builtin_popcount calls a slow library routine: count in the register. */
static inline int bit_count(uint64_t x) {
    x = x - ((x >> 1) & 0x5555555555555555ULL);
    x = (x & 0x3333333333333333ULL) + ((x >> 2) & 0x3333333333333333ULL);
    return (int)((((x + (x >> 4)) & 0x0F0F0F0F0F0F0F0FULL) * 0x0101010101010101ULL) >> 56);
}
#if defined(__GNUC__) || defined(__clang__)
static inline int lowest(uint64_t x) { return __builtin_ctzll(x); }
static inline int highest(uint64_t x) { return 63 - __builtin_clzll(x); }
#else /* any other C99 compiler: the same answers, a little slower */
static inline int lowest(uint64_t x) {
    int n = 0;
    while (!(x & 1u)) {
        x >>= 1;
        n++;
    }
    return n;
}
static inline int highest(uint64_t x) {
    int n = 63;
    while (!(x >> 63)) {
        x <<= 1;
        n--;
    }
    return n;
}
#endif

/* The cards present that no present card lies on, from five looks at 7 cards at a time (the
 * last one is row 0, nothing, on a layout of 28 cards or fewer). */
static inline uint64_t free_with(const uint64_t lying_under[CHUNKS][128], uint64_t present) {
    return present & ~(lying_under[0][present & 127] | lying_under[1][present >> 7 & 127] |
                       lying_under[2][present >> 14 & 127] | lying_under[3][present >> 21 & 127] |
                       lying_under[4][present >> 28 & 127]);
}

static inline uint64_t free_mask(const Search *s, uint64_t present) {
    return free_with(s->lying_under, present);
}

/* Python's _Search.needs: -1 when some rank of `ranks` can no longer all be played, else the
 * cards one of which must be played now on `top` (0 when nothing is forced). s->counts must be
 * the counts of `present` by rank: the cards of a rank and those fitting on it are counted from
 * them (no population counts). */
static int64_t needs(const Search *s, uint64_t present, int drawn, int top, int limit,
                     const uint8_t *ranks, int count) {
    uint64_t must = 0;
    int have_free = 0;
    uint64_t free_cards = 0;
    for (int k = 0; k < count; k++) {
        int r = ranks[k];
        if (!s->counts[r]) continue;
        uint64_t cards = present & s->rank_mask[r];
        int from_stock = s->stock_fits[r][limit] - s->stock_fits[r][drawn];
        uint64_t sources = present & s->fit_mask[r];
        int spare = from_stock - s->counts[r];
        for (int j = 0; j < s->neighbour_count[r]; j++) spare += s->counts[s->neighbours[r][j]];
        if (spare < -1) return -1;
        uint64_t lonely = 0;
        if (!from_stock) {
            uint64_t rest = cards;
            while (rest) {
                uint64_t low = rest & -rest;
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
    const int8_t *stock = s->stock_left[drawn];
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
 * s->lost[present | top << size] is the fewest draws at which that position was lost (ANY_TOP:
 * with any top; a top of 0 is the wildcard). Lost with d cards drawn means lost with any more drawn: whatever the later position
 * can do, the earlier one can too, drawing through the extra stock cards when the later one draws. */
static int dfs(Search *s, uint64_t present, int drawn, int top, int limit, uint64_t must,
               int gone) {
    s->nodes++;
    if (!present) return 1;
    if (s->nodes > s->cap) return 0; /* given up: what it would record is thrown away */
    if (s->lost.failed) return 0;
    uint64_t key = present | (uint64_t)top << s->size; /* fetched ahead by the caller */
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
    uint64_t moves = must ? must : free_mask(s, present) & s->fit_mask[top];
    /* Every child's entry in the lost table, and the draw's, asked for at once: the looks are
     * the search's chain of cache misses, and one child's look then overlaps the others'. */
    for (uint64_t rest = moves; rest; rest &= rest - 1) {
        int pos = lowest(rest);
        table_prefetch(&s->lost, (present & ~(1ULL << pos)) | (uint64_t)s->ranks[pos] << s->size);
    }
    if (drawn < limit) table_prefetch(&s->lost, present | s->any_top);
    int dead_end = 0;
    /* The plays in the order tried: lowest position first, as in the Python search, or (decide's
     * order) those that free the most cards first, then those after which another play follows
     * on the card just played, then the highest position. */
    int list[MAX_TABLEAU], n = 0, at = 0;
    if (s->order && (moves & (moves - 1))) {
        int keys[MAX_TABLEAU];
        uint64_t free_now = free_mask(s, present);
        for (uint64_t rest = moves; rest; rest &= rest - 1) {
            int pos = lowest(rest), rank = s->ranks[pos];
            uint64_t free_after = free_mask(s, present & ~(1ULL << pos));
            uint64_t freed = free_after & ~free_now; /* at most the two cards it lay over */
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
        for (uint64_t rest = moves; rest; rest &= rest - 1) list[n++] = lowest(rest);
    }
    while (at < n) {
        int pos = list[at++];
        int rank = s->ranks[pos];
        uint64_t after = present & ~(1ULL << pos);
        if (!(after & s->fit_mask[rank])) dead_end = 1;
        s->counts[rank]--;
        int64_t next =
            needs(s, after, drawn, rank, limit, s->neighbours[rank], s->neighbour_count[rank]);
        if (next < 0) {
            s->counts[rank]++;
            continue;
        }
        s->path[s->depth++] = (uint8_t)pos;
        int won = dfs(s, after, drawn, rank, limit, (uint64_t)next, top);
        s->counts[rank]++;
        if (won) return 1;
        s->depth--;
    }
    if (!must && !dead_end && drawn < limit && table_get(&s->lost, present | s->any_top) > drawn) {
        int rank = s->stock[drawn];
        table_prefetch(&s->lost, present | (uint64_t)rank << s->size);
        int64_t next = needs(s, present, drawn + 1, rank, limit, s->neighbours[rank],
                             s->neighbour_count[rank]);
        if (next >= 0) {
            s->path[s->depth++] = DRAW_STEP;
            if (dfs(s, present, drawn + 1, rank, limit, (uint64_t)next, top)) return 1;
            s->depth--;
        }
    }
    if (s->nodes > s->cap) return 0; /* not explored to the end: nothing proved lost */
    table_lower(&s->lost, key, drawn);
    /* Drawing from here reaches what drawing from any later count of draws with these cards does. */
    table_lower(&s->lost, present | s->any_top, drawn);
    return 0;
}

static const uint8_t ALL_RANKS[13] = {1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13};

/* Python's _Search.run: 1 and the path in s->path when won within `limit` draws in all. */
static int run(Search *s, uint64_t present, int drawn, int top, int limit) {
    s->depth = 0;
    if (s->stock_left_for != limit + 1) { /* decide's tries share one limit: filled once */
        for (int d = 0; d <= s->stock_size; d++)
            for (int r = 0; r < RANKS; r++)
                s->stock_left[d][r] =
                    (int8_t)(d > limit ? 0 : s->stock_ranks[r][limit] - s->stock_ranks[r][d]);
        s->stock_left_for = limit + 1;
    }
    for (int r = 0; r < RANKS; r++) s->counts[r] = bit_count(present & s->rank_mask[r]);
    int64_t must = needs(s, present, drawn, top, limit, ALL_RANKS, 13);
    if (must < 0) return 0;
    return dfs(s, present, drawn, top, limit, (uint64_t)must, 0);
}

/* ---- the most cards a lost position still lets a player remove ---- */

typedef struct {
    Search *s;
    Table seen;
    int floor;
    int best;
} Removal;

static uint64_t never_removed(const Search *s, uint64_t present, int drawn, int top) {
    uint64_t free_cards = free_mask(s, present), stuck = 0, rest = present;
    while (rest) {
        int pos = lowest(rest);
        rest &= rest - 1;
        int rank = s->ranks[pos];
        if (s->stock_fits[rank][s->stock_size] - s->stock_fits[rank][drawn] > 0 ||
            ((free_cards >> pos & 1) && s->fits[top][rank]))
            continue;
        if (!(present & s->fit_mask[rank] & ~s->no_bridge[pos])) stuck |= 1ULL << pos | s->under[pos];
    }
    return stuck & present;
}

static void visit(Removal *m, uint64_t present, int drawn, int top) {
    Search *s = m->s;
    /* As in the search: explored to the end with fewer cards drawn, it reached at least as much.
     * Only a finished position counts: one still being explored may be counting on this one. */
    uint64_t key = present | (uint64_t)top << s->size;
    if (m->seen.failed || m->best <= m->floor || table_get(&m->seen, key) <= drawn) return;
    int left = bit_count(present);
    if (left < m->best) m->best = left;
    int dead_end = 0;
    uint64_t moves = free_mask(s, present) & s->fit_mask[top];
    while (moves) {
        int pos = lowest(moves);
        moves &= moves - 1;
        uint64_t after = present & ~(1ULL << pos);
        int rank = s->ranks[pos];
        if (!(after & s->fit_mask[rank])) dead_end = 1;
        visit(m, after, drawn, rank);
    }
    if (drawn < s->stock_size && !dead_end) visit(m, present, drawn + 1, s->stock[drawn]);
    table_lower(&m->seen, key, drawn);
}

/* ---- the layouts handed over, kept ---- */

#define LAYOUT_HEADER 8     /* "TPL1", the size, three zero bytes */
#define LAYOUT_SLOTS 16     /* layouts kept at once: the least recently used one unused goes */
#define MAX_SETS (1 << 22)  /* table sets a layout may have (Valley, the most so far: 109,325) */

static Layout *layouts[LAYOUT_SLOTS];
static unsigned long layouts_read, layout_clock;

static uint64_t read_word(const unsigned char *b) {
    uint64_t x = 0;
    for (int k = 7; k >= 0; k--) x = x << 8 | b[k];
    return x;
}

static Py_ssize_t layout_length(int size) {
    return LAYOUT_HEADER + 8 * (CHUNKS * 128 + 2 * (Py_ssize_t)size);
}

static void free_sets(Layout *L) {
    free(L->set_key);
    free(L->removal_start);
    free(L->removal_pos);
    free(L->next16);
    free(L->next32);
    L->set_key = NULL;
    L->removal_start = NULL;
    L->removal_pos = NULL;
    L->next16 = NULL;
    L->next32 = NULL;
    L->set_count = 0;
}

static void free_layout(Layout *L) {
    free_sets(L);
    Py_XDECREF(L->data);
    free(L);
}

/* A layout read from its bytes, NULL with an error set. */
static Layout *read_layout(PyObject *data) {
    const unsigned char *b = (const unsigned char *)PyBytes_AS_STRING(data);
    Py_ssize_t length = PyBytes_GET_SIZE(data);
    if (length < LAYOUT_HEADER || memcmp(b, "TPL1", 4) != 0) {
        PyErr_SetString(PyExc_ValueError, "layout: not a layout from tables.compiled_layout");
        return NULL;
    }
    int size = b[4];
    if (size < 1 || size > MAX_TABLEAU) {
        PyErr_Format(PyExc_ValueError,
                     "layout: the compiled search takes layouts of 1 to %d cards, not %d",
                     MAX_TABLEAU, size);
        return NULL;
    }
    if (length != layout_length(size)) {
        PyErr_Format(PyExc_ValueError, "layout: %zd bytes expected for %d cards",
                     layout_length(size), size);
        return NULL;
    }
    Layout *L = calloc(1, sizeof(Layout));
    if (L == NULL) return (Layout *)PyErr_NoMemory();
    L->size = size;
    L->full = (1ULL << size) - 1;
    const unsigned char *at = b + LAYOUT_HEADER;
    uint64_t stray = 0;
    for (int k = 0; k < CHUNKS; k++)
        for (int i = 0; i < 128; i++, at += 8) stray |= (L->lying_under[k][i] = read_word(at));
    for (int p = 0; p < size; p++, at += 8) stray |= (L->under[p] = read_word(at));
    for (int p = 0; p < size; p++, at += 8) stray |= (L->no_bridge[p] = read_word(at));
    if (stray & ~L->full) {
        free(L);
        PyErr_SetString(PyExc_ValueError, "layout: a mask names a position past its cards");
        return NULL;
    }
    Py_INCREF(data);
    L->data = data;
    L->id = ++layouts_read;
    return L;
}

/* The layout of `data`, in use until release_layout (which must follow, with the GIL held); NULL
 * with an error set. The same bytes object is found at once, equal bytes by a comparison. */
static Layout *take_layout(PyObject *data) {
    if (!PyBytes_Check(data)) {
        PyErr_SetString(PyExc_TypeError, "layout: bytes expected");
        return NULL;
    }
    Layout *found = NULL;
    for (int k = 0; k < LAYOUT_SLOTS && found == NULL; k++)
        if (layouts[k] != NULL && layouts[k]->data == data) found = layouts[k];
    for (int k = 0; k < LAYOUT_SLOTS && found == NULL; k++)
        if (layouts[k] != NULL && PyBytes_GET_SIZE(layouts[k]->data) == PyBytes_GET_SIZE(data) &&
            memcmp(PyBytes_AS_STRING(layouts[k]->data), PyBytes_AS_STRING(data),
                   (size_t)PyBytes_GET_SIZE(data)) == 0)
            found = layouts[k];
    if (found == NULL) {
        int slot = -1;
        for (int k = 0; k < LAYOUT_SLOTS; k++) {
            if (layouts[k] == NULL) {
                slot = k;
                break;
            }
            if (!layouts[k]->users && (slot < 0 || layouts[k]->used_at < layouts[slot]->used_at))
                slot = k;
        }
        if (slot < 0) {
            PyErr_SetString(PyExc_ValueError, "layout: too many layouts searched at once");
            return NULL;
        }
        found = read_layout(data);
        if (found == NULL) return NULL;
        if (layouts[slot] != NULL) free_layout(layouts[slot]);
        layouts[slot] = found;
    }
    found->users++;
    found->used_at = ++layout_clock;
    return found;
}

static void release_layout(Layout *L) { L->users--; }

static inline uint64_t key_of(uint64_t mask) { return (uint64_t)bit_count(mask) << 56 | mask; }

/* The first set whose key is at least `key` (set_count when none): the keys are sorted. */
static int first_key_at_least(const Layout *L, uint64_t key) {
    int lo = 0, hi = L->set_count;
    while (lo < hi) {
        int mid = lo + (hi - lo) / 2;
        if (L->set_key[mid] < key)
            lo = mid + 1;
        else
            hi = mid;
    }
    return lo;
}

/* The number of a table set, -1 when mask is not one. */
static int set_index(const Layout *L, uint64_t mask) {
    if (mask & ~L->full) return -1;
    uint64_t key = key_of(mask);
    int at = first_key_at_least(L, key);
    return at < L->set_count && L->set_key[at] == key ? at : -1;
}

static inline uint64_t set_mask(const Layout *L, int set) { return L->set_key[set] & SET_MASK; }

/* The set a removal leads to. */
static inline int next_set(const Layout *L, int k) {
    return L->next16 != NULL ? L->next16[k] : (int)L->next32[k];
}

static int compare_keys(const void *a, const void *b) {
    uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;
    return (x > y) - (x < y);
}

/* Append x to the growing array *items of *count (capacity *room); 0 when out of memory. */
static int push_word(uint64_t **items, size_t *count, size_t *room, uint64_t x) {
    if (*count == *room) {
        size_t room2 = *room ? 2 * *room : 4096;
        uint64_t *grown = realloc(*items, room2 * sizeof(uint64_t));
        if (grown == NULL) return 0;
        *items = grown;
        *room = room2;
    }
    (*items)[(*count)++] = x;
    return 1;
}

/* Put mask into the hash set seen (masks + 1, 0 empty), grown at half full: 1 when it is new,
 * 0 when it was there, -1 when out of memory. */
static int add_seen(uint64_t **seen, size_t *slots, size_t *stored, uint64_t mask) {
    if (2 * (*stored + 1) > *slots) {
        size_t slots2 = 2 * *slots;
        uint64_t *grown = calloc(slots2, sizeof(uint64_t));
        if (grown == NULL) return -1;
        for (size_t i = 0; i < *slots; i++) {
            if (!(*seen)[i]) continue;
            size_t j = slot_of((*seen)[i] - 1, slots2 - 1);
            while (grown[j]) j = (j + 1) & (slots2 - 1);
            grown[j] = (*seen)[i];
        }
        free(*seen);
        *seen = grown;
        *slots = slots2;
    }
    size_t i = slot_of(mask, *slots - 1);
    while ((*seen)[i] && (*seen)[i] != mask + 1) i = (i + 1) & (*slots - 1);
    if ((*seen)[i]) return 0;
    (*seen)[i] = mask + 1;
    (*stored)++;
    return 1;
}

/* Number the layout's table sets once: every set reached from the full table by removing free
 * cards, by card count and then mask (as tripeaks/solver/tables.py table_sets numbers them), with
 * the free cards of each and the set each removal leads to. 0 with an error set. */
static int number_sets(Layout *L) {
    if (L->set_count) return 1;
    size_t slots = 1 << 16, stored = 0, depth = 0, stack_room = 0, count = 0, keys_room = 0;
    uint64_t *seen = calloc(slots, sizeof(uint64_t)), *stack = NULL, *keys = NULL;
    int ok = seen != NULL && push_word(&stack, &depth, &stack_room, L->full) &&
             add_seen(&seen, &slots, &stored, L->full) >= 0;
    while (ok && depth) {
        uint64_t mask = stack[--depth];
        if (count == MAX_SETS) {
            free(seen);
            free(stack);
            free(keys);
            PyErr_Format(PyExc_ValueError, "layout: more than %d table sets", MAX_SETS);
            return 0;
        }
        ok = push_word(&keys, &count, &keys_room, key_of(mask));
        for (uint64_t rest = free_with(L->lying_under, mask); ok && rest; rest &= rest - 1) {
            uint64_t after = mask & ~(rest & -rest);
            int added = add_seen(&seen, &slots, &stored, after);
            ok = added >= 0 && (!added || push_word(&stack, &depth, &stack_room, after));
        }
    }
    free(seen);
    free(stack);
    if (!ok) {
        free(keys);
        PyErr_NoMemory();
        return 0;
    }
    qsort(keys, count, sizeof keys[0], compare_keys);
    if (keys[0] != 0) {
        free(keys);
        PyErr_SetString(PyExc_ValueError, "layout: its cards cannot all be removed");
        return 0;
    }
    size_t removals = 0;
    for (size_t i = 0; i < count; i++) removals += (size_t)bit_count(free_with(L->lying_under, keys[i] & SET_MASK));
    L->set_key = keys;
    L->set_count = (int)count;
    L->removal_start = malloc((count + 1) * sizeof(int32_t));
    L->removal_pos = malloc(removals ? removals : 1);
    if (count <= 65536)
        L->next16 = malloc((removals ? removals : 1) * sizeof(uint16_t));
    else
        L->next32 = malloc((removals ? removals : 1) * sizeof(uint32_t));
    if (L->removal_start == NULL || L->removal_pos == NULL ||
        (L->next16 == NULL && L->next32 == NULL)) {
        free_sets(L);
        PyErr_NoMemory();
        return 0;
    }
    int32_t k = 0;
    for (int i = 0; i < L->set_count; i++) {
        L->removal_start[i] = k;
        uint64_t mask = set_mask(L, i);
        for (uint64_t rest = free_with(L->lying_under, mask); rest; rest &= rest - 1) {
            int pos = lowest(rest);
            int next = set_index(L, mask & ~(1ULL << pos));
            L->removal_pos[k] = (uint8_t)pos;
            if (L->next16 != NULL)
                L->next16[k++] = (uint16_t)next;
            else
                L->next32[k++] = (uint32_t)next;
        }
    }
    L->removal_start[count] = k;
    return 1;
}

/* ---- Python entry point ---- */

/* The search's tables that follow from the deal's ranks, stock and fits (already in s). */
static void derive(Search *s) {
    for (int p = 0; p < s->size; p++) s->rank_mask[s->ranks[p]] |= 1ULL << p;
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

/* The layout's masks into s; a kept Search has them already when the layout is the same one. */
static void use_layout(Search *s, const Layout *L) {
    s->size = L->size;
    s->any_top = (uint64_t)ANY_TOP << L->size;
    if (s->layout_id != L->id) {
        memcpy(s->lying_under, L->lying_under, sizeof L->lying_under);
        memcpy(s->under, L->under, sizeof L->under);
        memcpy(s->no_bridge, L->no_bridge, sizeof L->no_bridge);
        s->layout_id = L->id;
    }
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

/* A Search for the deal of ranks, stock and fits on layout L; NULL with an error set. */
static Search *new_search(const char *ranks, Py_ssize_t ranks_len, const char *stock,
                          Py_ssize_t stock_len, const char *fits, Py_ssize_t fits_len,
                          const Layout *L, int wraps, unsigned long long present, int drawn,
                          int top) {
    if (ranks_len != L->size || stock_len > MAX_STOCK || fits_len != RANKS * RANKS ||
        (present & ~L->full) || drawn < 0 || drawn > stock_len || top < 0 || top >= RANKS) {
        PyErr_SetString(PyExc_ValueError, "not a position of a deal");
        return NULL;
    }
    for (Py_ssize_t d = 0; d < stock_len; d++)
        if (stock[d] < 0 || stock[d] >= RANKS) { /* 0: a joker */
            PyErr_SetString(PyExc_ValueError, "a stock rank out of 0-13");
            return NULL;
        }
    for (Py_ssize_t p = 0; p < ranks_len; p++)
        if (ranks[p] < 1 || ranks[p] >= RANKS) {
            PyErr_SetString(PyExc_ValueError, "a rank out of 1-13");
            return NULL;
        }
    Search *s = take_search();
    if (s == NULL) return (Search *)PyErr_NoMemory();
    use_layout(s, L);
    memcpy(s->ranks, ranks, (size_t)ranks_len);
    memcpy(s->stock, stock, (size_t)stock_len);
    memcpy(s->fits, fits, RANKS * RANKS);
    s->stock_size = (int)stock_len;
    s->wraps = wraps;
    s->cap = LLONG_MAX;
    derive(s);
    return s;
}

static void free_search(Search *s) { give_back(s); }

static PyObject *py_solve(PyObject *self, PyObject *args) {
    (void)self;
    const char *ranks, *stock, *fits;
    Py_ssize_t ranks_len, stock_len, fits_len;
    PyObject *layout;
    int wraps, drawn, top, best_win;
    unsigned long long present;
    if (!PyArg_ParseTuple(args, "y#y#y#SpKiip", &ranks, &ranks_len, &stock, &stock_len, &fits,
                          &fits_len, &layout, &wraps, &present, &drawn, &top, &best_win))
        return NULL;
    Layout *L = take_layout(layout);
    if (L == NULL) return NULL;
    Search *s = new_search(ranks, ranks_len, stock, stock_len, fits, fits_len, L, wraps, present,
                           drawn, top);
    release_layout(L); /* the Search has its masks */
    if (s == NULL) return NULL;
    PyObject *result = NULL;
    uint64_t start = present;
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
 * A card leaves only when every card over it is gone, so the cards on the table are always a
 * set closed downwards (with a card, every card it lies on): only 22,932 such sets exist on Three
 * Peaks (35,476 to 354,456 on the other layouts). They are numbered once per layout, by card
 * count and then mask, with the free cards of each and the set each removal leads to (see
 * number_sets). For a deal, reach[set][top] is one more than the most cards drawn from which
 * (set, drawn, top) can still be won, 0 when it cannot be won at all: drawing fewer never hurts,
 * so the position is won exactly when drawn < reach. Sets are worked from the fewest cards up,
 * since a removal leads to a set numbered lower, and within a set the draws from the last one
 * back: a draw keeps the set. */

#define REACH_ROW 16 /* bytes per set: tops 0 (WILD) to 13, the rest 0 */
/* prepared: magic, stock size, layout size, the set count (4 bytes from 8), ranks (from 12),
 * stock, fits, then reach (HEADER, a multiple of 16) */
#define PREPARED_RANKS 12
#define PREPARED_STOCK (PREPARED_RANKS + MAX_TABLEAU)
#define PREPARED_FITS (PREPARED_STOCK + MAX_STOCK)
#define HEADER ((PREPARED_FITS + RANKS * RANKS + 15) / 16 * 16)

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

#if defined(__GNUC__) || defined(__clang__)
#define ALWAYS_INLINE inline __attribute__((always_inline))
#else
#define ALWAYS_INLINE inline
#endif

static void backward_portable(const Layout *L, const uint8_t *ranks, const Backward *b,
                              uint8_t *reach, int first, int last) {
    uint64_t tops_of[RANKS][2] = {{0}};
    for (int r = 1; r < RANKS; r++)
        for (int t = 0; t < RANKS; t++)
            if (b->tops_of[r][t]) tops_of[r][t / 8] |= 0xFFULL << 8 * (t % 8);
    const uint64_t all_low = ~0ULL, all_high = 0xFFFFFFFFFFFFULL; /* tops 0-7, 8-13 */
    const int32_t *start = L->removal_start;
    const uint8_t *removal_pos = L->removal_pos;
    const uint16_t *next16 = L->next16;
    const uint32_t *next32 = L->next32;
    for (int i = first; i <= last; i++) { /* the sets below first are filled by the caller */
        uint64_t low = 0, high = 0;
        /* Playing the card at p on top t wins while drawn < reach of what it leaves. */
        for (int k = start[i]; k < start[i + 1]; k++) {
            int r = ranks[removal_pos[k]];
            size_t next = next16 != NULL ? next16[k] : next32[k];
            uint64_t v = reach[next * REACH_ROW + r] * LANES;
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
/* The vector pass, made twice by the compiler: with 16-bit set numbers (next16, Three Peaks and
 * every layout of at most 65,536 sets: half the memory to stream) and with 32-bit ones. */
static ALWAYS_INLINE void backward_vector_with(const Layout *L, int wide, const uint8_t *ranks,
                                               const Backward *b, uint8_t *reach, int first,
                                               int last) {
    __m128i tops_of[RANKS];
    for (int r = 0; r < RANKS; r++) tops_of[r] = _mm_loadu_si128((const __m128i *)b->tops_of[r]);
    const __m128i all_tops = _mm_setr_epi8(-1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, 0, 0);
    __m128i at[MAX_STOCK];
    const int slots = b->slots;
    for (int j = 0; j < (slots > 4 ? slots : 4); j++)
        at[j] = _mm_loadu_si128((const __m128i *)b->at[j]);
    /* spread[v << 4 | r]: the value v in the lanes of the tops a card of rank r goes on, so a
     * removal is one load and one maximum (a broadcast and a mask were five instructions). */
    __m128i spread[(MAX_STOCK + 2) << 4];
    for (int v = 0; v <= b->stock_size + 1; v++)
        for (int r = 0; r < REACH_ROW; r++)
            spread[v << 4 | r] =
                r < RANKS ? _mm_and_si128(_mm_set1_epi8((char)v), tops_of[r]) : _mm_setzero_si128();
    /* In locals: the stores to reach (bytes) might be to anything the compiler knows of. */
    const int32_t *start = L->removal_start;
    const uint8_t *removal_pos = L->removal_pos;
    const uint16_t *n16 = L->next16;
    const uint32_t *n32 = L->next32;
    uint8_t *out = reach + (size_t)first * REACH_ROW;
    size_t k = (size_t)start[first];
    for (int i = first; i <= last; i++, out += REACH_ROW) {
        __m128i row = _mm_setzero_si128();
        for (size_t end = (size_t)start[i + 1]; k < end; k++) {
            size_t r = ranks[removal_pos[k]];
            size_t next = wide ? (size_t)n32[k] : (size_t)n16[k];
            size_t v = reach[(next << 4) + r];
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

static void backward_vector16(const Layout *L, const uint8_t *ranks, const Backward *b,
                              uint8_t *reach, int first, int last) {
    backward_vector_with(L, 0, ranks, b, reach, first, last);
}

static void backward_vector32(const Layout *L, const uint8_t *ranks, const Backward *b,
                              uint8_t *reach, int first, int last) {
    backward_vector_with(L, 1, ranks, b, reach, first, last);
}
#else
#define HAVE_VECTOR 0
#endif

/* reach[set * REACH_ROW + top] for the sets first..last, the sets below first counting as won
 * from any count of draws (first = 1: only the empty table is; a higher first asks whether a
 * position can leave as few cards as the sets below first have). */
static void backward_range(const Layout *L, const uint8_t *ranks, const uint8_t *stock,
                           int stock_size, const uint8_t fits[RANKS][RANKS], int portable,
                           uint8_t *reach, int first, int last) {
    Backward b;
    backward_tables(stock, stock_size, fits, &b);
    for (int t = 0; t < REACH_ROW; t++) reach[t] = (uint8_t)(t < RANKS ? stock_size + 1 : 0);
    for (int i = 1; i < first; i++) memcpy(reach + (size_t)i * REACH_ROW, reach, REACH_ROW);
#if HAVE_VECTOR
    if (!portable) {
        if (L->next16 != NULL)
            backward_vector16(L, ranks, &b, reach, first, last);
        else
            backward_vector32(L, ranks, &b, reach, first, last);
        return;
    }
#endif
    (void)portable;
    backward_portable(L, ranks, &b, reach, first, last);
}

/* reach[set * REACH_ROW + top] for the deal, every set at once (see above). */
static void backward(const Layout *L, const uint8_t *ranks, const uint8_t *stock, int stock_size,
                     const uint8_t fits[RANKS][RANKS], int portable, uint8_t *reach) {
    backward_range(L, ranks, stock, stock_size, fits, portable, reach, 1, L->set_count - 1);
}

static size_t prepared_size(const Layout *L) {
    return HEADER + (size_t)L->set_count * REACH_ROW;
}

/* A prepared deal: magic, stock size, layout size, set count, ranks, stock, fits (HEADER bytes),
 * then its reach table. */
static void fill_prepared(const Layout *L, uint8_t *out, const uint8_t *ranks,
                          const uint8_t *stock, int stock_len, const uint8_t *fits, int portable) {
    memset(out, 0, HEADER);
    memcpy(out, "TPR2", 4);
    out[4] = (uint8_t)stock_len;
    out[5] = (uint8_t)L->size;
    for (int k = 0; k < 4; k++) out[8 + k] = (uint8_t)((uint32_t)L->set_count >> 8 * k);
    memcpy(out + PREPARED_RANKS, ranks, (size_t)L->size);
    memcpy(out + PREPARED_STOCK, stock, (size_t)stock_len);
    memcpy(out + PREPARED_FITS, fits, RANKS * RANKS);
    backward(L, out + PREPARED_RANKS, out + PREPARED_STOCK, stock_len,
             (const uint8_t(*)[RANKS])(out + PREPARED_FITS), portable, out + HEADER);
}

static PyObject *py_prepare(PyObject *self, PyObject *args) {
    (void)self;
    const char *ranks, *stock, *fits;
    Py_ssize_t ranks_len, stock_len, fits_len;
    PyObject *layout;
    int portable = 0;
    if (!PyArg_ParseTuple(args, "y#y#y#S|p", &ranks, &ranks_len, &stock, &stock_len, &fits,
                          &fits_len, &layout, &portable))
        return NULL;
    Layout *L = take_layout(layout);
    if (L == NULL) return NULL;
    PyObject *prepared = NULL;
    if (ranks_len != L->size || stock_len > MAX_STOCK || fits_len != RANKS * RANKS) {
        PyErr_SetString(PyExc_ValueError, "not a deal");
        goto done;
    }
    for (Py_ssize_t i = 0; i < ranks_len + stock_len; i++) {
        int r = i < ranks_len ? ranks[i] : stock[i - ranks_len];
        if (r < (i >= ranks_len ? 0 : 1) || r >= RANKS) { /* a stock's 0 is a joker */
            PyErr_SetString(PyExc_ValueError, "a rank out of 1-13");
            goto done;
        }
    }
    if (!number_sets(L)) goto done;
    prepared = PyBytes_FromStringAndSize(NULL, (Py_ssize_t)prepared_size(L));
    if (prepared == NULL) goto done;
    uint8_t *out = (uint8_t *)PyBytes_AS_STRING(prepared);
    Py_BEGIN_ALLOW_THREADS
    fill_prepared(L, out, (const uint8_t *)ranks, (const uint8_t *)stock, (int)stock_len,
                  (const uint8_t *)fits, portable);
    Py_END_ALLOW_THREADS
done:
    release_layout(L);
    return prepared;
}

/* The prepared deal's reach row of the set present on layout L, or NULL with an error set. */
static const uint8_t *reach_row(PyObject *prepared, const Layout *L, unsigned long long present,
                                int drawn, int top, int *set) {
    const uint8_t *p = (const uint8_t *)PyBytes_AS_STRING(prepared); /* bytes: parsed by "S" */
    if (!L->set_count ||
        PyBytes_GET_SIZE(prepared) != (Py_ssize_t)prepared_size(L) || memcmp(p, "TPR2", 4) != 0 ||
        p[5] != L->size) {
        PyErr_SetString(PyExc_ValueError, "not a prepared deal of the layout");
        return NULL;
    }
    *set = set_index(L, present);
    if (*set < 0 || drawn < 0 || drawn > p[4] || top < 0 || top >= RANKS) {
        PyErr_SetString(PyExc_ValueError, "not a position of the deal");
        return NULL;
    }
    return p + HEADER + (size_t)*set * REACH_ROW;
}

/* The arguments (prepared, layout, present, drawn, top) of the prepared deal's questions: the
 * layout taken (release it), its row; NULL with an error set. */
static const uint8_t *parse_position(PyObject *args, PyObject **prepared, Layout **L,
                                     unsigned long long *present, int *drawn, int *top, int *set) {
    PyObject *layout;
    if (!PyArg_ParseTuple(args, "SSKii", prepared, &layout, present, drawn, top)) return NULL;
    *L = take_layout(layout);
    if (*L == NULL) return NULL;
    if (!number_sets(*L)) { /* numbered already, unless the layout was dropped and read again */
        release_layout(*L);
        return NULL;
    }
    const uint8_t *row = reach_row(*prepared, *L, *present, *drawn, *top, set);
    if (row == NULL) release_layout(*L);
    return row;
}

static PyObject *py_winnable_from(PyObject *self, PyObject *args) {
    (void)self;
    PyObject *prepared;
    Layout *L;
    unsigned long long present;
    int drawn, top, set;
    const uint8_t *row = parse_position(args, &prepared, &L, &present, &drawn, &top, &set);
    if (row == NULL) return NULL;
    release_layout(L);
    return PyBool_FromLong(drawn < row[top]);
}

/* The first winning move from the position: the lowest card that wins, else the draw. */
static PyObject *py_hint_from(PyObject *self, PyObject *args) {
    (void)self;
    PyObject *prepared;
    Layout *L;
    unsigned long long present;
    int drawn, top, set;
    const uint8_t *row = parse_position(args, &prepared, &L, &present, &drawn, &top, &set);
    if (row == NULL) return NULL;
    const uint8_t *p = (const uint8_t *)PyBytes_AS_STRING(prepared);
    const uint8_t *ranks = p + PREPARED_RANKS, *fits = p + PREPARED_FITS;
    const uint8_t *reach = p + HEADER;
    long step = DRAW_STEP; /* won from here but by no play: by the draw */
    if (drawn >= row[top] || !present) {
        step = -1;
    } else {
        for (int k = L->removal_start[set]; k < L->removal_start[set + 1]; k++) {
            int r = ranks[L->removal_pos[k]];
            if (fits[top * RANKS + r] && drawn < reach[(size_t)next_set(L, k) * REACH_ROW + r]) {
                step = L->removal_pos[k];
                break;
            }
        }
    }
    release_layout(L);
    return PyLong_FromLong(step);
}

/* A prepared deal's parts, for the best win below. */
typedef struct {
    const Layout *layout;
    const uint8_t *ranks, *stock, *fits, *reach;
    int stock_size;
} Prepared;

static Prepared prepared_parts(const Layout *L, const uint8_t *p) {
    Prepared d = {L, p + PREPARED_RANKS, p + PREPARED_STOCK, p + PREPARED_FITS, p + HEADER, p[4]};
    return d;
}

/* The first set with at least `cards` cards (set_count when none). */
static int first_with(const Layout *L, int cards) {
    return first_key_at_least(L, (uint64_t)cards << 56);
}

/* Can (set, drawn, top) leave at most `cards` cards on the table? The backward pass that counts
 * every set of at most that many cards as won (table: scratch for it). */
static int leaves(const Prepared *d, int cards, uint8_t *table, int set, int drawn, int top) {
    backward_range(d->layout, d->ranks, d->stock, d->stock_size,
                   (const uint8_t(*)[RANKS])d->fits, 0, table, first_with(d->layout, cards + 1),
                   set);
    return drawn < table[(size_t)set * REACH_ROW + top];
}

/* A win from (set, drawn, top) by the prepared table: the lowest play that keeps the game won,
 * else the draw. Writes it to line, its length to *length, and returns its count of draws. */
static int walk(const Prepared *d, int set, int drawn, int top, uint8_t *line, int *length) {
    const Layout *L = d->layout;
    int n = 0, on = top, at = set, start = drawn;
    while (set_mask(L, at) && n < MAX_PATH) {
        int next = -1;
        for (int k = L->removal_start[at]; k < L->removal_start[at + 1]; k++) {
            int r = d->ranks[L->removal_pos[k]];
            size_t next = (size_t)next_set(L, k);
            if (d->fits[on * RANKS + r] && drawn < d->reach[next * REACH_ROW + r]) {
                next = k;
                break;
            }
        }
        if (next < 0) { /* won from here, by no play: by the draw */
            line[n++] = DRAW_STEP;
            on = d->stock[drawn++];
            continue;
        }
        line[n++] = L->removal_pos[next];
        on = d->ranks[L->removal_pos[next]];
        at = next_set(L, next);
    }
    *length = n;
    return drawn - start;
}

/* ---- the best win in one forward pass ----
 *
 * least[set * REACH_ROW + top]: the fewest draws with which (set, top) is reached from the
 * position (NOT_REACHED when it is not). Reaching the same cards and top with fewer draws is as
 * good (lost with fewer draws is lost with more), so the fewest is all a set keeps. A removal
 * leads to a set numbered lower, so the sets are taken from the position's own downwards, each
 * final when taken: its draws first (from its fewest, drawing on reaches the first stock card of
 * each rank at or after it), then its plays, each handing the fewest draws of the tops the card
 * goes on to the set it leaves with the card's rank on top. With `pruned`, only winnable states
 * are kept (least < reach, the prepared table): the fewest draws of a win are then least at the
 * empty set, and the line is read backwards from it. Without, every reachable state is kept, and
 * the lowest set reached is the fewest cards any line leaves. */
#define NOT_REACHED 255

typedef struct {
    uint8_t next_draw[MAX_STOCK + 1][REACH_ROW]; /* [d][r]: 1 + the first e >= d of rank r */
    uint8_t fitters[RANKS][RANKS];                /* the tops a card of rank r goes on */
    int fitter_count[RANKS];
    /* The same for the vector path: a card of rank r goes on r - 1 (unless below[r] is 0xFF),
     * r + 1 (unless above[r]), the wildcard (unless wild[r]), and the extra pairs (Easy's king
     * and ace, each on the other). */
    uint8_t below[REACH_ROW], above[REACH_ROW], wild[REACH_ROW];
    uint8_t extra_rank[2 * RANKS * RANKS], extra_top[2 * RANKS * RANKS];
    int extras;
} Forward;

static void forward_tables(const Prepared *d, Forward *f) {
    memset(f->next_draw, NOT_REACHED, sizeof f->next_draw);
    for (int e = d->stock_size - 1; e >= 0; e--) {
        memcpy(f->next_draw[e], f->next_draw[e + 1], REACH_ROW);
        f->next_draw[e][d->stock[e]] = (uint8_t)(e + 1);
    }
    memset(f->below, 0xFF, REACH_ROW);
    memset(f->above, 0xFF, REACH_ROW);
    memset(f->wild, 0xFF, REACH_ROW);
    f->extras = 0;
    for (int r = 0; r < RANKS; r++) {
        f->fitter_count[r] = 0;
        for (int t = 0; t < RANKS; t++) {
            if (!r || !d->fits[t * RANKS + r]) continue;
            f->fitters[r][f->fitter_count[r]++] = (uint8_t)t;
            if (t == 0)
                f->wild[r] = 0;
            else if (t == r - 1)
                f->below[r] = 0;
            else if (t == r + 1)
                f->above[r] = 0;
            else {
                f->extra_rank[f->extras] = (uint8_t)r;
                f->extra_top[f->extras++] = (uint8_t)t;
            }
        }
    }
}

/* most[r]: the fewest draws among the tops of row a card of rank r goes on. */
static inline void fewest_under(const uint8_t *row, const Forward *f, uint8_t *most) {
#if HAVE_VECTOR
    __m128i r = _mm_load_si128((const __m128i *)row);
    __m128i m = _mm_or_si128(_mm_slli_si128(r, 1), _mm_loadu_si128((const __m128i *)f->below));
    m = _mm_min_epu8(m, _mm_or_si128(_mm_srli_si128(r, 1),
                                     _mm_loadu_si128((const __m128i *)f->above)));
    m = _mm_min_epu8(m, _mm_or_si128(_mm_set1_epi8((char)row[0]),
                                     _mm_loadu_si128((const __m128i *)f->wild)));
    _mm_storeu_si128((__m128i *)most, m);
    for (int j = 0; j < f->extras; j++)
        if (row[f->extra_top[j]] < most[f->extra_rank[j]])
            most[f->extra_rank[j]] = row[f->extra_top[j]];
#else
    for (int r = 1; r < RANKS; r++) {
        uint8_t m = NOT_REACHED;
        for (int j = 0; j < f->fitter_count[r]; j++)
            if (row[f->fitters[r][j]] < m) m = row[f->fitters[r][j]];
        most[r] = m;
    }
#endif
}

/* A set's row once every play into it is in: the states that cannot be won dropped (with
 * `pruned`), then its draws; returns its fewest draws (NOT_REACHED when nothing is left). */
#if HAVE_VECTOR
static inline int settle_row(uint8_t *row, const uint8_t *won, const Forward *f, int pruned,
                             int limit) {
    __m128i r = _mm_load_si128((const __m128i *)row);
    __m128i w = _mm_min_epu8(_mm_load_si128((const __m128i *)won), _mm_set1_epi8((char)limit));
    const __m128i none = _mm_set1_epi8((char)NOT_REACHED);
    if (pruned) r = _mm_or_si128(r, _mm_cmpeq_epi8(_mm_max_epu8(r, w), r)); /* r >= w: lost */
    __m128i m = _mm_min_epu8(r, _mm_shuffle_epi32(r, _MM_SHUFFLE(1, 0, 3, 2)));
    m = _mm_min_epu8(m, _mm_shuffle_epi32(m, _MM_SHUFFLE(2, 3, 0, 1)));
    m = _mm_min_epu8(m, _mm_shufflelo_epi16(m, 0xB1));
    int fewest = _mm_cvtsi128_si32(m);
    fewest = (fewest & 0xFF) < (fewest >> 8 & 0xFF) ? fewest & 0xFF : fewest >> 8 & 0xFF;
    if (fewest == NOT_REACHED) {
        _mm_store_si128((__m128i *)row, none);
        return NOT_REACHED;
    }
    __m128i v = _mm_load_si128((const __m128i *)f->next_draw[fewest]);
    if (pruned) v = _mm_or_si128(v, _mm_cmpeq_epi8(_mm_max_epu8(v, w), v));
    _mm_store_si128((__m128i *)row, _mm_min_epu8(r, v));
    return fewest;
}
#else
static inline int settle_row(uint8_t *row, const uint8_t *won, const Forward *f, int pruned,
                             int limit) {
    uint8_t fewest = NOT_REACHED;
    for (int t = 0; t < RANKS; t++) {
        if (pruned && (row[t] >= won[t] || row[t] >= limit)) row[t] = NOT_REACHED;
        if (row[t] < fewest) fewest = row[t];
    }
    if (fewest == NOT_REACHED) return NOT_REACHED;
    const uint8_t *drawing = f->next_draw[fewest];
    for (int t = 0; t < RANKS; t++) {
        uint8_t v = drawing[t];
        if (pruned && (v >= won[t] || v >= limit)) v = NOT_REACHED;
        if (v < row[t]) row[t] = v;
    }
    return fewest;
}
#endif

/* The pass; returns the lowest set reached (-1 when none). Only the reached sets (`reached`, a
 * bit a set) are visited, highest first. */
static int forward_pass(const Prepared *d, const Forward *f, uint8_t *least, uint64_t *reached,
                        int set, int drawn, int top, int pruned, int limit) {
    const Layout *L = d->layout;
    const uint8_t *reach = d->reach, *ranks = d->ranks;
    const int32_t *start = L->removal_start;
    const uint8_t *removal_pos = L->removal_pos;
    const uint16_t *n16 = L->next16;
    const uint32_t *n32 = L->next32;
    memset(reached, 0, ((size_t)set / 64 + 1) * sizeof(uint64_t));
    memset(least, NOT_REACHED, ((size_t)set + 1) * REACH_ROW);
    least[(size_t)set * REACH_ROW + top] = (uint8_t)drawn;
    reached[set / 64] |= 1ULL << set % 64;
    int lowest_set = -1;
    for (int w = set / 64; w >= 0; w--) {
        /* A play leads to a lower set, maybe of this word: the word is read again each time. */
        uint64_t below = ~0ULL, pending;
        while ((pending = reached[w] & below) != 0) {
            int b = highest(pending), i = w * 64 + b;
            below = b ? ~0ULL >> (64 - b) : 0;
            uint8_t *row = least + (size_t)i * REACH_ROW;
            if (settle_row(row, reach + (size_t)i * REACH_ROW, f, pruned, limit) == NOT_REACHED)
                continue;
            lowest_set = i;
            uint8_t most[REACH_ROW];
            fewest_under(row, f, most);
            /* Without a branch (which way each goes is a coin toss): a lost or unreached
             * state hands on NOT_REACHED, which changes nothing and marks nothing. */
            for (int k = start[i]; k < start[i + 1]; k++) {
                int r = ranks[removal_pos[k]];
                unsigned m = most[r];
                size_t next = n16 != NULL ? (size_t)n16[k] : (size_t)n32[k];
                if (pruned) m = m < reach[next * REACH_ROW + r] ? m : NOT_REACHED;
                uint8_t *to = least + next * REACH_ROW + r;
                *to = (uint8_t)(m < *to ? m : *to);
                reached[next / 64] |= (uint64_t)(m != NOT_REACHED) << next % 64;
            }
        }
    }
    return lowest_set;
}

/* The line to (set 0, top, its least) read backwards through least: a play into it with the same
 * draws, else draws from the set's fewest (a state reached by no play is reached by drawing). */
static int line_back(const Prepared *d, const Forward *f, const uint8_t *least,
                     const uint64_t *reached, int set0, int drawn0, int top0, int top,
                     uint8_t *line) {
    const Layout *L = d->layout;
    uint8_t back[MAX_PATH];
    int n = 0, at = 0, dr = least[top];
    uint64_t start_mask = set_mask(L, set0);
    while (!(at == set0 && dr == drawn0 && top == top0) && n < MAX_PATH) {
        uint64_t mask = set_mask(L, at);
        int found = 0;
        for (uint64_t rest = top ? start_mask & ~mask : 0; rest && !found; rest &= rest - 1) {
            int p = lowest(rest);
            if (d->ranks[p] != top) continue;
            int before = set_index(L, mask | 1ULL << p);
            if (before < 0 || !(reached[before / 64] >> before % 64 & 1)) continue;
            int freed = 0;
            for (int k = L->removal_start[before]; k < L->removal_start[before + 1]; k++)
                if (L->removal_pos[k] == p) freed = 1;
            if (!freed) continue;
            const uint8_t *row = least + (size_t)before * REACH_ROW;
            for (int j = 0; j < f->fitter_count[top]; j++) {
                int t = f->fitters[top][j];
                if (row[t] == dr) {
                    back[n++] = (uint8_t)p;
                    at = before;
                    top = t;
                    found = 1;
                    break;
                }
            }
        }
        if (found) continue;
        const uint8_t *row = least + (size_t)at * REACH_ROW;
        int fewest = NOT_REACHED, from = 0;
        for (int t = 0; t < RANKS; t++)
            if (row[t] < fewest) {
                fewest = row[t];
                from = t;
            }
        if (fewest >= dr) break; /* never: a state no play reaches is reached by drawing */
        for (int k = fewest; k < dr && n < MAX_PATH; k++) back[n++] = DRAW_STEP;
        dr = fewest;
        top = from;
    }
    for (int k = 0; k < n; k++) line[k] = back[n - 1 - k];
    return n;
}

/* Writes a best win from (set, drawn, top) to line and returns its length; -1 when the position
 * is lost, with *fewest_left the fewest cards any line leaves. scratch: one table. */
static int best_line(const Layout *L, const uint8_t *prepared, int set, int drawn, int top,
                     uint8_t *line, int *fewest_left, uint8_t *scratch) {
    Prepared d = prepared_parts(L, prepared);
    Forward f;
    forward_tables(&d, &f);
    *fewest_left = 0;
    int won = drawn < d.reach[(size_t)set * REACH_ROW + top], length, limit = NOT_REACHED;
    if (won) { /* the prepared table's line is a win: no state with more draws matters */
        limit = drawn + walk(&d, set, drawn, top, line, &length) + 1;
        if (limit == drawn + 1) return length; /* no draw at all */
    }
    if (!won && bit_count(set_mask(L, set)) > 1 && leaves(&d, 1, scratch, set, drawn, top)) {
        *fewest_left = 1; /* most lost deals: one backward pass says so */
        return -1;
    }
    uint64_t *reached = (uint64_t *)(scratch + (size_t)L->set_count * REACH_ROW);
    int lowest_set = forward_pass(&d, &f, scratch, reached, set, drawn, top, won, limit);
    if (!won) {
        *fewest_left = bit_count(set_mask(L, lowest_set));
        return -1;
    }
    int best = 0;
    for (int t = 1; t < RANKS; t++)
        if (scratch[t] < scratch[best]) best = t;
    return line_back(&d, &f, scratch, reached, set, drawn, top, best, line);
}

/* The scratch table of best_line, kept between calls like the Search (taken with the GIL); a
 * layout with more sets than the kept one was made for gets a new one. */
static uint8_t *spare_scratch;
static size_t spare_scratch_size;

static uint8_t *take_scratch(const Layout *L, size_t *size) {
    size_t bits = ((size_t)L->set_count / 64 + 1) * sizeof(uint64_t);
    size_t wanted = (size_t)L->set_count * REACH_ROW + bits;
    uint8_t *scratch = spare_scratch;
    if (scratch != NULL && spare_scratch_size >= wanted) {
        spare_scratch = NULL;
        *size = spare_scratch_size;
        return scratch;
    }
    *size = wanted;
    return malloc(wanted);
}

static void give_back_scratch(uint8_t *scratch, size_t size) {
    if (spare_scratch == NULL || spare_scratch_size < size) {
        free(spare_scratch);
        spare_scratch = scratch;
        spare_scratch_size = size;
    } else {
        free(scratch);
    }
}

/* The best win from the position: (line or None, the fewest cards left at best when lost). */
static PyObject *py_best_from(PyObject *self, PyObject *args) {
    (void)self;
    PyObject *prepared;
    Layout *L;
    unsigned long long present;
    int drawn, top, set;
    const uint8_t *row = parse_position(args, &prepared, &L, &present, &drawn, &top, &set);
    if (row == NULL) return NULL;
    const uint8_t *p = (const uint8_t *)PyBytes_AS_STRING(prepared);
    size_t size;
    uint8_t *scratch = take_scratch(L, &size);
    if (scratch == NULL) {
        release_layout(L);
        return PyErr_NoMemory();
    }
    int fewest = 0, length;
    uint8_t line[MAX_PATH];
    Py_BEGIN_ALLOW_THREADS
    length = best_line(L, p, set, drawn, top, line, &fewest, scratch);
    Py_END_ALLOW_THREADS
    give_back_scratch(scratch, size);
    release_layout(L);
    if (length < 0) return Py_BuildValue("Oi", Py_None, fewest);
    return Py_BuildValue("y#i", (const char *)line, (Py_ssize_t)length, 0);
}

/* Is the position won? The depth-first search, stopped after cap positions, answers most deals
 * in microseconds; the rest get the backward pass, whose time is the same for every deal.
 * Returns 1 won, 0 lost, -1 out of memory; *backward_pass says whether the backward pass answered.
 * Runs without the GIL; the layout's sets are numbered. */
static int decide_search(Search *s, const Layout *L, int set, uint64_t present, int drawn,
                         int top, long long cap, int *backward_pass) {
    /* The lost table and the Search are out of the cache after a backward pass (this deal's or
     * the last one's): fetched ahead in one sweep, they stream in instead of missing one line
     * at a time along the search's chain of dependent looks. */
    if (s->lost.mask < SMALL_TABLE)
        for (size_t i = 0; i <= s->lost.mask; i += 8) PREFETCH(&s->lost.entries[i]);
    size_t used = offsetof(Search, lying_under) + (size_t)(s->size + 6) / 7 * sizeof s->lying_under[0];
    for (size_t b = 0; b < used; b += 64) PREFETCH((const char *)s + b);
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
        uint8_t *reach = malloc((size_t)L->set_count * REACH_ROW);
        if (reach == NULL) return -1;
        backward(L, s->ranks, s->stock, s->stock_size, (const uint8_t(*)[RANKS])s->fits, 0,
                 reach);
        won = drawn < reach[(size_t)set * REACH_ROW + top];
        free(reach);
    }
    return won;
}

static PyObject *py_decide(PyObject *self, PyObject *args) {
    (void)self;
    const char *ranks, *stock, *fits;
    Py_ssize_t ranks_len, stock_len, fits_len;
    PyObject *layout;
    int wraps, drawn, top;
    unsigned long long present;
    long long cap;
    if (!PyArg_ParseTuple(args, "y#y#y#SpKiiL", &ranks, &ranks_len, &stock, &stock_len, &fits,
                          &fits_len, &layout, &wraps, &present, &drawn, &top, &cap))
        return NULL;
    Layout *L = take_layout(layout);
    if (L == NULL) return NULL;
    if (!number_sets(L)) {
        release_layout(L);
        return NULL;
    }
    Search *s = new_search(ranks, ranks_len, stock, stock_len, fits, fits_len, L, wraps, present,
                           drawn, top);
    if (s == NULL) {
        release_layout(L);
        return NULL;
    }
    int set = set_index(L, present);
    if (set < 0) {
        free_search(s);
        release_layout(L);
        PyErr_SetString(PyExc_ValueError, "not a position of the deal");
        return NULL;
    }
    int won, backward_pass;
    Py_BEGIN_ALLOW_THREADS
    won = decide_search(s, L, set, present, drawn, top, cap, &backward_pass);
    Py_END_ALLOW_THREADS
    free_search(s);
    release_layout(L);
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

/* The start of deal number n on a table of `size` cards: its ranks (tableau then stock), the
 * stock's size and the rank on the discard. The same shuffle on every layout: the first size
 * cards to the table, the next to the discard, the rest to the stock. With OPTION_EMPTY_DISCARD
 * the discard's card stays on the stock, on top, and the top is WILD; with OPTION_JOKER a joker
 * (WILD) joins the stock at the generator's next draw below size + 1, as tripeaks.codes.deal does
 * (docs/deal-format.md "Options"). */
static void ranks_of_deal(uint64_t n, int options, int size, uint8_t ranks[MAX_TABLEAU],
                          uint8_t stock[MAX_STOCK], int *stock_size, int *top) {
    uint8_t deck[52];
    uint64_t state;
    deal_deck_from(n, deck, &state);
    for (int i = 0; i < size; i++) ranks[i] = (uint8_t)(deck[i] % 13 + 1);
    int first = size + 1;
    if (options & OPTION_EMPTY_DISCARD) {
        *top = WILD;
        first = size;
    } else {
        *top = deck[size] % 13 + 1;
    }
    int count = 0;
    for (int i = first; i < 52; i++) stock[count++] = (uint8_t)(deck[i] % 13 + 1);
    if (options & OPTION_JOKER) {
        int place = (int)splitmix_below(&state, (uint64_t)count + 1, deal_rest[count + 1]);
        memmove(stock + place + 1, stock + place, (size_t)(count - place));
        stock[place] = WILD;
        count++;
    }
    *stock_size = count;
}

/* The tables every deal of one rules and layout shares, read once per call from what Python
 * hands over. */
typedef struct {
    const char *fits;
    Layout *layout; /* taken: release it */
    int wraps;
    long long cap;
    int options; /* OPTION_EMPTY_DISCARD | OPTION_JOKER */
} Shared;

static int parse_shared(PyObject *args, unsigned long long *number, PyObject **numbers,
                        Shared *sh, int *best) {
    Py_ssize_t fits_len;
    PyObject *layout;
    *best = 0;
    sh->options = 0;
    int ok = numbers == NULL
                 ? PyArg_ParseTuple(args, "Ky#SpL|i", number, &sh->fits, &fits_len, &layout,
                                    &sh->wraps, &sh->cap, &sh->options)
                 : PyArg_ParseTuple(args, "Sy#SpLp|i", numbers, &sh->fits, &fits_len, &layout,
                                    &sh->wraps, &sh->cap, best, &sh->options);
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
    sh->layout = take_layout(layout);
    if (sh->layout == NULL) return 0;
    /* The stock of a deal: the deck less the table and the discard, and a joker. */
    if (53 - sh->layout->size > MAX_STOCK || !number_sets(sh->layout)) {
        if (!PyErr_Occurred())
            PyErr_SetString(PyExc_ValueError, "layout: its stock would be too long");
        release_layout(sh->layout);
        return 0;
    }
    return 1;
}

/* A Search of deal number n at its start; NULL with an error set. Needs the GIL. */
static Search *search_of_deal(uint64_t n, const Shared *sh, int *top) {
    uint8_t ranks[MAX_TABLEAU], stock[MAX_STOCK];
    int size;
    ranks_of_deal(n, sh->options, sh->layout->size, ranks, stock, &size, top);
    return new_search((const char *)ranks, sh->layout->size, (const char *)stock, size, sh->fits,
                      RANKS * RANKS, sh->layout, sh->wraps, sh->layout->full, 0, *top);
}

/* Is deal number n won from its start? Dealt and decided here, with no Python object between. */
static PyObject *py_decide_deal(PyObject *self, PyObject *args) {
    (void)self;
    unsigned long long number;
    Shared sh;
    int best, top;
    if (!parse_shared(args, &number, NULL, &sh, &best)) return NULL;
    Layout *L = sh.layout;
    Search *s = search_of_deal(number, &sh, &top);
    if (s == NULL) {
        release_layout(L);
        return NULL;
    }
    int won, backward_pass;
    Py_BEGIN_ALLOW_THREADS
    won = decide_search(s, L, L->set_count - 1, L->full, 0, top, sh.cap, &backward_pass);
    Py_END_ALLOW_THREADS
    long long nodes = s->nodes;
    free_search(s);
    release_layout(L);
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
    ranks_of_deal(n, options, s->size, s->ranks, s->stock, &s->stock_size, top);
    derive(s);
}


/* Many deals at once, by number (little-endian 64-bit each), for the survey: one byte a deal,
 * 1 won and 0 lost; with best, the fewest draws of a win and 255 when lost. */
static PyObject *py_survey(PyObject *self, PyObject *args) {
    (void)self;
    PyObject *numbers;
    Shared sh;
    int best;
    if (!parse_shared(args, NULL, &numbers, &sh, &best)) return NULL;
    Layout *L = sh.layout;
    Py_ssize_t count = PyBytes_GET_SIZE(numbers) / 8;
    if (PyBytes_GET_SIZE(numbers) % 8) {
        release_layout(L);
        PyErr_SetString(PyExc_ValueError, "numbers: 64-bit little-endian deal numbers expected");
        return NULL;
    }
    const unsigned char *raw = (const unsigned char *)PyBytes_AS_STRING(numbers);
    PyObject *result = PyBytes_FromStringAndSize(NULL, count);
    if (result == NULL) {
        release_layout(L);
        return NULL;
    }
    uint8_t *out = (uint8_t *)PyBytes_AS_STRING(result);
    /* One Search reused for every deal: made once from the first deal, re-dealt in place. */
    int top;
    Search *s = search_of_deal(0, &sh, &top);
    /* With best: a prepared deal, then best_line's scratch (a table and a bit a set). */
    size_t cells = (size_t)L->set_count * REACH_ROW;
    size_t bits = ((size_t)L->set_count / 64 + 1) * sizeof(uint64_t);
    uint8_t *prepared = best ? malloc(HEADER + 2 * cells + bits) : NULL;
    if (s == NULL || (best && prepared == NULL)) {
        if (s != NULL) free_search(s);
        free(prepared);
        release_layout(L);
        Py_DECREF(result);
        return s == NULL ? NULL : PyErr_NoMemory();
    }
    int failed = 0;
    Py_BEGIN_ALLOW_THREADS
    for (Py_ssize_t i = 0; i < count && !failed; i++) {
        uint64_t n = read_word(raw + 8 * i);
        if (n >= 8031810176ULL) {
            failed = 2;
            break;
        }
        redeal(s, n, sh.options, &top);
        if (!best) {
            int backward_pass, won = decide_search(s, L, L->set_count - 1, L->full, 0, top,
                                                   sh.cap, &backward_pass);
            if (won < 0) failed = 1;
            out[i] = (uint8_t)(won > 0);
            continue;
        }
        fill_prepared(L, prepared, s->ranks, s->stock, s->stock_size, &s->fits[0][0], 0);
        uint8_t line[MAX_PATH];
        int fewest, winnable = 0 < prepared[HEADER + (size_t)(L->set_count - 1) * REACH_ROW + top];
        int length = winnable ? best_line(L, prepared, L->set_count - 1, 0, top, line, &fewest,
                                          prepared + HEADER + cells)
                              : -1;
        int draws = 0;
        for (int k = 0; k < length; k++) draws += line[k] == DRAW_STEP;
        out[i] = length < 0 ? 255 : (uint8_t)draws;
    }
    Py_END_ALLOW_THREADS
    free(prepared);
    free_search(s);
    release_layout(L);
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
     "solve(ranks, stock, fits, layout, wraps, present, drawn, top, best_win)\n"
     "-> (line or None, cards left at best when lost (best_win only), nodes).\n"
     "line is bytes: a position for a play, 255 for a draw; layout: tables.compiled_layout's."},
    {"decide", py_decide, METH_VARARGS,
     "decide(ranks, stock, fits, layout, wraps, present, drawn, top, cap)\n"
     "-> (winnable, whether the backward pass answered: the search passed cap positions)."},
    {"deal", py_deal, METH_VARARGS,
     "deal(number) -> the 52 cards (0-51) of deal number n as bytes, shuffled as "
     "docs/deal-format.md says: the table's cards first, then the discard, then the stock top "
     "first."},
    {"decide_deal", py_decide_deal, METH_VARARGS,
     "decide_deal(number, fits, layout, wraps, cap, options=0) -> "
     "(winnable from the start, whether the backward pass answered, positions), dealt in C; "
     "options: 1 an empty discard, 2 a joker."},
    {"survey", py_survey, METH_VARARGS,
     "survey(numbers, fits, layout, wraps, cap, best, options=0) -> one "
     "byte a deal (numbers: little-endian 64-bit): 1 won, 0 lost; with best the fewest draws, "
     "255 lost; options as decide_deal's."},
    {"prepare", py_prepare, METH_VARARGS,
     "prepare(ranks, stock, fits, layout, portable=False) -> the deal's answers for every "
     "position (bytes); portable: the plain C path even where a vector one was built."},
    {"winnable_from", py_winnable_from, METH_VARARGS,
     "winnable_from(prepared, layout, present, drawn, top) -> can the position still be won?"},
    {"best_from", py_best_from, METH_VARARGS,
     "best_from(prepared, layout, present, drawn, top) -> (the best win as bytes or None, the "
     "fewest cards left at best when lost), by one forward pass over the won positions."},
    {"hint_from", py_hint_from, METH_VARARGS,
     "hint_from(prepared, layout, present, drawn, top) -> the lowest winning play, 255 for the "
     "draw, -1 when lost."},
    {NULL, NULL, 0, NULL},
};

static struct PyModuleDef module = {
    PyModuleDef_HEAD_INIT, "tripeaks.solver._search",
    "The solver's depth-first search, compiled (see tripeaks/solver/compiled.py).", -1, methods,
};

PyMODINIT_FUNC PyInit__search(void) {
    make_deal_rest();
    PyObject *m = PyModule_Create(&module);
    /* VECTOR: whether the backward pass was built with a vector path (SSE2) beside the portable
     * one; MAX_TABLEAU: the most cards of a layout it takes; HEADER: a prepared deal's bytes
     * before its table. */
    if (m != NULL && (PyModule_AddIntConstant(m, "VECTOR", HAVE_VECTOR) < 0 ||
                      PyModule_AddIntConstant(m, "MAX_TABLEAU", MAX_TABLEAU) < 0 ||
                      PyModule_AddIntConstant(m, "HEADER", HEADER) < 0)) {
        Py_DECREF(m);
        return NULL;
    }
    return m;
}
