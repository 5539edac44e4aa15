/* suggest.c: "did you mean" (suggest.h). */
#include "suggest.h"

#include <string.h>

guint suggest_distance(const char *a, const char *b)
{
        gsize n = strlen(a), m = strlen(b);
        /* Three rows of the table: two back (for swaps), one back, this. */
        g_autofree guint *rows = g_new(guint, 3 * (m + 1));
        guint *two = rows, *one = rows + (m + 1), *cur = rows + 2 * (m + 1);

        for (gsize j = 0; j <= m; j++)
                one[j] = (guint) j;
        for (gsize i = 1; i <= n; i++) {
                cur[0] = (guint) i;
                for (gsize j = 1; j <= m; j++) {
                        guint cost = a[i - 1] != b[j - 1];
                        guint d = MIN(one[j] + 1, cur[j - 1] + 1);
                        d = MIN(d, one[j - 1] + cost);
                        if (i > 1 && j > 1 && a[i - 1] == b[j - 2] && a[i - 2] == b[j - 1])
                                d = MIN(d, two[j - 2] + 1);
                        cur[j] = d;
                }
                guint *t = two;
                two = one;
                one = cur;
                cur = t;
        }
        return one[m];
}

static gsize common_prefix(const char *a, const char *b)
{
        gsize n = 0;

        while (a[n] && a[n] == b[n])
                n++;
        return n;
}

void suggest_init(Suggest *s, const char *word)
{
        s->word = word;
        s->best = NULL;
        s->distance = G_MAXUINT;
}

void suggest_consider(Suggest *s, const char *name)
{
        if (!name || !s->word || !strcmp(name, s->word))
                return;
        guint d = suggest_distance(s->word, name);
        /* Of two as close, the one that shares more of the word's
         * beginning: lat_p50 is lat_p50_ns rather than lat_n. */
        if (d < s->distance || (d == s->distance && common_prefix(s->word, name) > common_prefix(s->word, s->best))) {
                s->distance = d;
                s->best = name;
        }
}

void suggest_consider_all(Suggest *s, const char *const *names)
{
        for (guint i = 0; names && names[i]; i++)
                suggest_consider(s, names[i]);
}

const char *suggest_best(const Suggest *s)
{
        if (!s->best)
                return NULL;
        gsize len = strlen(s->word);
        guint most = (guint) MAX(1, (len + 2) / 3);
        if (s->distance > most || s->distance >= len || s->distance >= strlen(s->best))
                return NULL;
        return s->best;
}

char *suggest_hint(const Suggest *s)
{
        const char *best = suggest_best(s);

        return best ? g_strdup_printf("; did you mean '%s'?", best) : g_strdup("");
}

char *suggest_hint_among(const char *word, const char *const *names)
{
        Suggest s;

        suggest_init(&s, word);
        suggest_consider_all(&s, names);
        return suggest_hint(&s);
}
