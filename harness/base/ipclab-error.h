/* ipclab-error.h: the one error domain of ipclab's GErrors, and its codes
 * (main.c maps them to exit statuses).
 */
#pragma once

#include <glib.h>

#define IPCLAB_ERROR (ipclab_error_quark())
GQuark ipclab_error_quark(void);

typedef enum {
        IPCLAB_ERROR_INPUT = 1,   /* bad experiment file or argument: exit 2 */
        IPCLAB_ERROR_RUN,         /* a measurement failed: exit 1 */
        IPCLAB_ERROR_IO,          /* could not write results */
} IpclabError;
