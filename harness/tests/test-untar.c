/* test-untar.c: a target's tar stream unpacked as untrusted input
 * (untar.h): what GNU tar writes comes out whole, in any pieces; links,
 * devices, FIFOs, names that leave the directory and streams cut short
 * are refused, naming the entry, and nothing is made outside. */
#include <errno.h>
#include <glib/gstdio.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "experiment.h"
#include "samples.h"
#include "untar.h"

static char *tmp_dir;

/* Appends one ustar header (GNU magic) for NAME of TYPE with SIZE bytes of
 * DATA (padded), or LINK as its link name. */
static void entry(GString *out, const char *name, char type, const char *data, gsize size, const char *link)
{
        char h[512] = { 0 };
        guint sum = 0;

        strncpy(h, name, 100);
        memcpy(h + 100, "0000644", 7);
        memcpy(h + 108, "0000000", 7);
        memcpy(h + 116, "0000000", 7);
        g_snprintf(h + 124, 12, "%011" G_GINT64_MODIFIER "o", (gint64) size);
        memcpy(h + 136, "00000000000", 11);
        h[156] = type;
        if (link)
                strncpy(h + 157, link, 100);
        memcpy(h + 257, "ustar  ", 8);
        memset(h + 148, ' ', 8);
        for (int i = 0; i < 512; i++)
                sum += (guchar) h[i];
        g_snprintf(h + 148, 8, "%06o", sum);
        g_string_append_len(out, h, 512);
        if (size) {
                g_string_append_len(out, data, (gssize) size);
                for (gsize pad = (512 - size % 512) % 512; pad; pad--)
                        g_string_append_c(out, '\0');
        }
}

static void end(GString *out)
{
        for (int i = 0; i < 1024; i++)
                g_string_append_c(out, '\0');
}

/* Unpacks S into a fresh directory fed in pieces of STEP bytes; returns the
 * directory (for a look inside), ERROR set when refused. */
static char *unpack(const GString *s, gsize step, GError **error)
{
        g_autofree char *tmpl = g_build_filename(tmp_dir, "in-XXXXXX", NULL);
        char *dir = g_mkdtemp_full(g_strdup(tmpl), 0700);
        g_autoptr(Untar) u = untar_new(dir, "the stream");

        for (gsize off = 0; off < s->len; off += step)
                if (!untar_feed(u, s->str + off, MIN(step, s->len - off), error))
                        return dir;
        untar_finish(u, error);
        return dir;
}

static void test_gnu_tar(void)
{
        /* What a target's run script sends: tar -cf - -C out . */
        g_autofree char *src = g_build_filename(tmp_dir, "src", NULL);
        g_autofree char *deep = g_build_filename(src, "exp", NULL);
        g_autofree char *long_name = g_strnfill(150, 'n');
        g_autofree char *long_path = g_build_filename(deep, long_name, NULL);
        g_assert_cmpint(g_mkdir_with_parents(deep, 0755), ==, 0);
        g_autofree char *samples = g_build_filename(deep, "samples.tsv", NULL);
        g_autofree char *partial = g_build_filename(src, ".exp.partial.tsv", NULL);
        g_assert_true(g_file_set_contents(samples, "a\tb\n1\t2\n", -1, NULL));
        g_assert_true(g_file_set_contents(partial, "# partial\n", -1, NULL));
        g_assert_true(g_file_set_contents(long_path, "", 0, NULL));
        const char *argv[] = { "tar", "-cf", "-", "-C", src, ".", NULL };
        g_autofree char *out = NULL;
        gsize len = 0;
        gint status;
        g_autoptr(GError) e = NULL;
        g_assert_true(g_spawn_sync(NULL, (char **) argv, NULL, G_SPAWN_SEARCH_PATH | G_SPAWN_STDERR_TO_DEV_NULL,
                                   NULL, NULL, &out, NULL, &status, &e));
        g_assert_no_error(e);
        g_assert_true(g_spawn_check_wait_status(status, NULL));
        /* g_spawn_sync's out is NUL-terminated text: take its length by
         * the archive's blocks. */
        len = 0;
        for (gsize blocks = 0; blocks < 4096; blocks++) {
                g_autofree char *zero = g_malloc0(512);
                if (!memcmp(out + blocks * 512, zero, 512) && !memcmp(out + blocks * 512 + 512, zero, 512)) {
                        len = (blocks + 2) * 512;
                        break;
                }
        }
        g_assert_cmpuint(len, >, 0);
        g_autoptr(GString) s = g_string_new_len(out, (gssize) len);
        const gsize steps[] = { 1, 7, 512, 100000 };
        for (gsize i = 0; i < G_N_ELEMENTS(steps); i++) {
                g_autoptr(GError) err = NULL;
                g_autofree char *dir = unpack(s, steps[i], &err);
                g_assert_no_error(err);
                g_autofree char *got = g_build_filename(dir, "exp", "samples.tsv", NULL);
                g_autofree char *text = NULL;
                g_assert_true(g_file_get_contents(got, &text, NULL, NULL));
                g_assert_cmpstr(text, ==, "a\tb\n1\t2\n");
                g_autofree char *lp = g_build_filename(dir, "exp", long_name, NULL);
                g_assert_true(g_file_test(lp, G_FILE_TEST_IS_REGULAR));
                g_autofree char *pp = g_build_filename(dir, ".exp.partial.tsv", NULL);
                struct stat st;
                g_assert_cmpint(lstat(pp, &st), ==, 0);
                g_assert_cmpint(st.st_mode & 0777, ==, 0600);
        }
}

static void test_refused(void)
{
        const struct {
                const char *what, *name;
                char type;
                const char *link;
                const char *says;
        } cases[] = {
                { "symlink", "exp/console.log", '2', "/etc/passwd", "entry 'exp/console.log' is a symbolic link" },
                { "symlink dir", "exp", '2', "/tmp", "entry 'exp' is a symbolic link" },
                { "hard link", "exp/x.log", '1', "exp/samples.tsv", "entry 'exp/x.log' is a hard link" },
                { "fifo", "exp/fifo.log", '6', NULL, "entry 'exp/fifo.log' is a FIFO" },
                { "char device", "exp/zero", '3', NULL, "entry 'exp/zero' is a character device" },
                { "block device", "exp/sda", '4', NULL, "entry 'exp/sda' is a block device" },
                { "dot-dot", "../escape.tsv", '0', NULL, "entry '../escape.tsv': not a name" },
                { "dot-dot inside", "exp/../../escape.tsv", '0', NULL, "entry 'exp/../../escape.tsv': not a name" },
                { "absolute", "/tmp/escape.tsv", '0', NULL, "entry '/tmp/escape.tsv': not a name" },
                { "newline", "exp/a\nb", '0', NULL, "entry 'exp/a?b': not a name" },
                { "space", "exp/a b", '0', NULL, "entry 'exp/a b': not a name" },
                { "shell", "exp/$(x)", '0', NULL, "entry 'exp/$(x)': not a name" },
        };

        for (gsize i = 0; i < G_N_ELEMENTS(cases); i++) {
                g_autoptr(GString) s = g_string_new(NULL);
                entry(s, "./", '5', NULL, 0, NULL);
                entry(s, "./exp/", '5', NULL, 0, NULL);
                entry(s, "./exp/samples.tsv", '0', "x\n", 2, NULL);
                entry(s, cases[i].name, cases[i].type, cases[i].type == '0' ? "y\n" : NULL, cases[i].type == '0' ? 2 : 0,
                      cases[i].link);
                end(s);
                g_autoptr(GError) e = NULL;
                g_free(unpack(s, 512, &e));
                if (!e)
                        g_error("%s: not refused", cases[i].what);
                g_assert_error(e, IPCLAB_ERROR, IPCLAB_ERROR_INPUT);
                if (!strstr(e->message, cases[i].says))
                        g_error("%s: '%s' lacks '%s'", cases[i].what, e->message, cases[i].says);
                g_autofree char *escape = g_build_filename(tmp_dir, "escape.tsv", NULL);
                g_assert_false(g_file_test(escape, G_FILE_TEST_EXISTS));
                g_assert_false(g_file_test("/tmp/escape.tsv", G_FILE_TEST_EXISTS));
        }
}

static void test_malformed(void)
{
        g_autoptr(GError) e = NULL;

        /* Twice the same file. */
        g_autoptr(GString) twice = g_string_new(NULL);
        entry(twice, "a.tsv", '0', "1\n", 2, NULL);
        entry(twice, "a.tsv", '0', "2\n", 2, NULL);
        end(twice);
        g_free(unpack(twice, 512, &e));
        g_assert_nonnull(e);
        g_assert_nonnull(strstr(e->message, "entry 'a.tsv': given twice"));
        g_clear_error(&e);

        /* Cut short, in an entry and before the end blocks. */
        g_autoptr(GString) cut = g_string_new(NULL);
        entry(cut, "a.tsv", '0', "12345\n", 6, NULL);
        g_autoptr(GString) shorter = g_string_new_len(cut->str, 600);
        g_free(unpack(shorter, 512, &e));
        g_assert_nonnull(e);
        g_assert_nonnull(strstr(e->message, "cut short (in entry 'a.tsv')"));
        g_clear_error(&e);
        g_free(unpack(cut, 512, &e));
        g_assert_nonnull(e);
        g_assert_nonnull(strstr(e->message, "cut short"));
        g_clear_error(&e);

        /* Not tar at all: a checksum that does not add up. */
        g_autoptr(GString) junk = g_string_new(NULL);
        for (int i = 0; i < 1024; i++)
                g_string_append_c(junk, (char) ('a' + i % 26));
        g_free(unpack(junk, 512, &e));
        g_assert_nonnull(e);
        g_assert_nonnull(strstr(e->message, "checksum is wrong"));
        g_clear_error(&e);

        /* Too large a file: refused from its header, before any byte. */
        g_autoptr(GString) big = g_string_new(NULL);
        entry(big, "big.tsv", '0', NULL, 0, NULL);
        g_snprintf(big->str + 124, 12, "%011" G_GINT64_MODIFIER "o", (gint64) UNTAR_MAX_FILE + 1);
        guint sum = 0;
        memset(big->str + 148, ' ', 8);
        for (int i = 0; i < 512; i++)
                sum += (guchar) big->str[i];
        g_snprintf(big->str + 148, 8, "%06o", sum);
        g_free(unpack(big, 512, &e));
        g_assert_nonnull(e);
        g_assert_nonnull(strstr(e->message, "a file may have"));
}

int main(int argc, char **argv)
{
        g_test_init(&argc, &argv, NULL);
        tmp_dir = g_dir_make_tmp("test-untar-XXXXXX", NULL);
        g_test_add_func("/untar/gnu-tar", test_gnu_tar);
        g_test_add_func("/untar/refused", test_refused);
        g_test_add_func("/untar/malformed", test_malformed);
        int r = g_test_run();
        samples_remove_dir(tmp_dir);
        return r;
}
