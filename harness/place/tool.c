/* tool.c: the tools remote.c (SSH) and slurm.c share (remote-internal.h):
 * starting a tool, following its output (the target's run's is passed on
 * as it comes, progress.h, as a run here would show it), and reading what
 * it said.  Never prints; errors come back through GError. */
#include "remote.h"
#include "remote-internal.h"
#include "progress.h"

#include <errno.h>
#include <fcntl.h>
#include <gnu/libc-version.h>
#include <signal.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/utsname.h>
#include <sys/wait.h>
#include <unistd.h>

#include "latency.h"
#include "run.h"
#include "safefile.h"
#include "history.h"
#include "samples.h"
#include "spawn.h"
#include "untar.h"

/* Seconds a stopped target's run has to send back its resume file before
 * the connection is cut. */
#define REMOTE_STOP_GRACE_S 20

/* Spawns ARGV with stdin IN_FD and stdout OUT_FD (-1: a pipe returned in
 * *OUT_PIPE when OUT_PIPE is set, else /dev/null) and stderr a pipe
 * returned in *ERR_PIPE.  Returns the pid, or -1 with ERROR. */
GPid remote_spawn(const char *const *argv, int in_fd, int out_fd, int *out_pipe, int *err_pipe, GError **error)
{
        SpawnOpts o = { .argv = argv, .in_fd = in_fd, .out_fd = out_fd >= 0 ? out_fd : out_pipe ? SPAWN_PIPE : -1,
                        .err_fd = SPAWN_PIPE };
        SpawnChild c;
        int r = spawn_start(&o, &c);

        if (r < 0) {
                g_set_error(error, IPCLAB_ERROR, IPCLAB_ERROR_RUN, "cannot run %s: %s", argv[0], g_strerror(-r));
                return -1;
        }
        /* remote_pump() and remote_wait_exit() follow the pid */
        if (c.pidfd >= 0)
                close(c.pidfd);
        if (out_fd < 0 && out_pipe)
                *out_pipe = c.out;
        *err_pipe = c.err;
        return c.pid;
}

int remote_wait_exit(GPid pid)
{
        SpawnChild c;
        int status = 0;

        spawn_adopt(pid, -1, false, &c);
        int r = spawn_wait(&c, 0, 0, NULL, NULL, NULL, &status);
        if (r < 0)
                return r;
        return WIFEXITED(status) ? WEXITSTATUS(status) : 128 + WTERMSIG(status);
}


/* Passes TEXT from elsewhere on (progress.h), as safefile_terminal_text() makes it. */
static void forward_text(const char *text, gsize len)
{
        g_autofree char *safe = safefile_terminal_text(text, len);
        progress_forward(safe, strlen(safe));
}

/* One whole line LINE (with its newline) of the target's stderr. */
static void pump_line(Pump *p, const char *line, gsize len)
{
        if (g_str_has_prefix(line, REMOTE_PARTIAL_LAT_MARK)) {
                const char *row = line + strlen(REMOTE_PARTIAL_LAT_MARK);
                /* Its header starts it again, as for the samples. */
                if (g_str_has_prefix(row, LATENCY_HEADER))
                        g_string_truncate(p->partial_lat, 0);
                g_string_append(p->partial_lat, row);
                return;
        }
        if (g_str_has_prefix(line, REMOTE_PARTIAL_MARK)) {
                const char *row = line + strlen(REMOTE_PARTIAL_MARK);
                /* A header starts the file again (it is rewritten whole when
                 * a run starts, then appended to). */
                if (g_str_has_prefix(row, "# ipclab partial "))
                        g_string_truncate(p->partial, 0);
                g_string_append(p->partial, row);
                return;
        }
        g_string_append_len(p->log, line, (gssize) len);
        if (p->forward)
                forward_text(line, len);
}

/* SpawnCheck: stop when an interrupt came that remote_pump() has not
 * acted on yet (*DATA is false). */
static int pump_stop(void *data)
{
        return spawn_interrupted && !*(const bool *) data ? -EINTR : 0;
}

/* Reads PUMP's pipes until both are closed; on an interrupt closes
 * *STOP_FD (the target's run sees its stdin end and stops) and kills PID
 * if it has not ended REMOTE_STOP_GRACE_S later.  Returns whether it was
 * interrupted. */
bool remote_pump(Pump *p)
{
        gint64 kill_at = 0;
        bool interrupted = false;
        int first = 0;   /* 0: stdout, 1: stderr; looked at first, in turn */

        while (p->out >= 0 || p->err >= 0) {
                if (spawn_interrupted && !interrupted) {
                        interrupted = true;
                        if (p->stop_fd && *p->stop_fd >= 0) {
                                close(*p->stop_fd);
                                *p->stop_fd = -1;
                        }
                        kill_at = g_get_monotonic_time() + REMOTE_STOP_GRACE_S * G_USEC_PER_SEC;
                }
                if (kill_at && g_get_monotonic_time() >= kill_at) {
                        kill(p->pid, SIGKILL);
                        kill_at = 0;
                }
                int *pipes[2] = { &p->out, &p->err };
                int fds[2] = { *pipes[first], *pipes[1 - first] };
                int r = spawn_watch(NULL, fds, 2, kill_at, pump_stop, &interrupted);
                if (r == -EINTR || r == -ETIMEDOUT)
                        continue;
                if (r < 0)
                        break;
                int i = r == 0 ? first : 1 - first;
                int *fd = pipes[i];
                first = 1 - i;   /* neither pipe keeps the other waiting */
                char buf[8192];
                ssize_t k = read(*fd, buf, sizeof buf);
                if (k < 0 && errno == EINTR)
                        continue;
                if (k <= 0) {
                        close(*fd);
                        *fd = -1;
                        continue;
                }
                if (i == 0 && p->untar && !p->untar_error &&
                    !untar_feed(p->untar, buf, (gsize) k, &p->untar_error)) {
                        /* Refused: the rest of the stream is not read. */
                        close(*fd);
                        *fd = -1;
                        kill(p->pid, SIGKILL);
                        continue;
                }
                if (i == 0 && p->out_text)
                        g_string_append_len(p->out_text, buf, k);
                if (i == 1 && p->partial) {
                        g_string_append_len(p->line, buf, k);
                        char *nl;
                        while ((nl = memchr(p->line->str, '\n', p->line->len))) {
                                gsize len = (gsize) (nl - p->line->str) + 1;
                                g_autofree char *l = g_strndup(p->line->str, len);
                                pump_line(p, l, len);
                                g_string_erase(p->line, 0, (gssize) len);
                        }
                } else if (i == 1) {
                        g_string_append_len(p->log, buf, k);
                        if (p->forward)
                                forward_text(buf, (gsize) k);
                }
        }
        return interrupted;
}

/* The last line of TEXT (from elsewhere) that says something, for an
 * error message: as safefile_terminal_text() makes it, at most 300 bytes. */
char *remote_last_line(const char *text)
{
        g_auto(GStrv) lines = g_strsplit(text ? text : "", "\n", -1);
        for (int i = (int) g_strv_length(lines) - 1; i >= 0; i--) {
                g_strstrip(lines[i]);
                if (lines[i][0]) {
                        g_autofree char *safe = safefile_terminal_text(lines[i], MIN(strlen(lines[i]), (gsize) 300));
                        g_strdelimit(safe, "\t", ' ');
                        return g_steal_pointer(&safe);
                }
        }
        return g_strdup("no message");
}
