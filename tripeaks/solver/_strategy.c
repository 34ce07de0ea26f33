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
 * The file knows no rule and no layout: Python hands it the ranks, the stock, the 14x14 table of
 * which rank fits on which (rank 0 takes anything), and for each position the mask of the cards
 * over it and of the cards under it (tripeaks/layout.py). Plain C99.
 */
#define PY_SSIZE_T_CLEAN
#include <Python.h>
#include <stdint.h>
#include <string.h>

#define CARDS 28
#define ALL ((1u << CARDS) - 1)
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

/* Random.randrange(n) for 2 <= n <= 32: _randbelow_with_getrandbits. */
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
    uint8_t rank[CARDS];
    uint32_t covered_by[CARDS];
    uint32_t covers[CARDS];
    uint32_t fit_mask[14]; /* fit_mask[top]: the positions whose card goes on top */
} Table;

static int lowest(uint32_t mask) {
#if defined(__GNUC__) || defined(__clang__)
    return __builtin_ctz(mask);
#else
    int p = 0;
    while (!(mask >> p & 1u))
        p++;
    return p;
#endif
}

static uint32_t free_cards(const Table *s, uint32_t present) {
    uint32_t free = 0;
    for (uint32_t left = present; left; left &= left - 1) {
        int p = lowest(left);
        if (!(present & s->covered_by[p]))
            free |= 1u << p;
    }
    return free;
}

/* The face-up cards once the card at p has gone from present (free: before it went): the card
 * at p goes, and each card it lay over that nothing else covers now turns face up. */
static uint32_t after_play(const Table *s, uint32_t present, uint32_t free, int p) {
    uint32_t after = present & ~(1u << p);
    free &= ~(1u << p);
    for (uint32_t under = s->covers[p]; under; under &= under - 1) {
        int q = lowest(under);
        if (!(after & s->covered_by[q]))
            free |= 1u << q;
    }
    return free;
}

/* The plays the strategy likes best, in position order, into chosen; how many. */
static int best_plays(const Table *s, uint32_t present, uint32_t free, int top, int chosen[CARDS]) {
    uint32_t fitting = free & s->fit_mask[top];
    if (!(fitting & (fitting - 1))) { /* none or one */
        if (fitting)
            chosen[0] = lowest(fitting);
        return fitting != 0;
    }
    int best = -1, count = 0;
    for (; fitting; fitting &= fitting - 1) {
        int p = lowest(fitting);
        uint32_t bit = 1u << p;
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

static void read_masks(const Py_buffer *buffer, uint32_t out[CARDS]) {
    const unsigned char *b = buffer->buf;
    for (int p = 0; p < CARDS; p++)
        out[p] = (uint32_t)b[4 * p] | (uint32_t)b[4 * p + 1] << 8 | (uint32_t)b[4 * p + 2] << 16 |
                 (uint32_t)b[4 * p + 3] << 24;
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
    if (ranks.len != CARDS || fits.len != 14 * 14 || covered_by.len != 4 * CARDS ||
        covers.len != 4 * CARDS || start < 0 || start > 13 || plays < 0) {
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
    memcpy(s.rank, ranks.buf, CARDS);
    read_masks(&covered_by, s.covered_by);
    read_masks(&covers, s.covers);
    for (int p = 0; p < CARDS; p++)
        if (s.rank[p] > 13)
            goto malformed;
    for (int top = 0; top < 14; top++) {
        s.fit_mask[top] = 0;
        for (int p = 0; p < CARDS; p++)
            if (((const unsigned char *)fits.buf)[top * 14 + s.rank[p]])
                s.fit_mask[top] |= 1u << p;
    }
    for (Py_ssize_t i = 0; i < size; i++)
        if (deck[i] > 13)
            goto malformed;
    long won = 0;
    int chosen[CARDS];
    uint32_t dealt = free_cards(&s, ALL);
    for (int play = 0; play < plays; play++) {
        uint32_t present = ALL, free = dealt;
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
            present &= ~(1u << pos);
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

static PyMethodDef methods[] = {
    {"plays_won", plays_won, METH_VARARGS,
     "plays_won(ranks, stock, top, fits, covered_by, covers, plays, state) -> int: how many of "
     "plays plays of the deal the visible-card strategy wins, ties drawn from the Mersenne "
     "Twister state (random.Random.getstate()[1])."},
    {NULL, NULL, 0, NULL},
};

static struct PyModuleDef module = {PyModuleDef_HEAD_INIT, "_strategy",
                                    "The visible-card strategy's plays, compiled.", -1, methods,
                                    NULL, NULL, NULL, NULL};

PyMODINIT_FUNC PyInit__strategy(void) { return PyModule_Create(&module); }
