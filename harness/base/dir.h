/* dir.h: directories of data removed whole, and their entries listed in
 * order.
 */
#pragma once

#include <glib.h>

/* strcmp of two char * elements of a GPtrArray: g_ptr_array_sort()
 * passes pointers to the elements, not the elements (names of
 * directory entries sorted, as every listing here is). */
int samples_name_cmp(gconstpointer a, gconstpointer b);

/* Removes DIR and everything below it, never following links and never
 * entering another file system (a bind mount left below DIR: -EXDEV); a
 * missing DIR is fine.  Returns 0 or -errno (the first failure).  The one
 * remover of a tree: data, staging, a bus's or a run's directory. */
int samples_remove_dir(const char *dir);
