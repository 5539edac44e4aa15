/* plugin-internal.h: what plugin.c (loading, checking, the describing
 * hooks) shares with plugin-provenance.c (what meta.ini and `ipclab list`
 * say of a plugin).  Not for other modules: plugin.h is the interface. */
#pragma once

#include <stdbool.h>

#include <glib.h>

#include "transport.h"

/* A plugin loaded (or a stand-in for one that could not be). */
typedef struct {
        char *path;            /* the file, as found (absolute) */
        char *real;            /* the file, every symbolic link resolved */
        char *sha256;          /* of its bytes */
        char *unavailable;     /* its unavailable(), as the probe found it */
        char *libraries;       /* its libraries(), as the probe found it */
        char *failure;         /* a describing hook failed: why, naming the file */
        char *standin;         /* not loaded (plugin_resolve ANYWHERE): why */
        char *name;            /* a stand-in's name */
        void *handle;
        Transport t;           /* its descriptor, copied; a stand-in's name */
        GHashTable *answers;   /* "hook cell" -> what the hook answered */
} Plugin;

/* What a plugin's probe (loading it in a child, plugin_probe) found. */
typedef struct {
        char *error;           /* why it is refused */
        char *name, *family, *summary, *version, *unavailable, *libraries;
        unsigned abi_major, abi_minor, flags;
} Probe;

void plugin_probe_clear(Probe *pr);
G_DEFINE_AUTO_CLEANUP_CLEAR_FUNC(Probe, plugin_probe_clear)

/* The loaded plugin whose descriptor T is, or NULL (a built-in). */
Plugin *plugin_by_transport(const Transport *t);

/* Loads PATH in a child process and fills PR with what it says; false
 * with PR->error saying why it is refused. */
bool plugin_probe(const char *path, Probe *pr);

/* The name a plugin file stands for: its name less the directory and .so. */
char *plugin_file_stem(const char *path);
