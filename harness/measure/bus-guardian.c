/* bus-guardian.c: the guardian, the process between ipclab and a private
 * bus daemon (the top of bus.c describes it): it starts the daemon (and
 * configures dbus-broker through its controller), watches it and ipclab,
 * and reports. */
#include "bus-internal.h"

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

        if (spawn_wait(&g->daemon, 0, 0, NULL, NULL, NULL, &status) < 0)
                return g_strdup("it is gone");
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

/* SpawnCheck, without a pidfd on ipclab: has ipclab gone (we were
 * reparented)? */
static int guardian_orphaned(void *data)
{
        const Guardian *g = data;

        return getppid() != g->ipclab ? -ECANCELED : 0;
}

/* Waits until FD is readable (FD < 0: only watches).  Returns 0, -ECHILD
 * when the daemon exited, -ECANCELED when ipclab is gone or wants the bus
 * stopped, -ETIMEDOUT at DEADLINE (bus_deadline(); 0: none).  The pidfds
 * make this prompt; without them (old kernels, valgrind) SIGCHLD, EOF on
 * the socketpair and a periodic getppid() do the same job. */
static int guardian_wait(Guardian *g, int fd, gint64 deadline)
{
        const int fds[] = { g->control, g->ipclab_pidfd, g->signal_fd, fd };

        if (getppid() != g->ipclab)
                return -ECANCELED;
        if (g->daemon.pid <= 0)
                return -ECHILD;
        for (;;) {
                int r = spawn_watch(&g->daemon, fds, G_N_ELEMENTS(fds), deadline,
                                    g->ipclab_pidfd < 0 ? guardian_orphaned : NULL, g);

                switch (r) {
                case 0:   /* a byte or EOF from ipclab */
                case 1:   /* ipclab exited */
                        return -ECANCELED;
                case 2:   /* SIGCHLD only wakes us up to look at the daemon */
                        if (guardian_signalled(g))
                                return -ECANCELED;
                        break;
                case 3:
                        return 0;
                default:
                        return r;
                }
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
        /* Its pidfd is optional: without it, SIGCHLD tells us. */
        g->daemon = c;
        return 0;
}

/* dbus-daemon --print-address writes the address once it is listening. */
static int guardian_start_daemon(Guardian *g, char **why)
{
        g_autofree char *config_arg = g_strdup_printf("--config-file=%s", g->config);
        const char *argv[] = { g->program, "--nofork", "--nopidfile", "--nosyslog",
                               config_arg, "--print-address=3", NULL };
        gint64 deadline = bus_deadline(BUS_START_TIMEOUT_MS);
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
                        r = guardian_wait(g, -1, bus_deadline(BUS_TERM_TIMEOUT_MS));
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
        g_autofree char *ctl_address = bus_unix_address(ctl_path);
        const char *argv[] = { g->program, "--controller", "3", "--machine-id", g->machine_id,
                               "--max-bytes", BROKER_MAX_BYTES, "--max-fds", BROKER_MAX_FDS,
                               "--max-matches", BROKER_MAX_MATCHES, "--max-objects", BROKER_MAX_OBJECTS,
                               NULL };
        DBusMessage *m, *reply;
        DBusError err;
        int listen_fd, ctl_fd, r;

        /* libdbus has no "connection on this fd": connect it to a listening
         * socket and give the accepted end to the broker. */
        listen_fd = bus_unix_listen(ctl_path, 0);
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
        gint64 deadline = bus_deadline(BUS_START_TIMEOUT_MS);
        while (!dbus_connection_get_is_authenticated(g->controller) &&
               dbus_connection_get_is_connected(g->controller) && bus_remaining_ms(deadline) > 0)
                dbus_connection_read_write(g->controller, MIN(bus_remaining_ms(deadline), 100));
        if (!dbus_connection_can_send_type(g->controller, DBUS_TYPE_UNIX_FD)) {
                g_autofree char *log = NULL;
                g_autofree char *status = NULL;
                g_autofree char *late = bus_remaining_ms(deadline) == 0 ?
                        g_strdup_printf(" within %d s", BUS_START_TIMEOUT_MS / 1000) : g_strdup("");

                if (guardian_wait(g, -1, bus_deadline(200)) == -ECHILD)
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

                r = guardian_wait(g, -1, bus_deadline(200));
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
        } while (guardian_wait(g, ctl_fd, 0) == 0);
}

static _Noreturn void guardian_exit(Guardian *g, int status)
{
        if (g->controller) {
                /* dbus-broker exits when its controller goes away. */
                dbus_connection_close(g->controller);
                dbus_connection_unref(g->controller);
                g->controller = NULL;
        }
        if (g->daemon.pid > 0) {
                int st;

                spawn_end(&g->daemon, BUS_TERM_TIMEOUT_MS, &st);
        }
        samples_remove_dir(g->dir);
        _exit(status);
}

_Noreturn int bus_guardian_main(void *guardian)
{
        Guardian *g = guardian;
        g_autofree char *why = NULL;
        int r;

        /* bus_start() put them above 2; 0 is /dev/null, 1 and 2 the log. */
        const int keep[] = { g->control, g->listen_fd, g->log_fd };

        g->self = getpid();
        g->ipclab_pidfd = -1;
        g->daemon = (SpawnChild) { .pid = -1, .pidfd = -1, .out = -1, .err = -1 };
        g->controller = NULL;

        /* In a process group of its own (SpawnOpts.new_group), out of
         * ipclab's: a terminal's ^C reaches ipclab, and ipclab's exit then
         * reaches us. */
        prctl(PR_SET_NAME, "ipclab-bus");
        /* Pin no mount point; every path we use is absolute. */
        if (chdir("/") < 0) {
                guardian_report(g, "E cannot change to /: %s\n", g_strerror(errno));
                guardian_exit(g, 1);
        }

        /* Hold nothing of ipclab's: no terminal, no pipes of the runner. */
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
        guardian_report(g, "R %ld\n", (long) g->daemon.pid);
        guardian_watch(g);
        guardian_exit(g, 0);
}
