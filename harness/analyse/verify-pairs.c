/* verify-pairs.c: a claim's cells in a table, grouped and paired (see
 * verify.h and verify-internal.h). */
#include "verify-internal.h"

#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "axes.h"
#include "columns.h"
#include "metrics.h"
#include "placement-modes.h"
#include "safefile.h"
#include "select.h"
#include "stats.h"

const Axis *const *verify_note_axes(void)
{
        static const Axis *order[AXIS_MAX + 1];
        static gsize done;

        if (g_once_init_enter(&done)) {
                const Axis *env = axis_of_column(COL_ENV);
                guint n = 0;
                for (int place = 0; place < 2; place++)
                        for (size_t i = 0; i < axis_count; i++)
                                if ((axis_table[i].type == AXIS_PLACE) == place && &axis_table[i] != env)
                                        order[n++] = &axis_table[i];
                order[n] = NULL;
                g_once_init_leave(&done, 1);
        }
        return order;
}

/* ---- Cells and pairs ---------------------------------------------------- */

/* A cell of samples.tsv: rows with the same axis values. */

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
        g_autofree char *t = a->type == AXIS_SIZE || a->type == AXIS_DURATION
                ? axis_format_value(axis_column(a), v, false) : g_strdup(v);
        return a->noted_bare ? g_steal_pointer(&t) : g_strdup_printf("%s=%s", axis_key(a), t);
}

/* "pipe bytes 64 B roundtrip reply=echo count=1000": the axis values that
 * apply, defaults (array marshalling, unpinned, processes, host) left
 * out, and the machine only when MACHINES (the rows hold more than one). */
char *verify_vcell_describe(const VCell *c, const int *axis_col, int env_col, bool machines)
{
        GString *s = g_string_new(NULL);

        const Axis *const *axes = verify_note_axes();
        for (size_t a = 0; axes[a]; a++) {
                const char *v = c->row[axis_col[a]];
                if (!strcmp(v, "-") || (axes[a]->type == AXIS_PLACE && !machines) ||
                    (axes[a]->usual && !strcmp(v, axes[a]->usual)))
                        continue;
                g_autofree char *t = axis_value_text(axes[a], v);
                g_string_append_printf(s, "%s%s", s->len ? " " : "", t);
        }
        const char *env_usual = axis_of_column(COL_ENV)->usual;
        if (env_col >= 0 && strcmp(c->row[env_col], env_usual) != 0)
                g_string_append_printf(s, " env=%s", c->row[env_col]);
        return g_string_free(s, FALSE);
}


void verify_note_add(GString *note, const char *fmt, ...)
{
        va_list ap;

        if (note->len)
                g_string_append(note, "; ");
        va_start(ap, fmt);
        g_string_append_vprintf(note, fmt, ap);
        va_end(ap);
}


/* Whether the faster or the slower selector of P names key column K (an
 * axis, or env): such a column may differ within a pair. */
bool verify_pairing_names_key(const Pairing *p, guint k)
{
        return select_names_column(p->fast_sel, samples_axis_columns[k]) ||
               select_names_column(p->slow_sel, samples_axis_columns[k]);
}

void verify_pairing_clear(Pairing *p)
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

/* Finds the claim's metric and parses its selectors into P.  FALSE with
 * IPCLAB_ERROR_INPUT when one is malformed. */
static gboolean pairing_parse(const Claim *claim, Pairing *p, GError **error)
{
        g_autoptr(GError) e = NULL;

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
                return FALSE;
        }
        return TRUE;
}

/* Finds the columns P reads in SAMPLES (at PATH): the axes, the status,
 * the metric's inputs, the repetition when MAX_REP limits it.  FALSE with
 * IPCLAB_ERROR_INPUT naming the first one missing. */
static gboolean pairing_columns(const Table *samples, const char *path, guint max_rep, Pairing *p,
                                GError **error)
{
        const Axis *const *axes = verify_note_axes();

        p->status_col = table_column(samples, column_table[COL_STATUS].name);
        p->pattern_col = table_column(samples, column_table[COL_PATTERN].name);
        p->rep_col = table_column(samples, column_table[COL_REP].name);
        p->cell_col = table_column(samples, column_table[COL_CELL].name);
        p->env_col = table_column(samples, column_table[COL_ENV].name);
        p->machine_col = table_column(samples, column_table[COL_MACHINE].name);
        p->placement_col = table_column(samples, column_table[COL_PLACEMENT].name);
        p->fixed_col = table_column(samples, column_table[COL_FIXED_NS].name);
        p->elapsed_col = table_column(samples, column_table[COL_ELAPSED_NS].name);
        for (size_t a = 0; axes[a]; a++)
                p->axis_col[a] = table_column(samples, axis_column(axes[a]));
        for (guint i = 0; samples_axis_columns[i] && p->n_key < G_N_ELEMENTS(p->key_col); i++)
                p->key_col[p->n_key++] = table_column(samples, samples_axis_columns[i]);
        for (guint i = 0; p->metric_in[i]; i++)
                p->metric_col[p->n_metric++] = table_column(samples, p->metric_in[i]->name);
        const char *missing = p->status_col < 0 ? column_table[COL_STATUS].name
                            : max_rep != G_MAXUINT && p->rep_col < 0 ? column_table[COL_REP].name : NULL;
        for (size_t a = 0; axes[a] && !missing; a++)
                if (p->axis_col[a] < 0)
                        missing = axis_column(axes[a]);
        for (guint i = 0; i < p->n_key && !missing; i++)
                if (p->key_col[i] < 0)
                        missing = samples_axis_columns[i];
        for (guint i = 0; i < p->n_metric && !missing; i++)
                if (p->metric_col[i] < 0)
                        missing = p->metric_in[i]->name;
        if (missing) {
                g_set_error(error, IPCLAB_ERROR, IPCLAB_ERROR_INPUT, "%s: no column %s", path, missing);
                return FALSE;
        }
        for (guint r = 1; r < samples->rows->len && !p->machines; r++)
                p->machines = strcmp(((char **) samples->rows->pdata[r])[p->machine_col],
                                     ((char **) samples->rows->pdata[0])[p->machine_col]) != 0;
        return TRUE;
}

/* Adds ROW, one repetition, to cell C: counted, and its metric kept
 * where the repetition measured it. */
static void pairing_cell_add(const Pairing *p, VCell *c, char **row)
{
        c->rows++;
        if (strcmp(row[p->status_col], "ok") != 0) {
                c->failed++;
                return;
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
                return;
        }
        c->nonpositive |= !(v > 0);
        g_array_append_val(c->values, v);
}

/* Groups the rows of SAMPLES whose repetition is below MAX_REP into
 * P's cells, in first-seen order. */
static void pairing_group_cells(const Table *samples, guint max_rep, Pairing *p)
{
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
                pairing_cell_add(p, c, row);
        }
}

/* Sorts P's cells into its faster and slower sides (SAMPLES' rows),
 * counting those it leaves out and why. */
static void pairing_sides(const Table *samples, Pairing *p)
{
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
}

/* Pairs P's faster and slower cells: equal on every axis column neither
 * selector names (env too), where the axis applies to both. */
static void pairing_pair(Pairing *p)
{
        bool named[G_N_ELEMENTS(p->key_col)] = { 0 };

        for (guint k = 0; k < p->n_key; k++)
                named[k] = verify_pairing_names_key(p, k);
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
}

/* A pair stands on cells whose repetitions ran where their cpus= says
 * (or, unpinned, all in one placement): names the others in P->mixed. */
static void pairing_note_mixed(Pairing *p)
{
        g_autoptr(GHashTable) named_cells = g_hash_table_new(NULL, NULL);

        for (guint i = 0; i < p->pf->len; i++) {
                VCell *pc[2] = { p->fast->pdata[g_array_index(p->pf, guint, i)],
                                 p->slow->pdata[g_array_index(p->ps, guint, i)] };
                for (int k = 0; k < 2; k++) {
                        if (!placement_count_mixed(&pc[k]->placement) ||
                            !g_hash_table_add(named_cells, pc[k]))
                                continue;
                        g_autofree char *d = verify_vcell_describe(pc[k], p->axis_col, p->env_col, p->machines);
                        g_autofree char *m = placement_count_describe(&pc[k]->placement);
                        if (!p->mixed)
                                p->mixed = g_string_new(NULL);
                        g_string_append_printf(p->mixed, "%s%s (%s)", p->mixed->len ? ", " : "", d, m);
                }
        }
}

/* Groups the rows of SAMPLES whose repetition is below MAX_REP (G_MAXUINT:
 * every row) into cells and pairs the claim's (verify.h).  FALSE with
 * IPCLAB_ERROR_INPUT when the claim is malformed or SAMPLES lacks a
 * column; *P is then cleared. */
gboolean verify_pairing_build(const Claim *claim, const Table *samples, const char *path, guint max_rep,
                              Pairing *p, GError **error)
{
        memset(p, 0, sizeof *p);
        if (!pairing_parse(claim, p, error) || !pairing_columns(samples, path, max_rep, p, error)) {
                verify_pairing_clear(p);
                return FALSE;
        }
        pairing_group_cells(samples, max_rep, p);
        pairing_sides(samples, p);
        pairing_pair(p);
        pairing_note_mixed(p);
        return TRUE;
}

/* What P left out, for the note. */
void verify_pairing_note(const Pairing *p, const Claim *claim, GString *note)
{
        if (p->failed_rows)
                verify_note_add(note, "%u failed repetitions left out", p->failed_rows);
        if (p->unmeasured_rows)
                verify_note_add(note, "%u repetitions without %s left out", p->unmeasured_rows, claim->metric);
        if (p->empty_cells)
                verify_note_add(note, "%u cells without a measured repetition", p->empty_cells);
        if (p->nonpositive_cells)
                verify_note_add(note, "%u cells with a %s <= 0 left out", p->nonpositive_cells, claim->metric);
        if (p->both)
                verify_note_add(note, "%u cells match both selectors", p->both);
        if (p->not_measuring)
                verify_note_add(note, "%u cells that do not measure %s (%s do) left out", p->not_measuring,
                         claim->metric, metric_cells(p->m));
        if (p->unpaired && p->pf->len)
                verify_note_add(note, "%u faster cells without a slower partner", p->unpaired);
        if (p->fixed_cells)
                verify_note_add(note, "%u cells whose fixed part exceeds %.0f%% of the window (up to %.0f%%) left out",
                         p->fixed_cells, 100 * VERIFY_MAX_FIXED_SHARE, 100 * p->fixed_max);
        if (p->mixed)
                verify_note_add(note, "pairs on cells whose repetitions ran in several placements: %s", p->mixed->str);
}

/* The side (0 faster, 1 slower) whose selected cells all fail to measure
 * the metric, or -1. */
int verify_pairing_unmeasured_side(const Pairing *p)
{
        for (int s = 0; s < 2; s++)
                if (p->kept[s] && !p->measuring[s])
                        return s;
        return -1;
}

/* Fills each pair's label: the values that tell it from the others, on
 * the axes (and env) where the claim's faster cells differ, or where only
 * its slower cells do ("vs" then). */
void verify_pair_labels(const Pairing *pg, VerifyResult *result)
{
        guint np = pg->pf->len;
        const Axis *const *axes = verify_note_axes();
        size_t n_axes = 0;
        while (axes[n_axes])
                n_axes++;
        /* The axes, then env. */
        bool vary[AXIS_MAX + 1][2] = { { 0 } };

        for (size_t a = 0; a <= n_axes; a++) {
                int col = a < n_axes ? pg->axis_col[a] : pg->env_col;
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
                for (size_t a = 0; a <= n_axes; a++) {
                        for (int side = 0; side < 2; side++) {
                                if (!vary[a][side] || (side && vary[a][0]))
                                        continue;
                                GString *to = side ? vs : s;
                                const char *v = (side ? sc : fc)->row[a < n_axes ? pg->axis_col[a] : pg->env_col];
                                g_autofree char *t = a < n_axes ? axis_value_text(axes[a], v)
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

