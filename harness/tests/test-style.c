/* test-style.c: series styles and axis tics (style.h).
 *
 * Series: no two lines of a figure share colour, point and dash, however
 * many axes and values; a transport's colour and point are its own in
 * every figure, whatever else varies; the transports' table gives no two
 * transports one colour and point; an axis whose values would share a
 * colour takes colour and point together; the key is factored when that
 * is shorter; a machine is titled "machine NAME".
 *
 * Tics: one formatter an axis (all thousands with a prefix, or none), a
 * time's unit at each label of a log axis and in the axis's unit on a
 * linear one (no "0 s"), 1-2-5 labels on a log axis of a few decades,
 * sizes in B, KiB, MiB. */
#include <glib.h>
#include <string.h>

#include "style.h"

/* The styles of N lines of AXES (NA) with VALS, checked distinct. */
static Encoding *encode(char **axes, guint na, char ***vals, guint n, Style *styles)
{
        Encoding *e = style_encode(axes, na, (char *const *const *) vals, n, styles);
        for (guint i = 0; i < n; i++)
                for (guint j = i + 1; j < n; j++)
                        g_assert_false(!strcmp(styles[i].colour, styles[j].colour) && styles[i].point == styles[j].point &&
                                       !strcmp(styles[i].dash, styles[j].dash));
        return e;
}

static void test_three_axes(void)
{
        static const char *const ts[] = { "libdbus", "gdbus", "sd-bus", "qtdbus" };
        static const char *const bs[] = { "dbus-daemon", "dbus-broker", "p2p" };
        static const char *const ps[] = { "bytes", "string" };
        char *axes[] = { "transport", "bus", "payload", NULL };
        char **vals[24];
        Style styles[24];
        guint n = 0;

        for (guint t = 0; t < 4; t++)
                for (guint b = 0; b < 3; b++)
                        for (guint p = 0; p < 2; p++) {
                                vals[n] = g_new0(char *, 4);
                                vals[n][0] = (char *) ts[t];
                                vals[n][1] = (char *) bs[b];
                                vals[n][2] = (char *) ps[p];
                                n++;
                        }
        g_autoptr(Encoding) e = encode(axes, 3, vals, n, styles);
        g_autofree char *d = style_describe(e);
        g_assert_cmpstr(d, ==, "colour: transport; point: bus; dash: payload type");
        g_assert_true(e->factored);
        g_assert_cmpuint(e->colour_entries->len, ==, 4);
        g_assert_cmpuint(e->point_entries->len, ==, 3);
        g_assert_cmpuint(e->dash_entries->len, ==, 2);
        /* libdbus is its own colour, whatever the bus. */
        Style lib;
        g_assert_true(style_transport("libdbus", &lib));
        for (guint i = 0; i < n; i++)
                if (!strcmp(vals[i][0], "libdbus"))
                        g_assert_cmpstr(styles[i].colour, ==, lib.colour);
        for (guint i = 0; i < n; i++)
                g_free(vals[i]);
}

static void test_transports_distinct(void)
{
        static const char *const all[] = {
                "direct", "pipe", "fifo", "unix-stream", "unix-dgram", "unix-seqpacket", "socketpair", "tcp", "mq",
                "shm", "libdbus", "gdbus", "sd-bus", "qtdbus", "sdbus-c++", "fdpass", "dbus-send", "gdbus-call",
                "busctl-call",
        };
        Style s[G_N_ELEMENTS(all)];

        for (size_t i = 0; i < G_N_ELEMENTS(all); i++)
                g_assert_true(style_transport(all[i], &s[i]));
        for (size_t i = 0; i < G_N_ELEMENTS(all); i++)
                for (size_t j = i + 1; j < G_N_ELEMENTS(all); j++)
                        g_assert_false(!strcmp(s[i].colour, s[j].colour) && s[i].point == s[j].point);
        /* The kernel's do not share a colour, nor do the D-Bus libraries. */
        for (size_t i = 1; i < 10; i++)
                for (size_t j = i + 1; j < 10; j++)
                        g_assert_cmpstr(s[i].colour, !=, s[j].colour);
        for (size_t i = 10; i < 16; i++)
                for (size_t j = i + 1; j < 16; j++)
                        g_assert_cmpstr(s[i].colour, !=, s[j].colour);
}

static void test_fixed_transport_and_collisions(void)
{
        /* One transport, two payloads: the transport's colour, the payload
         * by point. */
        char *axes[] = { "transport", "payload", NULL };
        char *a[] = { "libdbus", "bytes", NULL }, *b[] = { "libdbus", "string", NULL };
        char **vals[] = { a, b };
        Style styles[2];
        g_autoptr(Encoding) e = encode(axes, 2, vals, 2, styles);
        Style lib;
        style_transport("libdbus", &lib);
        g_assert_cmpstr(styles[0].colour, ==, lib.colour);
        g_assert_cmpstr(styles[1].colour, ==, lib.colour);
        g_assert_cmpint(styles[0].point, !=, styles[1].point);
        g_autofree char *t = style_line_title(e, axes, 2, a, "none");
        g_assert_cmpstr(t, ==, "libdbus, bytes");

        /* dbus-send has libdbus's colour: in one figure, colour and point
         * go together, and the bus takes the dash. */
        char *axes2[] = { "transport", "bus", NULL };
        char *c[] = { "libdbus", "dbus-daemon", NULL }, *d[] = { "dbus-send", "dbus-daemon", NULL };
        char *f[] = { "libdbus", "p2p", NULL }, *g[] = { "dbus-send", "p2p", NULL };
        char **vals2[] = { c, d, f, g };
        Style styles2[4];
        g_autoptr(Encoding) e2 = encode(axes2, 2, vals2, 4, styles2);
        g_assert_true(e2->glyph);
        g_autofree char *desc = style_describe(e2);
        g_assert_cmpstr(desc, ==, "colour and point: transport; dash: bus");
}

static void test_machine_title(void)
{
        char *axes[] = { "machine", "transport", NULL };
        char *a[] = { "vm", "pipe", NULL }, *b[] = { "board", "pipe", NULL };
        char **vals[] = { a, b };
        Style styles[2];
        g_autoptr(Encoding) e = encode(axes, 2, vals, 2, styles);
        g_autofree char *t = style_line_title(e, axes, 2, a, "none");
        g_assert_cmpstr(t, ==, "pipe, machine vm");
}

/* The labels of TICS (major only), joined by "|". */
static char *labels(GArray *tics)
{
        GString *s = g_string_new(NULL);
        for (guint i = 0; i < tics->len; i++) {
                const StyleTic *t = &g_array_index(tics, StyleTic, i);
                if (!t->minor)
                        g_string_append_printf(s, "%s%s", s->len ? "|" : "", t->label);
        }
        return g_string_free(s, FALSE);
}

static void test_tics(void)
{
        double from, to;
        const char *unit;

        /* Counts to 100 k: every thousand with its prefix. */
        GArray *t = style_tics(STYLE_AXIS_NUMBER, 100, 100000, true, &from, &to, &unit);
        g_autofree char *l1 = labels(t);
        g_assert_cmpstr(l1, ==, "100|1 k|10 k|100 k");
        style_tics_free(t);
        /* Below 10 k: none. */
        t = style_tics(STYLE_AXIS_NUMBER, 500, 5000, true, &from, &to, &unit);
        g_autofree char *l2 = labels(t);
        g_assert_cmpstr(l2, ==, "500|1000|2000|5000");
        style_tics_free(t);
        /* A log time axis of two decades: 1, 2, 5, each with its unit. */
        t = style_tics(STYLE_AXIS_TIME, 30e-6, 1.2e-3, true, &from, &to, &unit);
        g_autofree char *l3 = labels(t);
        g_assert_cmpstr(l3, ==, "50 µs|100 µs|200 µs|500 µs|1 ms");
        g_assert_null(unit);
        style_tics_free(t);
        /* A linear one: plain numbers, its unit for the axis label. */
        t = style_tics(STYLE_AXIS_TIME, 14e-6, 26e-6, false, &from, &to, &unit);
        g_autofree char *l4 = labels(t);
        g_assert_cmpstr(l4, ==, "0|5|10|15|20|25");
        g_assert_cmpstr(unit, ==, "µs");
        style_tics_free(t);
        /* Sizes on a log2 axis. */
        t = style_tics(STYLE_AXIS_SIZE, 64, 4096, true, &from, &to, &unit);
        g_autofree char *l5 = labels(t);
        g_assert_cmpstr(l5, ==, "64 B|128 B|256 B|512 B|1 KiB|2 KiB|4 KiB");
        style_tics_free(t);
        g_autofree char *tt = style_time_text(2.5e-6);
        g_assert_cmpstr(tt, ==, "2.5 µs");
}

int main(int argc, char **argv)
{
        g_test_init(&argc, &argv, NULL);
        g_test_add_func("/style/three-axes", test_three_axes);
        g_test_add_func("/style/transports-distinct", test_transports_distinct);
        g_test_add_func("/style/fixed-transport-and-collisions", test_fixed_transport_and_collisions);
        g_test_add_func("/style/machine-title", test_machine_title);
        g_test_add_func("/style/tics", test_tics);
        return g_test_run();
}
