/* verify.c: claims checked against measured samples (see verify.h).
 *
 * The evaluation functions are pure (verify_claim_dir only reads two
 * files); verify_command, the `ipclab verify` command, is the only place
 * that prints.
 */
#include "verify.h"
#include "style.h"

#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "columns.h"
#include "metrics.h"
#include "safefile.h"
#include "render.h"
#include "placement.h"
#include "select.h"
#include "stats.h"

#define EXIT_FAILED 1
#define EXIT_USAGE 2

/* ---- Axes ---------------------------------------------------------------- */

typedef enum {
        KIND_TEXT,
        KIND_SIZE,
        KIND_COUNT,
        KIND_DURATION,
} AxisKind;

/* How claims describe each axis of the column schema in notes (columns.h:
 * its selector key and its column in samples.tsv; selectors: select.h).
 * env is not one of them: claims pair cells of one environment. */
typedef struct {
        const Column *column; /* its key, as written in selectors and filters,
                               * and its name in samples.tsv */
        AxisKind kind;
        bool labelled;        /* described as key=value */
} Axis;

static const Axis axes[] = {
        { &column_table[COL_TRANSPORT], KIND_TEXT, false },
        { &column_table[COL_BUS], KIND_TEXT, false },
        { &column_table[COL_PAYLOAD], KIND_TEXT, false },
        { &column_table[COL_SIZE_B], KIND_SIZE, false },
        { &column_table[COL_PATTERN], KIND_TEXT, false },
        { &column_table[COL_REPLY], KIND_TEXT, true },
        { &column_table[COL_MARSHAL], KIND_TEXT, true },
        { &column_table[COL_CPUS], KIND_TEXT, true },
        { &column_table[COL_ROLES], KIND_TEXT, true },
        { &column_table[COL_COUNT], KIND_COUNT, true },
        { &column_table[COL_DURATION_NS], KIND_DURATION, true },
        /* Last, so that a pair's description names it last. */
        { &column_table[COL_MACHINE], KIND_TEXT, true },
};
/* Every axis of the schema but env, which comes first there. */
_Static_assert(G_N_ELEMENTS(axes) == COL_DURATION_NS - COL_ENV, "an axis of columns.h is missing here");
#define N_AXES G_N_ELEMENTS(axes)

/* ---- Verdicts ----------------------------------------------------------- */

const char *verify_verdict_name(VerifyVerdict v)
{
        switch (v) {
        case VERIFY_HOLDS: return "holds";
        case VERIFY_INCONCLUSIVE: return "inconclusive";
        case VERIFY_FAILS: return "fails";
        default: return "no data";
        }
}

/* BY less a relative 1e-9: geometric means come back through exp(log),
 * and sqrt(0.5 * 8) must compare as 2, not as 1.9999999999999998. */
static double by_tolerant(double by)
{
        return by * (1 - 1e-9);
}

VerifyVerdict verify_verdict(double lo, double hi, double by)
{
        if (isnan(lo) || isnan(hi))
                return VERIFY_NO_DATA;
        if (lo >= by_tolerant(by))
                return VERIFY_HOLDS;
        if (hi < by_tolerant(by))
                return VERIFY_FAILS;
        return VERIFY_INCONCLUSIVE;
}

bool verify_reaches(double coverage, double level)
{
        return coverage >= level - 1e-12;
}

int verify_pair_intervals(const double *num, guint n_num, const double *den, guint n_den, double level_holds,
                          double level_fails, VerifyPair *pair)
{
        double r_f;
        int r = stats_ratio_ci(num, n_num, den, n_den, level_holds, &pair->ratio, &pair->lo, &pair->hi,
                               &pair->coverage);

        if (r == 0)
                r = stats_ratio_ci(num, n_num, den, n_den, level_fails, &r_f, &pair->fail_lo, &pair->fail_hi,
                                   &pair->fail_coverage);
        pair->reversed = r == 0 && pair->hi < by_tolerant(1);
        return r;
}

VerifyVerdict verify_pair_verdict(const VerifyPair *pair, double level_holds, double level_fails, double by)
{
        if (verify_reaches(pair->coverage, level_holds) && verify_verdict(pair->lo, pair->hi, by) == VERIFY_HOLDS)
                return VERIFY_HOLDS;
        if (verify_reaches(pair->fail_coverage, level_fails) &&
            verify_verdict(pair->fail_lo, pair->fail_hi, by) == VERIFY_FAILS)
                return VERIFY_FAILS;
        return VERIFY_INCONCLUSIVE;
}

static void pair_clear(VerifyPair *p)
{
        g_free(p->faster);
        g_free(p->slower);
        g_free(p->label);
}

void verify_result_clear(VerifyResult *result)
{
        if (result->pairs)
                g_array_unref(result->pairs);
        g_free(result->note);
        g_free(result->reversed);
        memset(result, 0, sizeof *result);
}

static void result_init(VerifyResult *result)
{
        memset(result, 0, sizeof *result);
        result->pairs = g_array_new(FALSE, TRUE, sizeof(VerifyPair));
        g_array_set_clear_func(result->pairs, (GDestroyNotify) pair_clear);
        result->ratio = result->lo = result->hi = NAN;
        result->decisive = -1;
        result->look = result->n_looks = 1;
}

/* ---- Metrics ------------------------------------------------------------ */

/* A claim's metric is a row of the schema with a claim name (metrics.h). */

/* How the ratio of metric NAME reads: "slower/faster" or "faster/slower". */
static const char *metric_direction(const char *name)
{
        const Column *m = metric_find_claim(name);
        return m && m->better == BETTER_HIGHER ? "faster/slower" : "slower/faster";
}

/* ---- Numbers as people read them ---------------------------------------- */

/* "2.04": two decimals from 0.1 to 100, else two significant figures or
 * none. */
static void format_one(char *buf, size_t len, double v)
{
        double a = fabs(v);

        if (a >= 100)
                g_ascii_formatd(buf, len, "%.0f", v);
        else if (a >= 0.1)
                g_ascii_formatd(buf, len, "%.2f", v);
        else
                g_ascii_formatd(buf, len, "%.2g", v);
}

char *verify_format_interval(double ratio, double lo, double hi)
{
        char s[3][32];

        format_one(s[0], sizeof s[0], ratio);
        format_one(s[1], sizeof s[1], lo);
        format_one(s[2], sizeof s[2], hi);
        return g_strdup_printf("%s [%s, %s]", s[0], s[1], s[2]);
}

char *verify_format_coverage(double coverage, bool latex)
{
        char buf[32];

        /* Rounded down, so that 94.96% is never "95.0%"; to 0.01% from
         * 99% on, where levels such as 1 - 0.05/27 live. */
        if (coverage >= 0.99)
                g_ascii_formatd(buf, sizeof buf, "%.2f", floor(coverage * 10000 + 1e-9) / 100);
        else
                g_ascii_formatd(buf, sizeof buf, "%.1f", floor(coverage * 1000 + 1e-9) / 10);
        return g_strdup_printf("%s%s", buf, latex ? "\\,\\%" : "%");
}

/* "2.04 [1.88, 2.19] 95.9%". */
static char *format_interval_cov(double ratio, double lo, double hi, double coverage)
{
        g_autofree char *i = verify_format_interval(ratio, lo, hi);
        g_autofree char *c = verify_format_coverage(coverage, false);
        return g_strdup_printf("%s %s", i, c);
}

/* ---- Cells and pairs ---------------------------------------------------- */

/* A cell of samples.tsv: rows with the same axis values. */
typedef struct {
        char **row;          /* its first row, for the axis values */
        GArray *values;      /* double: the metric of each ok repetition that has it */
        guint rows;          /* rows taken (ok or not) */
        guint failed;        /* rows whose status is not ok */
        guint unmeasured;    /* ok rows without the metric */
        bool nonpositive;    /* some value <= 0 */
        PlacementCount placement; /* where its ok repetitions ran */
        GArray *fixed_share; /* double: fixed_ns / elapsed_ns of each ok repetition that has it */
} VCell;

static void vcell_free(VCell *c)
{
        g_array_unref(c->values);
        g_array_unref(c->fixed_share);
        g_free(c);
}

/* The median fixed share of C, or NAN when no repetition measured it. */
static double vcell_fixed_share(const VCell *c)
{
        if (!c->fixed_share->len)
                return NAN;
        g_autofree double *v = g_memdup2(c->fixed_share->data, c->fixed_share->len * sizeof(double));
        stats_sort_double(v, c->fixed_share->len);
        return stats_median(v, c->fixed_share->len);
}

/* The value V of axis A, as people read it: "4 KiB", "count=1000". */
static char *axis_value_text(const Axis *a, const char *v)
{
        g_autofree char *t = a->kind == KIND_SIZE || a->kind == KIND_DURATION
                ? style_value_text(a->column->name, v, false) : g_strdup(v);
        return a->labelled ? g_strdup_printf("%s=%s", a->column->key, t) : g_steal_pointer(&t);
}

/* "pipe bytes 64 B roundtrip reply=echo count=1000": the axis values that
 * apply, defaults (array marshalling, unpinned, processes, host) left
 * out, and the machine only when MACHINES (the rows hold more than one). */
static char *vcell_describe(const VCell *c, const int *axis_col, int env_col, bool machines)
{
        GString *s = g_string_new(NULL);

        for (size_t a = 0; a < N_AXES; a++) {
                const char *v = c->row[axis_col[a]];
                if (!strcmp(v, "-") || (axes[a].column == &column_table[COL_MACHINE] && !machines) ||
                    (axes[a].column == &column_table[COL_MARSHAL] && !strcmp(v, "array")) ||
                    (axes[a].column == &column_table[COL_CPUS] && !strcmp(v, "none")) ||
                    (axes[a].column == &column_table[COL_ROLES] && !strcmp(v, "processes")))
                        continue;
                g_autofree char *t = axis_value_text(&axes[a], v);
                g_string_append_printf(s, "%s%s", s->len ? " " : "", t);
        }
        if (env_col >= 0 && strcmp(c->row[env_col], "host") != 0)
                g_string_append_printf(s, " env=%s", c->row[env_col]);
        return g_string_free(s, FALSE);
}

static void note_add(GString *note, const char *fmt, ...) G_GNUC_PRINTF(2, 3);

static void note_add(GString *note, const char *fmt, ...)
{
        va_list ap;

        if (note->len)
                g_string_append(note, "; ");
        va_start(ap, fmt);
        g_string_append_vprintf(note, fmt, ap);
        va_end(ap);
}

/* A claim's cells in a table, grouped and paired: what both the data and
 * the check before measuring look at. */
typedef struct {
        const Column *m;           /* the claim's metric (metrics.h) */
        const Column *metric_in[5];   /* its inputs, NULL-ended */
        Selector *fast_sel, *slow_sel, *where;
        int axis_col[N_AXES], key_col[16], metric_col[5];
        guint n_key, n_metric;
        int status_col, pattern_col, rep_col, env_col;
        int placement_col, fixed_col, elapsed_col; /* -1 in data older than them */
        bool machines;             /* the rows hold more than one machine */
        GPtrArray *cells;          /* VCell *, owned, in first-seen order */
        GPtrArray *fast, *slow;    /* the measured cells of each side */
        GArray *pf, *ps;           /* pair p: fast[pf[p]] and slow[ps[p]] */
        guint any[2];              /* cells each side selects, whatever where says */
        guint kept[2];             /* ... that where keeps */
        guint measuring[2];        /* ... that measure the metric */
        guint differ;              /* kept cells on one side only */
        guint failed_rows, unmeasured_rows, empty_cells, nonpositive_cells, both, not_measuring, unpaired;
        guint fixed_cells;         /* cells left out: fixed part over VERIFY_MAX_FIXED_SHARE */
        double fixed_max;          /* ... the largest such share */
        GString *mixed;            /* paired cells whose repetitions ran in several placements */
} Pairing;

/* Whether the faster or the slower selector of P names key column K (an
 * axis, or env): such a column may differ within a pair. */
static bool pairing_names_key(const Pairing *p, guint k)
{
        return select_names_column(p->fast_sel, samples_axis_columns[k]) ||
               select_names_column(p->slow_sel, samples_axis_columns[k]);
}

static void pairing_clear(Pairing *p)
{
        select_free(p->fast_sel);
        select_free(p->slow_sel);
        select_free(p->where);
        if (p->cells)
                g_ptr_array_unref(p->cells);
        if (p->fast)
                g_ptr_array_unref(p->fast);
        if (p->slow)
                g_ptr_array_unref(p->slow);
        if (p->pf)
                g_array_unref(p->pf);
        if (p->ps)
                g_array_unref(p->ps);
        if (p->mixed)
                g_string_free(p->mixed, TRUE);
        memset(p, 0, sizeof *p);
}

/* Groups the rows of SAMPLES whose repetition is below MAX_REP (G_MAXUINT:
 * every row) into cells and pairs the claim's (verify.h).  FALSE with
 * IPCLAB_ERROR_INPUT when the claim is malformed or SAMPLES lacks a
 * column; *P is then cleared. */
static gboolean pairing_build(const Claim *claim, const Table *samples, const char *path, guint max_rep,
                              Pairing *p, GError **error)
{
        g_autoptr(GError) e = NULL;

        memset(p, 0, sizeof *p);
        p->m = metric_find_claim(claim->metric);
        if (!p->m) {
                g_set_error(error, IPCLAB_ERROR, IPCLAB_ERROR_INPUT, "claim %s: unknown metric '%s'",
                            claim->name, claim->metric);
                return FALSE;
        }
        metric_inputs(p->m, p->metric_in);
        p->fast_sel = select_parse(claim->faster, SELECT_AXES, &e);
        p->slow_sel = p->fast_sel ? select_parse(claim->slower, SELECT_AXES, &e) : NULL;
        p->where = p->slow_sel ? select_parse(claim->where, SELECT_AXES, &e) : NULL;
        if (!p->where) {
                g_set_error(error, IPCLAB_ERROR, IPCLAB_ERROR_INPUT, "claim %s: %s", claim->name, e->message);
                pairing_clear(p);
                return FALSE;
        }

        /* Columns: the axes, the status, the metric's inputs. */
        p->status_col = table_column(samples, column_table[COL_STATUS].name);
        p->pattern_col = table_column(samples, column_table[COL_PATTERN].name);
        p->rep_col = table_column(samples, column_table[COL_REP].name);
        p->env_col = table_column(samples, column_table[COL_ENV].name);
        p->placement_col = table_column(samples, column_table[COL_PLACEMENT].name);
        p->fixed_col = table_column(samples, column_table[COL_FIXED_NS].name);
        p->elapsed_col = table_column(samples, column_table[COL_ELAPSED_NS].name);
        for (size_t a = 0; a < N_AXES; a++)
                p->axis_col[a] = table_column(samples, axes[a].column->name);
        for (guint i = 0; samples_axis_columns[i] && p->n_key < G_N_ELEMENTS(p->key_col); i++)
                p->key_col[p->n_key++] = table_column(samples, samples_axis_columns[i]);
        for (guint i = 0; p->metric_in[i]; i++)
                p->metric_col[p->n_metric++] = table_column(samples, p->metric_in[i]->name);
        const char *missing = p->status_col < 0 ? column_table[COL_STATUS].name
                            : max_rep != G_MAXUINT && p->rep_col < 0 ? column_table[COL_REP].name : NULL;
        for (size_t a = 0; a < N_AXES && !missing; a++)
                if (p->axis_col[a] < 0)
                        missing = axes[a].column->name;
        for (guint i = 0; i < p->n_key && !missing; i++)
                if (p->key_col[i] < 0)
                        missing = samples_axis_columns[i];
        for (guint i = 0; i < p->n_metric && !missing; i++)
                if (p->metric_col[i] < 0)
                        missing = p->metric_in[i]->name;
        if (missing) {
                g_set_error(error, IPCLAB_ERROR, IPCLAB_ERROR_INPUT, "%s: no column %s", path, missing);
                pairing_clear(p);
                return FALSE;
        }
        int machine_col = p->axis_col[N_AXES - 1];
        for (guint r = 1; r < samples->rows->len && !p->machines; r++)
                p->machines = strcmp(((char **) samples->rows->pdata[r])[machine_col],
                                     ((char **) samples->rows->pdata[0])[machine_col]) != 0;

        /* Group the rows into cells, in first-seen order. */
        g_autoptr(GHashTable) by_key = g_hash_table_new_full(g_str_hash, g_str_equal, g_free, NULL);
        p->cells = g_ptr_array_new_with_free_func((GDestroyNotify) vcell_free);
        for (guint r = 0; r < samples->rows->len; r++) {
                char **row = samples->rows->pdata[r];
                if (max_rep != G_MAXUINT && g_ascii_strtoull(row[p->rep_col], NULL, 10) >= max_rep)
                        continue;
                g_autoptr(GString) key = g_string_new(NULL);
                for (guint i = 0; i < p->n_key; i++)
                        g_string_append_printf(key, "%s\t", row[p->key_col[i]]);
                VCell *c = g_hash_table_lookup(by_key, key->str);
                if (!c) {
                        c = g_new0(VCell, 1);
                        c->row = row;
                        c->values = g_array_new(FALSE, FALSE, sizeof(double));
                        c->fixed_share = g_array_new(FALSE, FALSE, sizeof(double));
                        g_ptr_array_add(p->cells, c);
                        g_hash_table_insert(by_key, g_strdup(key->str), c);
                }
                c->rows++;
                if (strcmp(row[p->status_col], "ok") != 0) {
                        c->failed++;
                        continue;
                }
                if (p->placement_col >= 0)
                        placement_count_add(&c->placement, row[p->placement_col]);
                double share = samples_fixed_share(row, p->fixed_col, p->elapsed_col, NULL);
                if (!isnan(share))
                        g_array_append_val(c->fixed_share, share);
                double f[G_N_ELEMENTS(p->metric_in)];
                for (guint i = 0; i < p->n_metric; i++)
                        f[i] = metric_field(p->metric_in[i], row[p->metric_col[i]]);
                double v = metric_compute(p->m, f);
                if (isnan(v) || isinf(v)) {
                        c->unmeasured++;
                        continue;
                }
                c->nonpositive |= !(v > 0);
                g_array_append_val(c->values, v);
        }

        /* The faster and slower cells. */
        p->fast = g_ptr_array_new();
        p->slow = g_ptr_array_new();
        for (guint i = 0; i < p->cells->len; i++) {
                VCell *c = p->cells->pdata[i];
                bool in[2] = { select_row(p->fast_sel, samples, c->row), select_row(p->slow_sel, samples, c->row) };
                p->any[0] += in[0];
                p->any[1] += in[1];
                if ((!in[0] && !in[1]) || !select_row(p->where, samples, c->row))
                        continue;
                p->differ += in[0] != in[1];
                p->kept[0] += in[0];
                p->kept[1] += in[1];
                if (!metric_applies(p->m, c->row[p->pattern_col])) {
                        p->not_measuring++;
                        continue;
                }
                p->measuring[0] += in[0];
                p->measuring[1] += in[1];
                p->failed_rows += c->failed;
                p->unmeasured_rows += c->unmeasured;
                if (c->values->len == 0) {
                        p->empty_cells++;
                        continue;
                }
                if (c->nonpositive) {
                        p->nonpositive_cells++;
                        continue;
                }
                double share = vcell_fixed_share(c);
                if (share > VERIFY_MAX_FIXED_SHARE) {
                        p->fixed_cells++;
                        p->fixed_max = MAX(p->fixed_max, share);
                        continue;
                }
                p->both += in[0] && in[1];
                if (in[0])
                        g_ptr_array_add(p->fast, c);
                if (in[1])
                        g_ptr_array_add(p->slow, c);
        }

        /* Pairs: equal on every axis column neither selector names (env
         * too), where the axis applies to both. */
        bool named[G_N_ELEMENTS(p->key_col)] = { 0 };
        for (guint k = 0; k < p->n_key; k++)
                named[k] = pairing_names_key(p, k);
        p->pf = g_array_new(FALSE, FALSE, sizeof(guint));
        p->ps = g_array_new(FALSE, FALSE, sizeof(guint));
        for (guint f = 0; f < p->fast->len; f++) {
                VCell *fc = p->fast->pdata[f];
                bool paired = false;
                for (guint s = 0; s < p->slow->len; s++) {
                        VCell *sc = p->slow->pdata[s];
                        bool same = sc != fc;
                        for (guint k = 0; k < p->n_key && same; k++) {
                                bool skip = named[k];
                                /* "-" (does not apply, e.g. the reply of a
                                 * one-way cell) constrains nothing. */
                                const char *fv = fc->row[p->key_col[k]], *sv = sc->row[p->key_col[k]];
                                same = skip || !strcmp(fv, sv) || !strcmp(fv, "-") || !strcmp(sv, "-");
                        }
                        if (!same)
                                continue;
                        g_array_append_val(p->pf, f);
                        g_array_append_val(p->ps, s);
                        paired = true;
                }
                p->unpaired += !paired;
        }

        /* A pair stands on cells whose repetitions ran where their cpus=
         * says (or, unpinned, all in one placement); name the others. */
        g_autoptr(GHashTable) named_cells = g_hash_table_new(NULL, NULL);
        for (guint i = 0; i < p->pf->len; i++) {
                VCell *pc[2] = { p->fast->pdata[g_array_index(p->pf, guint, i)],
                                 p->slow->pdata[g_array_index(p->ps, guint, i)] };
                for (int k = 0; k < 2; k++) {
                        if (!placement_count_mixed(&pc[k]->placement) ||
                            !g_hash_table_add(named_cells, pc[k]))
                                continue;
                        g_autofree char *d = vcell_describe(pc[k], p->axis_col, p->env_col, p->machines);
                        g_autofree char *m = placement_count_describe(&pc[k]->placement);
                        if (!p->mixed)
                                p->mixed = g_string_new(NULL);
                        g_string_append_printf(p->mixed, "%s%s (%s)", p->mixed->len ? ", " : "", d, m);
                }
        }
        return TRUE;
}

/* What P left out, for the note. */
static void pairing_note(const Pairing *p, const Claim *claim, GString *note)
{
        if (p->failed_rows)
                note_add(note, "%u failed repetitions left out", p->failed_rows);
        if (p->unmeasured_rows)
                note_add(note, "%u repetitions without %s left out", p->unmeasured_rows, claim->metric);
        if (p->empty_cells)
                note_add(note, "%u cells without a measured repetition", p->empty_cells);
        if (p->nonpositive_cells)
                note_add(note, "%u cells with a %s <= 0 left out", p->nonpositive_cells, claim->metric);
        if (p->both)
                note_add(note, "%u cells match both selectors", p->both);
        if (p->not_measuring)
                note_add(note, "%u cells that do not measure %s (%s do) left out", p->not_measuring,
                         claim->metric, metric_cells(p->m));
        if (p->unpaired && p->pf->len)
                note_add(note, "%u faster cells without a slower partner", p->unpaired);
        if (p->fixed_cells)
                note_add(note, "%u cells whose fixed part exceeds %.0f%% of the window (up to %.0f%%) left out",
                         p->fixed_cells, 100 * VERIFY_MAX_FIXED_SHARE, 100 * p->fixed_max);
        if (p->mixed)
                note_add(note, "pairs on cells whose repetitions ran in several placements: %s", p->mixed->str);
}

/* The side (0 faster, 1 slower) whose selected cells all fail to measure
 * the metric, or -1. */
static int pairing_unmeasured_side(const Pairing *p)
{
        for (int s = 0; s < 2; s++)
                if (p->kept[s] && !p->measuring[s])
                        return s;
        return -1;
}

/* Fills each pair's label: the values that tell it from the others, on
 * the axes (and env) where the claim's faster cells differ, or where only
 * its slower cells do ("vs" then). */
static void pair_labels(const Pairing *pg, VerifyResult *result)
{
        guint np = pg->pf->len;
        bool vary[N_AXES + 1][2] = { { 0 } };

        for (size_t a = 0; a <= N_AXES; a++) {
                int col = a < N_AXES ? pg->axis_col[a] : pg->env_col;
                if (col < 0)
                        continue;
                for (int side = 0; side < 2; side++) {
                        const GPtrArray *cells = side ? pg->slow : pg->fast;
                        const GArray *idx = side ? pg->ps : pg->pf;
                        const char *first = ((VCell *) cells->pdata[g_array_index(idx, guint, 0)])->row[col];
                        for (guint p = 1; p < np && !vary[a][side]; p++)
                                vary[a][side] = strcmp(((VCell *) cells->pdata[g_array_index(idx, guint, p)])->row[col],
                                                       first) != 0;
                }
        }
        for (guint p = 0; p < np; p++) {
                VerifyPair *pair = &g_array_index(result->pairs, VerifyPair, p);
                const VCell *fc = pg->fast->pdata[g_array_index(pg->pf, guint, p)];
                const VCell *sc = pg->slow->pdata[g_array_index(pg->ps, guint, p)];
                GString *s = g_string_new(NULL), *vs = g_string_new(NULL);
                for (size_t a = 0; a <= N_AXES; a++) {
                        for (int side = 0; side < 2; side++) {
                                if (!vary[a][side] || (side && vary[a][0]))
                                        continue;
                                GString *to = side ? vs : s;
                                const char *v = (side ? sc : fc)->row[a < N_AXES ? pg->axis_col[a] : pg->env_col];
                                g_autofree char *t = a < N_AXES ? axis_value_text(&axes[a], v)
                                                                : g_strdup_printf("env=%s", v);
                                g_string_append_printf(to, "%s%s", to->len ? " " : "", t);
                        }
                }
                if (vs->len)
                        g_string_append_printf(s, "%svs %s", s->len ? " " : "", vs->str);
                g_string_free(vs, TRUE);
                pair->label = g_string_free(s, FALSE);
        }
}

/* ---- One look ----------------------------------------------------------- */

/* The verdict of the claim on the pairs of PG, each pair's intervals at
 * 1 - ALPHA (holds) and 1 - ALPHA/K (fails); appends what it finds to
 * NOTE.  PG has at least one pair. */
static gboolean evaluate(const Claim *claim, const Pairing *pg, double alpha, VerifyResult *result,
                         GString *note, GError **error)
{
        guint np = pg->pf->len;
        bool higher = pg->m->better == BETTER_HIGHER;
        double level_h = 1 - alpha, level_f = 1 - alpha / np;
        g_autofree double *los = g_new(double, np), *his = g_new(double, np), *rs = g_new(double, np);
        double miss = 0;
        guint min_reps = G_MAXUINT, short_h = 0, short_f = 0;
        g_autoptr(GString) reversed = g_string_new(NULL);

        result->level_holds = level_h;
        result->level_fails = level_f;
        for (guint p = 0; p < np; p++) {
                VerifyPair pair = { 0 };
                VCell *fc = pg->fast->pdata[g_array_index(pg->pf, guint, p)];
                VCell *sc = pg->slow->pdata[g_array_index(pg->ps, guint, p)];
                const VCell *nc = higher ? fc : sc, *dc = higher ? sc : fc;
                pair.faster = vcell_describe(fc, pg->axis_col, pg->env_col, pg->machines);
                pair.slower = vcell_describe(sc, pg->axis_col, pg->env_col, pg->machines);
                pair.n_faster = fc->values->len;
                pair.n_slower = sc->values->len;
                const double *nv = (const double *) (gpointer) nc->values->data;
                const double *dv = (const double *) (gpointer) dc->values->data;
                int r = verify_pair_intervals(nv, nc->values->len, dv, dc->values->len, level_h, level_f, &pair);
                if (r < 0) {
                        pair_clear(&pair);
                        g_set_error(error, IPCLAB_ERROR, IPCLAB_ERROR_INPUT, "claim %s: ratio: %s",
                                    claim->name, g_strerror(-r));
                        return FALSE;
                }
                rs[p] = pair.ratio;
                los[p] = pair.fail_lo;
                his[p] = pair.fail_hi;
                miss += 1 - pair.fail_coverage;
                min_reps = MIN(min_reps, MIN(pair.n_faster, pair.n_slower));
                short_h += !verify_reaches(pair.coverage, level_h);
                short_f += !verify_reaches(pair.fail_coverage, level_f);
                pair.verdict = verify_pair_verdict(&pair, level_h, level_f, claim->by);
                result->clear += pair.verdict == VERIFY_HOLDS;
                g_array_append_val(result->pairs, pair);
        }
        pair_labels(pg, result);
        for (guint p = 0; p < np; p++) {
                const VerifyPair *pair = &g_array_index(result->pairs, VerifyPair, p);
                if (!pair->reversed)
                        continue;
                g_autofree char *rtxt = format_interval_cov(pair->ratio, pair->lo, pair->hi, pair->coverage);
                g_string_append_printf(reversed, "%s%s vs %s %s", reversed->len ? "; " : "", pair->faster,
                                       pair->slower, rtxt);
        }
        result->ratio = stats_geometric_mean(rs, np);
        result->lo = stats_geometric_mean(los, np);
        result->hi = stats_geometric_mean(his, np);
        result->coverage = miss >= 1 ? 0 : 1 - miss;
        result->min_reps = min_reps;
        result->reversed = reversed->len ? g_strdup(reversed->str) : NULL;

        /* The verdict (verify.h), and the pair that decides it. */
        guint failing = 0;
        int weakest = -1, blocking = -1, failing_pair = -1;
        for (guint p = 0; p < np; p++) {
                const VerifyPair *pair = &g_array_index(result->pairs, VerifyPair, p);
                if (weakest < 0 || pair->lo < g_array_index(result->pairs, VerifyPair, weakest).lo)
                        weakest = (int) p;
                if (pair->verdict != VERIFY_HOLDS &&
                    (blocking < 0 || pair->lo < g_array_index(result->pairs, VerifyPair, blocking).lo))
                        blocking = (int) p;
                if (pair->verdict == VERIFY_FAILS) {
                        failing++;
                        if (failing_pair < 0 ||
                            pair->fail_hi < g_array_index(result->pairs, VerifyPair, failing_pair).fail_hi)
                                failing_pair = (int) p;
                }
        }
        if (result->clear == np) {
                result->verdict = VERIFY_HOLDS;
                result->decisive = weakest;
        } else if (failing) {
                result->verdict = VERIFY_FAILS;
                result->decisive = failing_pair;
        } else {
                result->verdict = VERIFY_INCONCLUSIVE;
                result->decisive = blocking;
        }
        g_autofree char *lh = verify_format_coverage(level_h, false);
        g_autofree char *lf = verify_format_coverage(level_f, false);
        if (short_h)
                note_add(note, "%u of %u pairs have too few repetitions for a %s interval "
                         "(fewest: %u): the claim cannot hold", short_h, np, lh, min_reps);
        if (short_f && result->verdict != VERIFY_FAILS)
                note_add(note, "%u of %u pairs have too few repetitions for a %s interval, which failing "
                         "needs over %u pairs", short_f, np, lf, np);
        if (failing)
                note_add(note, "%u of %u pairs lie below %g at %s", failing, np, claim->by, lf);
        if (result->reversed)
                note_add(note, "reversed (the interval lies below 1): %s", result->reversed);
        else if (result->verdict == VERIFY_INCONCLUSIVE && np > 1 && !short_h)
                note_add(note, "%u of %u pairs hold", result->clear, np);
        return TRUE;
}

/* ---- Looks -------------------------------------------------------------- */

/* The fewest rows (ok or not) of a compared cell. */
static guint pairing_min_rows(const Pairing *pg)
{
        guint min = G_MAXUINT;

        for (guint p = 0; p < pg->pf->len; p++) {
                const VCell *fc = pg->fast->pdata[g_array_index(pg->pf, guint, p)];
                const VCell *sc = pg->slow->pdata[g_array_index(pg->ps, guint, p)];
                min = MIN(min, MIN(fc->rows, sc->rows));
        }
        return min;
}

/* The no-data result, with what PG left out and why. */
static void no_data(const Claim *claim, const Pairing *pg, GString *note, VerifyResult *result)
{
        if (!pg->fast->len)
                note_add(note, "no measured cell matches faster=%s%s%s", claim->faster,
                         claim->where ? " where " : "", claim->where ? claim->where : "");
        else if (!pg->slow->len)
                note_add(note, "no measured cell matches slower=%s%s%s", claim->slower,
                         claim->where ? " where " : "", claim->where ? claim->where : "");
        else
                note_add(note, "no slower cell agrees with a faster one on the other axes");
        result->verdict = VERIFY_NO_DATA;
        result->decisive = -1;
}

static gboolean unmeasured_error(const Claim *claim, const Pairing *pg, GError **error)
{
        int s = pairing_unmeasured_side(pg);

        g_set_error(error, IPCLAB_ERROR, IPCLAB_ERROR_INPUT,
                    "claim %s: %s=%s: no cell it selects measures %s (%s do)", claim->name,
                    s ? "slower" : "faster", s ? claim->slower : claim->faster, claim->metric,
                    metric_cells(pg->m));
        return FALSE;
}

gboolean verify_claim_table_looks(const Claim *claim, const Table *samples, const char *path,
                                  const guint *looks, guint n_looks, guint upto, VerifyResult *result,
                                  GError **error)
{
        bool sequential = looks && n_looks;
        guint n = sequential ? MIN(MAX(upto, 1), n_looks) : 1;

        result_init(result);
        for (guint j = 0; j < n; j++) {
                Pairing pg;
                g_autoptr(GString) note = g_string_new(NULL);
                guint want = sequential ? looks[j] : G_MAXUINT;
                if (!pairing_build(claim, samples, path, want, &pg, error)) {
                        verify_result_clear(result);
                        return FALSE;
                }
                if (pairing_unmeasured_side(&pg) >= 0) {
                        unmeasured_error(claim, &pg, error);
                        pairing_clear(&pg);
                        verify_result_clear(result);
                        return FALSE;
                }
                pairing_note(&pg, claim, note);
                /* A later look is taken only when every compared cell has
                 * reached it: else the sequence ends at the look before. */
                guint have = pg.pf->len ? pairing_min_rows(&pg) : 0;
                if (j > 0 && (!pg.pf->len || have < want)) {
                        g_autoptr(GString) more = g_string_new(result->note);
                        note_add(more, "look %u (%u repetitions) not reached: the run stopped before", j + 1, want);
                        g_free(result->note);
                        result->note = g_strdup(more->str);
                        pairing_clear(&pg);
                        break;
                }
                VerifyResult cur;
                result_init(&cur);
                cur.look = j + 1;
                cur.n_looks = sequential ? n_looks : 1;
                cur.look_reps = sequential ? want : 0;
                if (!pg.pf->len) {
                        no_data(claim, &pg, note, &cur);
                } else if (!evaluate(claim, &pg, VERIFY_ALPHA / cur.n_looks, &cur, note, error)) {
                        pairing_clear(&pg);
                        verify_result_clear(&cur);
                        verify_result_clear(result);
                        return FALSE;
                }
                if (sequential && pg.pf->len && have < want) {
                        /* The first look not reached: nothing is decided. */
                        note_add(note, "look 1 (%u repetitions) not reached: undecided", want);
                        cur.verdict = VERIFY_INCONCLUSIVE;
                }
                bool decided = cur.verdict == VERIFY_HOLDS || cur.verdict == VERIFY_FAILS;
                if (sequential && (decided || j + 1 == n)) {
                        g_autofree char *each = verify_format_coverage(1 - VERIFY_ALPHA / n_looks, false);
                        note_add(note, "%s at look %u of %u (%u repetitions, each look at %s)",
                                 decided ? "decided" : "undecided", j + 1, n_looks, want, each);
                }
                cur.note = note->len ? g_strdup(note->str) : NULL;
                pairing_clear(&pg);
                verify_result_clear(result);
                *result = cur;
                if (decided || (sequential && have < want))
                        break;
        }
        /* Over several looks, the combined interval covers with what each
         * look's intervals miss, the looks not taken counted in full. */
        if (sequential && !isnan(result->lo))
                result->coverage = MAX(0, result->coverage - (1 - result->level_fails) * result->pairs->len *
                                                             (n_looks - 1));
        return TRUE;
}

gboolean verify_claim_table(const Claim *claim, const Table *samples, const char *path,
                            VerifyResult *result, GError **error)
{
        return verify_claim_table_looks(claim, samples, path, NULL, 0, 0, result, error);
}

/* The look schedule DIR/meta.ini records ([repeat] looks=N1;N2;...), in
 * LOOKS (at most 16); 0 looks for a fixed design or no meta.ini. */
static guint meta_looks(const char *dir, guint *looks)
{
        g_autofree char *path = g_build_filename(dir, "meta.ini", NULL);
        g_autoptr(GKeyFile) kf = safefile_key_file(path, NULL);
        guint n = 0;

        if (!kf)
                return 0;
        g_autofree char *v = g_key_file_get_string(kf, "repeat", "looks", NULL);
        g_auto(GStrv) parts = g_strsplit(v ? v : "", ";", -1);
        for (guint i = 0; parts[i] && n < EXPERIMENT_MAX_LOOKS; i++) {
                guint64 x = g_ascii_strtoull(parts[i], NULL, 10);
                if (x && (!n || x > looks[n - 1]))
                        looks[n++] = (guint) x;
        }
        return n;
}

gboolean verify_claim_dir(const Claim *claim, const char *dir, VerifyResult *result,
                          GError **error)
{
        g_autofree char *path = g_build_filename(dir, "samples.tsv", NULL);

        if (!g_file_test(path, G_FILE_TEST_EXISTS)) {
                result_init(result);
                result->verdict = VERIFY_NO_DATA;
                result->note = g_strdup_printf("%s does not exist", path);
                return TRUE;
        }
        g_autoptr(Table) t = samples_table_read(path, error);
        if (!t) {
                memset(result, 0, sizeof *result);
                return FALSE;
        }
        guint looks[EXPERIMENT_MAX_LOOKS];
        guint n = meta_looks(dir, looks);
        return verify_claim_table_looks(claim, t, path, n ? looks : NULL, n, n, result, error);
}

Table *verify_rows_table(const GPtrArray *rows)
{
        Table *t = g_new0(Table, 1);
        g_autofree char *head = g_strdup(samples_header());

        head[strcspn(head, "\n")] = '\0';
        t->columns = g_strsplit(head, "\t", -1);
        t->n_columns = g_strv_length(t->columns);
        t->rows = g_ptr_array_new_with_free_func((GDestroyNotify) g_strfreev);
        for (guint i = 0; i < rows->len; i++) {
                g_autofree char *line = g_strdup(rows->pdata[i]);
                line[strcspn(line, "\n")] = '\0';
                char **fields = g_strsplit(line, "\t", -1);
                if (g_strv_length(fields) != t->n_columns) {
                        g_strfreev(fields);
                        continue;
                }
                g_ptr_array_add(t->rows, fields);
        }
        return t;
}

/* ---- Before measuring --------------------------------------------------- */

bool verify_claim_covers(const Claim *claim, const Cell *cell)
{
        g_autoptr(Selector) f = select_parse(claim->faster, SELECT_AXES, NULL);
        g_autoptr(Selector) s = select_parse(claim->slower, SELECT_AXES, NULL);
        g_autoptr(Selector) w = select_parse(claim->where, SELECT_AXES, NULL);
        const Column *m = metric_find_claim(claim->metric);

        return f && s && w && m && (select_cell(f, cell) || select_cell(s, cell)) && select_cell(w, cell) &&
               metric_applies(m, pattern_name(cell->pattern));
}

/* The machine names the claim's selectors name (machine=A|B), each once,
 * into NAMES; "-" (one machine) when they name none. */
static void claim_machines(const Claim *claim, GPtrArray *names)
{
        const char *sels[] = { claim->faster, claim->slower, claim->where };

        for (guint i = 0; i < G_N_ELEMENTS(sels); i++) {
                g_auto(GStrv) parts = g_strsplit(sels[i] ? sels[i] : "", ",", -1);
                for (guint k = 0; parts[k]; k++) {
                        char *eq = strchr(parts[k], '=');
                        if (!eq || eq == parts[k] || eq[-1] == '!' || eq[-1] == '<' || eq[-1] == '>')
                                continue;
                        g_autofree char *key = g_strstrip(g_strndup(parts[k], (gsize) (eq - parts[k])));
                        if (strcmp(key, "machine") != 0)
                                continue;
                        g_auto(GStrv) vals = g_strsplit(eq + 1, "|", -1);
                        for (guint v = 0; vals[v]; v++) {
                                const char *name = g_strstrip(vals[v]);
                                bool seen = false;
                                for (guint n = 0; n < names->len && !seen; n++)
                                        seen = !strcmp(names->pdata[n], name);
                                if (!seen && *name)
                                        g_ptr_array_add(names, g_strdup(name));
                        }
                }
        }
        if (!names->len)
                g_ptr_array_add(names, g_strdup("-"));
}

/* The cells of EXP as samples.tsv would hold them, one repetition each,
 * in every environment it runs in and on each of MACHINES. */
static Table *design_table(const Experiment *exp, const GPtrArray *machines)
{
        g_autoptr(GPtrArray) rows = g_ptr_array_new_with_free_func(g_free);
        Sample s = {
                .elapsed_ns = 1000, .client_cpu_ns = 1000, .server_cpu_ns = 1000, .bus_cpu_ns = 1000,
                .messages = 10, .bytes = 10, .lat_n = 10, .lat_min_ns = 100, .lat_p50_ns = 100,
                .lat_p90_ns = 100, .lat_p99_ns = 100, .lat_p999_ns = 100, .lat_max_ns = 100,
        };

        for (guint e = 0; e < MAX(exp->n_envs, 1); e++)
                for (guint m = 0; m < machines->len; m++)
                        for (guint c = 0; c < exp->cells->len; c++) {
                                GString *row = g_string_new(NULL);
                                samples_append_row(row, env_name(exp->n_envs ? exp->envs[e] : exp->env),
                                                   machines->pdata[m], exp->cells->pdata[c], 0, &s);
                                g_ptr_array_add(rows, g_string_free(row, FALSE));
                        }
        return verify_rows_table(rows);
}

static gboolean design_fail(GError **error, const char **key, const char *k, const char *fmt, ...)
        G_GNUC_PRINTF(4, 5);

static gboolean design_fail(GError **error, const char **key, const char *k, const char *fmt, ...)
{
        va_list ap;

        va_start(ap, fmt);
        g_autofree char *msg = g_strdup_vprintf(fmt, ap);
        va_end(ap);
        *key = k;
        g_set_error_literal(error, IPCLAB_ERROR, IPCLAB_ERROR_INPUT, msg);
        return FALSE;
}

/* The environments EXP runs in, "host, nspawn". */
static char *env_list(const Experiment *exp)
{
        GString *s = g_string_new(NULL);

        for (guint e = 0; e < exp->n_envs; e++)
                g_string_append_printf(s, "%s%s", e ? ", " : "", env_name(exp->envs[e]));
        return g_string_free(s, FALSE);
}

/* Why pairing found nothing: the first axis on which the first faster and
 * slower cells differ where it constrains them. */
static char *pairing_blocker(const Pairing *pg)
{
        const VCell *fc = pg->fast->pdata[0], *sc = pg->slow->pdata[0];

        for (guint k = 0; k < pg->n_key; k++) {
                const char *fv = fc->row[pg->key_col[k]], *sv = sc->row[pg->key_col[k]];
                if (!pairing_names_key(pg, k) && strcmp(fv, sv) && strcmp(fv, "-") && strcmp(sv, "-"))
                        return g_strdup_printf("%s (%s against %s)", samples_axis_columns[k], fv, sv);
        }
        return g_strdup("an axis");
}

gboolean verify_claim_design(const Experiment *exp, const Claim *claim, VerifyDesign *d, const char **key,
                             GError **error)
{
        memset(d, 0, sizeof *d);
        *key = NULL;
        if (experiment_selector_unavailable(exp, claim->faster) || experiment_selector_unavailable(exp, claim->slower))
                return TRUE;
        g_autoptr(GPtrArray) machines = g_ptr_array_new_with_free_func(g_free);
        claim_machines(claim, machines);
        g_autoptr(Table) t = design_table(exp, machines);
        Pairing pg;
        if (!pairing_build(claim, t, exp->path, G_MAXUINT, &pg, error)) {
                *key = "faster";
                return FALSE;
        }
        const char *sels[] = { claim->faster, claim->slower };
        const char *keys[] = { "faster", "slower" };
        gboolean ok = TRUE;
        g_autofree char *envs = env_list(exp);
        if (claim->where && pg.any[0] + pg.any[1] && !pg.kept[0] && !pg.kept[1])
                ok = design_fail(error, key, "where", "'%s' keeps none of the cells faster and slower select",
                                 claim->where);
        for (int s = 0; s < 2 && ok; s++)
                if (claim->where && pg.any[s] && !pg.kept[s])
                        ok = design_fail(error, key, "where", "'%s' keeps none of the cells %s=%s selects",
                                         claim->where, keys[s], sels[s]);
        for (int s = 0; s < 2 && ok; s++)
                if (!pg.any[s])
                        ok = design_fail(error, key, keys[s], "'%s' selects no cell where this file runs (%s)",
                                         sels[s], envs);
        if (ok && pg.kept[0] && !pg.differ)
                ok = design_fail(error, key, "slower", "'%s' selects the same cells as faster=%s: nothing to compare",
                                 claim->slower, claim->faster);
        int side = ok ? pairing_unmeasured_side(&pg) : -1;
        if (side >= 0)
                ok = design_fail(error, key, "metric", "no cell that %s=%s selects measures %s (%s do)", keys[side],
                                 sels[side], claim->metric, metric_cells(pg.m));
        if (ok && !pg.pf->len) {
                g_autofree char *why = pg.fast->len && pg.slow->len ? pairing_blocker(&pg) : g_strdup("an axis");
                ok = design_fail(error, key, "slower",
                                 "'%s' pairs with nothing: no cell it selects agrees with a cell faster=%s "
                                 "selects on the axes neither names (they differ in %s)",
                                 claim->slower, claim->faster, why);
        }
        if (ok) {
                d->pairs = pg.pf->len;
                d->unpaired = pg.unpaired;
                if (exp->repeat_decide && exp->n_looks) {
                        d->looks = exp->n_looks;
                        d->reps = exp->looks[exp->n_looks - 1];
                } else {
                        d->looks = 1;
                        d->reps = exp->repeat_auto ? MIN(2 * exp->repeat, exp->repeat_max) : exp->repeat;
                }
                d->level_holds = 1 - VERIFY_ALPHA / d->looks;
                d->level_fails = 1 - VERIFY_ALPHA / (d->looks * d->pairs);
                d->need_holds = (guint) stats_ratio_ci_reps(d->level_holds);
                d->need_fails = (guint) stats_ratio_ci_reps(d->level_fails);
                d->reach = stats_ratio_ci_reach(d->reps, d->reps);
                d->can_hold = verify_reaches(d->reach, d->level_holds);
                d->can_fail = verify_reaches(d->reach, d->level_fails);
        }
        pairing_clear(&pg);
        return ok;
}

/* verify.h */
GPtrArray *verify_design_pairs(const Experiment *exp, const Claim *claim)
{
        GPtrArray *out = g_ptr_array_new_with_free_func(g_free);

        if (experiment_selector_unavailable(exp, claim->faster) || experiment_selector_unavailable(exp, claim->slower))
                return out;
        /* In file order (the cells' index), not as seed= shuffled them. */
        g_autoptr(GPtrArray) cells = experiment_cells_in_file_order(exp);
        Experiment in_order = *exp;
        in_order.cells = cells;
        g_autoptr(GPtrArray) machines = g_ptr_array_new_with_free_func(g_free);
        claim_machines(claim, machines);
        g_autoptr(Table) t = design_table(&in_order, machines);
        Pairing pg;
        if (!pairing_build(claim, t, exp->path, G_MAXUINT, &pg, NULL))
                return out;
        for (guint p = 0; p < pg.pf->len; p++) {
                const VCell *fc = pg.fast->pdata[g_array_index(pg.pf, guint, p)];
                const VCell *sc = pg.slow->pdata[g_array_index(pg.ps, guint, p)];
                g_autofree char *f = vcell_describe(fc, pg.axis_col, pg.env_col, pg.machines);
                g_autofree char *sl = vcell_describe(sc, pg.axis_col, pg.env_col, pg.machines);
                g_ptr_array_add(out, g_strdup_printf("%s  vs  %s", f, sl));
        }
        pairing_clear(&pg);
        return out;
}

/* "repeat=6", or what repeat=auto is sure of. */
static char *design_reps_text(const VerifyDesign *d)
{
        if (d->looks > 1)
                return g_strdup_printf("%u repetitions at the last of %u looks, each at alpha/%u", d->reps,
                                       d->looks, d->looks);
        return g_strdup_printf("%u repetitions a cell", d->reps);
}

char *verify_design_refusal(const VerifyDesign *d)
{
        if (!d->pairs || (d->can_hold && d->can_fail))
                return NULL;
        g_autofree char *reps = design_reps_text(d);
        g_autofree char *reach = verify_format_coverage(d->reach, false);
        g_autofree char *lh = verify_format_coverage(d->level_holds, false);
        g_autofree char *lf = verify_format_coverage(d->level_fails, false);
        guint need = MAX(d->need_holds, d->need_fails);
        if (!d->can_hold)
                return g_strdup_printf("cannot be decided with %s (%u and %u reach %s): holding needs each of its "
                                       "%u pairs' intervals at %s, %u repetitions a side; failing needs one at "
                                       "%s, %u; give the cells %u", reps, d->reps, d->reps, reach, d->pairs, lh,
                                       d->need_holds, lf, d->need_fails, need);
        return g_strdup_printf("cannot fail with %s (%u and %u reach %s): failing needs one of its %u pairs' "
                               "intervals at 1 - 0.05/%u%s = %s, %u repetitions a side; give the cells %u, or ask "
                               "it over fewer pairs", reps, d->reps, d->reps, reach, d->pairs,
                               d->pairs * d->looks, d->looks > 1 ? " (pairs x looks)" : "", lf, d->need_fails,
                               d->need_fails);
}

char *verify_design_describe(const VerifyDesign *d)
{
        if (!d->pairs)
                return g_strdup("not checked here (a transport it names cannot run on this machine)");
        g_autofree char *lh = verify_format_coverage(d->level_holds, false);
        g_autofree char *lf = verify_format_coverage(d->level_fails, false);
        g_autofree char *reps = design_reps_text(d);
        g_autofree char *unpaired = d->unpaired ? g_strdup_printf(" (%u faster cells without a partner)",
                                                                  d->unpaired) : g_strdup("");
        return g_strdup_printf("%u pairs%s; holding needs %u repetitions a side (every pair at %s), failing "
                               "%u (a pair at %s); %s: %s", d->pairs, unpaired, d->need_holds, lh, d->need_fails,
                               lf, reps,
                               d->can_hold && d->can_fail ? "can hold or fail"
                               : d->can_hold ? "can hold, cannot fail"
                               : d->can_fail ? "can fail, cannot hold" : "can neither hold nor fail");
}

/* ---- Names and numbers for the paper ------------------------------------ */

char *verify_macro_name(const char *claim)
{
        static const char *const digits[] = { "Zero", "One", "Two", "Three", "Four",
                                              "Five", "Six", "Seven", "Eight", "Nine" };
        GString *s = g_string_new(NULL);
        bool up = true;

        for (const char *p = claim; *p; p++) {
                if (g_ascii_isalpha(*p)) {
                        g_string_append_c(s, up ? g_ascii_toupper(*p) : *p);
                        up = false;
                } else if (g_ascii_isdigit(*p)) {
                        g_string_append(s, digits[*p - '0']);
                        up = true;
                } else {
                        up = true;
                }
        }
        return g_string_free(s, FALSE);
}
/* The number written in BUF with its integer digits grouped by three,
 * "\\," between groups, from five digits on. */
static char *group_digits(const char *buf)
{
        const char *digits = buf[0] == '-' || buf[0] == '+' ? buf + 1 : buf;
        size_t ilen = strcspn(digits, ".");
        if (ilen < 5)
                return g_strdup(buf);
        GString *s = g_string_new_len(buf, digits - buf);
        for (size_t i = 0; i < ilen; i++) {
                if (i && (ilen - i) % 3 == 0)
                        g_string_append(s, "\\,");
                g_string_append_c(s, digits[i]);
        }
        g_string_append(s, digits + ilen);
        return g_string_free(s, FALSE);
}

char *verify_format_number(double x)
{
        char buf[64];

        if (isnan(x))
                return g_strdup("--");
        if (fabs(x) < 100) {
                g_ascii_formatd(buf, sizeof buf, "%.3g", x);
                x = g_ascii_strtod(buf, NULL);
        }
        double a = fabs(x);
        if (a >= 100)
                g_ascii_formatd(buf, sizeof buf, "%.0f", x);
        else if (a >= 10)
                g_ascii_formatd(buf, sizeof buf, "%.1f", x);
        else if (a >= 1)
                g_ascii_formatd(buf, sizeof buf, "%.2f", x);
        else if (a == 0)
                g_strlcpy(buf, "0", sizeof buf);
        else {
                int e = 0;
                for (double t = a; t < 1; t *= 10)
                        e--;
                g_autofree char *f = g_strdup_printf("%%.%df", 2 - e);
                g_ascii_formatd(buf, sizeof buf, f, x);
        }
        return group_digits(buf);
}

char *verify_format_digits(double x, int digits)
{
        char buf[64];

        if (digits < 0 || isnan(x))
                return verify_format_number(x);
        g_autofree char *f = g_strdup_printf("%%.%df", digits);
        return g_strdup(g_ascii_formatd(buf, sizeof buf, f, x));
}

char *verify_format_written(const char *s)
{
        char *end;

        if (!s || !s[0] || !strcmp(s, "-"))
                return g_strdup("--");
        double x = g_ascii_strtod(s, &end);
        if (*end || !isfinite(x) || strchr(s, 'e') || strchr(s, 'E') || !strchr("+-.0123456789", s[0]))
                return NULL;
        return group_digits(s);
}

/* ---- The command -------------------------------------------------------- */

typedef struct {
        const Experiment *exp;
        const Claim *claim;
        VerifyResult res[2];   /* this data, the reproduction */
        bool have_repro;
        bool missing[2];       /* no samples.tsv */
        char *prov[2];         /* where meta.ini says the samples came from
                                * something else (a profile), or NULL */
} Row;

static void row_clear(Row *r)
{
        verify_result_clear(&r->res[0]);
        verify_result_clear(&r->res[1]);
        g_free(r->prov[0]);
        g_free(r->prov[1]);
}

/* The pair that decides R (verify.h) and the interval that shows it: the
 * fails-level one for a claim that fails, else the holds-level one.
 * NULL when there is none. */
static const VerifyPair *decisive_pair(const VerifyResult *r, const char **role, double *lo, double *hi,
                                       double *cov)
{
        if (r->decisive < 0 || !r->pairs || (guint) r->decisive >= r->pairs->len)
                return NULL;
        const VerifyPair *p = &g_array_index(r->pairs, VerifyPair, r->decisive);
        bool fails = r->verdict == VERIFY_FAILS;
        *role = r->verdict == VERIFY_HOLDS ? "weakest" : "blocking";
        *lo = fails ? p->fail_lo : p->lo;
        *hi = fails ? p->fail_hi : p->hi;
        *cov = fails ? p->fail_coverage : p->coverage;
        return p;
}

/* "blocking 2 KiB count=1000: 2.35 [0.94, 2.42] 95.9%", or for a claim of
 * one pair its interval alone; "-" without data. */
char *verify_decisive_text(const VerifyResult *r)
{
        const char *role;
        double lo, hi, cov;
        const VerifyPair *p = decisive_pair(r, &role, &lo, &hi, &cov);

        if (!p)
                return g_strdup("-");
        if (r->min_reps == 1) {
                char s[32];
                format_one(s, sizeof s, p->ratio);
                return g_strdup_printf("%s%s%s%s (one repetition: no interval)", r->pairs->len > 1 ? role : "",
                                       r->pairs->len > 1 ? " " : "", p->label, s);
        }
        g_autofree char *iv = format_interval_cov(p->ratio, lo, hi, cov);
        if (r->pairs->len == 1)
                return g_steal_pointer(&iv);
        return g_strdup_printf("%s %s: %s", role, p->label, iv);
}

/* "27/28": pairs that hold, of all. */
static char *clear_text(const VerifyResult *r)
{
        if (r->verdict == VERIFY_NO_DATA || !r->pairs)
                return g_strdup("-");
        return g_strdup_printf("%u/%u", r->clear, r->pairs->len);
}

static char *ratio_text(const VerifyResult *r)
{
        char s[32];

        if (r->verdict == VERIFY_NO_DATA || isnan(r->ratio))
                return g_strdup("-");
        format_one(s, sizeof s, r->ratio);
        return g_strdup(s);
}

/* A TSV field: tabs and newlines become spaces; empty or NULL is "-". */
static void tsv_field(GString *out, const char *s, bool first)
{
        if (!first)
                g_string_append_c(out, '\t');
        if (!s || !s[0]) {
                g_string_append_c(out, '-');
                return;
        }
        for (const char *p = s; *p; p++)
                g_string_append_c(out, (*p == '\t' || *p == '\n' || *p == '\r') ? ' ' : *p);
}

static void tsv_number(GString *out, double v)
{
        char buf[G_ASCII_DTOSTR_BUF_SIZE];

        if (isnan(v))
                g_string_append(out, "\t-");
        else
                g_string_append_printf(out, "\t%s", g_ascii_formatd(buf, sizeof buf, "%.6g", v));
}

static void tsv_result(GString *out, const VerifyResult *r, bool present)
{
        if (!present) {
                g_string_append(out, "\t-\t-\t-\t-\t-\t-\t-");
                return;
        }
        tsv_field(out, verify_verdict_name(r->verdict), false);
        tsv_number(out, r->ratio);
        tsv_number(out, r->lo);
        tsv_number(out, r->hi);
        g_string_append_printf(out, "\t%u", r->pairs ? r->pairs->len : 0);
        if (r->verdict == VERIFY_NO_DATA)
                g_string_append(out, "\t-");
        else
                g_string_append_printf(out, "\t%u", r->min_reps);
        tsv_field(out, r->note, false);
}

/* Every pair as "FASTER vs SLOWER: RATIO [LO, HI] COVERAGE VERDICT[,
 * reversed]", separated by " | ", then the reversed pairs (or "-"). */
static void tsv_pairs(GString *out, const VerifyResult *r, bool present)
{
        if (!present || !r->pairs || !r->pairs->len) {
                g_string_append(out, "\t-\t-");
                return;
        }
        g_autoptr(GString) s = g_string_new(NULL);
        char b[3][G_ASCII_DTOSTR_BUF_SIZE];
        for (guint p = 0; p < r->pairs->len; p++) {
                const VerifyPair *pr = &g_array_index(r->pairs, VerifyPair, p);
                g_autofree char *cov = verify_format_coverage(pr->coverage, false);
                g_string_append_printf(s, "%s%s vs %s: %s [%s, %s] %s %s%s", p ? " | " : "", pr->faster, pr->slower,
                                       g_ascii_formatd(b[0], sizeof b[0], "%.6g", pr->ratio),
                                       g_ascii_formatd(b[1], sizeof b[1], "%.6g", pr->lo),
                                       g_ascii_formatd(b[2], sizeof b[2], "%.6g", pr->hi), cov,
                                       verify_verdict_name(pr->verdict), pr->reversed ? ", reversed" : "");
        }
        tsv_field(out, s->str, false);
        tsv_field(out, r->reversed, false);
}

/* The columns added with issue 22: the combined interval's coverage, the
 * pairs that hold, the deciding pair, the look. */
static void tsv_more(GString *out, const VerifyResult *r, bool present)
{
        if (!present || r->verdict == VERIFY_NO_DATA) {
                g_string_append(out, "\t-\t-\t-\t-");
                return;
        }
        tsv_number(out, r->coverage);
        g_string_append_printf(out, "\t%u", r->clear);
        g_autofree char *d = verify_decisive_text(r);
        tsv_field(out, d, false);
        g_string_append_printf(out, "\t%u/%u", r->look, r->n_looks);
}

static char *table_tsv(const GArray *rows)
{
        GString *out = g_string_new("experiment\tclaim\ttext\tmetric\tby\tfaster\tslower\twhere"
                                    "\tpublished\tpublished_ratio\tpublished_lo\tpublished_hi"
                                    "\tpublished_pairs\tpublished_min_reps\tpublished_note"
                                    "\treproduced\treproduced_ratio\treproduced_lo\treproduced_hi"
                                    "\treproduced_pairs\treproduced_min_reps\treproduced_note"
                                    "\tpublished_pair_ratios\tpublished_reversed"
                                    "\treproduced_pair_ratios\treproduced_reversed"
                                    "\tpublished_coverage\tpublished_clear\tpublished_decisive\tpublished_look"
                                    "\treproduced_coverage\treproduced_clear\treproduced_decisive\treproduced_look\n");

        for (guint i = 0; i < rows->len; i++) {
                const Row *r = &g_array_index(rows, Row, i);
                tsv_field(out, r->exp->name, true);
                tsv_field(out, r->claim->name, false);
                tsv_field(out, r->claim->text, false);
                tsv_field(out, r->claim->metric, false);
                tsv_number(out, r->claim->by);
                tsv_field(out, r->claim->faster, false);
                tsv_field(out, r->claim->slower, false);
                tsv_field(out, r->claim->where, false);
                tsv_result(out, &r->res[0], true);
                tsv_result(out, &r->res[1], r->have_repro);
                tsv_pairs(out, &r->res[0], true);
                tsv_pairs(out, &r->res[1], r->have_repro);
                tsv_more(out, &r->res[0], true);
                tsv_more(out, &r->res[1], r->have_repro);
                g_string_append_c(out, '\n');
        }
        return g_string_free(out, FALSE);
}

/* ---- The paper's table and macros --------------------------------------- */

/* S escaped for LaTeX, with a permitted line break before each '-', '_',
 * '.' and '=' and after each '/': names in typewriter type, which LaTeX
 * never hyphenates, would otherwise run into the margin.  (Before, not
 * after, a '-': text extraction takes a line that ends in '-' for a
 * hyphenated word and drops the '-', and the name would not be found.) */
static char *tex_breakable(const char *s)
{
        GString *out = g_string_new(NULL);

        for (const char *p = s; *p; p++) {
                char one[2] = { *p, 0 };
                g_autofree char *e = render_latex_escape(one);
                if (strchr("-_.=", *p) && p != s)
                        g_string_append(out, "\\allowbreak{}");
                g_string_append(out, e);
                if (*p == '/' && p[1])
                        g_string_append(out, "\\allowbreak{}");
        }
        return g_string_free(out, FALSE);
}

/* "2.35 [0.94, 2.42] (95.9\,\%)" in the paper's number format. */
static char *tex_interval(double ratio, double lo, double hi, double cov, bool with_cov)
{
        g_autofree char *r = verify_format_number(ratio), *l = verify_format_number(lo);
        g_autofree char *h = verify_format_number(hi), *c = verify_format_coverage(cov, true);
        return with_cov ? g_strdup_printf("%s [%s, %s] (%s)", r, l, h, c) : g_strdup_printf("%s [%s, %s]", r, l, h);
}

/* The deciding pair for the paper: "blocking: LABEL 2.35 [...] (95.9\,\%)";
 * for a claim of one pair the interval alone.  NULL without one. */
static char *tex_decisive(const VerifyResult *r, bool cite)
{
        const char *role;
        double lo, hi, cov;
        const VerifyPair *p = decisive_pair(r, &role, &lo, &hi, &cov);

        if (!p)
                return NULL;
        g_autofree char *label = render_latex_escape(p->label);
        g_autofree char *iv = NULL;
        if (r->min_reps == 1) {
                g_autofree char *x = verify_format_number(p->ratio);
                iv = g_strdup_printf("%s (one repetition: no interval)", x);
        } else {
                iv = tex_interval(p->ratio, lo, hi, cov, true);
        }
        if (r->pairs->len == 1)
                return g_steal_pointer(&iv);
        return g_strdup_printf("%s%s %s: %s", role, cite ? " pair" : "", label, iv);
}

/* The verdict cell of one side of a claim, for the table. */
static char *tex_result(const Row *row, int side)
{
        const VerifyResult *r = &row->res[side];
        GString *s = g_string_new(NULL);

        if (row->missing[side]) {
                g_string_append(s, side ? "not reproduced" : "no data");
                return g_string_free(s, FALSE);
        }
        const char *v = verify_verdict_name(r->verdict);
        if (r->verdict == VERIFY_FAILS)
                g_string_append_printf(s, "\\textbf{%s}", v);
        else
                g_string_append(s, v);
        if (r->verdict == VERIFY_NO_DATA)
                return g_string_free(s, FALSE);
        guint np = r->pairs->len;
        g_autofree char *by = g_strdup_printf("%g", row->claim->by);
        if (np > 1) {
                g_autofree char *ratio = verify_format_number(r->ratio);
                g_string_append_printf(s, ": %u of %u pairs clear %s; ratio %s", r->clear, np, by, ratio);
        }
        g_autofree char *d = tex_decisive(r, false);
        if (d)
                g_string_append_printf(s, "\\newline %s", d);
        bool any = false;
        for (guint p = 0; p < np; p++) {
                const VerifyPair *pair = &g_array_index(r->pairs, VerifyPair, p);
                if (!pair->reversed || (np == 1 && d))
                        continue;
                g_autofree char *label = render_latex_escape(pair->label);
                g_autofree char *iv = tex_interval(pair->ratio, pair->lo, pair->hi, pair->coverage, true);
                g_string_append_printf(s, "%s%s %s", any ? "; " : "\\newline reversed: ", label, iv);
                any = true;
        }
        if (np == 1 && r->pairs->len && g_array_index(r->pairs, VerifyPair, 0).reversed)
                g_string_append(s, "\\newline reversed");
        if (r->n_looks > 1)
                g_string_append_printf(s, "\\newline %s at look %u of %u (%u repetitions)",
                                       r->verdict == VERIFY_INCONCLUSIVE ? "undecided" : "decided", r->look,
                                       r->n_looks, r->look_reps);
        if (row->prov[side]) {
                g_autofree char *p = render_latex_escape(row->prov[side]);
                g_string_append_printf(s, "\\newline \\emph{%s}", p);
        }
        return g_string_free(s, FALSE);
}

/* The claims table of the paper (and of the reviewer's report): a
 * longtable, which breaks across pages and repeats its head, so that no
 * claim is ever lost; the line above it (its caption) says how to read a
 * ratio and the rule. */
static char *latex_table(const GArray *rows, bool have_repro)
{
        GString *out = g_string_new("% Generated by `ipclab verify --latex`: the claims table; do not edit.\n");
        int ncol = have_repro ? 4 : 3;
        const char *head = have_repro ? "Claim & Metric & This data & Reproduction \\\\\n"
                                      : "Claim & Metric & This data \\\\\n";

        g_string_append(out, "\\begingroup\\small\n\\setlength{\\LTpre}{\\smallskipamount}\\setlength{\\LTpost}{0pt}"
                        "\\setlength{\\LTcapwidth}{\\linewidth}\n");
        g_string_append_printf(out, "\\begin{longtable}{@{}"
                               ">{\\raggedright\\arraybackslash}p{%s\\linewidth}"
                               ">{\\raggedright\\arraybackslash}p{%s\\linewidth}"
                               ">{\\raggedright\\arraybackslash}p{\\dimexpr %s\\linewidth-%d\\tabcolsep\\relax}%s@{}}\n",
                               have_repro ? "0.25" : "0.36", have_repro ? "0.15" : "0.17",
                               have_repro ? "0.29" : "0.47", have_repro ? 6 : 4,
                               have_repro ? ">{\\raggedright\\arraybackslash}p{0.31\\linewidth}" : "");
        g_string_append_printf(out,
                "\\caption{The claims of the experiment files, checked by \\texttt{ipclab verify} on this "
                "data (the committed \\texttt{data/})%s.  A pair's ratio above 1 points the claim's way: the "
                "slower cell's value over the faster one's for times and costs (\\texttt{elapsed}, "
                "\\texttt{roundtrip\\_latency}, \\texttt{cpu}), the faster one's over the slower one's for rates "
                "(\\texttt{throughput}, \\texttt{callrate}).  A claim over $K$ pairs \\emph{holds} when every "
                "pair's 95\\,\\%% interval lies at or above its factor, \\emph{fails} when some pair's "
                "$1-0.05/K$ interval lies wholly below it, and is \\emph{inconclusive} otherwise; the weakest "
                "pair (of a claim that holds) or the blocking one is shown with its interval and the coverage "
                "that interval reaches, and every reversed pair (95\\,\\%% interval below 1) is named.}"
                "\\label{tab:claims}\\\\\n",
                have_repro ? " and on the reproduction" : "");
        g_string_append_printf(out, "\\toprule\n%s\\midrule\n\\endfirsthead\n", head);
        g_string_append_printf(out, "\\multicolumn{%d}{@{}l}{\\footnotesize Table~\\thetable, continued}\\\\\n"
                               "\\toprule\n%s\\midrule\n\\endhead\n", ncol, head);
        g_string_append_printf(out, "\\midrule\n\\multicolumn{%d}{@{}r@{}}{\\footnotesize continued on the next page}\\\\\n"
                               "\\endfoot\n\\bottomrule\n\\endlastfoot\n", ncol);
        if (!rows->len)
                g_string_append_printf(out, "\\multicolumn{%d}{@{}l}{No experiment file states a claim.}\\\\\n", ncol);
        for (guint i = 0; i < rows->len; i++) {
                const Row *r = &g_array_index(rows, Row, i);
                g_autofree char *text = render_latex_escape(r->claim->text);
                g_autofree char *where = r->claim->where ? render_latex_escape(r->claim->where) : NULL;
                g_autofree char *full = g_strdup_printf("%s/%s", r->exp->name, r->claim->name);
                g_autofree char *name = tex_breakable(full);
                g_autofree char *metric = tex_breakable(r->claim->metric);
                g_autofree char *by = g_strdup_printf("%g", r->claim->by);
                g_autofree char *d = tex_result(r, 0);
                g_autofree char *rep = have_repro ? tex_result(r, 1) : NULL;
                g_string_append_printf(out, "%s%s%s%s\\newline{\\footnotesize\\ttfamily %s} & "
                                       "\\texttt{%s}, by %s\\newline{\\footnotesize ratio %s} & %s%s%s \\\\%s\n",
                                       text, where ? " (where " : "", where ? where : "", where ? ")" : "",
                                       name, metric, by, metric_direction(r->claim->metric), d,
                                       have_repro ? " & " : "", have_repro ? rep : "",
                                       i + 1 < rows->len ? "\\addlinespace[3pt]" : "");
        }
        g_string_append(out, "\\end{longtable}\n\\endgroup\n");
        return g_string_free(out, FALSE);
}

/* The macros of --macros (verify.h), for this data. */
static char *macros_tex(const GArray *rows, GError **error)
{
        g_autoptr(GString) out = g_string_new("% Generated by `ipclab verify --macros`: the verdict and ratio of every claim.\n");
        g_autoptr(GHashTable) seen = g_hash_table_new_full(g_str_hash, g_str_equal, g_free, NULL);

        for (guint i = 0; i < rows->len; i++) {
                const Row *r = &g_array_index(rows, Row, i);
                const VerifyResult *d = &r->res[0];
                g_autofree char *name = verify_macro_name(r->claim->name);
                const char *other = g_hash_table_lookup(seen, name);
                if (other) {
                        g_set_error(error, IPCLAB_ERROR, IPCLAB_ERROR_INPUT,
                                    "--macros: claims %s and %s both give the macro name %s", other,
                                    r->claim->name, name);
                        return NULL;
                }
                g_hash_table_insert(seen, g_strdup(name), r->claim->name);
                g_autofree char *ratio = verify_format_number(d->ratio);
                g_autofree char *lo = verify_format_number(d->lo);
                g_autofree char *hi = verify_format_number(d->hi);
                g_string_append_printf(out, "%% %s/%s\n", r->exp->name, r->claim->name);
                g_string_append_printf(out, "\\newcommand{\\ClaimVerdict%s}{%s}\n", name,
                                       verify_verdict_name(d->verdict));
                g_string_append_printf(out, "\\newcommand{\\ClaimRatio%s}{%s}\n", name, ratio);
                g_string_append_printf(out, "\\newcommand{\\ClaimLo%s}{%s}\n", name, lo);
                g_string_append_printf(out, "\\newcommand{\\ClaimHi%s}{%s}\n", name, hi);
                g_autofree char *dec = d->verdict == VERIFY_NO_DATA ? NULL : tex_decisive(d, true);
                g_autofree char *by = g_strdup_printf("%g", r->claim->by);
                if (!dec)
                        g_string_append_printf(out, "\\newcommand{\\ClaimInterval%s}{--}\n", name);
                else if (d->pairs->len == 1)
                        g_string_append_printf(out, "\\newcommand{\\ClaimInterval%s}{%s}\n", name, dec);
                else
                        g_string_append_printf(out, "\\newcommand{\\ClaimInterval%s}{%u of %u pairs clear %s; %s}\n",
                                               name, d->clear, d->pairs->len, by, dec);
        }
        return g_string_free(g_steal_pointer(&out), FALSE);
}

/* Where DIR/meta.ini says the samples came from something else than EXP:
 * another version of the file, or a profile.  NULL when nothing to say. */
static char *provenance_note(const Experiment *exp, const char *dir)
{
        g_autofree char *path = g_build_filename(dir, "meta.ini", NULL);
        g_autoptr(GKeyFile) kf = safefile_key_file(path, NULL);
        g_autoptr(GString) s = g_string_new(NULL);

        if (!kf)
                return NULL;
        g_autofree char *sha = g_key_file_get_string(kf, "experiment", "sha256", NULL);
        g_autofree char *config = g_key_file_get_string(kf, "experiment", "config_sha256", NULL);
        g_autofree char *profile = g_key_file_get_string(kf, "experiment", "profile", NULL);
        bool default_profile = !profile || strcmp(profile, "default") == 0;
        /* Another version means another measurement: the file's bytes may
         * differ (a title, a comment, a claim) and the data still be its. */
        g_autofree char *want = config ? experiment_config_sha256(exp) : NULL;
        if (config ? default_profile && strcmp(config, want) != 0 : sha && strcmp(sha, exp->sha256) != 0)
                note_add(s, "measured from another version of %s", exp->path);
        if (profile && strcmp(profile, "default") != 0)
                note_add(s, "measured with profile %s (less work than the file asks: informative only)", profile);
        return s->len ? g_strdup(s->str) : NULL;
}

static GPtrArray *default_experiments(GError **error)
{
        g_autoptr(GDir) d = g_dir_open("experiments", 0, error);
        GPtrArray *files = g_ptr_array_new_with_free_func(g_free);
        const char *name;

        if (!d) {
                g_ptr_array_unref(files);
                return NULL;
        }
        while ((name = g_dir_read_name(d)))
                if (g_str_has_suffix(name, ".ini"))
                        g_ptr_array_add(files, g_build_filename("experiments", name, NULL));
        return files;
}

static int compare_paths(gconstpointer a, gconstpointer b)
{
        return strcmp(*(char *const *) a, *(char *const *) b);
}

/* ---- --stability -------------------------------------------------------- */

/* How often a rerun of N repetitions a cell reaches verdict REF: DRAWS
 * times, every cell of the claim gets N rows drawn with replacement from
 * its rows in T (failed ones included, so failures recur as often), and
 * the claim is evaluated with one look.  COUNTS[v] counts the draws of
 * verdict v. */
static gboolean stability_claim(const Claim *claim, const Table *t, const char *path, guint n, guint draws,
                                StatsRng *rng, guint counts[4], GError **error)
{
        g_autoptr(GError) e = NULL;
        g_autoptr(Selector) fs = select_parse(claim->faster, SELECT_AXES, &e);
        g_autoptr(Selector) ss = fs ? select_parse(claim->slower, SELECT_AXES, &e) : NULL;
        if (!ss) {
                g_set_error(error, IPCLAB_ERROR, IPCLAB_ERROR_INPUT, "claim %s: %s", claim->name, e->message);
                return FALSE;
        }
        int key_col[16];
        guint n_key = 0;
        for (guint i = 0; samples_axis_columns[i] && n_key < G_N_ELEMENTS(key_col); i++)
                if ((key_col[n_key] = table_column(t, samples_axis_columns[i])) >= 0)
                        n_key++;
        /* The rows of each cell either side selects. */
        g_autoptr(GHashTable) by_key = g_hash_table_new_full(g_str_hash, g_str_equal, g_free,
                                                             (GDestroyNotify) g_ptr_array_unref);
        g_autoptr(GPtrArray) cells = g_ptr_array_new();
        for (guint r = 0; r < t->rows->len; r++) {
                char **row = t->rows->pdata[r];
                if (!select_row(fs, t, row) && !select_row(ss, t, row))
                        continue;
                g_autoptr(GString) key = g_string_new(NULL);
                for (guint i = 0; i < n_key; i++)
                        g_string_append_printf(key, "%s\t", row[key_col[i]]);
                GPtrArray *c = g_hash_table_lookup(by_key, key->str);
                if (!c) {
                        c = g_ptr_array_new();
                        g_hash_table_insert(by_key, g_strdup(key->str), c);
                        g_ptr_array_add(cells, c);
                }
                g_ptr_array_add(c, row);
        }
        for (guint d = 0; d < draws; d++) {
                Table view = { .columns = t->columns, .n_columns = t->n_columns,
                               .rows = g_ptr_array_sized_new(cells->len * n) };
                for (guint c = 0; c < cells->len; c++) {
                        const GPtrArray *rows = cells->pdata[c];
                        for (guint k = 0; k < n; k++)
                                g_ptr_array_add(view.rows, rows->pdata[stats_rng_below(rng, rows->len)]);
                }
                VerifyResult r;
                gboolean ok = verify_claim_table(claim, &view, path, &r, error);
                g_ptr_array_unref(view.rows);
                if (!ok)
                        return FALSE;
                counts[r.verdict]++;
                verify_result_clear(&r);
        }
        return TRUE;
}

/* "6,10,15,20" into NS (at most MAX); 0 when malformed. */
static guint parse_counts(const char *s, guint *ns, guint max)
{
        g_auto(GStrv) parts = g_strsplit(s, ",", -1);
        guint n = 0;

        for (guint i = 0; parts[i]; i++) {
                char *end;
                guint64 v = g_ascii_strtoull(g_strstrip(parts[i]), &end, 10);
                if (*end || v < 1 || v > 1000 || n == max)
                        return 0;
                ns[n++] = (guint) v;
        }
        return n;
}

static int stability(const GArray *rows, const char *data_dir, const guint *ns, guint n_ns, guint draws,
                     const char *tsv)
{
        g_autoptr(GString) out = g_string_new("experiment\tclaim\tverdict\treps");
        g_autoptr(GPtrArray) lines = g_ptr_array_new_with_free_func(g_free);
        g_autoptr(GError) e = NULL;
        int w_exp = (int) strlen("EXPERIMENT"), w_claim = (int) strlen("CLAIM");

        for (guint k = 0; k < n_ns; k++)
                g_string_append_printf(out, "\tagree_n%u\ttwo_agree_n%u\tholds_n%u\tinconclusive_n%u\tfails_n%u",
                                       ns[k], ns[k], ns[k], ns[k], ns[k]);
        g_string_append_c(out, '\n');
        for (guint i = 0; i < rows->len; i++) {
                const Row *r = &g_array_index(rows, Row, i);
                w_exp = MAX(w_exp, (int) strlen(r->exp->name));
                w_claim = MAX(w_claim, (int) strlen(r->claim->name));
        }
        printf("%-*s  %-*s  %-12s  %4s", w_exp, "EXPERIMENT", w_claim, "CLAIM", "THIS DATA", "REPS");
        for (guint k = 0; k < n_ns; k++) {
                g_autofree char *h = g_strdup_printf("N=%u: SAME TWO (H/I/F)", ns[k]);
                printf("  %-26s", h);
        }
        printf("\n");
        for (guint i = 0; i < rows->len; i++) {
                const Row *r = &g_array_index(rows, Row, i);
                const VerifyResult *ref = &r->res[0];
                g_autofree char *dir = g_build_filename(data_dir, r->exp->name, NULL);
                g_autofree char *path = g_build_filename(dir, "samples.tsv", NULL);
                g_string_append_printf(out, "%s\t%s\t%s\t", r->exp->name, r->claim->name,
                                       verify_verdict_name(ref->verdict));
                if (r->missing[0] || ref->verdict == VERIFY_NO_DATA) {
                        printf("%-*s  %-*s  %-12s\n", w_exp, r->exp->name, w_claim, r->claim->name,
                               verify_verdict_name(ref->verdict));
                        g_string_append(out, "-");
                        for (guint k = 0; k < n_ns; k++)
                                g_string_append(out, "\t-\t-\t-\t-\t-");
                        g_string_append_c(out, '\n');
                        continue;
                }
                printf("%-*s  %-*s  %-12s  %4u", w_exp, r->exp->name, w_claim, r->claim->name,
                       verify_verdict_name(ref->verdict), ref->min_reps);
                g_string_append_printf(out, "%u", ref->min_reps);
                g_autoptr(Table) t = samples_table_read(path, &e);
                if (!t) {
                        fprintf(stderr, "\nipclab: verify: %s\n", e->message);
                        return EXIT_USAGE;
                }
                for (guint k = 0; k < n_ns; k++) {
                        guint counts[4] = { 0 };
                        StatsRng rng;
                        /* One fixed seed per claim and N: the same data
                         * give the same table, whatever else is asked. */
                        stats_rng_init(&rng, g_str_hash(r->claim->name) * 1000003u + ns[k]);
                        if (!stability_claim(r->claim, t, path, ns[k], draws, &rng, counts, &e)) {
                                fprintf(stderr, "\nipclab: verify: %s\n", e->message);
                                return EXIT_USAGE;
                        }
                        double agree = 100.0 * counts[ref->verdict] / draws, two = 0;
                        for (int v = 0; v < 4; v++)
                                two += (double) counts[v] * counts[v] / ((double) draws * draws);
                        g_autofree char *c = g_strdup_printf("%3.0f%% %3.0f%% (%.0f/%.0f/%.0f)", agree, 100 * two,
                                                             100.0 * counts[VERIFY_HOLDS] / draws,
                                                             100.0 * counts[VERIFY_INCONCLUSIVE] / draws,
                                                             100.0 * counts[VERIFY_FAILS] / draws);
                        printf("  %-26s", c);
                        fflush(stdout);
                        char b[G_ASCII_DTOSTR_BUF_SIZE];
                        g_string_append_printf(out, "\t%s", g_ascii_formatd(b, sizeof b, "%.4f", agree / 100));
                        g_string_append_printf(out, "\t%s", g_ascii_formatd(b, sizeof b, "%.4f", two));
                        for (int v = VERIFY_HOLDS; v <= VERIFY_FAILS; v++)
                                g_string_append_printf(out, "\t%s",
                                                       g_ascii_formatd(b, sizeof b, "%.4f", (double) counts[v] / draws));
                }
                printf("\n");
                g_string_append_c(out, '\n');
        }
        printf("\nN=n: of %u reruns of n repetitions a cell, drawn with replacement from this data's repetitions\n"
               "of each cell (failed ones too) and evaluated with one look: SAME, the share that reach this\n"
               "data's verdict; TWO, the chance that two such reruns reach the same verdict (the sum of the\n"
               "squared shares: a paper measured with n repetitions and its reviewer's rerun); then the shares\n"
               "that hold, are inconclusive and fail.  Drawing more repetitions than REPS repeats the measured\n"
               "ones: the spread between them is all a draw can show, so the figures at n above REPS are an\n"
               "optimistic guess, and a rerun on a busier or quieter machine differs more.\n", draws);
        if (tsv) {
                int rc = samples_write_atomic(tsv, out->str, out->len);
                if (rc < 0) {
                        fprintf(stderr, "ipclab: verify: cannot write %s: %s\n", tsv, g_strerror(-rc));
                        return EXIT_FAILED;
                }
        }
        return 0;
}

/* ---- ipclab verify ------------------------------------------------------ */

static void count_verdict(guint counts[4], const VerifyResult *r)
{
        counts[r->verdict]++;
}

static void print_counts(const char *what, const guint counts[4])
{
        printf("%s: %u hold, %u inconclusive, %u fail, %u no data\n", what, counts[VERIFY_HOLDS],
               counts[VERIFY_INCONCLUSIVE], counts[VERIFY_FAILS], counts[VERIFY_NO_DATA]);
}

/* Writes TEXT to PATH atomically; the exit status. */
static int write_out(const char *path, const char *text)
{
        int r = samples_write_atomic(path, text, strlen(text));
        if (r < 0) {
                fprintf(stderr, "ipclab: verify: cannot write %s: %s\n", path, g_strerror(-r));
                return EXIT_FAILED;
        }
        return 0;
}

int verify_command(int argc, char **argv)
{
        g_autofree char *data = NULL, *repro = NULL, *tsv = NULL, *macros = NULL, *latex = NULL, *stab = NULL,
                        *require = NULL;
        gboolean show_pairs = FALSE;
        gint draws = 200;
        GOptionEntry entries[] = {
                { "data", 'd', 0, G_OPTION_ARG_FILENAME, &data,
                  "This data: DIR/<experiment>/samples.tsv (default: data)", "DIR" },
                { "repro", 'r', 0, G_OPTION_ARG_FILENAME, &repro,
                  "Also evaluate the reproduction in DIR (e.g. build/repro)", "DIR" },
                { "tsv", 't', 0, G_OPTION_ARG_FILENAME, &tsv,
                  "Also write the table as TSV to FILE (atomically)", "FILE" },
                { "macros", 'm', 0, G_OPTION_ARG_FILENAME, &macros,
                  "Also write LaTeX macros of every claim's verdict and ratio to FILE (atomically)", "FILE" },
                { "latex", 'l', 0, G_OPTION_ARG_FILENAME, &latex,
                  "Also write the paper's claims table (a LaTeX longtable) to FILE (atomically)", "FILE" },
                { "pairs", 'p', 0, G_OPTION_ARG_NONE, &show_pairs,
                  "Show the pairs of claims over one pair too (those over several always are)", NULL },
                { "stability", 's', 0, G_OPTION_ARG_STRING, &stab,
                  "Instead: how often reruns of N repetitions a cell, drawn from this data, reach its verdict",
                  "N,N..." },
                { "draws", 0, 0, G_OPTION_ARG_INT, &draws, "With --stability: draws per claim and N (default 200)",
                  "D" },
                { "require", 0, 0, G_OPTION_ARG_STRING, &require,
                  "Exit 1 unless every claim holds (holds) or every claim is decided, holds or fails "
                  "(decided); without it, exit 1 only when a claim fails", "holds|decided" },
                G_OPTION_ENTRY_NULL
        };
        g_autoptr(GOptionContext) ctx = g_option_context_new(
                "[EXPERIMENT.ini...] - evaluate every claim on the data and on a reproduction");
        g_autoptr(GError) e = NULL;

        g_option_context_add_main_entries(ctx, entries, NULL);
        g_option_context_set_description(ctx,
                "Without files, every experiments/*.ini.  A pair's ratio above 1 points the claim's way\n"
                "(slower/faster for times and costs, faster/slower for rates).  A claim over K pairs holds\n"
                "when every pair's 95% interval lies at or above its factor `by`, fails when some pair's\n"
                "1 - 0.05/K interval lies wholly below it, and is inconclusive otherwise (data measured in\n"
                "L looks, repeat_until=decided: each look at 0.05/L).\n"
                "Exit status: 0 no claim fails, 1 a claim fails, 2 bad usage or bad input; with\n"
                "--require holds, 1 also when a claim is inconclusive or has no data; with --require\n"
                "decided, 1 when a claim is inconclusive or has no data (a claim that fails is decided).\n");
        if (!g_option_context_parse(ctx, &argc, &argv, &e)) {
                fprintf(stderr, "ipclab: %s\n", e->message);
                return EXIT_USAGE;
        }
        guint ns[16], n_ns = 0;
        if (stab && !(n_ns = parse_counts(stab, ns, G_N_ELEMENTS(ns)))) {
                fprintf(stderr, "ipclab: verify: --stability '%s': give repetition counts from 1 to 1000, "
                        "such as 6,10,15,20\n", stab);
                return EXIT_USAGE;
        }
        if (require && strcmp(require, "holds") && strcmp(require, "decided")) {
                fprintf(stderr, "ipclab: verify: --require '%s': give holds or decided\n", require);
                return EXIT_USAGE;
        }
        if (draws < 1 || draws > 100000) {
                fprintf(stderr, "ipclab: verify: --draws %d: give 1 to 100000\n", draws);
                return EXIT_USAGE;
        }
        const char *data_dir = data ? data : "data";
        if (!g_file_test(data_dir, G_FILE_TEST_IS_DIR)) {
                fprintf(stderr, "ipclab: verify: %s is not a directory\n", data_dir);
                return EXIT_USAGE;
        }
        if (repro && !g_file_test(repro, G_FILE_TEST_IS_DIR)) {
                fprintf(stderr, "ipclab: verify: --repro %s is not a directory\n", repro);
                return EXIT_USAGE;
        }

        g_autoptr(GPtrArray) files = NULL;
        if (argc > 1) {
                files = g_ptr_array_new_with_free_func(g_free);
                for (int i = 1; i < argc; i++)
                        g_ptr_array_add(files, g_strdup(argv[i]));
        } else {
                files = default_experiments(&e);
                if (!files) {
                        fprintf(stderr, "ipclab: verify: no experiment files given and %s\n", e->message);
                        return EXIT_USAGE;
                }
                g_ptr_array_sort(files, compare_paths);
                if (!files->len) {
                        fprintf(stderr, "ipclab: verify: no experiments/*.ini\n");
                        return EXIT_USAGE;
                }
        }

        /* Load and evaluate everything before printing anything.  Loading
         * refuses claims that cannot mean anything or cannot be decided
         * (verify.h): exit 2. */
        g_autoptr(GPtrArray) exps = g_ptr_array_new_with_free_func((GDestroyNotify) experiment_free);
        for (guint i = 0; i < files->len; i++) {
                Experiment *exp = experiment_load(files->pdata[i], NULL, &e);
                if (!exp && strstr(e->message, "no cell can run here")) {
                        /* a tool this machine lacks: reported, not fatal */
                        fprintf(stderr, "ipclab: verify: %s: cannot run here, its claims are left out\n",
                                e->message);
                        g_clear_error(&e);
                        continue;
                }
                if (!exp) {
                        fprintf(stderr, "ipclab: %s\n", e->message);
                        return EXIT_USAGE;
                }
                g_ptr_array_add(exps, exp);
        }
        g_autoptr(GArray) rows = g_array_new(FALSE, TRUE, sizeof(Row));
        g_array_set_clear_func(rows, (GDestroyNotify) row_clear);
        g_autoptr(GPtrArray) notes = g_ptr_array_new_with_free_func(g_free);
        const char *which[] = { "this data", "reproduction" };
        for (guint i = 0; i < exps->len; i++) {
                const Experiment *exp = exps->pdata[i];
                char *dirs[2] = { g_build_filename(data_dir, exp->name, NULL),
                                  repro ? g_build_filename(repro, exp->name, NULL) : NULL };
                bool missing[2] = { false, false };
                char *prov[2] = { NULL, NULL };
                for (int k = 0; k < (repro ? 2 : 1); k++) {
                        g_autofree char *tsvp = g_build_filename(dirs[k], "samples.tsv", NULL);
                        missing[k] = !g_file_test(tsvp, G_FILE_TEST_EXISTS);
                        prov[k] = provenance_note(exp, dirs[k]);
                        if (exp->claims->len && missing[k])
                                g_ptr_array_add(notes, g_strdup_printf("%s, %s: %s (%s does not exist)", exp->name,
                                                                       which[k], k ? "not reproduced" : "no data", tsvp));
                        if (exp->claims->len && prov[k])
                                g_ptr_array_add(notes, g_strdup_printf("%s, %s: %s", exp->name, which[k], prov[k]));
                }
                gboolean ok = TRUE;
                for (guint c = 0; c < exp->claims->len && ok; c++) {
                        Row row = { .exp = exp, .claim = exp->claims->pdata[c], .have_repro = repro != NULL,
                                    .missing = { missing[0], missing[1] },
                                    .prov = { g_strdup(prov[0]), g_strdup(prov[1]) } };
                        ok = verify_claim_dir(row.claim, dirs[0], &row.res[0], &e);
                        if (ok && repro)
                                ok = verify_claim_dir(row.claim, dirs[1], &row.res[1], &e);
                        g_array_append_val(rows, row);
                }
                for (int k = 0; k < 2; k++) {
                        g_free(dirs[k]);
                        g_free(prov[k]);
                }
                if (!ok) {
                        fprintf(stderr, "ipclab: %s: %s\n", exp->path, e->message);
                        return EXIT_USAGE;
                }
        }
        if (n_ns)
                return stability(rows, data_dir, ns, n_ns, (guint) draws, tsv);

        /* The table, its notes and the tally. */
        const char *head[] = { "EXPERIMENT", "CLAIM", "METRIC", "BY", "THIS DATA", "PAIRS", "RATIO",
                               "WEAKEST OR BLOCKING PAIR", "REPRODUCTION", "PAIRS", "RATIO",
                               "WEAKEST OR BLOCKING PAIR" };
        int ncol = repro ? 12 : 8;
        g_autoptr(GPtrArray) cellv = g_ptr_array_new_with_free_func(g_free);
        int width[12];
        for (int k = 0; k < ncol; k++)
                width[k] = (int) strlen(head[k]);
        for (guint i = 0; i < rows->len; i++) {
                const Row *r = &g_array_index(rows, Row, i);
                char *v[12] = {
                        g_strdup(r->exp->name), g_strdup(r->claim->name), g_strdup(r->claim->metric),
                        g_strdup_printf("%g", r->claim->by),
                        g_strdup(verify_verdict_name(r->res[0].verdict)), clear_text(&r->res[0]),
                        ratio_text(&r->res[0]), verify_decisive_text(&r->res[0]),
                        repro ? g_strdup(r->missing[1] ? "-" : verify_verdict_name(r->res[1].verdict)) : NULL,
                        repro ? clear_text(&r->res[1]) : NULL, repro ? ratio_text(&r->res[1]) : NULL,
                        repro ? verify_decisive_text(&r->res[1]) : NULL,
                };
                for (int k = 0; k < ncol; k++) {
                        width[k] = MAX(width[k], (int) strlen(v[k]));
                        g_ptr_array_add(cellv, v[k]);
                }
        }
        for (int k = 0; k < ncol; k++)
                printf("%-*s%s", k == ncol - 1 ? 0 : width[k], head[k], k == ncol - 1 ? "\n" : "  ");
        for (guint i = 0; i < rows->len; i++)
                for (int k = 0; k < ncol; k++)
                        printf("%-*s%s", k == ncol - 1 ? 0 : width[k], (char *) cellv->pdata[i * ncol + k],
                               k == ncol - 1 ? "\n" : "  ");
        if (!rows->len)
                printf("(no claims in these experiment files)\n");

        guint counts[2][4] = { { 0 } };
        bool printed_notes = false;
        for (guint i = 0; i < rows->len; i++) {
                const Row *r = &g_array_index(rows, Row, i);
                count_verdict(counts[0], &r->res[0]);
                if (r->have_repro)
                        count_verdict(counts[1], &r->res[1]);
                for (int k = 0; k < (r->have_repro ? 2 : 1); k++) {
                        const VerifyResult *res = &r->res[k];
                        if (r->missing[k])
                                continue;
                        bool list = res->pairs && (res->pairs->len > 1 || (show_pairs && res->pairs->len));
                        if (res->note || list) {
                                if (!printed_notes)
                                        printf("\n");
                                printed_notes = true;
                                printf("%s/%s, %s:%s%s\n", r->exp->name, r->claim->name, which[k],
                                       res->note ? " " : "", res->note ? res->note : "");
                        }
                        if (!list)
                                continue;
                        bool two = res->level_fails > res->level_holds + 1e-12;
                        for (guint p = 0; p < res->pairs->len; p++) {
                                const VerifyPair *pr = &g_array_index(res->pairs, VerifyPair, p);
                                g_autofree char *rs = format_interval_cov(pr->ratio, pr->lo, pr->hi, pr->coverage);
                                g_autofree char *fs = two ? format_interval_cov(pr->ratio, pr->fail_lo, pr->fail_hi,
                                                                                pr->fail_coverage) : NULL;
                                printf("    %s (n=%u) vs %s (n=%u): %s%s%s %s%s\n", pr->faster, pr->n_faster,
                                       pr->slower, pr->n_slower, rs, two ? "; to fail: " : "", two ? fs : "",
                                       verify_verdict_name(pr->verdict), pr->reversed ? ", reversed" : "");
                        }
                }
        }
        for (guint i = 0; i < notes->len; i++) {
                if (!printed_notes)
                        printf("\n");
                printed_notes = true;
                printf("%s\n", (char *) notes->pdata[i]);
        }
        printf("\n");
        print_counts(which[0], counts[0]);
        if (repro)
                print_counts(which[1], counts[1]);
        g_autofree char *lower = metric_claim_list_by(BETTER_LOWER);
        g_autofree char *higher = metric_claim_list_by(BETTER_HIGHER);
        printf("a ratio above 1 points the claim's way: slower/faster for times and costs (%s), faster/slower "
               "for rates (%s)\n", lower, higher);
        printf("holds: every pair's 95%% interval lies at or above BY; fails: some pair's 1 - 0.05/K interval "
               "lies wholly below BY (K pairs); inconclusive: neither; reversed: a pair's 95%% interval lies "
               "below 1; every interval is given with the coverage it reaches\n");

        g_autofree char *mtext = NULL;
        if (macros) {
                g_autoptr(GError) me = NULL;
                mtext = macros_tex(rows, &me);
                if (!mtext) {
                        fprintf(stderr, "ipclab: verify: %s\n", me->message);
                        return EXIT_USAGE;
                }
        }
        int rc = 0;
        if (macros)
                rc = MAX(rc, write_out(macros, mtext));
        if (tsv) {
                g_autofree char *text = table_tsv(rows);
                rc = MAX(rc, write_out(tsv, text));
        }
        if (latex) {
                g_autofree char *text = latex_table(rows, repro != NULL);
                rc = MAX(rc, write_out(latex, text));
        }
        if (rc)
                return rc;
        if (require) {
                /* What is short of the requirement, on every data set. */
                bool holds = !strcmp(require, "holds");
                guint shortfall = 0;
                for (int k = 0; k < (repro ? 2 : 1); k++)
                        shortfall += counts[k][VERIFY_INCONCLUSIVE] + counts[k][VERIFY_NO_DATA] +
                                     (holds ? counts[k][VERIFY_FAILS] : 0);
                printf("required (--require %s): every claim %s%s: %s\n", require,
                       holds ? "holds" : "decided (holds or fails)", repro ? ", on both" : "",
                       shortfall ? "not met" : "met");
                return shortfall ? EXIT_FAILED : 0;
        }
        return counts[0][VERIFY_FAILS] || counts[1][VERIFY_FAILS] ? EXIT_FAILED : 0;
}
