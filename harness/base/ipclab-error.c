/* ipclab-error.c: the error domain (ipclab-error.h). */
#include "ipclab-error.h"

G_DEFINE_QUARK(ipclab-error-quark, ipclab_error)
