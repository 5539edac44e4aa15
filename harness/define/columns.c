/* columns.c: the column schema (see columns.h). */
#include "columns.h"

#include <math.h>
#include <string.h>

#include "sample.h"
#include "suggest.h"

#define S COLUMN_IN_SAMPLES
#define M COLUMN_IN_SUMMARY
#define CI COLUMN_HAS_CI
#define ABSENT0 COLUMN_ABSENT_ZERO
#define MEAN COLUMN_MEAN
#define POSITIVE COLUMN_POSITIVE
#define OPTIONAL COLUMN_OPTIONAL
#define WORD COLUMN_WORD
/* A measured number's field in a Sample.  Offset 0 is the status, never
 * a number, so 0 can mean none. */
#define FIELD(m) .sample = offsetof(Sample, m)
_Static_assert(offsetof(Sample, status) == 0, "a Sample's offset 0 is no number");

/* ---- Derived metrics: one repetition's value from its columns ----------- */

/* MiB/s from bytes_B, elapsed_ns. */
static double throughput_mibps(const double *v)
{
        return v[1] > 0 ? v[0] / (v[1] / 1e9) / 1048576.0 : NAN;
}

/* 1/s from messages, elapsed_ns. */
static double rate_per_s(const double *v)
{
        return v[1] > 0 ? v[0] / (v[1] / 1e9) : NAN;
}

/* ns from client_cpu_ns, server_cpu_ns, bus_cpu_ns, messages. */
static double cpu_ns_per_msg(const double *v)
{
        return v[3] > 0 ? (v[0] + v[1] + v[2]) / v[3] : NAN;
}

const Column column_table[] = {
        [COL_EXPERIMENT] = { "experiment", COLUMN_ID, "", "experiment", NULL, M },
        [COL_CELL] = { "cell", COLUMN_ID, "", "cell", NULL, S },
        [COL_REP] = { "rep", COLUMN_ID, "", "repetition", NULL, S },

        /* Every axis, from its row in axes-table.h. */
#define AXIS_COLUMN_(id, name, unit, label, key, ...) [COL_##id] = { name, COLUMN_AXIS, unit, label, key, S | M },
        IPCLAB_AXES(AXIS_COLUMN_)
#undef AXIS_COLUMN_

        [COL_STATUS] = { "status", COLUMN_MEASURED, "", "outcome", NULL, S | WORD },
        [COL_ELAPSED_NS] = { "elapsed_ns", COLUMN_MEASURED, "ns", "elapsed time", NULL, S | M | CI,
                             .better = BETTER_LOWER, .claim = "elapsed", .format = "%.0f", FIELD(elapsed_ns) },
        [COL_CLIENT_CPU_NS] = { "client_cpu_ns", COLUMN_MEASURED, "ns", "client CPU time", NULL, S | M | MEAN,
                                .better = BETTER_LOWER, .format = "%.0f", FIELD(client_cpu_ns) },
        [COL_SERVER_CPU_NS] = { "server_cpu_ns", COLUMN_MEASURED, "ns", "server CPU time", NULL,
                                S | M | MEAN | ABSENT0, .better = BETTER_LOWER, .format = "%.0f",
                                FIELD(server_cpu_ns) },
        [COL_BUS_CPU_NS] = { "bus_cpu_ns", COLUMN_MEASURED, "ns", "bus CPU time", NULL, S | M | MEAN | ABSENT0,
                             .better = BETTER_LOWER, .format = "%.0f", FIELD(bus_cpu_ns) },
        [COL_MESSAGES] = { "messages", COLUMN_MEASURED, "", "messages delivered", NULL, S | M, .format = "%.0f",
                           FIELD(messages) },
        [COL_BYTES_B] = { "bytes_B", COLUMN_MEASURED, "B", "payload bytes delivered", NULL, S, FIELD(bytes) },
        [COL_LAT_N] = { "lat_n", COLUMN_MEASURED, "", "latencies recorded", NULL, S, FIELD(lat_n) },
        [COL_LAT_MIN_NS] = { "lat_min_ns", COLUMN_MEASURED, "ns", "latency, minimum", NULL, S, FIELD(lat_min_ns) },
        [COL_LAT_P50_NS] = { "lat_p50_ns", COLUMN_MEASURED, "ns", "latency, median", NULL, S | M | CI,
                             .better = BETTER_LOWER, .claim = "roundtrip_latency", .patterns = "roundtrip",
                             .cells = "only round-trip cells", .format = "%.0f", FIELD(lat_p50_ns) },
        [COL_LAT_P90_NS] = { "lat_p90_ns", COLUMN_MEASURED, "ns", "latency, 90th percentile", NULL, S | M,
                             .better = BETTER_LOWER, .format = "%.0f", FIELD(lat_p90_ns) },
        [COL_LAT_P99_NS] = { "lat_p99_ns", COLUMN_MEASURED, "ns", "latency, 99th percentile", NULL, S | M | CI,
                             .better = BETTER_LOWER, .format = "%.0f", FIELD(lat_p99_ns) },
        [COL_LAT_P999_NS] = { "lat_p999_ns", COLUMN_MEASURED, "ns", "latency, 99.9th percentile", NULL, S | M,
                              .better = BETTER_LOWER, .format = "%.0f", FIELD(lat_p999_ns) },
        [COL_LAT_MAX_NS] = { "lat_max_ns", COLUMN_MEASURED, "ns", "latency, maximum", NULL, S, FIELD(lat_max_ns) },
        /* Where a repetition ran (placement.h) and what its window holds
         * besides its messages (runner.c): a window of one message, timed
         * like the main one just before it. */
        [COL_FIXED_NS] = { "fixed_ns", COLUMN_MEASURED, "ns", "one-message window", NULL, S | M | OPTIONAL,
                           .format = "%.0f", FIELD(fixed_ns) },
        [COL_PLACEMENT] = { "placement", COLUMN_MEASURED, "", "CPU placement observed", NULL, S | M | WORD },
        [COL_CLIENT_ON_CPU] = { "client_on_cpu", COLUMN_MEASURED, "", "client's CPU", NULL, S | OPTIONAL,
                                FIELD(client_on_cpu) },
        [COL_SERVER_ON_CPU] = { "server_on_cpu", COLUMN_MEASURED, "", "server's CPU", NULL, S | OPTIONAL,
                                FIELD(server_on_cpu) },
        [COL_BUS_ON_CPU] = { "bus_on_cpu", COLUMN_MEASURED, "", "bus daemon's CPU", NULL, S | OPTIONAL,
                             FIELD(bus_on_cpu) },
        [COL_MIGRATIONS] = { "migrations", COLUMN_MEASURED, "", "CPU migrations in the window", NULL, S | OPTIONAL,
                             FIELD(migrations) },
        [COL_WHY] = { "why", COLUMN_MEASURED, "", "reason for failure", NULL, S | WORD },

        [COL_N] = { "n", COLUMN_SUMMARY, "", "repetitions", NULL, M },
        [COL_FAILED] = { "failed", COLUMN_SUMMARY, "", "failed repetitions", NULL, M },
        [COL_THROUGHPUT_MIBPS] = { "throughput_MiBps", COLUMN_SUMMARY, "MiB/s", "throughput", NULL,
                                   M | CI | POSITIVE, .better = BETTER_HIGHER, .claim = "throughput",
                                   .patterns = "oneway,roundtrip", .cells = "only one-way and round-trip cells",
                                   .from = { COL_BYTES_B, COL_ELAPSED_NS }, .compute = throughput_mibps },
        [COL_RATE_PER_S] = { "rate_per_s", COLUMN_SUMMARY, "1/s", "calls per second", NULL, M | CI,
                             .better = BETTER_HIGHER, .claim = "callrate", .patterns = "callrate",
                             .cells = "only pattern=callrate cells", .from = { COL_MESSAGES, COL_ELAPSED_NS },
                             .compute = rate_per_s },
        [COL_CPU_NS_PER_MSG] = { "cpu_ns_per_msg", COLUMN_SUMMARY, "ns", "CPU time per message", NULL, M | MEAN,
                                 .better = BETTER_LOWER, .claim = "cpu",
                                 .from = { COL_CLIENT_CPU_NS, COL_SERVER_CPU_NS, COL_BUS_CPU_NS, COL_MESSAGES },
                                 .compute = cpu_ns_per_msg, .format = "%.1f" },
        [COL_MEMCPY_MIBPS] = { "memcpy_MiBps", COLUMN_SUMMARY, "MiB/s", "memcpy bandwidth", NULL, M },
        [COL_THROUGHPUT_MIBPS_HMEAN] = { "throughput_MiBps_hmean", COLUMN_SUMMARY, "MiB/s",
                                         "throughput, all repetitions pooled", NULL, M, .better = BETTER_HIGHER },
        [COL_RATE_PER_S_HMEAN] = { "rate_per_s_hmean", COLUMN_SUMMARY, "1/s",
                                   "calls per second, all repetitions pooled", NULL, M, .better = BETTER_HIGHER },
        /* From latencies.tsv.gz: every message of every repetition in one
         * histogram (exact pooling), beside lat_p50_ns ..., which are
         * medians over the repetitions of each one's percentile. */
        [COL_POOLED_P50_NS] = { "pooled_p50_ns", COLUMN_SUMMARY, "ns", "latency, median, all messages pooled", NULL, M,
                                .better = BETTER_LOWER, .format = "%.0f" },
        [COL_POOLED_P90_NS] = { "pooled_p90_ns", COLUMN_SUMMARY, "ns",
                                "latency, 90th percentile, all messages pooled", NULL, M,
                                .better = BETTER_LOWER, .format = "%.0f" },
        [COL_POOLED_P99_NS] = { "pooled_p99_ns", COLUMN_SUMMARY, "ns",
                                "latency, 99th percentile, all messages pooled", NULL, M,
                                .better = BETTER_LOWER, .format = "%.0f" },
        [COL_POOLED_P999_NS] = { "pooled_p999_ns", COLUMN_SUMMARY, "ns",
                                 "latency, 99.9th percentile, all messages pooled", NULL, M,
                                .better = BETTER_LOWER, .format = "%.0f" },
        [COL_POOLED_MAX_NS] = { "pooled_max_ns", COLUMN_SUMMARY, "ns", "latency, maximum of all messages", NULL, M,
                                .better = BETTER_LOWER, .format = "%.0f" },
        /* fixed_ns / elapsed_ns, median over the repetitions: what share of
         * the window the one-message window bounds; placement_modes counts
         * the repetitions of each placement ("same:3,split:4"), placement
         * is their one mode or "mixed". */
        [COL_FIXED_SHARE] = { "fixed_share", COLUMN_SUMMARY, "", "one-message window over the window", NULL, M,
                              .format = "%.4f" },
        [COL_PLACEMENT_MODES] = { "placement_modes", COLUMN_SUMMARY, "", "repetitions per CPU placement", NULL, M },
        [COL_N_COLUMNS] = { NULL },
};

const Column *column_find(const char *name)
{
        for (const Column *c = column_table; c->name; c++)
                if (!strcmp(c->name, name))
                        return c;
        return NULL;
}

const Column *column_find_key(const char *key)
{
        for (const Column *c = column_table; c->name; c++)
                if (c->kind == COLUMN_AXIS && (!strcmp(c->key, key) || !strcmp(c->name, key)))
                        return c;
        return NULL;
}

char *column_hint(const char *name, bool axes_only)
{
        Suggest s;

        suggest_init(&s, name);
        for (const Column *c = column_table; c->name; c++) {
                if (axes_only && c->kind != COLUMN_AXIS)
                        continue;
                suggest_consider(&s, c->name);
                suggest_consider(&s, c->key);
        }
        return suggest_hint(&s);
}

const Column *column_find_interval(const char *name, int *upper)
{
        size_t len = strlen(name);

        if (len < 4 || name[len - 3] != '_' || (strcmp(name + len - 2, "lo") && strcmp(name + len - 2, "hi")))
                return NULL;
        for (const Column *c = column_table; c->name; c++) {
                if ((c->flags & COLUMN_HAS_CI) && strlen(c->name) == len - 3 &&
                    !strncmp(c->name, name, len - 3)) {
                        *upper = name[len - 2] == 'h';
                        return c;
                }
        }
        return NULL;
}

const char *column_kind_name(ColumnKind kind)
{
        switch (kind) {
        case COLUMN_ID:
                return "id";
        case COLUMN_AXIS:
                return "axis";
        case COLUMN_MEASURED:
                return "measured";
        case COLUMN_SUMMARY:
                return "summary";
        }
        return "?";
}

const char *column_better_name(ColumnBetter better)
{
        return better == BETTER_LOWER ? "lower" : better == BETTER_HIGHER ? "higher" : "-";
}
