/* slow-scanf.c: an LD_PRELOAD shim for test-window.sh.  Every sscanf()
 * sleeps a second first.  The runner parses the server's ack with sscanf,
 * so a timed window that still held the ack would last at least a second. */
#include <stdarg.h>
#include <time.h>

int vsscanf(const char *s, const char *format, va_list ap);
int __isoc99_sscanf(const char *s, const char *format, ...);
int sscanf(const char *s, const char *format, ...);

static int slow_vsscanf(const char *s, const char *format, va_list ap)
{
        struct timespec nap = { 1, 0 };

        nanosleep(&nap, NULL);
        return vsscanf(s, format, ap);
}

int __isoc99_sscanf(const char *s, const char *format, ...)
{
        va_list ap;

        va_start(ap, format);
        int r = slow_vsscanf(s, format, ap);
        va_end(ap);
        return r;
}

int sscanf(const char *s, const char *format, ...)
{
        va_list ap;

        va_start(ap, format);
        int r = slow_vsscanf(s, format, ap);
        va_end(ap);
        return r;
}
