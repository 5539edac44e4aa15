/* samples.c: raw sample files, written atomically (see samples.h). */
#include "samples.h"

#include <errno.h>
#include <fcntl.h>
#include <dirent.h>
#include <inttypes.h>
#include <math.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "columns.h"
#include "machine-name.h"
#include "placement-modes.h"
#include "safefile.h"
#include "transport-catalogue.h"

/* The columns of samples.tsv, in column_table's order: the header and
 * the axis names, built once from the schema. */
typedef struct {
        ColumnId ids[COL_N_COLUMNS];
        guint n;
        const char *axes[COL_N_COLUMNS + 1];
        char *header;
} Layout;

static const Layout *layout(void)
{
        static Layout l;
        static gsize done;

        if (g_once_init_enter(&done)) {
                GString *h = g_string_new(NULL);
                guint na = 0;
                for (ColumnId id = 0; id < COL_N_COLUMNS; id++) {
                        const Column *c = &column_table[id];
                        if (!(c->flags & COLUMN_IN_SAMPLES))
                                continue;
                        g_string_append_printf(h, "%s%s", l.n ? "\t" : "", c->name);
                        l.ids[l.n++] = id;
                        if (c->kind == COLUMN_AXIS)
                                l.axes[na++] = c->name;
                }
                g_string_append_c(h, '\n');
                l.axes[na] = NULL;
                l.header = g_string_free(h, FALSE);
                g_once_init_leave(&done, 1);
        }
        return &l;
}

const char *const *samples_axis_names(void)
{
        return layout()->axes;
}

const char *samples_header(void)
{
        return layout()->header;
}

/* Where the number that column ID holds lives in S; NULL for a column
 * that is not one of a Sample's numbers (its row has no field:
 * columns.c). */
static guint64 *sample_number(Sample *s, ColumnId id)
{
        size_t at = column_table[id].sample;

        return at ? (guint64 *) ((char *) s + at) : NULL;
}

/* Is column ID a number the runner measures where it can, SAMPLE_NONE
 * where it cannot (a Sample's placement and fixed window)? */
static bool sample_optional(ColumnId id)
{
        return column_table[id].flags & COLUMN_OPTIONAL;
}

/* Was the number in column ID measured for CELL (else the row has "-")? */
static bool sample_has(ColumnId id, const Cell *cell, const Sample *s)
{
        bool ok = s->status == 0;
        const Transport *t = transport_find(cell->transport);

        switch (id) {
        case COL_SERVER_CPU_NS:
                /* An in-process transport has no server of its own to measure. */
                return ok && !(t && (t->flags & TRANSPORT_INPROCESS));
        case COL_BUS_CPU_NS:
                return ok && cell->bus != BUS_NONE && cell->bus != BUS_P2P;
        case COL_LAT_N:
                return ok && (cell->pattern != PATTERN_ONEWAY || s->lat_n);
        case COL_LAT_MIN_NS:
        case COL_LAT_P50_NS:
        case COL_LAT_P90_NS:
        case COL_LAT_P99_NS:
        case COL_LAT_P999_NS:
        case COL_LAT_MAX_NS:
                return ok && s->lat_n > 0;
        default:
                if (sample_optional(id))
                        return ok && *sample_number((Sample *) s, id) != SAMPLE_NONE;
                return ok;
        }
}

static void append_u64(GString *out, guint64 v, bool present)
{
        if (present)
                g_string_append_printf(out, "%" PRIu64, v);
        else
                g_string_append_c(out, '-');
}

/* Appends the field of column ID. */
static void append_field(GString *out, ColumnId id, const char *env, const char *machine, const Cell *cell,
                         guint rep, const Sample *s)
{
        bool ok = s->status == 0;
        const Axis *a = axis_of_column(id);

        if (a && a->type != AXIS_PLACE) {
                g_autofree char *v = axis_cell_text(a, cell);
                g_string_append(out, v);
                return;
        }
        switch (id) {
        case COL_CELL:
                g_string_append_printf(out, "%u", cell->index);
                return;
        case COL_REP:
                g_string_append_printf(out, "%u", rep);
                return;
        case COL_ENV:
                g_string_append(out, env);
                return;
        case COL_MACHINE:
                g_string_append(out, machine);
                return;
        case COL_STATUS:
                g_string_append(out, ok ? "ok" : "failed");
                return;
        case COL_PLACEMENT:
                g_string_append(out, ok ? placement_mode_name((PlacementMode) s->placement) : "-");
                return;
        case COL_WHY:
                if (ok) {
                        g_string_append_c(out, '-');
                        return;
                }
                /* A reason is one field: no tabs or newlines in it. */
                for (const char *p = s->why; *p; p++)
                        g_string_append_c(out, (*p == '\t' || *p == '\n' || *p == '\r') ? ' ' : *p);
                if (!s->why[0])
                        g_string_append(out, "unknown");
                return;
        default: {
                /* One of the Sample's numbers (a column only in the
                 * summary is never asked for). */
                guint64 *v = sample_number((Sample *) s, id);
                g_assert(v);
                append_u64(out, *v, sample_has(id, cell, s));
                return;
        }
        }
}

void samples_append_row(GString *out, const char *env, const char *machine, const Cell *cell,
                        guint rep, const Sample *s)
{
        const Layout *l = layout();

        for (guint i = 0; i < l->n; i++) {
                if (i)
                        g_string_append_c(out, '\t');
                append_field(out, l->ids[i], env, machine, cell, rep, s);
        }
        g_string_append_c(out, '\n');
}

/* A field that holds a whole number, or "-" (then *PRESENT is false). */
static gboolean parse_field(const char *f, guint64 *v, gboolean *present)
{
        char *end;

        *present = strcmp(f, "-") != 0;
        *v = 0;
        if (!*present)
                return TRUE;
        if (!g_ascii_isdigit(f[0]))
                return FALSE;
        errno = 0;
        *v = g_ascii_strtoull(f, &end, 10);
        return errno == 0 && *end == '\0';
}

/* The position of column ID in a row of samples.tsv. */
static guint field_of(ColumnId id)
{
        const Layout *l = layout();
        guint i = 0;

        while (i < l->n && l->ids[i] != id)
                i++;
        g_assert(i < l->n);
        return i;
}

gboolean samples_parse_row(const char *row, const char *env, const char *machine, GPtrArray *cells,
                           guint max_rep, const Cell **cell, guint *rep, Sample *s, char **why)
{
        const Layout *l = layout();
        g_auto(GStrv) f = g_strsplit(row, "\t", -1);
        guint64 idx, r;
        gboolean present;

        *why = NULL;
        sample_init(s);
        if (g_strv_length(f) != l->n) {
                *why = g_strdup_printf("%u fields, not %u", g_strv_length(f), l->n);
                return FALSE;
        }
        const char *cell_f = f[field_of(COL_CELL)], *rep_f = f[field_of(COL_REP)];
        const char *status = f[field_of(COL_STATUS)];
        if (!parse_field(cell_f, &idx, &present) || !present || idx >= cells->len) {
                *why = g_strdup_printf("cell '%s' is not a cell of this experiment (0 to %u)", cell_f, cells->len - 1);
                return FALSE;
        }
        if (!parse_field(rep_f, &r, &present) || !present || r >= max_rep) {
                *why = g_strdup_printf("repetition '%s' is not one of 0 to %u", rep_f, max_rep - 1);
                return FALSE;
        }
        /* Cells are shuffled in the array: find the one with this index. */
        *cell = NULL;
        for (guint i = 0; i < cells->len && !*cell; i++)
                if (((const Cell *) cells->pdata[i])->index == idx)
                        *cell = cells->pdata[i];
        *rep = (guint) r;
        if (!strcmp(status, "ok")) {
                for (guint i = 0; i < l->n; i++) {
                        guint64 *dst = sample_number(s, l->ids[i]);
                        if (dst && !parse_field(f[i], dst, &present)) {
                                *why = g_strdup_printf("%s is '%s', not a whole number",
                                                       column_table[l->ids[i]].name, f[i]);
                                return FALSE;
                        }
                        if (dst && !present && sample_optional(l->ids[i]))
                                *dst = SAMPLE_NONE;
                }
                int mode = placement_mode_from_name(f[field_of(COL_PLACEMENT)]);
                if (mode < 0) {
                        *why = g_strdup_printf("placement is '%s', not one of -, same, split, moved, other",
                                               f[field_of(COL_PLACEMENT)]);
                        return FALSE;
                }
                s->placement = (guint64) mode;
                if (s->elapsed_ns == 0) {
                        *why = g_strdup("an ok repetition that took no time");
                        return FALSE;
                }
                if (s->lat_n && !(s->lat_min_ns <= s->lat_p50_ns && s->lat_p50_ns <= s->lat_p90_ns &&
                                  s->lat_p90_ns <= s->lat_p99_ns && s->lat_p99_ns <= s->lat_p999_ns &&
                                  s->lat_p999_ns <= s->lat_max_ns)) {
                        *why = g_strdup("latency percentiles out of order");
                        return FALSE;
                }
        } else if (!strcmp(status, "failed")) {
                s->status = -EIO;
                g_strlcpy(s->why, f[field_of(COL_WHY)], sizeof s->why);
        } else {
                *why = g_strdup_printf("status '%s' is neither ok nor failed", status);
                return FALSE;
        }
        /* What this build writes for that cell and sample must be the row,
         * byte for byte: the axes, and "-" exactly where nothing applies. */
        g_autoptr(GString) again = g_string_new(NULL);
        samples_append_row(again, env, machine, *cell, *rep, s);
        g_string_truncate(again, again->len - 1);
        if (strcmp(again->str, row) != 0) {
                g_auto(GStrv) g = g_strsplit(again->str, "\t", -1);
                guint i = 0;
                while (f[i] && g[i] && !strcmp(f[i], g[i]))
                        i++;
                *why = g_strdup_printf("%s is '%s', where cell %u of this experiment has '%s'",
                                       column_table[l->ids[i]].name, f[i], (*cell)->index, g[i] ? g[i] : "");
                return FALSE;
        }
        return TRUE;
}

char *samples_cell_axes(const char *row)
{
        const Layout *l = layout();
        g_auto(GStrv) f = g_strsplit(row, "\t", -1);

        if (g_strv_length(f) != l->n)
                return NULL;
        GString *axes = g_string_new(NULL);
        for (guint i = 0; i < l->n; i++) {
                ColumnId id = l->ids[i];
                if (column_table[id].kind == COLUMN_AXIS && id != COL_ENV && id != COL_MACHINE)
                        g_string_append_printf(axes, "%s%s", axes->len ? "\t" : "", f[i]);
        }
        return g_string_free(axes, FALSE);
}

gboolean samples_row_cell(const Table *t, char **row, Cell *cell)
{
        memset(cell, 0, sizeof *cell);
        for (size_t i = 0; i < axis_count; i++) {
                const Axis *a = &axis_table[i];
                if (a->type == AXIS_PLACE)
                        continue;
                int col = table_column(t, axis_column(a));
                if (col < 0 || !axis_cell_read(a, cell, row[col]))
                        return FALSE;
        }
        return TRUE;
}

static int fsync_dir_of(const char *path)
{
        g_autofree char *dir = g_path_get_dirname(path);
        int fd = open(dir, O_RDONLY | O_DIRECTORY | O_CLOEXEC);

        if (fd < 0)
                return -errno;
        int r = fsync(fd) < 0 ? -errno : 0;
        close(fd);
        return r;
}

int samples_write_atomic(const char *path, const char *data, size_t len)
{
        g_autofree char *tmp = g_strdup_printf("%s.tmp-XXXXXX", path);
        int fd = g_mkstemp_full(tmp, O_WRONLY | O_CLOEXEC, 0644);
        int r = 0;

        if (fd < 0)
                return -errno;
        while (len > 0) {
                ssize_t n = write(fd, data, len);
                if (n < 0) {
                        if (errno == EINTR)
                                continue;
                        r = -errno;
                        break;
                }
                data += n;
                len -= (size_t) n;
        }
        if (r == 0 && fsync(fd) < 0)
                r = -errno;
        if (close(fd) < 0 && r == 0)
                r = -errno;
        if (r == 0 && rename(tmp, path) < 0)
                r = -errno;
        if (r < 0) {
                unlink(tmp);
                return r;
        }
        return fsync_dir_of(path);
}

int samples_swap_dir(const char *staging, const char *final)
{
        struct stat st;

        if (stat(final, &st) < 0) {
                if (errno != ENOENT)
                        return -errno;
                if (rename(staging, final) < 0)
                        return -errno;
                int r = fsync_dir_of(final);
                return r < 0 ? r : 0;
        }
        if (renameat2(AT_FDCWD, staging, AT_FDCWD, final, RENAME_EXCHANGE) == 0) {
                int r = fsync_dir_of(final);
                /* STAGING now holds the old files. */
                return r < 0 ? r : 1;
        }
        if (errno != EINVAL && errno != ENOSYS)
                return -errno;
        /* No RENAME_EXCHANGE on this file system: move the old directory
         * aside, move the new one in, then the old one to STAGING. */
        g_autofree char *old = g_strconcat(final, ".old", NULL);
        samples_remove_dir(old);
        if (rename(final, old) < 0)
                return -errno;
        if (rename(staging, final) < 0) {
                int err = errno;
                rename(old, final);
                return -err;
        }
        if (rename(old, staging) < 0) {
                samples_remove_dir(old);
                int r = fsync_dir_of(final);
                return r < 0 ? r : 0;
        }
        int r = fsync_dir_of(final);
        return r < 0 ? r : 1;
}

int samples_replace_dir(const char *staging, const char *final)
{
        int r = samples_swap_dir(staging, final);

        if (r == 1)
                samples_remove_dir(staging);
        return r < 0 ? r : 0;
}

/* Whether S is a name ipclab writes as an axis value (pipe, sd-bus,
 * dbus-daemon, qtdbus, sdbus-c++). */
static bool axis_name(const char *s)
{
        return s[0] && strspn(s, "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789._+-") == strlen(s);
}

/* Checks field F of column NAME; NULL when it is one samples_append_row()
 * could write, else what it should be. */
static const char *field_problem(const char *name, const char *f)
{
        const Column *c = column_find(name);
        ColumnId id = c ? (ColumnId) (c - column_table) : COL_N_COLUMNS;
        guint64 u;
        Sample s;

        if (!c || !(c->flags & COLUMN_IN_SAMPLES))
                return samples_plain_text(f) ? NULL : "text without control characters";
        switch (id) {
        case COL_CELL:
        case COL_REP:
                return samples_parse_whole(f, &u) && u <= G_MAXUINT ? NULL : "a whole number";
        case COL_STATUS:
                return !strcmp(f, "ok") || !strcmp(f, "failed") ? NULL : "ok or failed";
        case COL_WHY:
                return samples_plain_text(f) ? NULL : "text without control characters";
        case COL_MACHINE:
                return !strcmp(f, "-") || machine_name_valid(f) ? NULL
                     : "a machine name (1 to 64 letters, digits, '-', '_', '.') or -";
        default:
                break;
        }
        const Axis *a = axis_of_column(id);
        if (a && (a->type == AXIS_SIZE || a->type == AXIS_COUNT || a->type == AXIS_DURATION))
                return !strcmp(f, "-") || samples_parse_whole(f, &u) ? NULL : "a whole number up to 2^53, or -";
        if (c->kind == COLUMN_AXIS)
                return axis_name(f) ? NULL : "a name (letters, digits, '.', '_', '+', '-')";
        if (sample_number(&s, id))
                return !strcmp(f, "-") || samples_parse_whole(f, &u) ? NULL : "a whole number up to 2^53, or -";
        return samples_plain_text(f) ? NULL : "text without control characters";
}

/* The axis values of ROW of T, "name=value " each. */
static char *row_axes(const Table *t, char **row)
{
        GString *axes = g_string_new(NULL);

        for (guint i = 0; i < t->n_columns; i++) {
                const Column *c = column_find(t->columns[i]);
                if (c && c->kind == COLUMN_AXIS)
                        g_string_append_printf(axes, "%s=%s ", c->name, row[i]);
        }
        return g_string_free(axes, FALSE);
}

gboolean samples_check_cells(const Table *t, const char *path, GError **error)
{
        int cell = table_column(t, "cell"), env = table_column(t, "env"), machine = table_column(t, "machine");
        g_autoptr(GHashTable) axes_of = g_hash_table_new_full(g_str_hash, g_str_equal, g_free, g_free);

        for (guint r = 0; cell >= 0 && r < t->rows->len; r++) {
                char **row = t->rows->pdata[r];
                g_autofree char *axes = row_axes(t, row);
                g_autofree char *key = g_strdup_printf("%s\t%s\t%s", env >= 0 ? row[env] : "-",
                                                       machine >= 0 ? row[machine] : "-", row[cell]);
                const char *had = g_hash_table_lookup(axes_of, key);
                if (had && strcmp(had, axes)) {
                        g_set_error(error, IPCLAB_ERROR, IPCLAB_ERROR_INPUT,
                                    "%s:%u: cell %s has the axes %sthere and %searlier: its latencies cannot be told "
                                    "apart", path, g_array_index(t->lines, guint, r), row[cell], axes, had);
                        return FALSE;
                }
                if (!had)
                        g_hash_table_insert(axes_of, g_steal_pointer(&key), g_steal_pointer(&axes));
        }
        return TRUE;
}

/* Checks every field and row of samples.tsv T (PATH): see samples.h. */
static gboolean samples_check(const Table *t, const char *path, GError **error)
{
        int status = table_column(t, "status"), elapsed = table_column(t, "elapsed_ns");
        int cell = table_column(t, "cell"), rep = table_column(t, "rep");
        int env = table_column(t, "env"), machine = table_column(t, "machine");
        static const char *const lat[] = { "lat_min_ns", "lat_p50_ns", "lat_p90_ns", "lat_p99_ns", "lat_p999_ns",
                                           "lat_max_ns" };
        int lc[G_N_ELEMENTS(lat)];
        g_autoptr(GHashTable) seen = g_hash_table_new_full(g_str_hash, g_str_equal, g_free, NULL);

        for (gsize k = 0; k < G_N_ELEMENTS(lat); k++)
                lc[k] = table_column(t, lat[k]);
        for (guint i = 0; i < t->n_columns; i++)
                for (guint j = 0; j < i; j++)
                        if (!strcmp(t->columns[i], t->columns[j])) {
                                g_set_error(error, IPCLAB_ERROR, IPCLAB_ERROR_INPUT, "%s: the column %s is there twice",
                                            path, t->columns[i]);
                                return FALSE;
                        }
        for (guint r = 0; r < t->rows->len; r++) {
                char **row = t->rows->pdata[r];
                guint line = g_array_index(t->lines, guint, r);
                for (guint i = 0; i < t->n_columns; i++) {
                        const char *want = field_problem(t->columns[i], row[i]);
                        if (want) {
                                g_autofree char *shown = g_strescape(row[i], NULL);
                                g_set_error(error, IPCLAB_ERROR, IPCLAB_ERROR_INPUT,
                                            "%s:%u: column %u (%s) is '%.80s', not %s", path, line, i + 1,
                                            t->columns[i], shown, want);
                                return FALSE;
                        }
                }
                if (status >= 0 && !strcmp(row[status], "ok") && elapsed >= 0) {
                        guint64 el = 0, prev = 0, v;
                        if (!samples_parse_whole(row[elapsed], &el) || el == 0) {
                                g_set_error(error, IPCLAB_ERROR, IPCLAB_ERROR_INPUT,
                                            "%s:%u: column %d (elapsed_ns) is '%s': an ok repetition takes time", path,
                                            line, elapsed + 1, row[elapsed]);
                                return FALSE;
                        }
                        for (gsize k = 0; k < G_N_ELEMENTS(lat); k++) {
                                if (lc[k] < 0 || !samples_parse_whole(row[lc[k]], &v))
                                        continue;
                                if (v < prev) {
                                        g_set_error(error, IPCLAB_ERROR, IPCLAB_ERROR_INPUT,
                                                    "%s:%u: column %d (%s) is %s, below the percentile before it: "
                                                    "the latency percentiles are out of order", path, line, lc[k] + 1,
                                                    lat[k], row[lc[k]]);
                                        return FALSE;
                                }
                                prev = v;
                        }
                }
                if (cell < 0 || rep < 0)
                        continue;
                /* One repetition once: the same cell, repetition and axes
                 * on one machine in one environment. */
                const char *e = env >= 0 ? row[env] : "-", *m = machine >= 0 ? row[machine] : "-";
                g_autofree char *axes = row_axes(t, row);
                g_autofree char *key = g_strdup_printf("%s\t%s\t%s\t%s\t%s", e, m, row[cell], row[rep], axes);
                gpointer first = g_hash_table_lookup(seen, key);
                if (first) {
                        g_set_error(error, IPCLAB_ERROR, IPCLAB_ERROR_INPUT,
                                    "%s:%u: repetition %s of cell %s (env %s, machine %s) is there twice, first at "
                                    "line %u", path, line, row[rep], row[cell], e, m, GPOINTER_TO_UINT(first));
                        return FALSE;
                }
                g_hash_table_insert(seen, g_steal_pointer(&key), GUINT_TO_POINTER(line));
        }
        return TRUE;
}

/* Inserts column NAME after column AFTER (at the end when there is none)
 * into T, VALUE in every row. */
static void table_insert_column(Table *t, const char *name, const char *after, const char *value)
{
        int prev = table_column(t, after);
        guint at = prev >= 0 ? (guint) prev + 1 : t->n_columns;
        GStrvBuilder *b = g_strv_builder_new();

        for (guint i = 0; i <= t->n_columns; i++) {
                if (i == at)
                        g_strv_builder_add(b, name);
                if (i < t->n_columns)
                        g_strv_builder_add(b, t->columns[i]);
        }
        g_strfreev(t->columns);
        t->columns = g_strv_builder_end(b);
        g_strv_builder_unref(b);
        for (guint r = 0; r < t->rows->len; r++) {
                char **old = t->rows->pdata[r];
                char **row = g_new0(char *, t->n_columns + 2);
                for (guint i = 0, j = 0; i <= t->n_columns; i++) {
                        if (i == at)
                                row[j++] = g_strdup(value);
                        if (i < t->n_columns)
                                row[j++] = old[i];
                }
                g_free(old);
                t->rows->pdata[r] = row;
        }
        t->n_columns++;
}

Table *samples_table_read(const char *path, GError **error)
{
        g_autoptr(Table) t = table_read(path, error);

        if (!t)
                return NULL;
        /* Written before an axis's column (roles: every cell ran in two
         * processes): what every row then held, after the column before
         * it. */
        for (size_t i = 0; i < axis_count; i++) {
                const Axis *a = &axis_table[i];
                const char *before = a->column > 0 ? column_table[a->column - 1].name : NULL;
                if (a->old && before && table_column(t, axis_column(a)) < 0 && table_column(t, before) >= 0)
                        table_insert_column(t, axis_column(a), before, a->old);
        }
        if (table_column(t, "machine") >= 0)
                return samples_check(t, path, error) ? g_steal_pointer(&t) : NULL;
        /* Written before the machine column: one machine, the one its
         * meta.ini names, if it is there. */
        g_autofree char *dir = g_path_get_dirname(path);
        g_autofree char *meta_path = g_build_filename(dir, "meta.ini", NULL);
        g_autofree char *host = NULL;
        struct stat st;
        if (lstat(meta_path, &st) == 0) {
                g_autoptr(GKeyFile) meta = safefile_key_file(meta_path, error);
                if (!meta)
                        return NULL;
                host = g_key_file_get_string(meta, "machine", "hostname", NULL);
        }
        if (host)
                host[strcspn(host, ".")] = '\0';
        table_insert_column(t, "machine", "env", host && machine_name_valid(host) ? host : "-");
        return samples_check(t, path, error) ? g_steal_pointer(&t) : NULL;
}

double samples_fixed_share(char **row, int fixed, int elapsed, double *fixed_ns)
{
        double f = NAN, e = NAN;

        if (fixed >= 0 && elapsed >= 0 && samples_parse_number(row[fixed], &f) &&
            samples_parse_number(row[elapsed], &e) && e > 0) {
                if (fixed_ns)
                        *fixed_ns = f;
                return f / e;
        }
        if (fixed_ns)
                *fixed_ns = NAN;
        return NAN;
}

