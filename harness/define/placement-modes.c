/* placement-modes.c: placement modes named and counted (see
 * placement-modes.h). */
#include "placement-modes.h"

#include <string.h>

static const char *const mode_names[PLACEMENT_N_MODES] = {
        [PLACEMENT_UNKNOWN] = "-",
        [PLACEMENT_SAME] = "same",
        [PLACEMENT_SPLIT] = "split",
        [PLACEMENT_MOVED] = "moved",
        [PLACEMENT_OTHER] = "other",
};

/* sample_init() leaves a Sample's placement 0: not seen. */
G_STATIC_ASSERT(PLACEMENT_UNKNOWN == 0);

const char *placement_mode_name(PlacementMode mode)
{
        return mode < PLACEMENT_N_MODES ? mode_names[mode] : "-";
}

int placement_mode_from_name(const char *name)
{
        for (int m = 0; m < PLACEMENT_N_MODES; m++)
                if (!strcmp(mode_names[m], name))
                        return m;
        return -1;
}

void placement_count_add(PlacementCount *c, const char *name)
{
        int m = placement_mode_from_name(name);

        c->n[m < 0 ? PLACEMENT_UNKNOWN : m]++;
}

/* How many modes the observed repetitions fall into. */
static guint observed_modes(const PlacementCount *c, int *only)
{
        guint k = 0;

        for (int m = PLACEMENT_UNKNOWN + 1; m < PLACEMENT_N_MODES; m++) {
                if (c->n[m]) {
                        k++;
                        *only = m;
                }
        }
        return k;
}

const char *placement_count_mode(const PlacementCount *c)
{
        int only = PLACEMENT_UNKNOWN;
        guint k = observed_modes(c, &only);

        return k > 1 ? "mixed" : placement_mode_name((PlacementMode) only);
}

bool placement_count_mixed(const PlacementCount *c)
{
        int only;

        return observed_modes(c, &only) > 1;
}

char *placement_count_describe(const PlacementCount *c)
{
        GString *s = g_string_new(NULL);

        for (int m = PLACEMENT_UNKNOWN + 1; m < PLACEMENT_N_MODES; m++)
                if (c->n[m])
                        g_string_append_printf(s, "%s%s:%u", s->len ? "," : "", mode_names[m], c->n[m]);
        if (!s->len)
                g_string_append_c(s, '-');
        return g_string_free(s, FALSE);
}
