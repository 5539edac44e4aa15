/* axes.c: the axis registry (see axes.h). */
#include "axes.h"

#include <errno.h>
#include <math.h>
#include <string.h>

#include <ipclab/transport.h>

#include "table.h"

const char *const axis_bus_values[] = { "none", "dbus-daemon", "dbus-broker", "p2p", NULL };
const char *const axis_payload_values[] = { "bytes", "string", "none", NULL };
const char *const axis_pattern_values[] = { "oneway", "roundtrip", "callrate", NULL };
const char *const axis_reply_values[] = { "echo", "empty", "short", NULL };
const char *const axis_marshal_values[] = { "array", "per-element", "append-per-element", "copy", NULL };
const char *const axis_cpus_values[] = { "none", "same", "split", NULL };
const char *const axis_roles_values[] = { "processes", "threads", NULL };
#define ENV_NAME_(id, name) #name,
const char *const axis_env_values[] = { ENVS(ENV_NAME_) NULL };
#undef ENV_NAME_

/* A bus only where the transport is a D-Bus one (else "-"). */
static bool bus_applies(const Cell *c)
{
        return c->bus != BUS_NONE;
}

/* A one-way message has no reply. */
static bool reply_applies(const Cell *c)
{
        return c->pattern != PATTERN_ONEWAY;
}

/* Calls carry no payload. */
static bool has_payload(const Cell *c)
{
        return c->pattern != PATTERN_CALLRATE;
}

/* Only round trips choose their reply. */
static bool is_roundtrip(const Cell *c)
{
        return c->pattern == PATTERN_ROUNDTRIP;
}

static bool count_applies(const Cell *c)
{
        return c->count != 0;
}

static bool duration_applies(const Cell *c)
{
        return c->duration_ns != 0;
}

/* The values of marshal= and reply= that only some transports take. */
static const AxisValueNeed marshal_needs[] = {
        { MARSHAL_PER_ELEMENT, IPCLAB_TRANSPORT_MARSHAL, PAYLOAD_BYTES,
          "per-element marshalling applies to D-Bus byte arrays only", NULL,
          "per-element marshalling applies only to D-Bus transports, and none is listed" },
        { MARSHAL_APPEND_PER_ELEMENT, IPCLAB_TRANSPORT_MARSHAL, PAYLOAD_BYTES,
          "append-per-element marshalling applies to D-Bus byte arrays only", NULL,
          "append-per-element marshalling applies only to D-Bus transports, and none is listed" },
        { MARSHAL_COPY, IPCLAB_TRANSPORT_COPY_STRING, PAYLOAD_STRING,
          "marshal=copy applies to gdbus only (the other transports' strings are copied anyway)",
          "marshal=copy applies to string payloads only",
          "copy applies only to a transport whose own strings borrow the buffer (gdbus), and none is listed" },
        { 0 },
};
static const AxisValueNeed reply_needs[] = {
        { REPLY_SHORT, IPCLAB_TRANSPORT_SHORT_REPLY, -1, "reply=short (the string OK) applies to gdbus only", NULL,
          "short (a string reply) applies only to gdbus, and it is not listed" },
        { 0 },
};

#define AT(field) offsetof(Cell, field)

/* The rows of axes-table.h, each with its column. */
#define AXIS_ROW_(id, name, unit, label, key, ...) { .column = COL_##id, __VA_ARGS__ },
const Axis axis_table[] = { IPCLAB_AXES(AXIS_ROW_) };
#undef AXIS_ROW_

const size_t axis_count = G_N_ELEMENTS(axis_table);
G_STATIC_ASSERT(G_N_ELEMENTS(axis_table) <= AXIS_MAX);

const char *pattern_name(Pattern p) { return axis_pattern_values[p]; }
const char *payload_name(PayloadType p) { return axis_payload_values[p]; }
const char *reply_name(ReplyKind r) { return axis_reply_values[r]; }
const char *marshal_name(Marshal m) { return axis_marshal_values[m]; }
const char *cpus_name(CpuPlacement c) { return axis_cpus_values[c]; }
const char *roles_name(Roles r) { return axis_roles_values[r]; }
const char *bus_name(BusKind b) { return axis_bus_values[b]; }
const char *env_name(EnvKind e) { return axis_env_values[e]; }

const char *axis_key(const Axis *a)
{
        return column_table[a->column].key;
}

const char *axis_column(const Axis *a)
{
        return column_table[a->column].name;
}

const Axis *axis_find(const char *key)
{
        for (size_t i = 0; i < axis_count; i++)
                if (!strcmp(axis_key(&axis_table[i]), key) || !strcmp(axis_column(&axis_table[i]), key))
                        return &axis_table[i];
        return NULL;
}

const Axis *axis_of_column(ColumnId id)
{
        for (size_t i = 0; i < axis_count; i++)
                if (axis_table[i].column == id)
                        return &axis_table[i];
        return NULL;
}

guint64 axis_get(const Axis *a, const Cell *cell)
{
        const char *p = (const char *) cell + a->offset;

        switch (a->type) {
        case AXIS_NAMES: {
                int v;
                memcpy(&v, p, sizeof v);
                return (guint64) v;
        }
        case AXIS_SIZE:
        case AXIS_COUNT:
        case AXIS_DURATION: {
                guint64 v;
                memcpy(&v, p, sizeof v);
                return v;
        }
        case AXIS_TRANSPORT:
        case AXIS_PLACE:
                break;
        }
        return 0;
}

void axis_set(const Axis *a, Cell *cell, guint64 n)
{
        char *p = (char *) cell + a->offset;

        switch (a->type) {
        case AXIS_NAMES: {
                /* An enum of Cell: the size of an int. */
                G_STATIC_ASSERT(sizeof(BusKind) == sizeof(int) && sizeof(Roles) == sizeof(int));
                int v = (int) n;
                memcpy(p, &v, sizeof v);
                return;
        }
        case AXIS_SIZE:
        case AXIS_COUNT:
        case AXIS_DURATION:
                memcpy(p, &n, sizeof n);
                return;
        case AXIS_TRANSPORT:
        case AXIS_PLACE:
                g_assert_not_reached();
        }
}

char *axis_cell_text(const Axis *a, const Cell *cell)
{
        if (a->type == AXIS_PLACE)
                return NULL;
        if (a->applies && !a->applies(cell))
                return g_strdup("-");
        if (a->type == AXIS_TRANSPORT)
                return g_strdup(cell->transport);
        guint64 v = axis_get(a, cell);
        if (a->type == AXIS_NAMES)
                return g_strdup(a->values[v]);
        return g_strdup_printf("%" G_GUINT64_FORMAT, v);
}

bool axis_cell_read(const Axis *a, Cell *cell, const char *text)
{
        guint64 n = 0;

        switch (a->type) {
        case AXIS_PLACE:
                return true;
        case AXIS_TRANSPORT:
                memcpy((char *) cell + a->offset, &text, sizeof text);
                return true;
        case AXIS_NAMES:
                if (strcmp(text, "-"))
                        for (; a->values[n] && strcmp(a->values[n], text); n++)
                                ;
                if (!a->values[n])
                        return false;
                break;
        case AXIS_SIZE:
        case AXIS_COUNT:
        case AXIS_DURATION:
                if (strcmp(text, "-") && !samples_parse_whole(text, &n))
                        return false;
                break;
        }
        axis_set(a, cell, n);
        return true;
}

char *axis_cell_key(const Cell *cell)
{
        GString *s = g_string_new(cell->transport);

        for (size_t i = 0; i < axis_count; i++)
                if (axis_table[i].type != AXIS_PLACE && axis_table[i].type != AXIS_TRANSPORT)
                        g_string_append_printf(s, "|%" G_GUINT64_FORMAT, axis_get(&axis_table[i], cell));
        return g_string_free(s, FALSE);
}

/* The axes cell_describe prints, in its order. */
static const Axis *const *described_axes(void)
{
        static const Axis *order[G_N_ELEMENTS(axis_table) + 1];
        static gsize done;

        if (g_once_init_enter(&done)) {
                guint n = 0;
                for (guint rank = 1; rank <= axis_count; rank++)
                        for (size_t i = 0; i < axis_count; i++)
                                if (axis_table[i].describe == rank)
                                        order[n++] = &axis_table[i];
                order[n] = NULL;
                g_once_init_leave(&done, 1);
        }
        return order;
}

char *cell_describe(const Cell *cell)
{
        GString *s = g_string_new(NULL);

        for (const Axis *const *ap = described_axes(); *ap; ap++) {
                const Axis *a = *ap;
                if ((a->applies && !a->applies(cell)) || (a->described && !a->described(cell)))
                        continue;
                g_autofree char *v = axis_cell_text(a, cell);
                if (a->usual && !strcmp(v, a->usual))
                        continue;
                if (s->len)
                        g_string_append_c(s, ' ');
                if (a->labelled)
                        g_string_append_printf(s, "%s=", axis_key(a));
                /* Durations in whole milliseconds, as the hash has
                 * always had them. */
                if (a->type == AXIS_DURATION)
                        g_string_append_printf(s, "%" G_GUINT64_FORMAT "ms", axis_get(a, cell) / 1000000);
                else
                        g_string_append(s, v);
        }
        return g_string_free(s, FALSE);
}

char *axis_keys_text(void)
{
        GString *s = g_string_new(NULL);

        /* The file's axes first, then the run's. */
        for (int place = 0; place < 2; place++)
                for (size_t i = 0; i < axis_count; i++)
                        if ((axis_table[i].type == AXIS_PLACE) == place)
                                g_string_append_printf(s, "%s%s", s->len ? ", " : "", axis_key(&axis_table[i]));
        return g_string_free(s, FALSE);
}

double axis_value_number(const char *s)
{
        char *end;

        if (!s || !s[0])
                return NAN;
        double v = g_ascii_strtod(s, &end);
        return *end ? NAN : v;
}

/* Digits of V in groups of three, SEP between the groups. */
static char *grouped(double v, const char *sep)
{
        g_autofree char *d = g_strdup_printf("%.0f", v);
        GString *g = g_string_new(NULL);

        for (gsize i = 0, n = strlen(d); i < n; i++) {
                if (i && (n - i) % 3 == 0)
                        g_string_append(g, sep);
                g_string_append_c(g, d[i]);
        }
        return g_string_free(g, FALSE);
}

char *axis_format_value(const char *column, const char *value, bool latex)
{
        const Axis *a = axis_find(column);
        AxisType type = a && !strcmp(axis_column(a), column) ? a->type : AXIS_TRANSPORT;
        const char *sp = latex ? "~" : " ";
        double v = axis_value_number(value);

        if (!strcmp(value, "-"))
                return g_strdup(latex ? "--" : "none");
        if (isnan(v))
                return g_strdup(value);
        if (type == AXIS_SIZE) {
                guint64 s = (guint64) v;
                if (s >= 1048576 && s % 1048576 == 0)
                        return g_strdup_printf("%" G_GUINT64_FORMAT "%sMiB", s / 1048576, sp);
                if (s >= 1024 && s % 1024 == 0)
                        return g_strdup_printf("%" G_GUINT64_FORMAT "%sKiB", s / 1024, sp);
                return g_strdup_printf("%" G_GUINT64_FORMAT "%sB", s, sp);
        }
        if (type == AXIS_DURATION)
                return g_strdup_printf("%g%sms", v / 1e6, sp);
        /* Digits in groups of three, as the paper's numbers. */
        if (type == AXIS_COUNT && v >= 10000)
                return grouped(v, latex ? "\\," : " ");
        return g_strdup(value);
}
