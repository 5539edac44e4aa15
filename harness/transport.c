/* transport.c: the transport table and helpers shared by transports. */
#include "transport.h"

#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

/* The C++ transports where they were not built (see transport.h): listed,
 * unavailable with the reason.  Weak: the definitions in qtdbus.cpp and
 * sdbus-cpp.cpp take their place wherever those are linked in, so no
 * build (the fuzzers' included) has to say which it compiled. */
static int not_built_open(Endpoint *ep, Role role)
{
        (void) role;
        return endpoint_fail(ep, ENOTSUP, "%s", transport_find(ep->cell->transport)->unavailable());
}

#define NOT_BUILT(id, NAME, SUMMARY, FLAGS, WHY) \
        static const char *id##_unavailable(void) { return WHY; } \
        __attribute__((weak)) const Transport transport_##id = { \
                .name = NAME, .family = "dbus", .summary = SUMMARY, .flags = FLAGS, \
                .unavailable = id##_unavailable, .open = not_built_open };

NOT_BUILT(qtdbus, "qtdbus", QTDBUS_SUMMARY, QTDBUS_FLAGS,
          "built without QtDBus 5 (Qt5DBus, qtbase5-dev; or CXX_TRANSPORTS=no)")
NOT_BUILT(sdbus_cpp, "sdbus-c++", SDBUSCPP_SUMMARY, SDBUSCPP_FLAGS,
          "built without sdbus-c++ (libsdbus-c++-dev; or CXX_TRANSPORTS=no)")

#define TRANSPORT_ENTRY(id) &transport_##id,
const Transport *const transport_table[] = {
        TRANSPORTS(TRANSPORT_ENTRY)
        NULL,
};
#undef TRANSPORT_ENTRY

static const Transport *extra[16];

void transport_add_extra(const Transport *t)
{
        for (size_t i = 0; i < G_N_ELEMENTS(extra); i++) {
                if (!extra[i]) {
                        extra[i] = t;
                        return;
                }
        }
        g_error("transport_add_extra: no room for %s", t->name);
}

const Transport *transport_find(const char *name)
{
        for (size_t i = 0; transport_table[i]; i++)
                if (strcmp(transport_table[i]->name, name) == 0)
                        return transport_table[i];
        for (size_t i = 0; i < G_N_ELEMENTS(extra) && extra[i]; i++)
                if (strcmp(extra[i]->name, name) == 0)
                        return extra[i];
        return NULL;
}

void endpoint_init(Endpoint *ep, const Cell *cell)
{
        memset(ep, 0, sizeof *ep);
        ep->cell = cell;
        for (size_t i = 0; i < G_N_ELEMENTS(ep->fd); i++)
                ep->fd[i] = -1;
}

int endpoint_fail(Endpoint *ep, int err, const char *fmt, ...)
{
        va_list ap;

        va_start(ap, fmt);
        vsnprintf(ep->why, sizeof ep->why, fmt, ap);
        va_end(ap);
        if (err > 0) {
                size_t n = strlen(ep->why);
                snprintf(ep->why + n, sizeof ep->why - n, ": %s", g_strerror(err));
        }
        return err > 0 ? -err : -EIO;
}

long transport_sysctl(const char *path, long fallback)
{
        g_autofree char *text = NULL;

        if (!g_file_get_contents(path, &text, NULL, NULL))
                return fallback;
        long v = strtol(text, NULL, 10);
        return v > 0 ? v : fallback;
}

void *endpoint_buffer(Endpoint *ep, size_t len)
{
        if (len > ep->buf_size) {
                void *p = g_try_realloc(ep->buf, len);
                if (!p)
                        return NULL;
                ep->buf = p;
                ep->buf_size = len;
        }
        return ep->buf;
}

int io_write_all(int fd, const void *buf, size_t len)
{
        const char *p = buf;

        while (len > 0) {
                ssize_t n = write(fd, p, len);
                if (n < 0) {
                        if (errno == EINTR)
                                continue;
                        return -errno;
                }
                p += n;
                len -= (size_t) n;
        }
        return 0;
}

int io_read_exact(int fd, void *buf, size_t len)
{
        char *p = buf;
        size_t got = 0;

        while (got < len) {
                ssize_t n = read(fd, p + got, len - got);
                if (n < 0) {
                        if (errno == EINTR)
                                continue;
                        return -errno;
                }
                if (n == 0)
                        return got == 0 ? 0 : -EPROTO;
                got += (size_t) n;
        }
        return 1;
}

void io_close(int *fd)
{
        if (*fd >= 0) {
                close(*fd);
                *fd = -1;
        }
}
