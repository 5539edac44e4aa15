/* verify-stability.c: how often a rerun would reach a claim's verdict,
 * by drawing repetitions from the measured ones (verify.h,
 * verify_stability). */
#include "verify.h"

#include <string.h>

#include "columns.h"
#include "samples.h"
#include "select.h"
#include "stats.h"

/* The rows of each cell that FS or SS selects in T, in first-seen order:
 * one GPtrArray of char ** per cell, keyed by its axis values. */
static GPtrArray *claim_cells(const Table *t, const Selector *fs, const Selector *ss)
{
        int key_col[32];
        guint n_key = 0;
        for (guint i = 0; samples_axis_columns[i] && n_key < G_N_ELEMENTS(key_col); i++)
                if ((key_col[n_key] = table_column(t, samples_axis_columns[i])) >= 0)
                        n_key++;
        g_autoptr(GHashTable) by_key = g_hash_table_new_full(g_str_hash, g_str_equal, g_free, NULL);
        GPtrArray *cells = g_ptr_array_new_with_free_func((GDestroyNotify) g_ptr_array_unref);
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
        return cells;
}

/* verify.h */
gboolean verify_stability(const Claim *claim, const Table *samples, const char *path, guint n,
                          const guint *looks, guint n_looks, guint draws, guint64 seed, guint counts[4],
                          GError **error)
{
        g_autoptr(GError) e = NULL;
        g_autoptr(Selector) fs = select_parse(claim->faster, SELECT_AXES, &e);
        g_autoptr(Selector) ss = fs ? select_parse(claim->slower, SELECT_AXES, &e) : NULL;
        if (!ss) {
                g_set_error(error, IPCLAB_ERROR, IPCLAB_ERROR_INPUT, "claim %s: %s", claim->name, e->message);
                return FALSE;
        }
        bool sequential = looks && n_looks;
        guint reps = sequential ? looks[n_looks - 1] : n;
        int rep_col = table_column(samples, column_table[COL_REP].name);
        if (rep_col < 0) {
                g_set_error(error, IPCLAB_ERROR, IPCLAB_ERROR_INPUT, "%s: no column %s", path,
                            column_table[COL_REP].name);
                return FALSE;
        }
        g_autoptr(GPtrArray) cells = claim_cells(samples, fs, ss);
        /* Repetition k of a draw is numbered k, as a run numbers them:
         * the looks count repetitions by that column. */
        g_autoptr(GPtrArray) numbers = g_ptr_array_new_with_free_func(g_free);
        for (guint k = 0; k < reps; k++)
                g_ptr_array_add(numbers, g_strdup_printf("%u", k));
        StatsRng rng;
        stats_rng_init(&rng, seed);
        memset(counts, 0, 4 * sizeof *counts);
        for (guint d = 0; d < draws; d++) {
                Table view = { .columns = samples->columns, .n_columns = samples->n_columns,
                               .rows = g_ptr_array_new_full(cells->len * reps, g_free) };
                for (guint c = 0; c < cells->len; c++) {
                        const GPtrArray *rows = cells->pdata[c];
                        for (guint k = 0; k < reps; k++) {
                                char **from = rows->pdata[stats_rng_below(&rng, rows->len)];
                                char **row = g_memdup2(from, samples->n_columns * sizeof *row);
                                row[rep_col] = numbers->pdata[k];
                                g_ptr_array_add(view.rows, row);
                        }
                }
                VerifyResult r;
                gboolean ok = verify_claim_table_looks(claim, &view, path, sequential ? looks : NULL,
                                                       sequential ? n_looks : 0, sequential ? n_looks : 0, &r,
                                                       error);
                g_ptr_array_unref(view.rows);
                if (!ok)
                        return FALSE;
                counts[r.verdict]++;
                verify_result_clear(&r);
        }
        return TRUE;
}
