/* Partition's exact endgame search, in C: the advanced bot's `endgame_search`, about 80 times
 * faster (tests/benchmarks/bench_partition_endgame.py).
 *
 * Written by hand because no library solves this game: it is a search over Partition's own rules
 * (api/games/partition.py), with the move generation, move ordering and values of the Python
 * function `api.bots.partition.endgame_search`, which stays the readable reference. This file
 * follows it step by step, so that both search the same tree and choose the same action (tests:
 * tests/unit/test_partition_native.py); where the Python code has a reason written beside it, the
 * reason is not repeated here.
 *
 * A position is bit masks (bit h stands for hex h, 36 hexes in a uint64) and small arrays. The
 * transposition table is fixed-size (TABLE_BUCKETS buckets of TABLE_WAYS entries, 64-bit keys, the
 * entry with the fewest open hexes replaced) and kept between calls, like ENDGAME_TABLE; the one
 * way the two searches can part is that table: where a search fills a bucket, a position the
 * Python dict still holds is forgotten here, and the tree, the action chosen among equally good
 * ones and a win's bound may differ (never the outcome proved). The
 * deadline is read from the caller's clock (a Python callable, `clock.now`) every TICK_EVERY
 * nodes, at the same nodes as the Python search reads it.
 */
#define PY_SSIZE_T_CLEAN
#include <Python.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#define ROWS 6
#define COLS 6
#define HEXES 36
#define COLOURS 6
#define ACTIONS_PER_TURN 3
#define MAX_CLAIMS 2
#define FINAL_SPLIT_MAX 5   /* an equal split into parts of this size or smaller ends the game */
#define CLOSING_COLOURS 3   /* a closed region with this many colours earns its closer a point */
#define WIN 1000            /* the bots' WIN: a decided game outweighs any margin */
#define INF 30000           /* the Python search's infinities (values stay within +-1100) */
#define TICK_EVERY 64       /* the clock is read at every 64th node, as in the Python search */
#define MAX_EDGES 96        /* the board has 85 edges */
#define MAX_MOVES 256       /* sticks (85 edges, 35 bridges two ways), claims, subdivisions */
#define NO_MOVE 0xFFFFFFu    /* a move code has 20 bits */

#define BIT(h) ((uint64_t)1 << (h))

static uint64_t ALL_LINKS[HEXES];       /* per hex, its neighbours */
static int EDGE_ID[HEXES][HEXES];       /* per pair of neighbours, the edge's index (-1: none) */
static uint64_t ZOBRIST[HEXES][COLOURS + 1];  /* per hex and disc colour (COLOURS: claimed) */

static void init_board(void)
{
    int edges = 0;
    for (int a = 0; a < HEXES; a++)
        for (int b = 0; b < HEXES; b++)
            EDGE_ID[a][b] = -1;
    for (int h = 0; h < HEXES; h++) {
        /* odd-r: odd rows sit half a hex to the right, as `_neighbours` */
        int r = h / COLS, c = h % COLS, shift = r % 2 ? 0 : -1;
        int cells[6][2] = {{r, c - 1}, {r, c + 1}, {r - 1, c + shift}, {r - 1, c + shift + 1},
                           {r + 1, c + shift}, {r + 1, c + shift + 1}};
        ALL_LINKS[h] = 0;
        for (int k = 0; k < 6; k++)
            if (cells[k][0] >= 0 && cells[k][0] < ROWS && cells[k][1] >= 0 && cells[k][1] < COLS)
                ALL_LINKS[h] |= BIT(cells[k][0] * COLS + cells[k][1]);
    }
    for (int a = 0; a < HEXES; a++)
        for (int b = a + 1; b < HEXES; b++)
            if (ALL_LINKS[a] >> b & 1)
                EDGE_ID[a][b] = EDGE_ID[b][a] = edges++;
    uint64_t x = 0x9E3779B97F4A7C15ull;  /* splitmix64, a fixed seed: the same keys every run */
    for (int h = 0; h < HEXES; h++)
        for (int c = 0; c <= COLOURS; c++) {
            uint64_t z = (x += 0x9E3779B97F4A7C15ull);
            z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
            z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
            ZOBRIST[h][c] = z ^ (z >> 31);
        }
}

static inline int popcount(uint64_t m) { return __builtin_popcountll(m); }
static inline int lowest_hex(uint64_t m) { return __builtin_ctzll(m); }
static inline uint64_t lowest_bit(uint64_t m) { return m & (~m + 1); }

/* --- a position --- */

typedef struct {
    uint64_t links[HEXES];    /* per hex, the neighbours with no stick between */
    uint64_t open;            /* the open region; 0 once the game is over */
    uint64_t discs[COLOURS];  /* per colour, the hexes still holding a disc of it */
    uint64_t closed[HEXES];   /* the closed regions, by lowest hex */
    uint64_t sticks[2];       /* the sticks placed, by edge index (for the table's key) */
    uint64_t zcolours;        /* Zobrist hash of the disc colours by hex (the layout and claims) */
    int8_t nclosed;
    int8_t claimed[2][MAX_CLAIMS], nclaimed[2];  /* in the order claimed, as the Python key */
    int8_t subdivisions_left[2], actions_left, turn, points[2];
} State;

/* one search's fixed facts and its clock */
typedef struct {
    int8_t layout[HEXES];     /* each hex's disc colour (meaningful while the disc is there) */
    int singleton_rule;
    int me;                   /* the seat the search is for: the mover at its root */
    double deadline;
    PyObject *now;            /* clock.now */
    uint64_t ticks;
    int aborted;              /* 1: out of time; 2: the clock raised */
} Search;

enum { STICK = 0, CLAIM = 1, SUBDIVIDE = 2 };

typedef struct {
    uint8_t kind, a, b;       /* an edge (a < b), or a claim's hex in a */
    int8_t close;             /* a stick's part to close on an equal split; -1: none */
    uint64_t side;            /* a normal stick's: the hexes it cuts off from the open region's
                                 lowest hex (0: it leaves the region whole); a subdivision's
                                 (listed, not decoded): the part it cuts off */
} Move;

static inline uint32_t move_code(const Move *m)
{
    return (uint32_t)m->kind | (uint32_t)m->a << 2 | (uint32_t)m->b << 8
           | (uint32_t)(m->close + 1) << 14;
}

/* --- regions (`flood`, `region_edges`) --- */

static uint64_t flood(int start, const uint64_t *links)
{
    uint64_t seen = BIT(start), frontier = seen;
    while (frontier) {
        uint64_t reach = 0;
        for (uint64_t f = frontier; f; f &= f - 1)
            reach |= links[lowest_hex(f)];
        frontier = reach & ~seen;
        seen |= frontier;
    }
    return seen;
}

typedef struct {
    int nwhole, nbridges;
    uint8_t whole[MAX_EDGES][2];     /* edges where a stick leaves the region whole, in the
                                        Python function's order */
    uint8_t bridge[HEXES][2];        /* edges where a stick splits it, in the order the Python
                                        dict holds them (the tree from the leaves up) */
    uint64_t side[HEXES];            /* per bridge, the part cut off from the lowest hex */
} RegionEdges;

static inline void put_edge(uint8_t out[2], int h, int n)
{
    out[0] = (uint8_t)(h < n ? h : n);
    out[1] = (uint8_t)(h < n ? n : h);
}

/* `region_edges`: a breadth-first tree of the region; an edge off the tree closes a cycle,
 * putting on it the tree edges of the hexes in exactly one of its ends' ancestor sets; a tree
 * edge on no cycle is a bridge and cuts off the subtree below it. */
static void region_edges(uint64_t region, const uint64_t *links, RegionEdges *out)
{
    int order[HEXES], parent[HEXES], count = 1;
    uint64_t ancestors[HEXES], below[HEXES];
    int root = lowest_hex(region);
    uint64_t seen = BIT(root), on_cycle = 0;
    order[0] = root;
    ancestors[root] = seen;
    out->nwhole = out->nbridges = 0;
    for (int i = 0; i < count; i++) {
        int h = order[i];
        uint64_t linked = links[h], mine = ancestors[h];
        /* edges to higher hexes already in the tree close cycles, met once from the lower end */
        uint64_t closing = linked & seen & ~mine & ~((BIT(h) << 1) - 1);
        uint64_t fresh = linked & ~seen;
        seen |= fresh;
        for (uint64_t m = closing; m; m &= m - 1) {
            int n = lowest_hex(m);
            on_cycle |= mine ^ ancestors[n];
            put_edge(out->whole[out->nwhole++], h, n);
        }
        for (uint64_t m = fresh; m; m &= m - 1) {
            int n = lowest_hex(m);
            parent[n] = h;
            ancestors[n] = mine | BIT(n);
            order[count++] = n;
        }
    }
    for (int i = 0; i < count; i++)
        below[order[i]] = BIT(order[i]);
    for (int i = count - 1; i >= 1; i--) {
        int h = order[i], p = parent[h];
        below[p] |= below[h];
        if (on_cycle >> h & 1) {
            put_edge(out->whole[out->nwhole++], p, h);
        } else {
            put_edge(out->bridge[out->nbridges], p, h);
            out->side[out->nbridges++] = below[h];
        }
    }
}

/* --- scoring (`closing_point`, `lead`, `standing`) --- */

/* a closed region with discs of at least three colours earns its closer a point */
static int closing_point(const State *s, uint64_t region)
{
    int colours = 0;
    for (int c = 0; c < COLOURS; c++)
        colours += (s->discs[c] & region) != 0;
    return colours >= CLOSING_COLOURS;
}

/* per seat, the discs of its claimed colours */
static void owned_masks(const State *s, uint64_t owned[2])
{
    for (int seat = 0; seat < 2; seat++) {
        owned[seat] = 0;
        for (int k = 0; k < s->nclaimed[seat]; k++)
            owned[seat] |= s->discs[s->claimed[seat][k]];
    }
}

/* +1 when `seat` owns the region (more of its colours' discs there), -1 when the other does */
static inline int lead(uint64_t region, const uint64_t owned[2], int seat)
{
    int diff = popcount(region & owned[seat]) - popcount(region & owned[1 - seat]);
    return (diff > 0) - (diff < 0);
}

static inline int decided(int margin)
{
    return margin + (margin > 0 ? WIN : margin < 0 ? -WIN : 0);
}

/* `seat`'s lead in points and closed regions; once the game is over, the final margin +-WIN */
static int region_leads(const State *s, const uint64_t owned[2])   /* seat 0's less seat 1's */
{
    int leads = 0;
    for (int i = 0; i < s->nclosed; i++)
        leads += lead(s->closed[i], owned, 0);
    return leads;
}

static inline int margin_of(const State *s, int seat, int leads)
{
    return s->points[seat] - s->points[1 - seat] + (seat == 0 ? leads : -leads);
}

static int standing(const State *s, int seat)
{
    uint64_t owned[2];
    owned_masks(s, owned);
    int margin = margin_of(s, seat, region_leads(s, owned));
    return s->open ? margin : decided(margin);
}

/* --- applying an action (the engine's `_place_stick`, `_claim`, `_subdivide`) --- */

static void cut_edge(State *s, int a, int b)
{
    int id = EDGE_ID[a][b];
    s->links[a] &= ~BIT(b);
    s->links[b] &= ~BIT(a);
    s->sticks[id >> 6] |= BIT(id & 63);
}

/* put a region into the closed ones, kept in order of their lowest hexes */
static void insert_region(State *s, uint64_t region)
{
    uint64_t low = lowest_bit(region);
    int i = s->nclosed;
    while (i > 0 && lowest_bit(s->closed[i - 1]) > low) {
        s->closed[i] = s->closed[i - 1];
        i--;
    }
    s->closed[i] = region;
    s->nclosed++;
}

/* the turn passes after the third action, unless the game ended */
static void next_action(State *s)
{
    if (s->actions_left > 1 || s->open == 0) {
        s->actions_left--;
    } else {
        s->actions_left = ACTIONS_PER_TURN;
        s->turn ^= 1;
    }
}

static void apply_stick(const State *s, const Move *m, State *out)
{
    *out = *s;
    cut_edge(out, m->a, m->b);
    if (m->side) {
        uint64_t side = m->side, other = s->open ^ side, closing;
        int part = popcount(side), size = popcount(s->open);
        /* an equal split into parts of 5 or fewer is the final split: both parts close */
        int final = 2 * part == size && part <= FINAL_SPLIT_MAX;
        if (final) {
            out->points[s->turn] += closing_point(s, side) + closing_point(s, other);
            insert_region(out, side);
            insert_region(out, other);
            out->open = 0;
        } else {
            if (2 * part == size)      /* any other equal split closes the part named */
                closing = side >> m->close & 1 ? side : other;
            else                       /* else the smaller part closes */
                closing = 2 * part < size ? side : other;
            out->points[s->turn] += closing_point(s, closing);
            insert_region(out, closing);
            out->open = s->open ^ closing;
        }
    }
    next_action(out);
}

static void apply_claim(const State *s, const Search *q, int hex, State *out)
{
    int colour = q->layout[hex];
    *out = *s;
    out->discs[colour] &= ~BIT(hex);
    out->zcolours ^= ZOBRIST[hex][colour] ^ ZOBRIST[hex][COLOURS];
    out->claimed[s->turn][out->nclaimed[s->turn]++] = (int8_t)colour;
    next_action(out);
}

static void apply_subdivide(const State *s, int a, int b, State *out)
{
    *out = *s;
    cut_edge(out, a, b);
    int i = 0;
    while (!(s->closed[i] >> a & 1))
        i++;
    uint64_t region = s->closed[i], part = flood(a, out->links);
    memmove(&out->closed[i], &out->closed[i + 1], (size_t)(out->nclosed - i - 1) * sizeof(uint64_t));
    out->nclosed--;
    insert_region(out, part);
    insert_region(out, region ^ part);
    out->subdivisions_left[s->turn]--;
    next_action(out);
}

static void apply_move(const State *s, const Search *q, const Move *m, State *out)
{
    if (m->kind == STICK)
        apply_stick(s, m, out);
    else if (m->kind == CLAIM)
        apply_claim(s, q, m->a, out);
    else
        apply_subdivide(s, m->a, m->b, out);
}

/* a move back from its code (the table's best action), a stick's side found by a flood fill */
static Move decode_move(const State *s, uint32_t code)
{
    Move m = {(uint8_t)(code & 3), (uint8_t)(code >> 2 & 63), (uint8_t)(code >> 8 & 63),
              (int8_t)((int)(code >> 14 & 63) - 1), 0};
    if (m.kind == STICK) {
        uint64_t links[HEXES];
        memcpy(links, s->links, sizeof links);
        links[m.a] &= ~BIT(m.b);
        links[m.b] &= ~BIT(m.a);
        uint64_t reach = flood(lowest_hex(s->open), links);
        m.side = reach >> m.a & 1 && reach >> m.b & 1 ? 0 : s->open ^ reach;
    }
    return m;
}

/* --- the actions the search tries (`stick_moves`, `endgame_moves`) --- */

static inline int edge_before(const uint8_t x[2], const uint8_t y[2])
{
    return x[0] < y[0] || (x[0] == y[0] && x[1] < y[1]);
}

/* `stick_moves`: the sticks that leave the open region whole, then those that split it in edge
 * order (one per part to close on an equal split that does not end the game); sticks that
 * close a one-hex region only where no other stick is legal (the singleton rule) */
static int stick_moves(const State *s, const Search *q, const RegionEdges *e, Move *out)
{
    int n = 0, nsingles = 0, size = popcount(s->open), order[HEXES];
    Move singles[HEXES];
    for (int i = 0; i < e->nwhole; i++)
        out[n++] = (Move){STICK, e->whole[i][0], e->whole[i][1], -1, 0};
    for (int i = 0; i < e->nbridges; i++) {  /* the bridges sorted by edge */
        int j = i;
        while (j > 0 && edge_before(e->bridge[i], e->bridge[order[j - 1]])) {
            order[j] = order[j - 1];
            j--;
        }
        order[j] = i;
    }
    for (int k = 0; k < e->nbridges; k++) {
        int i = order[k], part = popcount(e->side[i]);
        Move m = {STICK, e->bridge[i][0], e->bridge[i][1], -1, e->side[i]};
        if (2 * part == size && part > FINAL_SPLIT_MAX) {
            int x = lowest_hex(e->side[i]), y = lowest_hex(s->open ^ e->side[i]);
            m.close = (int8_t)(x < y ? x : y);
            out[n++] = m;
            m.close = (int8_t)(x < y ? y : x);
            out[n++] = m;
        } else if ((part == 1 || size - part == 1) && size > 2) {
            singles[nsingles++] = m;
        } else {
            out[n++] = m;
        }
    }
    if (nsingles && (n == 0 || !q->singleton_rule))
        for (int i = 0; i < nsingles; i++)
            out[n++] = singles[i];
    return n;
}

/* `stick_standing`: the mover's standing after a normal stick, from the part it closes */
static int stick_standing(const State *s, const Move *m, int now, const uint64_t owned[2])
{
    if (!m->side)
        return now;   /* the open region stays whole: no score changes */
    uint64_t side = m->side, other = s->open ^ side, closing;
    int seat = s->turn, part = popcount(side), size = popcount(s->open);
    if (2 * part == size && part <= FINAL_SPLIT_MAX)   /* the final split: the game ends */
        return decided(now + closing_point(s, side) + lead(side, owned, seat)
                       + closing_point(s, other) + lead(other, owned, seat));
    if (2 * part == size)
        closing = side >> m->close & 1 ? side : other;
    else
        closing = 2 * part < size ? side : other;
    return now + closing_point(s, closing) + lead(closing, owned, seat);
}

/* `winning_splits`: the subdivisions of a closed region that win `seat` more of it than it wins
 * now. Remembered (as the Python function's lru_cache does) in a small table keyed by the
 * region, the sticks inside it (a 64-bit hash of its hexes' links) and each seat's discs there:
 * a closed region changes only when it is split, and most nodes list the same ones. */
typedef struct {
    uint64_t region, links, owned[2];
    int8_t seat, count, used;
    uint8_t edge[HEXES][2];
    uint64_t part[HEXES];     /* per split, the part it cuts off */
} Splits;

#define SPLITS_CACHED 4096
static Splits splits_cache[SPLITS_CACHED];

static const Splits *winning_splits(uint64_t region, const uint64_t *links, const uint64_t owned[2],
                                    int seat)
{
    uint64_t inner = 0, own[2] = {owned[0] & region, owned[1] & region};
    for (uint64_t m = region; m; m &= m - 1) {
        inner += links[lowest_hex(m)];
        inner *= 0x9E3779B97F4A7C15ull;
    }
    uint64_t h = (region * 0xC2B2AE3D27D4EB4Full) ^ inner ^ (own[0] * 0x165667B19E3779F9ull)
                 ^ (own[1] * 0x27D4EB2F165667C5ull) ^ (uint64_t)seat;
    Splits *c = &splits_cache[(h ^ h >> 32) & (SPLITS_CACHED - 1)];
    if (c->used && c->region == region && c->links == inner && c->owned[0] == own[0]
        && c->owned[1] == own[1] && c->seat == seat)
        return c;
    RegionEdges inside;
    region_edges(region, links, &inside);
    int now = lead(region, owned, seat);
    *c = (Splits){region, inner, {own[0], own[1]}, (int8_t)seat, 0, 1, {{0}}, {0}};
    for (int k = 0; k < inside.nbridges; k++) {   /* in the order the bridges were found */
        uint64_t part = inside.side[k];
        if (lead(part, owned, seat) + lead(region ^ part, owned, seat) > now) {
            c->part[c->count] = part;
            c->edge[c->count][0] = inside.bridge[k][0];
            c->edge[c->count++][1] = inside.bridge[k][1];
        }
    }
    return c;
}

/* `endgame_moves`: every stick; a claim once per colour and closed region; a subdivision only
 * where it wins the mover more of a region than it wins now; sorted by the mover's standing
 * after them, best first, equal ones as listed (Python's sort is stable) */
static int endgame_moves(const State *s, const Search *q, Move *out)
{
    RegionEdges e;
    int me = s->turn, scores[MAX_MOVES];
    region_edges(s->open, s->links, &e);
    int n = stick_moves(s, q, &e, out);
    uint64_t owned[2];
    owned_masks(s, owned);
    if (s->nclaimed[me] < MAX_CLAIMS) {   /* `claim_moves`, less repeats of a colour and region */
        uint64_t seen_regions[HEXES];
        int seen_colours[HEXES], nseen = 0, taken = 0;
        for (int seat = 0; seat < 2; seat++)
            for (int k = 0; k < s->nclaimed[seat]; k++)
                taken |= 1 << s->claimed[seat][k];
        for (uint64_t m = ~s->open & (BIT(HEXES) - 1); m; m &= m - 1) {
            int h = lowest_hex(m), colour = q->layout[h], repeat = 0;
            if (!(s->discs[colour] >> h & 1) || taken >> colour & 1)
                continue;
            int i = 0;
            while (!(s->closed[i] >> h & 1))
                i++;
            for (int k = 0; k < nseen; k++)
                repeat |= seen_colours[k] == colour && seen_regions[k] == s->closed[i];
            if (repeat)
                continue;
            seen_colours[nseen] = colour;
            seen_regions[nseen++] = s->closed[i];
            out[n++] = (Move){CLAIM, (uint8_t)h, 0, -1, 0};
        }
    }
    if (s->subdivisions_left[me]) {   /* `winning_splits` of the regions holding mover's discs */
        for (int i = 0; i < s->nclosed; i++) {
            uint64_t region = s->closed[i];
            if (!(region & owned[me]) || !(region & (region - 1)))
                continue;
            const Splits *splits = winning_splits(region, s->links, owned, me);
            for (int k = 0; k < splits->count; k++)
                out[n++] = (Move){SUBDIVIDE, splits->edge[k][0], splits->edge[k][1], -1,
                                  splits->part[k]};
        }
    }
    /* the standing after each action, worked out without making its position: a claim adds
     * the colour's other discs to the mover's; a subdivision puts two parts for one region */
    int leads = region_leads(s, owned), now = margin_of(s, me, leads);
    for (int i = 0; i < n; i++) {
        const Move *m = &out[i];
        if (m->kind == STICK) {
            scores[i] = stick_standing(s, m, now, owned);
        } else if (m->kind == CLAIM) {
            uint64_t after[2] = {owned[0], owned[1]};
            after[me] |= s->discs[q->layout[m->a]] & ~BIT(m->a);
            scores[i] = margin_of(s, me, region_leads(s, after));
        } else {
            int j = 0;
            while (!(s->closed[j] >> m->a & 1))
                j++;
            uint64_t region = s->closed[j];
            scores[i] = margin_of(s, me, leads - lead(region, owned, 0) + lead(m->side, owned, 0)
                                  + lead(region ^ m->side, owned, 0));
        }
    }
    for (int i = 1; i < n; i++) {   /* a stable insertion sort, highest first */
        Move m = out[i];
        int score = scores[i], j = i;
        while (j > 0 && scores[j - 1] < score) {
            out[j] = out[j - 1];
            scores[j] = scores[j - 1];
            j--;
        }
        out[j] = m;
        scores[j] = score;
    }
    return n;
}

/* --- the transposition table (`ENDGAME_TABLE`, `known`, `remember`, `narrowed`) --- */

typedef struct {
    uint64_t check;           /* the position's 64-bit hash (0: an empty entry) */
    int16_t low, high;        /* bounds on the value for seat 0 */
    uint32_t info;            /* the best action found (NO_MOVE: none), and above it the open
                                 hexes: the entry with the fewest makes way in a full bucket */
} Entry;

#define TABLE_WAYS 4               /* a bucket is one 64-byte cache line */
#define TABLE_BUCKETS (1u << 20)   /* 2^22 entries, 64 MB, made at the first search */

static Entry *table;
static uint64_t table_entries;

typedef struct { uint64_t check; uint32_t bucket; } Key;

static inline uint64_t mix(uint64_t z)   /* splitmix64's finaliser */
{
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
    return z ^ (z >> 31);
}

/* `full_key`: the sticks, disc colours, open region, turn, actions left, points, claims (in
 * order) and subdivisions left, and the singleton rule; kept, like the Python table's
 * hash(full_key), as a 64-bit hash (with the bucket's 20 bits, the odds that two of a search's
 * positions are taken for one another are below 1 in 10^12) */
static Key key_of(const State *s, const Search *q)
{
    uint64_t claims = 0;
    for (int seat = 0; seat < 2; seat++) {
        uint64_t c = (uint64_t)s->nclaimed[seat];
        for (int i = 0; i < s->nclaimed[seat]; i++)
            c |= (uint64_t)s->claimed[seat][i] << (2 + 3 * i);
        claims |= c << (8 * seat);
    }
    /* bits 0-20 the sticks on edges 64-84, then 2 + 2 + 6 + 6 + 2 + 2 + 1 + 16 bits */
    uint64_t rest = s->sticks[1] | (uint64_t)s->turn << 21 | (uint64_t)s->actions_left << 22
                    | (uint64_t)s->points[0] << 24 | (uint64_t)s->points[1] << 30
                    | (uint64_t)s->subdivisions_left[0] << 36
                    | (uint64_t)s->subdivisions_left[1] << 38
                    | (uint64_t)q->singleton_rule << 40 | claims << 41;
    uint64_t h = mix(s->sticks[0] ^ mix(rest ^ mix(s->open ^ mix(s->zcolours))));
    Key k = {h | 1, (uint32_t)(h >> 40) & (TABLE_BUCKETS - 1)};
    return k;
}

static int table_ready(void)
{
    if (!table) {
        size_t size = (size_t)TABLE_BUCKETS * TABLE_WAYS * sizeof(Entry);
        if (posix_memalign((void **)&table, 64, size)) {
            table = NULL;
            PyErr_NoMemory();
            return 0;
        }
        memset(table, 0, size);
    }
    return 1;
}

/* the bounds on the position's value for `seat`, and its best action found */
static void known(const Key *k, int seat, int *low, int *high, uint32_t *first)
{
    Entry *bucket = &table[(size_t)k->bucket * TABLE_WAYS];
    for (int i = 0; i < TABLE_WAYS; i++)
        if (bucket[i].check == k->check) {
            *low = seat == 0 ? bucket[i].low : -bucket[i].high;
            *high = seat == 0 ? bucket[i].high : -bucket[i].low;
            *first = bucket[i].info & NO_MOVE;
            return;
        }
    *low = -INF;
    *high = INF;
    *first = NO_MOVE;
}

static void remember(const Key *k, int seat, int low, int high, uint32_t move, int open)
{
    Entry *bucket = &table[(size_t)k->bucket * TABLE_WAYS], *slot = NULL;
    for (int i = 0; i < TABLE_WAYS && !slot; i++)
        if (bucket[i].check == k->check)
            slot = &bucket[i];
    for (int i = 0; i < TABLE_WAYS && !slot; i++)
        if (!bucket[i].check)
            slot = &bucket[i];
    if (!slot) {   /* a full bucket: the entry with the fewest open hexes makes way */
        slot = &bucket[0];
        for (int i = 1; i < TABLE_WAYS; i++)
            if (bucket[i].info >> 24 < slot->info >> 24)
                slot = &bucket[i];
    }
    if (!slot->check)
        table_entries++;
    slot->check = k->check;
    slot->low = (int16_t)(seat == 0 ? low : -high);
    slot->high = (int16_t)(seat == 0 ? high : -low);
    slot->info = move | (uint32_t)open << 24;
}

/* bounds once a search in the window (alpha, beta) returned `value`: a lower bound when it
 * failed high, an upper one when it failed low, else exact */
static void narrowed(int *low, int *high, int value, int alpha, int beta)
{
    if (value >= beta) {
        if (value > *low)
            *low = value;
    } else if (value <= alpha) {
        if (value < *high)
            *high = value;
    } else {
        *low = *high = value;
    }
}

/* --- the search (`endgame_search`'s `search` and `reaching`) --- */

/* true (and q->aborted set) once the clock has passed the deadline, or raised, or a signal
 * handler raised (Ctrl-C, a worker's job timeout): the search holds the interpreter, so signals
 * are looked at here (a clock written in Python lets handlers run anyway, a built-in one not) */
static int out_of_time(Search *q)
{
    if (PyErr_CheckSignals() < 0) {
        q->aborted = 2;
        return 1;
    }
    PyObject *t = PyObject_CallNoArgs(q->now);
    if (!t) {
        q->aborted = 2;
        return 1;
    }
    double now = PyFloat_AsDouble(t);
    Py_DECREF(t);
    if (now == -1.0 && PyErr_Occurred()) {
        q->aborted = 2;
        return 1;
    }
    if (now > q->deadline) {
        q->aborted = 1;
        return 1;
    }
    return 0;
}

/* `tried_first`: the best action found before (`first`) tried before the others are even
 * listed: where it refutes the window again, they never are */
typedef struct {
    const State *node;
    uint32_t first;
    int next, count;          /* next -1: `first` not tried yet; count -1: not listed yet */
    Move moves[MAX_MOVES];
} Tried;

static void tried_start(Tried *t, const State *node, uint32_t first)
{
    t->node = node;
    t->first = first;
    t->next = first == NO_MOVE ? 0 : -1;
    t->count = -1;
}

static int tried_next(Tried *t, const Search *q, Move *m)
{
    if (t->next < 0) {
        t->next = 0;
        *m = decode_move(t->node, t->first);
        return 1;
    }
    if (t->count < 0)
        t->count = endgame_moves(t->node, q, t->moves);
    while (t->next < t->count) {
        *m = t->moves[t->next++];
        if (move_code(m) != t->first)
            return 1;
    }
    return 0;
}

static int search(Search *q, const State *node, int alpha, int beta);

/* the value of the position after action `m` */
static int value_after(Search *q, const State *node, const Move *m, int alpha, int beta)
{
    State child;
    apply_move(node, q, m, &child);
    return search(q, &child, alpha, beta);
}

/* the value of `node` for q->me, fail-soft alpha-beta; 0 with q->aborted set when cut short */
static int search(Search *q, const State *node, int alpha, int beta)
{
    if (!node->open)
        return standing(node, q->me);
    Key key = key_of(node, q);
    int low, high;
    uint32_t first;
    known(&key, q->me, &low, &high, &first);
    if (low >= beta || high <= alpha)
        return low >= beta ? low : high;
    if (q->ticks++ % TICK_EVERY == 0 && out_of_time(q))
        return 0;
    int maximise = node->turn == q->me, window_alpha = alpha, window_beta = beta;
    int best = maximise ? -INF : INF;
    uint32_t best_move = first;
    Tried tried;
    Move m;
    tried_start(&tried, node, first);
    while (tried_next(&tried, q, &m)) {
        int value = value_after(q, node, &m, alpha, beta);
        if (q->aborted)
            return 0;
        if (maximise ? value > best : value < best) {
            best = value;
            best_move = move_code(&m);
        }
        if (maximise) {
            if (value > alpha)
                alpha = value;
        } else if (value < beta) {
            beta = value;
        }
        if (alpha >= beta)
            break;
    }
    narrowed(&low, &high, best, window_alpha, window_beta);
    remember(&key, q->me, low, high, best_move, popcount(node->open));
    return best;
}

/* `reaching`: the first action whose value reaches `goal` (1: found, 0: none, -1: cut short) */
static int reaching(Search *q, const State *root, int goal, Move *found, int *found_value)
{
    Key key = key_of(root, q);
    int low, high;
    uint32_t first;
    known(&key, q->me, &low, &high, &first);
    Tried tried;
    Move m;
    tried_start(&tried, root, first);
    while (tried_next(&tried, q, &m)) {
        int value = value_after(q, root, &m, goal - 1, goal);
        if (q->aborted)
            return -1;
        if (value >= goal) {
            known(&key, q->me, &low, &high, &first);
            narrowed(&low, &high, value, goal - 1, goal);
            remember(&key, q->me, low, high, move_code(&m), popcount(root->open));
            *found = m;
            *found_value = value;
            return 1;
        }
    }
    return 0;
}

/* --- Python: reading a PartitionState --- */

static int read_u64(PyObject *obj, uint64_t *out)
{
    *out = PyLong_AsUnsignedLongLong(obj);
    return !(*out == (uint64_t)-1 && PyErr_Occurred());
}

static int read_int_attr(PyObject *state, const char *name, long *out)
{
    PyObject *v = PyObject_GetAttrString(state, name);
    if (!v)
        return 0;
    *out = PyLong_AsLong(v);
    Py_DECREF(v);
    return !(*out == -1 && PyErr_Occurred());
}

/* a tuple attribute's items as uint64 (at most `most`); the count, or -1 */
static int read_masks(PyObject *state, const char *name, uint64_t *out, int most)
{
    PyObject *v = PyObject_GetAttrString(state, name);
    if (!v)
        return -1;
    PyObject *seq = PySequence_Fast(v, "expected a sequence");
    Py_DECREF(v);
    if (!seq)
        return -1;
    Py_ssize_t n = PySequence_Fast_GET_SIZE(seq);
    if (n > most) {
        PyErr_Format(PyExc_ValueError, "%s: more than %d items", name, most);
        Py_DECREF(seq);
        return -1;
    }
    for (Py_ssize_t i = 0; i < n; i++)
        if (!read_u64(PySequence_Fast_GET_ITEM(seq, i), &out[i])) {
            Py_DECREF(seq);
            return -1;
        }
    Py_DECREF(seq);
    return (int)n;
}

static int read_state(PyObject *py, State *s, Search *q)
{
    memset(s, 0, sizeof *s);
    uint64_t pair[2];
    long v;
    PyObject *colours = PyObject_GetAttrString(py, "colours");
    if (!colours)
        return 0;
    PyObject *seq = PySequence_Fast(colours, "colours: expected a sequence");
    Py_DECREF(colours);
    if (!seq)
        return 0;
    if (PySequence_Fast_GET_SIZE(seq) != HEXES) {
        PyErr_SetString(PyExc_ValueError, "colours: expected 36 items");
        Py_DECREF(seq);
        return 0;
    }
    for (int h = 0; h < HEXES; h++) {
        PyObject *c = PySequence_Fast_GET_ITEM(seq, h);
        long colour = c == Py_None ? COLOURS : PyLong_AsLong(c);
        if (colour < 0 || colour > COLOURS) {
            if (!PyErr_Occurred())
                PyErr_SetString(PyExc_ValueError, "colours: a colour index or None");
            Py_DECREF(seq);
            return 0;
        }
        q->layout[h] = (int8_t)(colour == COLOURS ? 0 : colour);
        if (colour < COLOURS)
            s->discs[colour] |= BIT(h);
        s->zcolours ^= ZOBRIST[h][colour];
    }
    Py_DECREF(seq);
    if (read_masks(py, "links", s->links, HEXES) != HEXES) {
        if (!PyErr_Occurred())
            PyErr_SetString(PyExc_ValueError, "links: expected 36 items");
        return 0;
    }
    for (int a = 0; a < HEXES; a++)   /* the sticks: the edges no longer linked */
        for (uint64_t m = ALL_LINKS[a] & ~s->links[a] & ~((BIT(a) << 1) - 1); m; m &= m - 1) {
            int id = EDGE_ID[a][lowest_hex(m)];
            s->sticks[id >> 6] |= BIT(id & 63);
        }
    PyObject *open = PyObject_GetAttrString(py, "open");
    if (!open)
        return 0;
    int ok = read_u64(open, &s->open);
    Py_DECREF(open);
    if (!ok)
        return 0;
    int n = read_masks(py, "closed", s->closed, HEXES);
    if (n < 0)
        return 0;
    s->nclosed = (int8_t)n;
    PyObject *claimed = PyObject_GetAttrString(py, "claimed");
    if (!claimed)
        return 0;
    for (int seat = 0; seat < 2; seat++) {
        PyObject *mine = PySequence_GetItem(claimed, seat);
        Py_ssize_t count = mine ? PySequence_Size(mine) : -1;
        if (count < 0 || count > MAX_CLAIMS) {
            if (!PyErr_Occurred())
                PyErr_SetString(PyExc_ValueError, "claimed: at most two colours a seat");
            Py_XDECREF(mine);
            Py_DECREF(claimed);
            return 0;
        }
        for (Py_ssize_t i = 0; i < count; i++) {
            PyObject *c = PySequence_GetItem(mine, i);
            long colour = c ? PyLong_AsLong(c) : -1;
            Py_XDECREF(c);
            if (colour < 0 || colour >= COLOURS) {
                if (!PyErr_Occurred())
                    PyErr_SetString(PyExc_ValueError, "claimed: a colour index");
                Py_DECREF(mine);
                Py_DECREF(claimed);
                return 0;
            }
            s->claimed[seat][i] = (int8_t)colour;
        }
        s->nclaimed[seat] = (int8_t)count;
        Py_DECREF(mine);
    }
    Py_DECREF(claimed);
    if (read_masks(py, "subdivisions_left", pair, 2) != 2)
        return 0;
    s->subdivisions_left[0] = (int8_t)pair[0];
    s->subdivisions_left[1] = (int8_t)pair[1];
    if (read_masks(py, "points", pair, 2) != 2)
        return 0;
    if (pair[0] > 63 || pair[1] > 63) {   /* 6 bits each in the key */
        PyErr_SetString(PyExc_ValueError, "points: out of range");
        return 0;
    }
    s->points[0] = (int8_t)pair[0];
    s->points[1] = (int8_t)pair[1];
    if (!read_int_attr(py, "actions_left", &v))
        return 0;
    s->actions_left = (int8_t)v;
    if (!read_int_attr(py, "turn", &v))
        return 0;
    s->turn = (int8_t)(v & 1);
    PyObject *rule = PyObject_GetAttrString(py, "singleton_rule");
    if (!rule)
        return 0;
    q->singleton_rule = PyObject_IsTrue(rule);
    Py_DECREF(rule);
    return q->singleton_rule >= 0;
}

/* search(state, deadline, now) -> (None or ((kind, a, b, close), value), complete) */
static PyObject *py_search(PyObject *self, PyObject *args)
{
    PyObject *py_state, *now;
    double deadline;
    if (!PyArg_ParseTuple(args, "OdO", &py_state, &deadline, &now))
        return NULL;
    if (!PyCallable_Check(now)) {
        PyErr_SetString(PyExc_TypeError, "now: expected a callable");
        return NULL;
    }
    State root;
    Search q = {.deadline = deadline, .now = now};
    if (!read_state(py_state, &root, &q) || !table_ready())
        return NULL;
    if (!root.open) {
        PyErr_SetString(PyExc_ValueError, "The game is over.");
        return NULL;
    }
    q.me = root.turn;
    Move proved = {0};
    int proved_value = 0, have = 0, complete = 1;
    for (int goal = 0; goal <= 1; goal++) {   /* at least a draw, then a win */
        Move found;
        int value, r = reaching(&q, &root, goal, &found, &value);
        if (r < 0) {
            if (q.aborted == 2)
                return NULL;   /* the clock's exception */
            if (have) {        /* a draw proved, a win neither found nor refuted in time */
                complete = 0;
                break;
            }
            PyErr_SetNone(PyExc_TimeoutError);
            return NULL;
        }
        if (r == 0)
            break;
        proved = found;
        proved_value = value;
        have = 1;
    }
    if (!have)
        return Py_BuildValue("(OO)", Py_None, complete ? Py_True : Py_False);
    return Py_BuildValue("((iiii)d)O", proved.kind, proved.a, proved.b, proved.close,
                         (double)proved_value, complete ? Py_True : Py_False);
}

static PyObject *py_clear(PyObject *self, PyObject *unused)
{
    if (table)
        memset(table, 0, (size_t)TABLE_BUCKETS * TABLE_WAYS * sizeof(Entry));  /* ~10 ms */
    table_entries = 0;
    Py_RETURN_NONE;
}

static PyObject *py_entries(PyObject *self, PyObject *unused)
{
    return PyLong_FromUnsignedLongLong(table_entries);
}

static PyMethodDef methods[] = {
    {"search", py_search, METH_VARARGS,
     "search(state, deadline, now) -> (None or ((kind, a, b, close), value), complete)\n\n"
     "endgame_search for a PartitionState: kind 0 a stick on edge (a, b) (close -1: none),\n"
     "1 a claim of hex a, 2 a subdivision on edge (a, b). Raises TimeoutError once now()\n"
     "passes deadline with nothing proved."},
    {"clear", py_clear, METH_NOARGS, "Forget every position in the table."},
    {"entries", py_entries, METH_NOARGS, "The positions in the table."},
    {NULL, NULL, 0, NULL},
};

static struct PyModuleDef module = {
    PyModuleDef_HEAD_INIT, "_partition_endgame",
    "Partition's exact endgame search in C; api.bots.partition.endgame_search is the reference.",
    -1, methods,
};

PyMODINIT_FUNC PyInit__partition_endgame(void)
{
    init_board();
    return PyModule_Create(&module);
}
