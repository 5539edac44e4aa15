/* style.c: series styles and axis tics of the generated figures (style.h). */
#include "style.h"

#include <math.h>
#include <string.h>

#include "columns.h"
#include "experiment.h"
#include "render.h"

/* ---- palettes --------------------------------------------------------------- */

/* Colours of values other than transports, by rank: distinct, and told
 * apart by most colour-blind readers (Okabe and Ito's, then Tol's). */
static const char *const colours[] = {
        "#0072B2", "#D55E00", "#009E73", "#CC79A7", "#E69F00",
        "#56B4E9", "#882255", "#999933", "#332288", "#44AA99",
};
/* Filled shapes first (circle, square, triangles, diamond, pentagon),
 * then the same open. */
static const int points[] = { 7, 5, 9, 11, 13, 15, 6, 4, 8, 10, 12, 14 };
static const char *const dashes[] = {
        "1", "2", "3", "4", "(8,3,2,3)", "(2,5)", "(14,4)", "(6,3,1,3,1,3)",
};
/* The bounds' and references' points: open shapes and crosses, none a
 * filled shape of a series. */
static const int extra_points[] = { 3, 1, 2, 6, 4, 8, 10, 12 };

/* Every transport's colour and point.  Transports that appear together
 * (the kernel's, or the D-Bus libraries) have distinct colours; a
 * command has its library's colour and another point. */
static const struct {
        const char *transport;
        Style style;
} transports[] = {
        { "direct", { "#000000", 3, "1" } },
        { "pipe", { "#0072B2", 7, "1" } },
        { "fifo", { "#56B4E9", 6, "1" } },
        { "unix-stream", { "#D55E00", 5, "1" } },
        { "unix-dgram", { "#E69F00", 4, "1" } },
        { "unix-seqpacket", { "#CC79A7", 9, "1" } },
        { "socketpair", { "#882255", 8, "1" } },
        { "tcp", { "#009E73", 13, "1" } },
        { "mq", { "#999933", 12, "1" } },
        { "sysv-msg", { "#DDCC77", 15, "1" } },
        { "udp", { "#88CCEE", 14, "1" } },
        { "shm", { "#332288", 11, "1" } },
        { "eventfd-shm", { "#AA3377", 10, "1" } },
        { "splice", { "#1965B0", 5, "1" } },
        { "process-vm", { "#7BAFDE", 7, "1" } },
        { "io-uring", { "#F1932D", 9, "1" } },
        { "busy-ring", { "#4EB265", 11, "1" } },
        { "memfd", { "#882E72", 13, "1" } },
        { "libdbus", { "#44AA99", 7, "1" } },
        { "gdbus", { "#AA4499", 5, "1" } },
        { "sd-bus", { "#117733", 9, "1" } },
        { "qtdbus", { "#B8860B", 13, "1" } },
        { "sdbus-c++", { "#661100", 11, "1" } },
        { "fdpass", { "#6699CC", 15, "1" } },
        { "dbus-send", { "#44AA99", 5, "1" } },
        { "gdbus-call", { "#AA4499", 7, "1" } },
        { "busctl-call", { "#117733", 13, "1" } },
};

int style_extra_point(guint i)
{
        return extra_points[i % G_N_ELEMENTS(extra_points)];
}

const char *style_dash(guint i)
{
        return dashes[i % G_N_ELEMENTS(dashes)];
}

gboolean style_transport(const char *transport, Style *out)
{
        for (size_t i = 0; i < G_N_ELEMENTS(transports); i++)
                if (!strcmp(transports[i].transport, transport)) {
                        *out = transports[i].style;
                        return TRUE;
                }
        return FALSE;
}

/* ---- identity ---------------------------------------------------------------- */

/* The I-th value experiment files name for AXIS (a summary column), or
 * NULL past the last (or for an axis whose values are free). */
static const char *named_value(const char *axis, int i)
{
        static const struct {
                const char *axis;
                int n;
        } counts[] = {
                { "bus", 4 }, { "payload", 3 }, { "pattern", 3 }, { "reply", 3 },
                { "marshal", 4 }, { "cpus", 3 }, { "env", 3 },
        };
        int n = -1;

        for (size_t k = 0; k < G_N_ELEMENTS(counts); k++)
                if (!strcmp(counts[k].axis, axis))
                        n = counts[k].n;
        if (i < 0 || i >= n)
                return NULL;
        if (!strcmp(axis, "bus"))
                return bus_name((BusKind) i);
        if (!strcmp(axis, "payload"))
                return payload_name((PayloadType) i);
        if (!strcmp(axis, "pattern"))
                return pattern_name((Pattern) i);
        if (!strcmp(axis, "reply"))
                return reply_name((ReplyKind) i);
        if (!strcmp(axis, "marshal"))
                return marshal_name((Marshal) i);
        if (!strcmp(axis, "cpus"))
                return cpus_name((CpuPlacement) i);
        return env_name((EnvKind) i);
}

/* Orders values: "-" first, then numbers ascending, then text. */
static int value_cmp(gconstpointer a, gconstpointer b)
{
        const char *x = *(char *const *) a, *y = *(char *const *) b;
        bool dx = !strcmp(x, "-"), dy = !strcmp(y, "-");
        if (dx || dy)
                return dy - dx;
        double nx = axis_value_number(x), ny = axis_value_number(y);
        if (!isnan(nx) && !isnan(ny))
                return nx < ny ? -1 : nx > ny;
        if (isnan(nx) != isnan(ny))
                return isnan(nx) ? 1 : -1;
        return strcmp(x, y);
}

/* The rank of VALUE of AXIS: "-" 0, a value experiment files name its
 * place among them from 1 (from 0 where the first is "none", which "-"
 * also means), any other its place among PRESENT (the values the figure
 * has, sorted by value_cmp) from 1. */
static guint identity_rank(const char *axis, const char *value, GPtrArray *present)
{
        /* "-" and "none" (bus) are one: no value. */
        bool none_first = named_value(axis, 0) && !strcmp(named_value(axis, 0), "none");

        if (!strcmp(value, "-"))
                return 0;
        for (int i = 0; named_value(axis, i); i++)
                if (!strcmp(named_value(axis, i), value))
                        return (guint) i + !none_first;
        for (guint i = 0; i < present->len; i++)
                if (!strcmp(present->pdata[i], value))
                        return i + 1;
        return 0;
}

/* ---- encoding ------------------------------------------------------------------ */

void style_encoding_free(Encoding *e)
{
        if (!e)
                return;
        g_strfreev(e->axes);
        g_free(e->fixed_value);
        g_ptr_array_unref(e->colour_entries);
        g_ptr_array_unref(e->point_entries);
        g_ptr_array_unref(e->dash_entries);
        g_free(e);
}

static void entry_free(StyleEntry *s)
{
        g_free(s->text);
        g_free(s);
}

static bool same_style(const Style *a, const Style *b)
{
        return !strcmp(a->colour, b->colour) && a->point == b->point && !strcmp(a->dash, b->dash);
}

/* The values of axis A (column A of VALS) among N lines, in the lines'
 * order; SORTED: by value_cmp. */
static GPtrArray *values_of(char *const *const *vals, guint n, guint a, bool sorted)
{
        GPtrArray *out = g_ptr_array_new();

        for (guint i = 0; i < n; i++) {
                bool seen = false;
                for (guint k = 0; k < out->len && !seen; k++)
                        seen = !strcmp(out->pdata[k], vals[i][a]);
                if (!seen)
                        g_ptr_array_add(out, vals[i][a]);
        }
        if (sorted)
                g_ptr_array_sort(out, value_cmp);
        return out;
}

/* The colour and point of VALUE of AXIS, by its identity. */
static Style value_style(const char *axis, const char *value, GPtrArray *present)
{
        Style s;

        if (!strcmp(axis, "transport") && style_transport(value, &s))
                return s;
        guint r = identity_rank(axis, value, present);
        if (!strcmp(axis, "transport"))
                r += G_N_ELEMENTS(transports);
        s.colour = colours[r % G_N_ELEMENTS(colours)];
        s.point = points[r % G_N_ELEMENTS(points)];
        s.dash = dashes[r % G_N_ELEMENTS(dashes)];
        return s;
}

/* The rank of line L's values of axes FROM.. (indexes IDX[FROM..N_IDX-1])
 * among the distinct combinations COMBOS (char *: the values joined by
 * tabs, sorted by their ranks). */
static char *combo_key(char *const *vals, const guint *idx, guint from, guint n_idx)
{
        GString *k = g_string_new(NULL);

        for (guint j = from; j < n_idx; j++)
                g_string_append_printf(k, "%s%s", j > from ? "\t" : "", vals[idx[j]]);
        return g_string_free(k, FALSE);
}

static void add_entry(GPtrArray *list, char *text, Style s)
{
        StyleEntry *e = g_new0(StyleEntry, 1);
        e->text = text;
        e->style = s;
        g_ptr_array_add(list, e);
}

/* What style_encode works from: the lines' values, the varying axes
 * (IDX[0..K-1], indexes into the lines' values), each one's values
 * sorted (PRESENT, for their ranks) and in the lines' order (ORDERED,
 * for the key), the first axis in the dash (DASH_FROM) and the dash
 * axes' distinct combinations (COMBOS, in the order of their ranks). */
typedef struct {
        char *const *const *vals;
        guint n;
        guint *idx;
        guint k;
        guint dash_from;
        GPtrArray *present, *ordered, *combos;
} EncodePlan;

/* The axes that vary, transport first; transport even when it does not
 * vary, so that its colour is its own in every figure. */
static void encode_axes(Encoding *e, EncodePlan *p, char *const *axes, guint na)
{
        for (int pass = 0; pass < 2; pass++)
                for (guint a = 0; a < na; a++) {
                        bool transport = !strcmp(axes[a], "transport");
                        if ((pass == 0) != transport)
                                continue;
                        GPtrArray *v = values_of(p->vals, p->n, a, true);
                        if (v->len < 2 && !(transport && v->len == 1)) {
                                g_ptr_array_unref(v);
                                continue;
                        }
                        e->fixed_transport |= transport && v->len == 1;
                        p->idx[p->k++] = a;
                        g_ptr_array_add(p->present, v);
                        g_ptr_array_add(p->ordered, values_of(p->vals, p->n, a, false));
                }
        e->n_axes = p->k;
        e->axes = g_new0(char *, p->k + 1);
        for (guint j = 0; j < p->k; j++)
                e->axes[j] = g_strdup(axes[p->idx[j]]);
        if (e->fixed_transport)
                e->fixed_value = g_strdup(((GPtrArray *) p->present->pdata[0])->pdata[0]);
}

/* The dash: the rank of the remaining axes' combination.  Their
 * combinations, in the order of their values' ranks. */
static void encode_combos(const Encoding *e, EncodePlan *p)
{
        GPtrArray *combos = p->combos;
        guint dash_from = p->dash_from;

        for (guint i = 0; i < p->n && dash_from < p->k; i++) {
                g_autofree char *c = combo_key(p->vals[i], p->idx, dash_from, p->k);
                bool seen = false;
                for (guint m = 0; m < combos->len && !seen; m++)
                        seen = !strcmp(combos->pdata[m], c);
                if (!seen)
                        g_ptr_array_add(combos, g_steal_pointer(&c));
        }
        for (guint i = 0; i < combos->len; i++)
                for (guint j = i + 1; j < combos->len; j++) {
                        g_auto(GStrv) x = g_strsplit(combos->pdata[i], "\t", -1);
                        g_auto(GStrv) y = g_strsplit(combos->pdata[j], "\t", -1);
                        int d = 0;
                        for (guint m = 0; x[m] && y[m] && !d; m++) {
                                GPtrArray *pv = p->present->pdata[dash_from + m];
                                guint rx = identity_rank(e->axes[dash_from + m], x[m], pv);
                                guint ry = identity_rank(e->axes[dash_from + m], y[m], pv);
                                d = rx < ry ? -1 : rx > ry;
                        }
                        if (d > 0) {
                                gpointer t = combos->pdata[i];
                                combos->pdata[i] = combos->pdata[j];
                                combos->pdata[j] = t;
                        }
                }
}

static bool any_clash(const Style *styles, guint n)
{
        bool clash = false;

        for (guint i = 0; i < n && !clash; i++)
                for (guint j = i + 1; j < n && !clash; j++)
                        clash = same_style(&styles[i], &styles[j]);
        return clash;
}

/* Each line's colour, point and dash by its values; TRUE when two lines
 * still look alike. */
static bool encode_lines(const Encoding *e, const EncodePlan *p, Style *styles)
{
        GPtrArray *first = p->present->pdata[0], *combos = p->combos;
        guint dash_from = p->dash_from, k = p->k;

        for (guint i = 0; i < p->n; i++) {
                Style c = value_style(e->axes[0], p->vals[i][p->idx[0]], first);
                styles[i].colour = c.colour;
                styles[i].point = e->glyph ? c.point
                                           : value_style(e->axes[1], p->vals[i][p->idx[1]], p->present->pdata[1]).point;
                styles[i].dash = dashes[0];
                if (dash_from < k) {
                        g_autofree char *key = combo_key(p->vals[i], p->idx, dash_from, k);
                        for (guint m = 0; m < combos->len; m++)
                                if (!strcmp(combos->pdata[m], key))
                                        styles[i].dash = dash_from + 1 == k
                                                ? value_style(e->axes[dash_from], key, p->present->pdata[dash_from]).dash
                                                : dashes[m % G_N_ELEMENTS(dashes)];
                }
        }
        /* A value of one channel must look different from the others of
         * that channel; the dash of one axis by identity may collide
         * (ranks 0 and 8): then by order. */
        bool clash = any_clash(styles, p->n);
        if (clash && dash_from + 1 == k && combos->len <= G_N_ELEMENTS(dashes)) {
                for (guint i = 0; i < p->n; i++) {
                        g_autofree char *key = combo_key(p->vals[i], p->idx, dash_from, k);
                        for (guint m = 0; m < combos->len; m++)
                                if (!strcmp(combos->pdata[m], key))
                                        styles[i].dash = dashes[m];
                }
                clash = any_clash(styles, p->n);
        }
        return clash;
}

/* The key: each channel's values, as labelled and drawn (factored when
 * that is shorter than a line each). */
static void encode_key(Encoding *e, const EncodePlan *p, const Style *styles)
{
        GPtrArray *first = p->present->pdata[0], *combos = p->combos;
        guint dash_from = p->dash_from, k = p->k;
        guint sum = first->len + (e->glyph ? 0 : ((GPtrArray *) p->present->pdata[1])->len) + combos->len;

        e->factored = k > 1 && sum < p->n;
        GPtrArray *first_ordered = p->ordered->pdata[0];
        for (guint i = 0; i < first_ordered->len; i++) {
                Style s = value_style(e->axes[0], first_ordered->pdata[i], first);
                if (!e->glyph)
                        s.point = 0;
                s.dash = dashes[0];
                add_entry(e->colour_entries, style_value_text(e->axes[0], first_ordered->pdata[i], false), s);
        }
        for (guint i = 0; !e->glyph && i < ((GPtrArray *) p->ordered->pdata[1])->len; i++) {
                const char *v = ((GPtrArray *) p->ordered->pdata[1])->pdata[i];
                Style s = { "#444444", value_style(e->axes[1], v, p->present->pdata[1]).point, dashes[0] };
                add_entry(e->point_entries, style_value_text(e->axes[1], v, false), s);
        }
        for (guint m = 0; m < combos->len; m++) {
                /* The dash as the lines have it. */
                const char *d = dashes[0];
                for (guint i = 0; i < p->n; i++) {
                        g_autofree char *key = combo_key(p->vals[i], p->idx, dash_from, k);
                        if (!strcmp(key, combos->pdata[m]))
                                d = styles[i].dash;
                }
                g_auto(GStrv) parts = g_strsplit(combos->pdata[m], "\t", -1);
                GString *t = g_string_new(NULL);
                for (guint j = 0; parts[j]; j++) {
                        g_autofree char *v = style_value_text(e->axes[dash_from + j], parts[j], false);
                        g_string_append_printf(t, "%s%s", j ? ", " : "", v);
                }
                add_entry(e->dash_entries, g_string_free(t, FALSE), (Style) { "#444444", 0, d });
        }
}

Encoding *style_encode(char *const *axes, guint na, char *const *const *vals, guint n, Style *styles)
{
        Encoding *e = g_new0(Encoding, 1);
        g_autofree guint *idx = g_new0(guint, na + 1);
        g_autoptr(GPtrArray) present = g_ptr_array_new_with_free_func((GDestroyNotify) g_ptr_array_unref);
        g_autoptr(GPtrArray) ordered = g_ptr_array_new_with_free_func((GDestroyNotify) g_ptr_array_unref);
        g_autoptr(GPtrArray) combos = g_ptr_array_new_with_free_func(g_free);
        EncodePlan p = { .vals = vals, .n = n, .idx = idx, .present = present, .ordered = ordered, .combos = combos };

        e->colour_entries = g_ptr_array_new_with_free_func((GDestroyNotify) entry_free);
        e->point_entries = g_ptr_array_new_with_free_func((GDestroyNotify) entry_free);
        e->dash_entries = g_ptr_array_new_with_free_func((GDestroyNotify) entry_free);
        encode_axes(e, &p, axes, na);
        for (guint i = 0; i < n; i++)
                styles[i] = (Style) { colours[0], points[0], dashes[0] };
        if (!p.k)
                return e;

        /* Colour by the first axis; if two of its values share a colour,
         * colour and point together. */
        GPtrArray *first = present->pdata[0];
        for (guint i = 0; i < first->len && !e->glyph; i++)
                for (guint j = i + 1; j < first->len; j++) {
                        Style a = value_style(e->axes[0], first->pdata[i], first);
                        Style b = value_style(e->axes[0], first->pdata[j], first);
                        if (!strcmp(a.colour, b.colour))
                                e->glyph = true;
                }
        e->glyph |= p.k == 1;
        p.dash_from = e->glyph ? 1 : 2;
        encode_combos(e, &p);
        if (encode_lines(e, &p, styles)) {
                /* A style per line, in order: colours first, then points. */
                e->per_line = true;
                for (guint i = 0; i < n; i++)
                        styles[i] = (Style) { colours[i % G_N_ELEMENTS(colours)],
                                              points[(i / G_N_ELEMENTS(colours) + i) % G_N_ELEMENTS(points)],
                                              dashes[(i / (G_N_ELEMENTS(colours) * G_N_ELEMENTS(points))) %
                                                     G_N_ELEMENTS(dashes)] };
                return e;
        }
        encode_key(e, &p, styles);
        return e;
}

/* AXIS's label for a caption ("payload type"). */
static char *axis_label(const char *axis)
{
        const Column *c = column_find(axis);
        if (!c)
                c = column_find_key(axis);
        return g_strdup(c ? c->label : axis);
}

char *style_describe(const Encoding *e)
{
        if (!e->n_axes || (e->fixed_transport && e->n_axes == 1))
                return g_strdup("");
        if (e->per_line)
                return g_strdup("one style per line (see the key)");
        GString *s = g_string_new(NULL);
        g_autofree char *a0 = axis_label(e->axes[0]);
        if (e->fixed_transport)
                g_string_append_printf(s, "%s: the transport's (%s)", e->glyph ? "colour and point" : "colour",
                                       e->fixed_value);
        else
                g_string_append_printf(s, "%s: %s", e->glyph ? "colour and point" : "colour", a0);
        if (!e->glyph && e->n_axes > 1) {
                g_autofree char *a1 = axis_label(e->axes[1]);
                g_string_append_printf(s, "; point: %s", a1);
        }
        guint from = e->glyph ? 1 : 2;
        if (from < e->n_axes) {
                g_string_append(s, "; dash: ");
                for (guint i = from; i < e->n_axes; i++) {
                        g_autofree char *l = axis_label(e->axes[i]);
                        g_string_append_printf(s, "%s%s", i > from ? " and " : "", l);
                }
        }
        return g_string_free(s, FALSE);
}

char *style_line_title(const Encoding *e, char *const *axes, guint na, char *const *vals, const char *fallback)
{
        GString *t = g_string_new(NULL);

        for (guint j = 0; j < e->n_axes; j++)
                for (guint a = 0; a < na; a++) {
                        if (strcmp(axes[a], e->axes[j]) || !strcmp(vals[a], "-"))
                                continue;
                        g_autofree char *v = style_value_text(axes[a], vals[a], false);
                        /* A machine's name may be a word an environment
                         * also is (vm). */
                        g_string_append_printf(t, "%s%s%s", t->len ? ", " : "", !strcmp(axes[a], "machine") ? "machine " : "", v);
                }
        if (!t->len)
                g_string_assign(t, fallback);
        return g_string_free(t, FALSE);
}

char *style_value_text(const char *axis, const char *value, bool latex)
{
        if (!latex)
                return axis_format_value(axis, value, false);
        /* Escaping leaves a number and "-" as they are. */
        g_autofree char *escaped = render_latex_escape(value);
        return axis_format_value(axis, escaped, true);
}

/* ---- axes -------------------------------------------------------------------- */

static void add_tic(GArray *tics, double at, char *label, bool minor)
{
        StyleTic t = { at, label ? label : g_strdup(""), minor };
        g_array_append_val(tics, t);
}

void style_tics_free(GArray *tics)
{
        for (guint i = 0; tics && i < tics->len; i++)
                g_free(g_array_index(tics, StyleTic, i).label);
        if (tics)
                g_array_unref(tics);
}

/* "%g" of V to 4 significant digits, in C's locale. */
static char *plain(double v)
{
        char buf[G_ASCII_DTOSTR_BUF_SIZE];
        return g_strdup(g_ascii_formatd(buf, sizeof buf, "%.4g", v));
}

/* V plain, or from SI_FROM on with a prefix (10 k, 2.5 M). */
static char *number_text(double v, double si_from)
{
        static const struct { double f; const char *suffix; } si[] = { { 1e9, "G" }, { 1e6, "M" }, { 1e3, "k" } };
        double a = fabs(v);

        if (a >= si_from)
                for (size_t i = 0; i < G_N_ELEMENTS(si); i++)
                        if (a >= si[i].f) {
                                g_autofree char *m = plain(v / si[i].f);
                                return g_strdup_printf("%s %s", m, si[i].suffix);
                        }
        return plain(v);
}

char *style_number_text(double v)
{
        return number_text(v, 1e4);
}

char *style_time_text(double v)
{
        static const struct { double f; const char *unit; } units[] = {
                { 1, "s" }, { 1e-3, "ms" }, { 1e-6, "µs" }, { 1e-9, "ns" },
        };
        double a = fabs(v);

        if (a == 0)
                return g_strdup("0");
        for (size_t i = 0; i < G_N_ELEMENTS(units); i++)
                if (a >= units[i].f * 0.9999 || i + 1 == G_N_ELEMENTS(units)) {
                        g_autofree char *m = plain(v / units[i].f);
                        return g_strdup_printf("%s %s", m, units[i].unit);
                }
        return plain(v);
}

static char *size_text(double v)
{
        g_autofree char *s = g_strdup_printf("%.0f", v);
        return v == 0 ? g_strdup("0") : axis_format_value("size_B", s, false);
}

/* A tic's label; numbers with a prefix from SI_FROM on, so that one axis
 * labels all its thousands alike (500, 1 k, 10 k; or 500, 1000, 5000). */
static char *tic_label(StyleAxis kind, double v, double si_from)
{
        return kind == STYLE_AXIS_TIME ? style_time_text(v) : kind == STYLE_AXIS_SIZE ? size_text(v)
                                                                                    : number_text(v, si_from);
}

/* A step of 1, 2 or 5 times a power of ten that cuts SPAN into about
 * five. */
static double nice_step(double span)
{
        double raw = span / 5, p = pow(10, floor(log10(raw))), m = raw / p;
        return (m < 1.5 ? 1 : m < 3.5 ? 2 : m < 7.5 ? 5 : 10) * p;
}

GArray *style_tics(StyleAxis kind, double lo, double hi, bool log, double *from, double *to, const char **unit)
{
        GArray *tics = g_array_new(FALSE, FALSE, sizeof(StyleTic));

        /* Thousands with a prefix only where the axis reaches 10 k. */
        double si_from = hi * 1.3 >= 1e4 ? 1e3 : INFINITY;

        *unit = NULL;
        if (!(hi >= lo) || (log && !(lo > 0))) {
                *from = 0;
                *to = 1;
                return tics;
        }
        if (log && kind == STYLE_AXIS_SIZE) {
                /* Powers of two, at most eight labelled. */
                *from = lo / 1.3;
                *to = hi * 1.3;
                int e0 = (int) ceil(log2(*from)), e1 = (int) floor(log2(*to));
                int step = MAX(1, (int) ceil((e1 - e0 + 1) / 8.0));
                for (int e = e0; e <= e1; e++)
                        add_tic(tics, ldexp(1, e), (e - e0) % step ? NULL : tic_label(kind, ldexp(1, e), 0),
                                (e - e0) % step != 0);
                return tics;
        }
        if (log) {
                *from = lo / 1.3;
                *to = hi * 1.3;
                double decades = log10(*to / *from);
                /* Labels at each decade when the axis spans many, at 1, 2
                 * and 5 when it spans a few, more when under one. */
                static const double all[] = { 1, 2, 3, 4, 5, 6, 7, 8, 9 };
                bool label[9] = { true };
                for (int i = 1; i < 9; i++)
                        label[i] = decades < 0.6 || (decades < 1.2 && (i == 1 || i == 2 || i == 4)) ||
                                   (decades < 3.2 && (i == 1 || i == 4));
                for (int e = (int) floor(log10(*from)); e <= (int) ceil(log10(*to)); e++)
                        for (int i = 0; i < 9; i++) {
                                double v = all[i] * pow(10, e);
                                if (v < *from || v > *to)
                                        continue;
                                add_tic(tics, v, label[i] ? tic_label(kind, v, si_from) : NULL, !label[i]);
                        }
                return tics;
        }
        /* Linear, from 0: times in the unit of the largest value, its
         * name in the axis label. */
        *from = MIN(0, lo);
        *to = hi > *from ? hi * 1.08 : *from + 1;
        double scale = 1;
        if (kind == STYLE_AXIS_TIME) {
                static const struct { double f; const char *unit; } units[] = {
                        { 1, "s" }, { 1e-3, "ms" }, { 1e-6, "µs" }, { 1e-9, "ns" },
                };
                for (size_t i = 0; i < G_N_ELEMENTS(units) && !*unit; i++)
                        if (hi >= units[i].f || i + 1 == G_N_ELEMENTS(units)) {
                                scale = units[i].f;
                                *unit = units[i].unit;
                        }
        }
        double step = kind == STYLE_AXIS_SIZE ? ldexp(1, (int) ceil(log2((*to - *from) / 5)))
                                              : nice_step((*to - *from) / scale) * scale;
        for (double v = ceil(*from / step) * step; v <= *to * (1 + 1e-9); v += step) {
                double at = fabs(v) < step * 1e-9 ? 0 : v;
                add_tic(tics, at, kind == STYLE_AXIS_TIME ? plain(at / scale) : tic_label(kind, at, si_from), false);
        }
        return tics;
}
