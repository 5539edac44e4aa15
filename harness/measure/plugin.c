/* plugin.c: transports loaded from shared objects (plugin.h). */
#include "plugin.h"

#include <dlfcn.h>
#include <errno.h>
#include <fcntl.h>
#include <link.h>
#include <poll.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include "spawn.h"
#include "plugin-internal.h"
#include "suggest.h"

/* The descriptor's size for each minor of this major: a plugin built for
 * minor N has exactly descriptor_size[N] as its struct_size.  When a minor
 * adds a field at the end, the sizes of the minors before it become
 * offsetof(IpclabTransport, the first field it added) (test-plugin
 * records every layout). */
static const size_t descriptor_size[IPCLAB_TRANSPORT_ABI_MINOR + 1] = {
        [0] = sizeof(IpclabTransport),
        [1] = sizeof(IpclabTransport),
        [2] = sizeof(IpclabTransport),
};

/* The flags each minor knows: 1.1 added IPCLAB_TRANSPORT_THREADS (1.2
 * added IpclabCell's roles, no flag). */
static const uint32_t flags_known[IPCLAB_TRANSPORT_ABI_MINOR + 1] = {
        [0] = 0xffu,
        [1] = IPCLAB_TRANSPORT_FLAGS_KNOWN,
        [2] = IPCLAB_TRANSPORT_FLAGS_KNOWN,
};

/* How long loading a plugin (its constructors, its libraries', its
 * unavailable() and libraries()) and one describing hook may take. */
#define PROBE_TIMEOUT_MS 30000
#define HOOK_TIMEOUT_MS 10000
/* The most a child process answers. */
#define ANSWER_MAX 65536
/* The longest family, summary, version and answer a plugin gives. */
#define FAMILY_MAX 16
#define TEXT_MAX 300

static GPtrArray *plugins;

Plugin *plugin_by_transport(const Transport *t)
{
        for (guint i = 0; plugins && i < plugins->len; i++) {
                Plugin *p = plugins->pdata[i];
                if (&p->t == t)
                        return p;
        }
        return NULL;
}

bool plugin_of(const Transport *t, const char **unavailable)
{
        Plugin *p = plugin_by_transport(t);

        if (p && unavailable)
                *unavailable = p->standin ? p->standin : p->unavailable;
        return p != NULL;
}

const char *plugin_failure(const Transport *t)
{
        Plugin *p = plugin_by_transport(t);

        return p ? p->failure : NULL;
}

/* ---- checks ---- */

static bool name_valid(const char *s)
{
        size_t n = strlen(s);

        if (n == 0 || n > IPCLAB_TRANSPORT_NAME_MAX || s[0] == '.' || s[0] == '-')
                return false;
        for (size_t i = 0; i < n; i++)
                if (!g_ascii_isalnum(s[i]) && !strchr("-_+.", s[i]))
                        return false;
        return true;
}

/* One line of UTF-8 text of at most MAX bytes, no control characters. */
static bool text_valid(const char *s, size_t max)
{
        if (strlen(s) > max || !g_utf8_validate(s, -1, NULL))
                return false;
        for (const char *p = s; *p; p = g_utf8_next_char(p))
                if (g_unichar_iscntrl(g_utf8_get_char(p)))
                        return false;
        return true;
}

char *plugin_check_descriptor(const IpclabTransport *d, bool builtin)
{
        if (d->abi_major != IPCLAB_TRANSPORT_ABI_MAJOR)
                return g_strdup_printf("it is built for ABI %u.%u of ipclab/transport.h; this ipclab runs ABI %d.%d "
                                       "(rebuild it against this ipclab's header)", d->abi_major, d->abi_minor,
                                       IPCLAB_TRANSPORT_ABI_MAJOR, IPCLAB_TRANSPORT_ABI_MINOR);
        if (d->abi_minor > IPCLAB_TRANSPORT_ABI_MINOR)
                return g_strdup_printf("it is built for ABI %u.%u of ipclab/transport.h, newer than this ipclab's %d.%d "
                                       "(use a newer ipclab, or rebuild it against this one's header)",
                                       d->abi_major, d->abi_minor, IPCLAB_TRANSPORT_ABI_MAJOR,
                                       IPCLAB_TRANSPORT_ABI_MINOR);
        if (d->struct_size != descriptor_size[d->abi_minor])
                return g_strdup_printf("its descriptor is %u bytes, ABI %u.%u's is %zu (it does not start with "
                                       "IPCLAB_TRANSPORT_HEADER, or was built for another layout)", d->struct_size,
                                       d->abi_major, d->abi_minor, descriptor_size[d->abi_minor]);
        if (d->flags & ~flags_known[d->abi_minor])
                return g_strdup_printf("it sets flags 0x%x, unknown to ABI %u.%u", d->flags & ~flags_known[d->abi_minor],
                                       d->abi_major, d->abi_minor);
        if (!d->name)
                return g_strdup("it has no name");
        if (!name_valid(d->name)) {
                g_autofree char *shown = g_strescape(d->name, NULL);
                return g_strdup_printf("its name '%.40s' is not a transport name (1 to %d letters, digits, "
                                       "'-', '_', '+' or '.', not starting with '-' or '.')", shown,
                                       IPCLAB_TRANSPORT_NAME_MAX);
        }
        const char *const texts[] = { "family", "summary", "version" };
        const char *const values[] = { d->family, d->summary, d->version };
        for (size_t i = 0; i < G_N_ELEMENTS(texts); i++) {
                if (builtin && !values[i])
                        continue;   /* ipclab's version is its own */
                if (!values[i] || !values[i][0])
                        return g_strdup_printf("it has no %s", texts[i]);
                if (!text_valid(values[i], i == 0 ? FAMILY_MAX : TEXT_MAX))
                        return g_strdup_printf("its %s is not one line of UTF-8 of at most %d bytes", texts[i],
                                               i == 0 ? FAMILY_MAX : TEXT_MAX);
        }
        const char *missing = NULL;
        if (d->flags & IPCLAB_TRANSPORT_COMMAND)
                missing = !d->command ? "command" : NULL;
        else
                missing = !d->open ? "open" : !d->send ? "send" : !d->recv ? "recv"
                        : !d->send_end ? "send_end" : NULL;
        if (missing)
                return g_strdup_printf("it has no %s() hook, which every transport%s must have", missing,
                                       (d->flags & IPCLAB_TRANSPORT_COMMAND) ? " flagged IPCLAB_TRANSPORT_COMMAND" : "");
        return NULL;
}

/* ---- child processes ---- */

/* What a child reports: a byte per stage it reaches, then 'K' and its
 * answer. */
#define STAGE_ANSWER 'K'

static void child_write(int fd, const void *data, size_t len)
{
        (void) ipclab_write_all(fd, data, len);
}

static void child_stage(int fd, char stage)
{
        child_write(fd, &stage, 1);
}

/* Runs FN(DATA, FD) in a child process that writes stage bytes and then
 * STAGE_ANSWER and its answer to FD, and _exit()s.  Returns the answer
 * (what followed STAGE_ANSWER), or NULL with *FAILURE saying what
 * happened to the child ("was killed by signal 11 (Segmentation fault)",
 * "did not finish within 10 s") and *STAGE the last stage it reached. */
static GString *isolated(void (*fn)(gpointer data, int fd), gpointer data, guint timeout_ms, char *stage,
                         char **failure)
{
        g_autoptr(GString) text = g_string_new(NULL);
        int p[2], status = 0;

        *stage = 0;
        *failure = NULL;
        if (pipe2(p, O_CLOEXEC) < 0) {
                *failure = g_strdup_printf("cannot make a pipe: %s", g_strerror(errno));
                return NULL;
        }
        fflush(NULL);
        pid_t parent = getpid(), pid = fork();
        if (pid < 0) {
                *failure = g_strdup_printf("cannot fork: %s", g_strerror(errno));
                close(p[0]);
                close(p[1]);
                return NULL;
        }
        if (pid == 0) {
                close(p[0]);
                spawn_child_start(parent);
                fn(data, p[1]);
                _exit(0);
        }
        close(p[1]);
        int r = spawn_helper_output(pid, p[0], timeout_ms, text, &status);
        const char *answer = memchr(text->str, STAGE_ANSWER, text->len);
        gsize stages = answer ? (gsize) (answer - text->str) : text->len;
        if (stages)
                *stage = text->str[stages - 1];
        if (r < 0)
                *failure = r == -EINTR ? g_strdup("was interrupted")
                         : r == -ETIMEDOUT ? g_strdup_printf("did not finish within %u s", timeout_ms / 1000)
                         : g_strdup_printf("could not be waited for: %s", g_strerror(-r));
        else if (WIFSIGNALED(status))
                *failure = g_strdup_printf("was killed by signal %d (%s)", WTERMSIG(status),
                                           strsignal(WTERMSIG(status)));
        else if (!answer)
                *failure = g_strdup_printf("ended (exit status %d) without an answer", WEXITSTATUS(status));
        if (*failure)
                return NULL;
        g_string_erase(text, 0, (gssize) stages + 1);
        return g_steal_pointer(&text);
}

/* ---- the probe: loading in a child ---- */

void plugin_probe_clear(Probe *pr)
{
        g_free(pr->error);
        g_free(pr->name);
        g_free(pr->family);
        g_free(pr->summary);
        g_free(pr->version);
        g_free(pr->unavailable);
        g_free(pr->libraries);
        memset(pr, 0, sizeof *pr);
}

/* The stages of the probe, and what a crash at each means. */
static const struct {
        char stage;
        const char *where;
} probe_stages[] = {
        { 'L', "while it was being loaded (its constructors, or its libraries')" },
        { 'S', "while its symbol " IPCLAB_TRANSPORT_SYMBOL " was looked up" },
        { 'D', "while its descriptor was read (a pointer in it that points nowhere)" },
        { 'U', "in its unavailable() hook" },
        { 'B', "in its libraries() hook" },
};

static void probe_answer(int fd, GKeyFile *kf)
{
        gsize len;
        g_autofree char *data = g_key_file_to_data(kf, &len, NULL);

        child_stage(fd, STAGE_ANSWER);
        child_write(fd, data, len);
}

static void probe_child(gpointer data, int fd)
{
        const char *path = data;
        g_autoptr(GKeyFile) kf = g_key_file_new();

        child_stage(fd, 'L');
        void *h = dlopen(path, RTLD_NOW | RTLD_LOCAL);
        if (!h) {
                const char *e = dlerror();
                g_autofree char *msg = g_strdup_printf("it cannot be loaded: %s", e ? e : "dlopen failed");
                g_key_file_set_string(kf, "probe", "error", msg);
                probe_answer(fd, kf);
                return;
        }
        child_stage(fd, 'S');
        dlerror();
        const IpclabTransport *d = dlsym(h, IPCLAB_TRANSPORT_SYMBOL);
        if (!d) {
                const char *e = dlerror();
                g_autofree char *msg = g_strdup_printf("it exports no " IPCLAB_TRANSPORT_SYMBOL
                                                       " (not an ipclab transport plugin, or one of another ABI "
                                                       "major): %s", e ? e : "the symbol is NULL");
                g_key_file_set_string(kf, "probe", "error", msg);
                probe_answer(fd, kf);
                return;
        }
        child_stage(fd, 'D');
        g_key_file_set_integer(kf, "probe", "abi_major", (gint) d->abi_major);
        g_key_file_set_integer(kf, "probe", "abi_minor", (gint) d->abi_minor);
        g_autofree char *why = plugin_check_descriptor(d, false);
        if (why) {
                g_key_file_set_string(kf, "probe", "error", why);
                probe_answer(fd, kf);
                return;
        }
        g_key_file_set_string(kf, "probe", "name", d->name);
        g_key_file_set_string(kf, "probe", "family", d->family);
        g_key_file_set_string(kf, "probe", "summary", d->summary);
        g_key_file_set_string(kf, "probe", "version", d->version);
        g_key_file_set_integer(kf, "probe", "flags", (gint) d->flags);
        const char *const hooks[] = { "unavailable", "libraries" };
        const char *(*const fns[])(void) = { d->unavailable, d->libraries };
        for (size_t i = 0; i < G_N_ELEMENTS(hooks); i++) {
                child_stage(fd, i == 0 ? 'U' : 'B');
                const char *s = fns[i] ? fns[i]() : NULL;
                if (s && !text_valid(s, TEXT_MAX)) {
                        g_autofree char *msg = g_strdup_printf("its %s() returned no line of UTF-8 of at most %d "
                                                               "bytes", hooks[i], TEXT_MAX);
                        g_key_file_set_string(kf, "probe", "error", msg);
                        probe_answer(fd, kf);
                        return;
                }
                if (s)
                        g_key_file_set_string(kf, "probe", hooks[i], s);
        }
        probe_answer(fd, kf);
}

/* Loads PATH in a child process and checks it; PR gets what it found.
 * false with pr->error when it is refused (not naming the file). */
bool plugin_probe(const char *path, Probe *pr)
{
        char stage, *failure;
        memset(pr, 0, sizeof *pr);
        g_autoptr(GString) answer = isolated(probe_child, (gpointer) path, PROBE_TIMEOUT_MS, &stage, &failure);
        g_autoptr(GKeyFile) kf = g_key_file_new();

        if (!answer) {
                const char *where = "while it was being loaded";
                for (size_t i = 0; i < G_N_ELEMENTS(probe_stages); i++)
                        if (probe_stages[i].stage == stage)
                                where = probe_stages[i].where;
                pr->error = g_strdup_printf("the process loading it %s %s", failure, where);
                g_free(failure);
                return false;
        }
        if (!g_key_file_load_from_data(kf, answer->str, answer->len, G_KEY_FILE_NONE, NULL)) {
                pr->error = g_strdup("the process loading it gave an answer that is not one");
                return false;
        }
        pr->error = g_key_file_get_string(kf, "probe", "error", NULL);
        pr->abi_major = (unsigned) g_key_file_get_integer(kf, "probe", "abi_major", NULL);
        pr->abi_minor = (unsigned) g_key_file_get_integer(kf, "probe", "abi_minor", NULL);
        if (pr->error)
                return false;
        pr->name = g_key_file_get_string(kf, "probe", "name", NULL);
        pr->family = g_key_file_get_string(kf, "probe", "family", NULL);
        pr->summary = g_key_file_get_string(kf, "probe", "summary", NULL);
        pr->version = g_key_file_get_string(kf, "probe", "version", NULL);
        pr->flags = (unsigned) g_key_file_get_integer(kf, "probe", "flags", NULL);
        pr->unavailable = g_key_file_get_string(kf, "probe", "unavailable", NULL);
        pr->libraries = g_key_file_get_string(kf, "probe", "libraries", NULL);
        if (!pr->name || !pr->family || !pr->summary || !pr->version) {
                pr->error = g_strdup("the process loading it gave an incomplete answer");
                return false;
        }
        return true;
}

/* ---- the plugin path ---- */

/* The directory above the one that holds FILE: a study's top. */
static char *study_top(const char *file)
{
        g_autofree char *abs = g_canonicalize_filename(file, NULL);
        g_autofree char *dir = g_path_get_dirname(abs);

        return g_path_get_dirname(dir);
}

GPtrArray *plugin_path(const char *top)
{
        GPtrArray *dirs = g_ptr_array_new_with_free_func(g_free);
        const char *env = g_getenv("IPCLAB_PLUGIN_PATH");

        g_autofree char *study = g_canonicalize_filename(top, NULL);

        g_ptr_array_add(dirs, g_build_filename(study, "transports", NULL));
        if (env) {
                g_auto(GStrv) parts = g_strsplit(env, ":", -1);
                for (guint i = 0; parts[i]; i++)
                        if (parts[i][0])
                                g_ptr_array_add(dirs, g_canonicalize_filename(parts[i], NULL));
        }
        /* Installed: PREFIX/bin/ipclab beside PREFIX/lib/ipclab/transports. */
        g_autofree char *exe = g_file_read_link("/proc/self/exe", NULL);
        if (exe) {
                g_autofree char *bindir = g_path_get_dirname(exe);
                g_autofree char *installed = g_build_filename(bindir, "..", "lib", "ipclab", "transports", NULL);
                g_ptr_array_add(dirs, g_canonicalize_filename(installed, NULL));
        }
        return dirs;
}

/* ---- loading (never unloaded: ipclab is a short-lived process) ---- */

static Plugin *plugin_register(void)
{
        Plugin *p = g_new0(Plugin, 1);

        if (!plugins)
                plugins = g_ptr_array_new();
        g_ptr_array_add(plugins, p);
        p->answers = g_hash_table_new_full(g_str_hash, g_str_equal, g_free, g_free);
        return p;
}

/* A plugin that cannot be loaded here, as plugin_resolve(ANYWHERE) keeps
 * it: a transport named NAME that is unavailable, saying WHY. */
static const Transport *standin(const char *name, const char *why)
{
        const Transport *t = transport_find(name);
        Plugin *p = t ? plugin_by_transport(t) : NULL;

        if (t)
                return t;   /* ipclab's own, a plugin, or a stand-in already */
        p = plugin_register();
        p->name = g_strdup(name);
        p->standin = g_strdup(why);
        p->t = (Transport) { IPCLAB_TRANSPORT_HEADER, .name = p->name, .family = "plugin",
                             .summary = "a plugin that is not loaded here" };
        transport_add_extra(&p->t);
        return &p->t;
}

/* The name a plugin file stands for: its name less the directory and .so. */
char *plugin_file_stem(const char *path)
{
        g_autofree char *base = g_path_get_basename(path);

        if (g_str_has_suffix(base, ".so"))
                base[strlen(base) - 3] = '\0';
        return g_steal_pointer(&base);
}

static char *file_sha256(const char *path, GError **error)
{
        g_autoptr(GMappedFile) m = g_mapped_file_new(path, FALSE, error);

        if (!m)
                return NULL;
        return g_compute_checksum_for_data(G_CHECKSUM_SHA256, (const guchar *) g_mapped_file_get_contents(m),
                                           g_mapped_file_get_length(m));
}

/* Loads the plugin at PATH, asked for as WANT (NULL: any name): its
 * transport, or NULL with *WHY (naming the file) and *NAME (the name it
 * declares, when it got that far). */
static const Transport *plugin_load_checked(const char *path, const char *want, char **why, char **name)
{
        g_autofree char *canonical = g_canonicalize_filename(path, NULL);
        g_autofree char *real = realpath(path, NULL);
        g_auto(Probe) pr = { 0 };
        g_autoptr(GError) e = NULL;
        g_autofree char *sha = NULL, *bad = NULL;
        struct stat st;

        if (!real) {
                *why = g_strdup_printf("plugin %s: %s", canonical, g_strerror(errno));
                return NULL;
        }
        for (guint i = 0; plugins && i < plugins->len; i++) {
                Plugin *p = plugins->pdata[i];
                if (p->standin || strcmp(p->real, real) != 0)
                        continue;
                if (!want || !strcmp(want, p->t.name))
                        return &p->t;
                *why = g_strdup_printf("plugin %s: its transport is named '%s', but it was asked for as '%s'",
                                       canonical, p->t.name, want);
                return NULL;
        }
        if (stat(canonical, &st) < 0 || !S_ISREG(st.st_mode)) {
                *why = g_strdup_printf("plugin %s: not a regular file", canonical);
                return NULL;
        }
        if (!plugin_probe(canonical, &pr)) {
                *why = g_strdup_printf("plugin %s: %s", canonical, pr.error);
                return NULL;
        }
        *name = g_strdup(pr.name);
        if (want && strcmp(want, pr.name) != 0) {
                *why = g_strdup_printf("plugin %s: its transport is named '%s', but it was asked for as '%s' (a "
                                       "plugin's file is named after its transport: %s.so)", canonical, pr.name,
                                       want, pr.name);
                return NULL;
        }
        sha = file_sha256(canonical, &e);
        if (!sha) {
                *why = g_strdup_printf("plugin %s: %s", canonical, e->message);
                return NULL;
        }
        const Transport *other = transport_find(pr.name);
        Plugin *op = other ? plugin_by_transport(other) : NULL;
        if (other && !op) {
                *why = g_strdup_printf("plugin %s: its name '%s' is taken by one of ipclab's own transports",
                                       canonical, pr.name);
                return NULL;
        }
        if (op && !op->standin && !strcmp(op->sha256, sha))
                return &op->t;   /* the same bytes elsewhere: the same plugin */
        if (op && !op->standin) {
                *why = g_strdup_printf("plugin %s: its name '%s' is taken by the plugin %s (another file)",
                                       canonical, pr.name, op->path);
                return NULL;
        }
        dlerror();
        void *h = dlopen(canonical, RTLD_NOW | RTLD_LOCAL);
        if (!h) {
                *why = g_strdup_printf("plugin %s: it cannot be loaded: %s", canonical, dlerror());
                return NULL;
        }
        const IpclabTransport *d = dlsym(h, IPCLAB_TRANSPORT_SYMBOL);
        bad = d ? plugin_check_descriptor(d, false) : g_strdup("its symbol is gone");
        if (bad || strcmp(d->name, pr.name) != 0) {
                *why = g_strdup_printf("plugin %s: loaded again, it is not what it was: %s", canonical,
                                       bad ? bad : "another name");
                return NULL;
        }

        /* A stand-in of the same name (an earlier ANYWHERE) becomes it. */
        Plugin *p = op ? op : plugin_register();
        g_clear_pointer(&p->standin, g_free);
        p->path = g_steal_pointer(&canonical);
        p->real = g_steal_pointer(&real);
        p->sha256 = g_steal_pointer(&sha);
        p->unavailable = g_steal_pointer(&pr.unavailable);
        p->libraries = g_steal_pointer(&pr.libraries);
        p->handle = h;
        memset(&p->t, 0, sizeof p->t);
        memcpy(&p->t, d, MIN((size_t) d->struct_size, sizeof p->t));
        if (!op)
                transport_add_extra(&p->t);
        return &p->t;
}

/* plugin_load_checked(), with what ANYWHERE makes of a refusal. */
static const Transport *plugin_load(const char *path, const char *want, bool anywhere, GError **error)
{
        g_autofree char *why = NULL, *name = NULL;
        const Transport *t = plugin_load_checked(path, want, &why, &name);

        if (t)
                return t;
        if (anywhere) {
                g_autofree char *stem = plugin_file_stem(path);
                return standin(name ? name : want ? want : stem, why);
        }
        g_set_error_literal(error, IPCLAB_ERROR, IPCLAB_ERROR_INPUT, why);
        return NULL;
}

/* Has PATH a '..' component? */
static bool climbs(const char *path)
{
        g_auto(GStrv) parts = g_strsplit(path, "/", -1);

        for (guint i = 0; parts[i]; i++)
                if (!strcmp(parts[i], ".."))
                        return true;
        return false;
}

static bool transport_known(const char *name, const void *names)
{
        for (guint i = 0; i < ((const GPtrArray *) names)->len; i++)
                if (!strcmp(((const GPtrArray *) names)->pdata[i], name))
                        return true;
        return false;
}

/* What ITEM, an unknown transport, may have meant, for its message: the
 * closest of ipclab's transports and the plugins on the path of TOP (by
 * their files' names: none is loaded for this), or the list ITEM is with
 * ',' for ';'.  Newly allocated, "" when nothing is close. */
static char *transport_hint(const char *item, const char *top)
{
        g_autoptr(GPtrArray) names = g_ptr_array_new_with_free_func(g_free);
        g_autoptr(GPtrArray) dirs = plugin_path(top);

        for (size_t i = 0; transport_table[i]; i++)
                g_ptr_array_add(names, g_strdup(transport_table[i]->name));
        for (guint d = 0; d < dirs->len; d++) {
                g_autoptr(GDir) dir = g_dir_open(dirs->pdata[d], 0, NULL);
                const char *e;
                while (dir && (e = g_dir_read_name(dir)))
                        if (g_str_has_suffix(e, ".so") && strlen(e) > 3)
                                g_ptr_array_add(names, g_strndup(e, strlen(e) - 3));
        }
        char *list = experiment_comma_hint(item, transport_known, names);
        if (list[0])
                return list;
        g_free(list);
        Suggest s;
        suggest_init(&s, item);
        for (guint i = 0; i < names->len; i++)
                suggest_consider(&s, names->pdata[i]);
        return suggest_hint(&s);
}

const Transport *plugin_resolve(const char *item, const char *file, bool anywhere, GError **error)
{
        g_autofree char *top = study_top(file);

        if (g_str_has_prefix(item, "plugin:")) {
                const char *rel = item + strlen("plugin:");
                if (!rel[0] || g_path_is_absolute(rel) || climbs(rel)) {
                        g_set_error(error, IPCLAB_ERROR, IPCLAB_ERROR_INPUT,
                                    "'%s': a plugin's path is relative to the study's top directory (%s) and stays "
                                    "in it: no '/' at its start, no '..' (a plugin elsewhere: IPCLAB_PLUGIN_PATH)",
                                    item, top);
                        return NULL;
                }
                g_autofree char *path = g_build_filename(top, rel, NULL);
                return plugin_load(path, NULL, anywhere, error);
        }

        const Transport *t = transport_find(item);
        Plugin *p = t ? plugin_by_transport(t) : NULL;
        if (t && !p)
                return t;   /* ipclab's own (or a test's) */
        if (!name_valid(item)) {
                g_autofree char *hint = transport_hint(item, top);
                g_set_error(error, IPCLAB_ERROR, IPCLAB_ERROR_INPUT, "unknown transport '%s' (see `ipclab list`)%s",
                            item, hint);
                return NULL;
        }
        g_autoptr(GPtrArray) dirs = plugin_path(top);
        g_autofree char *so = g_strconcat(item, ".so", NULL);
        for (guint i = 0; i < dirs->len; i++) {
                g_autofree char *path = g_build_filename(dirs->pdata[i], so, NULL);
                if (g_file_test(path, G_FILE_TEST_EXISTS))
                        return plugin_load(path, item, anywhere, error);
        }
        if (p && !p->standin)
                return t;   /* loaded from elsewhere (plugin:PATH) */
        g_ptr_array_add(dirs, NULL);
        g_autofree char *where = g_strjoinv(", ", (char **) dirs->pdata);
        g_autofree char *hint = anywhere ? g_strdup("") : transport_hint(item, top);
        g_autofree char *why = g_strdup_printf("unknown transport '%s' (see `ipclab list`; no plugin %s in %s)%s", item,
                                               so, where, hint);
        if (anywhere)
                return standin(item, why);
        g_set_error_literal(error, IPCLAB_ERROR, IPCLAB_ERROR_INPUT, why);
        return NULL;
}

/* ---- describing hooks, each in a child ---- */

typedef struct {
        const Transport *t;
        const IpclabCell *cell;
} HookCall;

static void refuses_child(gpointer data, int fd)
{
        const HookCall *hc = data;

        child_stage(fd, 'R');
        const char *r = hc->t->refuses(hc->cell);
        child_stage(fd, STAGE_ANSWER);
        child_write(fd, r ? "R" : "N", 1);
        if (r)
                child_write(fd, r, strnlen(r, TEXT_MAX + 1));
}

static void max_size_child(gpointer data, int fd)
{
        const HookCall *hc = data;

        child_stage(fd, 'M');
        size_t n = hc->t->max_size(hc->cell);
        char text[32];
        int len = snprintf(text, sizeof text, "%zu", n);
        child_stage(fd, STAGE_ANSWER);
        child_write(fd, text, (size_t) len);
}

/* The answer of hook HOOK of plugin T for CELL, asked in a child once per
 * cell: "N" (NULL) or "R" and the text, for refuses(); the number, for
 * max_size().  NULL when the hook failed: plugin_failure() says why. */
static const char *hook_answer(const Transport *t, const char *hook, void (*fn)(gpointer, int),
                               const IpclabCell *cell)
{
        Plugin *p = plugin_by_transport(t);
        /* The key: the hook and every byte of the cell but its transport's
         * name (the plugin's own), so that a field the ABI adds is in it
         * without a word here (the struct has no padding: test-plugin). */
        IpclabCell c = *cell;
        c.transport = NULL;
        g_autoptr(GString) k = g_string_new(hook);
        g_string_append_c(k, ' ');
        for (size_t i = 0; i < sizeof c; i++)
                g_string_append_printf(k, "%02x", ((const unsigned char *) &c)[i]);
        g_autofree char *key = g_string_free(g_steal_pointer(&k), FALSE);
        const char *known = g_hash_table_lookup(p->answers, key);
        HookCall hc = { t, cell };
        char stage, *failure = NULL;

        if (p->failure)
                return NULL;
        if (known)
                return known;
        g_autoptr(GString) answer = isolated(fn, &hc, HOOK_TIMEOUT_MS, &stage, &failure);
        if (!answer) {
                p->failure = g_strdup_printf("plugin %s: its %s() hook %s", p->path, hook, failure);
                g_free(failure);
                return NULL;
        }
        char *value = g_strdup(answer->str);
        g_hash_table_insert(p->answers, g_steal_pointer(&key), value);
        return value;
}

const char *plugin_refuses(const Transport *t, const IpclabCell *cell)
{
        const char *a = hook_answer(t, "refuses", refuses_child, cell);
        Plugin *p = plugin_by_transport(t);

        if (!a)
                return "the plugin's refuses() failed";
        if (a[0] == 'N' && !a[1])
                return NULL;
        if (a[0] != 'R' || !text_valid(a + 1, TEXT_MAX) || !a[1]) {
                if (!p->failure)
                        p->failure = g_strdup_printf("plugin %s: its refuses() hook returned no line of UTF-8 of "
                                                     "at most %d bytes", p->path, TEXT_MAX);
                return "the plugin's refuses() failed";
        }
        return a + 1;
}

size_t plugin_max_size(const Transport *t, const IpclabCell *cell)
{
        const char *a = hook_answer(t, "max_size", max_size_child, cell);
        guint64 n = 0;

        if (!a || !g_ascii_string_to_unsigned(a, 10, 0, G_MAXSIZE, &n, NULL))
                return 0;
        return (size_t) n;
}
