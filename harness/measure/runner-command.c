/* runner-command.c: runner=hyperfine cells: the cell's command run by
 * hyperfine against ipclab's server, its JSON export read into a Sample. */
#include "runner-internal.h"

/* The numbers of the JSON array KEY ("times": [ ... ]) in TEXT. */
static GArray *json_numbers(const char *text, const char *key)
{
        g_autofree char *needle = g_strdup_printf("\"%s\":", key);
        GArray *v = g_array_new(FALSE, FALSE, sizeof(double));
        const char *p = strstr(text, needle);

        if (!p || !(p = strchr(p, '[')))
                return v;
        for (p++; *p && *p != ']';) {
                char *end;
                double d = g_ascii_strtod(p, &end);
                if (end == p) {
                        p++;
                        continue;
                }
                g_array_append_val(v, d);
                p = end;
        }
        return v;
}

static double json_number(const char *text, const char *key)
{
        g_autofree char *needle = g_strdup_printf("\"%s\":", key);
        const char *p = strstr(text, needle);
        return p ? g_ascii_strtod(p + strlen(needle), NULL) : 0;
}

/* What hyperfine's child needs before its exec. */
typedef struct {
        int cpu;
        const char *bus_address;
} HyperfineChild;

static void hyperfine_setup(void *data)
{
        const HyperfineChild *hc = data;

        prctl(PR_SET_PDEATHSIG, SIGKILL);
        runner_pin(hc->cpu);   /* hyperfine and every command it starts */
        /* Never the user's session bus: ours, for tools that only find a
         * bus through the environment. */
        setenv("DBUS_SESSION_BUS_ADDRESS", hc->bus_address, 1);
}

/* Runs hyperfine for RUNS runs of CMD with no warm-up of its own, pinned
 * to CPU (-1: unpinned), exporting JSON (when not NULL); 0, or fails OUT.
 * Its output goes to LOG, which the failure message quotes. */
static int hyperfine_exec(const Cell *cell, const Endpoint *ep, const char *cmd, guint64 runs,
                          const char *json, const char *log, int cpu, guint64 deadline, Sample *out)
{
        g_autofree char *n = g_strdup_printf("%" G_GUINT64_FORMAT, runs);
        const char *argv[16] = { "hyperfine", "-N", "--style", "none", "--runs", n, "--warmup", "0",
                                 "--command-name", cell->transport };
        size_t argc = 10;
        int status = 0;

        if (json) {
                argv[argc++] = "--export-json";
                argv[argc++] = json;
        }
        argv[argc++] = "--";
        argv[argc++] = cmd;
        argv[argc] = NULL;

        int fd = open(log, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0600);
        HyperfineChild hc = { .cpu = cpu, .bus_address = ep->bus_address };
        SpawnOpts o = { .argv = argv, .in_fd = -1, .out_fd = fd, .err_fd = fd, .new_group = true,
                        .setup = hyperfine_setup, .data = &hc };
        SpawnChild child;
        int r = spawn_start(&o, &child);
        if (fd >= 0)
                close(fd);
        if (r < 0) {
                runner_report_fail(out, -r, "hyperfine: %s", g_strerror(-r));
                return -1;
        }
        r = spawn_wait(&child, (gint64) (deadline / 1000), 0, NULL, spawn_stop_check, NULL, &status);
        if (r < 0) {
                runner_report_fail(out, r == -EINTR ? EINTR : ETIMEDOUT, "%s",
                            r == -EINTR ? "interrupted" : "hyperfine exceeded the time limit");
                return -1;
        }
        if (!WIFEXITED(status) || WEXITSTATUS(status) != 0) {
                g_autofree char *l = NULL;
                g_file_get_contents(log, &l, NULL, NULL);
                runner_report_fail(out, EIO, "hyperfine failed: %s", l ? g_strstrip(l) : "no output");
                return -1;
        }
        return 0;
}

/* The timed part of run_command_cell(): the warm-up runs in a hyperfine
 * of their own, then the timed runs, with the server's and the bus's CPU
 * clocks read around the timed runs only. */
static void command_time(Runner *runner, const Cell *cell, const Transport *t, Endpoint *ep,
                         Child *srv, int cpu, guint64 deadline, Sample *out)
{
        g_autofree char *payload = g_malloc(cell->size + 1);
        runner_payload_fill(payload, cell->size, PAYLOAD_STRING);
        runner_hook_enter(runner, STAGE_COMMAND, runner_time_left(deadline));
        g_autofree char *cmd = t->command(ep->bus_address, payload);
        runner_hook_leave(runner);
        g_autofree char *json = g_build_filename(ep->dir, "hyperfine.json", NULL);
        g_autofree char *log = g_build_filename(ep->dir, "hyperfine.log", NULL);

        /* hyperfine makes at least two runs. */
        if (runner->exp->warmup &&
            hyperfine_exec(cell, ep, cmd, MAX(runner->exp->warmup, 2u), NULL, log, cpu, deadline, out) < 0)
                return;
        guint64 bus0 = runner_proc_cpu_ns(ep->bus_pid);
        guint64 srv0 = runner_proc_cpu_ns(srv->pid);
        int r = hyperfine_exec(cell, ep, cmd, cell->count, json, log, cpu, deadline, out);
        guint64 srv1 = runner_proc_cpu_ns(srv->pid);
        guint64 bus1 = runner_proc_cpu_ns(ep->bus_pid);
        if (r < 0)
                return;
        g_autofree char *text = NULL;
        if (!g_file_get_contents(json, &text, NULL, NULL)) {
                runner_report_fail(out, EIO, "hyperfine wrote no %s", json);
                return;
        }
        g_autoptr(GArray) times = json_numbers(text, "times");
        if (times->len != cell->count) {
                runner_report_fail(out, EPROTO, "hyperfine reported %u runs, %" G_GUINT64_FORMAT " were asked for",
                            times->len, cell->count);
                return;
        }
        if (runner_latency_buffer(runner, times->len) < 0) {
                runner_report_fail(out, ENOMEM, "latency buffer of %u entries", times->len);
                return;
        }
        double sum = 0;
        for (guint i = 0; i < times->len; i++) {
                double s = g_array_index(times, double, i);
                sum += s;
                runner->lat[i] = (guint64) (s * 1e9);
        }
        out->elapsed_ns = (guint64) (sum * 1e9);
        out->messages = times->len;
        out->bytes = times->len * cell->size;
        /* The commands' CPU: hyperfine's mean user + system time of the
         * runs (the kernel's total at each exit is exact; only its split
         * is sampled) times the runs. */
        out->client_cpu_ns = (guint64) ((json_number(text, "user") + json_number(text, "system")) *
                                        1e9 * times->len);
        out->server_cpu_ns = srv1 > srv0 ? srv1 - srv0 : 0;
        out->bus_cpu_ns = bus1 > bus0 ? bus1 - bus0 : 0;
        runner_sample_latencies(out, runner->lat, times->len);
}

/* A runner=hyperfine repetition, in the supervisor: ipclab serves
 * org.ipclab.Bench with the libdbus transport's server on the private
 * bus, hyperfine starts the cell's command COUNT times, and its JSON
 * export becomes one Sample: elapsed is the sum of the runs, latencies
 * are the runs' durations, the client's CPU is hyperfine's mean user and
 * system time times the runs. */
void runner_command_repetition(Runner *runner, const Rep *rp, Sample *out)
{
        const Cell *cell = rp->cell;
        const guint64 limit = runner->exp->timeout_ns;
        Cell srv_cell = *cell;
        Endpoint ep;
        Ctx c = { .exp = runner->exp, .t = &transport_libdbus, .cell = &srv_cell, .ep = &ep,
                  .sh = runner->shared, .srv_checksum = CHECKSUM_INIT };
        Child srv = { .pid = -1, .fd = -1, .role = "server" };

        srv_cell.transport = transport_libdbus.name;
        srv_cell.reply = REPLY_EMPTY;
        srv_cell.pattern = PATTERN_ROUNDTRIP;
        IpclabCell seen;
        transport_cell(&srv_cell, &seen);
        endpoint_init(&ep, &seen);
        c.req_size = cell->size;
        c.rep_size = 0;
        ep.bus_address = bus_get_address(rp->bus);
        ep.bus_pid = bus_get_pid(rp->bus);
        ep.dir = rp->dir;
        guint64 deadline = runner_now_ns() + limit;
        runner_hook_enter(runner, STAGE_PREPARE, limit);
        int r = transport_libdbus.prepare ? transport_libdbus.prepare(&ep) : 0;
        runner_hook_leave(runner);
        if (r < 0) {
                runner_report_fail(out, r, "prepare: %s", ep.why);
                goto done;
        }
        r = runner_spawn(&c, &srv, SPAWN_SERVER, rp->cpu_server, -1);
        if (r < 0) {
                runner_report_fail(out, r, "fork: %s", g_strerror(-r));
                goto done;
        }
        if (!runner_wait_ready(&srv, deadline)) {
                runner_report_fail(out, EIO, "the server did not become ready");
                goto reap;
        }

        /* The commands run where hyperfine does, on the client's CPU. */
        command_time(runner, cell, rp->t, &ep, &srv, rp->cpu_client, deadline, out);
reap:
        if (srv.pid > 0)
                runner_reap(srv.pid, true, &(int) { 0 });
        if (srv.fd >= 0)
                close(srv.fd);
        if (transport_libdbus.close) {
                runner_hook_enter(runner, STAGE_CLOSE, limit);
                transport_libdbus.close(&ep);
                runner_hook_leave(runner);
        }
        if (transport_libdbus.cleanup) {
                runner_hook_enter(runner, STAGE_CLEANUP, limit);
                transport_libdbus.cleanup(&ep);
                runner_hook_leave(runner);
        }
done:
        free(ep.buf);   /* ipclab_endpoint_buffer() realloc()s it */
}
