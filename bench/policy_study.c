/* The players of bench/policy_study.py (issue 40's stronger policy): whole games of TriPeaks played
 * by players that see only what a player sees, compiled because the study plays millions of
 * moves. Not part of the app: the bench compiles it into bench/out when it runs.
 *
 * A player is handed the true deal (to play it on) and decides from the visible position only:
 * the face-up cards, the discard's top and how many stock cards are left. Where it imagines the
 * hidden cards, it deals the cards it has not seen (the hidden tableau cards and the rest of the
 * stock, whose multiset a player knows) at random into the hidden places (sample()), never
 * reading the true ones. The players:
 *
 *   0 greedy: the app's visible-card strategy (tripeaks/solver/_strategy.c): a fitting face-up
 *     card when there is one, preferring one that turns a card face up (2), then one after
 *     which another face-up card fits (1), ties at random; else a draw.
 *   1 flat (a = samples): each legal move, the draw included, is followed on the same `a`
 *     imagined deals by the greedy strategy to the end; the move that wins most (ties to the
 *     greedy strategy's liking). The app's fair hint is this with 1,000 samples, its draw
 *     screened by exact solves (tripeaks/solver/explain.py played_hint).
 *   2 nested (a = samples, b = inner samples): as flat, but followed by the flat player of `b`
 *     samples that draws only when no card fits.
 *   3 ismcts (a = iterations, c = exploration): information-set Monte Carlo tree search
 *     (Cowling, Powley and Whitehouse 2012), one tree over what the player sees: each iteration
 *     imagines a deal, walks down the tree by UCB1 over the moves of the visible position, a
 *     node's children told apart by the move and what it showed (the drawn rank, the ranks
 *     turned face up), adds one node and plays the greedy strategy to the end. The move tried
 *     most at the root.
 *   4 endgame (a = unseen cards, b = samples): the flat player of `b` samples until at most `a`
 *     cards are unseen (face down, or in the stock), then the best play there is for a player
 *     who sees only the face-up cards: exact expectimax over what the player sees (below), whose
 *     chance outcomes are the ranks of the unseen cards (the next card drawn, or turned face up,
 *     is any unseen one, each alike: which unseen card lies where is all the player does not
 *     know). Past the table it allows (MEMO), it plays as the flat player for that move.
 *   5 tuned: the greedy strategy's kind of choice, by weights fitted to win more (below).
 *   6 tunedflat (a = samples): as flat, the imagined deals followed by the tuned strategy.
 *   7 tunedismcts (a, c): as ismcts, its iterations played out by the tuned strategy.
 *
 * Plain C99; the rng is SplitMix64 seeded by the caller.
 */
#define PY_SSIZE_T_CLEAN
#include <Python.h>
#include <math.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#define MAX_CARDS 51
#define MAX_STOCK 56
#define DRAW 255
#define NO_MOVE -1
#define MAX_MOVES 24
#define MAX_DEPTH 200
#define INNER 9 /* the nested player's inner flat player, which draws only when no card fits */

typedef struct {
    uint8_t rank[MAX_CARDS];
    uint8_t stock[MAX_STOCK];
    int size;
} Deal;

typedef struct {
    uint64_t present, free;
    int drawn, top;
} Position;

typedef struct {
    uint64_t covered_by[MAX_CARDS], covers[MAX_CARDS];
    uint8_t fits[14][14];
} Table;

static Table table;
static uint64_t rng;

static uint64_t next_word(void) {
    uint64_t z = (rng += UINT64_C(0x9E3779B97F4A7C15));
    z = (z ^ (z >> 30)) * UINT64_C(0xBF58476D1CE4E5B9);
    z = (z ^ (z >> 27)) * UINT64_C(0x94D049BB133111EB);
    return z ^ (z >> 31);
}

static int below(int n) { return (int)(next_word() % (uint64_t)n); }

static int lowest(uint64_t mask) { return __builtin_ctzll(mask); }

static uint64_t fitting(const Deal *d, uint64_t free, int top) {
    uint64_t out = 0;
    for (uint64_t f = free; f; f &= f - 1)
        if (table.fits[top][d->rank[lowest(f)]])
            out |= UINT64_C(1) << lowest(f);
    return out;
}

static Position after(const Deal *d, Position s, int move) {
    if (move == DRAW) {
        s.top = d->stock[s.drawn++];
        return s;
    }
    s.present &= ~(UINT64_C(1) << move);
    s.free &= ~(UINT64_C(1) << move);
    for (uint64_t u = table.covers[move]; u; u &= u - 1)
        if (!(s.present & table.covered_by[lowest(u)]))
            s.free |= UINT64_C(1) << lowest(u);
    s.top = d->rank[move];
    return s;
}

/* The greedy strategy's liking of a move: 2 when it turns a card face up, +1 when another card
 * face up before it fits after it (not one it turns up: that card is not seen yet); -1 for the
 * draw. */
static int liking(const Deal *d, Position s, int move) {
    if (move == DRAW)
        return -1;
    uint64_t rest = s.free & ~(UINT64_C(1) << move);
    return ((after(d, s, move).free & ~rest) ? 2 : 0) + (fitting(d, rest, d->rank[move]) ? 1 : 0);
}

/* The legal moves of the visible position: the fitting face-up cards in position order, then the
 * draw (when `draw_always` is 0, only when no card fits). */
static int moves_of(const Deal *d, Position s, int draw_always, int out[MAX_MOVES]) {
    int n = 0;
    for (uint64_t f = fitting(d, s.free, s.top); f && n < MAX_MOVES - 1; f &= f - 1)
        out[n++] = lowest(f);
    if (s.drawn < d->size && (draw_always || n == 0))
        out[n++] = DRAW;
    return n;
}

static int greedy(const Deal *d, Position s) {
    int moves[MAX_MOVES], best[MAX_MOVES], count = 0, top = -2;
    int n = moves_of(d, s, 0, moves);
    if (n == 0)
        return NO_MOVE;
    for (int i = 0; i < n; i++) {
        int v = liking(d, s, moves[i]);
        if (v > top) {
            top = v;
            count = 0;
        }
        if (v == top)
            best[count++] = moves[i];
    }
    return count == 1 ? best[0] : best[below(count)];
}

/* The tuned strategy (kind 5): a move of the highest weighed sum of what a player sees of it (ties
 * at random), the weights handed in with the deal (bench/policy_study.py fits them, --tune):
 *   W_TURNED  per card the move turns face up;  W_ANY when it turns any;
 *   W_NEXT    when another face-up card fits after it;  W_NEXTS per such card;
 *   W_RUN     per card of the longest run through the other face-up cards it starts (6 at most);
 *   W_BLOCKS  per card still on the table that lies under it, at any depth;
 *   W_UNSEEN  the share of the unseen cards (face down, or in the stock) that fit after it;
 *   W_DRAW    the draw's worth when a card fits (when none does, the draw is the only move);
 *   W_STOCK   the draw's worth per stock card left, over the cards on the table.
 * The greedy strategy is the weights {0, 2, 1, 0, 0, 0, 0, -100, 0}. */
enum { W_TURNED, W_ANY, W_NEXT, W_NEXTS, W_RUN, W_BLOCKS, W_UNSEEN, W_DRAW, W_STOCK, WEIGHTS };
static double weights[WEIGHTS];
static uint64_t under[MAX_CARDS]; /* the cards below each, at any depth (closure of covers) */

static void close_under(int cards) {
    for (int pass = 0; pass < cards; pass++) {
        int changed = 0;
        for (int i = 0; i < cards; i++) {
            uint64_t u = table.covers[i];
            for (uint64_t f = table.covers[i]; f; f &= f - 1)
                u |= under[lowest(f)];
            if (u != under[i]) {
                under[i] = u;
                changed = 1;
            }
        }
        if (!changed)
            break;
    }
}

static int run_from(const Deal *d, uint64_t free, int p, int depth) {
    uint64_t rest = free & ~(UINT64_C(1) << p);
    int best = 0;
    if (depth >= 6)
        return 0;
    for (uint64_t f = fitting(d, rest, d->rank[p]); f; f &= f - 1) {
        int v = 1 + run_from(d, rest, lowest(f), depth + 1);
        if (v > best)
            best = v;
    }
    return best;
}

static double worth(const Deal *d, Position s, int move, const int unseen[14], int total) {
    if (move == DRAW) {
        int cards = __builtin_popcountll(s.present);
        return weights[W_DRAW] + weights[W_STOCK] * (d->size - s.drawn) / (cards ? cards : 1);
    }
    uint64_t rest = s.free & ~(UINT64_C(1) << move);
    int turned = __builtin_popcountll(after(d, s, move).free & ~rest);
    uint64_t next = fitting(d, rest, d->rank[move]);
    double v = weights[W_TURNED] * turned + (turned ? weights[W_ANY] : 0) +
               (next ? weights[W_NEXT] : 0) + weights[W_NEXTS] * __builtin_popcountll(next);
    if (weights[W_RUN] != 0)
        v += weights[W_RUN] * run_from(d, s.free, move, 0);
    v += weights[W_BLOCKS] * __builtin_popcountll(under[move] & s.present);
    if (weights[W_UNSEEN] != 0 && total) {
        int fit = 0;
        for (int r = 0; r < 14; r++)
            if (table.fits[d->rank[move]][r])
                fit += unseen[r];
        v += weights[W_UNSEEN] * fit / total;
    }
    return v;
}

static int tuned(const Deal *d, Position s) {
    int moves[MAX_MOVES], best[MAX_MOVES], count = 0, unseen[14] = {0}, total = 0;
    int n = moves_of(d, s, 1, moves);
    if (n <= 1)
        return n ? moves[0] : NO_MOVE;
    if (weights[W_UNSEEN] != 0) {
        for (uint64_t f = s.present & ~s.free; f; f &= f - 1, total++)
            unseen[d->rank[lowest(f)]]++;
        for (int i = s.drawn; i < d->size; i++, total++)
            unseen[d->stock[i]]++;
    }
    double top = -1e300;
    for (int i = 0; i < n; i++) {
        double v = worth(d, s, moves[i], unseen, total);
        if (v > top + 1e-12) {
            top = v;
            count = 0;
        }
        if (v > top - 1e-12)
            best[count++] = moves[i];
    }
    return count == 1 ? best[0] : best[below(count)];
}

/* A deal like d whose cards not yet seen in s (face down, or in the stock) are dealt at random:
 * the only thing read of them is which they are, a thing the player knows (the deck less the cards
 * seen). */
static void imagine(const Deal *d, Position s, Deal *out) {
    uint8_t unseen[MAX_CARDS + MAX_STOCK];
    int places[MAX_CARDS], n = 0, hidden = 0;
    *out = *d;
    for (uint64_t f = s.present & ~s.free; f; f &= f - 1) {
        places[hidden++] = lowest(f);
        unseen[n++] = d->rank[lowest(f)];
    }
    for (int i = s.drawn; i < d->size; i++)
        unseen[n++] = d->stock[i];
    /* in rank order first, so that the imagined deals depend on which cards are unseen, never on
     * where they lie */
    for (int i = 1; i < n; i++)
        for (int j = i; j > 0 && unseen[j - 1] > unseen[j]; j--) {
            uint8_t t = unseen[j];
            unseen[j] = unseen[j - 1];
            unseen[j - 1] = t;
        }
    for (int i = n - 1; i > 0; i--) {
        int j = below(i + 1);
        uint8_t t = unseen[i];
        unseen[i] = unseen[j];
        unseen[j] = t;
    }
    for (int i = 0; i < hidden; i++)
        out->rank[places[i]] = unseen[i];
    for (int i = s.drawn; i < d->size; i++)
        out->stock[i] = unseen[hidden + i - s.drawn];
}

typedef struct {
    int kind, a, b;
    double c;
} Player;

static int decide(const Deal *d, Position s, Player p);

static int play_out(const Deal *d, Position s, Player p) {
    while (s.present) {
        int move = decide(d, s, p);
        if (move == NO_MOVE)
            return 0;
        s = after(d, s, move);
    }
    return 1;
}

static int flat(const Deal *d, Position s, int samples, Player then, int draw_always) {
    int moves[MAX_MOVES], wins[MAX_MOVES] = {0};
    int n = moves_of(d, s, draw_always, moves);
    if (n <= 1)
        return n ? moves[0] : NO_MOVE;
    Deal seen;
    for (int k = 0; k < samples; k++) {
        imagine(d, s, &seen);
        uint64_t start = rng;
        for (int i = 0; i < n; i++) {
            rng = start; /* each move met by the same ties */
            wins[i] += play_out(&seen, after(&seen, s, moves[i]), then);
        }
        rng = start ^ UINT64_C(0x5555555555555555);
        next_word();
    }
    int best = 0, top = INT32_MIN;
    for (int i = 0; i < n; i++) {
        int v = wins[i] * 8 + liking(d, s, moves[i]);
        if (v > top) {
            top = v;
            best = i;
        }
    }
    return moves[best];
}

typedef struct {
    int moves;
    int move[MAX_MOVES], tried[MAX_MOVES], child[MAX_MOVES];
    float won[MAX_MOVES];
    int visits;
} Node;

typedef struct {
    uint32_t seen;
    int node, next;
} Link;

static Node *nodes;
static Link *links;
static int node_count, link_count, capacity;

static int add_node(const Deal *d, Position s) {
    if (node_count >= capacity)
        return -1;
    Node *n = &nodes[node_count];
    n->moves = moves_of(d, s, 1, n->move);
    n->visits = 0;
    for (int i = 0; i < n->moves; i++) {
        n->tried[i] = 0;
        n->won[i] = 0;
        n->child[i] = -1;
    }
    return node_count++;
}

/* What a move showed: the drawn rank, or the ranks it turned face up (position order, base 16). */
static uint32_t shown(const Deal *d, Position before, Position now, int move) {
    uint32_t seen = 0;
    if (move == DRAW)
        return (uint32_t)now.top;
    for (uint64_t f = now.free & ~before.free; f; f &= f - 1)
        seen = seen * 16 + d->rank[lowest(f)] + 1;
    return seen;
}

static int ismcts(const Deal *d, Position root, int iterations, double c, int rollout) {
    Player greedy_player = {rollout, 0, 0, 0.0};
    int path_node[MAX_DEPTH], path_move[MAX_DEPTH];
    node_count = link_count = 0;
    if (add_node(d, root) < 0 || nodes[0].moves == 0)
        return NO_MOVE;
    if (nodes[0].moves == 1)
        return nodes[0].move[0];
    Deal seen;
    for (int it = 0; it < iterations; it++) {
        imagine(d, root, &seen);
        Position s = root;
        int at = 0, depth = 0, won;
        for (;;) {
            Node *n = &nodes[at];
            if (n->moves == 0) {
                won = 0;
                break;
            }
            int pick = 0;
            double best = -1.0;
            for (int i = 0; i < n->moves; i++) {
                if (n->tried[i] == 0) {
                    pick = i;
                    break;
                }
                double v = n->won[i] / n->tried[i] + c * sqrt(log((double)n->visits) / n->tried[i]);
                if (v > best) {
                    best = v;
                    pick = i;
                }
            }
            Position next = after(&seen, s, n->move[pick]);
            uint32_t what = shown(&seen, s, next, n->move[pick]);
            path_node[depth] = at;
            path_move[depth++] = pick;
            s = next;
            if (!s.present) {
                won = 1;
                break;
            }
            int link = n->child[pick];
            while (link >= 0 && links[link].seen != what)
                link = links[link].next;
            if (link < 0 || depth >= MAX_DEPTH) {
                int child = depth < MAX_DEPTH ? add_node(&seen, s) : -1;
                if (child >= 0) {
                    links[link_count] = (Link){what, child, nodes[at].child[pick]};
                    nodes[at].child[pick] = link_count++;
                }
                won = play_out(&seen, s, greedy_player);
                break;
            }
            at = links[link].node;
        }
        for (int i = 0; i < depth; i++) {
            Node *n = &nodes[path_node[i]];
            n->visits++;
            n->tried[path_move[i]]++;
            n->won[path_move[i]] += (float)won;
        }
    }
    int best = 0;
    for (int i = 1; i < nodes[0].moves; i++)
        if (nodes[0].tried[i] > nodes[0].tried[best])
            best = i;
    return nodes[0].move[best];
}

/* The endgame player: exact expectimax over the information states, memoised. An information
 * state is what a player sees: the cards on the table (present), the ranks of the face-up ones,
 * the discard's top, the cards drawn and how many of each rank are unseen. Its value is the chance
 * that best play from there wins; it depends on nothing else. The deal handed to it carries the
 * ranks of the face-up cards only (the hidden ones are set to HIDDEN, so any read of them would
 * show). */
#define HIDDEN 15
#define MEMO_BITS 22
#define MEMO_PROBES 64
#define MEMO_NODES 4000000L /* information states a decision may expand before it gives up */

typedef struct {
    uint64_t present, ranks, rest;
    double value;
} Entry;

typedef struct {
    uint8_t count[14]; /* by rank: 1 to 13, 0 the joker */
    int total;
} Unseen;

static Entry *memo;
static long endgame_gave_up;
static long expanded;
static int given_up;

static int memo_key(const Deal *d, Position s, const Unseen *u, Entry *key) {
    uint64_t ranks = 0, rest = UINT64_C(1) << 63;
    int n = 0;
    for (uint64_t f = s.free; f; f &= f - 1) {
        if (++n > 16)
            return 0;
        ranks = ranks << 4 | d->rank[lowest(f)];
    }
    rest |= (uint64_t)s.top << 48 | (uint64_t)s.drawn << 42;
    for (int r = 0; r < 14; r++)
        rest |= (uint64_t)u->count[r] << (3 * r);
    key->present = s.present;
    key->ranks = ranks;
    key->rest = rest;
    return 1;
}

static Entry *memo_slot(const Entry *key) {
    uint64_t h = key->present * UINT64_C(0x9E3779B97F4A7C15) ^
                 key->ranks * UINT64_C(0xC2B2AE3D27D4EB4F) ^
                 key->rest * UINT64_C(0x165667B19E3779F9);
    h ^= h >> 29;
    for (int probe = 0; probe < MEMO_PROBES; probe++) {
        Entry *e = &memo[(h + (uint64_t)probe) & ((UINT64_C(1) << MEMO_BITS) - 1)];
        if (!e->rest ||
            (e->present == key->present && e->ranks == key->ranks && e->rest == key->rest))
            return e;
    }
    return NULL;
}

static double expect(Deal *d, Position s, Unseen *u);

static void forget(void) { memset(memo, 0, sizeof(Entry) << MEMO_BITS); }

static int unseen_count(const Deal *d, Position s) {
    return __builtin_popcountll(s.present & ~s.free) + d->size - s.drawn;
}

/* The value after cards `turned` were turned face up: each takes each unseen rank, as likely as
 * there are cards of it unseen. */
static double reveal(Deal *d, Position s, Unseen *u, uint64_t turned) {
    if (!turned)
        return expect(d, s, u);
    int at = lowest(turned);
    double sum = 0.0;
    for (int r = 0; r < 14 && !given_up; r++) {
        if (!u->count[r])
            continue;
        double p = (double)u->count[r] / u->total;
        u->count[r]--;
        u->total--;
        d->rank[at] = (uint8_t)r;
        sum += p * reveal(d, s, u, turned & (turned - 1));
        d->rank[at] = HIDDEN;
        u->count[r]++;
        u->total++;
    }
    return sum;
}

/* The value of one move from s (its chance outcomes weighed). */
static double move_value(Deal *d, Position s, Unseen *u, int move) {
    if (move == DRAW) {
        double sum = 0.0;
        for (int r = 0; r < 14 && !given_up; r++) {
            if (!u->count[r])
                continue;
            double p = (double)u->count[r] / u->total;
            Position t = s;
            t.top = r;
            t.drawn++;
            u->count[r]--;
            u->total--;
            sum += p * expect(d, t, u);
            u->count[r]++;
            u->total++;
        }
        return sum;
    }
    Position t = after(d, s, move); /* a face-up card: its rank is known */
    return reveal(d, t, u, t.free & ~s.free);
}

static double expect(Deal *d, Position s, Unseen *u) {
    if (!s.present)
        return 1.0;
    Entry key, *slot = NULL;
    if (memo_key(d, s, u, &key)) {
        slot = memo_slot(&key);
        if (slot && slot->rest)
            return slot->value;
    }
    if (++expanded > MEMO_NODES || !slot) {
        given_up = 1;
        return 0.0;
    }
    int moves[MAX_MOVES];
    int n = moves_of(d, s, 1, moves);
    double best = 0.0;
    for (int i = 0; i < n && best < 1.0 && !given_up; i++) {
        double v = move_value(d, s, u, moves[i]);
        if (v > best)
            best = v;
    }
    if (given_up)
        return 0.0;
    *slot = key;
    slot->value = best;
    return best;
}

/* What the player sees of d at s: `seen` with the hidden ranks HIDDEN, `u` the unseen ranks. */
static void seen_of(const Deal *d, Position s, Deal *seen, Unseen *u) {
    *seen = *d;
    memset(u, 0, sizeof *u);
    for (uint64_t f = s.present & ~s.free; f; f &= f - 1) {
        u->count[d->rank[lowest(f)]]++;
        seen->rank[lowest(f)] = HIDDEN;
    }
    for (int i = s.drawn; i < d->size; i++)
        u->count[d->stock[i]]++;
    u->total = unseen_count(d, s);
}

/* The endgame player's move at s: the move of the highest value (ties to the greedy strategy's
 * liking), or NO_MOVE with given_up set when the table overflowed. */
static int endgame(const Deal *d, Position s) {
    Deal seen;
    Unseen u;
    seen_of(d, s, &seen, &u);
    int moves[MAX_MOVES];
    int n = moves_of(&seen, s, 1, moves);
    if (n <= 1)
        return n ? moves[0] : NO_MOVE;
    expanded = 0;
    given_up = 0;
    int best = 0;
    double top = -1.0;
    for (int i = 0; i < n; i++) {
        double v = move_value(&seen, s, &u, moves[i]) + 1e-9 * liking(&seen, s, moves[i]);
        if (given_up) {
            forget(); /* full, or a decision too large */
            return NO_MOVE;
        }
        if (v > top) {
            top = v;
            best = i;
        }
    }
    return moves[best];
}

/* The table, allocated once; emptied when the rules, the layout or the stock's size change (the
 * values it holds are for one of each). */
static int ensure_memo(const Deal *d) {
    static uint64_t owner;
    uint64_t h = UINT64_C(1469598103934665603) ^ (uint64_t)d->size;
    const uint8_t *facts = (const uint8_t *)&table;
    for (size_t i = 0; i < sizeof table; i++)
        h = (h ^ facts[i]) * UINT64_C(1099511628211);
    if (!memo) {
        if (!(memo = calloc((size_t)1 << MEMO_BITS, sizeof(Entry))))
            return 0;
        owner = h;
    } else if (h != owner) {
        forget();
        owner = h;
    }
    return 1;
}

static int decide(const Deal *d, Position s, Player p) {
    Player greedy_player = {0, 0, 0, 0.0}, inner = {INNER, p.b, 0, 0.0};
    switch (p.kind) {
    case 1:
        return flat(d, s, p.a, greedy_player, 1);
    case 2:
        return flat(d, s, p.a, inner, 1);
    case 3:
        return ismcts(d, s, p.a, p.c, 0);
    case 7:
        return ismcts(d, s, p.a, p.c, 5);
    case 4:
        if (unseen_count(d, s) <= p.a) {
            int move = endgame(d, s);
            if (!given_up)
                return move;
            given_up = 0;
            endgame_gave_up++;
        }
        return flat(d, s, p.b, greedy_player, 1);
    case 5:
        return tuned(d, s);
    case 6: {
        Player tuned_player = {5, 0, 0, 0.0};
        return flat(d, s, p.a, tuned_player, 1);
    }
    case INNER:
        return flat(d, s, p.a, greedy_player, 0);
    default:
        return greedy(d, s);
    }
}

/* 1 when every byte of the buffer is a rank (13, the king, at most): the tables are indexed by
 * it. */
static int ranks_ok(const Py_buffer *ranks) {
    for (Py_ssize_t i = 0; i < ranks->len; i++)
        if (((const unsigned char *)ranks->buf)[i] > 13)
            return 0;
    return 1;
}

/* The layout's tables and the tuned strategy's weights from a call's buffers (their sizes checked
 * by the caller) into the module's; the face-up cards among `present`. */
static uint64_t set_table(const Py_buffer *fits, const Py_buffer *covered_by,
                          const Py_buffer *covers, const Py_buffer *weighed, int cards,
                          uint64_t present) {
    uint64_t free = 0;
    for (int i = 0; i < cards; i++) {
        memcpy(&table.covered_by[i], (const char *)covered_by->buf + 8 * i, 8);
        memcpy(&table.covers[i], (const char *)covers->buf + 8 * i, 8);
    }
    memcpy(table.fits, fits->buf, 14 * 14);
    memcpy(weights, weighed->buf, sizeof weights);
    memset(under, 0, sizeof under);
    close_under(cards);
    for (int i = 0; i < cards; i++)
        if ((present >> i & 1) && !(present & table.covered_by[i]))
            free |= UINT64_C(1) << i;
    return free;
}

static int read_deal(PyObject *args, Deal *d, Position *s, Player *p, uint64_t *seed, int *first) {
    Py_buffer ranks, stock, fits, covered_by, covers, weighed;
    unsigned long long present, seed_;
    int drawn, top, ok = 0;
    if (!PyArg_ParseTuple(args, "y*y*y*y*y*KiiiiidKpy*", &ranks, &stock, &fits, &covered_by,
                          &covers, &present, &drawn, &top, &p->kind, &p->a, &p->b, &p->c, &seed_,
                          first, &weighed))
        return 0;
    int cards = (int)ranks.len;
    if (cards < 1 || cards > MAX_CARDS || stock.len > MAX_STOCK || fits.len != 14 * 14 ||
        covered_by.len != 8 * cards || covers.len != 8 * cards || drawn < 0 ||
        drawn > stock.len || top < 0 || top > 13 || p->kind < 0 || p->kind > 7 ||
        (p->kind && p->kind != 5 && p->a < 1) || ((p->kind == 2 || p->kind == 4) && p->b < 1) ||
        (cards < 64 && present >> cards) || weighed.len != sizeof weights) {
        PyErr_SetString(PyExc_ValueError, "policy_study: malformed deal or player");
        goto done;
    }
    if (!ranks_ok(&ranks) || !ranks_ok(&stock)) {
        PyErr_SetString(PyExc_ValueError, "policy_study: a rank over 13");
        goto done;
    }
    memcpy(d->rank, ranks.buf, (size_t)cards);
    memcpy(d->stock, stock.buf, (size_t)stock.len);
    d->size = (int)stock.len;
    s->present = present;
    s->drawn = drawn;
    s->top = top;
    s->free = set_table(&fits, &covered_by, &covers, &weighed, cards, present);
    *seed = seed_;
    ok = 1;
done:
    PyBuffer_Release(&ranks);
    PyBuffer_Release(&stock);
    PyBuffer_Release(&fits);
    PyBuffer_Release(&covered_by);
    PyBuffer_Release(&covers);
    PyBuffer_Release(&weighed);
    return ok;
}

static PyObject *play(PyObject *self, PyObject *args) {
    Deal d;
    Position s;
    Player p;
    uint64_t seed;
    int first;
    (void)self;
    if (!read_deal(args, &d, &s, &p, &seed, &first))
        return NULL;
    if ((p.kind == 3 || p.kind == 7) && capacity < p.a + 1) {
        free(nodes);
        free(links);
        capacity = p.a + 1;
        nodes = malloc(sizeof(Node) * (size_t)capacity);
        links = malloc(sizeof(Link) * (size_t)capacity);
        if (!nodes || !links) {
            capacity = 0;
            return PyErr_NoMemory();
        }
    }
    if (p.kind == 4 && !ensure_memo(&d))
        return PyErr_NoMemory();
    rng = seed;
    if (first)
        return PyLong_FromLong(decide(&d, s, p));
    return PyLong_FromLong(play_out(&d, s, p));
}

static PyObject *value(PyObject *self, PyObject *args) {
    Deal d, seen;
    Position s;
    Player p;
    Unseen u;
    uint64_t seed;
    int first;
    (void)self;
    if (!read_deal(args, &d, &s, &p, &seed, &first))
        return NULL;
    if (!ensure_memo(&d))
        return PyErr_NoMemory();
    seen_of(&d, s, &seen, &u);
    expanded = 0;
    given_up = 0;
    double v = expect(&seen, s, &u);
    if (given_up) {
        given_up = 0;
        forget();
        Py_RETURN_NONE;
    }
    return PyFloat_FromDouble(v);
}

static PyObject *gave_up(PyObject *self, PyObject *unused) {
    (void)self;
    (void)unused;
    return PyLong_FromLong(endgame_gave_up);
}

/* rollouts(): the app's fair-hint rollouts (tripeaks/solver/_strategy.c, same arguments, the
 * rules' tables in place of the rules) played out by the tuned strategy of `weights` instead of
 * the greedy one: for each first move, how many of the plays after it won. */
static PyObject *rollouts(PyObject *self, PyObject *args) {
    Py_buffer tableaux, stocks, fits, covered_by, covers, firsts, weighed;
    unsigned long long present, seed;
    Py_ssize_t drawn;
    int top, plays;
    (void)self;
    if (!PyArg_ParseTuple(args, "y*y*y*y*y*KniiKy*y*", &tableaux, &stocks, &fits, &covered_by,
                          &covers, &present, &drawn, &top, &plays, &seed, &firsts, &weighed))
        return NULL;
    PyObject *result = NULL;
    long counts[MAX_MOVES + 1] = {0};
    Py_ssize_t cards = covered_by.len / 8;
    Py_ssize_t samples = cards ? tableaux.len / cards : 0;
    Py_ssize_t size = samples ? stocks.len / samples : 0;
    Py_ssize_t moves = firsts.len;
    const unsigned char *first = firsts.buf;
    if (cards < 1 || cards > MAX_CARDS || fits.len != 14 * 14 || covers.len != 8 * cards ||
        samples < 1 || tableaux.len != samples * cards || stocks.len != samples * size ||
        size > MAX_STOCK || top < 0 || top > 13 || plays < 0 || drawn < 0 || drawn > size ||
        moves > MAX_MOVES || weighed.len != sizeof weights || (cards < 64 && present >> cards)) {
        PyErr_SetString(PyExc_ValueError, "policy_study: malformed rollouts");
        goto done;
    }
    if (!ranks_ok(&tableaux) || !ranks_ok(&stocks)) {
        PyErr_SetString(PyExc_ValueError, "policy_study: a rank over 13");
        goto done;
    }
    Player tuned_player = {5, 0, 0, 0.0};
    Deal d;
    Position s = {present, set_table(&fits, &covered_by, &covers, &weighed, (int)cards, present),
                  (int)drawn, top};
    for (Py_ssize_t m = 0; m < moves; m++)
        if (first[m] == 255 ? drawn == size : first[m] >= cards || !(s.free >> first[m] & 1)) {
            PyErr_SetString(PyExc_ValueError, "policy_study: a first move that cannot be made");
            goto done;
        }
    d.size = (int)size;
    for (Py_ssize_t k = 0; k < samples; k++) {
        memcpy(d.rank, (const unsigned char *)tableaux.buf + k * cards, (size_t)cards);
        memcpy(d.stock, (const unsigned char *)stocks.buf + k * size, (size_t)size);
        for (int j = 0; j < plays; j++) {
            uint64_t start = seed + UINT64_C(0x632BE59BD9B4E019) * (uint64_t)(k * plays + j + 1);
            for (Py_ssize_t m = 0; m < moves; m++) {
                rng = start;
                counts[m] += play_out(&d, after(&d, s, first[m] == 255 ? DRAW : first[m]),
                                      tuned_player);
            }
        }
    }
    result = PyList_New(moves);
    for (Py_ssize_t m = 0; result && m < moves; m++) {
        PyObject *count = PyLong_FromLong(counts[m]);
        if (!count)
            Py_CLEAR(result);
        else
            PyList_SET_ITEM(result, m, count);
    }
done:
    PyBuffer_Release(&tableaux);
    PyBuffer_Release(&stocks);
    PyBuffer_Release(&fits);
    PyBuffer_Release(&covered_by);
    PyBuffer_Release(&covers);
    PyBuffer_Release(&firsts);
    PyBuffer_Release(&weighed);
    return result;
}

static PyMethodDef methods[] = {
    {"play", play, METH_VARARGS,
     "play(ranks, stock, fits, covered_by, covers, present, drawn, top, kind, a, b, c, seed, "
     "first) -> int: 1 when the player (kind 0 greedy, 1 flat, 2 nested, 3 ismcts, 4 endgame; a, "
     "b, c its numbers) wins the deal from the position, else 0; with first, the move it makes "
     "there instead (a position, 255 the draw, -1 none)."},
    {"value", value, METH_VARARGS,
     "value(the arguments of play) -> float | None: the chance that the best play there is for a "
     "player who sees only the face-up cards wins from the position (the endgame player's "
     "expectimax); None when past its table."},
    {"rollouts", rollouts, METH_VARARGS,
     "rollouts(tableaux, stocks, fits, covered_by, covers, present, drawn, top, plays, seed, "
     "firsts, weights) -> list[int]: the app's fair-hint rollouts played out by the tuned "
     "strategy of the weights."},
    {"gave_up", gave_up, METH_NOARGS,
     "gave_up() -> int: the endgame player's decisions so far, in this process, that were past its "
     "table and played as the flat player's."},
    {NULL, NULL, 0, NULL},
};

static struct PyModuleDef module = {PyModuleDef_HEAD_INIT, "_policy_study",
                                    "The players of bench/policy_study.py.", -1, methods,
                                    NULL, NULL, NULL, NULL};

PyMODINIT_FUNC PyInit__policy_study(void) { return PyModule_Create(&module); }
