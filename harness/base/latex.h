/* latex.h: text made safe for LaTeX, for every step that writes it
 * (report's figures, tables and sections, analyse's comparison).
 */
#pragma once

/* S with LaTeX's special characters escaped, for running text: the one
 * escaper of the paper's generated files.  Newly allocated. */
char *render_latex_escape(const char *s);
