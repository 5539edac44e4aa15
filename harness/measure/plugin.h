/* plugin.h: transports loaded from shared objects.
 *
 * A plugin is a shared object exporting one IpclabTransport named
 * ipclab_transport_v1 (include/ipclab/transport.h: the ABI and how to
 * build one).  An experiment names it like any transport:
 *
 *   transport=NAME           NAME.so in the first of: the study's
 *                            transports/ directory (beside experiments/,
 *                            i.e. in the directory above the experiment
 *                            file's), each directory of IPCLAB_PLUGIN_PATH
 *                            (':'-separated), the installed
 *                            PREFIX/lib/ipclab/transports/ (beside the
 *                            binary's bin/); ipclab's own transports first
 *   transport=plugin:PATH    the object at PATH, relative to the study's
 *                            top directory (the one above the experiment
 *                            file's): never absolute, never through '..',
 *                            so that a file names no code outside its study
 *
 * Loading checks everything before anything is measured, in a process of
 * its own (the probe): the object loads (dlopen RTLD_NOW | RTLD_LOCAL,
 * with dlerror's text when it does not), exports the symbol, declares
 * this ABI's major and a minor no newer than this ipclab's with that
 * minor's descriptor size, knows its flags, has its mandatory hooks and a
 * valid name that is the one it was asked by, and its unavailable() and
 * libraries() return.  Then ipclab loads it itself, refuses a name that
 * ipclab's own transports or another plugin already have, and registers
 * it (transport_find finds it): the runner forks its sides from a process
 * that has it loaded.  Every refusal names the file.  Objects are never
 * unloaded.
 *
 * A plugin's describing hooks (max_size, refuses) are called each in a
 * short-lived child process (plugin_max_size, plugin_refuses): a crash or
 * a hang there becomes the plugin's failure (plugin_failure), which the
 * experiment reports as a mistake (exit 2).  Never prints.
 */
#pragma once

#include <glib.h>
#include <stdbool.h>

#include "transport.h"

/* What an experiment file's transport= item ITEM (a name, or
 * plugin:PATH) is for the experiment file FILE: ipclab's own transport, a
 * loaded plugin, or the plugin it names loaded now.  NULL with
 * IPCLAB_ERROR_INPUT saying what is wrong (naming the plugin's file) when
 * it is none of these.  ANYWHERE (listing outputs, hashing what a file
 * measures): a plugin that cannot be loaded here (not built yet) is a
 * transport that is unavailable here, with the reason, named after its
 * file, rather than an error. */
const Transport *plugin_resolve(const char *item, const char *file, bool anywhere, GError **error);

/* Is T a plugin (loaded, or standing in for one that could not be)?
 * Then TRUE, with *UNAVAILABLE (when not NULL) why it cannot run here, or
 * NULL. */
bool plugin_of(const Transport *t, const char **unavailable);

/* T's max_size() and refuses() for CELL, each called in a child process.
 * A crash, a hang or a malformed answer makes plugin_failure(T) say so;
 * the result is then 0 (no limit) and a reason to leave the cell out. */
size_t plugin_max_size(const Transport *t, const IpclabCell *cell);
const char *plugin_refuses(const Transport *t, const IpclabCell *cell);

/* Why T, a plugin, must not be used (a describing hook crashed, hung or
 * answered nonsense), naming its file; NULL when it is sound. */
const char *plugin_failure(const Transport *t);

/* What makes the plugin T what it is, for the configuration hash (what
 * decides that data is measured again): its name, its file's SHA-256 and
 * its own version, or, for a plugin that is not loaded here, why; NULL
 * for ipclab's own transports. */
char *plugin_identity(const Transport *t);

/* The provenance of plugin T, for meta.ini: GROUP of KF gets its path (as
 * found, and resolved), sha256, version, abi, family, flags, summary,
 * libraries (what it says it uses, from its libraries()) and needed (the
 * libraries its object links, each with the file it resolved to and,
 * where dpkg knows the file, its package and version).  Nothing for
 * ipclab's own transports. */
void plugin_provenance(const Transport *t, GKeyFile *kf, const char *group);

/* One plugin file found on the plugin path, as `ipclab list` shows it. */
typedef struct {
        char *path;          /* the file */
        char *name;          /* its transport's name, or the file's name when unreadable */
        char *family;
        char *summary;
        char *version;
        char *abi;           /* "1.0" */
        char *unavailable;   /* why it cannot run here, or NULL */
        char *refused;       /* why ipclab refuses it (naming the file), or NULL */
        char *shadowed_by;   /* an earlier file on the path with its name, or NULL */
} PluginEntry;

void plugin_entry_free(PluginEntry *e);
G_DEFINE_AUTOPTR_CLEANUP_FUNC(PluginEntry, plugin_entry_free)

/* Every *.so in the plugin path's directories for a study whose top
 * directory is TOP (its TOP/transports/ first), probed, not loaded: a
 * PluginEntry each, in path order. */
GPtrArray *plugin_list(const char *top);

/* The plugin path for the study whose top directory is TOP, in order,
 * existing directories or not (`ipclab list` says where it looked). */
GPtrArray *plugin_path(const char *top);

/* Checks descriptor D as loading a plugin does (BUILTIN: one of ipclab's
 * own, which has no version of its own): NULL when it is sound, else what
 * is wrong (newly allocated; the file is the caller's to name). */
char *plugin_check_descriptor(const IpclabTransport *d, bool builtin);
