/* gdbus-link.h: the GDBus connection that gdbus.c and fdpass.c share.
 *
 * Both serve one object (BENCH_PATH) on a connection of their own, with a
 * GMainContext of their own pushed as the thread default while the
 * endpoint is open: through a bus (connect, register, RequestName) or
 * peer to peer (a GDBusServer at DIR/p2p that takes one client, which
 * the server registers its object on).  What differs is the object: its
 * introspection data (node) and vtable, which the owner gives.
 */
#pragma once

#include <stdbool.h>

#include <gio/gio.h>

#include "transport.h"

typedef struct {
        GMainContext *ctx;              /* ours, the thread default while open */
        GDBusConnection *conn;
        GDBusServer *server;            /* p2p server, until its client is in */
        GDBusNodeInfo *node;            /* the server's introspection data */
        const GDBusInterfaceVTable *vtable;   /* the server's object */
        gpointer user;                  /* its user data */
        guint reg_id;
        gulong closed_id;
        bool closed;
        char *accept_error;             /* p2p: why the client was refused */
} GdbusLink;

/* A context of L's own, pushed as the thread default; the object that a
 * server registers is VTABLE's, called with USER. */
void gdbus_link_init(GdbusLink *l, const GDBusInterfaceVTable *vtable, gpointer user);
/* Fails EP with "WHAT: E's message"; returns the error. */
int gdbus_link_fail(Endpoint *ep, const GError *e, const char *what);
/* unix:path=DIR/p2p, escaped as a D-Bus address. */
char *gdbus_link_p2p_address(const Endpoint *ep);
/* Opens EP's side of the link, for its cell's bus (bus= other than p2p:
 * EP's bus address) or peer to peer (DIR/p2p).  A server (XML: the
 * object's introspection data) registers the object and owns BENCH_NAME
 * on a bus, or listens at DIR/p2p for one client of the same user, which
 * gets the object; a client connects.  0, or < 0 with EP failed. */
int gdbus_link_open(Endpoint *ep, GdbusLink *l, Role role, const char *xml);
/* Server: one iteration of the context while waiting for a call; stops
 * listening once the p2p client is in.  < 0 (EP failed) when the client
 * was refused, or when the connection closed (CLOSED_WHY says so). */
int gdbus_link_iterate(Endpoint *ep, GdbusLink *l, const char *closed_why);
/* Unregisters, flushes what is still queued (the last reply must leave
 * before we do), closes, stops listening and lets callbacks already
 * scheduled in the context finish.  Then the owner drops what those
 * callbacks queued, and calls gdbus_link_clear(). */
void gdbus_link_shut(GdbusLink *l);
/* Drops the connection, server and node, and pops the context. */
void gdbus_link_clear(GdbusLink *l);
