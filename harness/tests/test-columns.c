/* test-columns.c: the column schema (columns.h) against the files it
 * describes.
 *
 * The table: one row per ColumnId, names unique, a unit and a label for
 * every column and a unit that agrees with the name's suffix, selector
 * keys exactly on the axes; every measured number of samples.tsv has its
 * field in a Sample and every number of a Sample its column; samples.tsv's
 * header is exactly its COLUMN_IN_SAMPLES columns and the summary's
 * exactly its COLUMN_IN_SUMMARY columns plus NAME_lo and NAME_hi where
 * COLUMN_HAS_CI.
 *
 * samples.tsv: rows written for known cells and samples are byte for byte
 * what the writer wrote before it took its columns from the schema (the
 * expected strings are that writer's output, with the machine column
 * after env and the roles column after cpus), and read back to the same
 * sample; data written before the roles column reads as processes.
 *
 * The summary: every row has the header's fields, a cell whose every
 * repetition failed too. */
#include <errno.h>
#include <glib.h>
#include <glib/gstdio.h>
#include <sched.h>
#include <string.h>
#include <sys/mount.h>
#include <sys/wait.h>
#include <unistd.h>

#include "columns.h"
#include "placement.h"
#include "samples.h"
#include "summarize.h"
#include "transport.h"

static const char old_header[] =
        "cell\trep\tenv\tmachine\ttransport\tbus\tpayload\tsize_B\tpattern\treply\tmarshal\tcpus\troles"
        "\tcount\tduration_ns\tstatus\telapsed_ns\tclient_cpu_ns"
        "\tserver_cpu_ns\tbus_cpu_ns\tmessages\tbytes_B\tlat_n"
        "\tlat_min_ns\tlat_p50_ns\tlat_p90_ns\tlat_p99_ns\tlat_p999_ns\tlat_max_ns"
        "\tfixed_ns\tplacement\tclient_on_cpu\tserver_on_cpu\tbus_on_cpu\tmigrations\twhy\n";

static Sample measured(void)
{
        Sample s = {
                .elapsed_ns = 123456789, .client_cpu_ns = 1001, .server_cpu_ns = 2002,
                .bus_cpu_ns = 3003, .messages = 1000, .bytes = 64000, .lat_n = 1000,
                .lat_min_ns = 11, .lat_p50_ns = 22, .lat_p90_ns = 33, .lat_p99_ns = 44,
                .lat_p999_ns = 55, .lat_max_ns = 66, .fixed_ns = 777, .placement = PLACEMENT_SPLIT,
                .client_on_cpu = 1, .server_on_cpu = 0, .bus_on_cpu = 0, .migrations = 0,
        };
        return s;
}

/* A round-trip cell of 64-byte messages, 1000 of them, over TRANSPORT. */
static Cell roundtrip_cell(guint index, const char *transport)
{
        Cell c = { .index = index, .transport = transport, .bus = BUS_NONE, .payload = PAYLOAD_BYTES,
                   .size = 64, .pattern = PATTERN_ROUNDTRIP, .reply = REPLY_ECHO,
                   .marshal = MARSHAL_ARRAY, .cpus = CPUS_NONE, .count = 1000 };
        return c;
}

/* One-way strings through dbus-broker, per element, split, in a 1 s box. */
static Cell broker_cell(void)
{
        Cell c = { .index = 0, .transport = "libdbus", .bus = BUS_DBUS_BROKER, .payload = PAYLOAD_STRING,
                   .size = 4096, .pattern = PATTERN_ONEWAY, .reply = REPLY_EMPTY,
                   .marshal = MARSHAL_PER_ELEMENT, .cpus = CPUS_SPLIT, .duration_ns = 1000000000 };
        return c;
}

/* sd-bus peer to peer, its roles two threads, placed CPUS. */
static Cell p2p_cell(CpuPlacement cpus)
{
        Cell c = { .index = 1, .transport = "sd-bus", .bus = BUS_P2P, .payload = PAYLOAD_BYTES,
                   .size = 1, .pattern = PATTERN_ROUNDTRIP, .reply = REPLY_EMPTY,
                   .marshal = MARSHAL_ARRAY, .cpus = cpus, .roles = ROLES_THREADS, .count = 10 };
        return c;
}

/* One row per case: the cell, the sample, and what the old writer wrote. */
static void test_samples_rows(void)
{
        Cell pipe = roundtrip_cell(3, "pipe");
        Cell broker = broker_cell();
        Cell direct = { .index = 7, .transport = "direct", .bus = BUS_NONE, .payload = PAYLOAD_NONE,
                        .size = 0, .pattern = PATTERN_CALLRATE, .reply = REPLY_SHORT,
                        .marshal = MARSHAL_ARRAY, .cpus = CPUS_SAME, .count = 5 };
        Cell p2p = p2p_cell(CPUS_NONE);
        Sample ok = measured();
        Sample oneway = measured();
        oneway.lat_n = 0;
        Sample calls = measured();
        calls.lat_n = 0;
        Sample failed = { .status = -ETIMEDOUT };
        g_strlcpy(failed.why, "timed\tout\nafter 5 s", sizeof failed.why);
        Sample silent = { .status = -EIO };
        struct {
                const char *env;
                const Cell *cell;
                guint rep;
                const Sample *s;
                const char *row;
        } cases[] = {
                { "host", &pipe, 2, &ok,
                  "3\t2\thost\tbox\tpipe\t-\tbytes\t64\troundtrip\techo\tarray\tnone\tprocesses\t1000\t-\tok\t123456789"
                  "\t1001\t2002\t-\t1000\t64000\t1000\t11\t22\t33\t44\t55\t66\t777\tsplit\t1\t0\t0\t0\t-\n" },
                { "vm", &broker, 0, &oneway,
                  "0\t0\tvm\tbox\tlibdbus\tdbus-broker\tstring\t4096\toneway\t-\tper-element\tsplit\tprocesses\t-"
                  "\t1000000000\tok\t123456789\t1001\t2002\t3003\t1000\t64000\t-\t-\t-\t-\t-\t-\t-"
                  "\t777\tsplit\t1\t0\t0\t0\t-\n" },
                { "nspawn", &direct, 4, &calls,
                  "7\t4\tnspawn\tbox\tdirect\t-\tnone\t0\tcallrate\tshort\tarray\tsame\tprocesses\t5\t-\tok\t123456789"
                  "\t1001\t-\t-\t1000\t64000\t0\t-\t-\t-\t-\t-\t-\t777\tsplit\t1\t0\t0\t0\t-\n" },
                { "host", &p2p, 1, &ok,
                  "1\t1\thost\tbox\tsd-bus\tp2p\tbytes\t1\troundtrip\tempty\tarray\tnone\tthreads\t10\t-\tok\t123456789"
                  "\t1001\t2002\t-\t1000\t64000\t1000\t11\t22\t33\t44\t55\t66\t777\tsplit\t1\t0\t0\t0\t-\n" },
                { "host", &broker, 9, &failed,
                  "0\t9\thost\tbox\tlibdbus\tdbus-broker\tstring\t4096\toneway\t-\tper-element\tsplit\tprocesses\t-"
                  "\t1000000000\tfailed\t-\t-\t-\t-\t-\t-\t-\t-\t-\t-\t-\t-\t-\t-\t-\t-\t-\t-\t-"
                  "\ttimed out after 5 s\n" },
                { "host", &pipe, 0, &silent,
                  "3\t0\thost\tbox\tpipe\t-\tbytes\t64\troundtrip\techo\tarray\tnone\tprocesses\t1000\t-\tfailed"
                  "\t-\t-\t-\t-\t-\t-\t-\t-\t-\t-\t-\t-\t-\t-\t-\t-\t-\t-\t-\tunknown\n" },
        };

        g_assert_cmpstr(samples_header(), ==, old_header);
        for (guint i = 0; i < G_N_ELEMENTS(cases); i++) {
                g_autoptr(GString) out = g_string_new(NULL);
                samples_append_row(out, cases[i].env, "box", cases[i].cell, cases[i].rep, cases[i].s);
                g_assert_cmpstr(out->str, ==, cases[i].row);
        }
}

/* A row read back as a table names its cell again (samples_row_cell):
 * the same description, axis by axis where it applies; a value that is
 * none of its axis's does not read. */
static void test_row_cell(void)
{
        Cell pipe = roundtrip_cell(3, "pipe");
        Cell broker = broker_cell();
        Cell p2p = p2p_cell(CPUS_SAME);
        const Cell *cells[] = { &pipe, &broker, &p2p };
        Sample ok = measured();
        g_autoptr(GString) out = g_string_new(samples_header());
        for (guint i = 0; i < G_N_ELEMENTS(cells); i++)
                samples_append_row(out, "host", "box", cells[i], 0, &ok);
        g_autofree char *dir = g_dir_make_tmp("test-columns-XXXXXX", NULL);
        g_autofree char *path = g_build_filename(dir, "samples.tsv", NULL);
        g_assert_true(g_file_set_contents(path, out->str, -1, NULL));
        g_autoptr(Table) t = samples_table_read(path, NULL);
        g_assert_nonnull(t);
        g_assert_cmpuint(t->rows->len, ==, G_N_ELEMENTS(cells));
        for (guint i = 0; i < G_N_ELEMENTS(cells); i++) {
                Cell back;
                g_assert_true(samples_row_cell(t, t->rows->pdata[i], &back));
                g_autofree char *want = cell_describe(cells[i]);
                g_autofree char *got = cell_describe(&back);
                g_assert_cmpstr(got, ==, want);
                g_assert_cmpuint(back.size, ==, cells[i]->size);
                g_assert_cmpint(back.cpus, ==, cells[i]->cpus);
        }
        char **row = t->rows->pdata[0];
        int col = table_column(t, "payload");
        g_assert_cmpint(col, >=, 0);
        g_free(row[col]);
        row[col] = g_strdup("bogus");
        Cell back;
        g_assert_false(samples_row_cell(t, row, &back));
        g_assert_cmpint(g_unlink(path), ==, 0);
        g_assert_cmpint(g_rmdir(dir), ==, 0);
}

/* What the writer wrote reads back to the same sample, and a row with a
 * field too many or too few, or a number where "-" belongs, does not. */
static void test_samples_parse(void)
{
        Cell pipe = roundtrip_cell(0, "pipe");
        g_autoptr(GPtrArray) cells = g_ptr_array_new();
        g_ptr_array_add(cells, &pipe);
        Sample ok = measured();
        g_autoptr(GString) out = g_string_new(NULL);
        samples_append_row(out, "host", "box", &pipe, 2, &ok);
        g_string_truncate(out, out->len - 1);

        const Cell *cell;
        guint rep;
        Sample back;
        g_autofree char *why = NULL;
        g_assert_true(samples_parse_row(out->str, "host", "box", cells, 5, &cell, &rep, &back, &why));
        g_assert_null(why);
        g_assert_true(cell == &pipe);
        g_assert_cmpuint(rep, ==, 2);
        ok.bus_cpu_ns = 0;   /* no bus: written as "-" */
        g_assert_cmpmem(&back, sizeof back, &ok, sizeof ok);

        g_autofree char *longer = g_strconcat(out->str, "\t-", NULL);
        g_assert_false(samples_parse_row(longer, "host", "box", cells, 5, &cell, &rep, &back, &why));
        g_assert_cmpstr(why, ==, "37 fields, not 36");
        g_clear_pointer(&why, g_free);

        g_autofree char *shorter = g_strndup(out->str, strrchr(out->str, '\t') - out->str);
        g_assert_false(samples_parse_row(shorter, "host", "box", cells, 5, &cell, &rep, &back, &why));
        g_assert_cmpstr(why, ==, "35 fields, not 36");
        g_clear_pointer(&why, g_free);

        /* bus_cpu_ns measured for a transport without a bus. */
        g_autofree char *bus = g_strdup(out->str);
        char *dash = strstr(bus, "\t2002\t-\t") + 6;
        *dash = '7';
        g_assert_false(samples_parse_row(bus, "host", "box", cells, 5, &cell, &rep, &back, &why));
        g_assert_cmpstr(why, ==, "bus_cpu_ns is '7', where cell 0 of this experiment has '-'");
        g_clear_pointer(&why, g_free);

        g_autofree char *word = g_strdup(out->str);
        memcpy(strstr(word, "\t1001\t") + 1, "10x1", 4);
        g_assert_false(samples_parse_row(word, "host", "box", cells, 5, &cell, &rep, &back, &why));
        g_assert_cmpstr(why, ==, "client_cpu_ns is '10x1', not a whole number");
}

/* The header's names, without the newline. */
static GStrv header_names(const char *header)
{
        g_autofree char *line = g_strndup(header, strcspn(header, "\n"));
        return g_strsplit(line, "\t", -1);
}

static void test_table(void)
{
        g_autoptr(GHashTable) names = g_hash_table_new(g_str_hash, g_str_equal);
        g_autoptr(GHashTable) keys = g_hash_table_new(g_str_hash, g_str_equal);
        static const struct {
                const char *suffix, *unit;
        } units[] = {
                { "_ns", "ns" }, { "_B", "B" }, { "_MiBps", "MiB/s" }, { "_per_s", "1/s" },
                { "_MiBps_hmean", "MiB/s" }, { "_per_s_hmean", "1/s" }, { "_per_msg", "ns" },
        };

        for (ColumnId id = 0; id < COL_N_COLUMNS; id++) {
                const Column *c = &column_table[id];
                g_assert_nonnull(c->name);   /* no hole in the table */
                g_assert_nonnull(c->unit);
                g_assert_nonnull(c->label);
                g_assert_cmpuint(strlen(c->label), >, 0);
                g_assert_false(g_hash_table_contains(names, c->name));
                g_hash_table_add(names, (char *) c->name);
                g_assert_true(c->flags & (COLUMN_IN_SAMPLES | COLUMN_IN_SUMMARY));
                g_assert_true(column_find(c->name) == c);
                /* The unit is what the name says. */
                const char *want = "";
                for (size_t u = 0; u < G_N_ELEMENTS(units); u++)
                        if (g_str_has_suffix(c->name, units[u].suffix))
                                want = units[u].unit;
                if (g_strcmp0(c->unit, want) != 0)
                        g_test_fail_printf("%s: unit '%s', its name says '%s'", c->name, c->unit, want);
                /* Keys exactly on the axes, unique, found both ways. */
                g_assert_cmpint(c->key != NULL, ==, c->kind == COLUMN_AXIS);
                if (c->key) {
                        g_assert_false(g_hash_table_contains(keys, c->key));
                        g_hash_table_add(keys, (char *) c->key);
                        g_assert_true(column_find_key(c->key) == c);
                        g_assert_true(column_find_key(c->name) == c);
                        /* verify.c lists the axes COL_ENV + 1 .. COL_DURATION_NS. */
                        g_assert_cmpint(id, >=, COL_ENV);
                        g_assert_cmpint(id, <=, COL_DURATION_NS);
                }
                /* Only summary columns are only in the summary's file,
                 * and summary columns are never in samples.tsv. */
                if (c->kind == COLUMN_SUMMARY)
                        g_assert_cmpuint(c->flags & COLUMN_IN_SAMPLES, ==, 0);
                if (c->flags & COLUMN_HAS_CI)
                        g_assert_true(c->flags & COLUMN_IN_SUMMARY);
        }
        g_assert_null(column_table[COL_N_COLUMNS].name);
        /* No name is another's interval bound. */
        for (const Column *c = column_table; c->name; c++) {
                int upper;
                g_assert_null(column_find_interval(c->name, &upper));
        }
        g_assert_null(column_find("no_such_column"));
        g_assert_null(column_find_key("elapsed_ns"));   /* a column, not an axis */
        g_assert_null(column_find_key("no_such_axis"));
        int upper = -1;
        g_assert_true(column_find_interval("lat_p50_ns_hi", &upper) == &column_table[COL_LAT_P50_NS]);
        g_assert_cmpint(upper, ==, 1);
        g_assert_true(column_find_interval("throughput_MiBps_lo", &upper) == &column_table[COL_THROUGHPUT_MIBPS]);
        g_assert_cmpint(upper, ==, 0);
        g_assert_null(column_find_interval("lat_p90_ns_lo", &upper));   /* no interval */
        g_assert_null(column_find_interval("_lo", &upper));
        g_assert_cmpstr(column_find_key("size")->name, ==, "size_B");
        g_assert_cmpstr(column_find_key("duration")->name, ==, "duration_ns");
}

/* Every measured number of samples.tsv has its field in a Sample and
 * every number of a Sample its column: a measured row is either a word
 * (COLUMN_WORD) or names a field, each field once, and the fields named
 * are all of a Sample's numbers but failed_ns and placement (which
 * samples.tsv writes as a word). */
static void test_sample_fields(void)
{
        size_t first = offsetof(Sample, failed_ns);
        size_t slots = (sizeof(Sample) - first) / sizeof(guint64);
        g_autoptr(GHashTable) seen = g_hash_table_new(g_direct_hash, g_direct_equal);

        g_assert_cmpuint(first % sizeof(guint64), ==, 0);
        g_assert_cmpuint((sizeof(Sample) - first) % sizeof(guint64), ==, 0);
        for (ColumnId id = 0; id < COL_N_COLUMNS; id++) {
                const Column *c = &column_table[id];
                bool measured = c->kind == COLUMN_MEASURED && (c->flags & COLUMN_IN_SAMPLES);
                bool word = c->flags & COLUMN_WORD;
                if (measured && !word && !c->sample)
                        g_test_fail_printf("%s: a measured column without its field in Sample (columns.c, FIELD)",
                                           c->name);
                if (word)
                        g_assert_true(measured && !c->sample);
                if ((c->flags & COLUMN_OPTIONAL) || c->sample)
                        g_assert_true(measured && c->sample);
                if (!c->sample)
                        continue;
                g_assert_cmpuint(c->sample, >, first);
                g_assert_cmpuint(c->sample, <, sizeof(Sample));
                g_assert_cmpuint((c->sample - first) % sizeof(guint64), ==, 0);
                g_assert_cmpuint(c->sample, !=, offsetof(Sample, placement));
                if (g_hash_table_contains(seen, GSIZE_TO_POINTER(c->sample)))
                        g_test_fail_printf("%s: a field another column holds", c->name);
                g_hash_table_add(seen, GSIZE_TO_POINTER(c->sample));
        }
        if (g_hash_table_size(seen) != slots - 2)
                g_test_fail_printf("columns hold %u of a Sample's %zu numbers (all but failed_ns and placement)",
                                   g_hash_table_size(seen), slots - 2);
        /* sample_init() leaves every optional number SAMPLE_NONE, the
         * others 0. */
        Sample s;
        sample_init(&s);
        for (const Column *c = column_table; c->name; c++)
                if (c->sample)
                        g_assert_cmpuint(*(guint64 *) ((char *) &s + c->sample), ==,
                                         (c->flags & COLUMN_OPTIONAL) ? SAMPLE_NONE : 0);
}

/* samples.tsv's header is the table's samples columns in the table's
 * order, and every row the writer writes has exactly its fields (a field
 * written without a row in the table fails here). */
static void test_samples_header(void)
{
        g_auto(GStrv) head = header_names(samples_header());
        guint i = 0, axes = 0;

        g_assert_true(g_str_has_suffix(samples_header(), "\n"));
        for (const Column *c = column_table; c->name; c++) {
                if (!(c->flags & COLUMN_IN_SAMPLES))
                        continue;
                g_assert_nonnull(head[i]);
                g_assert_cmpstr(head[i], ==, c->name);
                i++;
                if (c->kind == COLUMN_AXIS) {
                        g_assert_cmpstr(samples_axis_columns[axes], ==, c->name);
                        axes++;
                }
        }
        g_assert_null(head[i]);
        g_assert_null(samples_axis_columns[axes]);

        Cell cell = roundtrip_cell(0, "unix-stream");
        Sample ok = measured();
        Sample failed = { .status = -EIO };
        g_autoptr(GString) out = g_string_new(NULL);
        samples_append_row(out, "host", "box", &cell, 0, &ok);
        samples_append_row(out, "host", "box", &cell, 1, &failed);
        g_auto(GStrv) rows = g_strsplit(out->str, "\n", -1);
        for (guint r = 0; r < 2; r++) {
                g_auto(GStrv) f = g_strsplit(rows[r], "\t", -1);
                g_assert_cmpuint(g_strv_length(f), ==, i);
                for (guint k = 0; k < i; k++)
                        g_assert_cmpuint(strlen(f[k]), >, 0);
        }
}

/* The summary's header: "experiment", the axes, then every other summary
 * column once, each with COLUMN_HAS_CI followed somewhere by its _lo and
 * _hi; and nothing else. */
static void test_summary_header(void)
{
        g_auto(GStrv) head = header_names(summary_header());
        g_autoptr(GHashTable) seen = g_hash_table_new(g_str_hash, g_str_equal);
        guint i = 0;

        g_assert_true(g_str_has_suffix(summary_header(), "\n"));
        g_assert_cmpstr(head[i++], ==, "experiment");
        for (const Column *c = column_table; c->name; c++)
                if (c->kind == COLUMN_AXIS && (c->flags & COLUMN_IN_SUMMARY))
                        g_assert_cmpstr(head[i++], ==, c->name);
        for (guint k = 0; head[k]; k++) {
                int upper;
                const Column *c = column_find(head[k]);
                const Column *bound = column_find_interval(head[k], &upper);
                if (!c && !bound)
                        g_test_fail_printf("summary column %s is not in the schema", head[k]);
                else if (c && !(c->flags & COLUMN_IN_SUMMARY))
                        g_test_fail_printf("summary column %s lacks COLUMN_IN_SUMMARY", head[k]);
                if (g_hash_table_contains(seen, head[k]))
                        g_test_fail_printf("summary column %s twice", head[k]);
                g_hash_table_add(seen, head[k]);
        }
        for (const Column *c = column_table; c->name; c++) {
                g_autofree char *lo = g_strconcat(c->name, "_lo", NULL);
                g_autofree char *hi = g_strconcat(c->name, "_hi", NULL);
                bool in = c->flags & COLUMN_IN_SUMMARY, ci = c->flags & COLUMN_HAS_CI;
                g_assert_cmpint(g_hash_table_contains(seen, c->name), ==, in);
                g_assert_cmpint(g_hash_table_contains(seen, lo), ==, ci);
                g_assert_cmpint(g_hash_table_contains(seen, hi), ==, ci);
        }
}

static char *tmp_dir;

/* Writes ROWS (rows of samples.tsv) and META (or no meta.ini) into a new
 * directory NAME under tmp_dir and returns its path. */
static char *results_dir(const char *name, const GString *rows, const char *meta)
{
        char *dir = g_build_filename(tmp_dir, name, NULL);
        g_autofree char *samples = g_build_filename(dir, "samples.tsv", NULL);
        g_autofree char *text = g_strconcat(samples_header(), rows->str, NULL);

        g_assert_cmpint(g_mkdir_with_parents(dir, 0755), ==, 0);
        g_assert_true(g_file_set_contents(samples, text, -1, NULL));
        if (meta) {
                g_autofree char *path = g_build_filename(dir, "meta.ini", NULL);
                g_assert_true(g_file_set_contents(path, meta, -1, NULL));
        }
        return dir;
}

static guint fields(const char *line)
{
        guint n = 1;

        for (const char *p = line; *p && *p != '\n'; p++)
                n += *p == '\t';
        return n;
}

/* Two cells, one measured and one whose every repetition failed: both
 * rows have the header's fields, the failed one "-" for every statistic
 * but its memcpy bound, which is meta.ini's. */
static void test_summary_failed_cell(void)
{
        Cell ok_cell = roundtrip_cell(0, "pipe");
        Cell bad_cell = ok_cell;
        bad_cell.index = 1;
        bad_cell.size = 4096;
        g_autoptr(GString) rows = g_string_new(NULL);
        Sample ok = measured();
        Sample failed = { .status = -ETIMEDOUT };
        g_strlcpy(failed.why, "timed out", sizeof failed.why);
        for (guint rep = 0; rep < 3; rep++) {
                samples_append_row(rows, "host", "box", &ok_cell, rep, &ok);
                samples_append_row(rows, "host", "box", &bad_cell, rep, &failed);
        }
        g_autofree char *dir = results_dir("failed-cell", rows,
                                           "[bounds]\nmemcpy_MiBps_64=1234.5\nmemcpy_MiBps_4096=9876.5\n");
        g_autoptr(GString) out = g_string_new(NULL);
        g_autoptr(GError) e = NULL;
        g_assert_cmpint(summarize_dir(dir, out, &e), ==, 0);
        g_assert_no_error(e);

        g_auto(GStrv) lines = g_strsplit(out->str, "\n", -1);
        g_assert_cmpuint(g_strv_length(lines), ==, 4);   /* header, two cells, "" */
        g_assert_cmpstr(lines[3], ==, "");
        g_auto(GStrv) head = g_strsplit(lines[0], "\t", -1);
        guint nf = g_strv_length(head);
        for (guint i = 1; i < 3; i++) {
                g_auto(GStrv) f = g_strsplit(lines[i], "\t", -1);
                g_assert_cmpuint(g_strv_length(f), ==, nf);
                for (guint k = 0; k < nf; k++) {
                        const char *name = head[k];
                        if (!strcmp(name, "memcpy_MiBps"))
                                g_assert_cmpstr(f[k], ==, i == 1 ? "1234.5" : "9876.5");
                        else if (!strcmp(name, "n"))
                                g_assert_cmpstr(f[k], ==, i == 1 ? "3" : "0");
                        else if (!strcmp(name, "failed"))
                                g_assert_cmpstr(f[k], ==, i == 1 ? "0" : "3");
                        else if (!strcmp(name, "elapsed_ns"))
                                g_assert_cmpstr(f[k], ==, i == 1 ? "123456789" : "-");
                        else if (i == 2 && !column_find_key(name) && strcmp(name, "experiment"))
                                g_assert_cmpstr(f[k], ==, "-");
                }
        }
        g_assert_cmpuint(fields(summary_header()), ==, nf);
}

/* A results directory without samples.tsv, or without a column the
 * statistics read, is an input error naming the file. */
static void test_summary_bad_input(void)
{
        g_autoptr(GString) out = g_string_new(NULL);
        g_autoptr(GError) e = NULL;
        g_autofree char *missing = g_build_filename(tmp_dir, "missing", NULL);

        g_assert_cmpint(summarize_dir(missing, out, &e), <, 0);
        g_assert_error(e, IPCLAB_ERROR, IPCLAB_ERROR_INPUT);
        g_assert_nonnull(strstr(e->message, "missing/samples.tsv"));
        g_clear_error(&e);

        g_autofree char *dir = g_build_filename(tmp_dir, "no-column", NULL);
        g_autofree char *path = g_build_filename(dir, "samples.tsv", NULL);
        g_assert_cmpint(g_mkdir_with_parents(dir, 0755), ==, 0);
        g_assert_true(g_file_set_contents(path, "cell\trep\tenv\tstatus\n0\t0\thost\tok\n", -1, NULL));
        g_assert_cmpint(summarize_dir(dir, out, &e), <, 0);
        g_assert_error(e, IPCLAB_ERROR, IPCLAB_ERROR_INPUT);
        g_assert_cmpstr(strstr(e->message, "no column"), ==, "no column elapsed_ns");
        g_assert_cmpuint(out->len, ==, 0);
}

/* The summary's column NAME on its line ROW (1: the first cell). */
static char *summary_field(const char *summary, guint row, const char *name)
{
        g_auto(GStrv) lines = g_strsplit(summary, "\n", -1);
        g_auto(GStrv) head = g_strsplit(lines[0], "\t", -1);
        g_auto(GStrv) f = g_strsplit(lines[row], "\t", -1);

        for (guint k = 0; head[k]; k++)
                if (!strcmp(head[k], name))
                        return g_strdup(f[k]);
        g_assert_not_reached();
}

/* A cell whose repetitions ran in two placements is "mixed" with the
 * count per mode, is named by summary_mixed_placements, and comes apart
 * by placement; one of one mode is that mode; fixed_share is the median
 * of fixed_ns / elapsed_ns. */
static void test_summary_placement(void)
{
        Cell mixed = roundtrip_cell(0, "pipe"), pinned = roundtrip_cell(1, "pipe");
        pinned.size = 4096;
        g_autoptr(GString) rows = g_string_new(NULL);
        const PlacementMode modes[] = { PLACEMENT_SAME, PLACEMENT_SPLIT, PLACEMENT_SAME };
        for (guint rep = 0; rep < 3; rep++) {
                Sample s = measured();
                s.placement = modes[rep];
                s.fixed_ns = s.elapsed_ns / (rep + 2);   /* shares 1/2, 1/3, 1/4 */
                samples_append_row(rows, "host", "box", &mixed, rep, &s);
                s.placement = PLACEMENT_SAME;
                samples_append_row(rows, "host", "box", &pinned, rep, &s);
        }
        g_autofree char *dir = results_dir("placement", rows, NULL);
        g_autoptr(GString) out = g_string_new(NULL);
        g_autoptr(GError) e = NULL;
        g_assert_cmpint(summarize_dir(dir, out, &e), ==, 0);
        g_assert_no_error(e);
        g_autofree char *p1 = summary_field(out->str, 1, "placement");
        g_autofree char *m1 = summary_field(out->str, 1, "placement_modes");
        g_autofree char *p2 = summary_field(out->str, 2, "placement");
        g_autofree char *m2 = summary_field(out->str, 2, "placement_modes");
        g_autofree char *share = summary_field(out->str, 1, "fixed_share");
        g_assert_cmpstr(p1, ==, "mixed");
        g_assert_cmpstr(m1, ==, "same:2,split:1");
        g_assert_cmpstr(p2, ==, "same");
        g_assert_cmpstr(m2, ==, "same:3");
        g_assert_cmpstr(share, ==, "0.3333");

        g_autoptr(GPtrArray) warn = g_ptr_array_new_with_free_func(g_free);
        g_assert_true(summary_mixed_placements(dir, warn, &e));
        g_assert_cmpuint(warn->len, ==, 1);
        g_assert_cmpstr(warn->pdata[0], ==, "env=host,machine=box,transport=pipe,payload=bytes,size=64,"
                                            "pattern=roundtrip,reply=echo,marshal=array,cpus=none,roles=processes,count=1000: "
                                            "same:2,split:1");

        g_autoptr(GString) apart = g_string_new(NULL);
        g_assert_cmpint(summarize_dir_by_placement(dir, apart, &e), ==, 0);
        g_autofree char *a1 = summary_field(apart->str, 1, "placement");
        g_autofree char *n1 = summary_field(apart->str, 1, "n");
        g_autofree char *a2 = summary_field(apart->str, 3, "placement");
        g_autofree char *n2 = summary_field(apart->str, 3, "n");
        g_assert_cmpstr(a1, ==, "same");
        g_assert_cmpstr(n1, ==, "2");
        g_assert_cmpstr(a2, ==, "split");   /* first seen after the 4 KiB cell */
        g_assert_cmpstr(n2, ==, "1");
}

/* samples.tsv written before the placement and fixed-window columns
 * reads as unobserved: "-" for placement, fixed_ns and fixed_share, and
 * no warning. */
static void test_summary_old_data(void)
{
        Cell c = roundtrip_cell(0, "pipe");
        g_autoptr(GString) rows = g_string_new(NULL);
        Sample s = measured();
        for (guint rep = 0; rep < 3; rep++)
                samples_append_row(rows, "host", "box", &c, rep, &s);
        /* Cut the six new columns out of header and rows. */
        g_autoptr(GString) old = g_string_new(old_header);
        const char *cut = strstr(old->str, "\tfixed_ns"), *rest = strstr(old->str, "\twhy");
        g_string_erase(old, cut - old->str, rest - cut);
        g_auto(GStrv) lines = g_strsplit(rows->str, "\n", -1);
        for (guint i = 0; lines[i] && *lines[i]; i++) {
                g_auto(GStrv) f = g_strsplit(lines[i], "\t", -1);
                guint n = g_strv_length(f);
                for (guint k = 0; k < n; k++)
                        if (k < n - 7 || k == n - 1)
                                g_string_append_printf(old, "%s%s", f[k], k == n - 1 ? "\n" : "\t");
        }
        g_autofree char *dir = g_build_filename(tmp_dir, "old-data", NULL);
        g_autofree char *path = g_build_filename(dir, "samples.tsv", NULL);
        g_assert_cmpint(g_mkdir_with_parents(dir, 0755), ==, 0);
        g_assert_true(g_file_set_contents(path, old->str, -1, NULL));
        g_autoptr(GString) out = g_string_new(NULL);
        g_autoptr(GError) e = NULL;
        g_assert_cmpint(summarize_dir(dir, out, &e), ==, 0);
        g_assert_no_error(e);
        g_autofree char *p = summary_field(out->str, 1, "placement");
        g_autofree char *m = summary_field(out->str, 1, "placement_modes");
        g_autofree char *f = summary_field(out->str, 1, "fixed_ns");
        g_autofree char *n = summary_field(out->str, 1, "n");
        g_assert_cmpstr(p, ==, "-");
        g_assert_cmpstr(m, ==, "-");
        g_assert_cmpstr(f, ==, "-");
        g_assert_cmpstr(n, ==, "3");
        g_autoptr(GPtrArray) warn = g_ptr_array_new_with_free_func(g_free);
        g_assert_true(summary_mixed_placements(dir, warn, &e));
        g_assert_cmpuint(warn->len, ==, 0);
}

/* samples.tsv written before the roles column: every cell forked its
 * two processes, and reads so (roles=processes), in the summary and in
 * selectors over it. */
static void test_old_data_roles(void)
{
        Cell c = roundtrip_cell(0, "pipe");
        Sample s = measured();
        g_autoptr(GString) rows = g_string_new(NULL);
        for (guint rep = 0; rep < 3; rep++)
                samples_append_row(rows, "host", "box", &c, rep, &s);
        g_autoptr(GString) old = g_string_new(NULL);
        g_autofree char *all = g_strconcat(old_header, rows->str, NULL);
        g_auto(GStrv) lines = g_strsplit(all, "\n", -1);
        for (guint i = 0; lines[i] && *lines[i]; i++) {
                g_auto(GStrv) f = g_strsplit(lines[i], "\t", -1);
                for (guint k = 0; f[k]; k++)
                        if (k != 12)   /* roles */
                                g_string_append_printf(old, "%s%s", f[k], f[k + 1] ? "\t" : "\n");
        }
        g_assert_null(strstr(old->str, "roles"));
        g_assert_null(strstr(old->str, "processes"));
        g_autofree char *dir = g_build_filename(tmp_dir, "old-roles", NULL);
        g_autofree char *path = g_build_filename(dir, "samples.tsv", NULL);
        g_assert_cmpint(g_mkdir_with_parents(dir, 0755), ==, 0);
        g_assert_true(g_file_set_contents(path, old->str, -1, NULL));
        g_autoptr(GError) e = NULL;
        g_autoptr(Table) t = samples_table_read(path, &e);
        g_assert_no_error(e);
        g_assert_cmpint(table_column(t, "roles"), ==, table_column(t, "cpus") + 1);
        g_assert_cmpuint(t->rows->len, ==, 3);
        for (guint r = 0; r < t->rows->len; r++)
                g_assert_cmpstr(((char **) t->rows->pdata[r])[table_column(t, "roles")], ==, "processes");
        g_autoptr(GString) out = g_string_new(NULL);
        g_assert_cmpint(summarize_dir(dir, out, &e), ==, 0);
        g_assert_no_error(e);
        g_autofree char *roles = summary_field(out->str, 1, "roles");
        g_autofree char *n = summary_field(out->str, 1, "n");
        g_assert_cmpstr(roles, ==, "processes");
        g_assert_cmpstr(n, ==, "3");
}

/* The one remover of a tree: everything below goes, a link goes but not
 * what it points to, a missing directory is fine, and a file system
 * mounted below (a bind mount an environment left) is not entered. */
static void test_remove_dir(void)
{
        g_autofree char *root = g_build_filename(tmp_dir, "remove", NULL);
        g_autofree char *deep = g_build_filename(root, "a", "b", "c", "d", NULL);
        g_autofree char *keep = g_build_filename(tmp_dir, "keep", NULL);
        g_autofree char *kept = g_build_filename(keep, "precious", NULL);
        g_autofree char *link = g_build_filename(root, "a", "to-keep", NULL);
        g_autofree char *file = g_build_filename(deep, "f", NULL);
        g_autofree char *locked = g_build_filename(root, "a", "b", "ro", NULL);

        g_assert_cmpint(g_mkdir_with_parents(deep, 0755), ==, 0);
        g_assert_cmpint(g_mkdir_with_parents(keep, 0755), ==, 0);
        g_assert_true(g_file_set_contents(file, "x", 1, NULL));
        g_assert_true(g_file_set_contents(kept, "y", 1, NULL));
        g_assert_cmpint(symlink(keep, link), ==, 0);
        g_assert_cmpint(g_mkdir_with_parents(locked, 0755), ==, 0);
        g_assert_cmpint(chmod(locked, 0), ==, 0);   /* empty, unreadable: rmdir still works */
        g_assert_cmpint(samples_remove_dir(root), ==, 0);
        g_assert_false(g_file_test(root, G_FILE_TEST_EXISTS));
        g_assert_true(g_file_test(kept, G_FILE_TEST_IS_REGULAR));
        g_assert_cmpint(samples_remove_dir(root), ==, 0);   /* missing: fine */

        /* A file system mounted below, in a mount namespace of a child's
         * own (root only; skipped elsewhere). */
        if (geteuid() != 0) {
                g_test_message("not root: the mount case is not tried");
                return;
        }
        g_autofree char *mnt = g_build_filename(root, "mnt", NULL);
        g_autofree char *inside = g_build_filename(mnt, "inside", NULL);
        g_assert_cmpint(g_mkdir_with_parents(mnt, 0755), ==, 0);
        pid_t pid = fork();
        g_assert_cmpint(pid, >=, 0);
        if (pid == 0) {
                if (unshare(CLONE_NEWNS) < 0 || mount(NULL, "/", NULL, MS_REC | MS_PRIVATE, NULL) < 0 ||
                    mount("ipclab-test", mnt, "tmpfs", 0, "size=64k") < 0)
                        _exit(77);
                if (!g_file_set_contents(inside, "z", 1, NULL))
                        _exit(3);
                int r = samples_remove_dir(root);
                /* Not entered: -EXDEV, and the mounted file is still there. */
                _exit(r == -EXDEV && g_file_test(inside, G_FILE_TEST_IS_REGULAR) ? 0 : 4);
        }
        int status = 0;
        g_assert_cmpint(waitpid(pid, &status, 0), ==, pid);
        g_assert_true(WIFEXITED(status));
        if (WEXITSTATUS(status) == 77) {
                g_test_message("no mount namespace here: the mount case is not tried");
        } else {
                g_assert_cmpint(WEXITSTATUS(status), ==, 0);
        }
        g_assert_cmpint(samples_remove_dir(root), ==, 0);   /* the namespace is gone: now it all goes */
        g_assert_false(g_file_test(root, G_FILE_TEST_EXISTS));
}

int main(int argc, char **argv)
{
        g_test_init(&argc, &argv, NULL);
        transports_install(&transport_ops);
        tmp_dir = g_dir_make_tmp("test-columns-XXXXXX", NULL);
        g_assert_nonnull(tmp_dir);
        g_test_add_func("/columns/table", test_table);
        g_test_add_func("/columns/sample-fields", test_sample_fields);
        g_test_add_func("/columns/samples-header", test_samples_header);
        g_test_add_func("/columns/summary-header", test_summary_header);
        g_test_add_func("/columns/samples-rows", test_samples_rows);
        g_test_add_func("/columns/samples-parse", test_samples_parse);
        g_test_add_func("/columns/row-cell", test_row_cell);
        g_test_add_func("/columns/summary-failed-cell", test_summary_failed_cell);
        g_test_add_func("/columns/summary-bad-input", test_summary_bad_input);
        g_test_add_func("/columns/summary-placement", test_summary_placement);
        g_test_add_func("/columns/summary-old-data", test_summary_old_data);
        g_test_add_func("/columns/old-data-roles", test_old_data_roles);
        g_test_add_func("/columns/remove-dir", test_remove_dir);
        int r = g_test_run();
        samples_remove_dir(tmp_dir);
        g_free(tmp_dir);
        return r;
}
