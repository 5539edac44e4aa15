/* numbers-unit.c: the units of declared numbers (numbers-internal.h). */
#include "numbers-internal.h"

#include <string.h>

#include "columns.h"

static const NumberUnit units[] = {
        { "ns", 1e-9, 1, 0 }, { "us", 1e-6, 1, 0 }, { "ms", 1e-3, 1, 0 }, { "s", 1, 1, 0 },
        { "B", 1, 0, 1 }, { "KiB", 1024, 0, 1 }, { "MiB", 1048576, 0, 1 }, { "GiB", 1073741824, 0, 1 },
        { "KiB/s", 1024, -1, 1 }, { "MiB/s", 1048576, -1, 1 }, { "GiB/s", 1073741824, -1, 1 },
        { "1/s", 1, -1, 0 }, { "k/s", 1e3, -1, 0 }, { "M/s", 1e6, -1, 0 },
        { "%", 0.01, 0, 0 }, { "", 1, 0, 0 },
};

const NumberUnit *number_unit_find(const char *name)
{
        for (size_t i = 0; name && i < G_N_ELEMENTS(units); i++)
                if (!strcmp(units[i].name, name))
                        return &units[i];
        return NULL;
}

const char *number_unit_names(void)
{
        return "ns, us, ms, s, B, KiB, MiB, GiB, KiB/s, MiB/s, GiB/s, 1/s, k/s, M/s, %";
}

/* The unit a published column's or a meta.ini key's name ends in. */
static const struct {
        const char *suffix;
        const char *unit;
} name_units[] = {
        { "_ns", "ns" }, { "_us", "us" }, { "_ms", "ms" }, { "_s", "s" }, { "_B", "B" }, { "_bytes", "B" },
        { "_kib", "KiB" }, { "_MiBps", "MiB/s" }, { "_per_s", "1/s" },
};

static const NumberUnit *name_unit(const char *name)
{
        const NumberUnit *best = NULL;
        size_t len = 0;

        for (size_t i = 0; i < G_N_ELEMENTS(name_units); i++)
                if (g_str_has_suffix(name, name_units[i].suffix) && strlen(name_units[i].suffix) > len) {
                        len = strlen(name_units[i].suffix);
                        best = number_unit_find(name_units[i].unit);
                }
        /* memcpy_MiBps_4096: the bandwidth at a size. */
        if (!best && strstr(name, "_MiBps_"))
                best = number_unit_find("MiB/s");
        return best;
}

const NumberUnit *number_column_unit(const Number *n, const char *column, bool *text)
{
        *text = false;
        if (n->source == NUMBER_SUMMARY || n->source == NUMBER_EXPERIMENT) {
                int upper;
                const Column *c = column_find(column);
                if (!c)
                        c = column_find_interval(column, &upper);
                if (c && c->kind == COLUMN_AXIS && !c->unit[0] && strcmp(c->name, "count")) {
                        *text = true;
                        return NULL;
                }
                return number_unit_find(c ? c->unit : "");
        }
        if (n->source == NUMBER_SKIPPED) {
                *text = !strcmp(column, "transport");
                return *text ? NULL : number_unit_find("B");
        }
        if (n->source == NUMBER_META) {
                const char *key = strrchr(column, '.');
                const NumberUnit *u = name_unit(key ? key + 1 : column);
                *text = !u;
                return u;
        }
        const NumberUnit *u = name_unit(column);
        return u ? u : number_unit_find("");
}

static void dims_add(NumberDims *d, const NumberUnit *u, int sign)
{
        if (u) {
                d->time += sign * u->time;
                d->bytes += sign * u->bytes;
        }
}

bool number_dims(const Number *n, const Table *pub, NumberDims *d)
{
        bool text;
        (void) pub;

        *d = (NumberDims) { 0, 0 };
        if (n->source == NUMBER_NUMBERS)
                return true;
        if (n->source == NUMBER_META) {
                /* Two facts: time stamps (a difference in seconds) or numbers. */
                const NumberUnit *u = number_column_unit(n, n->meta[0], &text);
                if (n->meta[1]) {
                        if (n->compare == COMPARE_RATIO)
                                return true;
                        *d = (NumberDims) { 1, 0 };
                        if (u)
                                *d = (NumberDims) { u->time, u->bytes };
                        return true;
                }
                dims_add(d, u, 1);
                return !text;
        }
        if (!n->value)
                return false;
        const NumberUnit *u = number_column_unit(n, n->value, &text);
        if (text && !n->times && !n->per && n->compare == COMPARE_NONE)
                return false;
        dims_add(d, u, 1);
        for (guint i = 0; n->times && n->times[i]; i++)
                dims_add(d, number_column_unit(n, n->times[i], &text), 1);
        for (guint i = 0; n->per && n->per[i]; i++)
                dims_add(d, number_column_unit(n, n->per[i], &text), -1);
        if (n->compare == COMPARE_RATIO || n->compare == COMPARE_SAVING) {
                NumberDims o = *d;
                const NumberUnit *ou = n->over_value ? number_column_unit(n, n->over_value, &text) : u;
                dims_add(&o, u, -1);
                dims_add(&o, ou, 1);
                d->time -= o.time;
                d->bytes -= o.bytes;
        }
        return true;
}

const char *number_dims_text(const NumberDims *d)
{
        for (size_t i = 0; i < G_N_ELEMENTS(units); i++)
                if (units[i].time == d->time && units[i].bytes == d->bytes)
                        return units[i].time == 0 && units[i].bytes == 0 ? "a pure number"
                             : units[i].time == 1 ? "a time" : units[i].time == 0 ? "bytes"
                             : units[i].bytes ? "bytes per time" : "a rate";
        return "a quantity no unit fits";
}

const NumberUnit *number_default_unit(const Number *n)
{
        NumberDims d;
        bool text;

        if (n->compare == COMPARE_SAVING)
                return number_unit_find("%");
        if (!number_dims(n, NULL, &d))
                return NULL;
        if (d.time == 0 && d.bytes == 0)
                return number_unit_find("");
        if (n->source == NUMBER_META && n->meta[1])
                return number_unit_find(d.time == 1 && d.bytes == 0 ? "s" : "");
        const NumberUnit *u = n->source == NUMBER_META ? number_column_unit(n, n->meta[0], &text)
                            : n->value ? number_column_unit(n, n->value, &text) : NULL;
        if (u && u->time == d.time && u->bytes == d.bytes && !(d.time == 0 && d.bytes == 1))
                return u;
        return NULL;
}

char *number_test_selector(const char *test)
{
        return strchr("=!<>", test[0]) ? g_strconcat("value", test, NULL) : g_strconcat("value=", test, NULL);
}
