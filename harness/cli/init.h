/* init.h: `ipclab init DIR`, a new study outside this repository. */
#pragma once

#include <glib.h>
#include <stdbool.h>

/* Finds the directory a study's Makefile includes its steps from: the
 * installed PREFIX/share/ipclab beside the directory of BIN (the path of
 * the running ipclab, as /proc/self/exe names it), or, for the binary of
 * a source tree (harness/ipclab), that tree.  Returns it as an absolute
 * path (g_free), or NULL with IPCLAB_ERROR_INPUT naming where it looked. */
char *init_find_share(const char *bin, GError **error);

/* Starts a study in DIR (created if missing): copies SHARE/template/ into
 * it, every "@IPCLAB@" replaced by BIN and every "@IPCLAB_SHARE@" by SHARE
 * (the study's Makefile; .gitignore and .gitattributes come with it), then
 * makes DIR a git repository whose first commit holds those files.  DIR
 * must be new or empty: anything else fails with IPCLAB_ERROR_INPUT before
 * a file is written.  Files are written whole (g_file_set_contents).
 * Returns false and sets ERROR on failure; on success *NOTE is NULL, or
 * (g_free) what was not done of the git part and why (no git installed,
 * no identity to commit with): the study is made either way. */
bool init_study(const char *dir, const char *share, const char *bin, char **note, GError **error);
