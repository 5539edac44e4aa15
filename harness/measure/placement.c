/* placement.c: where a repetition's processes ran (see placement.h). */
#include "placement.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

/* Reads the small file PATH into BUF (NUL-terminated); its length, or
 * -errno.  open, read, close: no allocation. */
static ssize_t read_small(const char *path, char *buf, size_t size)
{
        int fd = open(path, O_RDONLY | O_CLOEXEC);
        ssize_t n, len = 0;

        if (fd < 0)
                return -errno;
        while (len < (ssize_t) size - 1 && (n = read(fd, buf + len, size - 1 - (size_t) len)) != 0) {
                if (n < 0) {
                        if (errno == EINTR)
                                continue;
                        int e = errno;
                        close(fd);
                        return -e;
                }
                len += n;
        }
        close(fd);
        buf[len] = '\0';
        return len;
}

/* Field NR (1-based, as proc(5) numbers them) of a stat line, counted
 * from the last ')' (the command name may hold anything); -1 if absent. */
static long long stat_field(const char *text, int nr)
{
        const char *p = strrchr(text, ')');

        if (!p)
                return -1;
        p++;
        for (int f = 3; f <= nr; f++) {
                while (*p == ' ')
                        p++;
                if (!*p)
                        return -1;
                if (f == nr)
                        return strtoll(p, NULL, 10);
                while (*p && *p != ' ')
                        p++;
        }
        return -1;
}

/* The value of "NAME   :   VALUE" in /proc/.../sched text. */
static const char *sched_value(const char *text, const char *name)
{
        size_t len = strlen(name);

        for (const char *p = text; (p = strstr(p, name)); p += len) {
                if (p != text && p[-1] != '\n')
                        continue;
                const char *q = p + len;
                while (*q == ' ')
                        q++;
                if (*q != ':')
                        continue;
                return q + 1;
        }
        return NULL;
}

/* "  8.901180" (milliseconds, six decimals) in ns. */
static guint64 sched_ms_to_ns(const char *v)
{
        char *end;
        guint64 ms = strtoull(v, &end, 10), frac = 0;
        int digits = 0;

        if (*end == '.')
                for (end++; *end >= '0' && *end <= '9' && digits < 6; end++, digits++)
                        frac = frac * 10 + (guint64) (*end - '0');
        for (; digits < 6; digits++)
                frac *= 10;
        return ms * 1000000u + frac;
}

/* One thread of PID. */
static int snap_thread(pid_t pid, pid_t tid, PlacementThread *t, bool *have_migrations)
{
        char path[96], buf[4096];
        ssize_t n;

        t->tid = tid;
        snprintf(path, sizeof path, "/proc/%d/task/%d/stat", (int) pid, (int) tid);
        if ((n = read_small(path, buf, sizeof buf)) < 0)
                return (int) n;
        long long cpu = stat_field(buf, 39);
        long long ticks = stat_field(buf, 14) + stat_field(buf, 15);
        if (cpu < 0)
                return -EPROTO;
        t->cpu = (int) cpu;
        /* The scheduler's runtime and migrations (CONFIG_SCHED_DEBUG). */
        snprintf(path, sizeof path, "/proc/%d/task/%d/sched", (int) pid, (int) tid);
        if (read_small(path, buf, sizeof buf) > 0) {
                const char *m = sched_value(buf, "se.nr_migrations");
                const char *r = sched_value(buf, "se.sum_exec_runtime");
                if (m && r) {
                        t->migrations = strtoull(m, NULL, 10);
                        t->runtime_ns = sched_ms_to_ns(r);
                        return 0;
                }
        }
        *have_migrations = false;
        t->migrations = 0;
        snprintf(path, sizeof path, "/proc/%d/task/%d/schedstat", (int) pid, (int) tid);
        if (read_small(path, buf, sizeof buf) > 0)
                t->runtime_ns = strtoull(buf, NULL, 10);
        else
                t->runtime_ns = ticks > 0 ? (guint64) ticks * (1000000000u / (guint64) sysconf(_SC_CLK_TCK)) : 0;
        return 0;
}

int placement_snap(pid_t pid, PlacementProc *p)
{
        char path[64];
        DIR *d;
        struct dirent *e;

        memset(p, 0, sizeof *p);
        p->pid = pid;
        if (pid <= 0)
                return -EINVAL;
        snprintf(path, sizeof path, "/proc/%d/task", (int) pid);
        if (!(d = opendir(path)))
                return -errno;
        p->have_migrations = true;
        while ((e = readdir(d)) && p->n < PLACEMENT_THREADS) {
                char *end;
                long tid = strtol(e->d_name, &end, 10);
                if (e->d_name[0] < '0' || e->d_name[0] > '9' || *end || tid <= 0)
                        continue;
                /* A thread that ended meanwhile is not one to place. */
                if (snap_thread(pid, (pid_t) tid, &p->t[p->n], &p->have_migrations) == 0)
                        p->n++;
        }
        closedir(d);
        p->ok = p->n > 0;
        return p->ok ? 0 : -ESRCH;
}

int placement_snap_thread(pid_t tid, PlacementProc *p)
{
        memset(p, 0, sizeof *p);
        p->pid = tid;
        if (tid <= 0)
                return -EINVAL;
        p->have_migrations = true;
        /* /proc/TID/task/TID names the thread whichever thread leads. */
        int r = snap_thread(tid, tid, &p->t[0], &p->have_migrations);
        p->n = r == 0;
        p->ok = r == 0;
        return r;
}

static const PlacementThread *find_thread(const PlacementProc *p, pid_t tid)
{
        for (guint i = 0; i < p->n; i++)
                if (p->t[i].tid == tid)
                        return &p->t[i];
        return NULL;
}

/* The CPUs a side's threads ran on in the window, as a set. */
typedef struct {
        cpu_set_t set;
        guint n;
} CpuSet;

static void cpuset_add(CpuSet *s, int cpu)
{
        if (cpu < 0 || cpu >= CPU_SETSIZE || CPU_ISSET(cpu, &s->set))
                return;
        CPU_SET(cpu, &s->set);
        s->n++;
}

/* Whether A and B share a CPU. */
static bool cpuset_meet(const CpuSet *a, const CpuSet *b)
{
        cpu_set_t both;

        CPU_AND(&both, &a->set, &b->set);
        return CPU_COUNT(&both) > 0;
}

/* Whether every CPU of A is in B. */
static bool cpuset_within(const CpuSet *a, const CpuSet *b)
{
        cpu_set_t both;

        CPU_AND(&both, &a->set, &b->set);
        return CPU_COUNT(&both) == CPU_COUNT(&a->set);
}

void placement_observe(const PlacementProc before[PLACE_N_ROLES], const PlacementProc after[PLACE_N_ROLES],
                       const int end_cpu[PLACE_N_ROLES], Placement *out)
{
        CpuSet used[PLACE_N_ROLES], all;
        bool moved = false, unknown = false, have_migrations = true;
        gint64 migrations = 0;

        memset(used, 0, sizeof used);
        memset(&all, 0, sizeof all);
        for (int r = 0; r < PLACE_N_ROLES; r++) {
                const PlacementProc *b = &before[r], *a = &after[r];
                guint64 busiest = 0;

                out->on_cpu[r] = -1;
                if (!a->pid && !b->pid)
                        continue;
                if (!a->ok || !b->ok || a->pid != b->pid) {
                        unknown = true;
                        continue;
                }
                have_migrations &= a->have_migrations && b->have_migrations;
                for (guint i = 0; i < a->n; i++) {
                        const PlacementThread *ta = &a->t[i], *tb = find_thread(b, ta->tid);
                        guint64 ran = tb ? (ta->runtime_ns > tb->runtime_ns ? ta->runtime_ns - tb->runtime_ns : 0)
                                         : ta->runtime_ns;
                        if (!ran)
                                continue;   /* slept through the window */
                        gint64 m = tb ? (gint64) (ta->migrations - tb->migrations) : (gint64) ta->migrations;
                        int cpu = ta->cpu;
                        /* The main thread's one wake-up after the window
                         * (placement.h): where it was at the window's end
                         * is what the window saw. */
                        if (ta->tid == a->pid && end_cpu[r] >= 0 && end_cpu[r] != cpu) {
                                cpu = end_cpu[r];
                                if (m > 0)
                                        m--;
                        }
                        int start = tb ? tb->cpu : cpu;
                        if (m > 0 || start != cpu)
                                moved = true;
                        migrations += m > 0 ? m : 0;
                        cpuset_add(&used[r], cpu);
                        cpuset_add(&all, cpu);
                        if (ran > busiest || out->on_cpu[r] < 0) {
                                busiest = ran;
                                out->on_cpu[r] = cpu;
                        }
                }
        }
        out->migrations = have_migrations && !unknown ? migrations : -1;
        if (unknown || !before[PLACE_SERVER].pid || !used[PLACE_CLIENT].n || !used[PLACE_SERVER].n)
                out->mode = PLACEMENT_UNKNOWN;   /* one process, or not seen */
        else if (moved)
                out->mode = PLACEMENT_MOVED;
        else if (all.n == 1)
                out->mode = PLACEMENT_SAME;
        else if (!cpuset_meet(&used[PLACE_CLIENT], &used[PLACE_SERVER]) &&
                 cpuset_within(&used[PLACE_BUS], &used[PLACE_SERVER]))
                out->mode = PLACEMENT_SPLIT;
        else
                out->mode = PLACEMENT_OTHER;
}

int placement_pin_process(pid_t pid, const cpu_set_t *set)
{
        char path[64];
        DIR *d;
        struct dirent *e;
        int r = 0;

        snprintf(path, sizeof path, "/proc/%d/task", (int) pid);
        if (!(d = opendir(path)))
                return -errno;
        while ((e = readdir(d))) {
                char *end;
                long tid = strtol(e->d_name, &end, 10);
                if (e->d_name[0] < '0' || e->d_name[0] > '9' || *end || tid <= 0)
                        continue;
                if (sched_setaffinity((pid_t) tid, sizeof *set, set) < 0 && errno != ESRCH && !r)
                        r = -errno;
        }
        closedir(d);
        return r;
}
