/* plugin-provenance.c: what meta.ini and `ipclab list` say of a plugin
 * (plugin.h): its identity for the configuration hash, its file, SHA-256,
 * version and the libraries it links, and the plugins on the path. */
#include "plugin.h"

#include <dlfcn.h>
#include <link.h>
#include <stdlib.h>
#include <string.h>

#include "dir.h"
#include "spawn.h"
#include "plugin-internal.h"

/* ---- identity and provenance ---- */

char *plugin_identity(const Transport *t)
{
        Plugin *p = plugin_by_transport(t);

        if (!p)
                return NULL;
        if (p->standin)
                return g_strdup_printf("%s not loaded: %s", t->name, p->standin);
        return g_strdup_printf("%s sha256=%s version=%s abi=%u.%u", t->name, p->sha256, t->version,
                               t->abi_major, t->abi_minor);
}

/* The Debian package that holds FILE and its version ("libzmq5:amd64
 * 4.3.4-6"), or NULL: dpkg knows a merged /usr's files under /lib too. */
static char *package_of(const char *file)
{
        g_autofree char *alt = g_str_has_prefix(file, "/usr/") ? g_strdup(file + 4) : NULL;
        const char *const files[] = { file, alt };

        for (size_t i = 0; i < G_N_ELEMENTS(files) && files[i]; i++) {
                const char *search[] = { "dpkg-query", "--search", files[i], NULL };
                g_autofree char *out = NULL;
                if (spawn_helper(search, SPAWN_HELPER_TIMEOUT_MS, &out) != 0)
                        continue;
                char *colon = strstr(out, ": ");
                if (!colon)
                        continue;
                *colon = '\0';
                const char *show[] = { "dpkg-query", "--show", "--showformat=${Version}", out, NULL };
                g_autofree char *version = NULL;
                if (spawn_helper(show, SPAWN_HELPER_TIMEOUT_MS, &version) != 0)
                        continue;
                return g_strdup_printf("%s %s", out, g_strstrip(version));
        }
        return NULL;
}

/* The libraries HANDLE's object links (its DT_NEEDED entries), each as
 * "SONAME => FILE (PACKAGE VERSION)", joined by "; ". */
static char *needed_libraries(void *handle)
{
        struct link_map *lm = NULL;
        const char *strtab = NULL;
        g_autoptr(GString) out = g_string_new(NULL);

        if (dlinfo(handle, RTLD_DI_LINKMAP, &lm) != 0 || !lm || !lm->l_ld)
                return g_strdup("unknown (no link map)");
        /* The dynamic section's addresses are relocated in place by the
         * dynamic linker on most targets, not where it is read-only. */
        for (const ElfW(Dyn) *d = lm->l_ld; d->d_tag != DT_NULL; d++)
                if (d->d_tag == DT_STRTAB)
                        strtab = (const char *) (d->d_un.d_ptr < lm->l_addr ? lm->l_addr + d->d_un.d_ptr
                                                                             : d->d_un.d_ptr);
        for (const ElfW(Dyn) *d = lm->l_ld; strtab && d->d_tag != DT_NULL; d++) {
                if (d->d_tag != DT_NEEDED)
                        continue;
                const char *soname = strtab + d->d_un.d_val;
                void *h = dlopen(soname, RTLD_LAZY | RTLD_NOLOAD);
                struct link_map *dep = NULL;
                g_autofree char *file = NULL, *package = NULL;
                if (h && dlinfo(h, RTLD_DI_LINKMAP, &dep) == 0 && dep && dep->l_name[0])
                        file = realpath(dep->l_name, NULL);
                if (h)
                        dlclose(h);
                if (file)
                        package = package_of(file);
                g_string_append_printf(out, "%s%s => %s", out->len ? "; " : "", soname, file ? file : "not found");
                if (package)
                        g_string_append_printf(out, " (%s)", package);
        }
        return g_strdup(out->len ? out->str : "none");
}

void plugin_provenance(const Transport *t, GKeyFile *kf, const char *group)
{
        Plugin *p = plugin_by_transport(t);

        if (!p)
                return;
        if (p->standin) {
                g_key_file_set_string(kf, group, "loaded", p->standin);
                return;
        }
        g_autofree char *abi = g_strdup_printf("%u.%u", t->abi_major, t->abi_minor);
        g_autofree char *flags = g_strdup_printf("0x%x", t->flags);
        g_autofree char *needed = needed_libraries(p->handle);
        g_key_file_set_string(kf, group, "path", p->path);
        if (strcmp(p->path, p->real) != 0)
                g_key_file_set_string(kf, group, "file", p->real);
        g_key_file_set_string(kf, group, "sha256", p->sha256);
        g_key_file_set_string(kf, group, "version", t->version);
        g_key_file_set_string(kf, group, "abi", abi);
        g_key_file_set_string(kf, group, "family", t->family);
        g_key_file_set_string(kf, group, "flags", flags);
        g_key_file_set_string(kf, group, "summary", t->summary);
        g_key_file_set_string(kf, group, "libraries", p->libraries ? p->libraries : "not said (no libraries() hook)");
        g_key_file_set_string(kf, group, "needed", needed);
}

/* ---- listing ---- */

void plugin_entry_free(PluginEntry *e)
{
        if (!e)
                return;
        g_free(e->path);
        g_free(e->name);
        g_free(e->family);
        g_free(e->summary);
        g_free(e->version);
        g_free(e->abi);
        g_free(e->unavailable);
        g_free(e->refused);
        g_free(e->shadowed_by);
        g_free(e);
}

GPtrArray *plugin_list(const char *top)
{
        GPtrArray *out = g_ptr_array_new_with_free_func((GDestroyNotify) plugin_entry_free);
        g_autoptr(GPtrArray) dirs = plugin_path(top);

        for (guint i = 0; i < dirs->len; i++) {
                g_autoptr(GDir) d = g_dir_open(dirs->pdata[i], 0, NULL);
                g_autoptr(GPtrArray) names = g_ptr_array_new_with_free_func(g_free);
                const char *n;

                while (d && (n = g_dir_read_name(d)))
                        if (g_str_has_suffix(n, ".so"))
                                g_ptr_array_add(names, g_strdup(n));
                g_ptr_array_sort(names, samples_name_cmp);
                for (guint k = 0; k < names->len; k++) {
                        PluginEntry *e = g_new0(PluginEntry, 1);
                        g_auto(Probe) pr = { 0 };
                        e->path = g_build_filename(dirs->pdata[i], names->pdata[k], NULL);
                        g_autofree char *stem = plugin_file_stem(e->path);
                        bool ok = plugin_probe(e->path, &pr);
                        e->name = g_strdup(ok ? pr.name : stem);
                        e->abi = pr.abi_major ? g_strdup_printf("%u.%u", pr.abi_major, pr.abi_minor) : NULL;
                        if (!ok) {
                                e->refused = g_strdup_printf("plugin %s: %s", e->path, pr.error);
                        } else {
                                e->family = g_steal_pointer(&pr.family);
                                e->summary = g_steal_pointer(&pr.summary);
                                e->version = g_steal_pointer(&pr.version);
                                e->unavailable = g_steal_pointer(&pr.unavailable);
                                const Transport *t = transport_find(e->name);
                                if (strcmp(e->name, stem) != 0)
                                        e->refused = g_strdup_printf("plugin %s: its transport is named '%s', so "
                                                                     "transport=%s does not find it (a plugin's file "
                                                                     "is named after its transport: %s.so)", e->path,
                                                                     e->name, stem, e->name);
                                else if (t && !plugin_of(t, NULL))
                                        e->refused = g_strdup_printf("plugin %s: its name '%s' is taken by one of "
                                                                     "ipclab's own transports", e->path, e->name);
                        }
                        for (guint j = 0; j < out->len && !e->refused; j++) {
                                const PluginEntry *o = out->pdata[j];
                                if (!o->refused && !strcmp(o->name, e->name))
                                        e->shadowed_by = g_strdup(o->path);
                        }
                        g_ptr_array_add(out, e);
                }
        }
        return out;
}

