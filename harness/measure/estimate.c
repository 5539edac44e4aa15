/* estimate.c: how long a run will take (estimate.h).  Never prints. */
#include <math.h>
#include <string.h>

#include "estimate.h"
#include "safefile.h"
#include "samples.h"
#include "stats.h"
#include "transport.h"
#include "verify.h"

/* The classes of fixed cost per repetition. */
typedef enum {
        FIXED_KERNEL,   /* the kernel's IPC, ipclab's harness transports, plugins */
        FIXED_DBUS,     /* D-Bus, COUNT messages: connection, Hello, match rules */
        FIXED_BOXED,    /* D-Bus in a time box: also the queue's drain past the box */
        FIXED_COMMAND,  /* a command per call (hyperfine): its own start-up */
        FIXED_RUN,      /* per run, not per repetition: meta.ini, bounds, buses */
        N_FIXED,
} FixedClass;

/* The model, in ns: this project's machine (2 vCPUs of an AMD EPYC under
 * a hypervisor, quiet), from the committed data/ of every experiment: the
 * spans meta.ini recorded less the windows and warm-ups of their rows,
 * per class; per-message times (model_per_msg()) from the rows'
 * elapsed_ns / messages, medians of the data of 7 December 2026 (KVM,
 * no page-table isolation).  A machine whose classes differ from these by
 * one factor is calibrated by it (model_speed()); one whose classes
 * differ from each other by more, as the bhyve guest with page-table
 * isolation of 2 December did (one-way kernel messages 3.8 times these,
 * round trips on one CPU 2.1 times, on two 0.8), needs the model made
 * again from its data. */
static const double model_fixed[N_FIXED] = { 15e6, 25e6, 40e6, 40e6, 0.5e9 };

/* One cell's per-message time as recorded: its placement, size and the
 * median over its repetitions of elapsed_ns / messages. */
typedef struct {
        char *key;      /* kind_key() */
        char *cpus;
        double size;
        double per_msg;
        double model;   /* model_per_msg() of its cell, or 0 */
} Recorded;

/* One run: its overhead (span less windows and warm-ups) and how many
 * repetitions of each class it ran. */
typedef struct {
        double overhead_ns;
        double n[N_FIXED];
} RunCost;

struct EstimateCalib {
        GArray *cells;          /* Recorded */
        GArray *runs;           /* RunCost, host and container runs */
        double fixed[N_FIXED];  /* fitted, or the model's times speed */
        bool fitted[N_FIXED];
        double speed;           /* this machine against the model's (model_speed()) */
        guint n_speed;          /* the recorded cells it is the median over */
        double nspawn_start_s, vm_boot_s, vm_factor;
        guint n_nspawn, n_vm;
        char *vm_accel;         /* of the VM runs it has seen */
        guint n_runs;
};

static double model_per_msg(const Cell *cell, double *per_byte)
{
        const Transport *t = transport_find(cell->transport);
        bool rt = cell->pattern != PATTERN_ONEWAY;
        /* The kernel's: a round trip of up to 64 B 33.5 us across two
         * CPUs, 8 on one; a one-way message 0.6 us across two, twice that
         * on one, where the consumer waits for the producer's time
         * slice, and 0.2 ns a byte more across two, 0.26 on one
         * (fifo-vs-socket from 1000 messages, 64 B to 4 KiB, 15:03 of 7
         * December: 614 to 1412 ns across two CPUs, 1213 to 2270 on
         * one). */
        bool same = cell->cpus == CPUS_SAME;
        double msg = rt ? (same ? 8000 : 33500) : (same ? 1200 : 600);
        double byte = rt ? (same ? 0.26 : 0.33) : 0.2 + same * 0.06;

        if (t && !strcmp(t->family, "harness")) {
                msg = 40;
                byte = cell->payload == PAYLOAD_STRING ? 0.4 : 0;
        } else if (t && (t->flags & TRANSPORT_COMMAND)) {
                msg = 3e6;   /* a process per call: dbus-send 1.7 ms, gdbus call 3.5, busctl 3.8 */
                byte = 0;
        } else if (t && !strcmp(t->family, "library")) {
                /* ZeroMQ, nng and gRPC (every-path): 53 us a round trip
                 * at 64 B on one CPU, 104 on two, 0.6 ns a byte more. */
                msg = rt ? (same ? 53000 : 104000) : 20000;
                byte = 0.6;
        } else if (t && (t->flags & TRANSPORT_DBUS)) {
                bool p2p = cell->bus == BUS_P2P;
                /* libdbus round trips of up to 64 B: 23 us peer to peer
                 * on one CPU, 65 on two; 57 and 114 through dbus-daemon. */
                msg = rt ? (p2p ? (same ? 23000 : 65000) : (same ? 57000 : 114000)) : (p2p ? 5000 : 25000);
                /* GDBus's calls with a short reply, 4 KiB to 1 MiB
                 * (gdbus-large): 1.7 ns a byte peer to peer, 1.9
                 * through dbus-broker, 3.9 through dbus-daemon. */
                byte = p2p ? 1.7 : cell->bus == BUS_DBUS_BROKER ? 2 : 4;
                /* A round trip whose reply echoes the payload: libdbus
                 * at 64 KiB (every-path), 1.7 to 2.2 ns a byte peer to
                 * peer, 4.3 to 5 through dbus-daemon.  dbus-broker takes
                 * the daemon's: its echoed cells (dbus-pingpong's 10 B,
                 * dbus-throughput's up to 8 KiB in a time box) were not
                 * read for a cost per byte of their own. */
                if (rt && cell->reply == REPLY_ECHO)
                        byte = p2p ? 2 : 5;
                /* GDBus's worker thread and QtDBus's event loop. */
                if (!strcmp(cell->transport, "gdbus"))
                        msg *= 3;
                else if (!strcmp(cell->transport, "qtdbus"))
                        msg *= 1.5;
                /* Per element at 20 KiB (sdbus-array): over the
                 * whole array's time, the median of the 11 runs of 7
                 * December on this machine (02:00 to 18:19 UTC, data/
                 * and reruns/), whose medians spread 18 to 30 ns a
                 * byte appending per element and 39 to 61 with both
                 * ends per element as the machine's speed changed. */
                if (cell->marshal == MARSHAL_PER_ELEMENT)
                        byte = 50;
                else if (cell->marshal == MARSHAL_APPEND_PER_ELEMENT)
                        byte = 22;
        }
        *per_byte = byte;
        return msg + byte * (double) cell->size;
}

static FixedClass fixed_class(const char *transport, bool boxed)
{
        const Transport *t = transport_find(transport);

        if (t && (t->flags & TRANSPORT_COMMAND))
                return FIXED_COMMAND;
        if (t && (t->flags & TRANSPORT_DBUS))
                return boxed ? FIXED_BOXED : FIXED_DBUS;
        return FIXED_KERNEL;
}

/* The key of a cell's kind: the values of the axes a recorded
 * per-message time is matched on (of_kind in axes.c) as samples.tsv
 * writes them (axes.h), from ROW (of T: a column missing reads "-") or,
 * when ROW is NULL, from CELL. */
static char *kind_key(const Table *t, char **row, const Cell *cell)
{
        GString *s = g_string_new(NULL);
        bool first = true;

        for (size_t i = 0; i < axis_count; i++) {
                const Axis *a = &axis_table[i];
                if (!a->of_kind)
                        continue;
                g_autofree char *v = NULL;
                if (row) {
                        int col = table_column(t, axis_column(a));
                        v = g_strdup(col >= 0 ? row[col] : "-");
                } else {
                        v = axis_cell_text(a, cell);
                }
                g_string_append_printf(s, "%s%s", first ? "" : "|", v);
                first = false;
        }
        return g_string_free(s, FALSE);
}

static void recorded_clear(Recorded *r)
{
        g_free(r->key);
        g_free(r->cpus);
}

static double iso_seconds(const char *s)
{
        g_autoptr(GDateTime) t = s ? g_date_time_new_from_iso8601(s, NULL) : NULL;
        return t ? (double) g_date_time_to_unix(t) + g_date_time_get_microsecond(t) / 1e6 : -1;
}

static double median(GArray *v)
{
        stats_sort_double((double *) v->data, v->len);
        return stats_median((const double *) v->data, v->len);
}

/* The [run] groups of a meta.ini ("run", "run NAME"), by start time. */
typedef struct {
        char *group;
        char *env, *machine, *accel;
        double start, finish;
} RunGroup;

static void run_group_clear(RunGroup *g)
{
        g_free(g->group);
        g_free(g->env);
        g_free(g->machine);
        g_free(g->accel);
}

static int compare_start(const void *a, const void *b)
{
        const RunGroup *x = a, *y = b;
        return x->start < y->start ? -1 : x->start > y->start;
}

static GArray *run_groups(GKeyFile *kf)
{
        GArray *out = g_array_new(FALSE, TRUE, sizeof(RunGroup));
        g_auto(GStrv) groups = g_key_file_get_groups(kf, NULL);

        g_array_set_clear_func(out, (GDestroyNotify) run_group_clear);
        for (guint i = 0; groups[i]; i++) {
                if (strcmp(groups[i], "run") && !g_str_has_prefix(groups[i], "run "))
                        continue;
                g_autofree char *s = g_key_file_get_string(kf, groups[i], "started", NULL);
                g_autofree char *f = g_key_file_get_string(kf, groups[i], "finished", NULL);
                RunGroup g = {
                        .group = g_strdup(groups[i]),
                        .env = g_key_file_get_string(kf, groups[i], "env", NULL),
                        .machine = g_key_file_get_string(kf, groups[i], "machine", NULL),
                        .accel = g_key_file_get_string(kf, groups[i], "env_accel", NULL),
                        .start = iso_seconds(s),
                        .finish = iso_seconds(f),
                };
                if (g.env && g.machine && g.start > 0 && g.finish >= g.start)
                        g_array_append_val(out, g);
                else
                        run_group_clear(&g);
        }
        g_array_sort(out, compare_start);
        return out;
}

double estimate_recorded_secs(const char *dir, char **machine, guint *places)
{
        g_autofree char *path = g_build_filename(dir, "meta.ini", NULL);
        g_autoptr(GKeyFile) kf = safefile_key_file(path, NULL);

        *machine = NULL;
        *places = 0;
        if (!kf)
                return -1;
        g_autoptr(GArray) runs = run_groups(kf);
        if (!runs->len)
                return -1;
        double first = G_MAXDOUBLE, last = 0;
        g_autoptr(GHashTable) names = g_hash_table_new(g_str_hash, g_str_equal);
        for (guint i = 0; i < runs->len; i++) {
                const RunGroup *g = &g_array_index(runs, RunGroup, i);
                first = MIN(first, g->start);
                last = MAX(last, g->finish);
                g_hash_table_add(names, g->machine);
        }
        *machine = g_strdup(g_array_index(runs, RunGroup, 0).machine);
        *places = g_hash_table_size(names);
        return last - first;
}

/* estimate.h */
void estimate_take_recorded(Experiment *exp, const char *dir)
{
        g_autofree char *path = g_build_filename(dir, "meta.ini", NULL);
        g_autoptr(GKeyFile) kf = exp->repeat_decide ? safefile_key_file(path, NULL) : NULL;

        if (!kf)
                return;
        guint n = 0;
        for (guint c = 0; c < exp->cells->len; c++)
                n = MAX(n, ((const Cell *) exp->cells->pdata[c])->index + 1);
        g_free(exp->taken);
        exp->taken = g_new0(guint, n);
        exp->n_taken = n;
        for (guint c = 0; c < n; c++) {
                g_autofree char *key = g_strdup_printf("cell_%u", c);
                g_autofree char *v = g_key_file_get_string(kf, "repeat", key, NULL);
                char *end = NULL;
                guint64 reps = v ? g_ascii_strtoull(v, &end, 10) : 0;
                if (v && end != v && g_str_has_prefix(end, " repetitions") && reps <= G_MAXUINT)
                        exp->taken[c] = (guint) reps;
        }
}

/* Field COL of ROW, or "-". */
static const char *field(const Table *t, char **row, int col)
{
        (void) t;
        return col >= 0 ? row[col] : "-";
}

/* Reads one experiment's directory into CAL. */
static void calib_add_dir(EstimateCalib *cal, const char *dir, const char *machine)
{
        g_autofree char *meta = g_build_filename(dir, "meta.ini", NULL);
        g_autofree char *tsv = g_build_filename(dir, "samples.tsv", NULL);
        g_autoptr(GKeyFile) kf = safefile_key_file(meta, NULL);
        if (!kf)
                return;
        g_autoptr(Table) t = samples_table_read(tsv, NULL);
        if (!t)
                return;
        g_autoptr(GArray) runs = run_groups(kf);
        guint64 warmup = 0;
        g_autofree char *w = g_key_file_get_string(kf, "resolved", "warmup", NULL);
        if (!w || !samples_parse_whole(w, &warmup))
                return;
        enum { C_ENV, C_MACHINE, C_TRANSPORT, C_CPUS, C_SIZE, C_DURATION, C_STATUS, C_ELAPSED, C_MESSAGES, N_C };
        static const char *const names[N_C] = { "env", "machine", "transport", "cpus", "size_B", "duration_ns",
                                                "status", "elapsed_ns", "messages" };
        int col[N_C];
        for (int c = 0; c < N_C; c++)
                col[c] = table_column(t, names[c]);
        if (col[C_ENV] < 0 || col[C_MACHINE] < 0 || col[C_TRANSPORT] < 0 || col[C_ELAPSED] < 0 ||
            col[C_MESSAGES] < 0)
                return;

        /* Per-message times of the host's cells, per cell. */
        g_autoptr(GHashTable) per_cell = g_hash_table_new_full(g_str_hash, g_str_equal, g_free,
                                                               (GDestroyNotify) g_array_unref);
        g_autoptr(GHashTable) model_of = g_hash_table_new_full(g_str_hash, g_str_equal, g_free, g_free);
        double host_span = -1;
        for (guint i = 0; i < runs->len; i++) {
                const RunGroup *g = &g_array_index(runs, RunGroup, i);
                if (strcmp(g->machine, machine))
                        continue;
                RunCost rc = { 0 };
                double windows = 0;
                for (guint r = 0; r < t->rows->len; r++) {
                        char **row = t->rows->pdata[r];
                        if (strcmp(field(t, row, col[C_ENV]), g->env) || strcmp(field(t, row, col[C_MACHINE]), g->machine))
                                continue;
                        bool boxed = strcmp(field(t, row, col[C_DURATION]), "-") != 0;
                        rc.n[fixed_class(field(t, row, col[C_TRANSPORT]), boxed)]++;
                        guint64 el = 0, msgs = 0;
                        if (strcmp(field(t, row, col[C_STATUS]), "ok") ||
                            !samples_parse_whole(field(t, row, col[C_ELAPSED]), &el) ||
                            !samples_parse_whole(field(t, row, col[C_MESSAGES]), &msgs) || !msgs)
                                continue;
                        double per_msg = (double) el / (double) msgs;
                        windows += (double) el + per_msg * (double) warmup;
                        if (strcmp(g->env, "host"))
                                continue;
                        g_autofree char *key = kind_key(t, row, NULL);
                        g_autofree char *full = g_strjoin("\t", key, field(t, row, col[C_CPUS]),
                                                          field(t, row, col[C_SIZE]), NULL);
                        GArray *v = g_hash_table_lookup(per_cell, full);
                        if (!v) {
                                v = g_array_new(FALSE, FALSE, sizeof(double));
                                g_hash_table_insert(per_cell, g_strdup(full), v);
                                Cell cell;
                                double byte, *model = g_new0(double, 1);
                                if (samples_row_cell(t, row, &cell))
                                        *model = model_per_msg(&cell, &byte);
                                g_hash_table_insert(model_of, g_strdup(full), model);
                        }
                        g_array_append_val(v, per_msg);
                }
                double span = g->finish - g->start;
                cal->n_runs++;
                if (!strcmp(g->env, "host") && host_span < 0)
                        host_span = span;
                if (!strcmp(g->env, "vm")) {
                        /* Its slowdown against the host's run of the
                         * same file; its boot, the gap before it. */
                        if (host_span > 0) {
                                cal->vm_factor += span / host_span;
                                g_free(cal->vm_accel);
                                cal->vm_accel = g_strdup(g->accel ? g->accel : "tcg");
                                cal->n_vm++;
                                if (i > 0)
                                        cal->vm_boot_s += g->start - g_array_index(runs, RunGroup, i - 1).finish;
                        }
                        continue;
                }
                if (!strcmp(g->env, "nspawn") && i > 0) {
                        cal->nspawn_start_s += g->start - g_array_index(runs, RunGroup, i - 1).finish;
                        cal->n_nspawn++;
                }
                rc.n[FIXED_RUN] = 1;
                rc.overhead_ns = span * 1e9 - windows;
                g_array_append_val(cal->runs, rc);
        }
        GHashTableIter it;
        gpointer k, v;
        g_hash_table_iter_init(&it, per_cell);
        while (g_hash_table_iter_next(&it, &k, &v)) {
                g_auto(GStrv) parts = g_strsplit(k, "\t", 3);
                double size = 0;
                if (!samples_parse_number(parts[2], &size))
                        size = 0;
                const double *model = g_hash_table_lookup(model_of, k);
                Recorded r = { .key = g_strdup(parts[0]), .cpus = g_strdup(parts[1]), .size = size,
                               .per_msg = median(v), .model = model ? *model : 0 };
                g_array_append_val(cal->cells, r);
        }
}

/* How fast this machine is against the model's: the median over CAL's
 * recorded cells of their per-message time over the model's for the same
 * cell.  A machine twice as fast as the one the model was made on (or
 * the same one on a quieter day) gives 0.5, and the model's times of the
 * cells and costs no run recorded are scaled by it; 1 with no cell
 * recorded. */
static void model_speed(EstimateCalib *cal)
{
        g_autoptr(GArray) v = g_array_new(FALSE, FALSE, sizeof(double));

        for (guint i = 0; i < cal->cells->len; i++) {
                const Recorded *r = &g_array_index(cal->cells, Recorded, i);
                if (r->model > 0 && r->per_msg > 0) {
                        double q = r->per_msg / r->model;
                        g_array_append_val(v, q);
                }
        }
        cal->n_speed = v->len;
        cal->speed = v->len ? median(v) : 1;
}

/* Solves the N x N system A x = B in place (Gaussian elimination with
 * partial pivoting); false when it is singular. */
static bool solve(double a[N_FIXED][N_FIXED], double b[N_FIXED], int n, double x[N_FIXED])
{
        for (int c = 0; c < n; c++) {
                int p = c;
                for (int r = c + 1; r < n; r++)
                        if (fabs(a[r][c]) > fabs(a[p][c]))
                                p = r;
                if (fabs(a[p][c]) < 1e-30)
                        return false;
                for (int k = 0; k < n; k++) {
                        double t = a[c][k];
                        a[c][k] = a[p][k];
                        a[p][k] = t;
                }
                double t = b[c];
                b[c] = b[p];
                b[p] = t;
                for (int r = c + 1; r < n; r++) {
                        double f = a[r][c] / a[c][c];
                        for (int k = c; k < n; k++)
                                a[r][k] -= f * a[c][k];
                        b[r] -= f * b[c];
                }
        }
        for (int r = n - 1; r >= 0; r--) {
                double s = b[r];
                for (int k = r + 1; k < n; k++)
                        s -= a[r][k] * x[k];
                x[r] = s / a[r][r];
        }
        return true;
}

/* The fixed costs that fit the runs' overheads best, drawn toward the
 * model's times the machine's speed (a prior worth about one repetition
 * per class, in ns): where the runs tell the classes apart the data
 * decide, where they cannot (one class only in runs of another), the
 * model does.  A class no run has keeps the model's cost times the
 * speed; none is below zero. */
static void calib_fit(EstimateCalib *cal)
{
        double a[N_FIXED][N_FIXED] = { { 0 } }, b[N_FIXED] = { 0 }, x[N_FIXED];
        const double prior = 1.0;   /* weight of c_k = model_k, against rows counted in repetitions */

        for (int k = 0; k < N_FIXED; k++) {
                cal->fixed[k] = model_fixed[k] * cal->speed;
                for (guint r = 0; r < cal->runs->len; r++)
                        cal->fitted[k] |= g_array_index(cal->runs, RunCost, r).n[k] > 0;
        }
        for (guint r = 0; r < cal->runs->len; r++) {
                const RunCost *rc = &g_array_index(cal->runs, RunCost, r);
                for (int i = 0; i < N_FIXED; i++) {
                        for (int j = 0; j < N_FIXED; j++)
                                a[i][j] += rc->n[i] * rc->n[j];
                        b[i] += rc->n[i] * rc->overhead_ns;
                }
        }
        for (int k = 0; k < N_FIXED; k++) {
                a[k][k] += prior;
                b[k] += prior * model_fixed[k] * cal->speed;
        }
        if (!solve(a, b, N_FIXED, x))
                return;
        for (int k = 0; k < N_FIXED; k++)
                if (cal->fitted[k])
                        cal->fixed[k] = MAX(x[k], 0);
}

EstimateCalib *estimate_calib_load(const char *data_dir, const char *machine, const char *skip)
{
        EstimateCalib *cal = g_new0(EstimateCalib, 1);

        cal->cells = g_array_new(FALSE, TRUE, sizeof(Recorded));
        g_array_set_clear_func(cal->cells, (GDestroyNotify) recorded_clear);
        cal->runs = g_array_new(FALSE, TRUE, sizeof(RunCost));
        g_autoptr(GDir) d = data_dir ? g_dir_open(data_dir, 0, NULL) : NULL;
        const char *name;
        g_autoptr(GPtrArray) names = g_ptr_array_new_with_free_func(g_free);
        while (d && machine && (name = g_dir_read_name(d)))
                if (name[0] != '.' && (!skip || strcmp(name, skip)))
                        g_ptr_array_add(names, g_strdup(name));
        g_ptr_array_sort(names, samples_name_cmp);
        for (guint i = 0; i < names->len; i++) {
                g_autofree char *dir = g_build_filename(data_dir, names->pdata[i], NULL);
                calib_add_dir(cal, dir, machine);
        }
        model_speed(cal);
        calib_fit(cal);
        cal->nspawn_start_s = cal->n_nspawn ? cal->nspawn_start_s / cal->n_nspawn : 0;
        cal->vm_boot_s = cal->n_vm ? cal->vm_boot_s / cal->n_vm : 0;
        cal->vm_factor = cal->n_vm ? cal->vm_factor / cal->n_vm : 0;
        return cal;
}

void estimate_calib_free(EstimateCalib *cal)
{
        if (!cal)
                return;
        g_array_unref(cal->cells);
        g_array_unref(cal->runs);
        g_free(cal->vm_accel);
        g_free(cal);
}

guint estimate_calib_runs(const EstimateCalib *cal)
{
        return cal ? cal->n_runs : 0;
}

/* CELL's per-message time from CAL's recorded cells of its kind (the
 * same placement if any, else any), linear in the size between and
 * beyond the sizes recorded; < 0 when none is of its kind. */
static double recorded_per_msg(const EstimateCalib *cal, const Cell *cell, double model_byte)
{
        g_autofree char *key = kind_key(NULL, NULL, cell);
        for (int pass = 0; pass < 2; pass++) {
                /* The nearest recorded sizes below and above. */
                const Recorded *lo = NULL, *hi = NULL;
                double s = (double) cell->size;
                for (guint i = 0; i < cal->cells->len; i++) {
                        const Recorded *r = &g_array_index(cal->cells, Recorded, i);
                        if (strcmp(r->key, key) || (pass == 0 && strcmp(r->cpus, cpus_name(cell->cpus))))
                                continue;
                        if (r->size <= s && (!lo || r->size > lo->size))
                                lo = r;
                        if (r->size >= s && (!hi || r->size < hi->size))
                                hi = r;
                }
                if (lo && hi)
                        return hi->size > lo->size ? lo->per_msg + (hi->per_msg - lo->per_msg) *
                                                                   (s - lo->size) / (hi->size - lo->size)
                                                   : (lo->per_msg + hi->per_msg) / 2;
                /* Beyond the sizes recorded: the nearest one's time and the
                 * model's cost per byte (the slope between small sizes is
                 * mostly noise, and far too steep or flat 100 times further
                 * out: gdbus's 4 to 8 KiB against its 1 MiB). */
                const Recorded *n = lo ? lo : hi;
                if (!n)
                        continue;
                return MAX(n->per_msg + model_byte * (s - n->size), n->per_msg / 2);
        }
        return -1;
}

static double per_msg_ns(const EstimateCalib *cal, const Cell *cell, bool *seen)
{
        double byte = 0, speed = cal ? cal->speed : 1, model = model_per_msg(cell, &byte) * speed;
        double rec = cal ? recorded_per_msg(cal, cell, byte * speed) : -1;

        *seen = rec >= 0;
        return rec >= 0 ? rec : model;
}

static double rep_ns(const EstimateCalib *cal, const Cell *cell, guint warmup, bool *seen)
{
        double msg = per_msg_ns(cal, cell, seen);
        FixedClass k = fixed_class(cell->transport, cell->duration_ns != 0);
        double fixed = cal ? cal->fixed[k] : model_fixed[k];
        double window = cell->duration_ns ? (double) cell->duration_ns : msg * (double) cell->count;
        double ns = fixed + msg * (double) warmup + window;
        return ns < 1e18 ? ns : 1e18;   /* 30 years: "forever" */
}

double estimate_rep_ns(const EstimateCalib *cal, const Cell *cell, guint warmup)
{
        bool seen;
        return rep_ns(cal, cell, warmup, &seen);
}

bool estimate_calib_env(const EstimateCalib *cal, const char *env, EstimateEnvCalib *out)
{
        memset(out, 0, sizeof *out);
        if (!cal)
                return false;
        if (!strcmp(env, "nspawn") && cal->n_nspawn) {
                *out = (EstimateEnvCalib) { .runs = cal->n_nspawn, .start_s = cal->nspawn_start_s, .factor = 1 };
                return true;
        }
        if (!strcmp(env, "vm") && cal->n_vm) {
                *out = (EstimateEnvCalib) { .runs = cal->n_vm, .start_s = cal->vm_boot_s, .factor = cal->vm_factor,
                                            .accel = cal->vm_accel };
                return true;
        }
        return false;
}

/* The repetitions EXP gives CELL: its repeat (with repeat=auto, the
 * least); in a sequential design the cells of a claim the last look's,
 * the most they can take (a claim still undecided at the first look, as
 * it often is, takes them all). */
static guint design_reps(const Experiment *exp, const Cell *cell)
{
        if (!exp->repeat_decide || !exp->n_looks)
                return exp->repeat;
        if (cell->index < exp->n_taken && exp->taken[cell->index])
                return exp->taken[cell->index];
        for (guint k = 0; k < exp->claims->len; k++)
                if (verify_claim_covers(exp->claims->pdata[k], cell))
                        return exp->looks[exp->n_looks - 1];
        return exp->repeat;
}

void estimate_host(const Experiment *exp, const EstimateCalib *cal, Estimate *out)
{
        double host = (cal ? cal->fixed[FIXED_RUN] : model_fixed[FIXED_RUN]);

        memset(out, 0, sizeof *out);
        for (guint c = 0; c < exp->cells->len; c++) {
                bool seen = false;
                host += rep_ns(cal, exp->cells->pdata[c], exp->warmup, &seen) * design_reps(exp, exp->cells->pdata[c]);
                out->cells_seen += seen;
        }
        host /= 1e9;
        out->cells = exp->cells->len;
        out->host_secs = host;
        out->secs = host;
        out->runs = estimate_calib_runs(cal);
        out->speed = cal ? cal->speed : 1;
        out->n_speed = cal ? cal->n_speed : 0;
        out->more = exp->repeat_auto && !exp->repeat_decide;
        out->most = exp->repeat_decide && exp->n_looks > 1;
}

char *estimate_describe(const Estimate *e)
{
        GString *s = g_string_new(NULL);

        if (e->runs)
                g_string_append_printf(s, "calibrated from %u earlier run%s on this machine (data/*/meta.ini and "
                                       "samples.tsv): the per-message times of %u of %u cells as recorded, the rest "
                                       "modelled at %.2f times the model's (the median of recorded over modelled "
                                       "over %u recorded cells); per-repetition and per-run costs fitted to their "
                                       "spans",
                                       e->runs, e->runs == 1 ? "" : "s", e->cells_seen, e->cells, e->speed,
                                       e->n_speed);
        else
                g_string_append(s, "the model (no earlier run on this machine in data/): per-message and per-byte "
                                   "costs of each transport, per repetition fork, pinning and connection (more for "
                                   "D-Bus, a command per call), warm-up, per run its start");
        if (e->where)
                g_string_append(s, e->where);
        if (e->more)
                g_string_append(s, "; repeat=auto: for the least repetitions, it may take more");
        if (e->most)
                g_string_append(s, "; repeat_until=decided: the cells of a claim to the last look, the most "
                                   "it takes");
        return g_string_free(s, FALSE);
}
