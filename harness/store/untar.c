/* untar.c: a tar stream unpacked as untrusted input (see untar.h). */
#include "untar.h"

#include <errno.h>
#include <fcntl.h>
#include <stdbool.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "ipclab-error.h"

#define BLOCK 512

typedef enum {
        WANT_HEADER,
        WANT_DATA,     /* a file's bytes, or a long name's */
        WANT_PADDING,  /* to the next block */
        AT_END,        /* after the end-of-archive blocks: the rest is padding */
} State;

struct Untar {
        char *dir, *what;
        State state;
        guchar block[BLOCK];
        gsize have;           /* bytes of BLOCK filled */
        guint zero_blocks;    /* zero blocks in a row */
        guint entries;
        guint64 total;
        /* The entry being read. */
        char *name;           /* for messages */
        char type;
        guint64 left, pad;
        int fd;               /* a regular file's, or -1 */
        GString *meta;        /* an 'L' or 'x' entry's data */
        char *next_name;      /* from the last 'L' or pax 'path' */
        bool next_size_set;
        guint64 next_size;    /* from a pax 'size' */
};

Untar *untar_new(const char *dir, const char *what)
{
        Untar *u = g_new0(Untar, 1);

        u->dir = g_strdup(dir);
        u->what = g_strdup(what);
        u->fd = -1;
        return u;
}

void untar_free(Untar *u)
{
        if (!u)
                return;
        if (u->fd >= 0)
                close(u->fd);
        g_free(u->dir);
        g_free(u->what);
        g_free(u->name);
        g_free(u->next_name);
        if (u->meta)
                g_string_free(u->meta, TRUE);
        g_free(u);
}

static gboolean refuse(Untar *u, GError **error, const char *fmt, ...) G_GNUC_PRINTF(3, 4);

static gboolean refuse(Untar *u, GError **error, const char *fmt, ...)
{
        va_list ap;

        va_start(ap, fmt);
        g_autofree char *msg = g_strdup_vprintf(fmt, ap);
        va_end(ap);
        g_set_error(error, IPCLAB_ERROR, IPCLAB_ERROR_INPUT, "%s: refused: %s", u->what, msg);
        return FALSE;
}

/* An octal field of LEN bytes (digits, then spaces or NULs). */
static bool octal(const guchar *f, gsize len, guint64 *v)
{
        gsize i = 0;

        *v = 0;
        while (i < len && f[i] == ' ')
                i++;
        if (i == len || f[i] < '0' || f[i] > '7')
                return false;
        for (; i < len && f[i] >= '0' && f[i] <= '7'; i++) {
                if (*v >> 60)
                        return false;
                *v = *v * 8 + (guint64) (f[i] - '0');
        }
        for (; i < len; i++)
                if (f[i] != ' ' && f[i] != '\0')
                        return false;
        return true;
}

/* NAME made printable and short, for messages. */
static char *shown(const char *name)
{
        g_autofree char *cut = g_strndup(name, 200);
        for (char *p = cut; *p; p++)
                if ((guchar) *p < 0x20 || (guchar) *p >= 0x7f)
                        *p = '?';
        return g_steal_pointer(&cut);
}

/* NAME without its leading "./", or NULL when it is not a safe relative
 * name (see untar.h); "" for the top directory itself. */
static char *clean_name(const char *name, bool dir)
{
        while (g_str_has_prefix(name, "./"))
                name += 2;
        if (!strcmp(name, "."))
                return g_strdup("");
        g_autofree char *n = g_strdup(name);
        gsize len = strlen(n);
        if (dir && len && n[len - 1] == '/')
                n[--len] = '\0';
        if (!len)
                return g_strdup("");
        if (len > 255 || strspn(n, "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789._-/") != len)
                return NULL;
        g_auto(GStrv) parts = g_strsplit(n, "/", -1);
        guint k = 0;
        for (; parts[k]; k++)
                if (!parts[k][0] || !strcmp(parts[k], ".") || !strcmp(parts[k], ".."))
                        return NULL;
        return k > 8 ? NULL : g_steal_pointer(&n);
}

/* Makes the directories of REL (a clean name) under U's directory; the
 * last one too when LAST. */
static gboolean make_dirs(Untar *u, const char *rel, bool last, GError **error)
{
        g_auto(GStrv) parts = g_strsplit(rel, "/", -1);
        guint n = g_strv_length(parts);
        g_autoptr(GString) path = g_string_new(u->dir);

        for (guint i = 0; i < n - (last ? 0 : 1); i++) {
                g_string_append_printf(path, "/%s", parts[i]);
                struct stat st;
                if (mkdir(path->str, 0700) < 0 && !(errno == EEXIST && lstat(path->str, &st) == 0 && S_ISDIR(st.st_mode)))
                        return refuse(u, error, "entry '%s': cannot make the directory: %s", rel,
                                      errno == EEXIST ? "a file of that name is there" : g_strerror(errno));
        }
        return TRUE;
}

/* The pax records of DATA: path= and size= are used, others ignored. */
static gboolean pax(Untar *u, const GString *data, GError **error)
{
        const char *p = data->str, *end = data->str + data->len;

        while (p < end) {
                char *after;
                guint64 len = g_ascii_strtoull(p, &after, 10);
                if (after == p || *after != ' ' || len < 5 || len > (guint64) (end - p) || p[len - 1] != '\n')
                        return refuse(u, error, "a pax header that does not parse");
                const char *kv = after + 1, *eq = memchr(kv, '=', (gsize) (p + len - 1 - kv));
                if (!eq)
                        return refuse(u, error, "a pax record without '='");
                gsize klen = (gsize) (eq - kv), vlen = (gsize) (p + len - 1 - eq - 1);
                if (klen == 4 && !memcmp(kv, "path", 4)) {
                        g_free(u->next_name);
                        u->next_name = g_strndup(eq + 1, vlen);
                        if (strlen(u->next_name) != vlen)
                                return refuse(u, error, "a pax path with a NUL byte");
                } else if (klen == 4 && !memcmp(kv, "size", 4)) {
                        g_autofree char *v = g_strndup(eq + 1, vlen);
                        if (!g_ascii_string_to_unsigned(v, 10, 0, UNTAR_MAX_FILE, &u->next_size, NULL))
                                return refuse(u, error, "a pax size '%s' over %" G_GUINT64_FORMAT " bytes", v,
                                              UNTAR_MAX_FILE);
                        u->next_size_set = true;
                } else if (klen == 8 && !memcmp(kv, "linkpath", 8)) {
                        return refuse(u, error, "a pax linkpath (a link)");
                }
                p += len;
        }
        return TRUE;
}

static gboolean entry_done(Untar *u, GError **error);

/* The header in U->block: starts its entry. */
static gboolean header(Untar *u, GError **error)
{
        const guchar *b = u->block;
        guint64 sum = 0, want, size;

        for (gsize i = 0; i < BLOCK; i++)
                sum += (i >= 148 && i < 156) ? ' ' : b[i];
        if (!octal(b + 148, 8, &want) || want != sum)
                return refuse(u, error, "a header whose checksum is wrong (not a tar stream, or a damaged one)");
        if (++u->entries > UNTAR_MAX_ENTRIES)
                return refuse(u, error, "more than %u entries", UNTAR_MAX_ENTRIES);
        char type = (char) b[156];
        bool posix = !memcmp(b + 257, "ustar\0", 6);
        g_autofree char *raw = NULL;
        if (u->next_name) {
                raw = g_steal_pointer(&u->next_name);
        } else {
                g_autofree char *name = g_strndup((const char *) b, 100);
                g_autofree char *prefix = posix ? g_strndup((const char *) b + 345, 155) : g_strdup("");
                raw = prefix[0] ? g_strconcat(prefix, "/", name, NULL) : g_steal_pointer(&name);
        }
        if (u->next_size_set) {
                size = u->next_size;
        } else if (!octal(b + 124, 12, &size)) {
                g_autofree char *s = shown(raw);
                return refuse(u, error, "entry '%s': a size that is not an octal number", s);
        }
        u->next_size_set = false;
        g_free(u->name);
        u->name = shown(raw);
        u->type = type;
        u->left = size;
        u->pad = (BLOCK - size % BLOCK) % BLOCK;
        switch (type) {
        case 'L':
        case 'x':
                if (size > 65536)
                        return refuse(u, error, "a long name or pax header of %" G_GUINT64_FORMAT " bytes", size);
                u->meta = g_string_new(NULL);
                break;
        case 'g':
                if (size > 65536)
                        return refuse(u, error, "a pax global header of %" G_GUINT64_FORMAT " bytes", size);
                break;
        case '5': {
                g_autofree char *rel = clean_name(raw, true);
                if (!rel)
                        return refuse(u, error, "entry '%s': not a name of letters, digits, '.', '_' and '-' "
                                      "inside the directory", u->name);
                if (rel[0] && !make_dirs(u, rel, true, error))
                        return FALSE;
                break;
        }
        case '0':
        case '\0': {
                g_autofree char *rel = clean_name(raw, false);
                if (!rel || !rel[0])
                        return refuse(u, error, "entry '%s': not a name of letters, digits, '.', '_' and '-' "
                                      "inside the directory", u->name);
                if (size > UNTAR_MAX_FILE)
                        return refuse(u, error, "entry '%s': %" G_GUINT64_FORMAT " bytes, more than %" G_GUINT64_FORMAT
                                      " a file may have", u->name, size, UNTAR_MAX_FILE);
                u->total += size;
                if (u->total > UNTAR_MAX_TOTAL)
                        return refuse(u, error, "more than %" G_GUINT64_FORMAT " bytes in all", UNTAR_MAX_TOTAL);
                if (!make_dirs(u, rel, false, error))
                        return FALSE;
                g_autofree char *path = g_build_filename(u->dir, rel, NULL);
                u->fd = open(path, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0600);
                if (u->fd < 0)
                        return refuse(u, error, "entry '%s': %s", u->name,
                                      errno == EEXIST ? "given twice" : g_strerror(errno));
                break;
        }
        default: {
                const char *kind = type == '1' ? "a hard link" : type == '2' ? "a symbolic link"
                                 : type == '3' ? "a character device" : type == '4' ? "a block device"
                                 : type == '6' ? "a FIFO" : type == 'K' ? "a long link name" : type == 'S' ? "a sparse file"
                                 : "an entry of another kind";
                return refuse(u, error, "entry '%s' is %s: only regular files and directories are taken", u->name,
                              kind);
        }
        }
        if (size) {
                u->state = WANT_DATA;
                return TRUE;
        }
        u->state = WANT_HEADER;
        return entry_done(u, error);
}

/* The end of an entry's data. */
static gboolean entry_done(Untar *u, GError **error)
{
        if (u->fd >= 0) {
                int r = close(u->fd);
                u->fd = -1;
                if (r < 0)
                        return refuse(u, error, "entry '%s': cannot write it: %s", u->name, g_strerror(errno));
        }
        if (u->meta && u->type == 'L') {
                g_free(u->next_name);
                u->next_name = g_strndup(u->meta->str, u->meta->len);
        } else if (u->meta && u->type == 'x' && !pax(u, u->meta, error)) {
                return FALSE;
        }
        if (u->meta) {
                g_string_free(u->meta, TRUE);
                u->meta = NULL;
        }
        return TRUE;
}

gboolean untar_feed(Untar *u, const void *data, gsize len, GError **error)
{
        const guchar *p = data, *end = p + len;

        while (p < end) {
                if (u->state == AT_END)
                        return TRUE;
                if (u->state == WANT_DATA) {
                        gsize take = (gsize) MIN(u->left, (guint64) (end - p));
                        if (u->fd >= 0) {
                                for (gsize off = 0; off < take;) {
                                        gssize n = write(u->fd, p + off, take - off);
                                        if (n < 0 && errno == EINTR)
                                                continue;
                                        if (n < 0)
                                                return refuse(u, error, "entry '%s': cannot write it: %s", u->name,
                                                              g_strerror(errno));
                                        off += (gsize) n;
                                }
                        } else if (u->meta) {
                                g_string_append_len(u->meta, (const char *) p, (gssize) take);
                        }
                        p += take;
                        u->left -= take;
                        if (!u->left) {
                                if (!entry_done(u, error))
                                        return FALSE;
                                u->state = u->pad ? WANT_PADDING : WANT_HEADER;
                        }
                        continue;
                }
                if (u->state == WANT_PADDING) {
                        gsize take = (gsize) MIN(u->pad, (guint64) (end - p));
                        p += take;
                        u->pad -= take;
                        if (!u->pad)
                                u->state = WANT_HEADER;
                        continue;
                }
                gsize take = MIN((gsize) BLOCK - u->have, (gsize) (end - p));
                memcpy(u->block + u->have, p, take);
                u->have += take;
                p += take;
                if (u->have < BLOCK)
                        break;
                u->have = 0;
                bool zero = true;
                for (gsize i = 0; i < BLOCK && zero; i++)
                        zero = u->block[i] == 0;
                if (zero) {
                        if (++u->zero_blocks == 2)
                                u->state = AT_END;
                        continue;
                }
                if (u->zero_blocks)
                        return refuse(u, error, "an entry after an end-of-archive block");
                if (!header(u, error))
                        return FALSE;
        }
        return TRUE;
}

gboolean untar_finish(Untar *u, GError **error)
{
        if (u->state != AT_END && !(u->state == WANT_HEADER && u->zero_blocks == 1 && u->have == 0))
                return refuse(u, error, "the stream was cut short%s%s%s", u->name ? " (in entry '" : "",
                              u->name ? u->name : "", u->name ? "')" : "");
        return TRUE;
}
