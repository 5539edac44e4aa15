/* transport-catalogue.c: the transports an experiment file may name
 * (transport-catalogue.h). */
#include "transport-catalogue.h"

#include <string.h>

#include "ipclab-error.h"

static const TransportOps *ops;

/* Transports added since: plugins, tests' wrappers. */
static GPtrArray *extra;

void transports_install(const TransportOps *o)
{
        ops = o;
}

void transport_add_extra(const Transport *t)
{
        if (!extra)
                extra = g_ptr_array_new();
        g_ptr_array_add(extra, (gpointer) t);
}

const Transport *transport_find(const char *name)
{
        for (size_t i = 0; ops && ops->builtin[i]; i++)
                if (strcmp(ops->builtin[i]->name, name) == 0)
                        return ops->builtin[i];
        for (guint i = 0; extra && i < extra->len; i++)
                if (strcmp(((const Transport *) extra->pdata[i])->name, name) == 0)
                        return extra->pdata[i];
        return NULL;
}

const Transport *transport_resolve(const char *item, const char *file, bool anywhere, GError **error)
{
        if (!ops) {
                g_set_error(error, IPCLAB_ERROR, IPCLAB_ERROR_INPUT,
                            "transport '%s': this program installed no transports (transports_install(), "
                            "transport-catalogue.h)", item);
                return NULL;
        }
        return ops->resolve(item, file, anywhere, error);
}

const char *transport_unavailable(const Transport *t)
{
        return ops ? ops->unavailable(t) : "this program installed no transports (transports_install())";
}

size_t transport_max_size(const Transport *t, const Cell *cell)
{
        return ops && t->max_size ? ops->max_size(t, cell) : 0;
}

const char *transport_refuses(const Transport *t, const Cell *cell)
{
        const char *no = ops && t->refuses ? ops->refuses(t, cell) : NULL;

        if (no || cell->roles != ROLES_THREADS || (t->flags & TRANSPORT_THREADS))
                return no;
        /* Refused roles=threads without a reason of its own (refuses()
         * sees the cell's roles from ABI 1.2 on). */
        if (t->flags & TRANSPORT_INPROCESS)
                return "roles=threads: it runs both roles in one thread already";
        if (t->flags & TRANSPORT_COMMAND)
                return "roles=threads: every call is a command of its own, a process";
        return "roles=threads: the transport keeps state per process that its two roles would share in one";
}

const char *transport_threads_refused(const Transport *t)
{
        const Cell cell = { .transport = t->name, .pattern = PATTERN_ROUNDTRIP, .size = 64, .count = 1,
                            .roles = ROLES_THREADS };

        return t->flags & TRANSPORT_THREADS ? NULL : transport_refuses(t, &cell);
}

const char *transport_failure(const Transport *t)
{
        return ops ? ops->failure(t) : NULL;
}

char *transport_identity(const Transport *t)
{
        return ops ? ops->identity(t) : NULL;
}
