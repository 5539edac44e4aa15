/* runner-fork.c: the processes and threads of a repetition: pinning, the
 * server's and the client's processes or (roles=threads) threads, the
 * private directory, forking, and collecting their reports. */
#include "runner-internal.h"

int runner_pin(int cpu)
{
        cpu_set_t set;

        if (cpu < 0)
                return 0;
        CPU_ZERO(&set);
        CPU_SET(cpu, &set);
        return sched_setaffinity(0, sizeof set, &set) < 0 ? -errno : 0;
}

/* The CPUs for server and client under PLACEMENT: -1 for unpinned. */
int runner_choose_cpus(CpuPlacement placement, int *server, int *client)
{
        cpu_set_t set;
        int first = -1, second = -1;

        *server = *client = -1;
        if (placement == CPUS_NONE)
                return 0;
        if (sched_getaffinity(0, sizeof set, &set) < 0)
                return -errno;
        for (int i = 0; i < CPU_SETSIZE; i++) {
                if (!CPU_ISSET(i, &set))
                        continue;
                if (first < 0)
                        first = i;
                else if (second < 0)
                        second = i;
        }
        if (placement == CPUS_SPLIT && second < 0)
                return -ERANGE;
        *server = first;
        *client = placement == CPUS_SPLIT ? second : first;
        return 0;
}

/* Pins the bus daemon (every thread) for a cell whose server is on CPU
 * SERVER (runner_choose_cpus; -1: unpinned): to the server's CPU, so that
 * cpus=same puts all three processes on one CPU and cpus=split the bus
 * with the server (placement.h); unpinned, back to ipclab's own mask.
 * The bus serves every cell of a run, so this is done per repetition.
 * 0, or -errno with OUT failed. */
int runner_pin_bus(Bus *bus, BusKind kind, int server, Sample *out)
{
        cpu_set_t set;
        int r = 0;

        CPU_ZERO(&set);
        if (server >= 0)
                CPU_SET(server, &set);
        else if (sched_getaffinity(0, sizeof set, &set) < 0)
                r = -errno;
        if (r == 0)
                r = placement_pin_process(bus_get_pid(bus), &set);
        if (r < 0)
                runner_report_fail(out, r, "cannot pin the %s (pid %d): %s", bus_name(kind), (int) bus_get_pid(bus),
                            g_strerror(-r));
        return r;
}

/* Start of every side: die with the parent, take the CPU. */
static void child_setup(int cpu, pid_t parent)
{
        spawn_child_start(parent);
        signal(SIGINT, SIG_IGN);   /* the parent decides what an interrupt does */
        runner_pin(cpu);
}

void runner_report_write(int fd, const Sample *s)
{
        (void) !write(fd, s, sizeof *s);
        close(fd);
}

static void child_report(int fd, const Sample *s)
{
        runner_report_write(fd, s);
        _exit(0);
}

static void pair_server_up(Pair *p);

/* The server's part: open, the READY byte on REPORT_FD, every message
 * until the end of the stream, close; *S is its report. */
static void server_role(Ctx *c, int report_fd, Sample *s)
{
        char ready = READY_BYTE;

        sample_init(s);
        int r = c->t->open(c->ep, ROLE_SERVER);
        if (r < 0) {
                runner_report_fail(s, r, "server open: %s", c->ep->why);
                return;
        }
        if (c->lat && c->stamp_len)
                memset(c->lat, 0, c->lat_cap * sizeof *c->lat);   /* fault the pages in now */
        c->sh->srv_end_cpu = -1;   /* the shared page too */
        if (c->pair)
                pair_server_up(c->pair);
        if (write(report_fd, &ready, 1) != 1)
                _exit(1);
        while ((r = runner_server_step(c, s)) > 0)
                ;
        s->messages = c->srv_messages;
        if (c->t->close)
                c->t->close(c->ep);
}

/* The client's part: open, the pattern, close; *S is its report. */
static void client_role(Ctx *c, Sample *s)
{
        sample_init(s);
        if (c->t->flags & TRANSPORT_INPROCESS)
                (void) c->t->open(c->ep, ROLE_SERVER);
        int r = c->t->open(c->ep, ROLE_CLIENT);
        if (r < 0) {
                runner_report_fail(s, r, "client open: %s", c->ep->why);
                return;
        }
        runner_client_run(c, s);
        if (c->t->close)
                c->t->close(c->ep);
}

static void server_child(Ctx *c, int report_fd)
{
        Sample s;

        server_role(c, report_fd, &s);
        child_report(report_fd, &s);
}

static void client_child(Ctx *c, int report_fd)
{
        Sample s;

        client_role(c, &s);
        child_report(report_fd, &s);
}

/* ---- roles=threads: both roles as threads of one forked process ---- */

/* The server thread is open: the client may start, and read its clock. */
static void pair_server_up(Pair *p)
{
        pthread_mutex_lock(&p->lock);
        p->srv_tid = gettid();
        p->srv_clk_ok = pthread_getcpuclockid(pthread_self(), &p->srv_clk) == 0;
        p->srv_up = true;
        pthread_cond_broadcast(&p->cond);
        pthread_mutex_unlock(&p->lock);
}

static void *pair_server(void *arg)
{
        Pair *p = arg;
        Sample s;

        runner_pin(p->cpu_server);
        server_role(&p->srv, p->srv_fd, &s);
        runner_report_write(p->srv_fd, &s);
        pthread_mutex_lock(&p->lock);
        p->srv_over = true;
        pthread_cond_broadcast(&p->cond);
        pthread_mutex_unlock(&p->lock);
        return NULL;
}

static void *pair_client(void *arg)
{
        Pair *p = arg;
        Sample s;

        runner_pin(p->cpu_client);
        client_role(&p->cli, &s);
        runner_report_write(p->cli_fd, &s);
        return NULL;
}

/* DST: a copy of the prepared endpoint SRC for one role's thread, every
 * fd of fd[] duplicated (close-on-exec), so that each role closes its
 * own as it would after fork (transport.h).  0 or -errno. */
static int endpoint_for_thread(const Endpoint *src, Endpoint *dst)
{
        *dst = *src;
        dst->buf = NULL;
        dst->buf_size = 0;
        dst->why[0] = '\0';
        for (size_t i = 0; i < G_N_ELEMENTS(dst->fd); i++) {
                if (src->fd[i] < 0)
                        continue;
                dst->fd[i] = fcntl(src->fd[i], F_DUPFD_CLOEXEC, 0);
                if (dst->fd[i] < 0) {
                        int e = errno;
                        for (size_t j = 0; j < i; j++)
                                if (src->fd[j] >= 0)
                                        io_close(&dst->fd[j]);
                        return -e;
                }
        }
        return 0;
}

/* The forked process of roles=threads: the server thread, once it is
 * open the client thread, each pinned as the processes would be and
 * reporting on its own pipe; returns when both are done. */
static void pair_run(Ctx *c, int srv_fd, int cli_fd, int cpu_server, int cpu_client)
{
        static Pair p;   /* one per process, and large: not on the stack */
        pthread_t srv_thread, cli_thread;
        Sample s;
        int r;

        p.srv_fd = srv_fd;
        p.cli_fd = cli_fd;
        p.cpu_server = cpu_server;
        p.cpu_client = cpu_client;
        pthread_mutex_init(&p.lock, NULL);
        pthread_cond_init(&p.cond, NULL);
        r = endpoint_for_thread(c->ep, &p.srv_ep);
        if (r == 0) {
                r = endpoint_for_thread(c->ep, &p.cli_ep);
                if (r < 0)
                        for (size_t i = 0; i < G_N_ELEMENTS(p.srv_ep.fd); i++)
                                io_close(&p.srv_ep.fd[i]);
        }
        /* Each role holds its own duplicates now. */
        for (size_t i = 0; i < G_N_ELEMENTS(c->ep->fd); i++)
                io_close(&c->ep->fd[i]);
        p.srv = *c;
        p.srv.ep = &p.srv_ep;
        p.srv.pair = &p;
        p.cli = *c;
        p.cli.ep = &p.cli_ep;
        p.cli.pair = &p;
        if (r == 0)
                r = -pthread_create(&srv_thread, NULL, pair_server, &p);
        if (r < 0) {
                sample_init(&s);
                runner_report_fail(&s, r, "roles=threads: cannot start the server thread: %s", g_strerror(-r));
                runner_report_write(srv_fd, &s);
                close(cli_fd);
                return;
        }
        pthread_mutex_lock(&p.lock);
        while (!p.srv_up && !p.srv_over)
                pthread_cond_wait(&p.cond, &p.lock);
        bool up = p.srv_up;
        pthread_mutex_unlock(&p.lock);
        r = up ? -pthread_create(&cli_thread, NULL, pair_client, &p) : -ECANCELED;
        if (r < 0 && up) {
                sample_init(&s);
                runner_report_fail(&s, r, "roles=threads: cannot start the client thread: %s", g_strerror(-r));
                runner_report_write(cli_fd, &s);
        } else if (r < 0) {
                close(cli_fd);   /* the server failed, and says why */
        }
        pthread_join(srv_thread, NULL);
        if (r == 0)
                pthread_join(cli_thread, NULL);
}

/* The longest name a transport gives a socket in its private directory
 * ("seqpacket.sock"), with room to spare. */
#define PRIVATE_NAME_MAX 16

/* The start time of process PID (clock ticks since boot, /proc/PID/stat
 * field 22), or 0 when there is no such process. */
static guint64 process_start_time(pid_t pid)
{
        g_autofree char *path = g_strdup_printf("/proc/%d/stat", (int) pid);
        g_autofree char *text = NULL;

        if (!g_file_get_contents(path, &text, NULL, NULL))
                return 0;
        /* The command name, in parentheses, may hold spaces: count the
         * fields from the last ')', which ends field 2. */
        const char *p = strrchr(text, ')');
        if (!p)
                return 0;
        g_auto(GStrv) f = g_strsplit(p + 2, " ", 0);
        return g_strv_length(f) > 19 ? g_ascii_strtoull(f[19], NULL, 10) : 0;
}

/* Removes the ipclab-XXXXXX directories under BASE that a run of ours
 * (same uid) left when it was killed: their owner file names a process
 * (pid, start time) that is gone.  One without an owner file (older
 * ipclab, or one being made this instant) goes once it is a minute old. */
static void remove_stale_dirs(const char *base)
{
        g_autoptr(GDir) d = g_dir_open(base, 0, NULL);
        const char *name;

        if (!d)
                return;
        while ((name = g_dir_read_name(d))) {
                struct stat st;
                g_autofree char *path = g_build_filename(base, name, NULL);
                g_autofree char *owner_path = g_build_filename(path, "owner", NULL);
                g_autofree char *owner = NULL;

                if (!g_str_has_prefix(name, "ipclab-") || strlen(name) != strlen("ipclab-XXXXXX") ||
                    lstat(path, &st) < 0 || !S_ISDIR(st.st_mode) || st.st_uid != geteuid())
                        continue;
                if (g_file_get_contents(owner_path, &owner, NULL, NULL)) {
                        guint64 pid = 0, start = 0;
                        if (sscanf(owner, "%" SCNu64 " %" SCNu64, &pid, &start) != 2 ||
                            (pid > 0 && pid <= G_MAXINT && process_start_time((pid_t) pid) == start))
                                continue;
                } else if (time(NULL) - st.st_mtime < 60) {
                        continue;
                }
                samples_remove_dir(path);
        }
}

/* Makes the private directory of one repetition (0700): its sockets and
 * FIFOs go there.  Under $XDG_RUNTIME_DIR, else $TMPDIR, else /tmp, the
 * first writable one where a socket path still fits in sun_path (108
 * bytes: a long TMPDIR would break every socket transport).  It holds a
 * file "owner": our pid and start time, so that the next run can tell a
 * directory a killed run left (see remove_stale_dirs).  Returns NULL with
 * *WHY saying why nothing fitted. */
char *runner_make_private_dir(char **why)
{
        static bool swept;
        const char *cands[] = { g_getenv("XDG_RUNTIME_DIR"), g_getenv("TMPDIR"), "/tmp" };
        const char *names[] = { "$XDG_RUNTIME_DIR", "$TMPDIR", "/tmp" };
        const size_t room = sizeof(((struct sockaddr_un *) 0)->sun_path);
        g_autoptr(GString) tried = g_string_new(NULL);

        for (size_t i = 0; i < G_N_ELEMENTS(cands); i++) {
                const char *base = cands[i];
                if (!base || base[0] != '/')
                        continue;
                g_autofree char *tmpl = g_build_filename(base, "ipclab-XXXXXX", NULL);
                if (strlen(tmpl) + 1 + PRIVATE_NAME_MAX >= room) {
                        g_string_append_printf(tried, "%s%s (%zu bytes)", tried->len ? ", " : "",
                                               names[i], strlen(base));
                        continue;
                }
                if (access(base, W_OK | X_OK) != 0) {
                        g_string_append_printf(tried, "%s%s: %s", tried->len ? ", " : "", names[i],
                                               g_strerror(errno));
                        continue;
                }
                if (!swept)
                        remove_stale_dirs(base);
                if (!g_mkdtemp_full(tmpl, 0700)) {
                        g_string_append_printf(tried, "%s%s: %s", tried->len ? ", " : "", names[i],
                                               g_strerror(errno));
                        continue;
                }
                swept = true;
                g_autofree char *owner = g_build_filename(tmpl, "owner", NULL);
                g_autofree char *who = g_strdup_printf("%d %" PRIu64 "\n", (int) getpid(),
                                                       process_start_time(getpid()));
                if (!g_file_set_contents(owner, who, -1, NULL)) {
                        g_string_append_printf(tried, "%s%s: cannot write its owner file", tried->len ? ", " : "",
                                               names[i]);
                        samples_remove_dir(tmpl);
                        continue;
                }
                return g_steal_pointer(&tmpl);
        }
        *why = g_strdup_printf("no directory where a socket path fits in sun_path (%zu bytes): %s; "
                               "set TMPDIR to a short writable directory",
                               room, tried->len ? tried->str : "none of $XDG_RUNTIME_DIR, $TMPDIR, /tmp is set");
        return NULL;
}

/* Forks the server's or the client's process, or (roles=threads) the one
 * process of both (pair_run), pinned to CPU (the pair's client thread to
 * CPU_CLIENT).  CH[0] gets its pid and report pipe; the pair's CH[0] and
 * CH[1] get its pid and the server's and the client's report pipes. */
pid_t runner_spawn(Ctx *c, Child *ch, SpawnKind kind, int cpu, int cpu_client)
{
        int p[2][2] = { { -1, -1 }, { -1, -1 } };
        size_t n = kind == SPAWN_PAIR ? 2 : 1;
        pid_t parent = getpid(), pid = -1;
        int e = 0;

        for (size_t i = 0; i < n && !e; i++)
                if (pipe2(p[i], O_CLOEXEC) < 0)
                        e = errno;
        if (!e) {
                fflush(NULL);
                if ((pid = fork()) < 0)
                        e = errno;
        }
        if (e) {
                for (size_t i = 0; i < n; i++)
                        for (size_t j = 0; j < 2; j++)
                                if (p[i][j] >= 0)
                                        close(p[i][j]);
                return -e;
        }
        if (pid == 0) {
                for (size_t i = 0; i < n; i++)
                        close(p[i][0]);
                child_setup(cpu, parent);
                if (kind == SPAWN_SERVER)
                        server_child(c, p[0][1]);
                else if (kind == SPAWN_CLIENT)
                        client_child(c, p[0][1]);
                else
                        pair_run(c, p[0][1], p[1][1], cpu, cpu_client);
                _exit(0);
        }
        for (size_t i = 0; i < n; i++) {
                close(p[i][1]);
                ch[i].pid = pid;
                ch[i].fd = p[i][0];
        }
        return pid;
}

gint64 runner_deadline_us(guint64 deadline)
{
        return (gint64) ((deadline + 999) / 1000);
}

/* Waits until one of the N descriptors FDS (-1: skipped) is readable, by
 * DEADLINE or an interrupt (then -ETIMEDOUT or -EINTR): only these wake
 * it, nothing on a timer of its own, so that it does not wake in a
 * window.  The index of a readable one, or -errno. */
static int runner_watch(const int *fds, size_t n, guint64 deadline)
{
        sigset_t stop;

        spawn_stop_signals(&stop);
        return spawn_watch_signals(NULL, fds, n, runner_deadline_us(deadline), &stop, spawn_stop_check, NULL);
}

/* Waits until CH's READY byte arrives; false on exit or time limit. */
bool runner_wait_ready(Child *ch, guint64 deadline)
{
        for (;;) {
                guint64 now = runner_now_ns();
                if (now >= deadline || spawn_interrupted)
                        return false;
                int r = runner_watch(&ch->fd, 1, deadline);
                if (r == -EINTR || r == -ETIMEDOUT)
                        continue;
                if (r < 0)
                        return false;
                char b;
                ssize_t n = read(ch->fd, &b, 1);
                if (n == 1 && b == READY_BYTE)
                        return true;
                if (n <= 0 && errno != EINTR)
                        return false;
        }
}

/* Reads reports from the children until all are in, or the deadline.
 * When one side fails or dies, its peer gets PEER_GRACE_NS to report or
 * die on its own (it may have failed first, or died first) and is then
 * killed: over a bus, a datagram socket or a message queue it cannot tell
 * and would wait for the time limit.  Returns false when the time limit
 * struck or ipclab was interrupted. */
#define PEER_GRACE_NS 500000000u
bool runner_collect(Child *ch, size_t n, guint64 deadline)
{
        guint64 grace = 0;
        int fds[2];

        g_assert(n <= G_N_ELEMENTS(fds));
        for (;;) {
                size_t open_n = 0;
                for (size_t i = 0; i < n; i++) {
                        fds[i] = ch[i].fd;
                        open_n += ch[i].fd >= 0;
                }
                if (!open_n)
                        return true;
                guint64 now = runner_now_ns();
                if (now >= deadline || spawn_interrupted)
                        return false;
                if (grace && now >= grace) {
                        for (size_t j = 0; j < n; j++) {
                                if (ch[j].fd >= 0 && ch[j].pid > 0) {
                                        kill(ch[j].pid, SIGKILL);
                                        ch[j].killed = true;
                                }
                        }
                        grace = G_MAXUINT64;   /* their fds end now */
                }
                int r = runner_watch(fds, n, MIN(deadline, grace ? grace : deadline));
                if (r == -EINTR || r == -ETIMEDOUT)
                        continue;
                if (r < 0)
                        return false;
                Child *got = &ch[r];
                ssize_t k = read(got->fd, &got->s, sizeof got->s);
                if (k == (ssize_t) sizeof got->s)
                        got->have_report = true;
                close(got->fd);
                got->fd = -1;
                if ((!got->have_report || got->s.status < 0) && !grace)
                        grace = runner_now_ns() + PEER_GRACE_NS;
        }
}

void runner_reap(pid_t pid, bool kill_first, int *status)
{
        SpawnChild c;

        spawn_adopt(pid, -1, false, &c);
        if (kill_first)
                spawn_end(&c, 0, status);
        else
                spawn_wait(&c, 0, 0, NULL, NULL, NULL, status);
}

void runner_describe_exit(int status, char *buf, size_t len)
{
        if (WIFSIGNALED(status))
                snprintf(buf, len, "killed by signal %d (%s)", WTERMSIG(status), strsignal(WTERMSIG(status)));
        else
                snprintf(buf, len, "exited with status %d", WEXITSTATUS(status));
}

Bus *runner_bus(Runner *r, BusKind kind, Sample *out)
{
        if (r->bus[kind] && !bus_is_alive(r->bus[kind]))
                g_clear_pointer(&r->bus[kind], bus_stop);
        if (!r->bus[kind] && !r->bus_error[kind]) {
                g_autoptr(GError) e = NULL;
                r->bus[kind] = bus_start(kind, &e);
                if (!r->bus[kind])
                        r->bus_error[kind] = g_strdup(e->message);
        }
        if (!r->bus[kind])
                runner_report_fail(out, EHOSTDOWN, "%s", r->bus_error[kind]);
        return r->bus[kind];
}
