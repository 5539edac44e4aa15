/* test-compare.c: `ipclab compare` sets cells beside cells, never pools.
 *
 * The fixtures are samples.tsv files written by samples_append_row(), the
 * writer `ipclab run` uses.  Time per message is elapsed_ns / messages,
 * 100 messages a repetition:
 *   - two counts of one cell on both sides: two rows, each with its own
 *     ratio (the old compare pooled them into one "cell" of 2 x 6 values);
 *   - a reproduction whose counts all differ (a profile) is set beside
 *     the committed cell that agrees on every other axis, one to one, and
 *     the count reads "COMMITTED/REPRODUCED";
 *   - two committed counts against one reproduced count pair nothing
 *     (which of the two would it stand for?);
 *   - the reviewer's machine stands for the committed one, but of two
 *     committed machines neither is pooled with the other. */
#include <glib.h>
#include <glib/gstdio.h>
#include <string.h>

#include "compare.h"
#include "samples.h"
#include "transport.h"

static Cell cell(guint index, guint64 count)
{
        Cell c = { .index = index, .transport = "pipe", .bus = BUS_NONE, .payload = PAYLOAD_BYTES,
                   .size = 64, .pattern = PATTERN_ONEWAY, .reply = REPLY_ECHO, .marshal = MARSHAL_ARRAY,
                   .cpus = CPUS_SAME, .count = count };
        return c;
}

/* N repetitions of CELL on MACHINE, each taking NS_PER_MSG ns a message. */
static void rows(GString *out, const char *machine, const Cell *c, guint n, guint64 ns_per_msg)
{
        for (guint i = 0; i < n; i++) {
                Sample s;
                sample_init(&s);
                s.elapsed_ns = ns_per_msg * 100 + i;   /* a little spread */
                s.messages = 100;
                s.bytes = 100 * c->size;
                samples_append_row(out, "host", machine, c, i, &s);
        }
}

static Table *table_of(const GString *body)
{
        g_autofree char *dir = g_dir_make_tmp("test-compare-XXXXXX", NULL);
        g_autofree char *path = g_build_filename(dir, "samples.tsv", NULL);
        g_autofree char *text = g_strconcat(samples_header(), body->str, NULL);
        g_autoptr(GError) e = NULL;

        g_assert_true(g_file_set_contents(path, text, -1, NULL));
        Table *t = table_read(path, &e);
        g_assert_no_error(e);
        g_remove(path);
        g_rmdir(dir);
        return t;
}

/* The rows of compare_cells on A and B, as a table; TALLY or NULL. */
static Table *compare_tally(const GString *a, const GString *b, CompareTally *tally)
{
        g_autoptr(Table) ta = table_of(a), tb = table_of(b);
        g_autoptr(GString) out = g_string_new(NULL);
        g_autoptr(GError) e = NULL;
        g_autofree char *header = compare_header();

        g_string_append(out, header);
        g_assert_true(compare_cells("x", ta, tb, tally, out, &e));
        g_assert_no_error(e);
        g_autofree char *dir = g_dir_make_tmp("test-compare-XXXXXX", NULL);
        g_autofree char *path = g_build_filename(dir, "compare.tsv", NULL);
        g_assert_true(g_file_set_contents(path, out->str, -1, NULL));
        Table *t = table_read(path, &e);
        g_assert_no_error(e);
        g_remove(path);
        g_rmdir(dir);
        return t;
}

static Table *compare(const GString *a, const GString *b)
{
        return compare_tally(a, b, NULL);
}

static const char *field(const Table *t, guint row, const char *name)
{
        int c = table_column(t, name);
        g_assert_cmpint(c, >=, 0);
        return ((char **) t->rows->pdata[row])[c];
}

static void test_counts_apart(void)
{
        Cell c100 = cell(0, 100), c1000 = cell(1, 1000);
        g_autoptr(GString) a = g_string_new(NULL), b = g_string_new(NULL);

        rows(a, "m", &c100, 6, 1000);
        rows(a, "m", &c1000, 6, 500);
        rows(b, "m", &c100, 6, 2000);   /* 2x at 100 */
        rows(b, "m", &c1000, 6, 1500);  /* 3x at 1000 */
        g_autoptr(Table) t = compare(a, b);
        g_assert_cmpuint(t->rows->len, ==, 2);
        g_assert_cmpstr(field(t, 0, "count"), ==, "100");
        g_assert_cmpstr(field(t, 0, "n_committed"), ==, "6");
        g_assert_cmpstr(field(t, 0, "n_reproduced"), ==, "6");
        g_assert_cmpfloat_with_epsilon(g_ascii_strtod(field(t, 0, "ratio"), NULL), 2, 0.01);
        g_assert_cmpstr(field(t, 1, "count"), ==, "1000");
        g_assert_cmpfloat_with_epsilon(g_ascii_strtod(field(t, 1, "ratio"), NULL), 3, 0.01);
}

static void test_profile_one_to_one(void)
{
        Cell c2000 = cell(0, 2000), c300 = cell(0, 300);
        Cell d2000 = cell(1, 2000), d300 = cell(1, 300);
        d2000.size = d300.size = 4096;
        g_autoptr(GString) a = g_string_new(NULL), b = g_string_new(NULL);

        rows(a, "m", &c2000, 6, 1000);
        rows(a, "m", &d2000, 6, 1000);
        rows(b, "m", &c300, 2, 2000);
        rows(b, "m", &d300, 2, 4000);
        g_autoptr(Table) t = compare(a, b);
        g_assert_cmpuint(t->rows->len, ==, 2);
        g_assert_cmpstr(field(t, 0, "count"), ==, "2000/300");
        g_assert_cmpstr(field(t, 0, "size_B"), ==, "64");
        g_assert_cmpfloat_with_epsilon(g_ascii_strtod(field(t, 0, "ratio"), NULL), 2, 0.01);
        g_assert_cmpstr(field(t, 1, "size_B"), ==, "4096");
        g_assert_cmpfloat_with_epsilon(g_ascii_strtod(field(t, 1, "ratio"), NULL), 4, 0.01);
}

static void test_two_against_one(void)
{
        Cell c100 = cell(0, 100), c1000 = cell(1, 1000), c300 = cell(0, 300);
        g_autoptr(GString) a = g_string_new(NULL), b = g_string_new(NULL);

        rows(a, "m", &c100, 6, 1000);
        rows(a, "m", &c1000, 6, 500);
        rows(b, "m", &c300, 6, 800);
        g_autoptr(Table) t = compare(a, b);
        g_assert_cmpuint(t->rows->len, ==, 3);
        for (guint r = 0; r < 3; r++)
                g_assert_cmpstr(field(t, r, "ratio"), ==, "-");
        g_assert_cmpstr(field(t, 2, "count"), ==, "300");
        g_assert_cmpstr(field(t, 2, "n_committed"), ==, "0");
}

static void test_machines(void)
{
        Cell c = cell(0, 100);
        g_autoptr(GString) a = g_string_new(NULL), b = g_string_new(NULL);

        rows(a, "lab", &c, 6, 1000);
        rows(b, "reviewer", &c, 6, 3000);
        g_autoptr(Table) t = compare(a, b);
        g_assert_cmpuint(t->rows->len, ==, 1);
        g_assert_cmpstr(field(t, 0, "machine"), ==, "lab/reviewer");
        g_assert_cmpfloat_with_epsilon(g_ascii_strtod(field(t, 0, "ratio"), NULL), 3, 0.01);

        /* Two committed machines: the reviewer's stands for neither. */
        rows(a, "lab2", &c, 6, 2000);
        g_autoptr(Table) u = compare(a, b);
        g_assert_cmpuint(u->rows->len, ==, 3);
        g_assert_cmpstr(field(u, 0, "n_committed"), ==, "6");
        g_assert_cmpstr(field(u, 0, "ratio"), ==, "-");
        g_assert_cmpstr(field(u, 1, "machine"), ==, "lab2");
        g_assert_cmpstr(field(u, 1, "n_committed"), ==, "6");
}

/* A rerun whose cpus changed (same in one run, split in the next: no
 * value in common) sets each cell beside its counterpart, one to one,
 * the axis reading "same/split"; a cpus both runs have is matched as it
 * is, and never pooled with the other. */
static void test_changed_axis(void)
{
        Cell s64 = cell(0, 100), s4k = cell(1, 100);
        s4k.size = 4096;
        Cell p64 = s64, p4k = s4k;
        p64.cpus = p4k.cpus = CPUS_SPLIT;
        g_autoptr(GString) a = g_string_new(NULL), b = g_string_new(NULL);

        rows(a, "m", &s64, 6, 1000);
        rows(a, "m", &s4k, 6, 2000);
        rows(b, "m", &p64, 6, 3000);
        rows(b, "m", &p4k, 6, 6000);
        g_autoptr(Table) t = compare(a, b);
        g_assert_cmpuint(t->rows->len, ==, 2);
        g_assert_cmpstr(field(t, 0, "cpus"), ==, "same/split");
        g_assert_cmpstr(field(t, 0, "size_B"), ==, "64");
        g_assert_cmpfloat_with_epsilon(g_ascii_strtod(field(t, 0, "ratio"), NULL), 3, 0.01);
        g_assert_cmpstr(field(t, 1, "size_B"), ==, "4096");

        /* Both runs have same: the split cells have no partner. */
        rows(b, "m", &s64, 6, 1000);
        g_autoptr(Table) u = compare(a, b);
        g_assert_cmpuint(u->rows->len, ==, 4);
        g_assert_cmpstr(field(u, 0, "cpus"), ==, "same");
        g_assert_cmpstr(field(u, 0, "n_reproduced"), ==, "6");
        g_assert_cmpstr(field(u, 1, "ratio"), ==, "-");
}

/* --fail-above: a cell 3x slower is a regression beyond 10 % (its
 * interval at 1 - 0.05/K wholly above 1.1), named in the tally; the
 * same times are within 10 %; with 3 repetitions a side (at most 90 %)
 * nothing can be told. */
static void test_regression(void)
{
        Cell c64 = cell(0, 100), c4k = cell(1, 100);
        c4k.size = 4096;
        g_autoptr(GString) a = g_string_new(NULL), b = g_string_new(NULL);
        CompareTally tally = { .fail_above = 0.10, .regressions = g_ptr_array_new_with_free_func(g_free) };

        rows(a, "m", &c64, 6, 1000);
        rows(a, "m", &c4k, 6, 2000);
        rows(b, "m", &c64, 6, 3000);
        rows(b, "m", &c4k, 6, 2000);
        g_autoptr(Table) t = compare_tally(a, b, &tally);
        g_assert_cmpstr(field(t, 0, "change"), ==, "slower");
        g_assert_cmpstr(field(t, 1, "change"), ==, "within");
        g_assert_cmpuint(tally.cells, ==, 2);
        g_assert_cmpuint(tally.changes[COMPARE_SLOWER], ==, 1);
        g_assert_cmpuint(tally.regressions->len, ==, 1);
        g_assert_nonnull(strstr(tally.regressions->pdata[0], "size_B=64"));
        g_ptr_array_unref(tally.regressions);

        g_autoptr(GString) a3 = g_string_new(NULL), b3 = g_string_new(NULL);
        CompareTally few = { .fail_above = 0.10, .regressions = g_ptr_array_new_with_free_func(g_free) };
        rows(a3, "m", &c64, 3, 1000);
        rows(b3, "m", &c64, 3, 3000);
        g_autoptr(Table) u = compare_tally(a3, b3, &few);
        g_assert_cmpstr(field(u, 0, "change"), ==, "-");
        g_assert_cmpuint(few.regressions->len, ==, 0);
        g_ptr_array_unref(few.regressions);
}

int main(int argc, char **argv)
{
        g_test_init(&argc, &argv, NULL);
        transports_install(&transport_ops);
        g_test_add_func("/compare/counts-apart", test_counts_apart);
        g_test_add_func("/compare/profile-one-to-one", test_profile_one_to_one);
        g_test_add_func("/compare/two-against-one", test_two_against_one);
        g_test_add_func("/compare/machines", test_machines);
        g_test_add_func("/compare/changed-axis", test_changed_axis);
        g_test_add_func("/compare/regression", test_regression);
        return g_test_run();
}
