/* run.c: one experiment from file to data/<experiment>/, as `ipclab run`
 * does it.
 *
 * Repetitions are taken in rounds: round r runs repetition r of every cell
 * that still needs one, in an order shuffled afresh each round from the
 * experiment's seed, so that drift and ordering do not masquerade as
 * differences between cells (Kalibera & Jones; Mytkowicz et al.).  With
 * repeat=auto a cell keeps getting rounds until the 95% confidence
 * interval of its median cost per message is within ci_target of the
 * median and then a fixed confirmation batch of `repeat` more (so that
 * stopping does not pick lucky samples; stats_auto_done), or repeat_max or
 * auto_cap is reached; what was reached is stored.  With repeat_until=
 * decided the cells of a claim go on from look to look of the file's
 * schedule (looks=) until every claim over them holds or fails there,
 * evaluated exactly as `ipclab verify` replays it (verify.h: each look at
 * alpha/L, so that stopping when decided biases nothing); cells of no
 * claim stop at the first look's repetitions.
 *
 * Every finished repetition is appended to data/.<experiment>.partial.tsv
 * and synced, so that `--resume` continues where an interrupted run
 * stopped.  A repetition that measured latencies first appends them (its
 * rows of latencies.tsv, see latency.h) to
 * data/.<experiment>.partial-latencies.tsv and syncs them, so that a row in
 * the partial samples always has its latencies on disk; --resume keeps the
 * latencies of the rows it keeps and drops the others, and drops a row
 * whose latencies are not all there (it is measured again).  At the end
 * samples.tsv, latencies.tsv.gz and meta.ini are written into a staging
 * directory that replaces data/<experiment> in one step.
 */
#include "run.h"
#include "rows.h"

#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <math.h>
#include <stdio.h>
#include <string.h>
#include <sys/file.h>
#include <sys/stat.h>
#include <unistd.h>

#include "estimate.h"
#include "history.h"
#include "latency.h"
#include "meta.h"
#include "progress.h"
#include "runner.h"
#include "safefile.h"
#include "samples.h"
#include "spawn.h"
#include "stats.h"
#include "transport.h"
#include "verify.h"

/* What the scheduler knows of one cell. */
typedef struct {
        guint reps;           /* repetitions taken (ok or failed) */
        GArray *cost;         /* double: elapsed_ns / messages of ok repetitions */
        guint64 spent_ns;     /* wall time its repetitions took */
        const char *stop;     /* why repeat=auto stopped, or NULL */
        double halfwidth;     /* last CI half-width / median */
        size_t narrowed_at;   /* repeat=auto: repetitions when it first was
                               * narrow enough (stats_auto_done), or 0 */
        bool in_claim;        /* repeat_until=decided: some claim is over it */
        guint look;           /* ... the look it runs towards (an index of
                               * exp->looks) */
} CellState;

void run_format_duration(char *buf, size_t len, double s)
{
        if (s < 1)
                snprintf(buf, len, "%.0f ms", s * 1000);
        else if (s < 120)
                snprintf(buf, len, "%.1f s", s);
        else if (s < 7200) {
                /* Whole seconds first, so that 539.7 s is 9 min 00 s, not 8 min 60 s. */
                double whole = round(s);
                snprintf(buf, len, "%.0f min %02.0f s", floor(whole / 60), fmod(whole, 60));
        }
        else
                snprintf(buf, len, "%.1f h", s / 3600);
}

static char *lock_path(const char *out_dir)
{
        return g_build_filename(out_dir, ".ipclab.lock", NULL);
}

int run_lock_out(const char *out_dir, const char *const *argv, GError **error)
{
        struct stat st, fst;

        if (g_getenv("IPCLAB_ENV_BACKEND"))
                return INT_MAX;
        if (g_mkdir_with_parents(out_dir, 0755) < 0) {
                g_set_error(error, IPCLAB_ERROR, IPCLAB_ERROR_INPUT, "--out %s: cannot create it: %s",
                            out_dir, g_strerror(errno));
                return -1;
        }
        if (stat(out_dir, &st) < 0 || !S_ISDIR(st.st_mode)) {
                g_set_error(error, IPCLAB_ERROR, IPCLAB_ERROR_INPUT, "--out %s: %s", out_dir,
                            errno ? g_strerror(errno) : "not a directory");
                return -1;
        }
        if (access(out_dir, W_OK | X_OK) < 0) {
                g_set_error(error, IPCLAB_ERROR, IPCLAB_ERROR_INPUT,
                            "--out %s: cannot write there (%s; owner uid %u, mode %04o)", out_dir,
                            g_strerror(errno), (unsigned) st.st_uid, (unsigned) (st.st_mode & 07777));
                return -1;
        }
        g_autofree char *path = lock_path(out_dir);
        /* The lock file is removed when a run ends: lock, then make sure
         * the file locked is still the one at PATH, else try again. */
        for (int attempt = 0; attempt < 10; attempt++) {
                int fd = open(path, O_RDWR | O_CREAT | O_CLOEXEC | O_NOFOLLOW, 0644);
                if (fd < 0) {
                        g_set_error(error, IPCLAB_ERROR, IPCLAB_ERROR_INPUT, "--out %s: cannot create %s: %s",
                                    out_dir, path, g_strerror(errno));
                        return -1;
                }
                if (flock(fd, LOCK_EX | LOCK_NB) < 0) {
                        int e = errno;
                        char holder[512] = "";
                        ssize_t n = e == EWOULDBLOCK ? pread(fd, holder, sizeof holder - 1, 0) : -1;
                        close(fd);
                        if (n > 0) {
                                holder[n] = '\0';
                                g_strdelimit(holder, "\n", ' ');
                                g_strstrip(holder);
                        }
                        g_set_error(error, IPCLAB_ERROR, IPCLAB_ERROR_INPUT,
                                    e == EWOULDBLOCK
                                    ? "--out %s: another ipclab run is writing there (%s); one run per output "
                                      "directory at a time: wait for it to end, or choose another --out"
                                    : "--out %s: cannot lock it (%s)",
                                    out_dir, e == EWOULDBLOCK ? (n > 0 ? holder : "holder unknown") : g_strerror(e));
                        return -1;
                }
                if (fstat(fd, &fst) == 0 && stat(path, &st) == 0 &&
                    st.st_dev == fst.st_dev && st.st_ino == fst.st_ino) {
                        g_autofree char *cmd = g_strjoinv(" ", (char **) argv);
                        g_autofree char *who = g_strdup_printf("pid %d: %s\n", (int) getpid(), cmd);
                        /* The note is for the next run's message; the
                         * lock holds without it. */
                        if (ftruncate(fd, 0) == 0)
                                (void) !pwrite(fd, who, strlen(who), 0);
                        return fd;
                }
                close(fd);
        }
        g_set_error(error, IPCLAB_ERROR, IPCLAB_ERROR_INPUT, "--out %s: its lock file %s keeps changing", out_dir, path);
        return -1;
}

void run_unlock_out(const char *out_dir, int fd)
{
        if (fd < 0 || fd == INT_MAX)
                return;
        g_autofree char *path = lock_path(out_dir);
        unlink(path);
        close(fd);
}

/* Updates ST with one row's measurement. */
static void state_add(const Experiment *exp, CellState *st, bool ok, double cost, guint64 ns)
{
        st->reps++;
        st->spent_ns += ns;
        if (ok)
                g_array_append_val(st->cost, cost);
        /* The cells of a claim stop only at a look (decide_at_look); the
         * others have what the first look asks and no more: no verdict
         * waits for them, and the narrow rule's confirmation batch would
         * double them. */
        if (!exp->repeat_auto || st->reps < exp->repeat || (exp->repeat_decide && st->in_claim))
                return;
        guint n = st->cost->len;
        if (exp->repeat_decide) {
                stats_auto_done((const double *) (gpointer) st->cost->data, n, exp->repeat, exp->ci_target,
                                &st->narrowed_at, &st->halfwidth);
                st->stop = "no claim over it: the first look's repetitions";
                return;
        }
        if (stats_auto_done((const double *) (gpointer) st->cost->data, n, exp->repeat, exp->ci_target,
                            &st->narrowed_at, &st->halfwidth)) {
                st->stop = "confirmed after it converged";
                return;
        }
        if (st->reps >= exp->repeat_max)
                st->stop = "repeat_max reached";
        else if (st->spent_ns >= exp->auto_cap_ns)
                st->stop = "auto_cap reached";
        else if (n == 0 && st->reps >= exp->repeat)
                st->stop = "every repetition failed";
}

static bool needs_round(const Experiment *exp, const CellState *st, guint round)
{
        if (round < exp->repeat)
                return true;
        if (exp->repeat_decide && st->in_claim)
                return !st->stop && round < exp->looks[st->look];
        return exp->repeat_auto && !st->stop && round < exp->repeat_max;
}

/* repeat_until=decided: which cells a claim of EXP is over. */
static void mark_claim_cells(const Experiment *exp, CellState *states)
{
        for (guint c = 0; exp->repeat_decide && c < exp->cells->len; c++) {
                const Cell *cell = exp->cells->pdata[c];
                for (guint k = 0; k < exp->claims->len && !states[cell->index].in_claim; k++)
                        states[cell->index].in_claim = verify_claim_covers(exp->claims->pdata[k], cell);
        }
}

/* repeat_until=decided, before round ROUND: when ROUND is look j of the
 * schedule, every claim is evaluated on ROWS (this run's rows of
 * samples.tsv) exactly as `ipclab verify` replays looks 1 to j.  A pair
 * decided at a look keeps that look's verdict (verify.h), so a cell
 * waiting for look j goes on to look j + 1 only while a pair over it is
 * undecided in a claim that is undecided; it stops when none is, at the
 * last look, or past auto_cap.  Stopping only at looks keeps the look
 * schedule the verdicts were planned for. */
static void decide_at_look(const Experiment *exp, CellState *states, const GPtrArray *rows, guint round)
{
        guint j = 0;

        if (!exp->repeat_decide || !exp->claims->len)
                return;
        while (j < exp->n_looks && exp->looks[j] != round)
                j++;
        if (j == exp->n_looks)
                return;
        g_autoptr(Table) t = verify_rows_table(rows);
        /* The cells (by number) of a pair still undecided at this look. */
        g_autoptr(GHashTable) open = g_hash_table_new(g_direct_hash, g_direct_equal);
        for (guint k = 0; k < exp->claims->len; k++) {
                VerifyResult r;
                if (!verify_claim_table_looks(exp->claims->pdata[k], t, "this run", exp->looks, exp->n_looks, j + 1,
                                              &r, NULL)) {
                        /* Not yet evaluable (say, no repetition of a side
                         * measured so far): every cell of it goes on. */
                        for (guint c = 0; c < exp->cells->len; c++) {
                                const Cell *cell = exp->cells->pdata[c];
                                if (verify_claim_covers(exp->claims->pdata[k], cell))
                                        g_hash_table_add(open, GUINT_TO_POINTER(cell->index));
                        }
                } else if (r.verdict != VERIFY_HOLDS && r.verdict != VERIFY_FAILS)
                        for (guint p = 0; p < r.pairs->len; p++) {
                                const VerifyPair *pair = &g_array_index(r.pairs, VerifyPair, p);
                                if (pair->verdict != VERIFY_INCONCLUSIVE || pair->look != j + 1)
                                        continue;
                                g_hash_table_add(open, GUINT_TO_POINTER(pair->cell_faster));
                                g_hash_table_add(open, GUINT_TO_POINTER(pair->cell_slower));
                        }
                verify_result_clear(&r);
        }
        for (guint c = 0; c < exp->cells->len; c++) {
                const Cell *cell = exp->cells->pdata[c];
                CellState *st = &states[cell->index];
                if (!st->in_claim || st->stop || st->look != j)
                        continue;
                if (!g_hash_table_contains(open, GUINT_TO_POINTER(cell->index)))
                        st->stop = "no pair over it undecided";
                else if (j + 1 == exp->n_looks)
                        st->stop = "a pair over it undecided at the last look";
                else if (st->spent_ns >= exp->auto_cap_ns)
                        st->stop = "auto_cap reached";
                else
                        st->look = j + 1;
        }
}

/* The latencies an interrupted run of EXP left in PATH, measured in ENV
 * on this machine, by "cell:rep"; a torn last line is dropped, and a file that does not
 * parse is dropped whole (with a warning: its repetitions are measured
 * again). */
static GHashTable *resume_latencies(const char *path, const Experiment *exp, const char *env)
{
        GHashTable *lat = rows_lat_new();
        gsize len = 0;
        g_autoptr(GError) e = NULL;
        struct stat st;

        if (lstat(path, &st) < 0 && errno == ENOENT)
                return lat;
        g_autofree char *text = safefile_read(path, "a resume file of latencies", LATENCY_MAX_TEXT, &len, &e);
        if (!text) {
                progress_say("warning: %s: --resume: %s", exp->name, e->message);
                return lat;
        }
        const char *nl = memrchr(text, '\n', len);
        gsize whole = nl ? (gsize) (nl + 1 - text) : 0;
        if (whole < len)
                progress_say("warning: %s: dropped a torn last line", path);
        if (!whole)
                return lat;
        g_autoptr(LatencyFile) f = latency_parse(path, text, whole, &e);
        if (!f) {
                progress_say("warning: %s; its latencies are dropped", e->message);
                return lat;
        }
        for (guint i = 0; i < f->parts->len; i++) {
                const LatencyPart *p = f->parts->pdata[i];
                if (!strcmp(p->env, env) && !strcmp(p->machine, meta_machine_name()))
                        rows_lat_add(lat, p->cell, p->rep, p->n, g_strndup(text + p->offset, p->length));
        }
        return lat;
}

/* Reads the rows of an interrupted run of EXP from PARTIAL into ROWS and
 * the states; returns the set of "cell:rep" keys done, or NULL with ERROR
 * when the partial file belongs to another version of the experiment.
 * LAT holds the latencies the run left (resume_latencies, from LAT_PATH):
 * a row that measured latencies is kept only with all of them there.
 * Nothing in it is trusted: every row is read back like a new one (see
 * samples_parse_row), and one that is not what this run would have
 * written, or repeats a repetition already read, is dropped with a
 * warning naming its line.  A torn last line (no newline) is dropped. */
static GHashTable *resume_load(const char *partial, const Experiment *exp, GPtrArray *rows,
                               CellState *states, GHashTable *lat, const char *lat_path, GError **error)
{
        g_autofree char *text = NULL;
        g_autofree char *want = rows_partial_header(exp);
        g_autoptr(GError) e = NULL;
        GHashTable *done = g_hash_table_new_full(g_str_hash, g_str_equal, g_free, NULL);
        const char *env = meta_env_backend();

        struct stat st;
        if (lstat(partial, &st) < 0 && errno == ENOENT) {
                progress_say("%s: --resume: no interrupted run to continue (no %s); starting afresh",
                             exp->name, partial);
                return done;
        }
        if (!(text = safefile_read(partial, "a resume file", SAFEFILE_MAX_TABLE, NULL, &e))) {
                progress_say("%s: --resume: %s; starting afresh", exp->name, e->message);
                return done;
        }
        if (strlen(text) < strlen(want) && g_str_has_prefix(want, text)) {
                progress_say("%s: --resume: %s is %s, so it holds no finished repetition; starting afresh",
                             exp->name, partial, text[0] ? "cut short within its header" : "empty");
                return done;
        }
        if (!g_str_has_prefix(text, want)) {
                g_set_error(error, IPCLAB_ERROR, IPCLAB_ERROR_INPUT,
                            "%s: the interrupted run was of another version of %s or another profile; "
                            "run without --resume to start again", partial, exp->path);
                g_hash_table_unref(done);
                return NULL;
        }
        guint line = 1;
        for (const char *p = want; *p; p++)
                line += *p == '\n';
        char *p = text + strlen(want);
        for (; *p; line++) {
                char *nl = strchr(p, '\n');
                if (!nl) {
                        progress_say("warning: %s:%u: dropped a torn last line", partial, line);
                        break;
                }
                *nl = '\0';
                const Cell *cell;
                guint rep;
                Sample s;
                g_autofree char *why = NULL;
                char *key = rows_check(exp, p, env, meta_machine_name(), "", done, lat, lat_path, &s, &cell, &rep, &why);
                if (!key) {
                        g_autofree char *shown = safefile_terminal_text(why, strlen(why));
                        progress_say("warning: %s:%u: dropped: %s", partial, line, shown);
                } else {
                        bool ok = s.status == 0;
                        double el = (double) s.elapsed_ns, m = (double) s.messages;
                        state_add(exp, &states[cell->index], ok && m > 0, m > 0 ? el / m : 0, (guint64) el);
                        g_hash_table_add(done, key);
                        g_ptr_array_add(rows, g_strdup(p));
                }
                p = nl + 1;
        }
        return done;
}

static int append_row(int fd, const char *row, size_t len)
{
        int r = io_write_all(fd, row, len);
        if (r < 0)
                return r;
        return fdatasync(fd) < 0 ? -errno : 0;
}

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

/* One run of an experiment in progress: the steps of run_inner(). */
typedef struct {
        const Experiment *exp;
        CellState *states;
        const char *out_dir;
        char *final, *staging, *partial, *lat_partial;
        const char *env;
        GPtrArray *rows;      /* the rows taken, without their newline */
        GHashTable *done;     /* "cell:rep" of the rows taken */
        GHashTable *lat;      /* "cell:rep" -> LatRows */
        int pfd, lfd;         /* the partial files, appended to */
        /* Progress. */
        gint64 start;
        double est_total, est_done;
        guint planned, taken, failed;
} Run;

static void run_clear(Run *run)
{
        g_free(run->final);
        g_free(run->staging);
        g_free(run->partial);
        g_free(run->lat_partial);
        g_clear_pointer(&run->rows, g_ptr_array_unref);
        g_clear_pointer(&run->done, g_hash_table_unref);
        g_clear_pointer(&run->lat, g_hash_table_unref);
        if (run->pfd >= 0)
                close(run->pfd);
        if (run->lfd >= 0)
                close(run->lfd);
}

/* RUN->rows, done and lat: what --resume keeps, or nothing. */
static int run_load(Run *run, bool resume, GError **error)
{
        if (!resume) {
                run->lat = rows_lat_new();
                run->done = g_hash_table_new_full(g_str_hash, g_str_equal, g_free, NULL);
                return 0;
        }
        run->lat = resume_latencies(run->lat_partial, run->exp, run->env);
        run->done = resume_load(run->partial, run->exp, run->rows, run->states, run->lat, run->lat_partial, error);
        if (!run->done)
                return RUN_ERROR;
        /* The latencies of repetitions not kept are measured again. */
        GHashTableIter it;
        gpointer k;
        g_hash_table_iter_init(&it, run->lat);
        while (g_hash_table_iter_next(&it, &k, NULL))
                if (!g_hash_table_contains(run->done, k))
                        g_hash_table_iter_remove(&it);
        return 0;
}

/* The partial files, rewritten with what was kept and opened for
 * appending: the samples' header and rows, the latencies' rows. */
static int run_open_partials(Run *run, GError **error)
{
        g_autofree char *hdr = rows_partial_header(run->exp);
        g_autoptr(GString) p = g_string_new(hdr);
        for (guint i = 0; i < run->rows->len; i++)
                g_string_append_printf(p, "%s\n", (char *) run->rows->pdata[i]);
        int r = samples_write_atomic(run->partial, p->str, p->len);
        if (r < 0) {
                g_set_error(error, IPCLAB_ERROR, IPCLAB_ERROR_IO, "cannot write %s: %s", run->partial, g_strerror(-r));
                return RUN_ERROR;
        }
        g_autoptr(GString) l = g_string_new(LATENCY_HEADER);
        GHashTableIter it;
        gpointer v;
        g_hash_table_iter_init(&it, run->lat);
        while (g_hash_table_iter_next(&it, NULL, &v))
                g_string_append(l, ((LatRows *) v)->rows);
        r = samples_write_atomic(run->lat_partial, l->str, l->len);
        if (r < 0) {
                g_set_error(error, IPCLAB_ERROR, IPCLAB_ERROR_IO, "cannot write %s: %s", run->lat_partial,
                            g_strerror(-r));
                return RUN_ERROR;
        }
        run->lfd = open(run->lat_partial, O_WRONLY | O_APPEND | O_CLOEXEC);
        if (run->lfd < 0) {
                g_set_error(error, IPCLAB_ERROR, IPCLAB_ERROR_IO, "cannot open %s: %s", run->lat_partial,
                            g_strerror(errno));
                return RUN_ERROR;
        }
        run->pfd = open(run->partial, O_WRONLY | O_APPEND | O_CLOEXEC);
        if (run->pfd < 0) {
                g_set_error(error, IPCLAB_ERROR, IPCLAB_ERROR_IO, "cannot open %s: %s", run->partial, g_strerror(errno));
                return RUN_ERROR;
        }
        return 0;
}

/* The status line (progress.h: shown on a terminal) before repetition
 * ROUND of CELL (DESC), the I-th of the N cells of this round. */
static void run_show_progress(const Run *run, guint i, guint n, guint round, const char *desc)
{
        double elapsed = (double) (g_get_monotonic_time() - run->start) / 1e6;
        double eta = run->est_done > 0 ? elapsed / run->est_done * MAX(run->est_total - run->est_done, 0)
                                       : run->est_total;
        char etab[64];
        run_format_duration(etab, sizeof etab, eta);
        g_autofree char *line = g_strdup_printf("cell %u of %u, round %u, %u of %u%s, ETA %s: %s",
                                                i + 1, n, round + 1, run->taken + 1, run->planned,
                                                run->exp->repeat_auto ? "+" : "", etab, desc);
        progress_status(line);
}

/* Appends the row S of repetition ROUND of CELL to the partial file, its
 * latencies (LV, NLAT of them) first: on disk before the row that says
 * the repetition is done.  Returns 0 or RUN_ERROR. */
static int run_append(Run *run, const Cell *cell, guint round, const Sample *s, const guint64 *lv, size_t nlat,
                      GError **error)
{
        const char *unwritten = NULL;
        int r = 0;

        if (s->status == 0 && nlat) {
                g_autoptr(GString) part = g_string_new(NULL);
                latency_append_part(part, run->env, meta_machine_name(), cell->index, round,
                                    cell->pattern == PATTERN_ONEWAY ? LATENCY_ONEWAY : LATENCY_ROUNDTRIP,
                                    lv, nlat, run->exp->store_raw);
                r = append_row(run->lfd, part->str, part->len);
                if (r < 0)
                        unwritten = run->lat_partial;
                else
                        rows_lat_add(run->lat, cell->index, round, nlat, g_string_free(g_steal_pointer(&part), FALSE));
        }
        g_autoptr(GString) row = g_string_new(NULL);
        samples_append_row(row, run->env, meta_machine_name(), cell, round, s);
        if (!unwritten && (r = append_row(run->pfd, row->str, row->len)) < 0)
                unwritten = run->partial;
        if (unwritten) {
                g_set_error(error, IPCLAB_ERROR, IPCLAB_ERROR_IO, "cannot write %s: %s; %s is unchanged",
                            unwritten, g_strerror(-r), run->final);
                return RUN_ERROR;
        }
        g_string_truncate(row, row->len - 1);
        g_ptr_array_add(run->rows, g_string_free(g_steal_pointer(&row), FALSE));
        return 0;
}

/* Repetition ROUND of CELL, the I-th of the N of this round, unless it is
 * done already.  Returns 0 or RUN_ERROR. */
static int run_one(Run *run, Runner *runner, const Cell *cell, guint i, guint n, guint round, GError **error)
{
        CellState *st = &run->states[cell->index];
        g_autofree char *key = g_strdup_printf("%u:%u", cell->index, round);
        if (g_hash_table_contains(run->done, key))
                return 0;
        g_autofree char *desc = cell_describe(cell);
        run_show_progress(run, i, n, round, desc);
        Sample s;
        gint64 t0 = g_get_monotonic_time();
        int r = runner_run(runner, cell, round, &s);
        if (r < 0) {
                g_set_error(error, IPCLAB_ERROR, IPCLAB_ERROR_RUN, "cannot run %s: %s", desc, g_strerror(-r));
                return RUN_ERROR;
        }
        if (spawn_interrupted)
                return 0;
        guint64 spent = (guint64) (g_get_monotonic_time() - t0) * 1000;
        if (s.status < 0) {
                run->failed++;
                progress_keep_status();
                progress_say("%s: failed: %s", desc, s.why);
        }
        /* (After the window: the histogram is built here.) */
        size_t nlat = 0;
        const guint64 *lv = runner_latencies(runner, &nlat);
        if (run_append(run, cell, round, &s, lv, nlat, error) < 0)
                return RUN_ERROR;
        g_hash_table_add(run->done, g_steal_pointer(&key));
        state_add(run->exp, st, s.status == 0 && s.messages > 0,
                  s.messages ? (double) s.elapsed_ns / (double) s.messages : 0, spent);
        run->taken++;
        run->est_done += estimate_rep_ns(NULL, cell, run->exp->warmup) / 1e9;
        return 0;
}

/* The cells that need round ROUND, in a fresh order (Fisher-Yates, from
 * the seed, drawn from RNG). */
static GPtrArray *run_round_order(const Run *run, guint round, GRand *rng)
{
        const Experiment *exp = run->exp;
        GPtrArray *order = g_ptr_array_new();

        for (guint c = 0; c < exp->cells->len; c++) {
                const Cell *cell = exp->cells->pdata[c];
                if (needs_round(exp, &run->states[cell->index], round))
                        g_ptr_array_add(order, (gpointer) cell);
        }
        for (guint i = order->len; exp->seed && i > 1; i--) {
                guint j = (guint) g_rand_int_range(rng, 0, (gint32) i);
                gpointer t = order->pdata[i - 1];
                order->pdata[i - 1] = order->pdata[j];
                order->pdata[j] = t;
        }
        return order;
}

/* Every round until no cell needs one or the run is interrupted.
 * Returns 0 or RUN_ERROR. */
static int run_rounds(Run *run, Runner *runner, GError **error)
{
        const Experiment *exp = run->exp;

        run->start = g_get_monotonic_time();
        for (guint c = 0; c < exp->cells->len; c++) {
                const Cell *cell = exp->cells->pdata[c];
                guint reps = run->states[cell->index].reps;
                guint todo = exp->repeat > reps ? exp->repeat - reps : 0;
                run->est_total += estimate_rep_ns(NULL, cell, exp->warmup) * todo / 1e9;
                run->planned += todo;
        }
        g_autoptr(GRand) rng = g_rand_new_with_seed((guint32) (exp->seed ^ (exp->seed >> 32)));
        for (guint round = 0; !spawn_interrupted; round++) {
                decide_at_look(exp, run->states, run->rows, round);
                g_autoptr(GPtrArray) order = run_round_order(run, round, rng);
                if (!order->len)
                        break;
                for (guint i = 0; i < order->len && !spawn_interrupted; i++)
                        if (run_one(run, runner, order->pdata[i], i, order->len, round, error) < 0)
                                return RUN_ERROR;
        }
        return 0;
}

/* META's [repeat] group: how the repetitions were decided, and for
 * repeat=auto where each cell stopped. */
static void run_meta_repeat(const Run *run, Meta *meta)
{
        const Experiment *exp = run->exp;

        meta_set(meta, "repeat", "mode", exp->repeat_auto ? "auto" : "fixed");
        if (!exp->repeat_auto)
                return;
        g_autofree char *t = g_strdup_printf("%g%%", exp->ci_target * 100);
        meta_set(meta, "repeat", "ci_target", t);
        if (exp->repeat_decide) {
                /* What `ipclab verify` replays (verify.h). */
                g_autoptr(GString) l = g_string_new(NULL);
                for (guint j = 0; j < exp->n_looks; j++)
                        g_string_append_printf(l, "%s%u", j ? ";" : "", exp->looks[j]);
                meta_set(meta, "repeat", "until", "decided");
                meta_set(meta, "repeat", "looks", l->str);
        }
        for (guint c = 0; c < exp->cells->len; c++) {
                const CellState *st = &run->states[c];
                g_autofree char *k = g_strdup_printf("cell_%u", c);
                g_autofree char *v = exp->repeat_decide && st->in_claim
                        ? g_strdup_printf("%u repetitions, %s", st->reps, st->stop ? st->stop : "stopped")
                        : st->narrowed_at
                        ? g_strdup_printf("%u repetitions, CI half-width %.2f%% of the median, narrow "
                                          "at %zu, %s", st->reps, st->halfwidth * 100, st->narrowed_at,
                                          st->stop ? st->stop : "stopped")
                        : g_strdup_printf("%u repetitions, CI half-width %.2f%% of the median, %s",
                                          st->reps, st->halfwidth * 100, st->stop ? st->stop : "stopped");
                meta_set(meta, "repeat", k, v);
        }
}

/* samples.tsv (every row, ordered by cell and repetition), latencies.tsv.gz
 * and META's meta.ini into the staging directory, which replaces FINAL in
 * one step.  *TOTAL_FAILED: the rows that failed.  Returns 0 or
 * RUN_ERROR. */
static int run_write_results(Run *run, Meta *meta, guint *total_failed, GError **error)
{
        GPtrArray *rows = run->rows;

        qsort(rows->pdata, rows->len, sizeof(gpointer), compare_rows);
        g_autoptr(GString) out = g_string_new(samples_header());
        g_autoptr(GString) lat_out = g_string_new(LATENCY_HEADER);
        *total_failed = 0;
        for (guint i = 0; i < rows->len; i++) {
                const char *row = rows->pdata[i];
                g_string_append_printf(out, "%s\n", row);
                *total_failed += strstr(row, "\tfailed\t") != NULL;
                /* The row begins "CELL\tREP\t". */
                const char *tab = strchr(row, '\t');
                g_autofree char *key = g_strdup_printf("%" G_GUINT64_FORMAT ":%" G_GUINT64_FORMAT,
                                                       g_ascii_strtoull(row, NULL, 10),
                                                       tab ? g_ascii_strtoull(tab + 1, NULL, 10) : 0);
                LatRows *l = g_hash_table_lookup(run->lat, key);
                if (l)
                        g_string_append(lat_out, l->rows);
        }
        run_meta_repeat(run, meta);
        meta_end(meta, run->exp->cells->len, *total_failed, rows->len);
        g_autofree char *ini = meta_to_ini(meta);

        history_keep_leftover(run->staging, run->final);
        if (mkdir(run->staging, 0755) < 0) {
                g_set_error(error, IPCLAB_ERROR, IPCLAB_ERROR_IO, "cannot create %s: %s; %s is unchanged",
                            run->staging, g_strerror(errno), run->final);
                return RUN_ERROR;
        }
        g_autofree char *sp = g_build_filename(run->staging, "samples.tsv", NULL);
        g_autofree char *mp = g_build_filename(run->staging, "meta.ini", NULL);
        g_autofree char *lp = g_build_filename(run->staging, LATENCY_FILE, NULL);
        int r = samples_write_atomic(sp, out->str, out->len);
        if (r >= 0)
                r = latency_write(lp, lat_out->str, lat_out->len);
        if (r >= 0)
                r = samples_write_atomic(mp, ini, strlen(ini));
        if (r >= 0)
                r = history_replace_dir(run->staging, run->final);
        if (r < 0) {
                g_set_error(error, IPCLAB_ERROR, IPCLAB_ERROR_IO,
                            "cannot write the results of %s into %s: %s; %s is unchanged",
                            run->exp->name, run->out_dir, g_strerror(-r), run->final);
                samples_remove_dir(run->staging);
                return RUN_ERROR;
        }
        return 0;
}

static int run_inner(Run *run, bool resume, const char *const *argv, GError **error)
{
        const Experiment *exp = run->exp;

        if (g_mkdir_with_parents(run->out_dir, 0755) < 0) {
                g_set_error(error, IPCLAB_ERROR, IPCLAB_ERROR_IO, "cannot create %s: %s", run->out_dir,
                            g_strerror(errno));
                return RUN_ERROR;
        }
        if (run_load(run, resume, error) < 0 || run_open_partials(run, error) < 0)
                return RUN_ERROR;

        g_autoptr(Meta) meta = meta_begin(exp, argv);
        meta_measure_bounds(meta, exp);
        for (const char *const *w = meta_warnings(meta); *w; w++)
                progress_say("warning: %s", *w);
        for (guint s = 0; s < exp->skipped->len; s++)
                progress_say("%s: skipped %s", exp->name, (char *) exp->skipped->pdata[s]);

        g_autoptr(Runner) runner = runner_new(exp);
        if (run_rounds(run, runner, error) < 0)
                return RUN_ERROR;
        close(run->pfd);
        close(run->lfd);
        run->pfd = run->lfd = -1;
        progress_status(NULL);
        runner_stop_buses(runner);
        if (spawn_interrupted) {
                progress_say("interrupted; %s is unchanged; `ipclab run --resume` continues from %u finished repetitions",
                             run->final, run->rows->len);
                return RUN_INTERRUPTED;
        }
        guint total_failed;
        if (run_write_results(run, meta, &total_failed, error) < 0)
                return RUN_ERROR;
        unlink(run->partial);
        unlink(run->lat_partial);
        progress_say("%s: %u rows (%u failed) in %s", exp->name, run->rows->len, total_failed, run->final);
        return total_failed || run->failed ? RUN_FAILED : RUN_OK;
}

int run_experiment(const Experiment *exp, const char *out_dir, bool resume,
                   const char *const *argv, GError **error)
{
        guint ncells = exp->cells->len;
        CellState *states = g_new0(CellState, ncells);
        g_autofree char *staging_name = g_strconcat(".", exp->name, ".new", NULL);
        Run run = {
                .exp = exp,
                .states = states,
                .out_dir = out_dir,
                .final = g_build_filename(out_dir, exp->name, NULL),
                .staging = g_build_filename(out_dir, staging_name, NULL),
                .partial = run_partial_path(out_dir, exp->name, 0),
                .lat_partial = run_partial_path(out_dir, exp->name, 1),
                .env = meta_env_backend(),
                .rows = g_ptr_array_new_with_free_func(g_free),
                .pfd = -1,
                .lfd = -1,
        };

        for (guint i = 0; i < ncells; i++)
                states[i].cost = g_array_new(FALSE, FALSE, sizeof(double));
        mark_claim_cells(exp, states);
        int status = run_inner(&run, resume, argv, error);
        run_clear(&run);
        for (guint i = 0; i < ncells; i++)
                g_array_unref(states[i].cost);
        g_free(states);
        return status;
}
