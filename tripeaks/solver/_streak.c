/* The exact best score under the traditional scoring: tripeaks/streak.py's search, compiled.
 *
 * A position is the cards present (a mask of the layout's positions, up to 51), the cards drawn,
 * the rank on top and the streak. After
 * a draw the streak is 0 and the top is the card drawn, so the best future of a post-draw position
 * depends on (present, drawn) alone: those are memoised in a hash table. Between two draws the
 * search walks the plays of the run depth first (the streak and the peaks emptied known), asking the
 * table whenever the run stops for a draw, and keeping the values of the run positions it walked last
 * in a small cache (a run reaches a position in more than one order). Every value is a pair: the
 * best over every ending (won, or stuck with the stock used up) and the best over the wins alone
 * (NO_WIN when there is none), each of them two numbers because the score never goes below 0 (a
 * draw makes it max(score - 5, 0)): the points still to come, and the final score from 0 (Pair).
 *
 * The file knows no rule and no layout: Python hands it the ranks (as many as the layout has
 * cards), the stock, a 14x14 table of which rank fits on which (rank 0 is the wildcard top of an
 * empty discard or a joker: the table says every card fits it), and the layout: each position's
 * covering mask, its groups and the bonus for the k-th group emptied (tripeaks/engine/layout.py,
 * tripeaks/solver/compiled.py streak_layout). Masks are 64-bit whatever the layout; Three Peaks'
 * keys are the ones of the 28-card build it replaced, bit for bit. Plain C99; it releases the GIL
 * while it searches. docs/solver.md "Traditional scoring: the best score".
 */
#define PY_SSIZE_T_CLEAN
#include <Python.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#if defined(__linux__)
#include <sys/mman.h>
#endif

#define MAX_CARDS 51  /* tripeaks/engine/layout.py MAX_SIZE: the deck's 52 less the discard */
#define MAX_STOCK 53  /* 52 cards less one on the table, and the joker */
#define MAX_BONUS 500 /* a group's bonus, at most: every score then fits 16 bits */
#define NO_WIN INT16_MIN /* below any real score: Three Peaks' run from -155 to 466 */
#define DRAW_STEP 255
#define CHUNKS ((MAX_CARDS + 6) / 7)

/* A position's value: for the best over every ending and for the best over the wins alone, the
 * most points still to come (``best``, ``win``: a draw costs its 5 however low the score) and
 * the best final score from a current score of 0 (``best0``, ``win0``), where the floor at 0 has
 * had its say. Every future maps a current score x to a final score max(x + a, b) (a draw is
 * x -> max(x - 5, 0), a play x -> x + gain), so from a current score x >= 0 the best final score
 * is max(x + best, best0) (docs/solver.md "Traditional scoring: the best score"). */
typedef struct {
    int16_t best, best0;
    int16_t win, win0; /* NO_WIN, both, when the position cannot be won */
} Pair;

/* A memo entry is 16 bytes, aligned so that an entry never straddles a cache line: the key
 * (present, and drawn above it: the layout's size + 6 bits, at most 57; never 0, as drawn is at
 * least 1, so 0 says the slot is free) and the Pair, four 16-bit values. One 64-bit word held the key and the two values of the
 * search before the floor at 0; the four values need 36 bits at the least (docs/solver.md). */
typedef struct {
    uint64_t key;
    Pair value;
} Entry;

/* The cache of recent run positions: 4,096 entries (64 KB), asked at a streak of 2 or more (a
 * position is reached twice within a run only after two plays in another order). Both are
 * settings for the bench's A/B builds (-DRECENT_BITS=..., -DRECENT_STREAK=99 turns it off). */
#ifndef RECENT_BITS
#define RECENT_BITS 12
#endif
#ifndef RECENT_STREAK
#define RECENT_STREAK 2
#endif
#define RECENT (1 << RECENT_BITS)

typedef struct {
    int cards;             /* the layout's size */
    int chunks;            /* its positions in chunks of 7: lying_under's rows in use */
    int groups;            /* its groups for the bonus */
    int drawn_shift, top_shift, streak_shift; /* a run position's key: see run */
    int recent_on;         /* whether that key fits 64 bits (layouts of up to 48 cards) */
    uint64_t covered_by[MAX_CARDS];
    uint64_t lying_under[CHUNKS][128];
    uint64_t group[MAX_CARDS];
    int group_of[MAX_CARDS];
    int bonus[MAX_CARDS + 1]; /* the bonus for the k-th group emptied, k = 1..groups */
    uint8_t rank[MAX_CARDS];
    uint64_t fit_mask[14]; /* the positions whose card fits on each rank */
    uint8_t stock[MAX_STOCK];
    int stock_len;
    /* the memo of post-draw positions: open addressing, linear probing */
    Entry *entries;
    size_t capacity, count;
    int failed;
    long visited; /* positions within runs walked, for the bench */
    /* the recent run positions with their values, direct-mapped (see run); key 0: empty */
    struct {
        uint64_t key;
        Pair value;
    } recent[RECENT];
} Search;

/* The cards present that no present card lies over: the cards lying under the present ones looked
 * up 7 positions at a time (4 looks on Three Peaks, 5 on a layout of 29-35 cards). */
static uint64_t free_of(const Search *s, uint64_t present) {
    uint64_t under = s->lying_under[0][present & 127] | s->lying_under[1][present >> 7 & 127] |
                     s->lying_under[2][present >> 14 & 127] | s->lying_under[3][present >> 21 & 127];
    for (int k = 4; k < s->chunks; k++) under |= s->lying_under[k][present >> (7 * k) & 127];
    return present & ~under;
}

/* The bonus for playing ``pos`` when ``after`` is left: 0 while its group has cards, else the
 * bonus for the group's place in the order of emptying. */
static int bonus_of(const Search *s, uint64_t after, int pos) {
    if (after & s->group[s->group_of[pos]]) return 0;
    int empty = 0;
    for (int k = 0; k < s->groups; k++) empty += !(after & s->group[k]);
    return s->bonus[empty];
}

static int lowest(uint64_t m) {
#if defined(__GNUC__) || defined(__clang__)
    return __builtin_ctzll(m);
#else
    int i = 0;
    while (!(m & 1u)) {
        m >>= 1;
        i++;
    }
    return i;
#endif
}

#ifndef INITIAL_BITS
#define INITIAL_BITS 19
#endif

static size_t slot_of(uint64_t key, size_t capacity) {
    uint64_t h = key * UINT64_C(0x9E3779B97F4A7C15);
    return (size_t)(h >> 24) & (capacity - 1);
}

#define HUGE_PAGE ((size_t)2 << 20)

/* A zeroed table of ``capacity`` entries. On Linux it is aligned to 2 MB and asked for huge pages
 * (transparent huge pages, which the kernel may give in "madvise" mode): the table is megabytes
 * read at random, and with 4 KB pages a look-up may miss the TLB as well as the cache (measured:
 * 6-10% of the time on Easy -DJT, docs/solver.md). Elsewhere, or refused, plain pages; -DNO_HUGE
 * builds without, for the bench's A/B. */
static Entry *table_of(size_t capacity) {
    size_t bytes = capacity * sizeof(Entry);
#if defined(__linux__) && defined(MADV_HUGEPAGE) && !defined(NO_HUGE)
    if (bytes >= HUGE_PAGE) {
        void *p = NULL;
        if (posix_memalign(&p, HUGE_PAGE, bytes) == 0) {
            madvise(p, bytes, MADV_HUGEPAGE); /* a hint: refused, the pages are small */
            memset(p, 0, bytes);
            return p;
        }
    }
#endif
    return calloc(capacity, sizeof(Entry));
}

static int grow(Search *s) {
    size_t capacity = s->capacity ? s->capacity * 2 : (size_t)1 << INITIAL_BITS;
    Entry *entries = table_of(capacity);
    if (!entries) {
        s->failed = 1;
        return 0;
    }
    for (size_t i = 0; i < s->capacity; i++) {
        if (!s->entries[i].key) continue;
        size_t j = slot_of(s->entries[i].key, capacity);
        while (entries[j].key) j = (j + 1) & (capacity - 1);
        entries[j] = s->entries[i];
    }
    free(s->entries);
    s->entries = entries;
    s->capacity = capacity;
    return 1;
}

static Pair memo(Search *s, uint64_t present, int drawn);

static inline int max_of(int a, int b) { return a > b ? a : b; }

/* A play earning ``gain`` (> 0) to a position worth ``got``: from 0 the score is ``gain`` after it,
 * and max(gain + a, b) >= max(a, b) is what ``got`` makes of it. */
static inline void take_play(Pair *into, int gain, Pair got) {
    int best = gain + got.best;
    into->best = (int16_t)max_of(into->best, best);
    into->best0 = (int16_t)max_of(into->best0, max_of(best, got.best0));
    if (got.win != NO_WIN) {
        int win = gain + got.win;
        into->win = (int16_t)max_of(into->win, win);
        into->win0 = (int16_t)max_of(into->win0, max_of(win, got.win0));
    }
}

/* ``cards`` draws (>= 1) to a position worth ``got``: each costs 5, but from 0 the score stays 0. */
static inline void take_draws(Pair *into, int cards, Pair got) {
    into->best = (int16_t)max_of(into->best, got.best - 5 * cards);
    into->best0 = (int16_t)max_of(into->best0, got.best0);
    if (got.win != NO_WIN) {
        into->win = (int16_t)max_of(into->win, got.win - 5 * cards);
        into->win0 = (int16_t)max_of(into->win0, got.win0);
    }
}

/* The draws from ``drawn`` cards drawn up to the first stock card that some free card fits (the
 * draws in between are forced: nothing else can be done after them), or stock_len + 1 when
 * none does: then the game ends stuck once the stock is used up. */
static int next_playable(const Search *s, uint64_t free, int drawn) {
    for (int d = drawn + 1; d <= s->stock_len; d++)
        if (free & s->fit_mask[s->stock[d - 1]]) return d;
    return s->stock_len + 1;
}

/* The best points still to come from a position within a run (streak cards played since the
 * last draw, or since the start).
 *
 * (present, drawn, top, streak) is the whole state, so its value may be kept anywhere: the
 * positions with a play and a streak of 2 or more are kept in a small direct-mapped cache (the
 * last one at each slot), because the plays of a run reach the same position in more than one
 * order (the two orders of two cards that fit on each other's ranks, a wildcard's many first
 * cards) and a hit skips the whole walk under it. A fifth of the walk on Easy -DJT, more on the
 * deals with the widest runs; the memo of post-draw positions is untouched. Its key is present,
 * drawn, top and streak side by side (Three Peaks: at bits 0, 28, 33 and 37), which fits 64 bits
 * on a layout of up to 48 cards; on a larger one the cache is not asked (it is only a cache). */
static Pair run(Search *s, uint64_t present, int drawn, int top, int streak) {
    Pair out = {NO_WIN, NO_WIN, NO_WIN, NO_WIN};
    s->visited++;
    if (!present) {
        out.best = out.best0 = out.win = out.win0 = 0;
        return out;
    }
    uint64_t free = free_of(s, present);
    int next = drawn < s->stock_len ? next_playable(s, free, drawn) : 0;
#if defined(__GNUC__) || defined(__clang__)
    if (next && next <= s->stock_len) { /* the draw's entry is asked for last: fetch it now */
        uint64_t key = present | (uint64_t)next << s->cards;
        __builtin_prefetch(&s->entries[slot_of(key, s->capacity)]);
    }
#endif
    uint64_t plays = free & s->fit_mask[top];
    uint64_t key = 0;
    size_t slot = 0;
    if (plays && streak >= RECENT_STREAK && s->recent_on) {
        key = present | (uint64_t)drawn << s->drawn_shift | (uint64_t)top << s->top_shift |
              (uint64_t)streak << s->streak_shift; /* never 0: present is not */
        slot = (size_t)((key * UINT64_C(0x9E3779B97F4A7C15)) >> (64 - RECENT_BITS));
        if (s->recent[slot].key == key) return s->recent[slot].value;
    }
    int moved = 0;
    while (plays) {
        int p = lowest(plays);
        plays &= plays - 1;
        uint64_t after = present & ~(UINT64_C(1) << p);
        int gain = streak + 1 + bonus_of(s, after, p);
        take_play(&out, gain, run(s, after, drawn, s->rank[p], streak + 1));
        moved = 1;
        if (s->failed) return out;
    }
    if (next > s->stock_len) { /* drawing the rest of the stock, and stuck */
        Pair stuck = {0, 0, NO_WIN, NO_WIN};
        take_draws(&out, s->stock_len - drawn, stuck);
        moved = 1;
    } else if (next) {
        take_draws(&out, next - drawn, memo(s, present, next));
        moved = 1;
    }
    if (!moved) out.best = out.best0 = 0; /* stuck: the game ends here, and it is not a win */
    if (key && !s->failed) {
        s->recent[slot].key = key;
        s->recent[slot].value = out;
    }
    return out;
}

/* The best future after a draw of stock card ``drawn`` that some free card fits: it depends on
 * the cards present and the cards drawn alone (the streak is 0, the top is that card). */
static Pair memo(Search *s, uint64_t present, int drawn) {
    uint64_t key = present | (uint64_t)drawn << s->cards;
    size_t j = slot_of(key, s->capacity);
    while (s->entries[j].key) {
        if (s->entries[j].key == key) return s->entries[j].value;
        j = (j + 1) & (s->capacity - 1);
    }
    Pair got = run(s, present, drawn, s->stock[drawn - 1], 0);
    if (s->failed) return got;
    if ((s->count + 1) * 10 > s->capacity * 7) {
        if (!grow(s)) return got;
    }
    j = slot_of(key, s->capacity);
    while (s->entries[j].key) j = (j + 1) & (s->capacity - 1);
    s->entries[j].key = key;
    s->entries[j].value = got;
    s->count++;
    return got;
}

/* The best final score from a position worth ``value`` with a current score of ``score`` >= 0. */
static int final_of(Pair value, int wins, int score) {
    if (wins)
        return value.win == NO_WIN ? NO_WIN : max_of(score + value.win, value.win0);
    return max_of(score + value.best, value.best0);
}

/* A line from the position, its current score ``score``, to the final score ``target`` (the best,
 * or the best win), found again step by step: the first action after which the best final score
 * is still ``target``, the score counted on the way with the floor (a draw: max(score - 5, 0)). */
static int line_of(Search *s, uint64_t present, int drawn, int top, int streak, int wins, int score,
                   int target, uint8_t *steps) {
    int n = 0;
    while (present) {
        uint64_t plays = free_of(s, present) & s->fit_mask[top];
        int chosen = -1;
        while (plays) {
            int p = lowest(plays);
            plays &= plays - 1;
            uint64_t after = present & ~(UINT64_C(1) << p);
            int gain = streak + 1 + bonus_of(s, after, p);
            Pair got = run(s, after, drawn, s->rank[p], streak + 1);
            if (final_of(got, wins, score + gain) == target) {
                chosen = p;
                present = after;
                top = s->rank[p];
                streak++;
                score += gain;
                break;
            }
        }
        if (chosen >= 0) {
            steps[n++] = (uint8_t)chosen;
            continue;
        }
        if (drawn >= s->stock_len) break; /* stuck: the score is the target */
        steps[n++] = DRAW_STEP; /* no play keeps the target in reach, so the draw does */
        score = max_of(score - 5, 0);
        top = s->stock[drawn];
        drawn++;
        streak = 0;
    }
    return n;
}

/* How many bits hold the numbers 0 to n. */
static int bits_for(int n) {
    int k = 0;
    while (n >> k) k++;
    return k;
}

static uint64_t word_at(const uint8_t *b, Py_ssize_t i) {
    const uint8_t *w = b + 8 * i; /* one 64-bit load, as compilers read it */
    return (uint64_t)w[0] | (uint64_t)w[1] << 8 | (uint64_t)w[2] << 16 | (uint64_t)w[3] << 24 |
           (uint64_t)w[4] << 32 | (uint64_t)w[5] << 40 | (uint64_t)w[6] << 48 |
           (uint64_t)w[7] << 56;
}

/* The layout from its bytes (tripeaks/solver/compiled.py streak_layout): little-endian 64-bit
 * words, each position's covering mask, then each group's mask, then the bonus for the k-th group
 * emptied (k = 1..groups). 0 and a ValueError when they are not a layout of ``cards`` cards. */
static int read_layout(Search *s, const Py_buffer *layout, int cards) {
    Py_ssize_t words = layout->len / 8, groups = (words - cards) / 2;
    uint64_t all = (UINT64_C(1) << cards) - 1, seen = 0;
    int held = 0;
    if (layout->len % 8 || groups < 1 || groups > cards || words != cards + 2 * groups) {
        PyErr_SetString(PyExc_ValueError, "_streak.best: malformed layout");
        return 0;
    }
    const uint8_t *lay = layout->buf;
    s->cards = cards;
    s->groups = (int)groups;
    s->chunks = (cards + 6) / 7;
    for (int p = 0; p < cards; p++) {
        s->covered_by[p] = word_at(lay, p);
        if (s->covered_by[p] & ~all || s->covered_by[p] >> p & 1) {
            PyErr_SetString(PyExc_ValueError, "_streak.best: a covering mask names other positions");
            return 0;
        }
    }
    s->bonus[0] = 0;
    for (int k = 0; k < groups; k++) {
        uint64_t group = word_at(lay, cards + k), bonus = word_at(lay, cards + groups + k);
        if (!group || group & ~all || group & seen || bonus > MAX_BONUS) {
            PyErr_SetString(PyExc_ValueError,
                            "_streak.best: the groups are not disjoint and non-empty, or a "
                            "bonus is over 500");
            return 0;
        }
        seen |= group;
        s->group[k] = group;
        s->bonus[k + 1] = (int)bonus;
        for (int p = 0; p < cards; p++)
            if (group >> p & 1) {
                s->group_of[p] = k;
                held++;
            }
    }
    if (held != cards) {
        PyErr_SetString(PyExc_ValueError, "_streak.best: the groups do not hold every position");
        return 0;
    }
    for (int k = 0; k < s->chunks; k++)
        for (int b = 0; b < 128; b++) {
            uint64_t chunk = (uint64_t)b << (7 * k), under = 0;
            for (int p = 0; p < cards; p++)
                if (s->covered_by[p] & chunk) under |= UINT64_C(1) << p;
            s->lying_under[k][b] = under;
        }
    return 1;
}

static PyObject *best(PyObject *self, PyObject *args) {
    (void)self;
    Py_buffer ranks, stock, fits, layout;
    unsigned long long present;
    int drawn, top, streak, score;
    if (!PyArg_ParseTuple(args, "y*y*y*y*Kiiii", &ranks, &stock, &fits, &layout, &present, &drawn,
                          &top, &streak, &score))
        return NULL;
    PyObject *result = NULL;
    Search *s = calloc(1, sizeof *s);
    if (!s) {
        PyErr_NoMemory();
        goto done;
    }
    int cards = ranks.len >= 1 && ranks.len <= MAX_CARDS ? (int)ranks.len : 0;
    if (!cards || stock.len > MAX_STOCK || fits.len != 14 * 14 ||
        drawn < 0 || drawn > stock.len || top < 0 || top > 13 || streak < 0 || streak > cards ||
        present >> cards || score < 0 || score > 10000) {
        PyErr_SetString(PyExc_ValueError, "_streak.best: malformed position");
        goto done;
    }
    if (!read_layout(s, &layout, cards)) goto done;
    const uint8_t *fit = fits.buf;
    memcpy(s->rank, ranks.buf, (size_t)cards);
    memcpy(s->stock, stock.buf, (size_t)stock.len);
    s->stock_len = (int)stock.len;
    for (int i = 0; i < cards; i++) {
        if (s->rank[i] < 1 || s->rank[i] > 13) {
            PyErr_SetString(PyExc_ValueError, "_streak.best: a rank is 1-13");
            goto done;
        }
    }
    for (int i = 0; i < s->stock_len; i++) {
        if (s->stock[i] > 13) { /* 0: a joker */
            PyErr_SetString(PyExc_ValueError, "_streak.best: a stock rank is 0-13");
            goto done;
        }
    }
    s->drawn_shift = cards;
    s->top_shift = cards + bits_for(s->stock_len);
    s->streak_shift = s->top_shift + 4;
    s->recent_on = s->streak_shift + bits_for(cards) <= 64;
    for (int t = 0; t < 14; t++) {
        uint64_t m = 0;
        for (int p = 0; p < cards; p++)
            if (fit[s->rank[p] * 14 + t]) m |= UINT64_C(1) << p;
        s->fit_mask[t] = m;
    }
    if (!grow(s)) {
        PyErr_NoMemory();
        goto done;
    }
    uint8_t best_line[MAX_CARDS + MAX_STOCK], win_line[MAX_CARDS + MAX_STOCK];
    int best_len = 0, win_len = 0, best_score = 0, win_score = NO_WIN;
    Pair value;
    Py_BEGIN_ALLOW_THREADS;
    value = run(s, (uint64_t)present, drawn, top, streak);
    if (!s->failed) {
        best_score = final_of(value, 0, score);
        best_len = line_of(s, (uint64_t)present, drawn, top, streak, 0, score, best_score,
                           best_line);
        win_score = final_of(value, 1, score);
        if (win_score != NO_WIN)
            win_len = line_of(s, (uint64_t)present, drawn, top, streak, 1, score, win_score,
                              win_line);
    }
    Py_END_ALLOW_THREADS;
    if (s->failed) {
        PyErr_NoMemory();
        goto done;
    }
    if (win_score == NO_WIN)
        result = Py_BuildValue("(iy#OOnl)", best_score, (const char *)best_line,
                               (Py_ssize_t)best_len, Py_None, Py_None, (Py_ssize_t)s->count,
                               s->visited);
    else
        result = Py_BuildValue("(iy#iy#nl)", best_score, (const char *)best_line,
                               (Py_ssize_t)best_len, win_score, (const char *)win_line,
                               (Py_ssize_t)win_len, (Py_ssize_t)s->count, s->visited);
done:
    if (s) {
        free(s->entries);
        free(s);
    }
    PyBuffer_Release(&ranks);
    PyBuffer_Release(&stock);
    PyBuffer_Release(&fits);
    PyBuffer_Release(&layout);
    return result;
}

static PyMethodDef methods[] = {
    {"best", best, METH_VARARGS,
     "best(ranks, stock, fits, layout, present, drawn, top, streak, score) -> (best, line, win, "
     "win_line, memoised, visited): the best final score from the current score (>= 0), over "
     "every ending and over the wins alone (None, None when it cannot be won), each with a line "
     "(a position a play, 255 a draw); then how many post-draw positions were memoised and run "
     "positions walked. ranks: one a position (1 to 51 of them); layout: little-endian 64-bit "
     "words, each position's covering mask, each group's mask, each k-th group's bonus."},
    {NULL, NULL, 0, NULL},
};

static struct PyModuleDef module = {PyModuleDef_HEAD_INIT, "_streak",
                                    "The traditional scoring's best score, compiled.", -1, methods,
                                    NULL, NULL, NULL, NULL};

PyMODINIT_FUNC PyInit__streak(void) { return PyModule_Create(&module); }
