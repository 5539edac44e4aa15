/* methods.h: the paper's description of the machine and software the data
 * were measured on, from each experiment's meta.ini (`ipclab methods`).
 *
 *   ipclab methods [--out FILE] --summary S.tsv... DATA/EXP/meta.ini...
 *
 * writes LaTeX for the method section: a macro per fact of the first
 * meta.ini (\MethodCpuModel, \MethodKernel, ...: "Method" and the key,
 * camel-cased as latex_macro_name() does), a paragraph that uses them,
 * a sentence for every experiment that ran on other hardware or another
 * kernel, the provenance table (when each experiment ran, with which
 * profile, environment and commit of ipclab), the table of each
 * experiment's fixed part (from its summary, `ipclab summarize`'s, one
 * --summary per meta.ini in the same order) and the conditions the
 * harness found that bias results, one line per kind, a number that
 * varies given as its range over the experiments (meta_warning_number).
 * Every value read from a meta.ini reaches LaTeX through
 * render_latex_escape().  With no file: a sentence saying so.
 */
#pragma once

#include <glib.h>

/* The text described above for the meta.ini files PATHS (NULL-terminated,
 * in the order the paper lists the experiments) and their summaries
 * SUMMARIES (as many, in the same order); NULL with IPCLAB_ERROR_INPUT
 * naming a file that cannot be read, or when the counts differ.  Never
 * prints. */
char *methods_tex(char *const *paths, char *const *summaries, GError **error);
