/* verify.c: claims checked against measured samples (see verify.h).
 *
 * The evaluation functions are pure (verify_claim_dir only reads one
 * file); verify_command, the `ipclab verify` command, is the only place
 * that prints.
 */
#include "verify.h"

#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "columns.h"
#include "safefile.h"
#include "select.h"
#include "stats.h"

#define EXIT_FAILED 1
#define EXIT_USAGE 2

/* ---- Axes, selectors and filters ---------------------------------------- */

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
        { &column_table[COL_COUNT], KIND_COUNT, true },
        { &column_table[COL_DURATION_NS], KIND_DURATION, true },
        /* Last, so that a pair's description names it last. */
        { &column_table[COL_MACHINE], KIND_TEXT, true },
};
/* Every axis of the schema but env, which comes first there. */
_Static_assert(G_N_ELEMENTS(axes) == COL_DURATION_NS - COL_ENV, "an axis of columns.h is missing here");

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

static void pair_clear(VerifyPair *p)
{
        g_free(p->faster);
        g_free(p->slower);
}

void verify_result_clear(VerifyResult *result)
{
        if (result->pairs)
                g_array_unref(result->pairs);
        g_free(result->note);
        g_free(result->reversed);
        memset(result, 0, sizeof *result);
}

/* ---- Evaluation --------------------------------------------------------- */

typedef enum {
        METRIC_ROUNDTRIP_LATENCY,
        METRIC_ELAPSED,
        METRIC_CPU,
        METRIC_THROUGHPUT,
        METRIC_CALLRATE,
} Metric;

static const struct {
        const char *name;
        bool higher_is_better;
        const Column *columns[7]; /* what the metric reads in samples.tsv, NULL-ended */
} metrics[] = {
        [METRIC_ROUNDTRIP_LATENCY] = { "roundtrip_latency", false, { &column_table[COL_LAT_P50_NS] } },
        [METRIC_ELAPSED] = { "elapsed", false, { &column_table[COL_ELAPSED_NS] } },
        [METRIC_CPU] = { "cpu", false, { &column_table[COL_CLIENT_CPU_NS], &column_table[COL_SERVER_CPU_NS],
                                         &column_table[COL_BUS_CPU_NS], &column_table[COL_MESSAGES] } },
        [METRIC_THROUGHPUT] = { "throughput", true, { &column_table[COL_BYTES_B], &column_table[COL_ELAPSED_NS] } },
        [METRIC_CALLRATE] = { "callrate", true, { &column_table[COL_MESSAGES], &column_table[COL_ELAPSED_NS] } },
};

/* Does a cell of pattern PATTERN ("oneway", "roundtrip", "callrate")
 * measure metric M (verify.h)? */
static bool metric_applies(Metric m, const char *pattern)
{
        switch (m) {
        case METRIC_ROUNDTRIP_LATENCY:
                return !strcmp(pattern, "roundtrip");
        case METRIC_THROUGHPUT:
                return !strcmp(pattern, "oneway") || !strcmp(pattern, "roundtrip");
        case METRIC_CALLRATE:
                return !strcmp(pattern, "callrate");
        case METRIC_ELAPSED:
        case METRIC_CPU:
                return true;
        }
        return false;
}

/* Which cells measure M, for messages. */
static const char *metric_cells(Metric m)
{
        switch (m) {
        case METRIC_ROUNDTRIP_LATENCY:
                return "only round-trip cells";
        case METRIC_THROUGHPUT:
                return "only one-way and round-trip cells";
        case METRIC_CALLRATE:
                return "only pattern=callrate cells";
        default:
                return "every cell";
        }
}

static int metric_find(const char *name)
{
        for (size_t i = 0; i < G_N_ELEMENTS(metrics); i++)
                if (!strcmp(metrics[i].name, name))
                        return (int) i;
        return -1;
}

/* "2.04 [1.88, 2.19]": two decimals from 0.1 to 100, else two significant
 * figures or none. */
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

static char *format_interval(double ratio, double lo, double hi)
{
        char s[3][32];

        format_one(s[0], sizeof s[0], ratio);
        format_one(s[1], sizeof s[1], lo);
        format_one(s[2], sizeof s[2], hi);
        return g_strdup_printf("%s [%s, %s]", s[0], s[1], s[2]);
}

/* A measured number, or NAN for "-" or anything malformed. */
static double field_number(const char *s)
{
        char *end;

        if (!s[0] || !strcmp(s, "-"))
                return NAN;
        double v = g_ascii_strtod(s, &end);
        return *end ? NAN : v;
}

/* The metric of one row from its columns' fields F (in metrics[].columns
 * order); NAN when not measured. */
static double metric_value(Metric m, const char *const *f)
{
        switch (m) {
        case METRIC_ROUNDTRIP_LATENCY:
        case METRIC_ELAPSED:
                return field_number(f[0]);
        case METRIC_CPU: {
                double sum = field_number(f[0]);
                /* In-process: no server; no bus in the path: no bus CPU. */
                for (int i = 1; i < 3; i++)
                        if (strcmp(f[i], "-") != 0)
                                sum += field_number(f[i]);
                double msgs = field_number(f[3]);
                return msgs > 0 ? sum / msgs : NAN;
        }
        case METRIC_THROUGHPUT:
        case METRIC_CALLRATE: {
                double el = field_number(f[1]);
                return el > 0 ? field_number(f[0]) / el : NAN;
        }
        }
        return NAN;
}

/* A cell of samples.tsv: rows with the same axis values. */
typedef struct {
        char **row;          /* its first row, for the axis values */
        GArray *values;      /* double: the metric of each ok repetition that has it */
        guint failed;        /* rows whose status is not ok */
        guint unmeasured;    /* ok rows without the metric */
        bool nonpositive;    /* some value <= 0 */
} VCell;

static void vcell_free(VCell *c)
{
        g_array_unref(c->values);
        g_free(c);
}

/* The NAME of machine=NAME in selector SEL, or NULL. */
static char *selector_machine(const char *sel)
{
        g_auto(GStrv) parts = g_strsplit(sel ? sel : "", ",", -1);

        for (guint i = 0; parts[i]; i++) {
                char *p = g_strstrip(parts[i]);
                if (g_str_has_prefix(p, "machine") && strchr(p, '=')) {
                        char *k = g_strndup(p, (gsize) (strchr(p, '=') - p));
                        bool is = !strcmp(g_strstrip(k), "machine");
                        g_free(k);
                        if (is)
                                return g_strdup(g_strstrip(strchr(p, '=') + 1));
                }
        }
        return NULL;
}

/* "pipe bytes 64B roundtrip reply=echo count=1000": the axis values that
 * apply, defaults (array marshalling, unpinned, host) left out, and the
 * machine only when SAMPLES holds more than one. */
static char *vcell_describe(const VCell *c, const int *axis_col, const Table *samples)
{
        GString *s = g_string_new(NULL);
        int env_col = table_column(samples, column_table[COL_ENV].name),
            machine_col = table_column(samples, column_table[COL_MACHINE].name);
        bool machines = false;

        for (guint r = 1; machine_col >= 0 && r < samples->rows->len && !machines; r++)
                machines = strcmp(((char **) samples->rows->pdata[r])[machine_col],
                                  ((char **) samples->rows->pdata[0])[machine_col]) != 0;
        for (size_t a = 0; a < G_N_ELEMENTS(axes); a++) {
                const char *v = c->row[axis_col[a]];
                if (!strcmp(v, "-") || (axes[a].column == &column_table[COL_MACHINE] && !machines) ||
                    (axes[a].column == &column_table[COL_MARSHAL] && !strcmp(v, "array")) ||
                    (axes[a].column == &column_table[COL_CPUS] && !strcmp(v, "none")))
                        continue;
                if (s->len)
                        g_string_append_c(s, ' ');
                if (axes[a].labelled)
                        g_string_append_printf(s, "%s=", axes[a].column->key);
                g_string_append(s, v);
                if (axes[a].kind == KIND_SIZE)
                        g_string_append_c(s, 'B');
                else if (axes[a].kind == KIND_DURATION)
                        g_string_append(s, "ns");
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

static void result_no_data(VerifyResult *result, GString *note)
{
        result->verdict = VERIFY_NO_DATA;
        result->ratio = result->lo = result->hi = NAN;
        result->note = note->len ? g_strdup(note->str) : NULL;
}

gboolean verify_claim_table(const Claim *claim, const Table *samples, const char *path,
                            VerifyResult *result, GError **error)
{
        g_autoptr(GError) e = NULL;

        memset(result, 0, sizeof *result);
        result->pairs = g_array_new(FALSE, TRUE, sizeof(VerifyPair));
        g_array_set_clear_func(result->pairs, (GDestroyNotify) pair_clear);
        result->ratio = result->lo = result->hi = NAN;

        int m = metric_find(claim->metric);
        if (m < 0) {
                g_set_error(error, IPCLAB_ERROR, IPCLAB_ERROR_INPUT, "claim %s: unknown metric '%s'",
                            claim->name, claim->metric);
                return FALSE;
        }
        g_autoptr(Selector) fast_sel = select_parse(claim->faster, SELECT_AXES, &e);
        g_autoptr(Selector) slow_sel = fast_sel ? select_parse(claim->slower, SELECT_AXES, &e) : NULL;
        g_autoptr(Selector) where = slow_sel ? select_parse(claim->where, SELECT_AXES, &e) : NULL;
        if (!where) {
                g_set_error(error, IPCLAB_ERROR, IPCLAB_ERROR_INPUT, "claim %s: %s", claim->name, e->message);
                return FALSE;
        }

        /* Columns: the axes, the status, the metric's inputs. */
        int axis_col[G_N_ELEMENTS(axes)], key_col[16], metric_col[7];
        guint n_key = 0, n_metric = 0;
        int status_col = table_column(samples, column_table[COL_STATUS].name);
        int pattern_col = table_column(samples, column_table[COL_PATTERN].name);
        for (size_t a = 0; a < G_N_ELEMENTS(axes); a++)
                axis_col[a] = table_column(samples, axes[a].column->name);
        for (guint i = 0; samples_axis_columns[i] && n_key < G_N_ELEMENTS(key_col); i++)
                key_col[n_key++] = table_column(samples, samples_axis_columns[i]);
        for (guint i = 0; metrics[m].columns[i]; i++)
                metric_col[n_metric++] = table_column(samples, metrics[m].columns[i]->name);
        const char *missing = status_col < 0 ? column_table[COL_STATUS].name : NULL;
        for (size_t a = 0; a < G_N_ELEMENTS(axes) && !missing; a++)
                if (axis_col[a] < 0)
                        missing = axes[a].column->name;
        for (guint i = 0; i < n_key && !missing; i++)
                if (key_col[i] < 0)
                        missing = samples_axis_columns[i];
        for (guint i = 0; i < n_metric && !missing; i++)
                if (metric_col[i] < 0)
                        missing = metrics[m].columns[i]->name;
        if (missing) {
                g_set_error(error, IPCLAB_ERROR, IPCLAB_ERROR_INPUT, "%s: no column %s", path, missing);
                return FALSE;
        }

        /* Group the rows into cells, in first-seen order. */
        g_autoptr(GHashTable) by_key = g_hash_table_new_full(g_str_hash, g_str_equal, g_free, NULL);
        g_autoptr(GPtrArray) cells = g_ptr_array_new_with_free_func((GDestroyNotify) vcell_free);
        for (guint r = 0; r < samples->rows->len; r++) {
                char **row = samples->rows->pdata[r];
                g_autoptr(GString) key = g_string_new(NULL);
                for (guint i = 0; i < n_key; i++)
                        g_string_append_printf(key, "%s\t", row[key_col[i]]);
                VCell *c = g_hash_table_lookup(by_key, key->str);
                if (!c) {
                        c = g_new0(VCell, 1);
                        c->row = row;
                        c->values = g_array_new(FALSE, FALSE, sizeof(double));
                        g_ptr_array_add(cells, c);
                        g_hash_table_insert(by_key, g_strdup(key->str), c);
                }
                if (strcmp(row[status_col], "ok") != 0) {
                        c->failed++;
                        continue;
                }
                const char *f[7];
                for (guint i = 0; i < n_metric; i++)
                        f[i] = row[metric_col[i]];
                double v = metric_value((Metric) m, f);
                if (isnan(v) || isinf(v)) {
                        c->unmeasured++;
                        continue;
                }
                c->nonpositive |= !(v > 0);
                g_array_append_val(c->values, v);
        }

        /* The faster and slower cells, and the axes either one names. */
        bool named[G_N_ELEMENTS(axes)] = { 0 };
        for (size_t a = 0; a < G_N_ELEMENTS(axes); a++)
                named[a] = select_names_column(fast_sel, axes[a].column->name) ||
                           select_names_column(slow_sel, axes[a].column->name);
        g_autoptr(GPtrArray) fast = g_ptr_array_new(), slow = g_ptr_array_new();
        g_autoptr(GString) note = g_string_new(NULL);
        guint failed_rows = 0, unmeasured_rows = 0, empty_cells = 0, nonpositive_cells = 0, both = 0;
        guint not_measuring = 0, selected[2] = { 0 }, unmeasuring[2] = { 0 };
        for (guint i = 0; i < cells->len; i++) {
                VCell *c = cells->pdata[i];
                bool is_fast = select_row(fast_sel, samples, c->row);
                bool is_slow = select_row(slow_sel, samples, c->row);
                if ((!is_fast && !is_slow) || !select_row(where, samples, c->row))
                        continue;
                selected[0] += is_fast;
                selected[1] += is_slow;
                if (!metric_applies((Metric) m, c->row[pattern_col])) {
                        not_measuring++;
                        unmeasuring[0] += is_fast;
                        unmeasuring[1] += is_slow;
                        continue;
                }
                failed_rows += c->failed;
                unmeasured_rows += c->unmeasured;
                if (c->values->len == 0) {
                        empty_cells++;
                        continue;
                }
                if (c->nonpositive) {
                        nonpositive_cells++;
                        continue;
                }
                both += is_fast && is_slow;
                if (is_fast)
                        g_ptr_array_add(fast, c);
                if (is_slow)
                        g_ptr_array_add(slow, c);
        }
        if (failed_rows)
                note_add(note, "%u failed repetitions left out", failed_rows);
        if (unmeasured_rows)
                note_add(note, "%u repetitions without %s left out", unmeasured_rows, claim->metric);
        if (empty_cells)
                note_add(note, "%u cells without a measured repetition", empty_cells);
        if (nonpositive_cells)
                note_add(note, "%u cells with a %s <= 0 left out", nonpositive_cells, claim->metric);
        if (both)
                note_add(note, "%u cells match both selectors", both);
        if (not_measuring)
                note_add(note, "%u cells that do not measure %s (%s do) left out", not_measuring,
                         claim->metric, metric_cells((Metric) m));
        const char *sel_key[] = { "faster", "slower" };
        for (int s = 0; s < 2; s++)
                if (selected[s] && unmeasuring[s] == selected[s]) {
                        g_set_error(error, IPCLAB_ERROR, IPCLAB_ERROR_INPUT,
                                    "claim %s: %s=%s: no cell it selects measures %s (%s do)", claim->name,
                                    sel_key[s], s ? claim->slower : claim->faster, claim->metric,
                                    metric_cells((Metric) m));
                        return FALSE;
                }

        /* Pairs: equal on every axis column neither selector names (env
         * too), where the axis applies to both. */
        g_autoptr(GArray) pair_fast = g_array_new(FALSE, FALSE, sizeof(guint));
        g_autoptr(GArray) pair_slow = g_array_new(FALSE, FALSE, sizeof(guint));
        guint unpaired = 0;
        for (guint f = 0; f < fast->len; f++) {
                VCell *fc = fast->pdata[f];
                bool paired = false;
                for (guint s = 0; s < slow->len; s++) {
                        VCell *sc = slow->pdata[s];
                        bool same = sc != fc;
                        for (guint k = 0; k < n_key && same; k++) {
                                bool skip = false;
                                for (size_t a = 0; a < G_N_ELEMENTS(axes); a++)
                                        skip |= named[a] && axis_col[a] == key_col[k];
                                /* "-" (does not apply, e.g. the reply of a
                                 * one-way cell) constrains nothing. */
                                const char *fv = fc->row[key_col[k]], *sv = sc->row[key_col[k]];
                                same = skip || !strcmp(fv, sv) || !strcmp(fv, "-") || !strcmp(sv, "-");
                        }
                        if (!same)
                                continue;
                        g_array_append_val(pair_fast, f);
                        g_array_append_val(pair_slow, s);
                        paired = true;
                }
                unpaired += !paired;
        }
        if (unpaired)
                note_add(note, "%u faster cells without a slower partner", unpaired);
        if (pair_fast->len == 0) {
                if (!fast->len)
                        note_add(note, "no measured cell matches faster=%s%s%s", claim->faster,
                                 claim->where ? " where " : "", claim->where ? claim->where : "");
                else if (!slow->len)
                        note_add(note, "no measured cell matches slower=%s%s%s", claim->slower,
                                 claim->where ? " where " : "", claim->where ? claim->where : "");
                else
                        note_add(note, "no slower cell agrees with a faster one on the other axes");
                result_no_data(result, note);
                return TRUE;
        }

        /* Each pair on its own (the ratio points from the worse value to
         * the better one), at 95% for its own verdict and at 1 - 0.05/k
         * for the claim's combined interval (verify.h). */
        guint np = pair_fast->len;
        bool higher = metrics[m].higher_is_better;
        double level_k = 1 - (1 - VERIFY_LEVEL) / np;
        g_autofree double *los = g_new(double, np), *his = g_new(double, np), *rs = g_new(double, np);
        double miss_k = 0;
        guint min_reps = G_MAXUINT, holding = 0, short_reps = 0;
        g_autoptr(GString) reversed = g_string_new(NULL);
        for (guint p = 0; p < np; p++) {
                VerifyPair pair = { 0 };
                VCell *fc = fast->pdata[g_array_index(pair_fast, guint, p)];
                VCell *sc = slow->pdata[g_array_index(pair_slow, guint, p)];
                const VCell *nc = higher ? fc : sc, *dc = higher ? sc : fc;
                double cov_k, r_k;
                pair.faster = vcell_describe(fc, axis_col, samples);
                pair.slower = vcell_describe(sc, axis_col, samples);
                pair.n_faster = fc->values->len;
                pair.n_slower = sc->values->len;
                const double *nv = (const double *) (gpointer) nc->values->data;
                const double *dv = (const double *) (gpointer) dc->values->data;
                int r = stats_ratio_ci(nv, nc->values->len, dv, dc->values->len, VERIFY_LEVEL,
                                       &pair.ratio, &pair.lo, &pair.hi, &pair.coverage);
                if (r == 0)
                        r = stats_ratio_ci(nv, nc->values->len, dv, dc->values->len, level_k, &r_k,
                                           &los[p], &his[p], &cov_k);
                if (r < 0) {
                        pair_clear(&pair);
                        g_set_error(error, IPCLAB_ERROR, IPCLAB_ERROR_INPUT, "claim %s: ratio: %s",
                                    claim->name, g_strerror(-r));
                        return FALSE;
                }
                rs[p] = pair.ratio;
                miss_k += 1 - cov_k;
                min_reps = MIN(min_reps, MIN(pair.n_faster, pair.n_slower));
                pair.verdict = verify_verdict(pair.lo, pair.hi, claim->by);
                if (pair.coverage < VERIFY_LEVEL) {
                        short_reps++;
                        if (pair.verdict != VERIFY_INCONCLUSIVE)
                                pair.verdict = VERIFY_INCONCLUSIVE;
                }
                holding += pair.verdict == VERIFY_HOLDS;
                pair.reversed = pair.hi < by_tolerant(1);
                if (pair.reversed) {
                        g_autofree char *rtxt = format_interval(pair.ratio, pair.lo, pair.hi);
                        g_string_append_printf(reversed, "%s%s vs %s %s", reversed->len ? "; " : "",
                                               pair.faster, pair.slower, rtxt);
                }
                g_array_append_val(result->pairs, pair);
        }
        result->ratio = stats_geometric_mean(rs, np);
        result->lo = stats_geometric_mean(los, np);
        result->hi = stats_geometric_mean(his, np);
        result->coverage = miss_k >= 1 ? 0 : 1 - miss_k;
        result->min_reps = min_reps;
        result->reversed = reversed->len ? g_strdup(reversed->str) : NULL;

        /* The verdict (verify.h): holds only when every pair holds; fails
         * when the combined interval lies below BY; else inconclusive. */
        if (holding == np)
                result->verdict = VERIFY_HOLDS;
        else if (result->coverage >= VERIFY_LEVEL && result->hi < by_tolerant(claim->by))
                result->verdict = VERIFY_FAILS;
        else
                result->verdict = VERIFY_INCONCLUSIVE;
        if (short_reps)
                note_add(note, "%u of %u pairs have too few repetitions for a 95%% interval "
                         "(fewest: %u): at best inconclusive", short_reps, np, min_reps);
        if (result->reversed)
                note_add(note, "reversed (the interval lies below 1): %s", result->reversed);
        else if (result->verdict == VERIFY_INCONCLUSIVE && np > 1 && holding < np && !short_reps)
                note_add(note, "%u of %u pairs hold", holding, np);
        result->note = note->len ? g_strdup(note->str) : NULL;
        return TRUE;
}

static gboolean check_fail(GError **error, const Experiment *exp, const Claim *claim, const char *key,
                           const char *fmt, ...) G_GNUC_PRINTF(5, 6);

static gboolean check_fail(GError **error, const Experiment *exp, const Claim *claim, const char *key,
                           const char *fmt, ...)
{
        va_list ap;
        g_autofree char *msg = NULL;

        va_start(ap, fmt);
        msg = g_strdup_vprintf(fmt, ap);
        va_end(ap);
        g_set_error(error, IPCLAB_ERROR, IPCLAB_ERROR_INPUT, "%s: [claim %s] %s: %s", exp->path,
                    claim->name, key, msg);
        return FALSE;
}

gboolean verify_claim_check(const Experiment *exp, const Claim *claim, GError **error)
{
        g_autoptr(GError) e = NULL;
        int m = metric_find(claim->metric);

        if (m < 0)
                return check_fail(error, exp, claim, "metric", "unknown metric '%s'", claim->metric);
        g_autoptr(Selector) where = select_parse(claim->where, SELECT_AXES, &e);
        if (!where)
                return check_fail(error, exp, claim, "where", "%s", e->message);
        g_autoptr(Selector) fast_sel = select_parse(claim->faster, SELECT_AXES, &e);
        if (!fast_sel)
                return check_fail(error, exp, claim, "faster", "%s", e->message);
        g_autoptr(Selector) slow_sel = select_parse(claim->slower, SELECT_AXES, &e);
        if (!slow_sel)
                return check_fail(error, exp, claim, "slower", "%s", e->message);
        const Selector *sel[] = { fast_sel, slow_sel };

        const char *sels[] = { claim->faster, claim->slower };
        const char *keys[] = { "faster", "slower" };
        guint any[2] = { 0 }, kept[2] = { 0 }, measuring[2] = { 0 }, differ = 0;
        for (guint i = 0; i < exp->cells->len; i++) {
                const Cell *cell = exp->cells->pdata[i];
                int in[2];
                for (int s = 0; s < 2; s++) {
                        in[s] = select_cell(sel[s], cell);
                        any[s] += (guint) in[s];
                }
                if (!select_cell(where, cell))
                        continue;
                differ += in[0] != in[1];
                for (int s = 0; s < 2; s++) {
                        kept[s] += (guint) in[s];
                        measuring[s] += in[s] && metric_applies((Metric) m, pattern_name(cell->pattern));
                }
        }
        if (claim->where && any[0] + any[1] && !kept[0] && !kept[1])
                return check_fail(error, exp, claim, "where", "'%s' keeps none of the cells faster and slower select",
                                  claim->where);
        for (int s = 0; s < 2; s++)
                if (claim->where && any[s] && !kept[s])
                        return check_fail(error, exp, claim, "where", "'%s' keeps none of the cells %s=%s selects",
                                          claim->where, keys[s], sels[s]);
        /* Cells alike but on two machines differ all the same. */
        g_autofree char *mf = selector_machine(claim->faster), *ms = selector_machine(claim->slower);
        if (kept[0] && !differ && g_strcmp0(mf, ms) == 0)
                return check_fail(error, exp, claim, "slower",
                                  "'%s' selects the same cells as faster=%s: nothing to compare",
                                  claim->slower, claim->faster);
        for (int s = 0; s < 2; s++)
                if (kept[s] && !measuring[s])
                        return check_fail(error, exp, claim, "metric",
                                          "no cell that %s=%s selects measures %s (%s do)", keys[s], sels[s],
                                          claim->metric, metric_cells((Metric) m));
        return TRUE;
}

gboolean verify_claim_dir(const Claim *claim, const char *dir, VerifyResult *result,
                          GError **error)
{
        g_autofree char *path = g_build_filename(dir, "samples.tsv", NULL);

        if (!g_file_test(path, G_FILE_TEST_EXISTS)) {
                g_autoptr(GString) note = g_string_new(NULL);
                note_add(note, "%s does not exist", path);
                memset(result, 0, sizeof *result);
                result->pairs = g_array_new(FALSE, TRUE, sizeof(VerifyPair));
                g_array_set_clear_func(result->pairs, (GDestroyNotify) pair_clear);
                result_no_data(result, note);
                return TRUE;
        }
        g_autoptr(Table) t = samples_table_read(path, error);
        if (!t) {
                memset(result, 0, sizeof *result);
                return FALSE;
        }
        return verify_claim_table(claim, t, path, result, error);
}

/* ---- The command -------------------------------------------------------- */

typedef struct {
        const Experiment *exp;
        const Claim *claim;
        VerifyResult data;
        VerifyResult repro;
        bool have_repro;
        bool missing[2];     /* no samples.tsv: published, reproduced */
} Row;

static void row_clear(Row *r)
{
        verify_result_clear(&r->data);
        verify_result_clear(&r->repro);
}

/* "2.04 [1.88, 2.19]", or "-". */
static char *format_ratio(const VerifyResult *r)
{
        if (r->verdict == VERIFY_NO_DATA)
                return g_strdup("-");
        if (r->min_reps == 1) {
                char s[32];
                format_one(s, sizeof s, r->ratio);
                return g_strdup_printf("%s [one repetition: no CI]", s);
        }
        return format_interval(r->ratio, r->lo, r->hi);
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

/* Every pair as "FASTER vs SLOWER: RATIO [LO, HI] VERDICT", separated by
 * " | ", then the reversed pairs (or "-"). */
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
                g_string_append_printf(s, "%s%s vs %s: %s [%s, %s] %s", p ? " | " : "", pr->faster, pr->slower,
                                       g_ascii_formatd(b[0], sizeof b[0], "%.6g", pr->ratio),
                                       g_ascii_formatd(b[1], sizeof b[1], "%.6g", pr->lo),
                                       g_ascii_formatd(b[2], sizeof b[2], "%.6g", pr->hi),
                                       verify_verdict_name(pr->verdict));
        }
        tsv_field(out, s->str, false);
        tsv_field(out, r->reversed, false);
}

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
        /* Group the integer digits by three from five digits on (lib.awk's
         * group). */
        const char *digits = buf[0] == '-' ? buf + 1 : buf;
        size_t ilen = strcspn(digits, ".");
        if (ilen < 5)
                return g_strdup(buf);
        GString *s = g_string_new(buf[0] == '-' ? "-" : "");
        for (size_t i = 0; i < ilen; i++) {
                if (i && (ilen - i) % 3 == 0)
                        g_string_append(s, "\\,");
                g_string_append_c(s, digits[i]);
        }
        g_string_append(s, digits + ilen);
        return g_string_free(s, FALSE);
}

/* The macros of --macros (verify.h), for the published data. */
static char *macros_tex(const GArray *rows, GError **error)
{
        g_autoptr(GString) out = g_string_new("% Generated by `ipclab verify --macros`: the verdict and ratio of every claim.\n");
        g_autoptr(GHashTable) seen = g_hash_table_new_full(g_str_hash, g_str_equal, g_free, NULL);

        for (guint i = 0; i < rows->len; i++) {
                const Row *r = &g_array_index(rows, Row, i);
                g_autofree char *name = verify_macro_name(r->claim->name);
                const char *other = g_hash_table_lookup(seen, name);
                if (other) {
                        g_set_error(error, IPCLAB_ERROR, IPCLAB_ERROR_INPUT,
                                    "--macros: claims %s and %s both give the macro name %s", other,
                                    r->claim->name, name);
                        return NULL;
                }
                g_hash_table_insert(seen, g_strdup(name), r->claim->name);
                g_autofree char *ratio = verify_format_number(r->data.ratio);
                g_autofree char *lo = verify_format_number(r->data.lo);
                g_autofree char *hi = verify_format_number(r->data.hi);
                g_string_append_printf(out, "%% %s/%s\n", r->exp->name, r->claim->name);
                g_string_append_printf(out, "\\newcommand{\\ClaimVerdict%s}{%s}\n", name,
                                       verify_verdict_name(r->data.verdict));
                g_string_append_printf(out, "\\newcommand{\\ClaimRatio%s}{%s}\n", name, ratio);
                g_string_append_printf(out, "\\newcommand{\\ClaimLo%s}{%s}\n", name, lo);
                g_string_append_printf(out, "\\newcommand{\\ClaimHi%s}{%s}\n", name, hi);
                if (r->data.verdict == VERIFY_NO_DATA)
                        g_string_append_printf(out, "\\newcommand{\\ClaimInterval%s}{--}\n", name);
                else
                        g_string_append_printf(out, "\\newcommand{\\ClaimInterval%s}{%s [%s, %s]}\n", name,
                                               ratio, lo, hi);
        }
        return g_string_free(g_steal_pointer(&out), FALSE);
}

static char *table_tsv(const GArray *rows)
{
        GString *out = g_string_new("experiment\tclaim\ttext\tmetric\tby\tfaster\tslower\twhere"
                                    "\tpublished\tpublished_ratio\tpublished_lo\tpublished_hi"
                                    "\tpublished_pairs\tpublished_min_reps\tpublished_note"
                                    "\treproduced\treproduced_ratio\treproduced_lo\treproduced_hi"
                                    "\treproduced_pairs\treproduced_min_reps\treproduced_note"
                                    "\tpublished_pair_ratios\tpublished_reversed"
                                    "\treproduced_pair_ratios\treproduced_reversed\n");

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
                tsv_result(out, &r->data, true);
                tsv_result(out, &r->repro, r->have_repro);
                tsv_pairs(out, &r->data, true);
                tsv_pairs(out, &r->repro, r->have_repro);
                g_string_append_c(out, '\n');
        }
        return g_string_free(out, FALSE);
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
                note_add(s, "measured with profile %s", profile);
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

static void count_verdict(guint counts[4], const VerifyResult *r)
{
        counts[r->verdict]++;
}

static void print_counts(const char *what, const guint counts[4])
{
        printf("%s: %u hold, %u inconclusive, %u fail, %u no data\n", what, counts[VERIFY_HOLDS],
               counts[VERIFY_INCONCLUSIVE], counts[VERIFY_FAILS], counts[VERIFY_NO_DATA]);
}

int verify_command(int argc, char **argv)
{
        g_autofree char *data = NULL, *repro = NULL, *tsv = NULL, *macros = NULL;
        gboolean show_pairs = FALSE;
        GOptionEntry entries[] = {
                { "data", 'd', 0, G_OPTION_ARG_FILENAME, &data,
                  "The published samples: DIR/<experiment>/samples.tsv (default: data)", "DIR" },
                { "repro", 'r', 0, G_OPTION_ARG_FILENAME, &repro,
                  "Also evaluate the reproduction in DIR (e.g. build/repro)", "DIR" },
                { "tsv", 't', 0, G_OPTION_ARG_FILENAME, &tsv,
                  "Also write the table as TSV to FILE (atomically)", "FILE" },
                { "macros", 'm', 0, G_OPTION_ARG_FILENAME, &macros,
                  "Also write LaTeX macros of every claim's verdict and ratio to FILE (atomically)", "FILE" },
                { "pairs", 'p', 0, G_OPTION_ARG_NONE, &show_pairs,
                  "Show the pairs of claims over one pair too (those over several always are)", NULL },
                G_OPTION_ENTRY_NULL
        };
        g_autoptr(GOptionContext) ctx = g_option_context_new(
                "[EXPERIMENT.ini...] - evaluate every claim on the data and on a reproduction");
        g_autoptr(GError) e = NULL;

        g_option_context_add_main_entries(ctx, entries, NULL);
        g_option_context_set_description(ctx,
                "Without files, every experiments/*.ini.  A claim holds when the 95% confidence\n"
                "interval of every one of its pairs of cells lies at or above its factor `by`,\n"
                "fails when the claim's interval (over all pairs) lies below `by`, and is\n"
                "inconclusive otherwise.\n"
                "Exit status: 0 no claim fails, 1 a claim fails, 2 bad usage or bad input.\n");
        if (!g_option_context_parse(ctx, &argc, &argv, &e)) {
                fprintf(stderr, "ipclab: %s\n", e->message);
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

        /* Load and evaluate everything before printing anything. */
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
        for (guint i = 0; i < exps->len; i++) {
                const Experiment *exp = exps->pdata[i];
                g_autofree char *ddir = g_build_filename(data_dir, exp->name, NULL);
                g_autofree char *rdir = repro ? g_build_filename(repro, exp->name, NULL) : NULL;
                g_autofree char *dprov = provenance_note(exp, ddir);
                g_autofree char *rprov = rdir ? provenance_note(exp, rdir) : NULL;
                g_autofree char *dtsv = g_build_filename(ddir, "samples.tsv", NULL);
                g_autofree char *rtsv = rdir ? g_build_filename(rdir, "samples.tsv", NULL) : NULL;
                bool dmissing = !g_file_test(dtsv, G_FILE_TEST_EXISTS);
                bool rmissing = rtsv && !g_file_test(rtsv, G_FILE_TEST_EXISTS);
                if (exp->claims->len && dmissing)
                        g_ptr_array_add(notes, g_strdup_printf("%s, published: no data (%s does not exist)",
                                                               exp->name, dtsv));
                if (exp->claims->len && rmissing)
                        g_ptr_array_add(notes, g_strdup_printf("%s, reproduced: not reproduced (%s does not exist)",
                                                               exp->name, rtsv));
                if (exp->claims->len && dprov)
                        g_ptr_array_add(notes, g_strdup_printf("%s, published: %s", exp->name, dprov));
                if (exp->claims->len && rprov)
                        g_ptr_array_add(notes, g_strdup_printf("%s, reproduced: %s", exp->name, rprov));
                for (guint c = 0; c < exp->claims->len; c++) {
                        Row row = { .exp = exp, .claim = exp->claims->pdata[c], .have_repro = repro != NULL,
                                    .missing = { dmissing, rmissing } };
                        if (!verify_claim_check(exp, row.claim, &e)) {
                                fprintf(stderr, "ipclab: %s\n", e->message);
                                return EXIT_USAGE;
                        }
                        gboolean ok = verify_claim_dir(row.claim, ddir, &row.data, &e);
                        if (ok && repro)
                                ok = verify_claim_dir(row.claim, rdir, &row.repro, &e);
                        g_array_append_val(rows, row);
                        if (!ok) {
                                fprintf(stderr, "ipclab: %s: %s\n", exp->path, e->message);
                                return EXIT_USAGE;
                        }
                }
        }

        /* The table, its notes and the tally. */
        const char *head[] = { "EXPERIMENT", "CLAIM", "METRIC", "BY", "PUBLISHED", "RATIO [95% CI]",
                               "REPRODUCED", "RATIO [95% CI]" };
        enum { NCOL = G_N_ELEMENTS(head) };
        g_autoptr(GPtrArray) cellv = g_ptr_array_new_with_free_func(g_free);
        int width[NCOL];
        for (int k = 0; k < NCOL; k++)
                width[k] = (int) strlen(head[k]);
        for (guint i = 0; i < rows->len; i++) {
                const Row *r = &g_array_index(rows, Row, i);
                char *v[NCOL] = {
                        g_strdup(r->exp->name), g_strdup(r->claim->name), g_strdup(r->claim->metric),
                        g_strdup_printf("%g", r->claim->by),
                        g_strdup(verify_verdict_name(r->data.verdict)), format_ratio(&r->data),
                        g_strdup(r->have_repro ? verify_verdict_name(r->repro.verdict) : "-"),
                        r->have_repro ? format_ratio(&r->repro) : g_strdup("-"),
                };
                for (int k = 0; k < NCOL; k++) {
                        width[k] = MAX(width[k], (int) strlen(v[k]));
                        g_ptr_array_add(cellv, v[k]);
                }
        }
        for (int k = 0; k < NCOL; k++)
                printf("%-*s%s", k == NCOL - 1 ? 0 : width[k], head[k], k == NCOL - 1 ? "\n" : "  ");
        for (guint i = 0; i < rows->len; i++)
                for (int k = 0; k < NCOL; k++)
                        printf("%-*s%s", k == NCOL - 1 ? 0 : width[k], (char *) cellv->pdata[i * NCOL + k],
                               k == NCOL - 1 ? "\n" : "  ");
        if (!rows->len)
                printf("(no claims in these experiment files)\n");

        guint dcount[4] = { 0 }, rcount[4] = { 0 };
        bool printed_notes = false;
        for (guint i = 0; i < rows->len; i++) {
                const Row *r = &g_array_index(rows, Row, i);
                const VerifyResult *res[] = { &r->data, &r->repro };
                const char *which[] = { "published", "reproduced" };
                count_verdict(dcount, &r->data);
                if (r->have_repro)
                        count_verdict(rcount, &r->repro);
                for (int k = 0; k < (r->have_repro ? 2 : 1); k++) {
                        if (r->missing[k])
                                continue;
                        bool list = res[k]->pairs && (res[k]->pairs->len > 1 || (show_pairs && res[k]->pairs->len));
                        if (res[k]->note || list) {
                                if (!printed_notes)
                                        printf("\n");
                                printed_notes = true;
                                printf("%s/%s, %s:%s%s\n", r->exp->name, r->claim->name, which[k],
                                       res[k]->note ? " " : "", res[k]->note ? res[k]->note : "");
                        }
                        if (!list)
                                continue;
                        for (guint p = 0; p < res[k]->pairs->len; p++) {
                                const VerifyPair *pr = &g_array_index(res[k]->pairs, VerifyPair, p);
                                g_autofree char *rs = format_interval(pr->ratio, pr->lo, pr->hi);
                                printf("    %s (n=%u) vs %s (n=%u): %s %s%s\n", pr->faster, pr->n_faster,
                                       pr->slower, pr->n_slower, rs, verify_verdict_name(pr->verdict),
                                       pr->reversed ? ", reversed" : "");
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
        print_counts("published", dcount);
        if (repro)
                print_counts("reproduced", rcount);
        printf("holds: every pair's 95%% CI lies at or above BY; fails: the claim's CI (over all its "
               "pairs) lies below BY; inconclusive: neither (a reversed pair, CI below 1, is named)\n");

        if (macros) {
                g_autoptr(GError) me = NULL;
                g_autofree char *text = macros_tex(rows, &me);
                if (!text) {
                        fprintf(stderr, "ipclab: verify: %s\n", me->message);
                        return EXIT_USAGE;
                }
                int r = samples_write_atomic(macros, text, strlen(text));
                if (r < 0) {
                        fprintf(stderr, "ipclab: verify: cannot write %s: %s\n", macros, g_strerror(-r));
                        return EXIT_FAILED;
                }
        }
        if (tsv) {
                g_autofree char *text = table_tsv(rows);
                int r = samples_write_atomic(tsv, text, strlen(text));
                if (r < 0) {
                        fprintf(stderr, "ipclab: verify: cannot write %s: %s\n", tsv, g_strerror(-r));
                        return EXIT_FAILED;
                }
        }
        return dcount[VERIFY_FAILS] || rcount[VERIFY_FAILS] ? EXIT_FAILED : 0;
}
