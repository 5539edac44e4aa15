/* latex.h: text made safe for LaTeX, for every step that writes it
 * (report's figures, tables and sections, analyse's comparison), and the
 * names of the macros the paper quotes claims and numbers by.
 */
#pragma once

/* S with LaTeX's special characters escaped, for running text: the one
 * escaper of the paper's generated files.  Newly allocated. */
char *render_latex_escape(const char *s);

/* "Array beats per-element" and "array-beats-per-element" give
 * "ArrayBeatsPerElement": a name (a claim's, a [number]'s) camel-cased,
 * letters only (a LaTeX macro name); a digit becomes its English name
 * ("p2p" -> "PTwoP").  The one namer of the paper's macros.  Newly
 * allocated. */
char *latex_macro_name(const char *name);
