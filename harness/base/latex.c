/* latex.c: text made safe for LaTeX (latex.h). */
#include "latex.h"

#include <glib.h>

char *render_latex_escape(const char *s)
{
        GString *out = g_string_new(NULL);

        for (const char *p = s ? s : ""; *p; p++) {
                switch (*p) {
                case '\\': g_string_append(out, "\\textbackslash{}"); break;
                case '{': case '}': case '$': case '&': case '#': case '%': case '_':
                        g_string_append_c(out, '\\');
                        g_string_append_c(out, *p);
                        break;
                case '^': g_string_append(out, "\\textasciicircum{}"); break;
                case '~': g_string_append(out, "\\textasciitilde{}"); break;
                case '<': g_string_append(out, "\\textless{}"); break;
                case '>': g_string_append(out, "\\textgreater{}"); break;
                default: g_string_append_c(out, *p);
                }
        }
        return g_string_free(out, FALSE);
}
