/* safefile.c: files opened as what they must be (see safefile.h). */
#include "safefile.h"

#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "ipclab-error.h"

char *safefile_terminal_text(const char *text, gsize len)
{
        GString *out = g_string_sized_new(len);
        const char *p = text, *end = text + len;

        while (p < end) {
                gunichar c = g_utf8_get_char_validated(p, end - p);
                if (c == (gunichar) -1 || c == (gunichar) -2) {
                        g_string_append_c(out, '?');
                        p++;
                        continue;
                }
                if ((c < 0x20 && c != '\n' && c != '\t') || (c >= 0x7f && c < 0xa0))
                        g_string_append_c(out, '?');
                else
                        g_string_append_unichar(out, c);
                p = g_utf8_next_char(p);
        }
        return g_string_free(out, FALSE);
}

char *safefile_format_size(guint64 size)
{
        if (size >= (guint64) 1 << 30 && size % ((guint64) 1 << 30) == 0)
                return g_strdup_printf("%" G_GUINT64_FORMAT " GiB", size >> 30);
        if (size >= (guint64) 1 << 20)
                return g_strdup_printf("%.1f MiB", (double) size / (1 << 20));
        if (size >= 1 << 10 && size % 1024 == 0)
                return g_strdup_printf("%" G_GUINT64_FORMAT " KiB", size >> 10);
        return g_strdup_printf("%" G_GUINT64_FORMAT " bytes", size);
}

static const char *file_type(mode_t mode)
{
        return S_ISDIR(mode) ? "a directory" : S_ISFIFO(mode) ? "a FIFO" : S_ISCHR(mode) ? "a character device"
             : S_ISBLK(mode) ? "a block device" : S_ISSOCK(mode) ? "a socket" : S_ISLNK(mode) ? "a symbolic link"
             : "not a file";
}

/* The tree PATH must stay in (safefile.h): "." for a relative path that
 * does not begin with "..", else the directory PATH names. */
static char *tree_of(const char *path)
{
        if (!g_path_is_absolute(path) && strcmp(path, "..") && !g_str_has_prefix(path, "../"))
                return g_strdup(".");
        return g_path_get_dirname(path);
}

/* Whether the resolved REAL lies in the resolved TREE. */
static bool inside(const char *real, const char *tree)
{
        size_t n = strlen(tree);

        if (!strcmp(tree, "/"))
                return true;
        return !strncmp(real, tree, n) && (real[n] == '/' || real[n] == '\0');
}

int safefile_open(const char *path, const char *what, guint64 max, guint64 *size, GError **error)
{
        struct stat st, fst;

        /* The type first, without opening: a FIFO would wait for a
         * writer, a device be read. */
        if (stat(path, &st) < 0) {
                g_set_error(error, IPCLAB_ERROR, IPCLAB_ERROR_INPUT, "%s: cannot read: %s", path, g_strerror(errno));
                return -1;
        }
        if (!S_ISREG(st.st_mode)) {
                g_set_error(error, IPCLAB_ERROR, IPCLAB_ERROR_INPUT, "%s: not a regular file: it is %s", path,
                            file_type(st.st_mode));
                return -1;
        }
        g_autofree char *tree = tree_of(path);
        char real[PATH_MAX], real_tree[PATH_MAX];
        if (!realpath(path, real) || !realpath(tree, real_tree)) {
                g_set_error(error, IPCLAB_ERROR, IPCLAB_ERROR_INPUT, "%s: cannot read: %s", path, g_strerror(errno));
                return -1;
        }
        if (!inside(real, real_tree)) {
                g_set_error(error, IPCLAB_ERROR, IPCLAB_ERROR_INPUT,
                            "%s: a symbolic link to %s, outside %s: refused (a file is read where it is named)",
                            path, real, !strcmp(tree, ".") ? "the working directory" : tree);
                return -1;
        }
        if ((guint64) st.st_size > max) {
                g_autofree char *most = safefile_format_size(max);
                g_set_error(error, IPCLAB_ERROR, IPCLAB_ERROR_INPUT,
                            "%s: %" G_GUINT64_FORMAT " bytes is too large for %s (at most %s)", path,
                            (guint64) st.st_size, what, most);
                return -1;
        }
        /* The file resolved, itself no link: if it was replaced since,
         * the new one is looked at again. */
        int fd = open(real, O_RDONLY | O_NOFOLLOW | O_NONBLOCK | O_NOCTTY | O_CLOEXEC);
        if (fd < 0) {
                g_set_error(error, IPCLAB_ERROR, IPCLAB_ERROR_INPUT, "%s: cannot read: %s", path, g_strerror(errno));
                return -1;
        }
        if (fstat(fd, &fst) < 0 || !S_ISREG(fst.st_mode) || fst.st_dev != st.st_dev || fst.st_ino != st.st_ino ||
            fcntl(fd, F_SETFL, 0) < 0) {
                g_set_error(error, IPCLAB_ERROR, IPCLAB_ERROR_INPUT, "%s: changed while it was opened", path);
                close(fd);
                return -1;
        }
        if (size)
                *size = (guint64) fst.st_size;
        return fd;
}

/* Reads up to LEN bytes into BUF, retrying on EINTR; -errno on error. */
static gssize read_some(int fd, char *buf, gsize len)
{
        for (;;) {
                gssize n = read(fd, buf, len);
                if (n >= 0 || errno != EINTR)
                        return n < 0 ? -errno : n;
        }
}

char *safefile_read(const char *path, const char *what, guint64 max, gsize *len, GError **error)
{
        guint64 size;
        int fd = safefile_open(path, what, max, &size, error);

        if (fd < 0)
                return NULL;
        g_autofree char *text = g_malloc((gsize) size + 1);
        gsize got = 0;
        for (;;) {
                /* One byte past the size: a file that grows while it is
                 * read is refused, never read forever. */
                gssize n = read_some(fd, text + got, (gsize) size + 1 - got);
                if (n < 0) {
                        g_set_error(error, IPCLAB_ERROR, IPCLAB_ERROR_INPUT, "%s: cannot read: %s", path,
                                    g_strerror((int) -n));
                        close(fd);
                        return NULL;
                }
                if (n == 0)
                        break;
                got += (gsize) n;
                if (got > size) {
                        g_set_error(error, IPCLAB_ERROR, IPCLAB_ERROR_INPUT, "%s: changed while it was read", path);
                        close(fd);
                        return NULL;
                }
        }
        close(fd);
        text[got] = '\0';
        if (len)
                *len = got;
        return g_steal_pointer(&text);
}

GKeyFile *safefile_key_file(const char *path, GError **error)
{
        gsize len;
        g_autofree char *text = safefile_read(path, "a meta.ini", SAFEFILE_MAX_META, &len, error);
        g_autoptr(GKeyFile) kf = g_key_file_new();
        g_autoptr(GError) e = NULL;

        if (!text)
                return NULL;
        if (!g_key_file_load_from_data(kf, text, len, G_KEY_FILE_KEEP_COMMENTS, &e)) {
                g_set_error(error, IPCLAB_ERROR, IPCLAB_ERROR_INPUT, "%s: %s", path, e->message);
                return NULL;
        }
        return g_steal_pointer(&kf);
}

struct SafeLines {
        char *path;
        int fd;
        guint64 max, read;       /* the limit, and bytes read so far */
        char buf[65536];
        gsize start, end;        /* unread bytes of BUF */
        GString *line;
        guint number;
        bool eof;
};

SafeLines *safefile_lines_open(const char *path, const char *what, guint64 max, GError **error)
{
        int fd = safefile_open(path, what, max, NULL, error);

        if (fd < 0)
                return NULL;
        SafeLines *l = g_new0(SafeLines, 1);
        l->path = g_strdup(path);
        l->fd = fd;
        l->max = max;
        l->line = g_string_new(NULL);
        return l;
}

const char *safefile_lines_next(SafeLines *l, gsize *len, GError **error)
{
        g_string_truncate(l->line, 0);
        for (;;) {
                if (l->start == l->end) {
                        if (l->eof)
                                break;
                        gssize n = read_some(l->fd, l->buf, sizeof l->buf);
                        if (n < 0) {
                                g_set_error(error, IPCLAB_ERROR, IPCLAB_ERROR_INPUT, "%s:%u: cannot read: %s", l->path,
                                            l->number + 1, g_strerror((int) -n));
                                return NULL;
                        }
                        l->read += (guint64) n;
                        if (l->read > l->max) {
                                g_autofree char *most = safefile_format_size(l->max);
                                g_set_error(error, IPCLAB_ERROR, IPCLAB_ERROR_INPUT,
                                            "%s: grew past %s while it was read", l->path, most);
                                return NULL;
                        }
                        l->start = 0;
                        l->end = (gsize) n;
                        l->eof = n == 0;
                        continue;
                }
                const char *from = l->buf + l->start;
                const char *nl = memchr(from, '\n', l->end - l->start);
                gsize take = nl ? (gsize) (nl - from) : l->end - l->start;
                if (memchr(from, '\0', take)) {
                        g_set_error(error, IPCLAB_ERROR, IPCLAB_ERROR_INPUT, "%s:%u: a NUL byte", l->path,
                                    l->number + 1);
                        return NULL;
                }
                if (l->line->len + take > SAFEFILE_MAX_LINE) {
                        g_autofree char *most = safefile_format_size(SAFEFILE_MAX_LINE);
                        g_set_error(error, IPCLAB_ERROR, IPCLAB_ERROR_INPUT, "%s:%u: a line longer than %s", l->path,
                                    l->number + 1, most);
                        return NULL;
                }
                g_string_append_len(l->line, from, (gssize) take);
                l->start += take + (nl != NULL);
                if (nl) {
                        l->number++;
                        *len = l->line->len;
                        return l->line->str;
                }
        }
        if (!l->line->len)
                return NULL;
        l->number++;
        *len = l->line->len;
        return l->line->str;
}

guint safefile_lines_number(const SafeLines *l)
{
        return l->number;
}

void safefile_lines_close(SafeLines *l)
{
        if (!l)
                return;
        close(l->fd);
        g_free(l->path);
        g_string_free(l->line, TRUE);
        g_free(l);
}
