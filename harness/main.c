/* main.c: the `ipclab` command line.  The only place that prints errors.
 *
 *   ipclab list
 *   ipclab check FILE...
 *   ipclab run [--profile NAME] [--env host|nspawn|vm] [--out DIR] [--resume] FILE...
 *   ipclab summarize DIR/<experiment>
 *
 * Exit status: 0 success, 1 a measurement failed, 2 bad usage or bad input.
 */
#include <errno.h>
#include <inttypes.h>
#include <math.h>
#include <signal.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "bus.h"
#include "experiment.h"
#include "meta.h"
#include "runner.h"
#include "samples.h"
#include "stats.h"
#include "transport.h"

#define EXIT_FAILED 1
#define EXIT_USAGE 2
#define EXIT_INTERRUPTED 130

extern volatile sig_atomic_t runner_interrupted;

static void on_signal(int sig)
{
        (void) sig;
        runner_interrupted = 1;
}

static int usage_error(GOptionContext *ctx, const char *msg)
{
        g_autofree char *help = g_option_context_get_help(ctx, TRUE, NULL);
        fprintf(stderr, "ipclab: %s\n\n%s", msg, help);
        return EXIT_USAGE;
}

static int report(GError *e)
{
        fprintf(stderr, "ipclab: %s\n", e->message);
        return e->domain == IPCLAB_ERROR && e->code == IPCLAB_ERROR_INPUT ? EXIT_USAGE : EXIT_FAILED;
}

static void format_duration(char *buf, size_t len, double s)
{
        if (s < 1)
                snprintf(buf, len, "%.0f ms", s * 1000);
        else if (s < 120)
                snprintf(buf, len, "%.1f s", s);
        else if (s < 7200)
                snprintf(buf, len, "%.0f min %02.0f s", floor(s / 60), fmod(s, 60));
        else
                snprintf(buf, len, "%.1f h", s / 3600);
}

static int cmd_list(int argc, char **argv)
{
        g_autoptr(GOptionContext) ctx = g_option_context_new("- list transports and why any is unavailable");
        g_autoptr(GError) e = NULL;

        if (!g_option_context_parse(ctx, &argc, &argv, &e))
                return usage_error(ctx, e->message);
        printf("%-16s %-8s %-10s %s\n", "TRANSPORT", "FAMILY", "STATE", "WHAT");
        for (size_t i = 0; transport_table[i]; i++) {
                const Transport *t = transport_table[i];
                const char *why = t->unavailable ? t->unavailable() : NULL;
                printf("%-16s %-8s %-10s %s\n", t->name, t->family, why ? "unavailable" : "ok", t->summary);
                if (why)
                        printf("%-16s %-8s %-10s   why: %s\n", "", "", "", why);
                if (t->flags & TRANSPORT_DBUS) {
                        for (BusKind b = BUS_DBUS_DAEMON; b <= BUS_P2P; b++) {
                                const char *bw = b == BUS_P2P ? NULL : bus_unavailable(b);
                                printf("%-16s %-8s %-10s   bus=%s%s%s\n", "", "", bw ? "unavailable" : "ok",
                                       bus_name(b), bw ? ": " : "", bw ? bw : "");
                        }
                }
        }
        return 0;
}

static int cmd_check(int argc, char **argv)
{
        char *profile = NULL;
        GOptionEntry entries[] = {
                { "profile", 'p', 0, G_OPTION_ARG_STRING, &profile, "Apply [profile NAME]", "NAME" },
                { NULL },
        };
        g_autoptr(GOptionContext) ctx = g_option_context_new("FILE... - validate experiment files, print their cells and an estimate");
        g_autoptr(GError) e = NULL;
        int status = 0;

        g_option_context_add_main_entries(ctx, entries, NULL);
        if (!g_option_context_parse(ctx, &argc, &argv, &e))
                return usage_error(ctx, e->message);
        if (argc < 2)
                return usage_error(ctx, "check needs at least one experiment file");
        for (int i = 1; i < argc; i++) {
                g_autoptr(GError) err = NULL;
                g_autoptr(Experiment) exp = experiment_load(argv[i], profile, &err);
                if (!exp) {
                        status = report(err);
                        continue;
                }
                guint64 total = 0;
                printf("%s: %s\n", exp->name, exp->title);
                printf("  %u cells x %u repetitions, warm-up %u, time limit %.0f s per repetition%s%s\n",
                       exp->cells->len, exp->repeat, exp->warmup, (double) exp->timeout_ns / 1e9,
                       profile ? ", profile " : "", profile ? profile : "");
                for (guint c = 0; c < exp->cells->len; c++) {
                        const Cell *cell = exp->cells->pdata[c];
                        g_autofree char *d = cell_describe(cell);
                        total += cell_estimate_ns(cell, exp->warmup) * exp->repeat;
                        printf("  %4u  %s\n", cell->index, d);
                }
                for (guint s = 0; s < exp->skipped->len; s++)
                        printf("  skip  %s\n", (char *) exp->skipped->pdata[s]);
                char est[64];
                format_duration(est, sizeof est, (double) total / 1e9);
                printf("  estimated duration: %s\n", est);
        }
        g_free(profile);
        return status;
}

/* Loads the resume file PARTIAL: rows already measured for EXP.  Returns
 * the set of cell indices whose every repetition is there. */
static GHashTable *resume_load(const char *partial, const Experiment *exp, GString *rows, GError **error)
{
        g_autofree char *text = NULL;
        GHashTable *done = g_hash_table_new(g_direct_hash, g_direct_equal);

        if (!g_file_get_contents(partial, &text, NULL, NULL))
                return done;
        g_autofree char *want = g_strdup_printf("# ipclab partial sha256=%s profile=%s\n", exp->sha256,
                                                exp->profile ? exp->profile : "default");
        if (!g_str_has_prefix(text, want)) {
                g_set_error(error, IPCLAB_ERROR, IPCLAB_ERROR_INPUT,
                            "%s: the interrupted run was of another version of %s or another profile; "
                            "run without --resume to start again", partial, exp->path);
                g_hash_table_unref(done);
                return NULL;
        }
        g_autoptr(GHashTable) reps = g_hash_table_new(g_direct_hash, g_direct_equal);
        g_auto(GStrv) lines = g_strsplit(text + strlen(want), "\n", -1);
        for (guint i = 0; lines[i]; i++) {
                if (!lines[i][0] || g_str_has_prefix(lines[i], "cell\t"))
                        continue;
                guint cell = (guint) g_ascii_strtoull(lines[i], NULL, 10);
                guint n = GPOINTER_TO_UINT(g_hash_table_lookup(reps, GUINT_TO_POINTER(cell + 1)));
                g_hash_table_insert(reps, GUINT_TO_POINTER(cell + 1), GUINT_TO_POINTER(n + 1));
        }
        /* Keep only the rows of complete cells. */
        for (guint i = 0; lines[i]; i++) {
                if (!lines[i][0] || g_str_has_prefix(lines[i], "cell\t"))
                        continue;
                guint cell = (guint) g_ascii_strtoull(lines[i], NULL, 10);
                guint n = GPOINTER_TO_UINT(g_hash_table_lookup(reps, GUINT_TO_POINTER(cell + 1)));
                if (n == exp->repeat) {
                        g_string_append_printf(rows, "%s\n", lines[i]);
                        g_hash_table_add(done, GUINT_TO_POINTER(cell + 1));
                }
        }
        return done;
}

/* Orders sample rows by their leading "cell<TAB>rep" numbers. */
static int compare_rows(const void *pa, const void *pb)
{
        const char *a = *(char *const *) pa, *b = *(char *const *) pb;
        guint64 ca = g_ascii_strtoull(a, NULL, 10), cb = g_ascii_strtoull(b, NULL, 10);
        const char *ta = strchr(a, '\t'), *tb = strchr(b, '\t');
        guint64 ra = ta ? g_ascii_strtoull(ta + 1, NULL, 10) : 0;
        guint64 rb = tb ? g_ascii_strtoull(tb + 1, NULL, 10) : 0;

        if (ca != cb)
                return ca < cb ? -1 : 1;
        return ra < rb ? -1 : ra > rb;
}

static int run_one(const char *file, const char *profile, const char *out_dir, gboolean resume,
                   char **argv_all)
{
        g_autoptr(GError) e = NULL;
        g_autoptr(Experiment) exp = experiment_load(file, profile, &e);

        if (!exp)
                return report(e);

        g_autofree char *final = g_build_filename(out_dir, exp->name, NULL);
        g_autofree char *dot = g_strconcat(".", exp->name, NULL);
        g_autofree char *staging_name = g_strconcat(dot, ".new", NULL);
        g_autofree char *partial_name = g_strconcat(dot, ".partial.tsv", NULL);
        g_autofree char *staging = g_build_filename(out_dir, staging_name, NULL);
        g_autofree char *partial = g_build_filename(out_dir, partial_name, NULL);

        if (g_mkdir_with_parents(out_dir, 0755) < 0) {
                fprintf(stderr, "ipclab: cannot create %s: %s\n", out_dir, g_strerror(errno));
                return EXIT_FAILED;
        }
        g_autoptr(GString) rows = g_string_new(NULL);
        g_autoptr(GHashTable) done = NULL;
        if (resume) {
                done = resume_load(partial, exp, rows, &e);
                if (!done)
                        return report(e);
        } else {
                done = g_hash_table_new(g_direct_hash, g_direct_equal);
        }

        g_autoptr(Meta) meta = meta_begin(exp, (const char *const *) argv_all);
        for (const char *const *w = meta_warnings(meta); *w; w++)
                fprintf(stderr, "ipclab: warning: %s\n", *w);
        for (guint s = 0; s < exp->skipped->len; s++)
                fprintf(stderr, "ipclab: %s: skipped %s\n", exp->name, (char *) exp->skipped->pdata[s]);

        g_autoptr(Runner) runner = runner_new(exp);
        const char *env = meta_env_backend();
        bool tty = isatty(STDERR_FILENO);
        guint64 remaining = 0, start = g_get_monotonic_time();
        guint failed = 0, nrows = 0, cells_run = 0;

        for (guint c = 0; c < exp->cells->len; c++)
                if (!g_hash_table_contains(done, GUINT_TO_POINTER(((Cell *) exp->cells->pdata[c])->index + 1)))
                        remaining += cell_estimate_ns(exp->cells->pdata[c], exp->warmup) * exp->repeat;
        double est_total = (double) remaining / 1e9, est_done = 0;

        for (guint c = 0; c < exp->cells->len && !runner_interrupted; c++) {
                const Cell *cell = exp->cells->pdata[c];
                if (g_hash_table_contains(done, GUINT_TO_POINTER(cell->index + 1)))
                        continue;
                g_autoptr(GString) cell_rows = g_string_new(NULL);
                g_autofree char *desc = cell_describe(cell);
                for (guint rep = 0; rep < exp->repeat && !runner_interrupted; rep++) {
                        if (tty) {
                                double elapsed = (double) (g_get_monotonic_time() - start) / 1e6;
                                double eta = est_done > 0 ? elapsed / est_done * (est_total - est_done) : est_total;
                                char etab[64];
                                format_duration(etab, sizeof etab, eta);
                                fprintf(stderr, "\r\033[Kcell %u of %u, rep %u of %u, ETA %s: %s",
                                        c + 1, exp->cells->len, rep + 1, exp->repeat, etab, desc);
                        }
                        Sample s;
                        int r = runner_run(runner, cell, rep, &s);
                        if (r < 0) {
                                fprintf(stderr, "%sipclab: cannot run %s: %s\n", tty ? "\n" : "", desc, g_strerror(-r));
                                return EXIT_FAILED;
                        }
                        if (runner_interrupted)
                                break;
                        if (s.status < 0) {
                                failed++;
                                fprintf(stderr, "%sipclab: %s: failed: %s\n", tty ? "\n" : "", desc, s.why);
                        }
                        samples_append_row(cell_rows, env, cell, rep, &s);
                        nrows++;
                }
                est_done += (double) cell_estimate_ns(cell, exp->warmup) * exp->repeat / 1e9;
                if (runner_interrupted)
                        break;
                cells_run++;
                g_string_append(rows, cell_rows->str);
                /* The resume file, replaced whole after every cell. */
                g_autoptr(GString) p = g_string_new(NULL);
                g_string_printf(p, "# ipclab partial sha256=%s profile=%s\n%s%s", exp->sha256,
                                exp->profile ? exp->profile : "default", samples_header(), rows->str);
                int r = samples_write_atomic(partial, p->str, p->len);
                if (r < 0) {
                        fprintf(stderr, "%sipclab: cannot write %s: %s\n", tty ? "\n" : "", partial, g_strerror(-r));
                        return EXIT_FAILED;
                }
        }
        if (tty)
                fprintf(stderr, "\r\033[K");
        runner_stop_buses(runner);
        if (runner_interrupted) {
                fprintf(stderr, "ipclab: interrupted; %s is unchanged; `ipclab run --resume` continues from %u completed cells\n",
                        final, g_hash_table_size(done) + cells_run);
                return EXIT_INTERRUPTED;
        }

        /* Order rows by cell and repetition, whatever order they ran in. */
        g_auto(GStrv) lines = g_strsplit(rows->str, "\n", -1);
        guint nlines = g_strv_length(lines);
        if (nlines && !lines[nlines - 1][0]) {
                g_free(lines[nlines - 1]);
                lines[--nlines] = NULL;
        }
        qsort(lines, nlines, sizeof *lines, compare_rows);
        g_autoptr(GString) out = g_string_new(samples_header());
        guint total_rows = 0, total_failed = 0;
        for (guint i = 0; i < nlines; i++) {
                g_string_append_printf(out, "%s\n", lines[i]);
                total_rows++;
                total_failed += strstr(lines[i], "\tfailed\t") != NULL;
        }
        meta_end(meta, exp->cells->len, total_failed, total_rows);
        g_autofree char *ini = meta_to_ini(meta);

        samples_remove_dir(staging);
        if (mkdir(staging, 0755) < 0) {
                fprintf(stderr, "ipclab: cannot create %s: %s\n", staging, g_strerror(errno));
                return EXIT_FAILED;
        }
        g_autofree char *sp = g_build_filename(staging, "samples.tsv", NULL);
        g_autofree char *mp = g_build_filename(staging, "meta.ini", NULL);
        int r = samples_write_atomic(sp, out->str, out->len);
        if (r >= 0)
                r = samples_write_atomic(mp, ini, strlen(ini));
        if (r >= 0)
                r = samples_replace_dir(staging, final);
        if (r < 0) {
                fprintf(stderr, "ipclab: cannot write the results of %s into %s: %s; %s is unchanged\n",
                        exp->name, out_dir, g_strerror(-r), final);
                samples_remove_dir(staging);
                return EXIT_FAILED;
        }
        unlink(partial);
        fprintf(stderr, "ipclab: %s: %u rows (%u failed) in %s\n", exp->name, total_rows, total_failed, final);
        return total_failed || failed ? EXIT_FAILED : 0;
}

static int cmd_run(int argc, char **argv, char **argv_all)
{
        char *profile = NULL, *env = NULL, *out = NULL;
        gboolean resume = FALSE;
        GOptionEntry entries[] = {
                { "profile", 'p', 0, G_OPTION_ARG_STRING, &profile, "Apply [profile NAME] (e.g. quick)", "NAME" },
                { "env", 'e', 0, G_OPTION_ARG_STRING, &env, "Where to run: host (default), nspawn, vm", "ENV" },
                { "out", 'o', 0, G_OPTION_ARG_FILENAME, &out, "Results go to DIR/<experiment>/ (default: data)", "DIR" },
                { "resume", 'r', 0, G_OPTION_ARG_NONE, &resume, "Continue an interrupted run from its completed cells", NULL },
                { NULL },
        };
        g_autoptr(GOptionContext) ctx = g_option_context_new("FILE... - run experiments and store their samples");
        g_autoptr(GError) e = NULL;
        int status = 0;

        g_option_context_add_main_entries(ctx, entries, NULL);
        if (!g_option_context_parse(ctx, &argc, &argv, &e))
                return usage_error(ctx, e->message);
        if (argc < 2)
                return usage_error(ctx, "run needs at least one experiment file");
        if (env && strcmp(env, "host") != 0) {
                fprintf(stderr, "ipclab: --env %s: only host is available in this build\n", env);
                return EXIT_USAGE;
        }
        /* Validate every file before measuring anything. */
        for (int i = 1; i < argc; i++) {
                g_autoptr(GError) err = NULL;
                g_autoptr(Experiment) exp = experiment_load(argv[i], profile, &err);
                if (!exp)
                        return report(err);
        }
        struct sigaction sa = { .sa_handler = on_signal };
        sigaction(SIGINT, &sa, NULL);
        sigaction(SIGTERM, &sa, NULL);
        signal(SIGPIPE, SIG_IGN);
        for (int i = 1; i < argc && !runner_interrupted; i++) {
                int r = run_one(argv[i], profile, out ? out : "data", resume, argv_all);
                if (r == EXIT_INTERRUPTED)
                        return r;
                if (r > status)
                        status = r;
        }
        g_free(profile);
        g_free(env);
        g_free(out);
        return status;
}

/* Per-cell statistics of DIR/samples.tsv as TSV on stdout. */
static int cmd_summarize(int argc, char **argv)
{
        g_autoptr(GOptionContext) ctx = g_option_context_new("DIR - per-cell statistics of DIR/samples.tsv, as TSV");
        g_autoptr(GError) e = NULL;

        if (!g_option_context_parse(ctx, &argc, &argv, &e))
                return usage_error(ctx, e->message);
        if (argc != 2)
                return usage_error(ctx, "summarize needs one results directory");
        g_autofree char *path = g_build_filename(argv[1], "samples.tsv", NULL);
        g_autoptr(Table) t = table_read(path, &e);
        if (!t)
                return report(e);
        g_autofree char *exp_name = g_path_get_basename(argv[1]);

        const char *need[] = { "status", "elapsed_ns", "messages", "bytes_B", "client_user_ns",
                               "client_sys_ns", "server_user_ns", "server_sys_ns", "bus_cpu_ns",
                               "lat_p50_ns", "lat_p90_ns", "lat_p99_ns", "lat_p999_ns" };
        int col[G_N_ELEMENTS(need)];
        for (size_t i = 0; i < G_N_ELEMENTS(need); i++) {
                col[i] = table_column(t, need[i]);
                if (col[i] < 0) {
                        fprintf(stderr, "ipclab: %s: no column %s\n", path, need[i]);
                        return EXIT_USAGE;
                }
        }
        int axis[16];
        guint naxis = 0;
        for (guint i = 0; samples_axis_columns[i]; i++) {
                axis[naxis] = table_column(t, samples_axis_columns[i]);
                if (axis[naxis] < 0) {
                        fprintf(stderr, "ipclab: %s: no column %s\n", path, samples_axis_columns[i]);
                        return EXIT_USAGE;
                }
                naxis++;
        }
        /* Group rows by their axis values, keeping first-seen order. */
        g_autoptr(GHashTable) groups = g_hash_table_new_full(g_str_hash, g_str_equal, g_free, NULL);
        g_autoptr(GPtrArray) order = g_ptr_array_new_with_free_func((GDestroyNotify) g_ptr_array_unref);
        for (guint r = 0; r < t->rows->len; r++) {
                char **row = t->rows->pdata[r];
                g_autoptr(GString) key = g_string_new(NULL);
                for (guint a = 0; a < naxis; a++)
                        g_string_append_printf(key, "%s\t", row[axis[a]]);
                GPtrArray *g = g_hash_table_lookup(groups, key->str);
                if (!g) {
                        g = g_ptr_array_new();
                        g_hash_table_insert(groups, g_strdup(key->str), g);
                        g_ptr_array_add(order, g);
                }
                g_ptr_array_add(g, row);
        }
        printf("experiment\tenv\ttransport\tbus\tpayload\tsize_B\tpattern\treply\tmarshal\tcpus\tcount\tduration_ns"
               "\tn\tfailed\telapsed_ns\telapsed_ns_lo\telapsed_ns_hi\tmessages"
               "\tthroughput_MiBps\tthroughput_MiBps_lo\tthroughput_MiBps_hi"
               "\trate_per_s\trate_per_s_lo\trate_per_s_hi"
               "\tlat_p50_ns\tlat_p90_ns\tlat_p99_ns\tlat_p999_ns"
               "\tcpu_ns_per_msg\tclient_cpu_ns\tserver_cpu_ns\tbus_cpu_ns\n");
        for (guint gi = 0; gi < order->len; gi++) {
                GPtrArray *g = order->pdata[gi];
                guint n = 0, failed = 0;
                g_autofree double *el = g_new0(double, g->len), *tp = g_new0(double, g->len),
                                  *rate = g_new0(double, g->len), *msgs = g_new0(double, g->len),
                                  *cpm = g_new0(double, g->len), *ccpu = g_new0(double, g->len),
                                  *scpu = g_new0(double, g->len), *bcpu = g_new0(double, g->len);
                double *lat[4];
                guint nlat = 0;
                bool have_bus = false;
                for (int q = 0; q < 4; q++)
                        lat[q] = g_new0(double, g->len);
                for (guint i = 0; i < g->len; i++) {
                        char **row = g->pdata[i];
                        if (strcmp(row[col[0]], "ok") != 0) {
                                failed++;
                                continue;
                        }
                        double elapsed = g_ascii_strtod(row[col[1]], NULL);
                        double m = g_ascii_strtod(row[col[2]], NULL);
                        double b = g_ascii_strtod(row[col[3]], NULL);
                        double cc = g_ascii_strtod(row[col[4]], NULL) + g_ascii_strtod(row[col[5]], NULL);
                        double sc = g_ascii_strtod(row[col[6]], NULL) + g_ascii_strtod(row[col[7]], NULL);
                        double bc = strcmp(row[col[8]], "-") ? g_ascii_strtod(row[col[8]], NULL) : 0;
                        have_bus |= strcmp(row[col[8]], "-") != 0;
                        el[n] = elapsed;
                        msgs[n] = m;
                        tp[n] = elapsed > 0 ? b / (elapsed / 1e9) / 1048576.0 : 0;
                        rate[n] = elapsed > 0 ? m / (elapsed / 1e9) : 0;
                        ccpu[n] = cc;
                        scpu[n] = sc;
                        bcpu[n] = bc;
                        cpm[n] = m > 0 ? (cc + sc + bc) / m : 0;
                        if (strcmp(row[col[9]], "-") != 0) {
                                for (int q = 0; q < 4; q++)
                                        lat[q][nlat] = g_ascii_strtod(row[col[9 + q]], NULL);
                                nlat++;
                        }
                        n++;
                }
                char **first = g->pdata[0];
                printf("%s", exp_name);
                for (guint a = 0; a < naxis; a++)
                        printf("\t%s", first[axis[a]]);
                printf("\t%u\t%u", n, failed);
                if (n == 0) {
                        for (int k = 0; k < 20; k++)
                                printf("\t-");
                        printf("\n");
                        for (int q = 0; q < 4; q++)
                                g_free(lat[q]);
                        continue;
                }
                double lo, hi;
                stats_sort_double(el, n);
                stats_median_ci(el, n, 0.95, &lo, &hi);
                printf("\t%.0f\t%.0f\t%.0f", stats_median(el, n), lo, hi);
                stats_sort_double(msgs, n);
                printf("\t%.0f", stats_median(msgs, n));
                stats_sort_double(tp, n);
                stats_median_ci(tp, n, 0.95, &lo, &hi);
                if (stats_median(tp, n) > 0)
                        printf("\t%.6g\t%.6g\t%.6g", stats_median(tp, n), lo, hi);
                else
                        printf("\t-\t-\t-");
                stats_sort_double(rate, n);
                stats_median_ci(rate, n, 0.95, &lo, &hi);
                printf("\t%.6g\t%.6g\t%.6g", stats_median(rate, n), lo, hi);
                for (int q = 0; q < 4; q++) {
                        stats_sort_double(lat[q], nlat);
                        if (nlat)
                                printf("\t%.0f", stats_median(lat[q], nlat));
                        else
                                printf("\t-");
                        g_free(lat[q]);
                }
                printf("\t%.1f\t%.0f\t%.0f", stats_mean(cpm, n), stats_mean(ccpu, n), stats_mean(scpu, n));
                if (have_bus)
                        printf("\t%.0f\n", stats_mean(bcpu, n));
                else
                        printf("\t-\n");
        }
        return 0;
}

int main(int argc, char **argv)
{
        static const char usage[] =
                "Usage: ipclab COMMAND [OPTION...]\n\n"
                "Commands:\n"
                "  list                 transports, their variants, and why any is unavailable\n"
                "  check FILE...        validate; print the cells and an estimated duration\n"
                "  run FILE...          run; results go to DIR/<experiment>/ (--out DIR, default data)\n"
                "  summarize DIR        per-cell statistics of DIR/samples.tsv as TSV\n\n"
                "`ipclab COMMAND --help` describes a command's options.\n"
                "Exit status: 0 success, 1 a measurement failed, 2 bad usage or bad input.\n";

        if (argc < 2) {
                fputs(usage, stderr);
                return EXIT_USAGE;
        }
        const char *cmd = argv[1];
        if (!strcmp(cmd, "--help") || !strcmp(cmd, "-h") || !strcmp(cmd, "help")) {
                fputs(usage, stdout);
                return 0;
        }
        g_autofree char *prgname = g_strconcat("ipclab ", cmd, NULL);
        g_set_prgname(prgname);
        if (!strcmp(cmd, "list"))
                return cmd_list(argc - 1, argv + 1);
        if (!strcmp(cmd, "check"))
                return cmd_check(argc - 1, argv + 1);
        if (!strcmp(cmd, "run"))
                return cmd_run(argc - 1, argv + 1, argv);
        if (!strcmp(cmd, "summarize"))
                return cmd_summarize(argc - 1, argv + 1);
        fprintf(stderr, "ipclab: unknown command '%s'\n\n%s", cmd, usage);
        return EXIT_USAGE;
}
