/* summarize.c: per-cell statistics of samples.tsv (see summarize.h). */
#include "summarize.h"

#include <errno.h>
#include <math.h>
#include <string.h>
#include <sys/stat.h>

#include "experiment.h"
#include "latency.h"
#include "metrics.h"
#include "safefile.h"
#include "stats.h"

/* What a field of the summary shows of its column. */
typedef enum {
        PART_VALUE,
        PART_LO,
        PART_HI,
} Part;

/* The summary's columns after the experiment and the axes, in the order
 * they always had; each number is written as its row of the schema says
 * (its `format`).  Every other column of the schema with
 * COLUMN_IN_SUMMARY (a metric added since) follows them in schema order,
 * with its _lo and _hi when it has COLUMN_HAS_CI: see summary_layout(). */
typedef struct {
        ColumnId id;
        Part part;
} LayoutItem;

static const LayoutItem fixed_layout[] = {
        { COL_N, PART_VALUE }, { COL_FAILED, PART_VALUE }, { COL_ELAPSED_NS, PART_VALUE },
        { COL_ELAPSED_NS, PART_LO }, { COL_ELAPSED_NS, PART_HI }, { COL_MESSAGES, PART_VALUE },
        { COL_THROUGHPUT_MIBPS, PART_VALUE }, { COL_THROUGHPUT_MIBPS, PART_LO },
        { COL_THROUGHPUT_MIBPS, PART_HI }, { COL_RATE_PER_S, PART_VALUE }, { COL_RATE_PER_S, PART_LO },
        { COL_RATE_PER_S, PART_HI }, { COL_LAT_P50_NS, PART_VALUE }, { COL_LAT_P90_NS, PART_VALUE },
        { COL_LAT_P99_NS, PART_VALUE }, { COL_LAT_P999_NS, PART_VALUE }, { COL_CPU_NS_PER_MSG, PART_VALUE },
        { COL_CLIENT_CPU_NS, PART_VALUE }, { COL_SERVER_CPU_NS, PART_VALUE }, { COL_BUS_CPU_NS, PART_VALUE },
        { COL_MEMCPY_MIBPS, PART_VALUE }, { COL_LAT_P50_NS, PART_LO }, { COL_LAT_P50_NS, PART_HI },
        { COL_LAT_P99_NS, PART_LO }, { COL_LAT_P99_NS, PART_HI }, { COL_THROUGHPUT_MIBPS_HMEAN, PART_VALUE },
        { COL_RATE_PER_S_HMEAN, PART_VALUE }, { COL_POOLED_P50_NS, PART_VALUE },
        { COL_POOLED_P90_NS, PART_VALUE }, { COL_POOLED_P99_NS, PART_VALUE },
        { COL_POOLED_P999_NS, PART_VALUE }, { COL_POOLED_MAX_NS, PART_VALUE }, { COL_FIXED_NS, PART_VALUE },
        { COL_FIXED_SHARE, PART_VALUE }, { COL_PLACEMENT, PART_VALUE }, { COL_PLACEMENT_MODES, PART_VALUE },
};

/* fixed_layout, then the summary's other columns (see above). */
static const GArray *summary_layout(void)
{
        static GArray *layout;
        static gsize done;

        if (g_once_init_enter(&done)) {
                GArray *l = g_array_new(FALSE, FALSE, sizeof(LayoutItem));
                bool seen[COL_N_COLUMNS] = { false };
                g_array_append_vals(l, fixed_layout, G_N_ELEMENTS(fixed_layout));
                for (size_t i = 0; i < G_N_ELEMENTS(fixed_layout); i++)
                        seen[fixed_layout[i].id] = true;
                for (ColumnId id = 0; id < COL_N_COLUMNS; id++) {
                        const Column *c = &column_table[id];
                        if (seen[id] || c->kind == COLUMN_AXIS || c->kind == COLUMN_ID ||
                            !(c->flags & COLUMN_IN_SUMMARY))
                                continue;
                        g_array_append_val(l, ((LayoutItem) { id, PART_VALUE }));
                        if (c->flags & COLUMN_HAS_CI) {
                                g_array_append_val(l, ((LayoutItem) { id, PART_LO }));
                                g_array_append_val(l, ((LayoutItem) { id, PART_HI }));
                        }
                }
                layout = l;
                g_once_init_leave(&done, 1);
        }
        return layout;
}

/* The pooled percentiles and the quantile each is (1: the maximum). */
static const struct {
        ColumnId id;
        double q;
} pooled[] = {
        { COL_POOLED_P50_NS, 0.5 }, { COL_POOLED_P90_NS, 0.9 }, { COL_POOLED_P99_NS, 0.99 },
        { COL_POOLED_P999_NS, 0.999 }, { COL_POOLED_MAX_NS, 1 },
};

/* The columns of samples.tsv the statistics read. */
static const ColumnId inputs[] = {
        COL_STATUS, COL_ELAPSED_NS, COL_MESSAGES, COL_BYTES_B, COL_CLIENT_CPU_NS, COL_SERVER_CPU_NS,
        COL_BUS_CPU_NS, COL_LAT_P50_NS, COL_LAT_P90_NS, COL_LAT_P99_NS, COL_LAT_P999_NS,
};

/* The percentiles of the summary, in the order of the samples' columns. */
static const ColumnId percentiles[] = { COL_LAT_P50_NS, COL_LAT_P90_NS, COL_LAT_P99_NS, COL_LAT_P999_NS };

const char *summary_header(void)
{
        static char *header;
        static gsize done;

        if (g_once_init_enter(&done)) {
                GString *h = g_string_new(column_table[COL_EXPERIMENT].name);
                for (const Column *c = column_table; c->name; c++)
                        if (c->kind == COLUMN_AXIS && (c->flags & COLUMN_IN_SUMMARY))
                                g_string_append_printf(h, "\t%s", c->name);
                const GArray *layout = summary_layout();
                for (guint i = 0; i < layout->len; i++) {
                        const LayoutItem *it = &g_array_index(layout, LayoutItem, i);
                        g_string_append_printf(h, "\t%s%s", column_table[it->id].name,
                                               it->part == PART_LO ? "_lo" : it->part == PART_HI ? "_hi" : "");
                }
                g_string_append_c(h, '\n');
                header = g_string_free(h, FALSE);
                g_once_init_leave(&done, 1);
        }
        return header;
}

static void cell_free(SummaryCell *c)
{
        g_free(c->memcpy_MiBps);
        g_free(c);
}

void summary_free(Summary *summary)
{
        if (!summary)
                return;
        if (summary->cells)
                g_ptr_array_unref(summary->cells);
        table_free(summary->samples);
        g_free(summary->experiment);
        g_free(summary->path);
        g_free(summary);
}

static void set_median(SummaryStat *st, double *v, guint n)
{
        stats_sort_double(v, n);
        stats_median_ci(v, n, 0.95, &st->lo, &st->hi);
        st->value = stats_median(v, n);
}

static void set_value(SummaryStat *st, double v)
{
        st->value = v;
}

/* The number in field COL of ROW (samples.tsv's line LINE, at PATH): a
 * whole number, as samples_table_read() checked; "-" is 0 where OPTIONAL
 * (a CPU time a cell does not have: no server, no bus), else an error
 * naming the file, the line and the column. */
static gboolean field_number(const Summary *s, char **row, int col, guint line, bool optional, double *v,
                             GError **error)
{
        guint64 u;

        if (optional && !strcmp(row[col], "-")) {
                *v = 0;
                return TRUE;
        }
        if (!samples_parse_whole(row[col], &u)) {
                g_set_error(error, IPCLAB_ERROR, IPCLAB_ERROR_INPUT,
                            "%s:%u: column %d (%s) of an ok repetition is '%s', not a whole number", s->path, line,
                            col + 1, s->samples->columns[col], row[col]);
                return FALSE;
        }
        *v = (double) u;
        return TRUE;
}

/* Derived metric D's statistic over cell C's ok repetitions, from VAL
 * (N rows of COL_N_COLUMNS numbers by ColumnId): its value for each
 * repetition (metrics.h; 0 where it has none), their median with its
 * interval, or their mean for COLUMN_MEAN; none ("-") when it is not
 * positive and D has COLUMN_POSITIVE. */
static void cell_derived(SummaryCell *c, ColumnId d, const double *val, guint n)
{
        const Column *m = &column_table[d];
        const Column *in[5];
        guint k = metric_inputs(m, in);
        g_autofree double *v = g_new0(double, n + 1);

        for (guint i = 0; i < n; i++) {
                double x[G_N_ELEMENTS(in)];
                for (guint j = 0; j < k; j++)
                        x[j] = val[(gsize) i * COL_N_COLUMNS + (in[j] - column_table)];
                v[i] = metric_compute(m, x);
                if (isnan(v[i]))
                        v[i] = 0;
        }
        if (m->flags & COLUMN_MEAN)
                set_value(&c->stat[d], stats_mean(v, n));
        else
                set_median(&c->stat[d], v, n);
        if ((m->flags & COLUMN_POSITIVE) && !(c->stat[d].value > 0))
                c->stat[d] = (SummaryStat) { NAN, NAN, NAN };
}

/* Is column D derived from samples.tsv per repetition (a row of the
 * metric registry with `compute`) and in the summary? */
static bool summary_derived(ColumnId d)
{
        return column_table[d].compute && (column_table[d].flags & COLUMN_IN_SUMMARY);
}

/* The statistics of cell C from its rows ROWS (their lines LINES); COL
 * holds the columns of inputs[], and FROM_COL those of the columns the
 * derived metrics read, by ColumnId (-1: none read).  FALSE with ERROR
 * when an ok row lacks a number. */
static gboolean cell_compute(const Summary *s, SummaryCell *c, GPtrArray *rows, GArray *lines, const int *col,
                             const int *from_col, GError **error)
{
        guint len = rows->len, n = 0, nlat = 0;
        g_autofree double *el = g_new0(double, len), *msgs = g_new0(double, len),
                          *ccpu = g_new0(double, len), *scpu = g_new0(double, len), *bcpu = g_new0(double, len),
                          *bytes = g_new0(double, len), *secs = g_new0(double, len),
                          *sent = g_new0(double, len), *lat = g_new0(double, 4 * (gsize) len),
                          *val = g_new0(double, (gsize) len * COL_N_COLUMNS);
        bool have_bus = false;

        for (ColumnId id = 0; id < COL_N_COLUMNS; id++)
                c->stat[id].value = c->stat[id].lo = c->stat[id].hi = NAN;
        for (guint i = 0; i < len; i++) {
                char **row = rows->pdata[i];
                guint line = g_array_index(lines, guint, i);
                if (strcmp(row[col[0]], "ok") != 0) {
                        c->failed++;
                        continue;
                }
                double elapsed, m, b, cc, sc, bc;
                if (!field_number(s, row, col[1], line, false, &elapsed, error) ||
                    !field_number(s, row, col[2], line, false, &m, error) ||
                    !field_number(s, row, col[3], line, false, &b, error) ||
                    !field_number(s, row, col[4], line, false, &cc, error) ||
                    !field_number(s, row, col[5], line, true, &sc, error) ||
                    !field_number(s, row, col[6], line, true, &bc, error))
                        return FALSE;
                for (ColumnId id = 0; id < COL_N_COLUMNS; id++)
                        if (from_col[id] >= 0 &&
                            !field_number(s, row, from_col[id], line,
                                          (column_table[id].flags & COLUMN_ABSENT_ZERO) != 0,
                                          &val[(gsize) n * COL_N_COLUMNS + id], error))
                                return FALSE;
                have_bus |= strcmp(row[col[6]], "-") != 0;
                el[n] = elapsed;
                secs[n] = elapsed / 1e9;
                bytes[n] = b / 1048576.0;
                sent[n] = m;   /* msgs is sorted for its median, sent is not */
                msgs[n] = m;
                ccpu[n] = cc;
                scpu[n] = sc;
                bcpu[n] = bc;
                if (strcmp(row[col[7]], "-") != 0) {
                        for (int q = 0; q < 4; q++)
                                if (!field_number(s, row, col[7 + q], line, false, &lat[q * len + nlat], error))
                                        return FALSE;
                        nlat++;
                }
                n++;
        }
        c->n = n;
        if (n == 0)
                return TRUE;
        set_median(&c->stat[COL_ELAPSED_NS], el, n);
        stats_sort_double(msgs, n);
        set_value(&c->stat[COL_MESSAGES], stats_median(msgs, n));
        for (ColumnId d = 0; d < COL_N_COLUMNS; d++)
                if (summary_derived(d))
                        cell_derived(c, d, val, n);
        for (int q = 0; q < 4 && nlat; q++)
                set_median(&c->stat[percentiles[q]], lat + q * len, nlat);
        set_value(&c->stat[COL_CLIENT_CPU_NS], stats_mean(ccpu, n));
        set_value(&c->stat[COL_SERVER_CPU_NS], stats_mean(scpu, n));
        if (have_bus)
                set_value(&c->stat[COL_BUS_CPU_NS], stats_mean(bcpu, n));
        /* Rates over all repetitions: total work over total time
         * (stats_pooled_rate), never an average of rates.  Count-boxed
         * cells do the same work every repetition, so this is their
         * harmonic mean (the columns' name); duration-boxed cells do not,
         * and their harmonic mean is not total over total, so total over
         * total is what they get too. */
        double tp_h = stats_pooled_rate(bytes, secs, n);
        if (tp_h > 0)
                set_value(&c->stat[COL_THROUGHPUT_MIBPS_HMEAN], tp_h);
        set_value(&c->stat[COL_RATE_PER_S_HMEAN], stats_pooled_rate(sent, secs, n));
        return TRUE;
}

/* The pooled percentiles of cell C (rows ROWS) from LAT: the histograms
 * of every repetition of its cells (indices in the cell column CELL_COL)
 * measured in its environment on its machine, of the kind its pattern
 * measures. */
static void cell_pool(SummaryCell *c, GPtrArray *rows, const LatencyFile *lat, int cell_col,
                      int env_col, int machine_col, int pattern_col)
{
        g_autoptr(GArray) cells = g_array_new(FALSE, FALSE, sizeof(guint));

        for (guint i = 0; i < rows->len; i++) {
                guint v = (guint) g_ascii_strtoull(((char **) rows->pdata[i])[cell_col], NULL, 10);
                bool seen = false;
                for (guint k = 0; k < cells->len && !seen; k++)
                        seen = g_array_index(cells, guint, k) == v;
                if (!seen)
                        g_array_append_val(cells, v);
        }
        const char *kind = !strcmp(c->first[pattern_col], "oneway") ? "oneway" : "roundtrip";
        g_autofree Hist *h = latency_pool(lat, c->first[env_col], c->first[machine_col],
                                          (const guint *) (void *) cells->data,
                                          cells->len, kind);
        for (size_t k = 0; h && h->n && k < G_N_ELEMENTS(pooled); k++)
                set_value(&c->stat[pooled[k].id], pooled[k].q >= 1 ? (double) h->max
                                                                   : (double) hist_quantile(h, pooled[k].q));
}

/* What cell C's ok repetitions (ROWS) say of where they ran and of their
 * fixed windows: the placement column counted by mode (placement.h), the
 * median fixed_ns and the median of fixed_ns / elapsed_ns.  A column that
 * older data lacks (-1) leaves its statistics "-" (and the placement
 * unobserved).  Kept apart from cell_compute(): new columns, read by
 * name. */
static void cell_window(SummaryCell *c, GPtrArray *rows, const Table *t)
{
        int status = table_column(t, column_table[COL_STATUS].name);
        int elapsed = table_column(t, column_table[COL_ELAPSED_NS].name);
        int fixed = table_column(t, column_table[COL_FIXED_NS].name);
        int placement = table_column(t, column_table[COL_PLACEMENT].name);
        g_autofree double *f = g_new0(double, rows->len + 1), *share = g_new0(double, rows->len + 1);
        guint n = 0;

        for (guint i = 0; i < rows->len; i++) {
                char **row = rows->pdata[i];
                if (status < 0 || strcmp(row[status], "ok") != 0)
                        continue;
                placement_count_add(&c->placement, placement >= 0 ? row[placement] : "-");
                share[n] = samples_fixed_share(row, fixed, elapsed, &f[n]);
                if (isnan(share[n]))
                        continue;
                n++;
        }
        if (!n)
                return;
        stats_sort_double(f, n);
        set_value(&c->stat[COL_FIXED_NS], stats_median(f, n));
        stats_sort_double(share, n);
        set_value(&c->stat[COL_FIXED_SHARE], stats_median(share, n));
}

/* meta.ini's memcpy bound for a cell of SIZE measured in ENV on MACHINE:
 * each environment and machine measured its own; a merged meta.ini has
 * "[bounds ENV MACHINE]", "[bounds MACHINE]" or "[bounds ENV]" (the first
 * machine's and environment's have no name: run_merge), else "[bounds]".
 * *BOUND gets it as written there, or NULL; a value that is not a
 * positive number is an error naming META_PATH, the group and the key. */
static gboolean bound_of(GKeyFile *meta, const char *meta_path, const char *env, const char *machine,
                         const char *size, char **bound, GError **error)
{
        g_autofree char *key = g_strdup_printf("memcpy_MiBps_%s", size);
        char *groups[] = { g_strdup_printf("bounds %s %s", env, machine), g_strdup_printf("bounds %s", machine),
                           g_strdup_printf("bounds %s", env), g_strdup("bounds") };
        gboolean ok = TRUE;
        double v;

        *bound = NULL;
        for (gsize k = 0; meta && k < G_N_ELEMENTS(groups); k++) {
                if (!*bound && g_key_file_has_group(meta, groups[k])) {
                        *bound = g_key_file_get_value(meta, groups[k], key, NULL);
                        if (*bound && !(samples_parse_number(*bound, &v) && v > 0)) {
                                g_autofree char *shown = g_strescape(*bound, NULL);
                                g_set_error(error, IPCLAB_ERROR, IPCLAB_ERROR_INPUT,
                                            "%s: [%s] %s: '%.80s' is not a positive number", meta_path, groups[k],
                                            key, shown);
                                g_clear_pointer(bound, g_free);
                                ok = FALSE;
                        }
                }
                g_free(groups[k]);
        }
        return ok;
}

/* summary_load(), or with BY_PLACEMENT summary_load_by_placement(). */
static Summary *summary_load_full(const char *dir, bool by_placement, GError **error)
{
        g_autofree char *path = g_build_filename(dir, "samples.tsv", NULL);
        g_autoptr(Summary) s = g_new0(Summary, 1);

        s->samples = samples_table_read(path, error);
        if (!s->samples)
                return NULL;
        s->path = g_strdup(path);
        s->experiment = g_path_get_basename(dir);
        s->cells = g_ptr_array_new_with_free_func((GDestroyNotify) cell_free);
        /* The upper bounds measured with the data, when there are any. */
        g_autofree char *meta_path = g_build_filename(dir, "meta.ini", NULL);
        g_autoptr(GKeyFile) meta = NULL;
        struct stat st;
        if (lstat(meta_path, &st) == 0 && !(meta = safefile_key_file(meta_path, error)))
                return NULL;
        /* Every message's latency, when the run kept them. */
        g_autofree char *lat_path = g_build_filename(dir, LATENCY_FILE, NULL);
        g_autoptr(LatencyFile) lat = NULL;
        if (lstat(lat_path, &st) == 0 && !(lat = latency_read(lat_path, error)))
                return NULL;
        int cell_col = table_column(s->samples, column_table[COL_CELL].name);
        if (lat && !samples_check_cells(s->samples, path, error))
                return NULL;
        if (lat && cell_col < 0) {
                g_set_error(error, IPCLAB_ERROR, IPCLAB_ERROR_INPUT, "%s: no column %s", path,
                            column_table[COL_CELL].name);
                return NULL;
        }

        int col[G_N_ELEMENTS(inputs)];
        for (size_t i = 0; i < G_N_ELEMENTS(inputs); i++) {
                col[i] = table_column(s->samples, column_table[inputs[i]].name);
                if (col[i] < 0) {
                        g_set_error(error, IPCLAB_ERROR, IPCLAB_ERROR_INPUT, "%s: no column %s", path,
                                    column_table[inputs[i]].name);
                        return NULL;
                }
        }
        /* The columns the derived metrics read (metrics.h). */
        int from_col[COL_N_COLUMNS];
        for (ColumnId id = 0; id < COL_N_COLUMNS; id++)
                from_col[id] = -1;
        for (ColumnId d = 0; d < COL_N_COLUMNS; d++) {
                const Column *in[5];
                for (guint j = 0, k = summary_derived(d) ? metric_inputs(&column_table[d], in) : 0; j < k; j++) {
                        ColumnId id = (ColumnId) (in[j] - column_table);
                        from_col[id] = table_column(s->samples, in[j]->name);
                        if (from_col[id] < 0) {
                                g_set_error(error, IPCLAB_ERROR, IPCLAB_ERROR_INPUT, "%s: no column %s", path,
                                            in[j]->name);
                                return NULL;
                        }
                }
        }
        int axis[COL_N_COLUMNS];
        guint naxis = 0;
        for (ColumnId id = 0; id < COL_N_COLUMNS; id++) {
                s->axis_col[id] = -1;
                if (column_table[id].kind != COLUMN_AXIS || !(column_table[id].flags & COLUMN_IN_SUMMARY))
                        continue;
                s->axis_col[id] = axis[naxis++] = table_column(s->samples, column_table[id].name);
                if (s->axis_col[id] < 0) {
                        g_set_error(error, IPCLAB_ERROR, IPCLAB_ERROR_INPUT, "%s: no column %s", path,
                                    column_table[id].name);
                        return NULL;
                }
        }
        /* Group rows by their axis values (and placement, when asked),
         * keeping first-seen order. */
        int placement_col = by_placement ? table_column(s->samples, column_table[COL_PLACEMENT].name) : -1;
        g_autoptr(GHashTable) groups = g_hash_table_new_full(g_str_hash, g_str_equal, g_free, NULL);
        g_autoptr(GPtrArray) order = g_ptr_array_new_with_free_func((GDestroyNotify) g_ptr_array_unref);
        g_autoptr(GHashTable) lines_of = g_hash_table_new_full(g_direct_hash, g_direct_equal, NULL,
                                                               (GDestroyNotify) g_array_unref);
        for (guint r = 0; r < s->samples->rows->len; r++) {
                char **row = s->samples->rows->pdata[r];
                g_autoptr(GString) key = g_string_new(NULL);
                for (guint a = 0; a < naxis; a++)
                        g_string_append_printf(key, "%s\t", row[axis[a]]);
                if (placement_col >= 0)
                        g_string_append(key, row[placement_col]);
                GPtrArray *g = g_hash_table_lookup(groups, key->str);
                if (!g) {
                        g = g_ptr_array_new();
                        g_hash_table_insert(groups, g_strdup(key->str), g);
                        g_hash_table_insert(lines_of, g, g_array_new(FALSE, FALSE, sizeof(guint)));
                        g_ptr_array_add(order, g);
                }
                g_ptr_array_add(g, row);
                g_array_append_val(g_hash_table_lookup(lines_of, g), g_array_index(s->samples->lines, guint, r));
        }
        for (guint gi = 0; gi < order->len; gi++) {
                GPtrArray *g = order->pdata[gi];
                SummaryCell *c = g_new0(SummaryCell, 1);
                c->first = g->pdata[0];
                g_ptr_array_add(s->cells, c);
                if (!cell_compute(s, c, g, g_hash_table_lookup(lines_of, g), col, from_col, error))
                        return NULL;
                cell_window(c, g, s->samples);
                if (lat)
                        cell_pool(c, g, lat, cell_col, s->axis_col[COL_ENV], s->axis_col[COL_MACHINE],
                                  s->axis_col[COL_PATTERN]);
                if (!bound_of(meta, meta_path, c->first[s->axis_col[COL_ENV]], c->first[s->axis_col[COL_MACHINE]],
                              c->first[s->axis_col[COL_SIZE_B]], &c->memcpy_MiBps, error))
                        return NULL;
        }
        return g_steal_pointer(&s);
}

Summary *summary_load(const char *dir, GError **error)
{
        return summary_load_full(dir, false, error);
}

Summary *summary_load_by_placement(const char *dir, GError **error)
{
        return summary_load_full(dir, true, error);
}

static void append_number(GString *out, const char *format, double v)
{
        g_string_append_c(out, '\t');
        if (isnan(v))
                g_string_append_c(out, '-');
        else
                g_string_append_printf(out, format, v);
}

void summary_format(const Summary *summary, GString *out)
{
        const GArray *layout = summary_layout();

        g_string_append(out, summary_header());
        for (guint i = 0; i < summary->cells->len; i++) {
                const SummaryCell *c = summary->cells->pdata[i];
                g_string_append(out, summary->experiment);
                for (ColumnId id = 0; id < COL_N_COLUMNS; id++)
                        if (summary->axis_col[id] >= 0)
                                g_string_append_printf(out, "\t%s", c->first[summary->axis_col[id]]);
                for (guint k = 0; k < layout->len; k++) {
                        const LayoutItem *it = &g_array_index(layout, LayoutItem, k);
                        const SummaryStat *st = &c->stat[it->id];
                        switch (it->id) {
                        case COL_N:
                                g_string_append_printf(out, "\t%u", c->n);
                                break;
                        case COL_FAILED:
                                g_string_append_printf(out, "\t%u", c->failed);
                                break;
                        case COL_MEMCPY_MIBPS:
                                g_string_append_printf(out, "\t%s", c->memcpy_MiBps ? c->memcpy_MiBps : "-");
                                break;
                        case COL_PLACEMENT:
                                g_string_append_printf(out, "\t%s", placement_count_mode(&c->placement));
                                break;
                        case COL_PLACEMENT_MODES: {
                                g_autofree char *d = placement_count_describe(&c->placement);
                                g_string_append_printf(out, "\t%s", d);
                                break;
                        }
                        default:
                                append_number(out, column_table[it->id].format ? column_table[it->id].format : "%.6g",
                                              it->part == PART_LO ? st->lo : it->part == PART_HI ? st->hi : st->value);
                                break;
                        }
                }
                g_string_append_c(out, '\n');
        }
}

/* Appends LOADED's summary to OUT and frees it: 0, or -EINVAL when it
 * was not loaded (NULL). */
static int summarize_loaded(Summary *loaded, GString *out)
{
        g_autoptr(Summary) s = loaded;

        if (!s)
                return -EINVAL;
        summary_format(s, out);
        return 0;
}

int summarize_dir(const char *dir, GString *out, GError **error)
{
        return summarize_loaded(summary_load(dir, error), out);
}

int summarize_dir_by_placement(const char *dir, GString *out, GError **error)
{
        return summarize_loaded(summary_load_by_placement(dir, error), out);
}

char *summary_cell_describe(const Summary *s, const SummaryCell *c)
{
        GString *d = g_string_new(NULL);

        for (ColumnId id = 0; id < COL_N_COLUMNS; id++) {
                const char *v = s->axis_col[id] >= 0 ? c->first[s->axis_col[id]] : "-";
                if (strcmp(v, "-") != 0)
                        g_string_append_printf(d, "%s%s=%s", d->len ? "," : "", column_table[id].key, v);
        }
        return g_string_free(d, FALSE);
}

gboolean summary_mixed_placements(const char *dir, GPtrArray *warnings, GError **error)
{
        g_autoptr(Summary) s = summary_load(dir, error);

        if (!s)
                return FALSE;
        for (guint i = 0; i < s->cells->len; i++) {
                const SummaryCell *c = s->cells->pdata[i];
                if (!placement_count_mixed(&c->placement))
                        continue;
                g_autofree char *d = summary_cell_describe(s, c);
                g_autofree char *modes = placement_count_describe(&c->placement);
                g_ptr_array_add(warnings, g_strdup_printf("%s: %s", d, modes));
        }
        return TRUE;
}
