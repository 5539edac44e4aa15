# escape.awk: tex(s), TEXT as LaTeX: every character LaTeX treats
# specially escaped.  The one escaper of the awk steps (the macros of
# paper/scripts/EXP.awk with lib.awk, the methods text of methods.awk);
# what ipclab writes itself goes through render_latex_escape (render.c),
# which escapes the same characters.
function tex(s)
{
        # Backslashes, carets and tildes become commands whose braces must
        # not be escaped in turn: hold them aside while the others are.
        gsub(/\\/, "\001", s)
        gsub(/\^/, "\002", s)
        gsub(/~/, "\003", s)
        gsub(/[{}$&#%_]/, "\\\\&", s)
        gsub(/\001/, "\\textbackslash{}", s)
        gsub(/\002/, "\\textasciicircum{}", s)
        gsub(/\003/, "\\textasciitilde{}", s)
        gsub(/</, "\\textless{}", s)
        gsub(/>/, "\\textgreater{}", s)
        return s
}
