/* axes-table.h: the axis registry, one row per axis.
 *
 * Each row is one axis, in samples.tsv's column order:
 *
 *   X(ID, column name, unit, label, selector key, the Axis fields...)
 *
 * The first five make its column: COL_ID (columns.h) and its row of
 * column_table (columns.c), the name samples.tsv's header and the
 * summary give it, its unit, the label of axes, legends and table heads,
 * and the key selectors and experiment files use.  The rest are the
 * fields of its Axis (axes.h): its type and values, where a Cell holds
 * it, which transports take it, what old data holds, how a description
 * prints it, and its key's help, default and bounds.  axes.c makes
 * axis_table of them; the values, needs and applies functions the rows
 * name are defined there.
 *
 * Adding an axis: its row here, its field in Cell (axes.h), and in the
 * transports that take it (README.md, "Adding an axis").
 */
#pragma once

#define IPCLAB_AXES(X) \
        X(ENV, "env", "", "environment", "env",                                                                 \
          .type = AXIS_PLACE, .values = axis_env_values, .usual = "host", .def = "host",                        \
          .help = "where it runs: an environment `ipclab list` names (host, a container, a VM); "               \
                  "a list runs every cell in each (--env picks one)")                                           \
        /* Like env, where a cell runs is chosen by the run (--host, --slurm),                                  \
         * not the file; data written before the column gets the machine its                                    \
         * meta.ini names (samples.c). */                                                                       \
        X(MACHINE, "machine", "", "machine", "machine",                                                         \
          .type = AXIS_PLACE)                                                                                   \
        X(TRANSPORT, "transport", "", "transport", "transport",                                                 \
          .type = AXIS_TRANSPORT, .offset = AT(transport), .describe = 1, .noted_bare = true, .of_kind = true,  \
          .required = true, .help = "axis: transports (see `ipclab list`)")                                     \
        X(BUS, "bus", "", "bus", "bus",                                                                         \
          .type = AXIS_NAMES, .values = axis_bus_values, .offset = AT(bus), .takes = IPCLAB_TRANSPORT_DBUS,     \
          .takes_who = "D-Bus transports", .dash = "none", .describe = 2, .labelled = true, .noted_bare = true, \
          .of_kind = true, .applies = bus_applies, .def = "dbus-daemon",                                        \
          .help = "axis, D-Bus transports only: dbus-daemon, dbus-broker, p2p")                                 \
        X(PAYLOAD, "payload", "", "payload type", "payload",                                                    \
          .type = AXIS_NAMES, .values = axis_payload_values, .offset = AT(payload), .describe = 4,              \
          .noted_bare = true, .of_kind = true, .def = "bytes",                                                  \
          .help = "axis: bytes (D-Bus ay) or string (D-Bus s)")                                                 \
        X(SIZE_B, "size_B", "B", "message size", "size",                                                        \
          .type = AXIS_SIZE, .offset = AT(size), .describe = 5, .labelled = true, .noted_bare = true,           \
          .described = has_payload, .def = "64", .min = 1, .max = AXIS_MAX_SIZE,                                \
          .help = "axis: payload bytes per message (64, 4KiB, 1MiB)")                                           \
        X(PATTERN, "pattern", "", "message pattern", "pattern",                                                 \
          .type = AXIS_NAMES, .values = axis_pattern_values, .offset = AT(pattern), .describe = 3,              \
          .noted_bare = true, .of_kind = true, .def = "roundtrip",                                              \
          .help = "axis: oneway, roundtrip, callrate")                                                          \
        X(REPLY, "reply", "", "reply", "reply",                                                                 \
          .type = AXIS_NAMES, .values = axis_reply_values, .offset = AT(reply), .needs = reply_needs,           \
          .dash = "echo", .describe = 6, .labelled = true, .applies = reply_applies, .described = is_roundtrip, \
          .def = "echo",                                                                                        \
          .help = "axis, round trips: echo the payload, reply empty, or short (the string OK; gdbus)")          \
        X(MARSHAL, "marshal", "", "marshalling", "marshal",                                                     \
          .type = AXIS_NAMES, .values = axis_marshal_values, .offset = AT(marshal), .needs = marshal_needs,     \
          .usual = "array", .describe = 7, .labelled = true, .of_kind = true, .def = "array",                   \
          .help = "axis: array (whole), per-element (append and read per byte), append-per-element "            \
                  "(append per byte, read whole) for D-Bus ay; copy (gdbus strings built with "                 \
                  "g_variant_new)")                                                                             \
        X(CPUS, "cpus", "", "CPU placement", "cpus",                                                            \
          .type = AXIS_NAMES, .values = axis_cpus_values, .offset = AT(cpus), .usual = "none", .describe = 8,   \
          .labelled = true, .def = "none",                                                                      \
          .help = "axis: none (unpinned), same (one CPU), split (two CPUs)")                                    \
        /* Client and server as two processes or as two threads of one                                          \
         * (runner.c).  No default in the file: a file without the key keeps                                    \
         * the config_sha256 it had before the key existed (processes). */                                      \
        X(ROLES, "roles", "", "client and server as", "roles",                                                  \
          .type = AXIS_NAMES, .values = axis_roles_values, .offset = AT(roles), .old = "processes",             \
          .usual = "processes", .describe = 9, .labelled = true, .of_kind = true,                               \
          .help = "axis: processes (client and server each a forked process; the default) or threads "          \
                  "(two threads of one forked process), for the transports that can (see `ipclab check`)")      \
        X(COUNT, "count", "", "messages per repetition", "count",                                               \
          .type = AXIS_COUNT, .offset = AT(count), .dash = "0", .describe = 10, .labelled = true,               \
          .applies = count_applies, .min = 1, .max = AXIS_MAX_COUNT,                                            \
          .help = "axis: messages per repetition (exactly one of count and duration)")                          \
        X(DURATION_NS, "duration_ns", "ns", "duration of a repetition", "duration",                             \
          .type = AXIS_DURATION, .offset = AT(duration_ns), .dash = "0", .describe = 11, .labelled = true,      \
          .applies = duration_applies, .min = 1000, .max = AXIS_MAX_DURATION,                                   \
          .help = "axis: time box per repetition, 500ms (exactly one of count and duration)")
