/* test-select.c: the selector engine (select.h): its syntax, and one
 * selector matched both against experiment cells and against TSV rows. */
#include <glib.h>
#include <glib/gstdio.h>
#include <string.h>

#include "select.h"

static void test_syntax(void)
{
        const char *good[] = { "", "transport=pipe", "transport=pipe|fifo,bus!=p2p", "size>=4KiB",
                               "size >= 4096 , count<10000", "duration=500ms", "env=host",
                               "size_B=64", "reply=echo|empty", "bus=-", "count<1000,duration!=500ms",
                               "size<=1MiB, size>64", "duration>1s", NULL };
        /* (verify's where= once refused text axes: transport=pipe is
         * now a filter like any other.) */
        const char *bad[] = { "transport", "speed=fast", "size>=lots", "size>=4kb", ",",
                              "transport>pipe", "size=>64", "size>=", "=pipe", "count<1.5",
                              "size<64|128", "lat_p50_ns>1", "size>>4", "size>=4096,", "size" };

        for (guint i = 0; good[i]; i++) {
                g_autoptr(GError) e = NULL;
                g_autoptr(Selector) s = select_parse(good[i], SELECT_AXES, &e);
                g_assert_no_error(e);
                g_assert_nonnull(s);
                g_assert_cmpstr(select_text(s), ==, good[i]);
        }
        for (guint i = 0; i < G_N_ELEMENTS(bad); i++) {
                g_autoptr(GError) e = NULL;
                g_autoptr(Selector) s = select_parse(bad[i], SELECT_AXES, &e);
                g_assert_null(s);
                g_assert_error(e, IPCLAB_ERROR, IPCLAB_ERROR_INPUT);
                g_assert_nonnull(strstr(e->message, bad[i]));
        }
        /* Columns that are not axes only where asked for. */
        g_autoptr(GError) e = NULL;
        g_autoptr(Selector) s = select_parse("lat_p50_ns>1,implementation=pipe", SELECT_COLUMNS, &e);
        g_assert_no_error(e);
        g_assert_true(select_names_column(s, "implementation"));
        g_assert_false(select_names_column(s, "transport"));
        g_autoptr(Selector) t = select_parse("size>=4KiB", SELECT_AXES, NULL);
        g_assert_true(select_names_column(t, "size_B"));
        g_assert_cmpstr(select_axis_column("duration"), ==, "duration_ns");
        g_assert_null(select_axis_column("lat_p50_ns"));
}

static bool cell_is(const char *sel, const Cell *cell)
{
        g_autoptr(GError) e = NULL;
        g_autoptr(Selector) s = select_parse(sel, SELECT_AXES, &e);

        g_assert_no_error(e);
        return select_cell(s, cell);
}

static void test_cells(void)
{
        Cell pipe = { .transport = "pipe", .bus = BUS_NONE, .payload = PAYLOAD_BYTES, .size = 4096,
                      .pattern = PATTERN_ONEWAY, .reply = REPLY_ECHO, .count = 1000 };
        Cell dbus = { .transport = "libdbus", .bus = BUS_P2P, .payload = PAYLOAD_STRING, .size = 64,
                      .pattern = PATTERN_ROUNDTRIP, .reply = REPLY_EMPTY, .roles = ROLES_THREADS,
                      .duration_ns = 500000000 };

        g_assert_true(cell_is("", &pipe));
        g_assert_true(cell_is("transport=pipe,size=4KiB", &pipe));
        g_assert_false(cell_is("transport=pipe,size=64", &pipe));
        g_assert_true(cell_is("transport=fifo|pipe", &pipe));
        g_assert_false(cell_is("transport!=fifo|pipe", &pipe));
        g_assert_true(cell_is("size>=4KiB,size<=4096,size>64,size<1MiB", &pipe));
        g_assert_false(cell_is("size>4KiB", &pipe));
        /* What does not apply: no bus is bus=none, a one-way reply is echo,
         * a time-boxed cell has no count. */
        g_assert_true(cell_is("bus=none", &pipe));
        g_assert_true(cell_is("reply=echo", &pipe));
        g_assert_false(cell_is("reply=echo", &dbus));
        g_assert_true(cell_is("duration=500ms,bus=p2p,payload=string", &dbus));
        g_assert_false(cell_is("count>=1", &dbus));
        g_assert_true(cell_is("count=0", &dbus));
        g_assert_true(cell_is("count!=1000", &dbus));
        g_assert_true(cell_is("count=-", &dbus));
        g_assert_false(cell_is("count=-", &pipe));
        /* roles: processes unless the cell says threads. */
        g_assert_true(cell_is("roles=processes", &pipe));
        g_assert_false(cell_is("roles=threads", &pipe));
        g_assert_true(cell_is("roles=threads,bus=p2p", &dbus));
        g_assert_true(cell_is("roles!=processes", &dbus));
        /* env is not a cell's: it holds for every cell. */
        g_assert_true(cell_is("env=vm", &pipe));
        /* experiment_cell_matches is the same engine. */
        g_assert_cmpint(experiment_cell_matches(&pipe, "transport=pipe|fifo,size>=4096"), ==, 1);
        g_assert_cmpint(experiment_cell_matches(&pipe, "transport=fifo"), ==, 0);
        g_assert_cmpint(experiment_cell_matches(&pipe, "colour=red"), ==, -1);
}

static Table *summary(void)
{
        g_autofree char *path = NULL;
        int fd = g_file_open_tmp("test-select-XXXXXX.tsv", &path, NULL);
        const char *text =
                "env\ttransport\tbus\tsize_B\treply\tcount\tlat_p50_ns\tmemcpy_MiBps\n"
                "host\tpipe\t-\t64\techo\t1000\t5000\t-\n"
                "host\tlibdbus\tp2p\t4096\t-\t-\t70000\t9000\n"
                "vm\tfifo\t-\t1048576\tempty\t100\t-\t8000\n";

        g_assert_cmpint(fd, >=, 0);
        g_assert_true(g_file_set_contents(path, text, -1, NULL));
        close(fd);
        Table *t = table_read(path, NULL);
        g_unlink(path);
        g_assert_nonnull(t);
        return t;
}

/* Which rows (as a string of their numbers) SEL keeps. */
static char *rows_of(const Table *t, const char *sel, SelectFlags flags)
{
        g_autoptr(GError) e = NULL;
        g_autoptr(Selector) s = select_parse(sel, flags, &e);
        GString *out = g_string_new(NULL);

        g_assert_no_error(e);
        g_assert_true(select_check_table(s, t, "summary.tsv", &e));
        for (guint r = 0; r < t->rows->len; r++)
                if (select_row(s, t, t->rows->pdata[r]))
                        g_string_append_printf(out, "%u", r);
        return g_string_free(out, FALSE);
}

static void test_rows(void)
{
        g_autoptr(Table) t = summary();
        const struct {
                const char *sel;
                SelectFlags flags;
                const char *rows;
        } cases[] = {
                { "", SELECT_AXES, "012" },
                { "transport=pipe|fifo", SELECT_AXES, "02" },
                { "bus=none", SELECT_AXES, "02" },
                { "bus!=none", SELECT_AXES, "1" },
                { "reply=echo", SELECT_AXES, "01" },
                { "size>=4KiB", SELECT_AXES, "12" },
                { "size_B<4096", SELECT_AXES, "0" },
                { "size=1MiB", SELECT_AXES, "2" },
                { "count<1000", SELECT_AXES, "2" },
                { "count!=1000", SELECT_AXES, "12" },
                { "count=0", SELECT_AXES, "1" },
                { "env=vm", SELECT_AXES, "2" },
                { "memcpy_MiBps!=-", SELECT_COLUMNS, "12" },
                { "lat_p50_ns=-", SELECT_COLUMNS, "2" },
                { "lat_p50_ns>=5000,lat_p50_ns<70000", SELECT_COLUMNS, "0" },
                { "lat_p50_ns=5e3", SELECT_COLUMNS, "0" },
        };

        for (guint i = 0; i < G_N_ELEMENTS(cases); i++) {
                g_autofree char *got = rows_of(t, cases[i].sel, cases[i].flags);
                g_assert_cmpstr(got, ==, cases[i].rows);
        }
        g_autoptr(GError) e = NULL;
        g_autoptr(Selector) s = select_parse("colour=red", SELECT_COLUMNS, &e);
        g_assert_nonnull(s);
        g_assert_false(select_check_table(s, t, "summary.tsv", &e));
        g_assert_error(e, IPCLAB_ERROR, IPCLAB_ERROR_INPUT);
        g_assert_nonnull(strstr(e->message, "summary.tsv has no column 'colour'"));
}

int main(int argc, char **argv)
{
        g_test_init(&argc, &argv, NULL);
        g_test_add_func("/select/syntax", test_syntax);
        g_test_add_func("/select/cells", test_cells);
        g_test_add_func("/select/rows", test_rows);
        return g_test_run();
}
