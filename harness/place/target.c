/* target.c: naming an SSH target and quoting for a remote shell
 * (remote.h). */
#include "remote.h"
#include "remote-internal.h"

#include <string.h>

gboolean remote_all_of(const char *s, const char *extra)
{
        if (!s || !*s)
                return FALSE;
        for (; *s; s++)
                if (!g_ascii_isalnum(*s) && !strchr(extra, *s))
                        return FALSE;
        return TRUE;
}

RemoteTarget *remote_target_parse(const char *spec, GError **error)
{
        g_autoptr(RemoteTarget) t = g_new0(RemoteTarget, 1);

        t->spec = g_strdup(spec);
        if (!strcmp(spec, "local")) {
                t->key = g_strdup("local");
                return g_steal_pointer(&t);
        }
        if (!g_str_has_prefix(spec, "ssh://")) {
                g_set_error(error, IPCLAB_ERROR, IPCLAB_ERROR_INPUT,
                            "--host %s: not ssh://[USER@]HOST[:PORT] or local", spec);
                return NULL;
        }
        g_autofree char *rest = g_strdup(spec + strlen("ssh://"));
        char *at = strchr(rest, '@'), *host = rest;
        if (at) {
                *at = '\0';
                t->user = g_strdup(rest);
                host = at + 1;
        }
        char *colon = strchr(host, ':');
        if (colon) {
                *colon = '\0';
                guint64 port = 0;
                if (!g_ascii_string_to_unsigned(colon + 1, 10, 1, 65535, &port, NULL)) {
                        g_set_error(error, IPCLAB_ERROR, IPCLAB_ERROR_INPUT,
                                    "--host %s: the port '%s' is not 1 to 65535", spec, colon + 1);
                        return NULL;
                }
                t->port = g_strdup_printf("%u", (unsigned) port);
        }
        t->host = g_strdup(host);
        if ((t->user && !remote_all_of(t->user, "._-")) || !remote_all_of(t->host, ".-_") || t->host[0] == '-') {
                g_set_error(error, IPCLAB_ERROR, IPCLAB_ERROR_INPUT,
                            "--host %s: a user is letters, digits, '.', '_', '-'; a host a name or IPv4 "
                            "address (letters, digits, '.', '-', '_', not starting with '-')", spec);
                return NULL;
        }
        t->key = g_strdup_printf("%s%s%s%s%s", t->user ? t->user : "", t->user ? "@" : "", t->host,
                                 t->port ? "_" : "", t->port ? t->port : "");
        return g_steal_pointer(&t);
}

void remote_target_free(RemoteTarget *t)
{
        if (!t)
                return;
        g_free(t->spec);
        g_free(t->user);
        g_free(t->host);
        g_free(t->port);
        g_free(t->key);
        g_free(t);
}

char *remote_quote_command(const char *const *argv)
{
        g_autoptr(GString) s = g_string_new(NULL);

        for (gsize i = 0; argv[i]; i++) {
                g_autofree char *q = g_shell_quote(argv[i]);
                if (i)
                        g_string_append_c(s, ' ');
                g_string_append(s, q);
        }
        return g_string_free(g_steal_pointer(&s), FALSE);
}
