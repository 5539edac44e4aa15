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
 * Nothing here prints; errors go to GError (IPCLAB_ERROR_RUN).
 */
#include "bus.h"
#include "spawn.h"
#include "meta.h"
#include "samples.h"

#include <dbus/dbus.h>
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <poll.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/pidfd.h>
#include <sys/prctl.h>
#include <sys/signalfd.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/un.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#define BUS_START_TIMEOUT_MS 10000    /* daemon ready, or a clear error */
#define BUS_PARENT_TIMEOUT_MS 15000   /* outer bound on the guardian's report */
#define BUS_TERM_TIMEOUT_MS 2000      /* SIGTERM, then SIGKILL */
#define BUS_STOP_TIMEOUT_MS 5000      /* guardian must be done by then */
#define BUS_WATCH_PERIOD_MS 1000      /* guardian re-checks getppid() */

#define BUS_MESSAGE_MAX "134217728"   /* 128 MiB: the D-Bus maximum */
#define BUS_QUEUE_MAX "1073741824"    /* 1 GiB queued per connection */

/* What dbus-broker may account per user (all our peers share one uid). */
#define BROKER_MAX_BYTES "1073741824"
#define BROKER_MAX_FDS "4096"
#define BROKER_MAX_MATCHES "65536"
#define BROKER_MAX_OBJECTS "16777216"

/* The policy variant of org.bus1.DBus.Broker.AddListener (dbus-broker 33):
 * per-uid batches, uid-range/gid batches, SELinux names, AppArmor, type. */
#define BROKER_BATCH_T "(bta(btbs)a(btssssuutt)a(btssssuutt))"
#define BROKER_POLICY_T "(a(u" BROKER_BATCH_T ")a(buu" BROKER_BATCH_T ")a(ss)bs)"

struct Bus {
        BusKind kind;
        char *dir;
        char *address;
        pid_t guardian;
        int guardian_pidfd;
        pid_t daemon;
        int daemon_pidfd;
        int control;   /* our end of the socketpair with the guardian */
};

/* Everything the guardian needs; filled by bus_start() before fork(). */
typedef struct {
        BusKind kind;
        const char *program;
        const char *dir;
        const char *config;       /* dbus-daemon: configuration file */
        const char *machine_id;   /* dbus-broker: --machine-id */
        pid_t ipclab;
        int control;              /* guardian's end of the socketpair */
        int listen_fd;            /* dbus-broker: the bus socket, listening */
        int log_fd;               /* daemon's stdout and stderr */
        /* set by the guardian */
        pid_t self;
        int ipclab_pidfd;
        int signal_fd;
        pid_t daemon;
        int daemon_pidfd;
        DBusConnection *controller;
} Guardian;

static const char *bus_program_name(BusKind kind)
{
        return kind == BUS_DBUS_BROKER ? "dbus-broker" : "dbus-daemon";
}

static gint64 now_ms(void)
{
        struct timespec ts;

        clock_gettime(CLOCK_MONOTONIC, &ts);
        return (gint64) ts.tv_sec * 1000 + ts.tv_nsec / 1000000;
}

static int remaining_ms(gint64 deadline)
{
        gint64 left = deadline - now_ms();

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
        if (meta_command(argv, META_COMMAND_TIMEOUT_MS, &out) < 0)
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
static char *unix_address(const char *path)
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
static int unix_listen(const char *path, int flags)
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
        g_autofree char *listen_address = unix_address(socket_path);
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

/* ---- the guardian (runs in the forked child; never returns) ---- */

static void guardian_report(Guardian *g, const char *fmt, ...) G_GNUC_PRINTF(2, 3);

static void guardian_report(Guardian *g, const char *fmt, ...)
{
        g_autofree char *text = NULL;
        va_list ap;
        size_t done = 0, len;

        va_start(ap, fmt);
        text = g_strdup_vprintf(fmt, ap);
        va_end(ap);
        len = strlen(text);
        while (done < len) {
                ssize_t n = send(g->control, text + done, len - done, MSG_NOSIGNAL);

                if (n < 0 && errno == EINTR)
                        continue;
                if (n <= 0)
                        return;
                done += (size_t) n;
        }
}

/* The end of the daemon's log, as one line, prefixed with ": ", or "". */
static char *guardian_log_tail(Guardian *g)
{
        g_autofree char *path = g_build_filename(g->dir, "daemon.log", NULL);
        char buf[1024];
        struct stat st;
        ssize_t n;
        int fd;

        fd = open(path, O_RDONLY | O_CLOEXEC);
        if (fd < 0)
                return g_strdup("");
        if (fstat(fd, &st) < 0) {
                close(fd);
                return g_strdup("");
        }
        n = pread(fd, buf, sizeof(buf) - 1,
                  st.st_size > (off_t) sizeof(buf) - 1 ? st.st_size - (off_t) (sizeof(buf) - 1) : 0);
        close(fd);
        if (n <= 0)
                return g_strdup("");
        buf[n] = '\0';
        for (ssize_t i = 0; i < n; i++)
                if (buf[i] == '\n' || buf[i] == '\r' || buf[i] == '\0')
                        buf[i] = ' ';
        g_strstrip(buf);
        return buf[0] ? g_strdup_printf(": %s", buf) : g_strdup("");
}

/* How the daemon ended, after it did ("exit status 1"). */
static char *guardian_daemon_status(Guardian *g)
{
        int status;
        pid_t r;

        do
                r = waitpid(g->daemon, &status, 0);
        while (r < 0 && errno == EINTR);
        if (r != g->daemon)
                return g_strdup("it is gone");
        g->daemon = 0;
        if (WIFEXITED(status))
                return g_strdup_printf("exit status %d", WEXITSTATUS(status));
        if (WIFSIGNALED(status))
                return g_strdup_printf("killed by signal %d", WTERMSIG(status));
        return g_strdup("unknown status");
}

/* Closes every fd above 2 except those in KEEP. */
static void close_fds_except(const int *keep, size_t n_keep)
{
        DIR *d = opendir("/proc/self/fd");
        int max = (int) sysconf(_SC_OPEN_MAX);

        if (d) {
                GArray *fds = g_array_new(FALSE, FALSE, sizeof(int));
                struct dirent *de;

                while ((de = readdir(d))) {
                        int fd = atoi(de->d_name);

                        if (de->d_name[0] >= '0' && de->d_name[0] <= '9' && fd != dirfd(d))
                                g_array_append_val(fds, fd);
                }
                closedir(d);
                for (guint i = 0; i < fds->len; i++) {
                        int fd = g_array_index(fds, int, i);
                        gboolean kept = fd <= 2;

                        for (size_t k = 0; k < n_keep; k++)
                                kept = kept || fd == keep[k];
                        if (!kept)
                                close(fd);
                }
                g_array_free(fds, TRUE);
                return;
        }
        for (int fd = 3; fd < (max > 0 && max < 65536 ? max : 65536); fd++) {
                gboolean kept = FALSE;

                for (size_t k = 0; k < n_keep; k++)
                        kept = kept || fd == keep[k];
                if (!kept)
                        close(fd);
        }
}

/* Signals: termination requests and SIGCHLD arrive on a signalfd; SIGPIPE
 * is ignored; every other handler inherited from ipclab is reset. */
static void guardian_signals(Guardian *g)
{
        sigset_t mask;

        for (int sig = 1; sig < NSIG; sig++)
                if (sig != SIGKILL && sig != SIGSTOP)
                        signal(sig, SIG_DFL);
        signal(SIGPIPE, SIG_IGN);

        sigemptyset(&mask);
        sigaddset(&mask, SIGTERM);
        sigaddset(&mask, SIGINT);
        sigaddset(&mask, SIGHUP);
        sigaddset(&mask, SIGQUIT);
        sigaddset(&mask, SIGCHLD);
        sigprocmask(SIG_SETMASK, &mask, NULL);
        g->signal_fd = signalfd(-1, &mask, SFD_CLOEXEC | SFD_NONBLOCK);
}

/* Drains the signalfd; TRUE when a termination signal was among them
 * (SIGCHLD only wakes us up to look at the daemon). */
static gboolean guardian_signalled(Guardian *g)
{
        struct signalfd_siginfo si;
        gboolean stop = FALSE;

        while (read(g->signal_fd, &si, sizeof(si)) == (ssize_t) sizeof(si))
                stop = stop || si.ssi_signo != SIGCHLD;
        return stop;
}

/* Has the daemon exited?  It stays waitable (WNOWAIT) for its status. */
static gboolean guardian_daemon_exited(Guardian *g)
{
        siginfo_t si = { 0 };

        if (g->daemon <= 0)
                return TRUE;
        if (waitid(P_PID, (id_t) g->daemon, &si, WEXITED | WNOHANG | WNOWAIT) < 0)
                return errno == ECHILD;
        return si.si_pid == g->daemon;
}

/* Waits until FD is readable (FD < 0: only watches).  Returns 0, -ECHILD
 * when the daemon exited, -ECANCELED when ipclab is gone or wants the bus
 * stopped, -ETIMEDOUT at DEADLINE.  The pidfds make this prompt; without
 * them (old kernels, valgrind) SIGCHLD, EOF on the socketpair and a
 * periodic getppid() do the same job. */
static int guardian_wait(Guardian *g, int fd, gint64 deadline)
{
        for (;;) {
                struct pollfd p[5];
                int timeout = remaining_ms(deadline), r;

                if (getppid() != g->ipclab)
                        return -ECANCELED;
                if (timeout == 0)
                        return -ETIMEDOUT;
                p[0] = (struct pollfd) { .fd = g->control, .events = POLLIN };
                p[1] = (struct pollfd) { .fd = g->ipclab_pidfd, .events = POLLIN };
                p[2] = (struct pollfd) { .fd = g->signal_fd, .events = POLLIN };
                p[3] = (struct pollfd) { .fd = g->daemon_pidfd, .events = POLLIN };
                p[4] = (struct pollfd) { .fd = fd, .events = POLLIN };
                r = poll(p, 5, MIN(timeout, BUS_WATCH_PERIOD_MS));
                if (r < 0 && errno != EINTR)
                        return -errno;
                if (r > 0 && (p[0].revents || p[1].revents))
                        return -ECANCELED;
                if (r > 0 && p[2].revents && guardian_signalled(g))
                        return -ECANCELED;
                if (r > 0 && p[4].revents)
                        return 0;
                if (guardian_daemon_exited(g))
                        return -ECHILD;
        }
}

/* What the daemon's child does before its exec. */
typedef struct {
        pid_t guardian;
        int fd3;
} DaemonChild;

static void daemon_child_setup(void *data)
{
        const DaemonChild *d = data;
        sigset_t none;

        /* If the guardian dies without cleaning up, so do we. */
        prctl(PR_SET_PDEATHSIG, SIGKILL);
        if (getppid() != d->guardian)
                _exit(127);
        sigemptyset(&none);
        sigprocmask(SIG_SETMASK, &none, NULL);
        signal(SIGPIPE, SIG_DFL);
        if (d->fd3 == 3)
                fcntl(3, F_SETFD, 0);
        else if (dup2(d->fd3, 3) < 0)
                _exit(127);
}

/* Forks and executes ARGV with FD3 as fd 3; stdout and stderr go to the
 * log (a failed exec says so there, which the error message quotes).
 * Returns 0 or -errno with *WHY set. */
static int guardian_spawn(Guardian *g, const char *const *argv, int fd3, char **why)
{
        DaemonChild d = { .guardian = g->self, .fd3 = fd3 };
        SpawnOpts o = { .argv = argv, .in_fd = SPAWN_INHERIT, .out_fd = SPAWN_INHERIT, .err_fd = SPAWN_INHERIT,
                        .setup = daemon_child_setup, .data = &d };
        SpawnChild c;
        int r = spawn_start(&o, &c);

        if (r < 0) {
                *why = g_strdup_printf("cannot start %s: %s", argv[0], g_strerror(-r));
                return r;
        }
        g->daemon = c.pid;
        /* Optional: without it, SIGCHLD tells us. */
        g->daemon_pidfd = c.pidfd;
        return 0;
}

/* dbus-daemon --print-address writes the address once it is listening. */
static int guardian_start_daemon(Guardian *g, char **why)
{
        g_autofree char *config_arg = g_strdup_printf("--config-file=%s", g->config);
        const char *argv[] = { g->program, "--nofork", "--nopidfile", "--nosyslog",
                               config_arg, "--print-address=3", NULL };
        gint64 deadline = now_ms() + BUS_START_TIMEOUT_MS;
        char line[1024];
        size_t len = 0;
        int pipe_fd[2], r;

        if (pipe2(pipe_fd, O_CLOEXEC) < 0) {
                r = -errno;
                *why = g_strdup_printf("cannot create a pipe: %s", g_strerror(-r));
                return r;
        }
        r = guardian_spawn(g, argv, pipe_fd[1], why);
        close(pipe_fd[1]);
        if (r < 0) {
                close(pipe_fd[0]);
                return r;
        }

        while (!memchr(line, '\n', len)) {
                ssize_t n;

                r = guardian_wait(g, pipe_fd[0], deadline);
                if (r < 0)
                        break;
                n = read(pipe_fd[0], line + len, sizeof(line) - 1 - len);
                if (n < 0 && errno == EINTR)
                        continue;
                if (n <= 0 || len + (size_t) n >= sizeof(line) - 1) {
                        /* EOF without an address: the daemon is exiting. */
                        r = guardian_wait(g, -1, now_ms() + BUS_TERM_TIMEOUT_MS);
                        if (r == 0 || r == -ETIMEDOUT)
                                r = -EPROTO;
                        break;
                }
                len += (size_t) n;
        }
        close(pipe_fd[0]);
        line[len] = '\0';

        if (r == -ECANCELED)
                return r;
        if (r == -ECHILD) {
                g_autofree char *status = guardian_daemon_status(g);
                g_autofree char *log = guardian_log_tail(g);

                *why = g_strdup_printf("%s exited during start-up (%s)%s", g->program, status, log);
                return r;
        }
        if (r == -ETIMEDOUT) {
                g_autofree char *log = guardian_log_tail(g);

                *why = g_strdup_printf("%s did not report its address within %d s%s",
                                       g->program, BUS_START_TIMEOUT_MS / 1000, log);
                return r;
        }
        if (r < 0 || !g_str_has_prefix(line, "unix:")) {
                g_autofree char *log = guardian_log_tail(g);

                *why = g_strdup_printf("%s printed no usable address (\"%s\")%s",
                                       g->program, g_strstrip(line), log);
                return r < 0 ? r : -EPROTO;
        }
        return 0;
}

/* Answers what the broker calls on the controller.  Without activatable
 * names only ReloadConfig can come (a client's
 * org.freedesktop.DBus.ReloadConfig): our policy is fixed, so it succeeds
 * at doing nothing.  Signals (SetActivationEnvironment) are ignored. */
static DBusHandlerResult controller_filter(DBusConnection *conn, DBusMessage *m, void *data)
{
        const char *interface = dbus_message_get_interface(m);
        const char *member = dbus_message_get_member(m);
        DBusMessage *reply;

        (void) data;
        if (dbus_message_get_type(m) != DBUS_MESSAGE_TYPE_METHOD_CALL)
                return DBUS_HANDLER_RESULT_HANDLED;
        if (dbus_message_is_method_call(m, "org.bus1.DBus.Controller", "ReloadConfig"))
                reply = dbus_message_new_method_return(m);
        else
                reply = dbus_message_new_error_printf(m, DBUS_ERROR_UNKNOWN_METHOD,
                                                      "ipclab's controller has no method %s.%s",
                                                      interface ? interface : "(none)",
                                                      member ? member : "(none)");
        if (reply && !dbus_message_get_no_reply(m))
                dbus_connection_send(conn, reply, NULL);
        if (reply)
                dbus_message_unref(reply);
        return DBUS_HANDLER_RESULT_HANDLED;
}

/* One batch: connect, own, send, receive, all allowed (or all denied) at
 * priority 1; the empty name is the broker's catch-all. */
static gboolean append_policy_batch(DBusMessageIter *parent, dbus_bool_t allow)
{
        DBusMessageIter batch, array, entry;
        const dbus_uint64_t priority = 1, min_fds = 0, max_fds = UINT64_MAX;
        const dbus_uint32_t any_type = 0, any_broadcast = 0;
        const dbus_bool_t prefix = TRUE;
        const char *any = "";
        gboolean ok = TRUE;

        ok = ok && dbus_message_iter_open_container(parent, DBUS_TYPE_STRUCT, NULL, &batch);
        ok = ok && dbus_message_iter_append_basic(&batch, DBUS_TYPE_BOOLEAN, &allow);
        ok = ok && dbus_message_iter_append_basic(&batch, DBUS_TYPE_UINT64, &priority);

        /* own: every name (the empty prefix) */
        ok = ok && dbus_message_iter_open_container(&batch, DBUS_TYPE_ARRAY, "(btbs)", &array);
        if (allow) {
                ok = ok && dbus_message_iter_open_container(&array, DBUS_TYPE_STRUCT, NULL, &entry);
                ok = ok && dbus_message_iter_append_basic(&entry, DBUS_TYPE_BOOLEAN, &allow);
                ok = ok && dbus_message_iter_append_basic(&entry, DBUS_TYPE_UINT64, &priority);
                ok = ok && dbus_message_iter_append_basic(&entry, DBUS_TYPE_BOOLEAN, &prefix);
                ok = ok && dbus_message_iter_append_basic(&entry, DBUS_TYPE_STRING, &any);
                ok = ok && dbus_message_iter_close_container(&array, &entry);
        }
        ok = ok && dbus_message_iter_close_container(&batch, &array);

        /* send, then receive: any name, path, interface, member, type */
        for (int i = 0; i < 2; i++) {
                ok = ok && dbus_message_iter_open_container(&batch, DBUS_TYPE_ARRAY,
                                                            "(btssssuutt)", &array);
                if (allow) {
                        ok = ok && dbus_message_iter_open_container(&array, DBUS_TYPE_STRUCT,
                                                                    NULL, &entry);
                        ok = ok && dbus_message_iter_append_basic(&entry, DBUS_TYPE_BOOLEAN, &allow);
                        ok = ok && dbus_message_iter_append_basic(&entry, DBUS_TYPE_UINT64, &priority);
                        for (int s = 0; s < 4; s++)
                                ok = ok && dbus_message_iter_append_basic(&entry, DBUS_TYPE_STRING, &any);
                        ok = ok && dbus_message_iter_append_basic(&entry, DBUS_TYPE_UINT32, &any_type);
                        ok = ok && dbus_message_iter_append_basic(&entry, DBUS_TYPE_UINT32, &any_broadcast);
                        ok = ok && dbus_message_iter_append_basic(&entry, DBUS_TYPE_UINT64, &min_fds);
                        ok = ok && dbus_message_iter_append_basic(&entry, DBUS_TYPE_UINT64, &max_fds);
                        ok = ok && dbus_message_iter_close_container(&array, &entry);
                }
                ok = ok && dbus_message_iter_close_container(&batch, &array);
        }
        return ok && dbus_message_iter_close_container(parent, &batch);
}

/* AddListener("/org/bus1/DBus/Listener/0", LISTEN_FD, policy): our uid may
 * do everything; the default batch (uid -1, everybody else) denies all. */
static DBusMessage *broker_add_listener_message(int listen_fd)
{
        DBusMessage *m = dbus_message_new_method_call(NULL, "/org/bus1/DBus/Broker",
                                                      "org.bus1.DBus.Broker", "AddListener");
        DBusMessageIter args, variant, policy, array, uid_entry;
        const char *path = "/org/bus1/DBus/Listener/0", *bus_type = "";
        const dbus_uint32_t uids[2] = { (dbus_uint32_t) -1, (dbus_uint32_t) getuid() };
        const dbus_bool_t apparmor = FALSE;
        gboolean ok = m != NULL;

        if (!ok)
                return NULL;
        dbus_message_iter_init_append(m, &args);
        ok = ok && dbus_message_iter_append_basic(&args, DBUS_TYPE_OBJECT_PATH, &path);
        ok = ok && dbus_message_iter_append_basic(&args, DBUS_TYPE_UNIX_FD, &listen_fd);
        ok = ok && dbus_message_iter_open_container(&args, DBUS_TYPE_VARIANT, BROKER_POLICY_T, &variant);
        ok = ok && dbus_message_iter_open_container(&variant, DBUS_TYPE_STRUCT, NULL, &policy);

        ok = ok && dbus_message_iter_open_container(&policy, DBUS_TYPE_ARRAY, "(u" BROKER_BATCH_T ")", &array);
        for (int i = 0; i < 2 && ok; i++) {
                ok = ok && dbus_message_iter_open_container(&array, DBUS_TYPE_STRUCT, NULL, &uid_entry);
                ok = ok && dbus_message_iter_append_basic(&uid_entry, DBUS_TYPE_UINT32, &uids[i]);
                ok = ok && append_policy_batch(&uid_entry, i == 1);
                ok = ok && dbus_message_iter_close_container(&array, &uid_entry);
        }
        ok = ok && dbus_message_iter_close_container(&policy, &array);

        /* no uid-range or gid batches, no SELinux names */
        ok = ok && dbus_message_iter_open_container(&policy, DBUS_TYPE_ARRAY, "(buu" BROKER_BATCH_T ")", &array);
        ok = ok && dbus_message_iter_close_container(&policy, &array);
        ok = ok && dbus_message_iter_open_container(&policy, DBUS_TYPE_ARRAY, "(ss)", &array);
        ok = ok && dbus_message_iter_close_container(&policy, &array);
        ok = ok && dbus_message_iter_append_basic(&policy, DBUS_TYPE_BOOLEAN, &apparmor);
        ok = ok && dbus_message_iter_append_basic(&policy, DBUS_TYPE_STRING, &bus_type);

        ok = ok && dbus_message_iter_close_container(&variant, &policy);
        ok = ok && dbus_message_iter_close_container(&args, &variant);
        if (!ok) {
                dbus_message_unref(m);
                return NULL;
        }
        return m;
}

/* dbus-broker: controller connection, spawn, AddListener. */
static int guardian_start_broker(Guardian *g, char **why)
{
        g_autofree char *ctl_path = g_build_filename(g->dir, "controller", NULL);
        g_autofree char *ctl_address = unix_address(ctl_path);
        const char *argv[] = { g->program, "--controller", "3", "--machine-id", g->machine_id,
                               "--max-bytes", BROKER_MAX_BYTES, "--max-fds", BROKER_MAX_FDS,
                               "--max-matches", BROKER_MAX_MATCHES, "--max-objects", BROKER_MAX_OBJECTS,
                               NULL };
        DBusMessage *m, *reply;
        DBusError err;
        int listen_fd, ctl_fd, r;

        /* libdbus has no "connection on this fd": connect it to a listening
         * socket and give the accepted end to the broker. */
        listen_fd = unix_listen(ctl_path, 0);
        if (listen_fd < 0) {
                *why = g_strdup_printf("cannot listen on %s: %s", ctl_path, g_strerror(-listen_fd));
                return listen_fd;
        }
        dbus_error_init(&err);
        g->controller = dbus_connection_open_private(ctl_address, &err);
        if (!g->controller) {
                *why = g_strdup_printf("cannot connect the dbus-broker controller: %s", err.message);
                dbus_error_free(&err);
                close(listen_fd);
                return -ECONNREFUSED;
        }
        dbus_connection_set_exit_on_disconnect(g->controller, FALSE);
        do
                ctl_fd = accept4(listen_fd, NULL, NULL, SOCK_CLOEXEC);
        while (ctl_fd < 0 && errno == EINTR);
        r = -errno;
        close(listen_fd);
        unlink(ctl_path);
        if (ctl_fd < 0) {
                *why = g_strdup_printf("cannot accept the controller connection: %s", g_strerror(-r));
                return r;
        }

        r = guardian_spawn(g, argv, ctl_fd, why);
        close(ctl_fd);
        if (r < 0)
                return r;

        if (!dbus_connection_add_filter(g->controller, controller_filter, NULL, NULL)) {
                *why = g_strdup("out of memory");
                return -ENOMEM;
        }
        /* libdbus authenticates lazily, and only knows afterwards that it
         * may pass fds: finish the handshake before sending the socket. */
        gint64 deadline = now_ms() + BUS_START_TIMEOUT_MS;
        while (!dbus_connection_get_is_authenticated(g->controller) &&
               dbus_connection_get_is_connected(g->controller) && remaining_ms(deadline) > 0)
                dbus_connection_read_write(g->controller, MIN(remaining_ms(deadline), 100));
        if (!dbus_connection_can_send_type(g->controller, DBUS_TYPE_UNIX_FD)) {
                g_autofree char *log = NULL;
                g_autofree char *status = NULL;
                g_autofree char *late = remaining_ms(deadline) == 0 ?
                        g_strdup_printf(" within %d s", BUS_START_TIMEOUT_MS / 1000) : g_strdup("");

                if (guardian_wait(g, -1, now_ms() + 200) == -ECHILD)
                        status = guardian_daemon_status(g);
                log = guardian_log_tail(g);
                *why = g_strdup_printf("%s did not %s its controller connection%s%s%s%s%s",
                                       g->program,
                                       dbus_connection_get_is_authenticated(g->controller) ?
                                       "accept fd passing on" : "authenticate",
                                       late,
                                       status ? " and exited (" : "", status ? status : "",
                                       status ? ")" : "", log);
                return -EPROTO;
        }
        m = broker_add_listener_message(g->listen_fd);
        if (!m) {
                *why = g_strdup("cannot build the AddListener call: out of memory");
                return -ENOMEM;
        }
        reply = dbus_connection_send_with_reply_and_block(g->controller, m, BUS_START_TIMEOUT_MS, &err);
        dbus_message_unref(m);
        if (!reply) {
                g_autofree char *log = NULL;
                g_autofree char *status = NULL;

                r = guardian_wait(g, -1, now_ms() + 200);
                if (r == -ECHILD)
                        status = guardian_daemon_status(g);
                log = guardian_log_tail(g);
                *why = g_strdup_printf("%s did not take its listening socket "
                                       "(org.bus1.DBus.Broker.AddListener: %s)%s%s%s%s",
                                       g->program, err.message,
                                       status ? " and exited (" : "", status ? status : "",
                                       status ? ")" : "", log);
                dbus_error_free(&err);
                return -EPROTO;
        }
        dbus_message_unref(reply);
        /* The broker holds its own copy now. */
        close(g->listen_fd);
        g->listen_fd = -1;
        return 0;
}

/* Runs until something ends the bus; returns normally then. */
static void guardian_watch(Guardian *g)
{
        int ctl_fd = -1;

        if (g->controller && !dbus_connection_get_unix_fd(g->controller, &ctl_fd))
                ctl_fd = -1;

        /* Any byte or EOF from ipclab, ipclab's exit, a signal, the
         * daemon's exit: all end the bus.  Only the broker's controller
         * connection has something to say in between. */
        do {
                if (!g->controller)
                        continue;
                dbus_connection_read_write(g->controller, 0);
                while (dbus_connection_dispatch(g->controller) == DBUS_DISPATCH_DATA_REMAINS)
                        ;
                dbus_connection_flush(g->controller);
                /* The broker closed it: it is exiting, and SIGCHLD or its
                 * pidfd will say so. */
                if (!dbus_connection_get_is_connected(g->controller))
                        ctl_fd = -1;
        } while (guardian_wait(g, ctl_fd, G_MAXINT64) == 0);
}

static _Noreturn void guardian_exit(Guardian *g, int status)
{
        if (g->controller) {
                /* dbus-broker exits when its controller goes away. */
                dbus_connection_close(g->controller);
                dbus_connection_unref(g->controller);
                g->controller = NULL;
        }
        if (g->daemon > 0) {
                gint64 deadline = now_ms() + BUS_TERM_TIMEOUT_MS;
                int st;

                kill(g->daemon, SIGTERM);
                while (waitpid(g->daemon, &st, WNOHANG) == 0) {
                        if (remaining_ms(deadline) == 0) {
                                kill(g->daemon, SIGKILL);
                                while (waitpid(g->daemon, &st, 0) < 0 && errno == EINTR)
                                        ;
                                break;
                        }
                        if (g->daemon_pidfd >= 0) {
                                struct pollfd p = { .fd = g->daemon_pidfd, .events = POLLIN };

                                poll(&p, 1, remaining_ms(deadline));
                        } else {
                                g_usleep(5000);
                        }
                }
                g->daemon = 0;
        }
        samples_remove_dir(g->dir);
        _exit(status);
}

/* Moves FD above 2 (ipclab may have run with 0, 1 or 2 closed). */
static int fd_above_stdio(int fd)
{
        return fd >= 0 && fd <= 2 ? fcntl(fd, F_DUPFD_CLOEXEC, 3) : fd;
}

static _Noreturn void guardian_main(Guardian *g)
{
        g_autofree char *why = NULL;
        int devnull, r;

        g->control = fd_above_stdio(g->control);
        g->listen_fd = fd_above_stdio(g->listen_fd);
        g->log_fd = fd_above_stdio(g->log_fd);
        const int keep[] = { g->control, g->listen_fd, g->log_fd };

        g->self = getpid();
        g->ipclab_pidfd = -1;
        g->daemon_pidfd = -1;
        g->daemon = 0;
        g->controller = NULL;

        /* Out of ipclab's process group: a terminal's ^C reaches ipclab,
         * and ipclab's exit then reaches us. */
        setpgid(0, 0);
        prctl(PR_SET_NAME, "ipclab-bus");
        /* Pin no mount point; every path we use is absolute. */
        if (chdir("/") < 0) {
                guardian_report(g, "E cannot change to /: %s\n", g_strerror(errno));
                guardian_exit(g, 1);
        }

        /* Hold nothing of ipclab's: no terminal, no pipes of the runner. */
        devnull = open("/dev/null", O_RDWR | O_CLOEXEC);
        if (devnull >= 0)
                dup2(devnull, 0);
        dup2(g->log_fd, 1);
        dup2(g->log_fd, 2);
        close_fds_except(keep, G_N_ELEMENTS(keep));
        guardian_signals(g);

        if (g->signal_fd < 0) {
                guardian_report(g, "E cannot create a signalfd: %s\n", g_strerror(errno));
                guardian_exit(g, 1);
        }
        /* Optional: without it, EOF on the socketpair and getppid() tell. */
        g->ipclab_pidfd = pidfd_open(g->ipclab, 0);
        if (getppid() != g->ipclab)
                guardian_exit(g, 0);

        r = g->kind == BUS_DBUS_BROKER ? guardian_start_broker(g, &why)
                                       : guardian_start_daemon(g, &why);
        if (r < 0) {
                if (r != -ECANCELED)
                        guardian_report(g, "E %s\n", why ? why : g_strerror(-r));
                guardian_exit(g, 1);
        }
        guardian_report(g, "R %ld\n", (long) g->daemon);
        guardian_watch(g);
        guardian_exit(g, 0);
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

/* Waits up to TIMEOUT_MS for the guardian to exit, and reaps it.  Returns
 * FALSE if it is still running. */
static gboolean bus_reap_guardian(Bus *bus, int timeout_ms)
{
        gint64 deadline = now_ms() + timeout_ms;

        for (;;) {
                pid_t r = waitpid(bus->guardian, NULL, WNOHANG);

                /* ECHILD: somebody else reaped it (SIGCHLD ignored?). */
                if (r == bus->guardian || (r < 0 && errno != EINTR)) {
                        bus->guardian = 0;
                        return TRUE;
                }
                if (remaining_ms(deadline) == 0)
                        return FALSE;
                if (bus->guardian_pidfd >= 0) {
                        struct pollfd p = { .fd = bus->guardian_pidfd, .events = POLLIN };

                        poll(&p, 1, remaining_ms(deadline));
                } else {
                        g_usleep(2000);
                }
        }
}

/* Reads the guardian's one-line report into BUF. */
static gboolean bus_read_report(Bus *bus, char *buf, size_t size, GError **error)
{
        gint64 deadline = now_ms() + BUS_PARENT_TIMEOUT_MS;
        size_t len = 0;

        buf[0] = '\0';
        while (!memchr(buf, '\n', len)) {
                struct pollfd p = { .fd = bus->control, .events = POLLIN };
                ssize_t n;
                int r = poll(&p, 1, remaining_ms(deadline));

                if (r < 0 && errno == EINTR)
                        continue;
                if (r == 0) {
                        g_set_error(error, IPCLAB_ERROR, IPCLAB_ERROR_RUN,
                                    "%s did not start within %d s (is the machine overloaded?)",
                                    bus_program_name(bus->kind), BUS_PARENT_TIMEOUT_MS / 1000);
                        return FALSE;
                }
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

Bus *bus_start(BusKind kind, GError **error)
{
        g_autoptr(Bus) bus = NULL;
        g_autofree char *program = NULL;
        g_autofree char *socket_path = NULL;
        g_autofree char *config_path = NULL;
        g_autofree char *log_path = NULL;
        g_autofree char *machine_id = NULL;
        Guardian g = { .kind = kind, .listen_fd = -1, .log_fd = -1, .signal_fd = -1 };
        char report[2048];
        int sv[2];

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
        bus->guardian_pidfd = -1;
        bus->daemon_pidfd = -1;
        bus->control = -1;
        bus->dir = bus_make_dir(error);
        if (!bus->dir)
                return NULL;
        socket_path = g_build_filename(bus->dir, "socket", NULL);
        bus->address = unix_address(socket_path);
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
                g.listen_fd = unix_listen(socket_path, SOCK_NONBLOCK);
                if (g.listen_fd < 0) {
                        g_set_error(error, IPCLAB_ERROR, IPCLAB_ERROR_RUN,
                                    "cannot listen on %s: %s", socket_path, g_strerror(-g.listen_fd));
                        return NULL;
                }
        }

        g.log_fd = open(log_path, O_WRONLY | O_CREAT | O_APPEND | O_CLOEXEC, 0600);
        if (g.log_fd < 0 || socketpair(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0, sv) < 0) {
                g_set_error(error, IPCLAB_ERROR, IPCLAB_ERROR_RUN,
                            "cannot prepare the bus in %s: %s", bus->dir, g_strerror(errno));
                if (g.log_fd >= 0)
                        close(g.log_fd);
                if (g.listen_fd >= 0)
                        close(g.listen_fd);
                return NULL;
        }

        g.program = program;
        g.dir = bus->dir;
        g.config = config_path;
        g.machine_id = machine_id;
        g.ipclab = getpid();
        g.control = sv[1];

        bus->guardian = fork();
        if (bus->guardian == 0) {
                close(sv[0]);
                guardian_main(&g);
        }
        int fork_errno = errno;
        close(sv[1]);
        close(g.log_fd);
        if (g.listen_fd >= 0)
                close(g.listen_fd);
        bus->control = sv[0];
        if (bus->guardian < 0) {
                bus->guardian = 0;
                g_set_error(error, IPCLAB_ERROR, IPCLAB_ERROR_RUN,
                            "cannot fork the bus guardian: %s", g_strerror(fork_errno));
                return NULL;
        }
        bus->guardian_pidfd = pidfd_open(bus->guardian, 0);

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
        gint64 deadline;

        if (!bus)
                return;

        /* EOF on the socketpair, even while forked runner children still
         * hold copies of our end. */
        if (bus->control >= 0) {
                shutdown(bus->control, SHUT_RDWR);
                close(bus->control);
        }
        if (bus->guardian > 0 && !bus_reap_guardian(bus, BUS_STOP_TIMEOUT_MS)) {
                kill(bus->guardian, SIGKILL);
                bus_kill_daemon(bus);
                bus_reap_guardian(bus, G_MAXINT);
        }
        /* The guardian reaps the daemon before it exits; this is for a
         * guardian that was killed. */
        deadline = now_ms() + BUS_TERM_TIMEOUT_MS;
        while (!bus_daemon_ended(bus) && remaining_ms(deadline) > 0)
                g_usleep(2000);
        if (!bus_daemon_ended(bus)) {
                bus_kill_daemon(bus);
                deadline = now_ms() + BUS_TERM_TIMEOUT_MS;
                while (!bus_daemon_ended(bus) && remaining_ms(deadline) > 0)
                        g_usleep(2000);
        }
        if (bus->daemon_pidfd >= 0)
                close(bus->daemon_pidfd);
        if (bus->guardian_pidfd >= 0)
                close(bus->guardian_pidfd);
        if (bus->dir)
                samples_remove_dir(bus->dir);
        g_free(bus->dir);
        g_free(bus->address);
        g_free(bus);
}
