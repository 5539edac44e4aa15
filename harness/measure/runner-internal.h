/* runner-internal.h: what the pieces of the runner share (runner.c describes
 * the runner; runner-window.c, runner-fork.c and runner-command.c are its parts). */
#pragma once

#include "runner.h"

#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <poll.h>
#include <pthread.h>
#include <sched.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/mman.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/time.h>
#include <sys/un.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "bus.h"
#include "placement.h"
#include "spawn.h"
#include "samples.h"
#include "stats.h"
#include "transport.h"

/* What the server hands the client (and the client the parent) beside
 * the ack, in memory shared by the runner and both children (mapped
 * before they are forked): the ack's fixed 128 bytes hold no more. */
typedef struct {
        guint64 t0;               /* client: where the main window opened */
        guint64 fixed_end_ns;     /* server: receipt of the fixed window's message */
        guint64 in_window;        /* server, duration-boxed one-way: the messages
                                   * received by t0 + duration */
        int srv_end_cpu;          /* server, one-way: sched_getcpu() where its part
                                   * of the window ended; -1 */
        PlacementProc srv_after;  /* server, one-way: its threads and the bus's */
        PlacementProc bus_after;  /* at the end of the stream */
} Shared;

struct Runner {
        const Experiment *exp;
        Shared *shared;           /* MAP_SHARED: see Shared */
        /* Every round-trip latency of the last repetition, sorted: shared
         * with the client, which writes them there; grown as cells need. */
        guint64 *lat;
        size_t lat_cap, lat_n;
        int *stage;               /* MAP_SHARED: where the supervisor is (Stage) */
        Bus *bus[BUS_P2P + 1];
        char *bus_error[BUS_P2P + 1];   /* why a bus could not start */
};

/* messages, bytes, checksum, and where a one-way window closed: the
 * server's clock, its CPU clock and the bus daemon's CPU clock; fixed
 * width, within the 128 bytes every transport's smallest message holds. */
#define ACK_FORMAT "ipclab-ack %016" PRIx64 " %016" PRIx64 " %016" PRIx64 " %016" PRIx64 \
        " %016" PRIx64 " %016" PRIx64
#define ACK_SCAN "ipclab-ack %16" SCNx64 " %16" SCNx64 " %16" SCNx64 " %16" SCNx64 \
        " %16" SCNx64 " %16" SCNx64
#define ACK_LEN (10 + 6 * 17)
_Static_assert(ACK_LEN <= IPCLAB_TRANSPORT_ACK_MAX, "the ack is larger than ipclab/transport.h promises");
#define READY_BYTE 'R'
/* One-message windows before the main one (runner_client_run): the last is
 * fixed_ns. */
#define FIXED_WINDOWS 2
/* Latencies kept per duration-boxed or one-way repetition (the first
 * ones): 32 MiB.  A round-trip count is checked against the machine's
 * memory when the file is loaded; a one-way count is not, and may be far
 * larger than any buffer. */
#define LATENCY_CAP ((guint64) 1 << 22)

/* Where the FNV-1a checksum of the payloads starts (checksum_update, runner-window.c). */
#define CHECKSUM_INIT 14695981039346656037ull

typedef struct Pair Pair;

typedef struct {
        const Experiment *exp;
        const Transport *t;
        const Cell *cell;
        Endpoint *ep;
        Shared *sh;               /* the runner's shared memory */
        size_t req_size, rep_size;
        size_t stamp_len;         /* one-way: bytes of each payload holding its send time, or 0 */
        guint64 *lat;             /* the runner's shared latency buffer, lat_cap entries */
        size_t lat_cap;
        guint64 untimed;          /* warm-up + the fixed window's message: the
                                   * messages before the main window */
        /* server state, for TRANSPORT_INPROCESS also used inline */
        guint64 srv_messages, srv_bytes, srv_checksum;
        pid_t srv_pid;            /* the server process, for its CPU clock; 0 in process
                                   * and with roles=threads */
        Pair *pair;               /* roles=threads: the process of both threads, else NULL */
        guint64 srv_last;         /* untimed + count: the last timed message; 0 if unknown */
        guint64 srv_cpu1, srv_end_ns, srv_bus1;   /* one-way: where the window closed */
        guint64 srv_deadline;     /* duration-boxed one-way: t0 + duration, once known */
        bool srv_past;            /* duration-boxed one-way: a message came after it */
        bool srv_done;
        /* The server's ack; it outlives runner_server_step() because a transport
         * may hand it over by pointer (direct does). */
        char srv_ack[ACK_LEN + 1];
} Ctx;

/* roles=threads (see the top of runner.c): one forked process, its two
 * roles each a thread with a context and an endpoint of its own. */
struct Pair {
        Ctx srv, cli;
        Endpoint srv_ep, cli_ep;
        int srv_fd, cli_fd;       /* each role's report pipe */
        int cpu_server, cpu_client;
        pthread_mutex_t lock;
        pthread_cond_t cond;
        bool srv_up;              /* the server is open: srv_tid and srv_clk are set */
        bool srv_over;            /* the server thread has reported */
        pid_t srv_tid;
        clockid_t srv_clk;        /* the server thread's CPU clock ... */
        bool srv_clk_ok;          /* ... where pthread_getcpuclockid() gave it */
};

typedef struct {
        pid_t pid;
        int fd;
        Sample s;
        bool have_report;
        bool killed;              /* by the runner, for its peer or the time limit */
        int status;               /* from waitpid() */
        const char *role;
} Child;

typedef enum {
        SPAWN_SERVER,
        SPAWN_CLIENT,
        SPAWN_PAIR,     /* roles=threads: both, as threads of one process */
} SpawnKind;

/* Where the supervisor is, for the runner to name when it dies: in
 * ipclab's code (STAGE_RUN) or in a hook of the transport. */
typedef enum {
        STAGE_RUN,
        STAGE_PREPARE,
        STAGE_CLOSE,
        STAGE_CLEANUP,
        STAGE_COMMAND,
} Stage;

/* How long the supervisor may take beyond its hooks' and its sides'
 * time limits (reaping both sides, writing its report) before the runner
 * kills it; and, once ipclab is interrupted, to end the repetition. */
#define SUPERVISOR_SLACK_NS 5000000000u
#define INTERRUPT_GRACE_NS 2000000000u

/* What the runner sets up in its own process for one repetition, before
 * the supervisor is forked (runner_run): nothing of the transport runs
 * here, only ipclab's code. */
typedef struct {
        const Transport *t;
        const Cell *cell;
        Bus *bus;                 /* the cell's bus, or NULL */
        int cpu_server, cpu_client;
        char *dir;                /* the repetition's private directory */
        guint64 *lat;             /* the runner's latency buffer, or NULL */
        size_t lat_cap;
} Rep;

/* runner-window.c */
guint64 runner_now_ns(void);
guint64 runner_proc_cpu_ns(pid_t pid);
size_t runner_request_size(const Transport *t, const Cell *cell);
size_t runner_reply_size(const Transport *t, const Cell *cell);
void runner_payload_fill(char *buf, size_t len, PayloadType type);
size_t runner_stamp_size(const Cell *cell);
void runner_report_fail(Sample *s, int err, const char *fmt, ...) G_GNUC_PRINTF(3, 4);
guint64 runner_server_cpu_ns(const Ctx *c);
int runner_server_step(Ctx *c, Sample *s);
void runner_sample_latencies(Sample *s, guint64 *lat, size_t n);
void runner_client_run(Ctx *c, Sample *s);

/* runner-fork.c */
int runner_pin(int cpu);
int runner_choose_cpus(CpuPlacement placement, int *server, int *client);
int runner_pin_bus(Bus *bus, BusKind kind, int server, Sample *out);
void runner_report_write(int fd, const Sample *s);
char *runner_make_private_dir(char **why);
pid_t runner_spawn(Ctx *c, Child *ch, SpawnKind kind, int cpu, int cpu_client);
/* DEADLINE (runner_now_ns()) as spawn_watch() takes it (rounded up). */
gint64 runner_deadline_us(guint64 deadline);
/* Reaps PID, a child of this process, into *STATUS, SIGKILLed first when
 * KILL_FIRST (spawn_end()). */
void runner_reap(pid_t pid, bool kill_first, int *status);
bool runner_wait_ready(Child *ch, guint64 deadline);
bool runner_collect(Child *ch, size_t n, guint64 deadline);
void runner_describe_exit(int status, char *buf, size_t len);
Bus *runner_bus(Runner *r, BusKind kind, Sample *out);

/* runner-command.c */
void runner_command_repetition(Runner *runner, const Rep *rp, Sample *out);

/* runner.c */
int runner_latency_buffer(Runner *runner, size_t n);
void runner_hook_enter(Runner *runner, Stage stage, guint64 limit_ns);
void runner_hook_leave(Runner *runner);
guint64 runner_time_left(guint64 deadline);
