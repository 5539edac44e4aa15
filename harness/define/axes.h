/* axes.h: the axis registry, one row per axis.
 *
 * An axis is what varies between the cells of an experiment (transport,
 * bus, payload, size, pattern, reply, marshal, cpus, roles, count,
 * duration) or between the places a run measures them in (env, machine).
 * Each is one row of axes-table.h, which gives both its column (name,
 * unit, label and selector key: columns.h) and its row of axis_table
 * (axes.c): its type and values, where a Cell holds it, which transports
 * take it, what data written before it existed holds, and how a cell's
 * description (and so the configuration hash) prints it.  Expansion, cell identity, the configuration hash,
 * selectors, the axis columns of samples.tsv and the descriptions of
 * cells in `ipclab verify` and the summary all read these rows.
 *
 * Its key in experiment files is made from its row too (experiment.c),
 * and so is what a run's estimate matches recorded times on (of_kind).
 *
 * Adding an axis: its row in axes-table.h, its field in Cell below (and
 * in IpclabCell when a transport reads it), and the transports that take
 * it (README.md, "Adding an axis").
 */
#pragma once

#include "envs.h"

#include <glib.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "columns.h"

typedef enum {
        PATTERN_ONEWAY,
        PATTERN_ROUNDTRIP,
        PATTERN_CALLRATE,
} Pattern;

typedef enum {
        PAYLOAD_BYTES,   /* D-Bus `ay` */
        PAYLOAD_STRING,  /* D-Bus `s`: valid UTF-8 text, validated on receipt */
        PAYLOAD_NONE,    /* callrate: no payload at all */
} PayloadType;

typedef enum {
        REPLY_ECHO,      /* the reply carries the request's payload back */
        REPLY_EMPTY,     /* the smallest reply the transport can carry */
        REPLY_SHORT,     /* a short string, REPLY_SHORT_TEXT, as seed 001's
                          * server answered every call; the transport adds it
                          * and the client checks it; the runner sees an
                          * empty reply (TRANSPORT_SHORT_REPLY: GDBus) */
} ReplyKind;

#define REPLY_SHORT_TEXT "OK"

typedef enum {
        MARSHAL_ARRAY,        /* one fixed-array append; strings as the transport
                               * does best (GDBus borrows the caller's buffer:
                               * g_variant_new_from_data, no copy, no check) */
        MARSHAL_PER_ELEMENT,  /* one append per byte, and the receiver reads
                               * the array back one byte at a time */
        MARSHAL_APPEND_PER_ELEMENT,  /* one append per byte, as 004 found
                               * sdbus-c++ did before its PR #340; the receiver
                               * takes the array whole (one fixed-array read),
                               * the closest to 004's server, which never read it */
        MARSHAL_COPY,         /* strings built as an application builds them:
                               * GDBus g_variant_new("(s)", str), which copies
                               * and validates the text, as seed 001's client
                               * did (TRANSPORT_COPY_STRING: GDBus) */
} Marshal;

/* Does the sender append a byte array one element at a time?  (The
 * receiver reads it per element only with MARSHAL_PER_ELEMENT.) */
static inline bool marshal_appends_per_element(Marshal m)
{
        return m == MARSHAL_PER_ELEMENT || m == MARSHAL_APPEND_PER_ELEMENT;
}

typedef enum {
        CPUS_NONE,   /* unpinned */
        CPUS_SAME,   /* client and server on one CPU */
        CPUS_SPLIT,  /* client and server on two different CPUs */
} CpuPlacement;

/* How the two roles run (roles=): each in a forked process of its own,
 * or as two threads of one forked process (runner.c). */
typedef enum {
        ROLES_PROCESSES,
        ROLES_THREADS,
} Roles;

typedef enum {
        BUS_NONE,          /* not a D-Bus transport */
        BUS_DBUS_DAEMON,
        BUS_DBUS_BROKER,
        BUS_P2P,
} BusKind;

/* One point of the matrix: everything a single measurement needs.  Every
 * field but index is an axis of axis_table. */
typedef struct {
        guint index;              /* position in the expanded matrix */
        const char *transport;    /* name in the transport table */
        BusKind bus;
        PayloadType payload;
        guint64 size;             /* payload bytes per message */
        Pattern pattern;
        ReplyKind reply;
        Marshal marshal;
        CpuPlacement cpus;
        Roles roles;
        guint64 count;            /* messages, or 0 when duration_ns is set */
        guint64 duration_ns;      /* time box, or 0 when count is set */
} Cell;

typedef enum {
        AXIS_TRANSPORT,  /* a transport's name (const char * in Cell) */
        AXIS_NAMES,      /* one of `values` (an enum in Cell, its index) */
        AXIS_SIZE,       /* bytes, written with units (4KiB) in files */
        AXIS_COUNT,      /* a whole number */
        AXIS_DURATION,   /* nanoseconds, written 500ms in files */
        AXIS_PLACE,      /* chosen by the run, not the file (env, machine):
                          * no field of Cell, a name in rows */
} AxisType;

/* One value of an axis that only some transports take (marshal=copy:
 * gdbus), and what a cell or a file that asks for it without one is
 * told.  A row of an axis's `needs`, which a row with refused NULL ends. */
typedef struct {
        guint value;                 /* the value (an enum's index) */
        unsigned takes;              /* transport flags: a transport with one of them takes it */
        int payload;                 /* the payload it needs (PayloadType), or -1: any */
        const char *refused;         /* a cell whose transport does not take it */
        const char *payload_refused; /* a cell of another payload (NULL: refused) */
        const char *unlisted;        /* a file that lists it and no transport that takes it */
} AxisValueNeed;

typedef struct {
        ColumnId column;             /* its column: name, unit, label, selector key */
        AxisType type;
        const char *const *values;   /* AXIS_NAMES: the names, in the enum's order, NULL-ended */
        size_t offset;               /* where Cell holds it (not AXIS_PLACE) */
        unsigned takes;              /* transport flags (TRANSPORT_DBUS ...): only a
                                      * transport with one of them takes it, the others
                                      * hold 0 (its first value); 0: every transport */
        const char *takes_who;       /* those transports, for the file's mistake of
                                      * giving it with none listed ("D-Bus transports") */
        const AxisValueNeed *needs;  /* values only some transports take, or NULL */
        const char *old;             /* what samples.tsv written before the column
                                      * existed holds, or NULL: there from the start */
        const char *dash;            /* what "-" in a row means to a selector's = and
                                      * != (bus: none), or NULL: "-" only */
        const char *usual;           /* the value a description leaves out (array), or NULL */
        guint describe;              /* where cell_describe (and so the configuration
                                      * hash) puts it, 1 first; 0: not described */
        bool labelled;               /* described as key=value (else the value alone) */
        bool noted_bare;             /* `ipclab verify`'s notes give its value alone
                                      * ("dbus-broker", "4 KiB"), else key=value */
        bool of_kind;                /* it changes what a message costs: a run's
                                      * estimate (estimate.c) takes recorded
                                      * per-message times of cells that agree on it
                                      * (not size: interpolated between; not cpus:
                                      * the same if any, else any) */
        /* Does it apply to CELL (else "-" in rows)?  NULL: always. */
        bool (*applies)(const Cell *cell);
        /* Is it in CELL's description, where it applies and is not
         * usual?  NULL: yes. */
        bool (*described)(const Cell *cell);
        /* Its key in [experiment] and profiles (experiment.c makes it a
         * row of the file's option table: a list of the type's values,
         * AXIS_NAMES and AXIS_PLACE of `values`).  help NULL: not a key
         * of the file (machine). */
        const char *help;            /* for `ipclab keys` */
        const char *def;             /* when the file leaves it out, or NULL: it
                                      * holds its first value (0) and files
                                      * without it keep their configuration hash */
        bool required;
        guint64 min, max;            /* a number's bounds, inclusive */
} Axis;

/* The longest duration= (and timeout=, auto_cap=): an hour, in ns. */
#define AXIS_MAX_DURATION ((guint64) 3600 * G_USEC_PER_SEC * 1000)
/* The largest size= (D-Bus itself allows 128 MiB) and count=. */
#define AXIS_MAX_SIZE ((guint64) 256 << 20)
#define AXIS_MAX_COUNT ((guint64) 1000000000)

/* More axes than this: raise it. */
#define AXIS_MAX 32

extern const Axis axis_table[];
extern const size_t axis_count;

/* The names of the AXIS_NAMES axes and of env, as experiment files and
 * samples.tsv write them. */
extern const char *const axis_bus_values[];
extern const char *const axis_payload_values[];
extern const char *const axis_pattern_values[];
extern const char *const axis_reply_values[];
extern const char *const axis_marshal_values[];
extern const char *const axis_cpus_values[];
extern const char *const axis_roles_values[];
extern const char *const axis_env_values[];

/* The axis whose selector key or column name is KEY, or NULL. */
const Axis *axis_find(const char *key);
/* The axis of column ID, or NULL. */
const Axis *axis_of_column(ColumnId id);
/* Its selector key ("size") and column name ("size_B"). */
const char *axis_key(const Axis *a);
const char *axis_column(const Axis *a);

/* A's value in CELL as a number: an enum's index, a size, a count, ns;
 * 0 for a transport and for AXIS_PLACE. */
guint64 axis_get(const Axis *a, const Cell *cell);
/* Sets A's value in CELL to N (not AXIS_TRANSPORT or AXIS_PLACE). */
void axis_set(const Axis *a, Cell *cell, guint64 n);

/* A's value in CELL as samples.tsv writes it ("-" where it does not
 * apply), or NULL for AXIS_PLACE.  Newly allocated. */
char *axis_cell_text(const Axis *a, const Cell *cell);

/* Sets A's value in CELL from TEXT, as samples.tsv writes it (the
 * inverse of axis_cell_text): "-" reads as its first value (0); a
 * transport's name is pointed at, not copied, so TEXT must outlive CELL.
 * AXIS_PLACE sets nothing.  False when TEXT is none of A's values. */
bool axis_cell_read(const Axis *a, Cell *cell, const char *text);

/* A string that differs between any two cells that differ in an axis. */
char *axis_cell_key(const Cell *cell);

/* "pipe bus=p2p roundtrip bytes size=64 reply=echo count=1000": CELL's
 * axes in the order of their `describe`, each where it applies, is
 * described, and is not usual.  What the configuration hash reads. */
char *cell_describe(const Cell *cell);

/* VALUE of the axis whose column is COLUMN (a summary column; any
 * other column's value is returned as it is) as a reader reads it:
 * sizes as 64 B, 4 KiB, 1 MiB; durations in ms; counts from 10000 on
 * in groups of three; "-" as "none".  LATEX: with LaTeX's spaces (64~B,
 * 10\,000) and "-" as "--"; VALUE is then already escaped.  Newly
 * allocated. */
char *axis_format_value(const char *column, const char *value, bool latex);
/* A value S as a number, or NAN when it is not one whole. */
double axis_value_number(const char *s);

/* "transport, bus, ..., env, machine": every selector key, for messages.
 * Newly allocated. */
char *axis_keys_text(void);

/* Names of enum values, as written in experiment files and samples.tsv. */
const char *pattern_name(Pattern p);
const char *payload_name(PayloadType p);
const char *reply_name(ReplyKind r);
const char *marshal_name(Marshal m);
const char *cpus_name(CpuPlacement c);
const char *roles_name(Roles r);
const char *bus_name(BusKind b);
const char *env_name(EnvKind e);

/* Parses "4096", "4KiB", "1MiB", "64B"; returns false when malformed. */
bool parse_size(const char *s, guint64 *out);
/* Parses "500ms", "2s", "100us", "1m"; returns false when malformed. */
bool parse_duration(const char *s, guint64 *out_ns);
