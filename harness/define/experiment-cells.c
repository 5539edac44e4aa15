/* experiment-cells.c: from the resolved values of [experiment] and a
 * profile to the matrix of cells (expand: the filtered cartesian product
 * of the axes), the repetitions one run makes of them, the resolved echo
 * in meta.ini and the configuration hash that names what was measured.
 */
#include "experiment-internal.h"

#include <string.h>
#include <unistd.h>

#include "select.h"
#include "transport-catalogue.h"

/* Repetitions one run writes (cells x repeat, or repeat_max, x
 * environments): 10000 histograms of at most 40 KiB fit the 512 MiB a
 * latencies.tsv.gz may inflate to (latency.h), 10000 rows the 64 MiB of a
 * samples.tsv many times over, and summarize takes them in a second. */
#define MAX_RUN_REPETITIONS ((guint64) 10000)
/* Latency values a run with store_latencies=raw keeps (a row of about
 * 30 bytes each at most), within the same 512 MiB. */
#define MAX_RUN_RAW_VALUES ((guint64) 16 << 20)
/* The values one repetition keeps at most (runner.c: 32 MiB of them). */
#define MAX_KEPT_PER_REPETITION ((guint64) 4194304)
int experiment_cell_matches(const Cell *cell, const char *selector)
{
        g_autoptr(Selector) s = select_parse(selector, SELECT_AXES, NULL);

        return s ? select_cell(s, cell) : -1;
}

/* experiment.h */
bool experiment_selector_unavailable(const Experiment *exp, const char *selector)
{
        g_auto(GStrv) parts = g_strsplit(selector, ",", -1);

        for (guint i = 0; parts[i]; i++) {
                const char *p = g_strstrip(parts[i]);
                if (g_str_has_prefix(p, "transport=")) {
                        const Transport *t = transport_find(g_strstrip((char *) p + strlen("transport=")));
                        if (t && transport_unavailable(t))
                                return true;
                } else if (exp && exp->profile && g_str_has_prefix(p, "env=")) {
                        bool runs = false;
                        for (guint e = 0; e < exp->n_envs; e++)
                                runs |= !strcmp(env_name(exp->envs[e]), p + strlen("env="));
                        if (!runs)
                                return true;
                }
        }
        return false;
}

/* How a skipped cell's reason says that its size is too large: what
 * experiment_skipped_parse() reads back. */
#define EXCEEDS_LIMIT " exceeds the transport's limit of "

gboolean experiment_skipped_parse(const char *line, char **transport, guint64 *size, guint64 *limit)
{
        const char *colon = strstr(line, ": ");
        if (!colon || colon == line)
                return FALSE;
        g_autofree char *desc = g_strndup(line, (gsize) (colon - line));
        g_auto(GStrv) words = g_strsplit(desc, " ", -1);
        *size = 0;
        *limit = 0;
        for (guint i = 1; words[i]; i++)
                if (g_str_has_prefix(words[i], "size=") &&
                    !g_ascii_string_to_unsigned(words[i] + 5, 10, 0, G_MAXUINT64, size, NULL))
                        return FALSE;
        const char *ex = strstr(colon, EXCEEDS_LIMIT);
        if (ex)
                *limit = g_ascii_strtoull(ex + strlen(EXCEEDS_LIMIT), NULL, 10);
        *transport = g_strdup(words[0]);
        return TRUE;
}

/* Can CELL run on this machine?  ANYWHERE: whether its transport is
 * available here (a library, a tool such as hyperfine) is not asked. */
static bool cell_supported(const Transport *t, const Cell *cell, bool anywhere, char **why)
{
        const char *u = !anywhere ? transport_unavailable(t) : NULL;

        if (u) {
                *why = g_strdup_printf("unavailable here: %s", u);
                return false;
        }
        size_t max = transport_max_size(t, cell);
        if (max && cell->size > max) {
                *why = g_strdup_printf("size %" G_GUINT64_FORMAT EXCEEDS_LIMIT "%zu bytes", cell->size, max);
                return false;
        }
        return true;
}

/* Why T cannot do a value of CELL that only some transports take
 * (axes.c, `needs`: marshal=copy, reply=short ...), or NULL when it can. */
static const char *cell_refused(const Transport *t, const Cell *cell)
{
        for (size_t i = 0; i < axis_count; i++) {
                const Axis *a = &axis_table[i];
                guint64 value = a->needs ? axis_get(a, cell) : 0;
                for (const AxisValueNeed *n = a->needs; n && n->refused; n++) {
                        if (n->value != value)
                                continue;
                        if (!(t->flags & n->takes))
                                return n->refused;
                        if (n->payload >= 0 && cell->payload != (PayloadType) n->payload)
                                return n->payload_refused ? n->payload_refused : n->refused;
                }
        }
        return transport_refuses(t, cell);
}

/* Steps AT, one index per cell axis below N, to the next combination,
 * the last axis fastest; false after the last. */
static bool next_combination(const guint *n, guint *at)
{
        for (size_t i = axis_count; i-- > 0;) {
                if (axis_table[i].type == AXIS_PLACE)
                        continue;
                if (++at[i] < n[i])
                        return true;
                at[i] = 0;
        }
        return false;
}

#define FROM(i) (v->from[i] ? v->from[i] : "experiment")

/* roles=threads that no transport listed can run: say why each cannot,
 * rather than leave every such cell out. */
static gboolean check_roles(const Ctx *c, const Values *v)
{
        guint it = experiment_opt_index("transport"), iro = experiment_opt_index("roles");
        guint nt = g_strv_length(v->list[it]);
        gboolean ok = TRUE;

        for (guint i = 0; v->list[iro] && v->list[iro][i]; i++) {
                if (v->nums[iro][i] != ROLES_THREADS)
                        continue;
                g_autoptr(GString) why = g_string_new(NULL);
                bool can = false;
                for (guint k = 0; k < nt && !can; k++) {
                        const Transport *t = transport_find(v->list[it][k]);
                        const char *no = transport_threads_refused(t);
                        can = no == NULL;
                        if (no)
                                g_string_append_printf(why, "%s%s (%s)", k ? "; " : "", t->name,
                                                       no + strlen("roles=threads: "));
                }
                if (!can)
                        ok = experiment_fail(c, FROM(iro), "roles",
                                             "threads: no transport listed can run its client and server as two threads of one "
                                             "process: %s", why->str);
        }
        return ok;
}

/* Exactly one of count= and duration= (not when either has a mistake of
 * its own). */
static gboolean check_count_duration(const Ctx *c, const Values *v)
{
        guint icn = experiment_opt_index("count"), idu = experiment_opt_index("duration");
        bool have_count = v->list[icn] != NULL, have_dur = v->list[idu] != NULL;
        bool counts_broken = v->broken[icn] || v->broken[idu];

        if (have_count && have_dur && !counts_broken)
                return experiment_fail(c, FROM(idu), "duration", "exactly one of count= and duration= must be given"
                                       " (count= is in [%s])", FROM(icn));
        if (!have_count && !have_dur && !counts_broken)
                return experiment_fail(c, "experiment", "count", "exactly one of count= and duration= must be given");
        return TRUE;
}

/* The runner and the axes only some transports take (bus=, and values
 * such as marshal=copy: axes.c) against the transports listed: a value
 * no listed transport takes is a mistake; and payload=none. */
static gboolean check_transport_keys(const Ctx *c, const Values *v)
{
        guint it = experiment_opt_index("transport"), ib = experiment_opt_index("bus"),
              ip = experiment_opt_index("payload");
        unsigned listed = 0;
        gboolean ok = TRUE;
        guint nt = g_strv_length(v->list[it]);

        for (guint i = 0; i < nt; i++)
                listed |= transport_find(v->list[it][i])->flags;
        bool hyperfine = !strcmp(v->text[experiment_opt_index("runner")], "hyperfine");
        for (guint i = 0; i < nt; i++) {
                const Transport *t = transport_find(v->list[it][i]);
                bool command = (t->flags & TRANSPORT_COMMAND) != 0;
                if (command && !hyperfine)
                        ok = experiment_fail(c, FROM(it), "transport",
                                             "'%s' is a whole command: it needs runner=hyperfine", t->name);
                if (!command && hyperfine)
                        ok = experiment_fail(c, FROM(experiment_opt_index("runner")), "runner",
                                             "hyperfine runs whole commands (dbus-send, gdbus-call, busctl-call), not '%s'", t->name);
        }
        for (size_t i = 0; i < axis_count; i++) {
                const Axis *a = &axis_table[i];
                if (a->type == AXIS_PLACE || a->type == AXIS_TRANSPORT || (!a->takes && !a->needs))
                        continue;
                guint o = experiment_opt_index(axis_key(a));
                if (a->takes && v->from[o] && !(listed & a->takes))
                        ok = experiment_fail(c, v->from[o], axis_key(a), "applies only to %s, and none is listed",
                                             a->takes_who);
                for (guint k = 0; v->list[o] && v->list[o][k]; k++)
                        for (const AxisValueNeed *n = a->needs; n && n->refused; n++)
                                if (n->value == v->nums[o][k] && !(listed & n->takes))
                                        ok = experiment_fail(c, FROM(o), axis_key(a), "%s", n->unlisted);
        }
        ok &= check_roles(c, v);
        for (guint i = 0; v->list[ib][i]; i++)
                if ((listed & TRANSPORT_DBUS) && v->nums[ib][i] == BUS_NONE)
                        ok = experiment_fail(c, FROM(ib), "bus", "'none' is not a bus for D-Bus transports");
        for (guint i = 0; v->list[ip][i]; i++)
                if (v->nums[ip][i] == PAYLOAD_NONE)
                        ok = experiment_fail(c, FROM(ip), "payload",
                                             "'none' is implied by pattern=callrate; use bytes or string");
        return ok;
}

/* A key given in the file that no pattern listed uses cannot mean what
 * it says: refuse it rather than drop it silently. */
static gboolean check_patterns(const Ctx *c, const Values *v)
{
        guint ip = experiment_opt_index("payload"), is = experiment_opt_index("size"),
              ipt = experiment_opt_index("pattern"), ir = experiment_opt_index("reply");
        bool any_roundtrip = false, any_payload = false;
        gboolean ok = TRUE;

        for (guint i = 0; v->list[ipt][i]; i++) {
                any_roundtrip |= v->nums[ipt][i] == PATTERN_ROUNDTRIP;
                any_payload |= v->nums[ipt][i] != PATTERN_CALLRATE;
        }
        if (v->from[ir] && !any_roundtrip) {
                g_autofree char *pats = g_strjoinv(";", v->list[ipt]);
                ok = experiment_fail(c, v->from[ir], "reply",
                                     "applies to round trips only, and pattern=%s has none", pats);
        }
        if (!any_payload) {
                const guint keys[] = { ip, is };
                for (guint k = 0; k < G_N_ELEMENTS(keys); k++)
                        if (v->from[keys[k]])
                                ok = experiment_fail(c, v->from[keys[k]], experiment_options()[keys[k]].key,
                                                     "pattern=callrate carries no payload, so %s cannot apply",
                                                     experiment_options()[keys[k]].key);
        }
        return ok;
}

/* Memory: a payload, its echo and a receive buffer per side; and the
 * round-trip latency buffer of count entries. */
static gboolean check_memory(const Ctx *c, const Values *v)
{
        guint is = experiment_opt_index("size"), ipt = experiment_opt_index("pattern"),
              icn = experiment_opt_index("count");
        guint64 mem = (guint64) sysconf(_SC_PHYS_PAGES) * (guint64) sysconf(_SC_PAGESIZE);
        gboolean ok = TRUE;

        for (guint i = 0; v->list[is][i]; i++)
                if (v->nums[is][i] * 8 > mem)
                        ok = experiment_fail(c, FROM(is), "size",
                                             "'%s' is more than this machine's memory allows", v->list[is][i]);
        bool any_latency = false;
        for (guint i = 0; v->list[ipt][i]; i++)
                any_latency |= v->nums[ipt][i] != PATTERN_ONEWAY;
        if (v->list[icn] && any_latency)
                for (guint i = 0; v->list[icn][i]; i++)
                        if (v->nums[icn][i] * sizeof(guint64) * 4 > mem)
                                ok = experiment_fail(c, FROM(icn), "count",
                                                     "'%s' latencies are more than this machine's memory holds",
                                                     v->list[icn][i]);
        return ok;
}
#undef FROM

/* The cell at combination AT of the axes' values (OPT: each axis's
 * option), as the pattern and the transport T (into *T) make it. */
static Cell cell_at(const Values *v, const guint *opt, const guint *at, const Transport **tp)
{
        const Transport *t = NULL;
        Cell cell = { 0 };

        for (size_t i = 0; i < axis_count; i++) {
                const Axis *a = &axis_table[i];
                if (a->type == AXIS_PLACE)
                        continue;
                if (a->type == AXIS_TRANSPORT) {
                        t = transport_find(v->list[opt[i]][at[i]]);
                        cell.transport = t->name;
                        continue;
                }
                bool takes = !a->takes || (t->flags & a->takes);
                axis_set(a, &cell, takes && v->list[opt[i]] ? v->nums[opt[i]][at[i]] : 0);
        }
        if (cell.pattern == PATTERN_CALLRATE) {
                cell.payload = PAYLOAD_NONE;
                cell.size = 0;
                cell.reply = REPLY_EMPTY;
                cell.marshal = MARSHAL_ARRAY;
        }
        if (cell.pattern == PATTERN_ONEWAY)
                cell.reply = REPLY_ECHO;
        *tp = t;
        return cell;
}

/* Why a command (hyperfine) cannot make CELL, or NULL. */
static const char *command_refused(const Cell *cell)
{
        return cell->bus == BUS_P2P ? "command-line tools call through a bus, not peer to peer"
             : cell->payload != PAYLOAD_STRING ? "commands carry a string payload (payload=string)"
             : cell->pattern != PATTERN_ROUNDTRIP ? "a command makes one call and waits for its reply (pattern=roundtrip)"
             : cell->size > 4096 ? "a command line carries at most 4 KiB of payload"
             : NULL;
}

/* The cartesian product of the cell axes, the last one (axis_table's
 * order) varying fastest; an axis the file leaves out (roles: no
 * default, so that the config hash of a file without it stays) holds
 * its first value.  Into EXP's cells, or its skipped with the reason. */
static void expand_cells(const Ctx *c, Experiment *exp, const Values *v)
{
        g_autoptr(GHashTable) seen = g_hash_table_new_full(g_str_hash, g_str_equal, g_free, NULL);
        g_autoptr(GHashTable) skipped = g_hash_table_new(g_str_hash, g_str_equal);
        guint nv[AXIS_MAX], at[AXIS_MAX] = { 0 };
        guint opt[AXIS_MAX];

        for (size_t i = 0; i < axis_count; i++) {
                if (axis_table[i].type == AXIS_PLACE)
                        continue;
                opt[i] = experiment_opt_index(axis_key(&axis_table[i]));
                nv[i] = v->list[opt[i]] ? g_strv_length(v->list[opt[i]]) : 1;
        }
        for (bool more = true; more; more = next_combination(nv, at)) {
                const Transport *t;
                Cell cell = cell_at(v, opt, at, &t);
                g_autofree char *why = NULL;
                const char *no = cell_refused(t, &cell);
                if (no) {
                        g_autofree char *d = cell_describe(&cell);
                        char *line = g_strdup_printf("%s: %s", d, no);
                        if (g_hash_table_contains(skipped, line)) {
                                g_free(line);
                        } else {
                                g_ptr_array_add(exp->skipped, line);
                                g_hash_table_add(skipped, line);
                        }
                        continue;
                }
                if (t->flags & TRANSPORT_COMMAND) {
                        const char *no = command_refused(&cell);
                        if (no) {
                                g_autofree char *d = cell_describe(&cell);
                                g_ptr_array_add(exp->skipped, g_strdup_printf("%s: %s", d, no));
                                continue;
                        }
                        cell.reply = REPLY_EMPTY;
                }
                char *key = axis_cell_key(&cell);
                if (g_hash_table_contains(seen, key)) {
                        g_free(key);
                        continue;
                }
                g_hash_table_add(seen, key);
                if (!cell_supported(t, &cell, c->anywhere, &why)) {
                        g_autofree char *d = cell_describe(&cell);
                        g_ptr_array_add(exp->skipped, g_strdup_printf("%s: %s", d, why));
                        continue;
                }
                Cell *copy = g_memdup2(&cell, sizeof cell);
                copy->index = exp->cells->len;
                g_ptr_array_add(exp->cells, copy);
        }
}

/* Expands the axes into the filtered cartesian product. */
gboolean experiment_expand(const Ctx *c, Experiment *exp, Values *v)
{
        guint it = experiment_opt_index("transport"), icn = experiment_opt_index("count"),
              idu = experiment_opt_index("duration");
        gboolean ok = check_count_duration(c, v);

        ok &= check_transport_keys(c, v);
        ok &= check_patterns(c, v);
        ok &= check_memory(c, v);
        if (!ok || (!v->list[icn] && !v->list[idu]))
                return FALSE;
        expand_cells(c, exp, v);
        /* A plugin whose refuses() or max_size() crashed cannot be
         * trusted with the cells it let through. */
        guint nt = g_strv_length(v->list[it]);
        for (guint i = 0; i < nt; i++) {
                const char *why = transport_failure(transport_find(v->list[it][i]));
                if (why)
                        ok = experiment_fail(c, v->from[it] ? v->from[it] : "experiment", "transport", "%s", why);
        }
        return ok;
}

void experiment_resolved_echo(Experiment *exp, Values *v)
{
        GString *s = g_string_new(NULL);

        for (size_t i = 0; i < experiment_n_options(); i++) {
                if (v->list[i]) {
                        g_autofree char *j = g_strjoinv(";", v->list[i]);
                        g_string_append_printf(s, "%s=%s\n", experiment_options()[i].key, j);
                } else if (v->text[i]) {
                        g_string_append_printf(s, "%s=%s\n", experiment_options()[i].key, v->text[i]);
                }
        }
        exp->resolved = g_string_free(s, FALSE);
}

/* repeat_until= and looks= (verify.h): the look schedule of a sequential
 * design, given or from repeat_min and repeat_max (doubling). */
gboolean experiment_resolve_looks(const Ctx *c, Experiment *exp, const Values *v)
{
        guint iu = experiment_opt_index("repeat_until"), il = experiment_opt_index("looks");
        const char *until = v->text[iu];
        const char *from = v->from[il] ? v->from[il] : "experiment";

        exp->repeat_decide = until && !strcmp(until, "decided");
        if (until && !exp->repeat_auto)
                return experiment_fail(c, v->from[iu], "repeat_until", "applies only with repeat=auto");
        if (v->list[il] && !exp->repeat_decide)
                return experiment_fail(c, from, "looks", "applies only with repeat=auto and repeat_until=decided");
        if (!exp->repeat_decide)
                return TRUE;
        if (v->list[il]) {
                guint n = g_strv_length(v->list[il]);
                if (n > EXPERIMENT_MAX_LOOKS)
                        return experiment_fail(c, from, "looks", "%u looks: at most %d", n, EXPERIMENT_MAX_LOOKS);
                for (guint i = 0; i < n; i++) {
                        if (i && v->nums[il][i] <= v->nums[il][i - 1])
                                return experiment_fail(c, from, "looks", "'%s' does not increase: each look has more "
                                                       "repetitions than the one before", v->list[il][i]);
                        exp->looks[exp->n_looks++] = (guint) v->nums[il][i];
                }
                if (v->from[experiment_opt_index("repeat_min")] || v->from[experiment_opt_index("repeat_max")])
                        return experiment_fail(c, from, "looks", "sets the first and the most repetitions: give it "
                                               "without repeat_min= and repeat_max=");
                exp->repeat = exp->looks[0];
                exp->repeat_max = exp->looks[exp->n_looks - 1];
                return TRUE;
        }
        for (guint n = exp->repeat; exp->n_looks < EXPERIMENT_MAX_LOOKS; n *= 2) {
                if (n >= exp->repeat_max || exp->n_looks == EXPERIMENT_MAX_LOOKS - 1) {
                        exp->looks[exp->n_looks++] = exp->repeat_max;
                        break;
                }
                exp->looks[exp->n_looks++] = n;
        }
        return TRUE;
}

/* What one run of EXP keeps must fit what is read back (see
 * MAX_RUN_REPETITIONS and MAX_RUN_RAW_VALUES). */
gboolean experiment_check_repetitions(const Ctx *c, const Experiment *exp, const Values *v)
{
        guint64 per_cell = exp->repeat_auto ? exp->repeat_max : exp->repeat;
        guint64 total = (guint64) exp->cells->len * per_cell * exp->n_envs;
        const char *key = exp->repeat_auto ? "repeat_max" : "repeat";
        const char *from = v->from[experiment_opt_index(key)] ? v->from[experiment_opt_index(key)] : "experiment";

        if (total > MAX_RUN_REPETITIONS)
                return experiment_fail(c, from, key, "%u cells x %" G_GUINT64_FORMAT " repetitions x %u environments = %"
                                       G_GUINT64_FORMAT " repetitions, more than the %" G_GUINT64_FORMAT " one run may keep "
                                       "(a latency histogram of up to 40 KiB each, and latencies.tsv.gz is read up to 512 MiB): "
                                       "fewer repetitions, or split the file", exp->cells->len, per_cell, exp->n_envs, total,
                                       MAX_RUN_REPETITIONS);
        if (!exp->store_raw)
                return TRUE;
        guint64 values = 0;
        for (guint i = 0; i < exp->cells->len; i++) {
                const Cell *cell = exp->cells->pdata[i];
                guint64 n = cell->count && cell->count < MAX_KEPT_PER_REPETITION ? cell->count : MAX_KEPT_PER_REPETITION;
                values += n * per_cell * exp->n_envs;
        }
        if (values > MAX_RUN_RAW_VALUES)
                return experiment_fail(c, v->from[experiment_opt_index("store_latencies")]
                                       ? v->from[experiment_opt_index("store_latencies")] : "experiment",
                                       "store_latencies", "raw keeps up to %" G_GUINT64_FORMAT " values in this run, more than the %"
                                       G_GUINT64_FORMAT " latencies.tsv.gz can hold (512 MiB): histogram, or fewer messages",
                                       values, MAX_RUN_RAW_VALUES);
        return TRUE;
}
char *experiment_config_sha256(const Experiment *exp)
{
        g_autoptr(GString) s = g_string_new(NULL);
        g_auto(GStrv) lines = g_strsplit(exp->resolved ? exp->resolved : "", "\n", -1);

        for (guint i = 0; lines[i]; i++) {
                if (!*lines[i] || g_str_has_prefix(lines[i], "title=") || g_str_has_prefix(lines[i], "source=") ||
                    g_str_has_prefix(lines[i], "env="))
                        continue;
                g_string_append_printf(s, "%s\n", lines[i]);
        }
        /* Where it runs, as run (--env replaces the file's list). */
        g_string_append(s, "env=");
        for (guint i = 0; i < exp->n_envs; i++)
                g_string_append_printf(s, "%s%s", i ? ";" : "", env_name(exp->envs[i]));
        g_string_append_c(s, '\n');
        for (guint c = 0; c < exp->cells->len; c++) {
                g_autofree char *d = cell_describe(exp->cells->pdata[c]);
                g_string_append_printf(s, "cell %u %s\n", ((const Cell *) exp->cells->pdata[c])->index, d);
        }
        /* A plugin is what its file holds: another build is another
         * measurement (none of this for ipclab's own transports, so their
         * hashes are what they were). */
        g_autoptr(GHashTable) seen = g_hash_table_new(g_str_hash, g_str_equal);
        for (guint c = 0; c < exp->cells->len; c++) {
                const char *name = ((const Cell *) exp->cells->pdata[c])->transport;
                const Transport *t = transport_find(name);
                g_autofree char *id = t && g_hash_table_add(seen, (gpointer) name) ? transport_identity(t) : NULL;
                if (id)
                        g_string_append_printf(s, "plugin %s\n", id);
        }
        return g_compute_checksum_for_string(G_CHECKSUM_SHA256, s->str, (gssize) s->len);
}

static gint cell_index_cmp(gconstpointer a, gconstpointer b)
{
        const Cell *x = *(const Cell *const *) a, *y = *(const Cell *const *) b;

        return x->index < y->index ? -1 : x->index > y->index;
}

GPtrArray *experiment_cells_in_run_order(const Experiment *exp)
{
        /* Not g_ptr_array_copy: that would free the cells too. */
        GPtrArray *cells = g_ptr_array_sized_new(exp->cells->len);

        g_ptr_array_extend(cells, exp->cells, NULL, NULL);
        return cells;
}

GPtrArray *experiment_cells_in_file_order(const Experiment *exp)
{
        GPtrArray *cells = experiment_cells_in_run_order(exp);

        g_ptr_array_sort(cells, cell_index_cmp);
        return cells;
}
