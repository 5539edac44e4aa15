/* cmd-latency.c: `ipclab latency DIR [--cell SELECTOR] [--spectrum]`
 * (cli.h): for every cell of DIR/samples.tsv that SELECTOR (select.h's
 * syntax, matched against the rows as `ipclab verify` matches them)
 * selects and kind it measured, the axis columns, kind, percentile and
 * latency_ns of the histogram of all its repetitions pooled
 * (latency_pool) from DIR/latencies.tsv.gz: at 0 10 20 30 40 50 90 99
 * 99.9 99.99 99.999 100, or with --spectrum at 100 (1 - 10^(-k/10)),
 * k = 0, 1, ..., then 100; only the percentiles the values pooled support
 * (at least STATS_TAIL_MIN of them beyond it: 99.9 needs 10000; 0 and
 * 100, the minimum and maximum, always). */
#include "cli.h"

#include <inttypes.h>
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "hist.h"
#include "latency.h"
#include "samples.h"
#include "select.h"
#include "stats.h"

static const double fixed_percentiles[] = { 0, 10, 20, 30, 40, 50, 90, 99, 99.9, 99.99, 99.999, 100 };

static void print_percentile(const char *axes, const char *kind, double p, const Hist *h)
{
        char pbuf[G_ASCII_DTOSTR_BUF_SIZE];
        guint64 v = p >= 100 ? h->max : hist_quantile(h, p / 100);

        g_ascii_formatd(pbuf, sizeof pbuf, "%.12g", p);
        printf("%s\t%s\t%s\t%" PRIu64 "\n", axes, kind, pbuf, v);
}

/* The percentiles of H the values support (stats_quantile_supported: at
 * least STATS_TAIL_MIN of them beyond each; the minimum and maximum
 * always), a row each. */
static void print_cell(const char *axes, const char *kind, const Hist *h, gboolean spectrum)
{
        if (!spectrum) {
                for (size_t i = 0; i < G_N_ELEMENTS(fixed_percentiles); i++)
                        if (stats_quantile_supported((double) h->n, fixed_percentiles[i] / 100))
                                print_percentile(axes, kind, fixed_percentiles[i], h);
                return;
        }
        for (int k = 0;; k++) {
                double tail = pow(10, -k / 10.0);   /* 1 - p */
                if (!stats_quantile_supported((double) h->n, 1 - tail))
                        break;
                print_percentile(axes, kind, 100 * (1 - tail), h);
        }
        print_percentile(axes, kind, 100, h);
}

/* Prints E (cli_report); bad input whatever its kind: EXIT_USAGE. */
static int latency_fail(GError *e)
{
        cli_report(e);
        return EXIT_USAGE;
}

/* DIR's samples (*T, read from *SP) and latencies, every part of them a
 * measured repetition of the samples; NULL with the error printed
 * (EXIT_USAGE). */
static LatencyFile *latency_load(const char *dir, Table **t, char **sp)
{
        g_autoptr(GError) e = NULL;
        g_autofree char *lp = g_build_filename(dir, LATENCY_FILE, NULL);

        *sp = g_build_filename(dir, "samples.tsv", NULL);
        if (!(*t = samples_table_read(*sp, &e))) {
                latency_fail(e);
                return NULL;
        }
        for (guint a = 0; samples_axis_columns[a]; a++) {
                if (table_column(*t, samples_axis_columns[a]) < 0) {
                        fprintf(stderr, "ipclab: %s: no column %s\n", *sp, samples_axis_columns[a]);
                        return NULL;
                }
        }
        if (table_column(*t, "status") < 0 || table_column(*t, "cell") < 0 || table_column(*t, "rep") < 0) {
                fprintf(stderr, "ipclab: %s: not a samples.tsv (no cell, rep, env, machine or status column)\n",
                        *sp);
                return NULL;
        }
        if (!g_file_test(lp, G_FILE_TEST_EXISTS)) {
                fprintf(stderr, "ipclab: %s: no such file: these samples were measured before ipclab kept "
                        "every latency; run the experiment again\n", lp);
                return NULL;
        }
        g_autoptr(LatencyFile) lf = samples_check_cells(*t, *sp, &e) ? latency_read(lp, &e) : NULL;
        if (!lf || !latency_check_measured(lf, *t, *sp, &e)) {
                latency_fail(e);
                return NULL;
        }
        return g_steal_pointer(&lf);
}

int cmd_latency(int argc, char **argv)
{
        char *selector = NULL;
        gboolean spectrum = FALSE;
        GOptionEntry entries[] = {
                { "cell", 'c', 0, G_OPTION_ARG_STRING, &selector,
                  "Only the cells SELECTOR selects (transport=pipe,size=64)", "SELECTOR" },
                { "spectrum", 's', 0, G_OPTION_ARG_NONE, &spectrum,
                  "Percentiles 100(1 - 10^(-k/10)), k = 0, 1, ..., for a percentile-spectrum plot", NULL },
                { NULL },
        };
        g_autoptr(GOptionContext) ctx = g_option_context_new("DIR - pooled latency percentiles of DIR/latencies.tsv.gz");
        g_autoptr(GError) e = NULL;

        g_option_context_add_main_entries(ctx, entries, NULL);
        if (!g_option_context_parse(ctx, &argc, &argv, &e)) {
                fprintf(stderr, "ipclab: %s\n", e->message);
                return EXIT_USAGE;
        }
        g_autofree char *sel_text = selector;
        if (argc != 2) {
                fprintf(stderr, "ipclab: latency needs one results directory\n");
                return EXIT_USAGE;
        }
        /* The selector, parsed once (select.h), before any file is read. */
        g_autoptr(Selector) sel = NULL;
        if (sel_text && !(sel = select_parse(sel_text, SELECT_AXES, &e))) {
                fprintf(stderr, "ipclab: --cell: %s\n", e->message);
                return EXIT_USAGE;
        }
        g_autoptr(Table) t = NULL;
        g_autofree char *sp = NULL;
        g_autoptr(LatencyFile) lf = latency_load(argv[1], &t, &sp);
        if (!lf)
                return EXIT_USAGE;

        int cell_col = table_column(t, "cell"), env_col = table_column(t, "env"),
            machine_col = table_column(t, "machine");
        g_autoptr(GString) header = g_string_new(NULL);
        for (guint a = 0; samples_axis_columns[a]; a++)
                g_string_append_printf(header, "%s%s", a ? "\t" : "", samples_axis_columns[a]);
        printf("%s", header->str);
        printf("\tkind\tpercentile\tlatency_ns\n");
        g_autoptr(GHashTable) done = g_hash_table_new_full(g_str_hash, g_str_equal, g_free, NULL);
        for (guint r = 0; r < t->rows->len; r++) {
                char **row = t->rows->pdata[r];
                g_autofree char *key = g_strdup_printf("%s\t%s\t%s", row[env_col], row[machine_col], row[cell_col]);
                if (g_hash_table_contains(done, key))
                        continue;
                g_hash_table_add(done, g_steal_pointer(&key));
                if (sel && !select_row(sel, t, row))
                        continue;
                g_autoptr(GString) axes = g_string_new(NULL);
                for (guint a = 0; samples_axis_columns[a]; a++)
                        g_string_append_printf(axes, "%s%s", a ? "\t" : "",
                                               row[table_column(t, samples_axis_columns[a])]);
                guint idx = (guint) g_ascii_strtoull(row[cell_col], NULL, 10);
                for (LatencyKind k = LATENCY_ROUNDTRIP; k <= LATENCY_ONEWAY; k++) {
                        const char *kind = latency_kind_name(k);
                        g_autofree Hist *h = latency_pool(lf, row[env_col], row[machine_col], &idx, 1, kind);
                        if (h)
                                print_cell(axes->str, kind, h, spectrum);
                }
        }
        return 0;
}
