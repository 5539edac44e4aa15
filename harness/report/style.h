/* style.h: how the generated figures of one paper tell their lines apart
 * and label their axes.
 *
 * Series.  A line of a figure is what its series axes' values make it
 * (transport=pipe, bus=-); only the axes whose values differ among the
 * figure's lines are encoded, each in one channel: the first in the
 * colour (transport whenever it is a series axis, even with one value,
 * so that a transport has its colour in every figure; else the first
 * declared), the second in the point, the rest together in the dash.  A value's colour, point
 * and dash come from its identity, not from its place in the figure: a
 * transport has one colour and point in every figure (style_transport),
 * an enumerated value (a bus, a payload type, an environment) its rank
 * among the values experiment files name, any other value (a machine, a
 * size, an axis added later) its rank among the values the figure has.
 * When the colours of the first axis's values collide in a figure, that
 * axis takes colour and point together and the others the dash; when
 * lines would still share colour, point and dash, every line gets a
 * style of its own, in order.  No two lines of a figure share all three.
 *
 * Axes.  Tic marks and their labels are chosen here, one formatter for
 * each kind of axis: times with their unit at every label on a log axis
 * (100 ns, 2 µs, 1 ms) and in the axis label on a linear one; sizes in
 * B, KiB, MiB; other numbers plain up to 9999, then 10 k, 2.5 M.
 */
#pragma once

#include <glib.h>
#include <stdbool.h>

/* One line's look, in gnuplot's terms (static strings). */
typedef struct {
        const char *colour;   /* "#rrggbb" */
        int point;            /* pointtype; 0: no point */
        const char *dash;     /* dashtype: "1" solid, "2", "(8,3,2,3)" */
} Style;

/* Colours of what is not a series: the harness floor, memcpy, published
 * numbers, another experiment's reference line, a reproduction's
 * committed data.  None is one of a series' colours. */
#define STYLE_FLOOR_COLOUR "#000000"
#define STYLE_FLOOR_DASH "5"
#define STYLE_MEMCPY_COLOUR "#8c8c8c"
#define STYLE_MEMCPY_DASH "2"
#define STYLE_PUBLISHED_COLOUR "#777777"
#define STYLE_PUBLISHED_DASH "4"
#define STYLE_ALSO_COLOUR "#555555"
#define STYLE_ALSO_DASH "3"
#define STYLE_COMPARE_COLOUR "#b8b8b8"

/* The I-th point of the bounds' and references' own lists (floors,
 * published lines, reference lines: open shapes, then crosses). */
int style_extra_point(guint i);
/* The I-th dash of the series' list (a second memcpy line). */
const char *style_dash(guint i);

/* TRANSPORT's colour and point in every figure; FALSE for a transport
 * the table does not know (an external one), which is then styled as
 * any other value. */
gboolean style_transport(const char *transport, Style *out);

/* What a figure's lines are told apart by (style_encode). */
typedef struct {
        char **axes;          /* the varying series axes, encoded in this order */
        guint n_axes;
        bool glyph;           /* axes[0] takes colour and point together */
        bool per_line;        /* a style per line (the channels would collide) */
        bool factored;        /* the key lists each channel's values, not each line */
        bool fixed_transport; /* axes[0] is transport, with one value: FIXED_VALUE */
        char *fixed_value;
        /* For the factored key: each channel's values as they are
         * labelled (style_value_text) and drawn, in order. */
        GPtrArray *colour_entries, *point_entries, *dash_entries;   /* StyleEntry * */
} Encoding;

typedef struct {
        char *text;
        Style style;
} StyleEntry;

void style_encoding_free(Encoding *e);
G_DEFINE_AUTOPTR_CLEANUP_FUNC(Encoding, style_encoding_free)

/* Plans the encoding of N lines of series axes AXES (NA of them, columns
 * of the summary: transport, bus, ...), line I having the values
 * VALS[I][0..NA-1], and writes each line's style into STYLES[I].  Lines
 * are distinct (no two have the same values).  Never NULL. */
Encoding *style_encode(char *const *axes, guint na, char *const *const *vals, guint n, Style *styles);

/* What E's channels mean, for a caption: "colour: transport; point:
 * bus; dash: payload type", "colour and point: transport", "one style
 * per line (see the key)", or "" when no axis varies. */
char *style_describe(const Encoding *e);

/* The legend text of a line of E whose series values are VALS (of the
 * axes AXES, NA of them): the encoded axes' values ("pipe, 4 KiB"; a
 * machine as "machine NAME"), or FALLBACK when none varies. */
char *style_line_title(const Encoding *e, char *const *axes, guint na, char *const *vals, const char *fallback);

/* VALUE of AXIS (a summary column) as the axis registry prints it
 * (axis_format_value); LATEX: escaped, with LaTeX's spaces. */
char *style_value_text(const char *axis, const char *value, bool latex);

/* ---- axes ----------------------------------------------------------- */

typedef enum {
        STYLE_AXIS_NUMBER,    /* plain numbers (counts, rates, MiB/s) */
        STYLE_AXIS_TIME,      /* seconds */
        STYLE_AXIS_SIZE,      /* bytes */
} StyleAxis;

typedef struct {
        double at;
        char *label;          /* "" for a minor tic */
        bool minor;
} StyleTic;

/* The tics of an axis of KIND over the data's range [LO, HI] (LO > 0 on
 * a LOG axis), into *TICS (StyleTic, free with style_tics_free), and the
 * range to draw in *FROM, *TO.  A linear time axis is labelled in one
 * unit: *UNIT is it ("µs"; the labels are plain numbers), else NULL. */
GArray *style_tics(StyleAxis kind, double lo, double hi, bool log, double *from, double *to, const char **unit);
void style_tics_free(GArray *tics);

/* V seconds as text with its unit: "100 ns", "2.5 µs", "1 ms", "10 s". */
char *style_time_text(double v);
/* V as a tic label: "0", "0.5", "2000", "10 k", "2.5 M". */
char *style_number_text(double v);
