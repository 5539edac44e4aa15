/* latex.c: text made safe for LaTeX (latex.h). */
#include "latex.h"

#include <glib.h>
#include <stdbool.h>

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

char *latex_macro_name(const char *name)
{
        static const char *const digits[] = { "Zero", "One", "Two", "Three", "Four",
                                              "Five", "Six", "Seven", "Eight", "Nine" };
        GString *s = g_string_new(NULL);
        bool up = true;

        for (const char *p = name; *p; p++) {
                if (g_ascii_isalpha(*p)) {
                        g_string_append_c(s, up ? g_ascii_toupper(*p) : *p);
                        up = false;
                } else if (g_ascii_isdigit(*p)) {
                        g_string_append(s, digits[*p - '0']);
                        up = true;
                } else {
                        up = true;
                }
        }
        return g_string_free(s, FALSE);
}
