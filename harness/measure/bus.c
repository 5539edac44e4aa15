/* bus.c: private dbus-daemon and dbus-broker instances, one per run.
 *
 * bus_start() prepares a 0700 directory, then forks a guardian process.
 * The guardian starts the daemon (an argv array, PR_SET_PDEATHSIG), waits
 * until it accepts connections, reports "R <pid>" (or "E <reason>") over a
 * socketpair, and then watches three things: that socketpair (EOF or any
 * byte: bus_stop() wants the bus gone), ipclab itself (a pidfd and
 * getppid(): ipclab returned, crashed or was killed) and the daemon (a
 * pidfd and SIGCHLD: it died).  On any of them it stops the daemon, reaps
 * it, removes the directory and exits.  The guardian lives in its own
 * process group, holds none of ipclab's fds, and never returns into
 * ipclab's code.
 *
 * dbus-daemon gets a configuration file written here: one Unix socket in
 * the directory, EXTERNAL authentication only, no service directories, a
 * policy that lets our uid own any name and send and receive anything, and
 * limits large enough for 1 MiB payloads and long one-way streams.
 *
 * dbus-broker has no configuration file: it is driven through its
 * controller socket, as dbus-broker(1) documents.  The guardian connects a
 * libdbus peer connection to a throw-away listening socket in the
 * directory, accepts the other end and hands that end to the broker as
 * --controller.  It then calls org.bus1.DBus.Broker.AddListener with the
 * bus socket (created here, already listening) and a policy that gives our
 * uid everything, and keeps the connection for the rest of the run to
 * answer what the broker may call on /org/bus1/DBus/Controller.  The broker
 * exits when that connection closes.
 *
 * The guardian's code is in bus-guardian.c, what both files share in
 * bus-internal.h.  Nothing here prints; errors go to GError
 * (IPCLAB_ERROR_RUN).
 */
#include "bus-internal.h"

static const char *bus_program_name(BusKind kind)
{
        return kind == BUS_DBUS_BROKER ? "dbus-broker" : "dbus-daemon";
}

/* TIMEOUT_MS from now, as spawn_watch() takes it. */
gint64 bus_deadline(int timeout_ms)
{
        return g_get_monotonic_time() + (gint64) timeout_ms * 1000;
}

/* What is left until DEADLINE (bus_deadline()), in whole ms. */
int bus_remaining_ms(gint64 deadline)
{
        gint64 left = (deadline - g_get_monotonic_time()) / 1000;

        return left < 0 ? 0 : (int) MIN(left, (gint64) G_MAXINT);
}

/* Full path of the daemon binary (PATH first, then the usual places), or
 * NULL.  The caller frees it. */
static char *bus_find_program(BusKind kind)
{
        static const char *const dirs[] = { "/usr/bin", "/usr/local/bin", "/bin" };
        const char *name = bus_program_name(kind);
        char *path = g_find_program_in_path(name);

        for (size_t i = 0; !path && i < G_N_ELEMENTS(dirs); i++) {
                char *p = g_build_filename(dirs[i], name, NULL);

                if (access(p, X_OK) == 0)
                        path = p;
                else
                        g_free(p);
        }
        return path;
}

const char *bus_unavailable(BusKind kind)
{
        g_autofree char *program = NULL;

        switch (kind) {
        case BUS_DBUS_DAEMON:
                program = bus_find_program(kind);
                return program ? NULL :
                       "dbus-daemon is not installed (apt-get install dbus-daemon)";
        case BUS_DBUS_BROKER:
                program = bus_find_program(kind);
                return program ? NULL :
                       "dbus-broker is not installed (apt-get install dbus-broker)";
        case BUS_NONE:
        case BUS_P2P:
                break;
        }
        /* Nothing to start, so nothing is missing. */
        return NULL;
}

char *bus_version(BusKind kind)
{
        g_autofree char *program = NULL;
        g_autofree char *out = NULL;
        g_auto(GStrv) lines = NULL;
        g_auto(GStrv) words = NULL;
        guint n;

        if (kind != BUS_DBUS_DAEMON && kind != BUS_DBUS_BROKER)
                return NULL;
        program = bus_find_program(kind);
        if (!program)
                return NULL;

        const char *argv[] = { program, "--version", NULL };
        if (spawn_helper(argv, SPAWN_HELPER_TIMEOUT_MS, &out) < 0)
                return g_strdup_printf("%s (unknown version)", bus_program_name(kind));

        /* "D-Bus Message Bus Daemon 1.14.10" or "dbus-broker 33": the
         * version is the last word of the first line. */
        lines = g_strsplit(out, "\n", 2);
        words = g_strsplit_set(g_strstrip(lines[0]), " \t", -1);
        n = g_strv_length(words);
        if (n == 0 || words[n - 1][0] == '\0')
                return g_strdup_printf("%s (unknown version)", bus_program_name(kind));
        return g_strdup_printf("%s %s", bus_program_name(kind), words[n - 1]);
}

/* Creates the bus's private directory: under $XDG_RUNTIME_DIR when it is
 * set and writable, else under /tmp; mode 0700. */
static char *bus_make_dir(GError **error)
{
        const char *runtime = g_getenv("XDG_RUNTIME_DIR");
        const char *bases[2];
        size_t n = 0;
        int err = 0;

        if (runtime && runtime[0] == '/' && access(runtime, W_OK | X_OK) == 0)
                bases[n++] = runtime;
        bases[n++] = "/tmp";

        for (size_t i = 0; i < n; i++) {
                g_autofree char *dir = g_build_filename(bases[i], "ipclab-bus-XXXXXX", NULL);

                /* DIR/controller, its longest path, must fit in sun_path. */
                if (strlen(dir) + strlen("/controller") >= sizeof(((struct sockaddr_un *) 0)->sun_path)) {
                        err = ENAMETOOLONG;
                        continue;
                }
                if (!mkdtemp(dir)) {
                        err = errno;
                        continue;
                }
                if (chmod(dir, 0700) < 0) {
                        err = errno;
                        rmdir(dir);
                        continue;
                }
                return g_steal_pointer(&dir);
        }
        g_set_error(error, IPCLAB_ERROR, IPCLAB_ERROR_RUN,
                    "cannot create a private bus directory under %s%s: %s "
                    "(make /tmp writable, or set XDG_RUNTIME_DIR to a short writable directory)",
                    n > 1 ? runtime : "/tmp", n > 1 ? " or /tmp" : "", g_strerror(err));
        return NULL;
}

/* "unix:path=PATH" with PATH escaped as the D-Bus address syntax wants. */
char *bus_unix_address(const char *path)
{
        char *escaped = dbus_address_escape_value(path);
        char *address;

        if (!escaped)
                return NULL;
        address = g_strdup_printf("unix:path=%s", escaped);
        dbus_free(escaped);
        return address;
}

/* A listening Unix stream socket at PATH; returns the fd or -errno. */
int bus_unix_listen(const char *path, int flags)
{
        struct sockaddr_un sa = { .sun_family = AF_UNIX };
        int fd, r;

        if (strlen(path) >= sizeof(sa.sun_path))
                return -ENAMETOOLONG;
        memcpy(sa.sun_path, path, strlen(path) + 1);

        fd = socket(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC | flags, 0);
        if (fd < 0)
                return -errno;
        if (bind(fd, (struct sockaddr *) &sa, sizeof(sa)) < 0 || listen(fd, SOMAXCONN) < 0) {
                r = -errno;
                close(fd);
                return r;
        }
        return fd;
}

static char *daemon_config(const char *socket_path)
{
        g_autofree char *listen_address = bus_unix_address(socket_path);
        g_autofree char *listen_xml = g_markup_escape_text(listen_address, -1);
        unsigned long uid = (unsigned long) getuid();

        return g_strdup_printf(
                "<!DOCTYPE busconfig PUBLIC \"-//freedesktop//DTD D-Bus Bus Configuration 1.0//EN\"\n"
                " \"http://www.freedesktop.org/standards/dbus/1.0/busconfig.dtd\">\n"
                "<!-- A private bus for one ipclab run; removed with its directory. -->\n"
                "<busconfig>\n"
                "  <type>ipclab</type>\n"
                "  <listen>%s</listen>\n"
                "  <auth>EXTERNAL</auth>\n"
                "  <!-- No service directories: nothing can be activated.  Only the uid\n"
                "       running the daemon (ours) may connect. -->\n"
                "  <policy user=\"%lu\">\n"
                "    <allow own=\"*\"/>\n"
                "    <allow send_type=\"method_call\"/>\n"
                "    <allow send_type=\"method_return\"/>\n"
                "    <allow send_type=\"error\"/>\n"
                "    <allow send_type=\"signal\"/>\n"
                "    <allow receive_type=\"method_call\"/>\n"
                "    <allow receive_type=\"method_return\"/>\n"
                "    <allow receive_type=\"error\"/>\n"
                "    <allow receive_type=\"signal\"/>\n"
                "  </policy>\n"
                "  <limit name=\"max_message_size\">" BUS_MESSAGE_MAX "</limit>\n"
                "  <limit name=\"max_incoming_bytes\">" BUS_QUEUE_MAX "</limit>\n"
                "  <limit name=\"max_outgoing_bytes\">" BUS_QUEUE_MAX "</limit>\n"
                "  <limit name=\"max_replies_per_connection\">100000</limit>\n"
                "  <limit name=\"max_names_per_connection\">10000</limit>\n"
                "  <limit name=\"max_match_rules_per_connection\">10000</limit>\n"
                "  <limit name=\"max_connections_per_user\">10000</limit>\n"
                "  <limit name=\"max_completed_connections\">10000</limit>\n"
                "</busconfig>\n",
                listen_xml, uid);
}

/* The machine id the broker advertises: the host's, else a random one (a
 * private bus needs no stable id). */
static char *bus_machine_id(void)
{
        static const char *const files[] = { "/etc/machine-id", "/var/lib/dbus/machine-id" };
        GString *id;

        for (size_t i = 0; i < G_N_ELEMENTS(files); i++) {
                g_autofree char *text = NULL;
                gboolean ok = TRUE;

                if (!g_file_get_contents(files[i], &text, NULL, NULL))
                        continue;
                g_strstrip(text);
                for (const char *p = text; *p; p++)
                        ok = ok && g_ascii_isxdigit(*p);
                if (ok && strlen(text) == 32)
                        return g_ascii_strdown(text, -1);
        }
        id = g_string_new(NULL);
        for (int i = 0; i < 4; i++)
                g_string_append_printf(id, "%08" PRIx32, g_random_int());
        return g_string_free(id, FALSE);
}

/* ---- ipclab's side ---- */

/* Has the daemon (not our child: the guardian's) ended?  A zombie counts. */
static gboolean bus_daemon_ended(const Bus *bus)
{
        g_autofree char *stat_path = NULL;
        g_autofree char *stat = NULL;
        const char *paren;

        if (bus->daemon <= 0)
                return TRUE;
        if (bus->daemon_pidfd >= 0) {
                struct pollfd p = { .fd = bus->daemon_pidfd, .events = POLLIN };

                return poll(&p, 1, 0) != 0;
        }
        if (kill(bus->daemon, 0) < 0 && errno == ESRCH)
                return TRUE;
        stat_path = g_strdup_printf("/proc/%ld/stat", (long) bus->daemon);
        if (!g_file_get_contents(stat_path, &stat, NULL, NULL))
                return TRUE;
        paren = strrchr(stat, ')');
        return paren && (paren[1] == ' ') && (paren[2] == 'Z' || paren[2] == 'X');
}

static void bus_kill_daemon(const Bus *bus)
{
        if (bus->daemon_pidfd >= 0)
                pidfd_send_signal(bus->daemon_pidfd, SIGKILL, NULL, 0);
        else if (bus->daemon > 0)
                kill(bus->daemon, SIGKILL);
}

/* SpawnCheck: stop waiting once the daemon has ended. */
static int bus_daemon_gone(void *bus)
{
        return bus_daemon_ended(bus) ? -ESRCH : 0;
}

gboolean bus_await_daemon(const Bus *bus, int timeout_ms)
{
        /* Its pidfd says at once; without one, the check looks. */
        return spawn_watch(NULL, &bus->daemon_pidfd, 1, bus_deadline(timeout_ms), bus_daemon_gone,
                           (void *) bus) != -ETIMEDOUT;
}

/* Reads the guardian's one-line report into BUF. */
static gboolean bus_read_report(Bus *bus, char *buf, size_t size, GError **error)
{
        gint64 deadline = bus_deadline(BUS_PARENT_TIMEOUT_MS);
        size_t len = 0;

        buf[0] = '\0';
        while (!memchr(buf, '\n', len)) {
                ssize_t n;
                int r = spawn_watch(NULL, &bus->control, 1, deadline, NULL, NULL);

                if (r == -ETIMEDOUT) {
                        g_set_error(error, IPCLAB_ERROR, IPCLAB_ERROR_RUN,
                                    "%s did not start within %d s (is the machine overloaded?)",
                                    bus_program_name(bus->kind), BUS_PARENT_TIMEOUT_MS / 1000);
                        return FALSE;
                }
                errno = -r;
                n = r < 0 ? -1 : read(bus->control, buf + len, size - 1 - len);
                if (n < 0 && errno == EINTR)
                        continue;
                if (n <= 0) {
                        g_set_error(error, IPCLAB_ERROR, IPCLAB_ERROR_RUN,
                                    "the guardian of %s ended without a report (%s)",
                                    bus_program_name(bus->kind),
                                    n < 0 ? g_strerror(errno) : "it crashed or was killed");
                        return FALSE;
                }
                len += (size_t) n;
                buf[len] = '\0';
                if (len == size - 1)
                        break;
        }
        g_strchomp(buf);
        return TRUE;
}

/* FD, moved above 2 when it is 0, 1 or 2 (ipclab may have run with one
 * of them closed): the guardian's 0, 1 and 2 are put in place over them. */
static int fd_above_stdio(int fd)
{
        if (fd < 0 || fd > 2)
                return fd;
        int moved = fcntl(fd, F_DUPFD_CLOEXEC, 3), e = errno;
        close(fd);
        errno = e;
        return moved < 0 ? -e : moved;
}

Bus *bus_start(BusKind kind, GError **error)
{
        g_autoptr(Bus) bus = NULL;
        g_autofree char *program = NULL;
        g_autofree char *socket_path = NULL;
        g_autofree char *config_path = NULL;
        g_autofree char *log_path = NULL;
        g_autofree char *machine_id = NULL;
        Guardian g = { .kind = kind, .listen_fd = -1, .log_fd = -1, .signal_fd = -1 };
        SpawnOpts o = { .in_fd = -1, .new_group = true, .run = bus_guardian_main, .data = &g };
        char report[2048];
        int sv[2] = { -1, -1 };

        if (kind != BUS_DBUS_DAEMON && kind != BUS_DBUS_BROKER) {
                g_set_error(error, IPCLAB_ERROR, IPCLAB_ERROR_RUN,
                            "bus_start: bus kind '%s' has no daemon to start", bus_name(kind));
                return NULL;
        }
        program = bus_find_program(kind);
        if (!program) {
                g_set_error(error, IPCLAB_ERROR, IPCLAB_ERROR_RUN, "%s", bus_unavailable(kind));
                return NULL;
        }

        bus = g_new0(Bus, 1);
        bus->kind = kind;
        bus->guardian.pid = -1;
        bus->daemon_pidfd = -1;
        bus->control = -1;
        bus->dir = bus_make_dir(error);
        if (!bus->dir)
                return NULL;
        socket_path = g_build_filename(bus->dir, "socket", NULL);
        bus->address = bus_unix_address(socket_path);
        log_path = g_build_filename(bus->dir, "daemon.log", NULL);

        if (kind == BUS_DBUS_DAEMON) {
                g_autofree char *config = daemon_config(socket_path);
                g_autoptr(GError) local = NULL;

                config_path = g_build_filename(bus->dir, "bus.conf", NULL);
                if (!g_file_set_contents(config_path, config, -1, &local)) {
                        g_set_error(error, IPCLAB_ERROR, IPCLAB_ERROR_RUN,
                                    "cannot write the dbus-daemon configuration: %s", local->message);
                        return NULL;
                }
        } else {
                machine_id = bus_machine_id();
                g.listen_fd = fd_above_stdio(bus_unix_listen(socket_path, SOCK_NONBLOCK));
                if (g.listen_fd < 0) {
                        g_set_error(error, IPCLAB_ERROR, IPCLAB_ERROR_RUN,
                                    "cannot listen on %s: %s", socket_path, g_strerror(-g.listen_fd));
                        return NULL;
                }
        }

        g.log_fd = fd_above_stdio(open(log_path, O_WRONLY | O_CREAT | O_APPEND | O_CLOEXEC, 0600));
        if (g.log_fd < 0 || socketpair(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0, sv) < 0 ||
            (sv[1] = fd_above_stdio(sv[1])) < 0) {
                g_set_error(error, IPCLAB_ERROR, IPCLAB_ERROR_RUN,
                            "cannot prepare the bus in %s: %s", bus->dir, g_strerror(errno));
                if (g.log_fd >= 0)
                        close(g.log_fd);
                if (g.listen_fd >= 0)
                        close(g.listen_fd);
                if (sv[0] >= 0)
                        close(sv[0]);
                return NULL;
        }

        g.program = program;
        g.dir = bus->dir;
        g.config = config_path;
        g.machine_id = machine_id;
        g.ipclab = getpid();
        g.control = sv[1];
        /* Its stdout and stderr are the log; it keeps nothing else of ours. */
        o.out_fd = o.err_fd = g.log_fd;

        int r = spawn_start(&o, &bus->guardian);
        close(sv[1]);
        close(g.log_fd);
        if (g.listen_fd >= 0)
                close(g.listen_fd);
        bus->control = sv[0];
        if (r < 0) {
                g_set_error(error, IPCLAB_ERROR, IPCLAB_ERROR_RUN,
                            "cannot fork the bus guardian: %s", g_strerror(-r));
                return NULL;
        }

        if (!bus_read_report(bus, report, sizeof(report), error))
                return NULL;
        if (report[0] == 'E') {
                g_set_error(error, IPCLAB_ERROR, IPCLAB_ERROR_RUN, "cannot start %s: %s",
                            bus_program_name(kind), report + 2);
                return NULL;
        }
        if (report[0] != 'R' || (bus->daemon = (pid_t) strtol(report + 2, NULL, 10)) <= 0) {
                g_set_error(error, IPCLAB_ERROR, IPCLAB_ERROR_RUN,
                            "the guardian of %s sent a garbled report: \"%s\"",
                            bus_program_name(kind), report);
                return NULL;
        }
        /* Optional (Linux >= 5.3, not under valgrind), but immune to pid
         * reuse. */
        bus->daemon_pidfd = pidfd_open(bus->daemon, 0);
        if (bus_daemon_ended(bus)) {
                g_set_error(error, IPCLAB_ERROR, IPCLAB_ERROR_RUN,
                            "%s (pid %ld) exited right after it started",
                            bus_program_name(kind), (long) bus->daemon);
                return NULL;
        }
        return g_steal_pointer(&bus);
}

const char *bus_get_address(const Bus *bus)
{
        return bus->address;
}

pid_t bus_get_pid(const Bus *bus)
{
        return bus->daemon;
}

gboolean bus_is_alive(const Bus *bus)
{
        return !bus_daemon_ended(bus);
}

void bus_stop(Bus *bus)
{
        int status;

        if (!bus)
                return;

        /* EOF on the socketpair, even while forked runner children still
         * hold copies of our end. */
        if (bus->control >= 0) {
                shutdown(bus->control, SHUT_RDWR);
                close(bus->control);
        }
        /* Past the deadline the guardian is SIGKILLed with its process
         * group, the daemon's too. */
        if (bus->guardian.pid > 0 &&
            spawn_wait(&bus->guardian, bus_deadline(BUS_STOP_TIMEOUT_MS), 0, NULL, NULL, NULL, &status) == -ETIMEDOUT)
                bus_kill_daemon(bus);
        /* The guardian reaps the daemon before it exits; this is for a
         * guardian that was killed. */
        if (!bus_await_daemon(bus, BUS_TERM_TIMEOUT_MS)) {
                bus_kill_daemon(bus);
                bus_await_daemon(bus, BUS_TERM_TIMEOUT_MS);
        }
        if (bus->daemon_pidfd >= 0)
                close(bus->daemon_pidfd);
        if (bus->dir)
                samples_remove_dir(bus->dir);
        g_free(bus->dir);
        g_free(bus->address);
        g_free(bus);
}
