/* fuzz-render.c: libFuzzer target: no value lets itself out of its string
 * in what ipclab generates for gnuplot and make.
 *
 * Each input is used three ways:
 *   1. as a value V written where values reach a gnuplot script: a
 *      transport and a machine of the summary (legend titles, tcolor(),
 *      tpoint(), x tics), a series value of a published file and the
 *      published_title of the experiment file.  The script `ipclab plot`
 *      writes with V is tokenized as gnuplot 5.4 reads it (gp_skeleton:
 *      single- and double-quoted strings, comments, line continuations,
 *      inline data blocks) and must have exactly the code, outside string
 *      literals, comments and numeric literals (a key placed by the
 *      length of its titles), of the script written with a harmless value
 *      instead: V changed no command, no expression, no line;
 *   2. as a value alone, render_gnuplot_string(V) after "x = ": the same
 *      comparison, without the renderer around it;
 *   3. as an experiment file: what `ipclab check --list-outputs` prints of
 *      it (what `ipclab check --make-outputs` writes as make variables) must be names of
 *      letters, digits, '.', '_' and '-', and inputs of the forms
 *      exp:NAME, latency:NAME and published:data/published/NAME.
 * An invariant broken aborts: libFuzzer saves the input as a crash.
 * Built and run by mk/fuzz.mk (`make fuzz-render-check`: a fixed number of
 * inputs, seeded with harness/tests/corpus-render/).
 */
#include <errno.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <glib/gstdio.h>

#include "experiment.h"
#include "figure.h"
#include "render.h"
#include "summarize.h"
#include "transport.h"
#include "verify.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static void broken(const char *what, const char *detail)
{
        fprintf(stderr, "fuzz-render: %s:\n%s\n", what, detail ? detail : "(null)");
        abort();
}

/* The code of gnuplot script S, as gnuplot 5.4 reads it, with every
 * single-quoted literal as 'S', every comment as #C, every inline data
 * block as DATA; double-quoted strings are kept whole (only constants of
 * the renderer belong there, and gnuplot would run a backquote in them).
 * A literal or comment that does not end where gnuplot ends it shows as
 * BROKEN. */
static char *gp_skeleton(const char *s)
{
        GString *out = g_string_new(NULL);
        const char *p = s;

        while (*p) {
                /* An inline data block: "$NAME << EOD" to a line "EOD". */
                const char *eol = strchr(p, '\n');
                gsize len = eol ? (gsize) (eol - p) : strlen(p);
                if (*p == '$' && len > 7 && !strncmp(p + len - 7, " << EOD", 7)) {
                        g_string_append_len(out, p, (gssize) len);
                        g_string_append(out, "\nDATA\n");
                        const char *end = strstr(eol ? eol : p, "\nEOD\n");
                        if (!end) {
                                g_string_append(out, "BROKEN");
                                break;
                        }
                        p = end + 5;
                        continue;
                }
                /* One line of code, its continuations joined. */
                for (; *p && *p != '\n'; p++) {
                        if (*p == '\\' && p[1] == '\n') {
                                g_string_append(out, "\\CONT ");
                                p++;
                        } else if (*p == '\'') {
                                for (p++;; p++) {
                                        if (!*p || *p == '\n') {
                                                g_string_append(out, "BROKEN");
                                                return g_string_free(out, FALSE);
                                        }
                                        if (*p == '\'' && p[1] == '\'')
                                                p++;
                                        else if (*p == '\'')
                                                break;
                                }
                                g_string_append(out, "'S'");
                        } else if (*p == '"') {
                                const char *start = p;
                                for (p++; *p != '"'; p++) {
                                        if (!*p || *p == '\n') {
                                                g_string_append(out, "BROKEN");
                                                return g_string_free(out, FALSE);
                                        }
                                        if (*p == '\\' && p[1])
                                                p++;
                                }
                                g_string_append_len(out, start, p - start + 1);
                        } else if (*p == '#') {
                                /* To the end of the line, and on past a
                                 * last backslash. */
                                while (*p && !(*p == '\n' && p[-1] != '\\'))
                                        p++;
                                g_string_append(out, "#C");
                                break;
                        } else if (g_ascii_isdigit(*p) && !(out->len && (g_ascii_isalnum(out->str[out->len - 1]) ||
                                                                         out->str[out->len - 1] == '_'))) {
                                /* A number ipclab computed (where the key
                                 * goes depends on how long its titles
                                 * are): its value is no code. */
                                while (g_ascii_isdigit(p[1]) || p[1] == '.' ||
                                       ((p[1] == 'e' || p[1] == 'E') && (g_ascii_isdigit(p[2]) || p[2] == '-')) ||
                                       ((p[1] == '-') && (*p == 'e' || *p == 'E')))
                                        p++;
                                g_string_append_c(out, 'N');
                        } else {
                                g_string_append_c(out, *p);
                        }
                }
                g_string_append_c(out, '\n');
                if (*p == '\n')
                        p++;
        }
        return g_string_free(out, FALSE);
}

static char *dir;

static void write_file(const char *rel, const char *text)
{
        g_autofree char *path = g_build_filename(dir, rel, NULL);
        g_autoptr(GError) e = NULL;

        if (!g_file_set_contents(path, text, -1, &e))
                broken("cannot write a file of the test", e->message);
}

/* A summary row: every column "-" but those given. */
static void summary_row(GString *s, const char *transport, const char *machine, const char *size, const char *ns)
{
        g_auto(GStrv) cols = g_strsplit(summary_header(), "\t", -1);

        for (guint i = 0; cols[i]; i++) {
                g_strchomp(cols[i]);
                const char *c = cols[i];
                const char *v = !strcmp(c, "experiment") ? "fz"
                              : !strcmp(c, "env") ? "host"
                              : !strcmp(c, "machine") ? machine
                              : !strcmp(c, "transport") ? transport
                              : !strcmp(c, "payload") ? "bytes"
                              : !strcmp(c, "size_B") ? size
                              : !strcmp(c, "pattern") ? "roundtrip"
                              : !strcmp(c, "reply") ? "echo"
                              : !strcmp(c, "marshal") ? "array"
                              : !strcmp(c, "cpus") ? "none"
                              : !strcmp(c, "count") ? "100"
                              : !strcmp(c, "n") ? "5"
                              : !strcmp(c, "failed") ? "0"
                              : g_str_has_prefix(c, "elapsed_ns") ? ns : "-";
                g_string_append_printf(s, "%s%s", i ? "\t" : "", v);
        }
        g_string_append_c(s, '\n');
}

/* The gnuplot of figures f1 and f2 with V in every place a value goes;
 * NULL when ipclab refuses the input (which is no way out either). */
static char *render_with(const char *v)
{
        g_autofree char *title = g_strdup(v);
        /* A key file's value is one line. */
        g_strdelimit(title, "\n\r", ' ');
        g_autofree char *ini = g_strdup_printf(
                "[experiment]\ntitle=fuzz\ntransport=pipe;fifo\nsize=64;4096\ncount=100\nrepeat=5\n\n"
                "[figure f1]\nx=size\ny=elapsed_ns\nseries=transport;machine\npublished=pub.tsv\n"
                "published_x=size_B\npublished_y=elapsed_ns\npublished_series=impl\npublished_title=%s\n\n"
                "[figure f2]\nwhere=size=64\nx=transport\ny=elapsed_ns\nseries=machine\n", title);
        write_file("experiments/fz.ini", ini);
        g_autoptr(GString) pub = g_string_new("impl\tsize_B\telapsed_ns\n");
        g_string_append_printf(pub, "a\t64\t1000\n%s\t64\t2000\n", v);
        write_file("data/published/pub.tsv", pub->str);
        g_autoptr(GString) sum = g_string_new(summary_header());
        const char *transports[] = { "pipe", v }, *machines[] = { "m1", v }, *sizes[] = { "64", "4096" };
        for (guint t = 0; t < 2; t++)
                for (guint m = 0; m < 2; m++)
                        for (guint k = 0; k < 2; k++)
                                summary_row(sum, transports[t], machines[m], sizes[k], k ? "9000" : "3000");
        write_file("s.tsv", sum->str);

        g_autofree char *file = g_build_filename(dir, "experiments", "fz.ini", NULL);
        g_autofree char *s_tsv = g_build_filename(dir, "s.tsv", NULL);
        g_autofree char *published = g_build_filename(dir, "data", "published", NULL);
        RenderInputs in = { .summary = s_tsv, .published = published };
        GString *both = g_string_new(NULL);
        const char *names[] = { "f1", "f2" };
        for (guint i = 0; i < G_N_ELEMENTS(names); i++) {
                g_autoptr(GError) e = NULL;
                g_autofree char *facts = NULL;   /* the caption's facts: LaTeX, not gnuplot */
                g_autofree char *gp = render_plot(file, names[i], &in, &facts, &e);
                if (!gp) {
                        if (!e || e->domain != IPCLAB_ERROR || e->code != IPCLAB_ERROR_INPUT)
                                broken("refused without an input error", e ? e->message : NULL);
                        g_string_free(both, TRUE);
                        return NULL;
                }
                g_string_append(both, gp);
        }
        return g_string_free(both, FALSE);
}

/* Use 1 and 2: V's script has the code of a harmless value's. */
static void check_gnuplot(const char *v)
{
        static char *harmless;
        g_autofree char *mine = g_strconcat("~", v, NULL);

        if (!harmless) {
                g_autofree char *gp = render_with("~harmless");
                if (!gp)
                        broken("the harmless value is refused", NULL);
                harmless = gp_skeleton(gp);
        }
        g_autofree char *gp = render_with(mine);
        if (gp) {
                g_autofree char *sk = gp_skeleton(gp);
                if (strcmp(sk, harmless))
                        broken("a value changed the code of the gnuplot script", gp);
        }
        g_autofree char *lit = render_gnuplot_string(mine);
        g_autofree char *line = g_strconcat("x = ", lit, "\n", NULL);
        g_autofree char *sk = gp_skeleton(line);
        if (strcmp(sk, "x = 'S'\n"))
                broken("render_gnuplot_string lets a value out", line);
}

static gboolean safe_name(const char *s)
{
        return s[0] && strspn(s, "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789._-") == strlen(s);
}

/* Use 3: what make reads of the outputs of the experiment file DATA. */
static void check_make(const uint8_t *data, size_t size)
{
        g_autoptr(GError) e = NULL;
        g_autofree char *file = g_build_filename(dir, "experiments", "fz.ini", NULL);
        g_autoptr(Experiment) exp = experiment_load_data(file, (const char *) data, size, NULL, &e);

        if (!exp)
                return;
        if (!safe_name(exp->name))
                broken("an experiment name make cannot carry", exp->name);
        for (guint i = 0; i < exp->outputs->len; i++) {
                const Output *o = exp->outputs->pdata[i];
                if (!safe_name(o->name))
                        broken("an output name make cannot carry", o->name);
                g_autofree char *in = figure_inputs(exp, o);
                if (!strcmp(in, "-"))
                        continue;
                g_auto(GStrv) words = g_strsplit(in, " ", -1);
                for (guint w = 0; words[w]; w++) {
                        const char *x = words[w];
                        const char *name = g_str_has_prefix(x, "exp:") ? x + 4
                                         : g_str_has_prefix(x, "latency:") ? x + 8
                                         : g_str_has_prefix(x, "published:data/published/") ? x + 25 : NULL;
                        if (!name || !safe_name(name))
                                broken("an input make cannot carry", in);
                }
        }
}

static void setup(void)
{
        dir = g_dir_make_tmp("fuzz-render-XXXXXX", NULL);
        g_autofree char *e = g_build_filename(dir, "experiments", NULL);
        g_autofree char *p = g_build_filename(dir, "data", "published", NULL);
        if (!dir || g_mkdir_with_parents(e, 0700) < 0 || g_mkdir_with_parents(p, 0700) < 0)
                broken("cannot make the test's directory", g_strerror(errno));
}

static void teardown(void)
{
        const char *files[] = { "experiments/fz.ini", "data/published/pub.tsv", "s.tsv",
                                "data/published", "data", "experiments" };
        for (size_t i = 0; i < G_N_ELEMENTS(files); i++) {
                g_autofree char *path = g_build_filename(dir, files[i], NULL);
                g_remove(path);
        }
        g_rmdir(dir);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
        transports_install(&transport_ops);
        experiment_install_claim_check(verify_claim_check);
        if (!dir) {
                setup();
                atexit(teardown);
        }
        /* A TSV field: no tab, newline or NUL. */
        g_autofree char *v = g_strndup((const char *) data, size);
        g_strdelimit(v, "\t\n", ' ');
        check_gnuplot(v);
        check_make(data, size);
        return 0;
}
