/* test-bus.c: private dbus-daemon and dbus-broker buses, with real daemons.
 *
 * For each bus kind: start, talk to it with libdbus (Hello, ListNames,
 * RequestName, a 1 MiB `ay` round trip between two connections, a
 * broadcast signal, ReloadConfig), check the directory's mode and that nothing listens
 * on TCP; stop and check that the daemon and the directory are gone; kill
 * the daemon and check that bus_is_alive() notices and bus_stop() still
 * cleans up; let a child that started a bus _exit() or be SIGKILLed and
 * check that its guardian cleans up.  Must run as a user who may start
 * daemons (root in CI); a kind whose daemon is not installed is skipped.
 *
 * The like-for-like values of issue 9 through every bus that has them:
 * marshal=append-per-element (sd-bus, libdbus, gdbus), marshal=copy and
 * reply=short (gdbus), with verify=true (sizes and checksums of every
 * payload, echoes byte for byte); and, at the endpoint, that an
 * append-per-element server takes the array whole: it never fills the
 * per-element receive buffer, which a per-element server does.
 */
#include <dbus/dbus.h>
#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <stdio.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include "bus.h"
#include "runner.h"
#include "transport.h"
#include "verify.h"

#define PAYLOAD_SIZE (1024 * 1024)
#define TEST_NAME "org.ipclab.Test"
#define TEST_PATH "/org/ipclab/Test"

typedef struct {
        BusKind kind;
        gboolean sigkill;   /* guardian tests: the child is SIGKILLed, else _exit()s */
} Case;

static gboolean skip_unless_available(BusKind kind)
{
        const char *why = bus_unavailable(kind);

        if (why) {
                g_test_skip(why);
                return TRUE;
        }
        return FALSE;
}

/* The bus directory, from "unix:path=DIR/socket". */
static char *address_dir(const char *address)
{
        DBusAddressEntry **entries = NULL;
        DBusError err = DBUS_ERROR_INIT;
        int n = 0;
        char *dir;

        g_assert_true(dbus_parse_address(address, &entries, &n, &err));
        g_assert_cmpint(n, ==, 1);
        g_assert_cmpstr(dbus_address_entry_get_method(entries[0]), ==, "unix");
        const char *path = dbus_address_entry_get_value(entries[0], "path");
        g_assert_nonnull(path);
        dir = g_path_get_dirname(path);
        dbus_address_entries_free(entries);
        return dir;
}

static gboolean process_gone(pid_t pid)
{
        return kill(pid, 0) < 0 && errno == ESRCH;
}

/* Waits for PID to be gone and DIR to be removed, however long it takes:
 * the tests wait for events, and run-tests stops a test that hangs. */
static void wait_cleaned_up(pid_t pid, const char *dir)
{
        while (!process_gone(pid) || g_file_test(dir, G_FILE_TEST_EXISTS))
                g_usleep(10000);
}

static void assert_cleaned_up(pid_t pid, const char *dir)
{
        g_assert_cmpint(kill(pid, 0), ==, -1);
        g_assert_cmpint(errno, ==, ESRCH);
        g_assert_false(g_file_test(dir, G_FILE_TEST_EXISTS));
}

/* Inodes ("12345") of the sockets PID holds. */
static GHashTable *socket_inodes(pid_t pid)
{
        g_autofree char *fd_dir = g_strdup_printf("/proc/%ld/fd", (long) pid);
        GHashTable *inodes = g_hash_table_new_full(g_str_hash, g_str_equal, g_free, NULL);
        g_autoptr(GDir) d = g_dir_open(fd_dir, 0, NULL);
        const char *name;

        g_assert_nonnull(d);
        while ((name = g_dir_read_name(d))) {
                g_autofree char *link = g_build_filename(fd_dir, name, NULL);
                g_autofree char *target = g_file_read_link(link, NULL);

                if (target && g_str_has_prefix(target, "socket:[")) {
                        char *inode = g_strdup(target + strlen("socket:["));

                        inode[strcspn(inode, "]")] = '\0';
                        g_hash_table_add(inodes, inode);
                }
        }
        return inodes;
}

/* No TCP socket of the daemon in /proc/net/tcp{,6}; no tcp: in its
 * command line or configuration. */
static void assert_no_tcp(pid_t pid)
{
        static const char *const tables[] = { "/proc/net/tcp", "/proc/net/tcp6" };
        g_autoptr(GHashTable) inodes = socket_inodes(pid);
        g_autofree char *cmdline_path = g_strdup_printf("/proc/%ld/cmdline", (long) pid);
        g_autofree char *cmdline = NULL;
        gsize len = 0;

        /* At least the bus socket (listening or accepted connections). */
        g_assert_cmpuint(g_hash_table_size(inodes), >, 0);
        for (size_t t = 0; t < G_N_ELEMENTS(tables); t++) {
                g_autofree char *text = NULL;
                g_auto(GStrv) lines = NULL;

                if (!g_file_get_contents(tables[t], &text, NULL, NULL))
                        continue;   /* no IPv6 */
                lines = g_strsplit(text, "\n", -1);
                for (guint i = 1; lines[i]; i++) {
                        g_auto(GStrv) words = g_strsplit_set(g_strstrip(lines[i]), " \t", -1);
                        guint field = 0;

                        for (guint w = 0; words[w]; w++) {
                                if (words[w][0] == '\0')
                                        continue;
                                if (field++ == 9)
                                        g_assert_false(g_hash_table_contains(inodes, words[w]));
                        }
                }
        }

        g_assert_true(g_file_get_contents(cmdline_path, &cmdline, &len, NULL));
        for (gsize off = 0; off < len; off += strlen(cmdline + off) + 1) {
                const char *arg = cmdline + off;

                g_assert_null(strstr(arg, "tcp:"));
                if (g_str_has_prefix(arg, "--config-file=")) {
                        g_autofree char *config = NULL;

                        g_assert_true(g_file_get_contents(arg + strlen("--config-file="),
                                                          &config, NULL, NULL));
                        g_assert_null(strstr(config, "tcp:"));
                        g_assert_null(strstr(config, "servicedir"));
                        g_assert_nonnull(strstr(config, "<auth>EXTERNAL</auth>"));
                }
        }
}

static DBusConnection *connect_bus(const char *address)
{
        DBusError err = DBUS_ERROR_INIT;
        DBusConnection *c = dbus_connection_open_private(address, &err);

        g_assert_cmpstr(err.message, ==, NULL);
        g_assert_nonnull(c);
        /* org.freedesktop.DBus.Hello */
        g_assert_true(dbus_bus_register(c, &err));
        g_assert_cmpstr(err.message, ==, NULL);
        g_assert_true(g_str_has_prefix(dbus_bus_get_unique_name(c), ":"));
        return c;
}

static void disconnect_bus(DBusConnection *c)
{
        dbus_connection_close(c);
        dbus_connection_unref(c);
}

/* The next message of TYPE (and MEMBER, or replying to SERIAL) on C. */
static DBusMessage *wait_message(DBusConnection *c, int type, const char *member, dbus_uint32_t serial)
{
        for (;;) {
                DBusMessage *m;

                while ((m = dbus_connection_pop_message(c))) {
                        if (dbus_message_get_type(m) == type &&
                            (!member || dbus_message_has_member(m, member)) &&
                            (!serial || dbus_message_get_reply_serial(m) == serial))
                                return m;
                        dbus_message_unref(m);
                }
                g_assert_true(dbus_connection_read_write(c, 100));
        }
}

static void assert_payload(DBusMessage *m, const guint8 *expect)
{
        DBusError err = DBUS_ERROR_INIT;
        const guint8 *data = NULL;
        int len = 0;

        g_assert_true(dbus_message_get_args(m, &err, DBUS_TYPE_ARRAY, DBUS_TYPE_BYTE, &data, &len,
                                            DBUS_TYPE_INVALID));
        g_assert_cmpint(len, ==, PAYLOAD_SIZE);
        g_assert_cmpint(memcmp(data, expect, PAYLOAD_SIZE), ==, 0);
}

static gboolean list_names_contains(DBusConnection *c, const char *name)
{
        DBusMessage *call = dbus_message_new_method_call(DBUS_SERVICE_DBUS, DBUS_PATH_DBUS,
                                                         DBUS_INTERFACE_DBUS, "ListNames");
        DBusError err = DBUS_ERROR_INIT;
        DBusMessage *reply = dbus_connection_send_with_reply_and_block(c, call, 5000, &err);
        char **names = NULL;
        int n = 0;
        gboolean found = FALSE;

        g_assert_cmpstr(err.message, ==, NULL);
        g_assert_nonnull(reply);
        g_assert_true(dbus_message_get_args(reply, &err, DBUS_TYPE_ARRAY, DBUS_TYPE_STRING,
                                            &names, &n, DBUS_TYPE_INVALID));
        for (int i = 0; i < n; i++)
                found = found || strcmp(names[i], name) == 0;
        dbus_free_string_array(names);
        dbus_message_unref(reply);
        dbus_message_unref(call);
        return found;
}

/* Hello, ListNames, RequestName, a 1 MiB round trip, a broadcast signal,
 * ReloadConfig. */
static void exercise_bus(const char *address)
{
        DBusConnection *a = connect_bus(address);
        DBusConnection *b = connect_bus(address);
        DBusError err = DBUS_ERROR_INIT;
        g_autofree guint8 *payload = g_malloc(PAYLOAD_SIZE);
        const guint8 *p = payload;
        dbus_uint32_t serial = 0;
        DBusMessage *m, *reply;

        for (int i = 0; i < PAYLOAD_SIZE; i++)
                payload[i] = (guint8) (i * 7 + i / 4096);

        g_assert_true(list_names_contains(a, DBUS_SERVICE_DBUS));
        g_assert_true(list_names_contains(a, dbus_bus_get_unique_name(b)));
        g_assert_cmpint(dbus_bus_request_name(a, TEST_NAME, DBUS_NAME_FLAG_DO_NOT_QUEUE, &err),
                        ==, DBUS_REQUEST_NAME_REPLY_PRIMARY_OWNER);
        g_assert_cmpstr(err.message, ==, NULL);
        g_assert_true(list_names_contains(b, TEST_NAME));

        /* b -> a: a 1 MiB `ay` method call; a echoes it back. */
        m = dbus_message_new_method_call(TEST_NAME, TEST_PATH, TEST_NAME, "Echo");
        g_assert_true(dbus_message_append_args(m, DBUS_TYPE_ARRAY, DBUS_TYPE_BYTE, &p, PAYLOAD_SIZE,
                                               DBUS_TYPE_INVALID));
        g_assert_true(dbus_connection_send(b, m, &serial));
        dbus_connection_flush(b);
        dbus_message_unref(m);

        m = wait_message(a, DBUS_MESSAGE_TYPE_METHOD_CALL, "Echo", 0);
        assert_payload(m, payload);
        reply = dbus_message_new_method_return(m);
        g_assert_true(dbus_message_append_args(reply, DBUS_TYPE_ARRAY, DBUS_TYPE_BYTE, &p,
                                               PAYLOAD_SIZE, DBUS_TYPE_INVALID));
        g_assert_true(dbus_connection_send(a, reply, NULL));
        dbus_connection_flush(a);
        dbus_message_unref(reply);
        dbus_message_unref(m);

        m = wait_message(b, DBUS_MESSAGE_TYPE_METHOD_RETURN, NULL, serial);
        assert_payload(m, payload);
        dbus_message_unref(m);

        /* A broadcast signal reaches a subscriber. */
        dbus_bus_add_match(b, "type='signal',interface='" TEST_NAME "',member='Tick'", &err);
        g_assert_cmpstr(err.message, ==, NULL);
        m = dbus_message_new_signal(TEST_PATH, TEST_NAME, "Tick");
        g_assert_true(dbus_connection_send(a, m, NULL));
        dbus_connection_flush(a);
        dbus_message_unref(m);
        m = wait_message(b, DBUS_MESSAGE_TYPE_SIGNAL, "Tick", 0);
        g_assert_cmpstr(dbus_message_get_sender(m), ==, dbus_bus_get_unique_name(a));
        dbus_message_unref(m);

        /* ReloadConfig: dbus-daemon rereads its file; dbus-broker asks its
         * controller (the guardian), which must answer. */
        m = dbus_message_new_method_call(DBUS_SERVICE_DBUS, DBUS_PATH_DBUS, DBUS_INTERFACE_DBUS,
                                         "ReloadConfig");
        reply = dbus_connection_send_with_reply_and_block(a, m, 5000, &err);
        g_assert_cmpstr(err.message, ==, NULL);
        g_assert_nonnull(reply);
        g_assert_cmpint(dbus_message_get_type(reply), ==, DBUS_MESSAGE_TYPE_METHOD_RETURN);
        dbus_message_unref(reply);
        dbus_message_unref(m);

        disconnect_bus(b);
        disconnect_bus(a);
}

static void test_start_stop(gconstpointer data)
{
        const Case *c = data;
        g_autoptr(GError) error = NULL;
        g_autofree char *dir = NULL;
        struct stat st;
        Bus *bus;
        pid_t pid;

        if (skip_unless_available(c->kind))
                return;
        bus = bus_start(c->kind, &error);
        g_assert_no_error(error);
        g_assert_nonnull(bus);
        g_assert_true(g_str_has_prefix(bus_get_address(bus), "unix:path="));
        pid = bus_get_pid(bus);
        g_assert_cmpint(pid, >, 0);
        g_assert_true(bus_is_alive(bus));

        dir = address_dir(bus_get_address(bus));
        g_assert_cmpint(stat(dir, &st), ==, 0);
        g_assert_true(S_ISDIR(st.st_mode));
        g_assert_cmpint(st.st_mode & 07777, ==, 0700);
        g_assert_cmpint(st.st_uid, ==, getuid());

        exercise_bus(bus_get_address(bus));
        assert_no_tcp(pid);
        g_assert_true(bus_is_alive(bus));

        bus_stop(bus);
        assert_cleaned_up(pid, dir);
}

static void test_daemon_killed(gconstpointer data)
{
        const Case *c = data;
        g_autoptr(GError) error = NULL;
        g_autofree char *dir = NULL;
        Bus *bus;
        pid_t pid;

        if (skip_unless_available(c->kind))
                return;
        bus = bus_start(c->kind, &error);
        g_assert_no_error(error);
        pid = bus_get_pid(bus);
        dir = address_dir(bus_get_address(bus));
        g_assert_true(bus_is_alive(bus));

        g_assert_cmpint(kill(pid, SIGKILL), ==, 0);
        while (bus_is_alive(bus))
                g_usleep(5000);
        /* The guardian notices on its own and removes the directory. */
        wait_cleaned_up(pid, dir);

        bus_stop(bus);
        assert_cleaned_up(pid, dir);
}

/* A child starts a bus and then ends without bus_stop(): its guardian
 * must stop the daemon and remove the directory. */
static void test_guardian(gconstpointer data)
{
        const Case *c = data;
        char line[1024] = "";
        size_t len = 0;
        int fds[2], status;
        char *space;
        pid_t child, pid;

        if (skip_unless_available(c->kind))
                return;
        g_assert_cmpint(pipe2(fds, O_CLOEXEC), ==, 0);
        child = fork();
        g_assert_cmpint(child, >=, 0);
        if (child == 0) {
                GError *error = NULL;
                Bus *bus = bus_start(c->kind, &error);
                char out[1024];
                int n = bus ? snprintf(out, sizeof(out), "%ld %s\n", (long) bus_get_pid(bus),
                                       bus_get_address(bus))
                            : snprintf(out, sizeof(out), "0 %s\n", error->message);

                if (write(fds[1], out, (size_t) n) != n)
                        _exit(2);
                if (c->sigkill)
                        raise(SIGKILL);
                _exit(0);
        }
        close(fds[1]);
        while (len < sizeof(line) - 1 && !memchr(line, '\n', len)) {
                ssize_t n = read(fds[0], line + len, sizeof(line) - 1 - len);

                if (n <= 0)
                        break;
                len += (size_t) n;
        }
        close(fds[0]);
        line[len] = '\0';
        g_strchomp(line);
        g_assert_cmpint(waitpid(child, &status, 0), ==, child);
        if (c->sigkill) {
                g_assert_true(WIFSIGNALED(status));
                g_assert_cmpint(WTERMSIG(status), ==, SIGKILL);
        } else {
                g_assert_true(WIFEXITED(status));
                g_assert_cmpint(WEXITSTATUS(status), ==, 0);
        }

        space = strchr(line, ' ');
        g_assert_nonnull(space);
        *space = '\0';
        pid = (pid_t) atol(line);
        g_assert_cmpstr(pid > 0 ? "started" : space + 1, ==, "started");
        {
                g_autofree char *dir = address_dir(space + 1);

                wait_cleaned_up(pid, dir);
                assert_cleaned_up(pid, dir);
        }
        /* We are a subreaper: collect the orphaned guardian, which ends
         * once it has cleaned up. */
        while (waitpid(-1, NULL, 0) > 0 || errno == EINTR)
                ;
}

/* The guardian must not keep ipclab's inherited fds: a pipe that ipclab
 * closes must see EOF although the guardian was forked while it was open. */
static void test_fd_hygiene(void)
{
        g_autoptr(GError) error = NULL;
        struct pollfd p;
        int fds[2];
        Bus *bus;

        if (skip_unless_available(BUS_DBUS_DAEMON))
                return;
        g_assert_cmpint(pipe(fds), ==, 0);   /* deliberately without O_CLOEXEC */
        bus = bus_start(BUS_DBUS_DAEMON, &error);
        g_assert_no_error(error);
        close(fds[1]);
        p = (struct pollfd) { .fd = fds[0], .events = POLLIN };
        g_assert_cmpint(poll(&p, 1, 1000), ==, 1);
        g_assert_cmpint(p.revents & POLLHUP, ==, POLLHUP);
        close(fds[0]);
        bus_stop(bus);
}

static void write_script(const char *path, const char *text)
{
        g_autoptr(GError) error = NULL;

        g_assert_true(g_file_set_contents(path, text, -1, &error));
        g_assert_no_error(error);
        g_assert_cmpint(chmod(path, 0755), ==, 0);
}

static gboolean dir_is_empty(const char *path)
{
        g_autoptr(GDir) d = g_dir_open(path, 0, NULL);

        g_assert_nonnull(d);
        return g_dir_read_name(d) == NULL;
}

/* A daemon that fails at start-up gives an error that quotes its stderr
 * and leaves no directory; the directory goes under $XDG_RUNTIME_DIR. */
static void test_start_failure(void)
{
        g_autoptr(GError) error = NULL;
        g_autofree char *tmp = g_dir_make_tmp("ipclab-test-bus-XXXXXX", NULL);
        g_autofree char *bin = g_build_filename(tmp, "bin", NULL);
        g_autofree char *runtime = g_build_filename(tmp, "run", NULL);
        g_autofree char *old_path = g_strdup(g_getenv("PATH"));
        g_autofree char *old_runtime = g_strdup(g_getenv("XDG_RUNTIME_DIR"));
        g_autofree char *new_path = g_strdup_printf("%s:%s", bin, old_path ? old_path : "/usr/bin:/bin");
        g_autofree char *prefix = NULL;
        static const BusKind kinds[] = { BUS_DBUS_DAEMON, BUS_DBUS_BROKER };
        char *scripts[G_N_ELEMENTS(kinds)] = { NULL };
        Bus *bus;

        g_assert_nonnull(tmp);
        g_assert_cmpint(mkdir(bin, 0700), ==, 0);
        g_assert_cmpint(mkdir(runtime, 0700), ==, 0);
        for (size_t i = 0; i < G_N_ELEMENTS(kinds); i++) {
                const char *name = kinds[i] == BUS_DBUS_DAEMON ? "dbus-daemon" : "dbus-broker";
                g_autofree char *text = g_strdup_printf("#!/bin/sh\necho 'fake %s: no configuration' >&2\nexit 3\n",
                                                        name);

                scripts[i] = g_build_filename(bin, name, NULL);
                write_script(scripts[i], text);
        }
        g_setenv("PATH", new_path, TRUE);
        g_setenv("XDG_RUNTIME_DIR", runtime, TRUE);

        for (size_t i = 0; i < G_N_ELEMENTS(kinds); i++) {
                bus = bus_start(kinds[i], &error);
                g_assert_null(bus);
                g_assert_error(error, IPCLAB_ERROR, IPCLAB_ERROR_RUN);
                g_assert_nonnull(strstr(error->message, "no configuration"));
                g_assert_nonnull(strstr(error->message, "exit status 3"));
                g_assert_true(dir_is_empty(runtime));
                g_clear_error(&error);
        }

        /* The real daemon, under XDG_RUNTIME_DIR. */
        if (old_path)
                g_setenv("PATH", old_path, TRUE);
        else
                g_unsetenv("PATH");
        if (!bus_unavailable(BUS_DBUS_DAEMON)) {
                bus = bus_start(BUS_DBUS_DAEMON, &error);
                g_assert_no_error(error);
                prefix = g_strdup_printf("unix:path=%s/ipclab-bus-", runtime);
                g_assert_true(g_str_has_prefix(bus_get_address(bus), prefix));
                bus_stop(bus);
                g_assert_true(dir_is_empty(runtime));
        }

        if (old_runtime)
                g_setenv("XDG_RUNTIME_DIR", old_runtime, TRUE);
        else
                g_unsetenv("XDG_RUNTIME_DIR");
        for (size_t i = 0; i < G_N_ELEMENTS(kinds); i++)
                g_assert_cmpint(unlink(scripts[i]), ==, 0);
        for (size_t i = 0; i < G_N_ELEMENTS(kinds); i++)
                g_free(scripts[i]);
        g_assert_cmpint(rmdir(bin), ==, 0);
        g_assert_cmpint(rmdir(runtime), ==, 0);
        g_assert_cmpint(rmdir(tmp), ==, 0);
}

static void test_misc(void)
{
        g_autoptr(GError) error = NULL;
        g_autofree char *daemon_version = NULL;
        g_autofree char *broker_version = NULL;
        Bus *bus;

        g_assert_null(bus_unavailable(BUS_P2P));
        if (!bus_unavailable(BUS_DBUS_DAEMON)) {
                daemon_version = bus_version(BUS_DBUS_DAEMON);
                g_assert_nonnull(daemon_version);
                g_assert_true(g_str_has_prefix(daemon_version, "dbus-daemon "));
                g_assert_true(g_ascii_isdigit(daemon_version[strlen("dbus-daemon ")]));
        }
        if (!bus_unavailable(BUS_DBUS_BROKER)) {
                broker_version = bus_version(BUS_DBUS_BROKER);
                g_assert_nonnull(broker_version);
                g_assert_true(g_str_has_prefix(broker_version, "dbus-broker "));
                g_assert_true(g_ascii_isdigit(broker_version[strlen("dbus-broker ")]));
        }
        g_assert_null(bus_version(BUS_P2P));

        bus = bus_start(BUS_P2P, &error);
        g_assert_null(bus);
        g_assert_error(error, IPCLAB_ERROR, IPCLAB_ERROR_RUN);
        bus_stop(NULL);
}

/* Runs every cell of the experiment TEXT once with verify=true, on the
 * buses that are installed; each must move every message intact. */
static void run_verified(const char *text)
{
        g_autoptr(GError) e = NULL;
        g_autoptr(GString) buses = g_string_new("p2p");

        for (BusKind k = BUS_DBUS_DAEMON; k <= BUS_DBUS_BROKER; k++)
                if (!bus_unavailable(k))
                        g_string_append_printf(buses, ";%s", bus_name(k));
        g_autofree char *full = g_strdup_printf("[experiment]\ntitle=t\nbus=%s\nverify=true\nwarmup=3\n"
                                                "repeat=1\n%s", buses->str, text);
        g_autoptr(Experiment) exp = experiment_load_data("seed-values.ini", full, strlen(full), NULL, &e);
        g_assert_no_error(e);
        g_assert_cmpuint(exp->cells->len, >, 0);
        g_autoptr(Runner) r = runner_new(exp);
        for (guint i = 0; i < exp->cells->len; i++) {
                const Cell *c = exp->cells->pdata[i];
                g_autofree char *d = cell_describe(c);
                Sample sm;
                g_assert_cmpint(runner_run(r, c, 0, &sm), ==, 0);
                if (sm.status != 0)
                        g_error("%s: %s", d, sm.why);
                g_assert_cmpuint(sm.messages, ==, c->count);
                g_assert_cmpuint(sm.bytes, ==, c->count * c->size);
                g_test_message("%s: ok", d);
        }
}

static void test_append_per_element_runs(void)
{
        run_verified("transport=sd-bus;libdbus;gdbus\npayload=bytes\nsize=1000;64KiB\n"
                     "marshal=append-per-element\npattern=roundtrip;oneway\nreply=echo;empty\ncount=20\n");
}

static void test_seed001_runs(void)
{
        run_verified("transport=gdbus\npayload=string;bytes\nsize=4KiB;1MiB\nmarshal=array;copy\n"
                     "pattern=roundtrip\nreply=short;echo\ncount=5\n");
        run_verified("transport=gdbus\npayload=string\nsize=100\nmarshal=copy\npattern=oneway\ncount=20\n");
}

/* The server's side of server_buffer_after_one(), in its own process
 * (GDBus starts threads: neither this process nor any later fork of the
 * test may have used it).  Writes READY, then how much of the per-element
 * receive buffer the message took, to FD; exits 0 if the message arrived
 * intact and the stream ended. */
static void serve_one(const Transport *t, const Cell *cell, char *dir, const guint8 *data, int fd)
{
        Endpoint srv;
        const void *got = NULL;
        size_t len = 0, used;
        int ok;

        IpclabCell seen;
        transport_cell(cell, &seen);
        endpoint_init(&srv, &seen);
        srv.dir = dir;
        if ((t->prepare && t->prepare(&srv) < 0) || t->open(&srv, ROLE_SERVER) < 0) {
                fprintf(stderr, "%s server: %s\n", t->name, srv.why);
                _exit(1);
        }
        if (write(fd, "R", 1) != 1)
                _exit(1);
        ok = t->recv(&srv, &got, &len, cell->size) == 1 && len == cell->size &&
             memcmp(got, data, len) == 0;
        used = srv.buf_size;
        ok = ok && t->recv(&srv, &got, &len, cell->size) == 0;   /* End */
        if (!ok)
                fprintf(stderr, "%s server: %s\n", t->name, srv.why);
        t->close(&srv);
        if (write(fd, &used, sizeof used) != (ssize_t) sizeof used)
                _exit(1);
        _exit(ok ? 0 : 1);
}

static void wait_ok(pid_t pid, const char *what)
{
        int status = 0;

        g_assert_cmpint(waitpid(pid, &status, 0), ==, pid);
        if (!WIFEXITED(status) || WEXITSTATUS(status) != 0)
                g_error("%s failed (status %d)", what, status);
}

/* One byte array of SIZE bytes from a client process to a p2p server
 * process of TRANSPORT with MARSHAL; returns how much of the server's
 * per-element receive buffer the message took (0: read whole). */
static size_t server_buffer_after_one(const char *transport, Marshal marshal, size_t size)
{
        const Transport *t = transport_find(transport);
        Cell cell = { .transport = transport, .bus = BUS_P2P, .payload = PAYLOAD_BYTES, .size = size,
                      .pattern = PATTERN_ONEWAY, .reply = REPLY_ECHO, .marshal = marshal, .count = 1 };
        g_autofree char *dir = g_dir_make_tmp("ipclab-bus-XXXXXX", NULL);
        g_autofree guint8 *data = g_malloc(size + 1);
        int fds[2];
        char ready = 0;
        size_t used = 0;

        g_assert_nonnull(t);
        g_assert_nonnull(dir);
        for (size_t i = 0; i < size; i++)
                data[i] = (guint8) (i * 13 + 5);
        data[size] = 0;
        g_assert_cmpint(pipe(fds), ==, 0);
        pid_t server = fork();
        g_assert_cmpint(server, >=, 0);
        if (server == 0) {
                close(fds[0]);
                serve_one(t, &cell, dir, data, fds[1]);
        }
        close(fds[1]);
        g_assert_cmpint(read(fds[0], &ready, 1), ==, 1);
        pid_t client = fork();
        g_assert_cmpint(client, >=, 0);
        if (client == 0) {
                Endpoint cli;
                IpclabCell seen;
                transport_cell(&cell, &seen);
                endpoint_init(&cli, &seen);
                cli.dir = dir;
                int ok = t->open(&cli, ROLE_CLIENT) == 0 && t->send(&cli, data, size, SEND_NO_REPLY) == 0 &&
                         t->send_end(&cli) == 0;
                if (!ok)
                        fprintf(stderr, "%s client: %s\n", t->name, cli.why);
                t->close(&cli);
                _exit(ok ? 0 : 1);
        }
        g_assert_cmpint(read(fds[0], &used, sizeof used), ==, sizeof used);
        close(fds[0]);
        wait_ok(client, "the client");
        wait_ok(server, "the server");
        g_autofree char *sock = g_build_filename(dir, "p2p", NULL);
        unlink(sock);   /* the server's socket, if the transport left it */
        g_assert_cmpint(rmdir(dir), ==, 0);
        return used;
}

static void test_append_per_element_reads_whole(void)
{
        static const char *const transports[] = { "sd-bus", "libdbus", "gdbus" };

        for (size_t i = 0; i < G_N_ELEMENTS(transports); i++) {
                const Transport *t = transport_find(transports[i]);
                if (t->unavailable && t->unavailable()) {
                        g_test_message("%s: %s", transports[i], t->unavailable());
                        continue;
                }
                /* The observable is real: a per-element server fills it. */
                g_assert_cmpuint(server_buffer_after_one(transports[i], MARSHAL_PER_ELEMENT, 20480), >, 20480);
                g_assert_cmpuint(server_buffer_after_one(transports[i], MARSHAL_APPEND_PER_ELEMENT, 20480), ==, 0);
                g_assert_cmpuint(server_buffer_after_one(transports[i], MARSHAL_ARRAY, 20480), ==, 0);
        }
}

/* How many messages of MEMBER the dbus-monitor output in PATH shows. */
static guint count_member(const char *path, const char *member)
{
        g_autofree char *text = NULL;
        g_autofree char *needle = g_strdup_printf("member=%s\n", member);
        guint n = 0;

        if (!g_file_get_contents(path, &text, NULL, NULL))
                return 0;
        for (const char *p = text; (p = strstr(p, needle)); p += strlen(needle))
                n++;
        return n;
}

/* The sd-bus server through dbus-daemon, under dbus-monitor: the calls
 * reach it with no credential look-up per call (GetConnectionUnixUser,
 * which sd-bus makes for a method that is not marked unprivileged on a
 * connection it does not trust, and which cost the daemon 14-20 us a
 * call, part of the bus CPU it reported; issue 9). */
static void test_sdbus_no_lookups(void)
{
        const Transport *t = transport_find("sd-bus");
        const guint calls = 5;
        g_autoptr(GError) e = NULL;

        if (t->unavailable && t->unavailable()) {
                g_test_skip(t->unavailable());
                return;
        }
        if (skip_unless_available(BUS_DBUS_DAEMON))
                return;
        if (!g_find_program_in_path("dbus-monitor")) {
                g_test_skip("dbus-monitor is not installed");
                return;
        }
        Bus *bus = bus_start(BUS_DBUS_DAEMON, &e);
        g_assert_no_error(e);
        g_autofree char *dir = g_dir_make_tmp("ipclab-bus-XXXXXX", NULL);
        g_autofree char *mon = g_build_filename(dir, "monitor.txt", NULL);
        pid_t monitor = fork();
        g_assert_cmpint(monitor, >=, 0);
        if (monitor == 0) {
                int fd = open(mon, O_WRONLY | O_CREAT | O_TRUNC, 0600);
                dup2(fd, STDOUT_FILENO);
                execlp("dbus-monitor", "dbus-monitor", "--address", bus_get_address(bus), (char *) NULL);
                _exit(127);
        }
        /* The monitor is in place once it has its name (it prints that). */
        while (!count_member(mon, "NameAcquired"))
                g_usleep(25000);

        Cell cell = { .transport = "sd-bus", .bus = BUS_DBUS_DAEMON, .payload = PAYLOAD_BYTES, .size = 64,
                      .pattern = PATTERN_ROUNDTRIP, .reply = REPLY_EMPTY, .marshal = MARSHAL_ARRAY,
                      .count = calls };
        int fds[2];
        char ready = 0;
        g_assert_cmpint(pipe(fds), ==, 0);
        pid_t server = fork();
        g_assert_cmpint(server, >=, 0);
        if (server == 0) {
                Endpoint srv;
                const void *got;
                size_t len;
                int r;
                close(fds[0]);
                IpclabCell seen;
                transport_cell(&cell, &seen);
                endpoint_init(&srv, &seen);
                srv.dir = dir;
                srv.bus_address = bus_get_address(bus);
                if (t->open(&srv, ROLE_SERVER) < 0 || write(fds[1], "R", 1) != 1)
                        _exit(1);
                while ((r = t->recv(&srv, &got, &len, cell.size)) == 1)
                        if (t->send(&srv, "", 0, 0) < 0)
                                _exit(1);
                r = r == 0 && t->send(&srv, "ack", 3, 0) == 0 ? 0 : 1;
                t->close(&srv);
                _exit(r);
        }
        close(fds[1]);
        g_assert_cmpint(read(fds[0], &ready, 1), ==, 1);
        close(fds[0]);
        pid_t client = fork();
        g_assert_cmpint(client, >=, 0);
        if (client == 0) {
                Endpoint cli;
                char data[64] = { 0 };
                const void *reply;
                size_t len;
                IpclabCell seen;
                transport_cell(&cell, &seen);
                endpoint_init(&cli, &seen);
                cli.dir = dir;
                cli.bus_address = bus_get_address(bus);
                int ok = t->open(&cli, ROLE_CLIENT) == 0;
                for (guint i = 0; ok && i < calls; i++)
                        ok = t->call(&cli, data, sizeof data, &reply, &len, 0) == 1;
                ok = ok && t->send_end(&cli) == 0 && t->recv(&cli, &reply, &len, 3) == 1;
                t->close(&cli);
                _exit(ok ? 0 : 1);
        }
        wait_ok(client, "the sd-bus client");
        wait_ok(server, "the sd-bus server");
        /* A last signal, sent after every call was answered, so routed
         * after them: once the monitor has written it, it has written
         * everything before it. */
        DBusConnection *last = connect_bus(bus_get_address(bus));
        DBusMessage *m = dbus_message_new_signal("/ipclab/test", "org.ipclab.Test", "IpclabTestEnd");
        g_assert_true(dbus_connection_send(last, m, NULL));
        dbus_connection_flush(last);
        dbus_message_unref(m);
        while (!count_member(mon, "IpclabTestEnd"))
                g_usleep(25000);
        disconnect_bus(last);
        kill(monitor, SIGTERM);
        waitpid(monitor, NULL, 0);
        g_assert_cmpuint(count_member(mon, "SendBytes"), ==, calls);
        guint lookups = count_member(mon, "GetConnectionUnixUser");
        if (lookups)
                g_test_fail_printf("%u GetConnectionUnixUser calls for %u method calls", lookups, calls);
        bus_stop(bus);
        unlink(mon);
        g_assert_cmpint(rmdir(dir), ==, 0);
}

int main(int argc, char **argv)
{
        static const Case daemon = { BUS_DBUS_DAEMON, FALSE };
        static const Case broker = { BUS_DBUS_BROKER, FALSE };
        static const Case daemon_sigkill = { BUS_DBUS_DAEMON, TRUE };
        static const Case broker_sigkill = { BUS_DBUS_BROKER, TRUE };

        g_test_init(&argc, &argv, NULL);
        transports_install(&transport_ops);
        experiment_install_claim_check(verify_claim_check);
        /* Orphaned guardians are re-parented to us, so we can reap them. */
        prctl(PR_SET_CHILD_SUBREAPER, 1);

        g_test_add_func("/bus/misc", test_misc);
        g_test_add_func("/bus/sd-bus/no-credential-lookups", test_sdbus_no_lookups);
        g_test_add_func("/bus/append-per-element/reads-whole", test_append_per_element_reads_whole);
        g_test_add_func("/bus/append-per-element/runs", test_append_per_element_runs);
        g_test_add_func("/bus/seed-001/runs", test_seed001_runs);
        g_test_add_func("/bus/fd-hygiene", test_fd_hygiene);
        g_test_add_func("/bus/start-failure", test_start_failure);
        g_test_add_data_func("/bus/dbus-daemon/start-stop", &daemon, test_start_stop);
        g_test_add_data_func("/bus/dbus-broker/start-stop", &broker, test_start_stop);
        g_test_add_data_func("/bus/dbus-daemon/daemon-killed", &daemon, test_daemon_killed);
        g_test_add_data_func("/bus/dbus-broker/daemon-killed", &broker, test_daemon_killed);
        g_test_add_data_func("/bus/dbus-daemon/guardian-exit", &daemon, test_guardian);
        g_test_add_data_func("/bus/dbus-broker/guardian-exit", &broker, test_guardian);
        g_test_add_data_func("/bus/dbus-daemon/guardian-sigkill", &daemon_sigkill, test_guardian);
        g_test_add_data_func("/bus/dbus-broker/guardian-sigkill", &broker_sigkill, test_guardian);
        return g_test_run();
}
