/* test-experiment.c: experiment files, good and bad, and matrix expansion. */
#include <glib.h>
#include <glib/gstdio.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "experiment.h"
#include "figure.h"
#include "run.h"
#include "suggest.h"
#include "transport.h"
#include "verify.h"

static char *tmp_dir;

/* Writes TEXT to NAME in the test's directory; returns the path. */
static char *write_file(const char *name, const char *text)
{
        char *path = g_build_filename(tmp_dir, name, NULL);
        g_assert_true(g_file_set_contents(path, text, -1, NULL));
        return path;
}

static Experiment *load(const char *text, const char *profile, GError **error)
{
        g_autofree char *path = write_file("exp.ini", text);
        return experiment_load(path, profile, error);
}

static void test_sizes(void)
{
        guint64 v = 0;

        g_assert_true(parse_size("64", &v));
        g_assert_cmpuint(v, ==, 64);
        g_assert_true(parse_size("4KiB", &v));
        g_assert_cmpuint(v, ==, 4096);
        g_assert_true(parse_size("1MiB", &v));
        g_assert_cmpuint(v, ==, 1048576);
        g_assert_true(parse_size("7B", &v));
        g_assert_cmpuint(v, ==, 7);
        g_assert_false(parse_size("4kb", &v));
        g_assert_false(parse_size("-1", &v));
        g_assert_false(parse_size("", &v));
        g_assert_false(parse_size("99999999999999999999", &v));
        g_assert_false(parse_size("17179869184GiB", &v));
        g_assert_true(parse_duration("500ms", &v));
        g_assert_cmpuint(v, ==, 500000000);
        g_assert_true(parse_duration("2s", &v));
        g_assert_cmpuint(v, ==, 2000000000);
        g_assert_true(parse_duration("100us", &v));
        g_assert_cmpuint(v, ==, 100000);
        g_assert_false(parse_duration("5", &v));
        g_assert_false(parse_duration("1h", &v));
}

static void test_matrix(void)
{
        g_autoptr(GError) e = NULL;
        g_autoptr(Experiment) exp = load(
                "[experiment]\n"
                "title=matrix  # an inline comment\n"
                "transport=pipe;unix-stream\n"
                "payload=bytes;string\n"
                "size=64;4KiB\n"
                "pattern=oneway;roundtrip;callrate\n"
                "count=100;1000\n"
                "repeat=3\n"
                "[profile quick]\n"
                "count=10\n"
                "repeat=1\n", NULL, &e);

        g_assert_no_error(e);
        g_assert_nonnull(exp);
        g_assert_cmpstr(exp->name, ==, "exp");
        g_assert_cmpstr(exp->title, ==, "matrix");
        g_assert_cmpuint(exp->repeat, ==, 3);
        /* Per transport and count: 2 payloads x 2 sizes x 2 patterns, plus
         * one callrate cell (payload and size collapse). */
        g_assert_cmpuint(exp->cells->len, ==, 2 * 2 * (2 * 2 * 2 + 1));
        for (guint i = 0; i < exp->cells->len; i++) {
                const Cell *c = exp->cells->pdata[i];
                g_assert_cmpuint(c->index, ==, i);
                g_assert_cmpint(c->bus, ==, BUS_NONE);
                if (c->pattern == PATTERN_CALLRATE) {
                        g_assert_cmpuint(c->size, ==, 0);
                        g_assert_cmpint(c->payload, ==, PAYLOAD_NONE);
                }
        }
        g_assert_nonnull(strstr(exp->resolved, "size=64;4KiB\n"));
        g_assert_false(exp->repeat_auto);

        g_autoptr(Experiment) autorep = load(
                "[experiment]\ntitle=a\ntransport=pipe\ncount=10\nrepeat=auto\nrepeat_min=4\n"
                "repeat_max=9\nci_target=3%\nauto_cap=1m\n", NULL, &e);
        g_assert_no_error(e);
        g_assert_true(autorep->repeat_auto);
        g_assert_cmpuint(autorep->repeat, ==, 4);
        g_assert_cmpuint(autorep->repeat_max, ==, 9);
        g_assert_cmpfloat_with_epsilon(autorep->ci_target, 0.03, 1e-12);
        g_assert_cmpuint(autorep->auto_cap_ns, ==, (guint64) 60 * 1000000000);

        /* Commands: only string round trips through a bus. */
        g_autoptr(Experiment) cmd = load(
                "[experiment]\ntitle=c\ntransport=dbus-send;busctl-call\nrunner=hyperfine\n"
                "bus=dbus-daemon;p2p\npayload=string;bytes\nsize=8\npattern=roundtrip;oneway\ncount=2\n", NULL, &e);
        g_assert_no_error(e);
        g_assert_cmpuint(cmd->cells->len, ==, 2);
        for (guint i = 0; i < cmd->cells->len; i++) {
                const Cell *c = cmd->cells->pdata[i];
                g_assert_cmpint(c->bus, ==, BUS_DBUS_DAEMON);
                g_assert_cmpint(c->payload, ==, PAYLOAD_STRING);
                g_assert_cmpint(c->reply, ==, REPLY_EMPTY);
        }

        g_autoptr(Experiment) quick = load(
                "[experiment]\ntitle=m\ntransport=pipe\ncount=100;1000\nrepeat=3\n"
                "[profile quick]\ncount=10\nrepeat=1\n", "quick", &e);
        g_assert_no_error(e);
        g_assert_cmpuint(quick->repeat, ==, 1);
        g_assert_cmpuint(quick->cells->len, ==, 1);
        g_assert_cmpuint(((Cell *) quick->cells->pdata[0])->count, ==, 10);
}

static void test_dbus_axes(void)
{
        g_autoptr(GError) e = NULL;
        g_autoptr(Experiment) exp = load(
                "[experiment]\ntitle=d\ntransport=libdbus;pipe\nbus=dbus-daemon;p2p\n"
                "marshal=array;per-element\npayload=bytes;string\nsize=8\ncount=5\n", NULL, &e);

        g_assert_no_error(e);
        /* libdbus: 2 buses x (bytes: 2 marshal + string: 1); pipe: bytes + string. */
        g_assert_cmpuint(exp->cells->len, ==, 2 * 3 + 2);
        guint skipped_per_element = 0;
        for (guint i = 0; i < exp->skipped->len; i++)
                skipped_per_element += strstr(exp->skipped->pdata[i], "per-element") != NULL;
        g_assert_cmpuint(skipped_per_element, >, 0);
}

static guint count_skipped(const Experiment *exp, const char *what, const char *why)
{
        guint n = 0;

        for (guint i = 0; i < exp->skipped->len; i++)
                n += strstr(exp->skipped->pdata[i], what) && strstr(exp->skipped->pdata[i], why);
        return n;
}

/* The like-for-like values (issue 9): append-per-element for the D-Bus
 * libraries' byte arrays, copy for gdbus strings, short for gdbus replies;
 * every other combination left out, with its reason. */
static void test_seed_axes(void)
{
        g_autoptr(GError) e = NULL;
        g_autoptr(Experiment) exp = load(
                "[experiment]\ntitle=d\ntransport=sd-bus;libdbus;gdbus;pipe\nbus=p2p\n"
                "marshal=array;per-element;append-per-element;copy\nreply=echo;short\n"
                "payload=bytes;string\nsize=8\ncount=5\n", NULL, &e);

        g_assert_no_error(e);
        g_assert_cmpstr(marshal_name(MARSHAL_APPEND_PER_ELEMENT), ==, "append-per-element");
        g_assert_cmpstr(marshal_name(MARSHAL_COPY), ==, "copy");
        g_assert_cmpstr(reply_name(REPLY_SHORT), ==, "short");
        /* sd-bus, libdbus: bytes x 3 marshal + string, echo only (4 each);
         * gdbus: (bytes x 3 marshal + string x 2 marshal) x 2 replies;
         * pipe: bytes + string. */
        g_assert_cmpuint(exp->cells->len, ==, 4 + 4 + 10 + 2);
        guint append = 0, copy = 0, shorts = 0;
        for (guint i = 0; i < exp->cells->len; i++) {
                const Cell *c = exp->cells->pdata[i];
                if (c->marshal == MARSHAL_APPEND_PER_ELEMENT) {
                        g_assert_cmpint(c->payload, ==, PAYLOAD_BYTES);
                        g_assert_true(strcmp(c->transport, "pipe") != 0);
                        append++;
                }
                if (c->marshal == MARSHAL_COPY) {
                        g_assert_cmpstr(c->transport, ==, "gdbus");
                        g_assert_cmpint(c->payload, ==, PAYLOAD_STRING);
                        copy++;
                }
                if (c->reply == REPLY_SHORT) {
                        g_assert_cmpstr(c->transport, ==, "gdbus");
                        shorts++;
                }
        }
        g_assert_cmpuint(append, ==, 1 + 1 + 2);
        g_assert_cmpuint(copy, ==, 2);
        g_assert_cmpuint(shorts, ==, 5);
        g_assert_cmpuint(count_skipped(exp, "pipe", "append-per-element marshalling applies to D-Bus byte arrays only"), >, 0);
        g_assert_cmpuint(count_skipped(exp, "gdbus", "marshal=copy applies to string payloads only"), >, 0);
        g_assert_cmpuint(count_skipped(exp, "sd-bus", "marshal=copy applies to gdbus only"), >, 0);
        g_assert_cmpuint(count_skipped(exp, "libdbus", "reply=short (the string OK) applies to gdbus only"), >, 0);

        /* One way, the reply axis does not apply: no cell is refused for it. */
        g_autoptr(Experiment) oneway = load(
                "[experiment]\ntitle=o\ntransport=sd-bus\nbus=p2p\npattern=oneway\n"
                "marshal=append-per-element\nsize=8\ncount=5\n", NULL, &e);
        g_assert_no_error(e);
        g_assert_cmpuint(oneway->cells->len, ==, 1);
}

static void test_seed_shuffles(void)
{
        g_autoptr(GError) e = NULL;
        g_autoptr(Experiment) a = load("[experiment]\ntitle=s\ntransport=pipe\nsize=1;2;3;4;5;6;7;8\ncount=1\nseed=42\n", NULL, &e);
        g_assert_no_error(e);
        g_autoptr(Experiment) b = load("[experiment]\ntitle=s\ntransport=pipe\nsize=1;2;3;4;5;6;7;8\ncount=1\nseed=42\n", NULL, &e);
        g_assert_no_error(e);
        bool moved = false;
        for (guint i = 0; i < a->cells->len; i++) {
                const Cell *ca = a->cells->pdata[i], *cb = b->cells->pdata[i];
                g_assert_cmpuint(ca->index, ==, cb->index);  /* same seed, same order */
                moved |= ca->index != i;
        }
        g_assert_true(moved);
}

static void test_claims(void)
{
        g_autoptr(GError) e = NULL;
        g_autoptr(Experiment) exp = load(
                "[experiment]\ntitle=c\ntransport=pipe;unix-stream\nsize=64;4KiB\ncount=5\n"
                "[claim pipe-beats-unix]\ntext=pipes are faster\nfaster=transport=pipe\n"
                "slower=transport=unix-stream\nmetric=roundtrip_latency\nby=1.1\n", NULL, &e);
        g_assert_no_error(e);
        g_assert_cmpuint(exp->claims->len, ==, 1);
        const Claim *cl = exp->claims->pdata[0];
        g_assert_cmpstr(cl->name, ==, "pipe-beats-unix");
        g_assert_cmpfloat(cl->by, ==, 1.1);
        g_assert_cmpint(experiment_cell_matches(exp->cells->pdata[0], "transport=pipe,size=64"), ==, 1);
        g_assert_cmpint(experiment_cell_matches(exp->cells->pdata[0], "transport=pipe,size=4KiB"), ==, 0);
        g_assert_cmpint(experiment_cell_matches(exp->cells->pdata[0], "colour=red"), ==, -1);
}

/* Every bad file must fail with IPCLAB_ERROR_INPUT and a message that
 * names the file and, where there is one, the group and the key. */
static const struct {
        const char *text;
        const char *expect;   /* a substring of the message */
} bad[] = {
        { "", "[experiment]: missing group" },
        { "[experiment]\ntransport=pipe\ncount=1\n", "[experiment] title: missing" },
        { "[experiment]\ntitle=t\ncount=1\n", "[experiment] transport: missing" },
        { "[experiment]\ntitle=t\ntransport=carrier-pigeon\ncount=1\n", "[experiment] transport: unknown transport 'carrier-pigeon'" },
        { "[experiment]\ntitle=t\ntransport=pipe\ncount=1\ncolour=red\n", "[experiment] colour: unknown key" },
        { "[experiment]\ntitle=t\ntransport=pipe\n", "exactly one of count= and duration=" },
        { "[experiment]\ntitle=t\ntransport=pipe\ncount=1\nduration=1s\n", "exactly one of count= and duration=" },
        { "[experiment]\ntitle=t\ntransport=pipe\ncount=0\n", "[experiment] count: '0' is out of range" },
        { "[experiment]\ntitle=t\ntransport=pipe\ncount=-5\n", "[experiment] count: '-5' is not a whole number" },
        { "[experiment]\ntitle=t\ntransport=pipe\ncount=1\nsize=12Q\n", "[experiment] size: '12Q' is not a size" },
        { "[experiment]\ntitle=t\ntransport=pipe\ncount=1\nsize=1GiB\n", "[experiment] size: '1GiB' is out of range" },
        { "[experiment]\ntitle=t\ntransport=pipe\ncount=1\nsize=0\n", "[experiment] size: '0' is out of range" },
        { "[experiment]\ntitle=t\ntransport=pipe\ncount=1\nsize=64;;128\n", "[experiment] size: empty list item" },
        { "[experiment]\ntitle=t\ntransport=pipe\ncount=1\nsize=64;64\n", "[experiment] size: '64' is listed twice" },
        { "[experiment]\ntitle=t\ntransport=pipe\ncount=1\npattern=sideways\n", "[experiment] pattern: unknown value 'sideways'" },
        { "[experiment]\ntitle=t\ntransport=pipe\ncount=1\nrepeat=lots\n", "[experiment] repeat: 'lots' is not a whole number" },
        { "[experiment]\ntitle=t\ntransport=pipe\ncount=1\nverify=yes\n", "[experiment] verify: 'yes' is not true or false" },
        { "[experiment]\ntitle=t\ntransport=pipe\ncount=1\nbus=p2p\n", "[experiment] bus: applies only to D-Bus transports" },
        { "[experiment]\ntitle=t\ntransport=pipe\ncount=1\ntransport=fifo\n", ":5: [experiment] transport: key given twice" },
        { "[experiment]\ntitle=t\ntransport=pipe\ncount=1\n[experiment]\nrepeat=2\n", ":5: [experiment]: group given twice" },
        { "[experiment]\ntitle=t\ntransport=pipe\ncount=1\n[profile quick]\ncount=zero\n", "[profile quick] count: 'zero' is not a whole number" },
        { "[experiment]\ntitle=t\ntransport=pipe\ncount=1\n[profile quick]\nloudness=11\n", "[profile quick] loudness: unknown key" },
        { "[experiment]\ntitle=t\ntransport=pipe\ncount=1\n[profile ../evil]\ncount=2\n", "[profile ../evil]: profile name must be" },
        { "[experiment]\ntitle=t\ntransport=pipe\ncount=1\n[results]\nx=1\n", "[results]: unknown group" },
        { "[experiment]\ntitle=t\ntransport=pipe\ncount=1\n[figure f]\nx=bus\n", ":6: [figure f] x: axis 'bus' is not in this experiment" },
        { "[experiment]\ntitle=t\ntransport=pipe\ncount=1\n[table t]\ny=lat_p50_ns\n", ":6: [table t] y: unknown key in a table" },
        { "[experiment]\ntitle=t\ntransport=pipe\ncount=1\n[figure f]\ny=transport\n", ":6: [figure f] y: 'transport' is not a measured column" },
        { "[experiment]\ntitle=t\ntransport=pipe\ncount=1\n[figure f]\npublished=x.tsv\npublished_x=a\npublished_y=b\n", ":6: [figure f] published: no file" },
        { "[experiment]\ntitle=t\ntransport=pipe\ncount=1\nduration=fast\n", "[experiment] duration: 'fast' is not a duration" },
        { "[experiment]\ntitle=t\ntransport=pipe\nduration=fast\n", "[experiment] duration: 'fast' is not a duration" },
        { "[experiment]\ntitle=t\xff\ntransport=pipe\ncount=1\n", ":2: bytes that are not UTF-8" },
        { "[experiment\ntitle=t\n", ":1: group header without ']'" },
        { "[experiment]\ntitle\n", ":2: [experiment]: 'title' is not key=value" },
        { "[experiment]\ntitle=t\ntransport=pipe\ncount=1\n[claim x]\ntext=t\nfaster=transport=fifo\nslower=transport=pipe\nmetric=elapsed\n",
          "[claim x] faster: 'transport=fifo' names no cell" },
        { "[experiment]\ntitle=t\ntransport=pipe\ncount=1\n[claim x]\ntext=t\nfaster=transport=pipe\nslower=transport=pipe\nmetric=speed\n",
          "[claim x] metric: unknown metric 'speed'" },
        { "[experiment]\ntitle=t\ntransport=pipe\ncount=1\n[claim x]\ntext=t\nfaster=transport=pipe\nslower=transport=pipe\nmetric=elapsed\nby=0.5\n",
          "[claim x] by: '0.5' is not a factor >= 1" },
        { "[experiment]\ntitle=t\ntransport=pipe\ncount=1\n[claim x]\ntext=t\nfaster=pipe\nslower=transport=pipe\nmetric=elapsed\n",
          "[claim x] faster: 'pipe' is not axis=value" },
        { "[experiment]\ntitle=t\ntransport=pipe\ncount=1\n[profile quick]\ntitle=other\n", "[profile quick] title: a profile cannot change" },
        { "[experiment]\ntitle=t\ntransport=pipe\ncount=1\npayload=none\n", "[experiment] payload: 'none' is implied" },
        { "[experiment]\ntitle=t\ntransport=pipe\ncount=1\nmarshal=per-element\n", "[experiment] marshal: per-element marshalling applies only to D-Bus" },
        { "[experiment]\ntitle=t\ntransport=pipe\ncount=1\nmarshal=append-per-element\n",
          "[experiment] marshal: append-per-element marshalling applies only to D-Bus" },
        { "[experiment]\ntitle=t\ntransport=libdbus;sd-bus\ncount=1\npayload=string\nmarshal=copy\n",
          "[experiment] marshal: copy applies only to a transport whose own strings borrow the buffer (gdbus)" },
        { "[experiment]\ntitle=t\ntransport=sd-bus;pipe\ncount=1\nreply=short\n",
          "[experiment] reply: short (a string reply) applies only to gdbus" },
        { "[experiment]\ntitle=t\ntransport=gdbus\ncount=1\nmarshal=copy\n", "[experiment] transport: no cell can run here" },
        { "[experiment]\ntitle=t\ntransport=pipe\ncount=1\nreply=brief\n", "[experiment] reply: unknown value 'brief'" },
        { "[experiment]\ntitle=t\ntransport=pipe\ncount=1\ntimeout=1us\n", "[experiment] timeout: 1us is out of range" },
        { "[experiment]\ntitle=t\ntransport=pipe\ncount=1\ntitle=\n", "key given twice" },
        { "[experiment]\ntitle=\ntransport=pipe\ncount=1\n", "[experiment] title: empty value" },
        { "[experiment]\ntitle=t\ntransport=dbus-send\ncount=1\n", "[experiment] transport: 'dbus-send' is a whole command: it needs runner=hyperfine" },
        { "[experiment]\ntitle=t\ntransport=pipe\nrunner=hyperfine\ncount=1\n", "[experiment] runner: hyperfine runs whole commands" },
        { "[experiment]\ntitle=t\ntransport=pipe\nrunner=make\ncount=1\n", "[experiment] runner: unknown value 'make'" },
        { "[experiment]\ntitle=t\ntransport=pipe\ncount=1\nrepeat=sometimes\n", "[experiment] repeat: 'sometimes' is not a whole number or auto" },
        { "[experiment]\ntitle=t\ntransport=pipe\ncount=1\nrepeat=auto\nci_target=2\n", "[experiment] ci_target: '2' is not a percentage" },
        { "[experiment]\ntitle=t\ntransport=pipe\ncount=1\nrepeat=auto\nci_target=0%\n", "[experiment] ci_target: 0% is out of range" },
        { "[experiment]\ntitle=t\ntransport=pipe\ncount=1\nrepeat=auto\nrepeat_min=10\nrepeat_max=5\n", "[experiment] repeat_max: 5 is less than repeat_min=10" },
        /* One value twice once units are resolved, on every numeric axis. */
        { "[experiment]\ntitle=t\ntransport=pipe\ncount=1\nsize=64;64B\n", ":5: [experiment] size: '64' and '64B' are the same value" },
        { "[experiment]\ntitle=t\ntransport=pipe\ncount=1\nsize=1KiB;4096;1024\n", "[experiment] size: '1KiB' and '1024' are the same value" },
        { "[experiment]\ntitle=t\ntransport=pipe\ncount=10;010\n", "[experiment] count: '10' and '010' are the same value" },
        { "[experiment]\ntitle=t\ntransport=pipe\nduration=1s;1000ms\n", "[experiment] duration: '1s' and '1000ms' are the same value" },
        /* Keys that cannot apply to any pattern listed. */
        { "[experiment]\ntitle=t\ntransport=pipe\ncount=1\npattern=oneway\nreply=empty\n", ":6: [experiment] reply: applies to round trips only, and pattern=oneway has none" },
        { "[experiment]\ntitle=t\ntransport=pipe\ncount=1\npattern=callrate\nsize=4KiB\n", "[experiment] size: pattern=callrate carries no payload" },
        { "[experiment]\ntitle=t\ntransport=pipe\ncount=1\nrepeat=auto\nci_target=150%\n", "[experiment] ci_target: 150% is out of range (1 to 100)" },
        /* Every profile is validated as fully as the one chosen. */
        { "[experiment]\ntitle=t\ntransport=pipe\ncount=1\n[profile slow]\nduration=1s\n", ":6: [profile slow] duration: exactly one of count= and duration= must be given" },
        { "[experiment]\ntitle=t\ntransport=pipe\ncount=1\n[profile a]\nrepeat=auto\nrepeat_min=10\nrepeat_max=5\n", ":8: [profile a] repeat_max: 5 is less than repeat_min=10" },
        { "[experiment]\ntitle=t\ntransport=pipe\ncount=1\n[profile a]\npattern=oneway\nreply=empty\n", "[profile a] reply: applies to round trips only" },
};

static void test_bad_files(void)
{
        for (size_t i = 0; i < G_N_ELEMENTS(bad); i++) {
                g_autoptr(GError) e = NULL;
                g_autofree char *path = write_file("bad.ini", bad[i].text);
                g_autoptr(Experiment) exp = experiment_load(path, NULL, &e);

                if (!exp && e == NULL)
                        g_error("case %zu: NULL without an error", i);
                if (exp)
                        g_error("case %zu was accepted: %s", i, bad[i].text);
                g_assert_error(e, IPCLAB_ERROR, IPCLAB_ERROR_INPUT);
                if (!strstr(e->message, bad[i].expect) || !g_str_has_prefix(e->message, path))
                        g_error("case %zu: message '%s' lacks '%s' or the file name", i, e->message, bad[i].expect);
        }
}

/* Three independent mistakes: all three reported at once, each on its own
 * line as FILE:LINE: [group] key: what. */
static void test_all_mistakes(void)
{
        g_autoptr(GError) e = NULL;
        g_autofree char *path = write_file("three.ini",
                "[experiment]\ntitle=t\ntransport=pipe;nosuch\ncount=1\nsize=12Q\n"
                "verify=maybe\n[profile quick]\nrepeat=often\n");
        g_assert_null(experiment_load(path, NULL, &e));
        g_assert_error(e, IPCLAB_ERROR, IPCLAB_ERROR_INPUT);
        g_auto(GStrv) lines = g_strsplit(e->message, "\n", -1);
        g_assert_cmpuint(g_strv_length(lines), ==, 4);
        const char *want[] = { ":3: [experiment] transport: unknown transport 'nosuch'",
                               ":5: [experiment] size: '12Q' is not a size",
                               ":6: [experiment] verify: 'maybe' is not true or false",
                               ":8: [profile quick] repeat: 'often' is not a whole number or auto" };
        for (guint i = 0; i < G_N_ELEMENTS(want); i++) {
                g_autofree char *full = g_strconcat(path, want[i], NULL);
                if (!g_strv_contains((const char *const *) lines, full) &&
                    !g_str_has_prefix(lines[i], full))
                        g_error("no line '%s' in:\n%s", full, e->message);
        }
}

/* One edit distance (swaps count once), and "did you mean" only for
 * what is close: in every kind of group, for keys, values, transports,
 * columns and selector keys, and ';' for a list written with ','. */
static void test_did_you_mean(void)
{
        g_assert_cmpuint(suggest_distance("repaet", "repeat"), ==, 1);
        g_assert_cmpuint(suggest_distance("kitten", "sitting"), ==, 3);
        g_assert_cmpuint(suggest_distance("", "abc"), ==, 3);
        g_assert_cmpuint(suggest_distance("size", "size"), ==, 0);
        const char *const names[] = { "size", "seed", "repeat", NULL };
        g_autofree char *close = suggest_hint_among("sizes", names);
        g_autofree char *far = suggest_hint_among("colour", names);
        g_autofree char *tiny = suggest_hint_among("x", names);
        g_assert_cmpstr(close, ==, "; did you mean 'size'?");
        g_assert_cmpstr(far, ==, "");
        g_assert_cmpstr(tiny, ==, "");

        g_autoptr(GError) e = NULL;
        g_autofree char *path = write_file("typos.ini",
                "[experiment]\ntitle=t\ntransport=pipe;unix-datagram\nsizes=64\ncpus=same,split\ncount=10\n"
                "repaet=3\n[claims x]\ntext=t\n[claim y]\ntext=t\nfaster=transprot=pipe\nslower=transport=pipe\n"
                "metric=roundtrip_latenc\nwehre=size=64\n[figure f]\ny=lat_p50\nx=sizse\ntyep=line\n"
                "[table t]\ncolums=size\n[number N]\nvalue=lat_p50_ns\nreduce=mni\n");
        g_assert_null(experiment_load(path, NULL, &e));
        const char *want[] = {
                "transport: unknown transport 'unix-datagram'",  "did you mean 'unix-dgram'?",
                "[experiment] sizes: unknown key",               "did you mean 'size'?",
                "cpus: unknown value 'same,split'",              "lists take ';', not ',': same;split",
                "[experiment] repaet: unknown key",              "did you mean 'repeat'?",
                "[claims x]: unknown group",                     "did you mean [claim x]?",
                "faster: 'transprot=pipe'",                      "did you mean 'transport'?",
                "metric: unknown metric 'roundtrip_latenc'",     "did you mean 'roundtrip_latency'?",
                "[claim y] wehre: unknown key",                  "did you mean 'where'?",
                "y: unknown column 'lat_p50'",                   "did you mean 'lat_p50_ns'?",
                "x: 'sizse' is not an axis",                     "did you mean 'size'?",
                "[figure f] tyep: unknown key",                  "did you mean 'type'?",
                "[table t] colums: unknown key",                 "did you mean 'columns'?",
                "reduce: unknown value 'mni'",                   "did you mean 'min'?",
        };
        g_auto(GStrv) lines = g_strsplit(e->message, "\n", -1);
        for (guint i = 0; i < G_N_ELEMENTS(want); i += 2) {
                bool found = false;
                for (guint l = 0; lines[l] && !found; l++)
                        found = strstr(lines[l], want[i]) && g_str_has_suffix(lines[l], want[i + 1]);
                if (!found)
                        g_error("no line with '%s' ending in \"%s\" in:\n%s", want[i], want[i + 1], e->message);
        }
}

/* What is not a regular file of sane size is refused at once, named. */
static const Output *output(const Experiment *exp, bool table, const char *name)
{
        for (guint i = 0; i < exp->outputs->len; i++) {
                const Output *o = exp->outputs->pdata[i];
                if (o->is_table == table && !strcmp(o->name, name))
                        return o;
        }
        return NULL;
}

/* The default figure and table follow the pattern and the axes; declared
 * ones replace them; several mistakes in figures come in one pass. */
static void test_outputs(void)
{
        g_autoptr(GError) e = NULL;
        g_autoptr(Experiment) rt = load("[experiment]\ntitle=t\ntransport=pipe;fifo\nsize=64;4KiB;1MiB\n"
                                        "count=10;20\n", NULL, &e);
        g_assert_no_error(e);
        g_assert_cmpuint(rt->outputs->len, ==, 2);
        const Output *f = output(rt, false, "main"), *t = output(rt, true, "main");
        g_assert_nonnull(f);
        g_assert_nonnull(t);
        g_assert_true(f->is_default);
        g_assert_cmpstr(f->y[0], ==, "lat_p50_ns");
        g_assert_null(f->y[1]);
        /* size has three values, count two: size along x. */
        g_assert_cmpstr(f->x, ==, "size_B");
        g_assert_cmpuint(g_strv_length(f->series), ==, 2);
        g_assert_cmpstr(f->series[0], ==, "transport");
        g_assert_cmpstr(f->series[1], ==, "count");
        g_assert_cmpstr(t->columns_axis, ==, "size_B");
        g_assert_cmpstr(t->value, ==, "lat_p50_ns");
        g_assert_cmpstr(t->rows[0], ==, "transport");

        /* Several patterns: the round trips' latency, where=pattern=... */
        g_autoptr(Experiment) mixed = load("[experiment]\ntitle=t\ntransport=pipe\ncount=10\n"
                                           "pattern=oneway;callrate\n", NULL, &e);
        g_assert_no_error(e);
        f = output(mixed, false, "main");
        g_assert_cmpstr(f->y[0], ==, "throughput_MiBps");
        g_assert_cmpstr(f->where, ==, "pattern=oneway");
        g_assert_cmpuint(figure_cells_selected(mixed, f), ==, 1);
        t = output(mixed, true, "main");
        g_assert_cmpstr(t->where, ==, "pattern=oneway");
        g_assert_cmpstr(t->columns[0], ==, "throughput_MiBps");

        /* Declared: no defaults beside them. */
        g_autoptr(Experiment) decl = load("[experiment]\ntitle=t\ntransport=pipe;fifo\nsize=64;4KiB\ncount=10\n"
                                          "[figure lat]\ny=lat_p50_ns;lat_p99_ns\nx=transport\nlogy=true\n"
                                          "where=size=4KiB\n", NULL, &e);
        g_assert_no_error(e);
        g_assert_cmpuint(decl->outputs->len, ==, 1);
        f = output(decl, false, "lat");
        g_assert_cmpstr(f->x, ==, "transport");
        g_assert_cmpstr(f->y[1], ==, "lat_p99_ns");
        g_assert_cmpint(f->logy, ==, SCALE_LOG);
        g_assert_cmpuint(g_strv_length(f->series), ==, 0);
        g_assert_cmpuint(figure_cells_selected(decl, f), ==, 2);

        /* A figure or a table changes no number: the data are reused. */
        g_autoptr(Experiment) plain = load("[experiment]\ntitle=t\ntransport=pipe;fifo\nsize=64;4KiB\ncount=10\n", NULL, &e);
        g_assert_no_error(e);
        g_autofree char *h1 = experiment_config_sha256(plain), *h2 = experiment_config_sha256(decl);
        g_assert_cmpstr(h1, ==, h2);

        /* Every mistake of every group, each at its line. */
        g_autoptr(Experiment) bad = load("[experiment]\ntitle=t\ntransport=pipe\ncount=10\n"
                                         "[figure a]\ncolour=red\ntype=pie\n"
                                         "[table b]\nunit=furlongs\nvalue=lat_p50_ns\ncolumns=size\n"
                                         "[figure c]\nbounds=direct\n", NULL, &e);
        g_assert_null(bad);
        g_assert_error(e, IPCLAB_ERROR, IPCLAB_ERROR_INPUT);
        g_assert_nonnull(strstr(e->message, ":6: [figure a] colour: unknown key in a figure"));
        g_assert_nonnull(strstr(e->message, ":7: [figure a] type: unknown type 'pie'"));
        g_assert_nonnull(strstr(e->message, ":9: [table b] unit: 'furlongs' does not fit lat_p50_ns"));
        g_assert_nonnull(strstr(e->message, ":13: [figure c] bounds: direct: no cell it draws has transport=direct"));
}

static void test_special_files(void)
{
        g_autofree char *fifo = g_build_filename(tmp_dir, "fifo.ini", NULL);
        g_autofree char *dev = g_build_filename(tmp_dir, "zero.ini", NULL);
        g_autofree char *dir = g_build_filename(tmp_dir, "dir.ini", NULL);
        g_autofree char *big_text = g_strnfill((1 << 20) + 1, '#');
        g_autofree char *big = write_file("big.ini", big_text);
        const struct { const char *path; const char *expect; } cases[] = {
                { fifo, "not a regular file: it is a FIFO" },
                { dev, "not a regular file: it is a character device" },
                { dir, "not a regular file: it is a directory" },
                { big, "1048577 bytes is too large for an experiment file" },
        };

        g_assert_cmpint(mkfifo(fifo, 0600), ==, 0);
        g_assert_cmpint(symlink("/dev/zero", dev), ==, 0);
        g_assert_cmpint(mkdir(dir, 0700), ==, 0);
        for (guint i = 0; i < G_N_ELEMENTS(cases); i++) {
                g_autoptr(GError) e = NULL;
                /* (a FIFO opened would wait for a writer: a hang, which
                 * run-tests reports, rather than a time limit here) */
                g_assert_null(experiment_load(cases[i].path, NULL, &e));
                g_assert_error(e, IPCLAB_ERROR, IPCLAB_ERROR_INPUT);
                g_assert_true(g_str_has_prefix(e->message, cases[i].path));
                if (!strstr(e->message, cases[i].expect))
                        g_error("'%s' lacks '%s'", e->message, cases[i].expect);
        }
        unlink(fifo);
        unlink(dev);
        rmdir(dir);
        unlink(big);
}

static void test_bad_names(void)
{
        g_autoptr(GError) e = NULL;
        g_autofree char *missing = g_build_filename(tmp_dir, "absent.ini", NULL);
        g_assert_null(experiment_load(missing, NULL, &e));
        g_assert_error(e, IPCLAB_ERROR, IPCLAB_ERROR_INPUT);
        g_assert_nonnull(strstr(e->message, "absent.ini: cannot read"));
        g_clear_error(&e);

        g_autofree char *odd = write_file("bad name.ini", "[experiment]\ntitle=t\ntransport=pipe\ncount=1\n");
        g_assert_null(experiment_load(odd, NULL, &e));
        g_assert_nonnull(strstr(e->message, "must be letters, digits"));
        g_clear_error(&e);

        g_autofree char *txt = write_file("exp.txt", "[experiment]\ntitle=t\ntransport=pipe\ncount=1\n");
        g_assert_null(experiment_load(txt, NULL, &e));
        g_assert_nonnull(strstr(e->message, "ends in .ini"));
        g_clear_error(&e);

        g_autofree char *ok = write_file("ok.ini", "[experiment]\ntitle=t\ntransport=pipe\ncount=1\n");
        g_assert_null(experiment_load(ok, "nosuch", &e));
        g_assert_nonnull(strstr(e->message, "[profile nosuch]: no such profile"));
}

/* Estimates and ETAs: never "8 min 60 s". */
static void test_format_duration(void)
{
        static const struct { double s; const char *want; } cases[] = {
                { 0.25, "250 ms" }, { 5.04, "5.0 s" }, { 119.9, "119.9 s" },
                { 120, "2 min 00 s" }, { 539.7, "9 min 00 s" }, { 599.5, "10 min 00 s" },
                { 601.2, "10 min 01 s" }, { 7200, "2.0 h" },
        };
        for (size_t i = 0; i < G_N_ELEMENTS(cases); i++) {
                char buf[64];
                run_format_duration(buf, sizeof buf, cases[i].s);
                g_assert_cmpstr(buf, ==, cases[i].want);
        }
}

/* roles= is an axis like cpus=.  A file without it keeps the config hash
 * ipclab computed before the axis existed (the constant is that build's
 * `ipclab check --config-hash` of this text, whatever its title), and
 * its cells run as processes; threads cells are described and selected
 * apart; a transport that cannot run as threads is left out, with why. */
/* A program that has not installed the transports (transports_install)
 * reads no experiment file: a clear error, no crash, and no transport
 * known. */
static void test_not_installed(void)
{
        g_autoptr(GError) e = NULL;

        transports_install(NULL);
        g_autoptr(Experiment) exp = load("[experiment]\ntitle=t\ntransport=pipe\nsize=64\ncount=10\nrepeat=3\n",
                                         NULL, &e);
        const Transport *pipe = transport_find("pipe");
        transports_install(&transport_ops);
        g_assert_null(exp);
        g_assert_error(e, IPCLAB_ERROR, IPCLAB_ERROR_INPUT);
        g_assert_nonnull(strstr(e->message, "transport 'pipe': this program installed no transports"));
        g_assert_null(pipe);
        g_assert_nonnull(transport_find("pipe"));
}

/* Nor one that has not installed the check of claims
 * (experiment_install_claim_check) a file with a claim. */
static void test_no_claim_check(void)
{
        const char *text = "[experiment]\ntitle=c\ntransport=pipe;unix-stream\nsize=64\ncount=5\n"
                           "[claim pipe-beats-unix]\ntext=pipes are faster\nfaster=transport=pipe\n"
                           "slower=transport=unix-stream\nmetric=roundtrip_latency\n";
        g_autoptr(GError) e = NULL;

        experiment_install_claim_check(NULL);
        g_autoptr(Experiment) exp = load(text, NULL, &e);
        experiment_install_claim_check(verify_claim_check);
        g_assert_null(exp);
        g_assert_error(e, IPCLAB_ERROR, IPCLAB_ERROR_INPUT);
        g_assert_nonnull(strstr(e->message, "[claim pipe-beats-unix]: this program installed no check of claims"));
        g_autoptr(Experiment) checked = load(text, NULL, NULL);
        g_assert_nonnull(checked);
}

static void test_roles(void)
{
        g_autoptr(GError) e = NULL;
        const char *before = "[experiment]\ntitle=roles\ntransport=pipe;unix-stream;direct\nsize=64;4KiB\n"
                             "pattern=oneway;roundtrip\ncpus=same;split\ncount=1000\nrepeat=3\n";
        g_autoptr(Experiment) old = load(before, NULL, &e);
        g_assert_no_error(e);
        g_autofree char *h = experiment_config_sha256(old);
        g_assert_cmpstr(h, ==, "83a03828f15922053b2ffddd54d2e40f78621d42a741c7b0fe740b03ec9642c5");
        for (guint i = 0; i < old->cells->len; i++)
                g_assert_cmpint(((const Cell *) old->cells->pdata[i])->roles, ==, ROLES_PROCESSES);

        g_autoptr(Experiment) both = load("[experiment]\ntitle=t\ntransport=pipe;direct;gdbus\nbus=p2p\n"
                                          "roles=processes;threads\ncount=10\n", NULL, &e);
        g_assert_no_error(e);
        guint threads = 0;
        for (guint i = 0; i < both->cells->len; i++) {
                const Cell *c = both->cells->pdata[i];
                g_autofree char *d = cell_describe(c);
                g_assert_cmpint(experiment_cell_matches(c, "roles=threads"), ==, c->roles == ROLES_THREADS);
                g_assert_true((strstr(d, " roles=threads") != NULL) == (c->roles == ROLES_THREADS));
                threads += c->roles == ROLES_THREADS;
        }
        g_assert_cmpuint(both->cells->len, ==, 4);   /* pipe twice, direct and gdbus forked */
        g_assert_cmpuint(threads, ==, 1);
        g_assert_cmpuint(both->skipped->len, ==, 2);
        g_assert_nonnull(strstr(both->skipped->pdata[0], "direct "));
        g_assert_nonnull(strstr(both->skipped->pdata[0], "roles=threads: it runs both roles in one thread already"));
        g_assert_nonnull(strstr(both->skipped->pdata[1], "gdbus "));
        g_assert_nonnull(strstr(both->skipped->pdata[1], "one worker thread per process"));
        g_autofree char *h2 = experiment_config_sha256(both);
        g_autoptr(Experiment) one = load("[experiment]\ntitle=t\ntransport=pipe;direct;gdbus\nbus=p2p\n"
                                         "roles=processes\ncount=10\n", NULL, &e);
        g_assert_no_error(e);
        g_autofree char *h3 = experiment_config_sha256(one);
        g_assert_cmpstr(h2, !=, h3);

        g_autoptr(Experiment) bad = load("[experiment]\ntitle=t\ntransport=pipe\nroles=fibers\ncount=10\n", NULL, &e);
        g_assert_null(bad);
        g_assert_error(e, IPCLAB_ERROR, IPCLAB_ERROR_INPUT);
        g_assert_nonnull(strstr(e->message, "[experiment] roles: unknown value 'fibers' (allowed: processes, threads)"));
        g_clear_error(&e);

        /* threads where no transport listed can: refused at load, each
         * transport with its reason. */
        g_autoptr(Experiment) none = load("[experiment]\ntitle=t\ntransport=direct;gdbus\nbus=p2p\n"
                                          "roles=processes;threads\ncount=10\n", NULL, &e);
        g_assert_null(none);
        g_assert_error(e, IPCLAB_ERROR, IPCLAB_ERROR_INPUT);
        g_assert_nonnull(strstr(e->message, ":5: [experiment] roles: threads: no transport listed can run its client "
                                            "and server as two threads of one process: direct (it runs both roles "
                                            "in one thread already); gdbus (GDBus does every connection's I/O"));
}

int main(int argc, char **argv)
{
        g_test_init(&argc, &argv, NULL);
        transports_install(&transport_ops);
        experiment_install_claim_check(verify_claim_check);
        tmp_dir = g_dir_make_tmp("ipclab-test-XXXXXX", NULL);
        g_test_add_func("/experiment/sizes", test_sizes);
        g_test_add_func("/experiment/matrix", test_matrix);
        g_test_add_func("/experiment/dbus-axes", test_dbus_axes);
        g_test_add_func("/experiment/seed-axes", test_seed_axes);
        g_test_add_func("/experiment/seed", test_seed_shuffles);
        g_test_add_func("/experiment/all-mistakes", test_all_mistakes);
        g_test_add_func("/experiment/did-you-mean", test_did_you_mean);
        g_test_add_func("/experiment/special-files", test_special_files);
        g_test_add_func("/experiment/claims", test_claims);
        g_test_add_func("/experiment/outputs", test_outputs);
        g_test_add_func("/experiment/bad-files", test_bad_files);
        g_test_add_func("/experiment/bad-names", test_bad_names);
        g_test_add_func("/experiment/format-duration", test_format_duration);
        g_test_add_func("/experiment/roles", test_roles);
        g_test_add_func("/experiment/not-installed", test_not_installed);
        g_test_add_func("/experiment/no-claim-check", test_no_claim_check);
        int r = g_test_run();
        GDir *d = g_dir_open(tmp_dir, 0, NULL);
        const char *n;
        while (d && (n = g_dir_read_name(d))) {
                g_autofree char *p = g_build_filename(tmp_dir, n, NULL);
                g_unlink(p);
        }
        if (d)
                g_dir_close(d);
        g_rmdir(tmp_dir);
        return r;
}
