/* test-columns.c: the column schema (columns.h) against the files it
 * describes.
 *
 * samples.tsv: rows written for known cells and samples are byte for byte
 * what the writer wrote before it took its columns from the schema (the
 * expected strings are that writer's output), and read back to the same
 * sample. */
#include <errno.h>
#include <glib.h>
#include <string.h>

#include "columns.h"
#include "samples.h"

static const char old_header[] =
        "cell\trep\tenv\ttransport\tbus\tpayload\tsize_B\tpattern\treply\tmarshal\tcpus"
        "\tcount\tduration_ns\tstatus\telapsed_ns\tclient_cpu_ns"
        "\tserver_cpu_ns\tbus_cpu_ns\tmessages\tbytes_B\tlat_n"
        "\tlat_min_ns\tlat_p50_ns\tlat_p90_ns\tlat_p99_ns\tlat_p999_ns\tlat_max_ns\twhy\n";

static Sample measured(void)
{
        Sample s = {
                .elapsed_ns = 123456789, .client_cpu_ns = 1001, .server_cpu_ns = 2002,
                .bus_cpu_ns = 3003, .messages = 1000, .bytes = 64000, .lat_n = 1000,
                .lat_min_ns = 11, .lat_p50_ns = 22, .lat_p90_ns = 33, .lat_p99_ns = 44,
                .lat_p999_ns = 55, .lat_max_ns = 66,
        };
        return s;
}

/* One row per case: the cell, the sample, and what the old writer wrote. */
static void test_samples_rows(void)
{
        Cell pipe = { .index = 3, .transport = "pipe", .bus = BUS_NONE, .payload = PAYLOAD_BYTES,
                      .size = 64, .pattern = PATTERN_ROUNDTRIP, .reply = REPLY_ECHO,
                      .marshal = MARSHAL_ARRAY, .cpus = CPUS_NONE, .count = 1000 };
        Cell broker = { .index = 0, .transport = "libdbus", .bus = BUS_DBUS_BROKER,
                        .payload = PAYLOAD_STRING, .size = 4096, .pattern = PATTERN_ONEWAY,
                        .reply = REPLY_EMPTY, .marshal = MARSHAL_PER_ELEMENT, .cpus = CPUS_SPLIT,
                        .duration_ns = 1000000000 };
        Cell direct = { .index = 7, .transport = "direct", .bus = BUS_NONE, .payload = PAYLOAD_NONE,
                        .size = 0, .pattern = PATTERN_CALLRATE, .reply = REPLY_SHORT,
                        .marshal = MARSHAL_ARRAY, .cpus = CPUS_SAME, .count = 5 };
        Cell p2p = { .index = 1, .transport = "sd-bus", .bus = BUS_P2P, .payload = PAYLOAD_BYTES,
                     .size = 1, .pattern = PATTERN_ROUNDTRIP, .reply = REPLY_EMPTY,
                     .marshal = MARSHAL_ARRAY, .cpus = CPUS_NONE, .count = 10 };
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
                  "3\t2\thost\tpipe\t-\tbytes\t64\troundtrip\techo\tarray\tnone\t1000\t-\tok\t123456789"
                  "\t1001\t2002\t-\t1000\t64000\t1000\t11\t22\t33\t44\t55\t66\t-\n" },
                { "vm", &broker, 0, &oneway,
                  "0\t0\tvm\tlibdbus\tdbus-broker\tstring\t4096\toneway\t-\tper-element\tsplit\t-"
                  "\t1000000000\tok\t123456789\t1001\t2002\t3003\t1000\t64000\t-\t-\t-\t-\t-\t-\t-\t-\n" },
                { "nspawn", &direct, 4, &calls,
                  "7\t4\tnspawn\tdirect\t-\tnone\t0\tcallrate\tshort\tarray\tsame\t5\t-\tok\t123456789"
                  "\t1001\t-\t-\t1000\t64000\t0\t-\t-\t-\t-\t-\t-\t-\n" },
                { "host", &p2p, 1, &ok,
                  "1\t1\thost\tsd-bus\tp2p\tbytes\t1\troundtrip\tempty\tarray\tnone\t10\t-\tok\t123456789"
                  "\t1001\t2002\t-\t1000\t64000\t1000\t11\t22\t33\t44\t55\t66\t-\n" },
                { "host", &broker, 9, &failed,
                  "0\t9\thost\tlibdbus\tdbus-broker\tstring\t4096\toneway\t-\tper-element\tsplit\t-"
                  "\t1000000000\tfailed\t-\t-\t-\t-\t-\t-\t-\t-\t-\t-\t-\t-\t-\ttimed out after 5 s\n" },
                { "host", &pipe, 0, &silent,
                  "3\t0\thost\tpipe\t-\tbytes\t64\troundtrip\techo\tarray\tnone\t1000\t-\tfailed"
                  "\t-\t-\t-\t-\t-\t-\t-\t-\t-\t-\t-\t-\t-\tunknown\n" },
        };

        g_assert_cmpstr(samples_header(), ==, old_header);
        for (guint i = 0; i < G_N_ELEMENTS(cases); i++) {
                g_autoptr(GString) out = g_string_new(NULL);
                samples_append_row(out, cases[i].env, cases[i].cell, cases[i].rep, cases[i].s);
                g_assert_cmpstr(out->str, ==, cases[i].row);
        }
}

/* What the writer wrote reads back to the same sample, and a row with a
 * field too many or too few, or a number where "-" belongs, does not. */
static void test_samples_parse(void)
{
        Cell pipe = { .index = 0, .transport = "pipe", .bus = BUS_NONE, .payload = PAYLOAD_BYTES,
                      .size = 64, .pattern = PATTERN_ROUNDTRIP, .reply = REPLY_ECHO,
                      .marshal = MARSHAL_ARRAY, .cpus = CPUS_NONE, .count = 1000 };
        g_autoptr(GPtrArray) cells = g_ptr_array_new();
        g_ptr_array_add(cells, &pipe);
        Sample ok = measured();
        g_autoptr(GString) out = g_string_new(NULL);
        samples_append_row(out, "host", &pipe, 2, &ok);
        g_string_truncate(out, out->len - 1);

        const Cell *cell;
        guint rep;
        Sample back;
        g_autofree char *why = NULL;
        g_assert_true(samples_parse_row(out->str, "host", cells, 5, &cell, &rep, &back, &why));
        g_assert_null(why);
        g_assert_true(cell == &pipe);
        g_assert_cmpuint(rep, ==, 2);
        ok.bus_cpu_ns = 0;   /* no bus: written as "-" */
        g_assert_cmpmem(&back, sizeof back, &ok, sizeof ok);

        g_autofree char *longer = g_strconcat(out->str, "\t-", NULL);
        g_assert_false(samples_parse_row(longer, "host", cells, 5, &cell, &rep, &back, &why));
        g_assert_cmpstr(why, ==, "29 fields, not 28");
        g_clear_pointer(&why, g_free);

        g_autofree char *shorter = g_strndup(out->str, strrchr(out->str, '\t') - out->str);
        g_assert_false(samples_parse_row(shorter, "host", cells, 5, &cell, &rep, &back, &why));
        g_assert_cmpstr(why, ==, "27 fields, not 28");
        g_clear_pointer(&why, g_free);

        /* bus_cpu_ns measured for a transport without a bus. */
        g_autofree char *bus = g_strdup(out->str);
        char *dash = strstr(bus, "\t2002\t-\t") + 6;
        *dash = '7';
        g_assert_false(samples_parse_row(bus, "host", cells, 5, &cell, &rep, &back, &why));
        g_assert_cmpstr(why, ==, "bus_cpu_ns is '7', where cell 0 of this experiment has '-'");
        g_clear_pointer(&why, g_free);

        g_autofree char *word = g_strdup(out->str);
        memcpy(strstr(word, "\t1001\t") + 1, "10x1", 4);
        g_assert_false(samples_parse_row(word, "host", cells, 5, &cell, &rep, &back, &why));
        g_assert_cmpstr(why, ==, "client_cpu_ns is '10x1', not a whole number");
}

int main(int argc, char **argv)
{
        g_test_init(&argc, &argv, NULL);
        g_test_add_func("/columns/samples-rows", test_samples_rows);
        g_test_add_func("/columns/samples-parse", test_samples_parse);
        return g_test_run();
}
