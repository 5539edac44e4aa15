/* stop-after-rows.c: an LD_PRELOAD shim for the tests that interrupt a
 * run at a chosen point (harness/tests/tap.sh, stop_shim).  `ipclab run`
 * appends each finished repetition to its resume file (.NAME.partial.tsv)
 * and then calls fdatasync() on it; with IPCLAB_TEST_STOP_ROWS=K in the
 * environment, the process stops itself with SIGSTOP right after the K-th
 * of those calls, so that the test finds it stopped with exactly K new rows
 * on disk, acts (a signal, a second run, a cut connection), and lets it go
 * on with SIGCONT.  Without the variable it only passes the call on. */
#define _GNU_SOURCE
#include <dlfcn.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

static const char suffix[] = ".partial.tsv";
static unsigned long rows;

static int is_partial(int fd)
{
        char link[64], path[4096];
        ssize_t n;

        snprintf(link, sizeof link, "/proc/self/fd/%d", fd);
        n = readlink(link, path, sizeof path - 1);
        if (n < (ssize_t) sizeof suffix - 1)
                return 0;
        path[n] = '\0';
        return strcmp(path + n - (sizeof suffix - 1), suffix) == 0;
}

int fdatasync(int fd)
{
        static int (*real)(int);
        const char *want = getenv("IPCLAB_TEST_STOP_ROWS");
        int r;

        if (!real)
                real = (int (*)(int)) dlsym(RTLD_NEXT, "fdatasync");
        r = real(fd);
        if (r == 0 && want && is_partial(fd) && ++rows == strtoul(want, NULL, 10))
                raise(SIGSTOP);
        return r;
}
