/* The visible-card strategy's plays of a deal, compiled: tripeaks/explain.py's _plays_won, which
 * a deal's difficulty grade counts over 200 plays (about 3 ms in Python, paid by every new game).
 *
 * The answer must be the Python one to the play, since grades are stored and compared: the ties are
 * broken by the same Mersenne Twister, continued from the state of the caller's random.Random
 * (its getstate()), drawn exactly as Random.randrange(n) draws (getrandbits of n's bit length,
 * again while it is n or more). The strategy itself, as in Python: a fitting face-up card when there
 * is one, preferring one whose removal turns a card face up (worth 2), then one after which another
 * face-up card fits (worth 1), ties in position order; else a draw; a play ends won when the table
 * is empty, lost when nothing fits and the stock is used up.
 *
 * The file knows no rule and no layout: Python hands it the ranks (one a position of the layout,
 * up to 51), the stock, the 14x14 table of which rank fits on which (rank 0 takes anything), and
 * for each position the mask of the cards over it and of the cards under it as 64-bit words
 * (tripeaks/engine/layout.py). Plain C99.
 */
#define PY_SSIZE_T_CLEAN
#include <Python.h>
#include <stdint.h>
#include <string.h>

#define MAX_CARDS 51 /* tripeaks/engine/layout.py MAX_SIZE */
#define MT_N 624
#define MT_M 397

typedef struct {
    uint32_t mt[MT_N];
    int index;
} Twister;

/* CPython's genrand_uint32 (Modules/_randommodule.c), the reference MT19937. */
static uint32_t next_word(Twister *t) {
    static const uint32_t mag01[2] = {0x0u, 0x9908b0dfu};
    uint32_t y, *mt = t->mt;
    if (t->index >= MT_N) {
        int k;
        for (k = 0; k < MT_N - MT_M; k++) {
            y = (mt[k] & 0x80000000u) | (mt[k + 1] & 0x7fffffffu);
            mt[k] = mt[k + MT_M] ^ (y >> 1) ^ mag01[y & 1u];
        }
        for (; k < MT_N - 1; k++) {
            y = (mt[k] & 0x80000000u) | (mt[k + 1] & 0x7fffffffu);
            mt[k] = mt[k + (MT_M - MT_N)] ^ (y >> 1) ^ mag01[y & 1u];
        }
        y = (mt[MT_N - 1] & 0x80000000u) | (mt[0] & 0x7fffffffu);
        mt[MT_N - 1] = mt[MT_M - 1] ^ (y >> 1) ^ mag01[y & 1u];
        t->index = 0;
    }
    y = mt[t->index++];
    y ^= (y >> 11);
    y ^= (y << 7) & 0x9d2c5680u;
    y ^= (y << 15) & 0xefc60000u;
    y ^= (y >> 18);
    return y;
}

/* Random.randrange(n) for 2 <= n <= 51: _randbelow_with_getrandbits (getrandbits(k) for k <= 32
 * is one word's top k bits). */
static int below(Twister *t, int n) {
    int k = 0;
    while ((n >> k) != 0)
        k++;
    uint32_t r;
    do
        r = next_word(t) >> (32 - k);
    while (r >= (uint32_t)n);
    return (int)r;
}

typedef struct {
    uint8_t rank[MAX_CARDS];
    uint64_t covered_by[MAX_CARDS];
    uint64_t covers[MAX_CARDS];
    uint64_t fit_mask[14]; /* fit_mask[top]: the positions whose card goes on top */
} Table;

static int lowest(uint64_t mask) {
#if defined(__GNUC__) || defined(__clang__)
    return __builtin_ctzll(mask);
#else
    int p = 0;
    while (!(mask >> p & 1u))
        p++;
    return p;
#endif
}

static uint64_t free_cards(const Table *s, uint64_t present) {
    uint64_t free = 0;
    for (uint64_t left = present; left; left &= left - 1) {
        int p = lowest(left);
        if (!(present & s->covered_by[p]))
            free |= UINT64_C(1) << p;
    }
    return free;
}

/* The face-up cards once the card at p has gone from present (free: before it went): the card
 * at p goes, and each card it lay over that nothing else covers now turns face up. */
static uint64_t after_play(const Table *s, uint64_t present, uint64_t free, int p) {
    uint64_t after = present & ~(UINT64_C(1) << p);
    free &= ~(UINT64_C(1) << p);
    for (uint64_t under = s->covers[p]; under; under &= under - 1) {
        int q = lowest(under);
        if (!(after & s->covered_by[q]))
            free |= UINT64_C(1) << q;
    }
    return free;
}

/* The plays the strategy likes best, in position order, into chosen; how many. */
static int best_plays(const Table *s, uint64_t present, uint64_t free, int top,
                      int chosen[MAX_CARDS]) {
    uint64_t fitting = free & s->fit_mask[top];
    if (!(fitting & (fitting - 1))) { /* none or one */
        if (fitting)
            chosen[0] = lowest(fitting);
        return fitting != 0;
    }
    int best = -1, count = 0;
    for (; fitting; fitting &= fitting - 1) {
        int p = lowest(fitting);
        uint64_t bit = UINT64_C(1) << p;
        int value = after_play(s, present, free, p) & ~free ? 2 : 0; /* it turns a card face up */
        if (free & ~bit & s->fit_mask[s->rank[p]])
            value += 1;
        if (value > best) {
            best = value;
            count = 0;
        }
        if (value == best)
            chosen[count++] = p;
    }
    return count;
}

/* Each position's mask from little-endian 64-bit words; 0 when one names a position past the
 * layout's. */
static int read_masks(const Py_buffer *buffer, int cards, uint64_t out[MAX_CARDS]) {
    const unsigned char *b = buffer->buf;
    for (int p = 0; p < cards; p++) {
        const unsigned char *w = b + 8 * p; /* one 64-bit load, as compilers read it */
        uint64_t m = (uint64_t)w[0] | (uint64_t)w[1] << 8 | (uint64_t)w[2] << 16 |
                     (uint64_t)w[3] << 24 | (uint64_t)w[4] << 32 | (uint64_t)w[5] << 40 |
                     (uint64_t)w[6] << 48 | (uint64_t)w[7] << 56;
        if (m >> cards)
            return 0;
        out[p] = m;
    }
    return 1;
}

static PyObject *plays_won(PyObject *self, PyObject *args) {
    Py_buffer ranks, stock, fits, covered_by, covers;
    int start, plays;
    PyObject *state;
    (void)self;
    if (!PyArg_ParseTuple(args, "y*y*iy*y*y*iO!", &ranks, &stock, &start, &fits, &covered_by,
                          &covers, &plays, &PyTuple_Type, &state))
        return NULL;
    PyObject *result = NULL;
    Table s;
    Twister t;
    const unsigned char *deck = stock.buf;
    Py_ssize_t size = stock.len;
    int cards = ranks.len >= 1 && ranks.len <= MAX_CARDS ? (int)ranks.len : 0;
    if (!cards || fits.len != 14 * 14 || covered_by.len != 8 * cards || covers.len != 8 * cards ||
        start < 0 || start > 13 || plays < 0) {
        PyErr_SetString(PyExc_ValueError, "plays_won: malformed tables");
        goto done;
    }
    if (PyTuple_GET_SIZE(state) != MT_N + 1) {
        PyErr_SetString(PyExc_ValueError, "plays_won: a Mersenne Twister state is 625 words");
        goto done;
    }
    for (int i = 0; i <= MT_N; i++) {
        unsigned long word = PyLong_AsUnsignedLong(PyTuple_GET_ITEM(state, i));
        if (word == (unsigned long)-1 && PyErr_Occurred())
            goto done;
        if (i < MT_N)
            t.mt[i] = (uint32_t)word;
        else if (word > MT_N) {
            PyErr_SetString(PyExc_ValueError, "plays_won: the state's index is 0 to 624");
            goto done;
        } else
            t.index = (int)word;
    }
    memcpy(s.rank, ranks.buf, (size_t)cards);
    if (!read_masks(&covered_by, cards, s.covered_by) || !read_masks(&covers, cards, s.covers)) {
        PyErr_SetString(PyExc_ValueError, "plays_won: a mask names a position past the layout's");
        goto done;
    }
    for (int p = 0; p < cards; p++)
        if (s.rank[p] > 13)
            goto malformed;
    for (int top = 0; top < 14; top++) {
        s.fit_mask[top] = 0;
        for (int p = 0; p < cards; p++)
            if (((const unsigned char *)fits.buf)[top * 14 + s.rank[p]])
                s.fit_mask[top] |= UINT64_C(1) << p;
    }
    for (Py_ssize_t i = 0; i < size; i++)
        if (deck[i] > 13)
            goto malformed;
    long won = 0;
    int chosen[MAX_CARDS];
    uint64_t all = (UINT64_C(1) << cards) - 1;
    uint64_t dealt = free_cards(&s, all);
    for (int play = 0; play < plays; play++) {
        uint64_t present = all, free = dealt;
        Py_ssize_t drawn = 0;
        int top = start;
        while (present) {
            int count = best_plays(&s, present, free, top, chosen);
            if (count == 0) {
                if (drawn == size)
                    break;
                top = deck[drawn++];
                continue;
            }
            int pos = count == 1 ? chosen[0] : chosen[below(&t, count)];
            free = after_play(&s, present, free, pos);
            present &= ~(UINT64_C(1) << pos);
            top = s.rank[pos];
        }
        if (!present)
            won++;
    }
    result = PyLong_FromLong(won);
    goto done;
malformed:
    PyErr_SetString(PyExc_ValueError, "plays_won: a rank over 13");
done:
    PyBuffer_Release(&ranks);
    PyBuffer_Release(&stock);
    PyBuffer_Release(&fits);
    PyBuffer_Release(&covered_by);
    PyBuffer_Release(&covers);
    return result;
}

/* ---- rollouts: the strategy played on from one position of many sampled deals (a fair hint) ----
 *
 * The ties are drawn from a SplitMix64 started afresh for each (sample, play), the same for every
 * first move, so that two moves are compared on the same draws; below(n) as
 * tripeaks/engine/codes.py's fair_below (words at or past the largest multiple of n thrown away). */

static uint64_t mix_next(uint64_t *state) {
    uint64_t z = (*state += UINT64_C(0x9E3779B97F4A7C15));
    z = (z ^ (z >> 30)) * UINT64_C(0xBF58476D1CE4E5B9);
    z = (z ^ (z >> 27)) * UINT64_C(0x94D049BB133111EB);
    return z ^ (z >> 31);
}

static int mix_below(uint64_t *state, int n) {
    uint64_t rest = (0 - (uint64_t)n) % (uint64_t)n; /* 2^64 mod n */
    for (;;) {
        uint64_t x = mix_next(state);
        if (rest == 0 || x < 0 - rest)
            return (int)(x % (uint64_t)n);
    }
}

/* One play of the strategy from (present, drawn, top) on the deal in s and deck; 1 when won. */
static int play_on(const Table *s, const unsigned char *deck, Py_ssize_t size, uint64_t present,
                   Py_ssize_t drawn, int top, uint64_t *ties) {
    int chosen[MAX_CARDS];
    uint64_t free = free_cards(s, present);
    while (present) {
        int count = best_plays(s, present, free, top, chosen);
        if (count == 0) {
            if (drawn == size)
                return 0;
            top = deck[drawn++];
            continue;
        }
        int pos = count == 1 ? chosen[0] : chosen[mix_below(ties, count)];
        free = after_play(s, present, free, pos);
        present &= ~(UINT64_C(1) << pos);
        top = s->rank[pos];
    }
    return 1;
}

static PyObject *rollouts(PyObject *self, PyObject *args) {
    Py_buffer tableaux, stocks, fits, covered_by, covers, firsts;
    unsigned long long present, seed;
    Py_ssize_t drawn;
    int top, plays;
    (void)self;
    if (!PyArg_ParseTuple(args, "y*y*y*y*y*KniiKy*", &tableaux, &stocks, &fits, &covered_by,
                          &covers, &present, &drawn, &top, &plays, &seed, &firsts))
        return NULL;
    PyObject *result = NULL;
    long counts[MAX_CARDS + 1] = {0};
    Table s;
    Py_ssize_t cards = covered_by.len / 8;
    Py_ssize_t samples = cards ? tableaux.len / cards : 0;
    Py_ssize_t size = samples ? stocks.len / samples : 0;
    Py_ssize_t moves = firsts.len;
    const unsigned char *first = firsts.buf;
    if (cards < 1 || cards > MAX_CARDS || fits.len != 14 * 14 || covers.len != 8 * cards ||
        samples < 1 || tableaux.len != samples * cards || stocks.len != samples * size ||
        top < 0 || top > 13 || plays < 0 || drawn < 0 || drawn > size || moves > MAX_CARDS + 1 ||
        (cards < 64 && present >> cards)) {
        PyErr_SetString(PyExc_ValueError, "rollouts: malformed tables");
        goto done;
    }
    if (!read_masks(&covered_by, (int)cards, s.covered_by) ||
        !read_masks(&covers, (int)cards, s.covers)) {
        PyErr_SetString(PyExc_ValueError, "rollouts: a mask names a position past the layout's");
        goto done;
    }
    for (Py_ssize_t m = 0; m < moves; m++)
        if (first[m] == 255 ? drawn == size
                            : first[m] >= cards || !(present >> first[m] & 1) ||
                                  (present & s.covered_by[first[m]])) {
            PyErr_SetString(PyExc_ValueError, "rollouts: a first move that cannot be made");
            goto done;
        }
    for (Py_ssize_t i = 0; i < tableaux.len; i++)
        if (((const unsigned char *)tableaux.buf)[i] > 13)
            goto malformed;
    for (Py_ssize_t i = 0; i < stocks.len; i++)
        if (((const unsigned char *)stocks.buf)[i] > 13)
            goto malformed;
    for (Py_ssize_t k = 0; k < samples; k++) {
        const unsigned char *deck = (const unsigned char *)stocks.buf + k * size;
        memcpy(s.rank, (const unsigned char *)tableaux.buf + k * cards, (size_t)cards);
        for (int t = 0; t < 14; t++) {
            s.fit_mask[t] = 0;
            for (int p = 0; p < cards; p++)
                if (((const unsigned char *)fits.buf)[t * 14 + s.rank[p]])
                    s.fit_mask[t] |= UINT64_C(1) << p;
        }
        for (int j = 0; j < plays; j++) {
            uint64_t start = seed + UINT64_C(0x632BE59BD9B4E019) * (uint64_t)(k * plays + j + 1);
            for (Py_ssize_t m = 0; m < moves; m++) {
                uint64_t ties = start;
                if (first[m] == 255)
                    counts[m] += play_on(&s, deck, size, present, drawn + 1, deck[drawn], &ties);
                else
                    counts[m] += play_on(&s, deck, size, present & ~(UINT64_C(1) << first[m]),
                                         drawn, s.rank[first[m]], &ties);
            }
        }
    }
    result = PyList_New(moves);
    if (result == NULL)
        goto done;
    for (Py_ssize_t m = 0; m < moves; m++) {
        PyObject *count = PyLong_FromLong(counts[m]);
        if (count == NULL) {
            Py_CLEAR(result);
            goto done;
        }
        PyList_SET_ITEM(result, m, count);
    }
    goto done;
malformed:
    PyErr_SetString(PyExc_ValueError, "rollouts: a rank over 13");
done:
    PyBuffer_Release(&tableaux);
    PyBuffer_Release(&stocks);
    PyBuffer_Release(&fits);
    PyBuffer_Release(&covered_by);
    PyBuffer_Release(&covers);
    PyBuffer_Release(&firsts);
    return result;
}

static PyMethodDef methods[] = {
    {"plays_won", plays_won, METH_VARARGS,
     "plays_won(ranks, stock, top, fits, covered_by, covers, plays, state) -> int: how many of "
     "plays plays of the deal the visible-card strategy wins, ties drawn from the Mersenne "
     "Twister state (random.Random.getstate()[1]). ranks: one a position of the layout (1 to "
     "51); covered_by, covers: each position's mask as a little-endian 64-bit word."},
    {"rollouts", rollouts, METH_VARARGS,
     "rollouts(tableaux, stocks, fits, covered_by, covers, present, drawn, top, plays, seed, "
     "firsts) -> list[int]: for each first move (a position, 255 the draw) from the position "
     "(present, drawn, top), how many of plays plays on each sampled deal the visible-card "
     "strategy wins after it. tableaux, stocks: the samples' ranks, one after another."},
    {NULL, NULL, 0, NULL},
};

static struct PyModuleDef module = {PyModuleDef_HEAD_INIT, "_strategy",
                                    "The visible-card strategy's plays, compiled.", -1, methods,
                                    NULL, NULL, NULL, NULL};

PyMODINIT_FUNC PyInit__strategy(void) { return PyModule_Create(&module); }
