/* transport-catalogue.h: which transports an experiment file may name,
 * and what each takes, without the code that runs them.
 *
 * The experiment file (define/) has to know which transports exist and
 * what each accepts (its flags, its limit of size, the cells it refuses,
 * whether it runs here), and the samples (store/) which are in-process;
 * but the transports themselves, plugins and their loading (dlopen, the
 * describing hooks run in child processes) are measure/'s.  So this file
 * holds the catalogue proper: the Transport type (the descriptor of the
 * installed ABI header, include/ipclab/transport.h), the lookup by name
 * over the built-in list and the transports added since (plugins, tests'
 * wrappers), and the queries that only read a descriptor's flags.  What
 * needs measure/ comes through one table, TransportOps, that measure/
 * fills (transport_ops, measure/transport.h) and that a program installs
 * once at start-up, before it reads an experiment file: `ipclab`'s main()
 * and each test program.  Used before that, the catalogue knows no
 * transport: resolving one fails with an error that says so (nothing
 * crashes), and every other query answers as for no transport.
 */
#pragma once

#include <glib.h>
#include <stdbool.h>
#include <stddef.h>

#include <ipclab/transport.h>

#include "axes.h"

typedef IpclabTransport Transport;

/* The header's flags, as ipclab's code writes them. */
#define TRANSPORT_INPROCESS IPCLAB_TRANSPORT_INPROCESS
#define TRANSPORT_DBUS IPCLAB_TRANSPORT_DBUS
#define TRANSPORT_MARSHAL IPCLAB_TRANSPORT_MARSHAL
#define TRANSPORT_VALIDATES IPCLAB_TRANSPORT_VALIDATES
#define TRANSPORT_EMPTY_OK IPCLAB_TRANSPORT_EMPTY_OK
#define TRANSPORT_COMMAND IPCLAB_TRANSPORT_COMMAND
#define TRANSPORT_COPY_STRING IPCLAB_TRANSPORT_COPY_STRING
#define TRANSPORT_SHORT_REPLY IPCLAB_TRANSPORT_SHORT_REPLY
#define TRANSPORT_THREADS IPCLAB_TRANSPORT_THREADS

/* What the catalogue asks of measure/ (each described at the function
 * below that calls it). */
typedef struct {
        const Transport *const *builtin;   /* NULL-terminated, `ipclab list`'s order */
        const char *(*unavailable)(const Transport *t);
        size_t (*max_size)(const Transport *t, const Cell *cell);   /* T has max_size() */
        const char *(*refuses)(const Transport *t, const Cell *cell);   /* T has refuses() */
        const Transport *(*resolve)(const char *item, const char *file, bool anywhere, GError **error);
        const char *(*failure)(const Transport *t);
        char *(*identity)(const Transport *t);
} TransportOps;

/* Installs OPS (which must stay valid) for what follows; once, before any
 * experiment file is read. */
void transports_install(const TransportOps *ops);

/* Looks a transport up by its experiment-file name ("unix-stream"): the
 * built-in list first, then the transports added since (plugins, tests'
 * wrappers).  NULL when none has that name: a plugin is found here only
 * once it is loaded (transport_resolve()). */
const Transport *transport_find(const char *name);

/* Adds a transport that is not in the built-in list (a loaded plugin; a
 * test's fault-injection wrapper).  The pointer must stay valid. */
void transport_add_extra(const Transport *t);

/* What an experiment file's transport= item ITEM (a name, or
 * plugin:PATH) is for the experiment file FILE: ipclab's own transport, a
 * loaded plugin, or the plugin it names loaded now (measure/plugin.h
 * says how, and what ANYWHERE changes).  NULL with IPCLAB_ERROR_INPUT
 * saying what is wrong when it is none of these. */
const Transport *transport_resolve(const char *item, const char *file, bool anywhere, GError **error);

/* Why T cannot run here, or NULL: its unavailable() (a plugin's as its
 * probe found it when it was loaded, measure/plugin.h). */
const char *transport_unavailable(const Transport *t);
/* T's max_size() and refuses() for CELL (0 and NULL without them); a
 * plugin's each in a process of its own (measure/plugin.h), where a crash
 * makes the result the reason the plugin is refused. */
size_t transport_max_size(const Transport *t, const Cell *cell);
const char *transport_refuses(const Transport *t, const Cell *cell);
/* Why T takes no roles=threads at all ("roles=threads: ..."), or NULL
 * when it may (TRANSPORT_THREADS; its cells may still be refused): the
 * reason its refuses() gives a cell of roles=threads, else a general one
 * (transport_refuses gives the same for each such cell). */
const char *transport_threads_refused(const Transport *t);

/* Why T, a plugin, must not be used (a describing hook crashed, hung or
 * answered nonsense), naming its file; NULL when it is sound. */
const char *transport_failure(const Transport *t);
/* What makes the plugin T what it is, for the configuration hash: its
 * name, its file's SHA-256 and its own version, or, for a plugin that is
 * not loaded here, why; NULL for ipclab's own transports. */
char *transport_identity(const Transport *t);
