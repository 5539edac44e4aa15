/* machine-name.c: what may name a machine (see machine-name.h). */
#include "machine-name.h"

#include <string.h>

gboolean machine_name_valid(const char *name)
{
        gsize n = name ? strlen(name) : 0;

        return n >= 1 && n <= 64 && strcmp(name, "-") &&
               strspn(name, "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_.") == n;
}
