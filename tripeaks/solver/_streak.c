/* The exact best score under the traditional scoring: tripeaks/streak.py's search, compiled.
 *
 * A position is the cards present (28 bits), the cards drawn, the rank on top and the streak. After
 * a draw the streak is 0 and the top is the card drawn, so the best future of a post-draw position
 * depends on (present, drawn) alone: those are memoised in a hash table. Between two draws the
 * search walks the plays of the run depth first (the streak and the peaks emptied known), asking the
 * table whenever the run stops for a draw, and keeping the values of the run positions it walked last
 * in a small cache (a run reaches a position in more than one order). Every value is a pair: the
 * best over every ending (won, or stuck with the stock used up) and the best over the wins alone
 * (NO_WIN when there is none), each of them two numbers because the score never goes below 0 (a
 * draw makes it max(score - 5, 0)): the points still to come, and the final score from 0 (Pair).
 *
 * The file knows no rule and no layout: Python hands it the ranks, the stock, a 14x14 table of
 * which rank fits on which (rank 0 is the wildcard top of an empty discard or a joker: the table
 * says every card fits it), the covering masks and the three peaks (tripeaks/layout.py). Plain C99;
 * it releases the GIL while it searches. docs/solver.md "Traditional scoring: the best score".
 */
#define PY_SSIZE_T_CLEAN
#include <Python.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#if defined(__linux__)
#include <sys/mman.h>
#endif

#define CARDS 28
#define NO_WIN INT16_MIN /* below any real score: scores run from -155 to 466 */
#define DRAW_STEP 255

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
 * (present, and drawn above it: 33 bits; never 0, as drawn is at least 1, so 0 says the slot is
 * free) and the Pair, four 16-bit values. One 64-bit word held the key and the two values of the
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
    uint32_t covered_by[CARDS];
    uint32_t lying_under[4][128];
    uint32_t peak[3];
    int peak_of[CARDS];
    int bonus[4]; /* the bonus for the k-th peak emptied, k = 1..3 */
    uint8_t rank[CARDS];
    uint32_t fit_mask[14]; /* the positions whose card fits on each rank */
    uint8_t stock[64];
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

static uint32_t free_of(const Search *s, uint32_t present) {
    uint32_t under = s->lying_under[0][present & 127] | s->lying_under[1][present >> 7 & 127] |
                     s->lying_under[2][present >> 14 & 127] | s->lying_under[3][present >> 21 & 127];
    return present & ~under;
}

static int bonus_of(const Search *s, uint32_t after, int pos) {
    if (after & s->peak[s->peak_of[pos]]) return 0;
    int empty = 0;
    for (int k = 0; k < 3; k++) empty += !(after & s->peak[k]);
    return s->bonus[empty];
}

static int lowest(uint32_t m) {
#if defined(__GNUC__) || defined(__clang__)
    return __builtin_ctz(m);
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

static Pair memo(Search *s, uint32_t present, int drawn);

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
static int next_playable(const Search *s, uint32_t free, int drawn) {
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
 * deals with the widest runs; the memo of post-draw positions is untouched. */
static Pair run(Search *s, uint32_t present, int drawn, int top, int streak) {
    Pair out = {NO_WIN, NO_WIN, NO_WIN, NO_WIN};
    s->visited++;
    if (!present) {
        out.best = out.best0 = out.win = out.win0 = 0;
        return out;
    }
    uint32_t free = free_of(s, present);
    int next = drawn < s->stock_len ? next_playable(s, free, drawn) : 0;
#if defined(__GNUC__) || defined(__clang__)
    if (next && next <= s->stock_len) { /* the draw's entry is asked for last: fetch it now */
        uint64_t key = (uint64_t)present | (uint64_t)next << 28;
        __builtin_prefetch(&s->entries[slot_of(key, s->capacity)]);
    }
#endif
    uint32_t plays = free & s->fit_mask[top];
    uint64_t key = 0;
    size_t slot = 0;
    if (plays && streak >= RECENT_STREAK) {
        key = (uint64_t)present | (uint64_t)drawn << 28 | (uint64_t)top << 33 |
              (uint64_t)streak << 37; /* never 0: present is not */
        slot = (size_t)((key * UINT64_C(0x9E3779B97F4A7C15)) >> (64 - RECENT_BITS));
        if (s->recent[slot].key == key) return s->recent[slot].value;
    }
    int moved = 0;
    while (plays) {
        int p = lowest(plays);
        plays &= plays - 1;
        uint32_t after = present & ~(UINT32_C(1) << p);
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
static Pair memo(Search *s, uint32_t present, int drawn) {
    uint64_t key = (uint64_t)present | (uint64_t)drawn << 28;
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
static int line_of(Search *s, uint32_t present, int drawn, int top, int streak, int wins, int score,
                   int target, uint8_t *steps) {
    int n = 0;
    while (present) {
        uint32_t plays = free_of(s, present) & s->fit_mask[top];
        int chosen = -1;
        while (plays) {
            int p = lowest(plays);
            plays &= plays - 1;
            uint32_t after = present & ~(UINT32_C(1) << p);
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

static PyObject *best(PyObject *self, PyObject *args) {
    (void)self;
    Py_buffer ranks, stock, fits, layout;
    unsigned long present;
    int drawn, top, streak, score;
    if (!PyArg_ParseTuple(args, "y*y*y*y*kiiii", &ranks, &stock, &fits, &layout, &present, &drawn,
                          &top, &streak, &score))
        return NULL;
    PyObject *result = NULL;
    Search *s = calloc(1, sizeof *s);
    if (!s) {
        PyErr_NoMemory();
        goto done;
    }
    if (ranks.len != CARDS || stock.len > 31 || fits.len != 14 * 14 ||
        layout.len != (CARDS + 3) * 4 || drawn < 0 || drawn > stock.len || top < 0 || top > 13 ||
        streak < 0 || streak > CARDS || present >= (UINT32_C(1) << CARDS) || score < 0 ||
        score > 10000) {
        PyErr_SetString(PyExc_ValueError, "_streak.best: malformed position");
        goto done;
    }
    const uint8_t *fit = fits.buf;
    memcpy(s->rank, ranks.buf, CARDS);
    memcpy(s->stock, stock.buf, (size_t)stock.len);
    s->stock_len = (int)stock.len;
    for (int i = 0; i < CARDS; i++) {
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
    const uint8_t *lay = layout.buf;
    for (int i = 0; i < CARDS + 3; i++) {
        uint32_t m = (uint32_t)lay[4 * i] | (uint32_t)lay[4 * i + 1] << 8 |
                     (uint32_t)lay[4 * i + 2] << 16 | (uint32_t)lay[4 * i + 3] << 24;
        if (i < CARDS)
            s->covered_by[i] = m;
        else
            s->peak[i - CARDS] = m;
    }
    for (int p = 0; p < CARDS; p++)
        for (int k = 0; k < 3; k++)
            if (s->peak[k] >> p & 1) s->peak_of[p] = k;
    for (int k = 0; k < 4; k++)
        for (int b = 0; b < 128; b++) {
            uint32_t chunk = (uint32_t)b << (7 * k), under = 0;
            for (int p = 0; p < CARDS; p++)
                if (s->covered_by[p] & chunk) under |= UINT32_C(1) << p;
            s->lying_under[k][b] = under;
        }
    s->bonus[0] = 0;
    s->bonus[1] = 15;
    s->bonus[2] = 15;
    s->bonus[3] = 30;
    for (int t = 0; t < 14; t++) {
        uint32_t m = 0;
        for (int p = 0; p < CARDS; p++)
            if (fit[s->rank[p] * 14 + t]) m |= UINT32_C(1) << p;
        s->fit_mask[t] = m;
    }
    if (!grow(s)) {
        PyErr_NoMemory();
        goto done;
    }
    uint8_t best_line[128], win_line[128];
    int best_len = 0, win_len = 0, best_score = 0, win_score = NO_WIN;
    Pair value;
    Py_BEGIN_ALLOW_THREADS;
    value = run(s, (uint32_t)present, drawn, top, streak);
    if (!s->failed) {
        best_score = final_of(value, 0, score);
        best_len = line_of(s, (uint32_t)present, drawn, top, streak, 0, score, best_score,
                           best_line);
        win_score = final_of(value, 1, score);
        if (win_score != NO_WIN)
            win_len = line_of(s, (uint32_t)present, drawn, top, streak, 1, score, win_score,
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
     "positions walked."},
    {NULL, NULL, 0, NULL},
};

static struct PyModuleDef module = {PyModuleDef_HEAD_INIT, "_streak",
                                    "The traditional scoring's best score, compiled.", -1, methods,
                                    NULL, NULL, NULL, NULL};

PyMODINIT_FUNC PyInit__streak(void) { return PyModule_Create(&module); }
