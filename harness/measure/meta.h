/* meta.h: where and how a run happened, for meta.ini. */
#pragma once

#include <glib.h>
#include <sys/types.h>

#include "experiment.h"
#include "machine-name.h"

typedef struct Meta Meta;

/* Captures the machine and software at the start of a run of EXP: kernel,
 * CPU, governor, boost, SMT, clock source, hypervisor and container
 * (apart: a container in a VM is both), load, swap,
 * versions, compiler, the ipclab commit.  Conditions that bias results are
 * collected as warnings (meta_warnings()). */
Meta *meta_begin(const Experiment *exp, const char *const *argv);

/* Records the end of the run: load, time, cells run and failed. */
void meta_end(Meta *meta, guint cells, guint failed_rows, guint rows);

/* Measures the upper bounds a transport cannot beat (Hoefler & Belli,
 * rule 11): memcpy bandwidth at every payload size of EXP, stored in
 * [bounds] as memcpy_MiBps_<size>.  Takes about 10 ms per size: the best of five windows.
 * Also the cost of one clock read, [bounds] clock_read_ns (about 10 ms). */
void meta_measure_bounds(Meta *meta, const Experiment *exp);

/* Sets KEY in GROUP of meta.ini to VALUE. */
void meta_set(Meta *meta, const char *group, const char *key, const char *value);

/* The warnings found so far, NULL-terminated (owned by META). */
const char *const *meta_warnings(const Meta *meta);

/* The environment back end: IPCLAB_ENV_BACKEND, or "host". */
const char *meta_env_backend(void);

/* The name of the machine this run measures, for samples.tsv's machine
 * column and meta.ini's [machine NAME] group: IPCLAB_MACHINE (set by the
 * host's run for a container or VM it starts, which is on the host's
 * machine), else SLURMD_NODENAME (a Slurm task), else the host name up to
 * its first dot.  Only letters, digits, '-', '_' and '.' are kept (others
 * become '_'), at most 64 of them: it goes into TSV fields, GKeyFile group
 * names and file names as it is.  Never empty ("unnamed"). */
const char *meta_machine_name(void);

/* Checks every value of KF (a meta.ini named PATH, from elsewhere: a
 * target, a container, a Slurm task) as g_key_file_get_string() gives
 * it: valid UTF-8, one line, no control character, at most 16 KiB;
 * and group names likewise.  FALSE with IPCLAB_ERROR_INPUT naming PATH,
 * the group and the key. */
gboolean meta_check_values(GKeyFile *kf, const char *path, GError **error);

/* Adds [machine NAME] to KF, a meta.ini of one machine: the keys of its
 * [machine] and [software] groups and its load at the start and end of
 * the run, i.e. everything meta.ini says about where it ran; NAME is
 * [run] machine.  Merged results keep one such group per machine.  Does
 * nothing when KF names no machine. */
void meta_add_machine_group(GKeyFile *kf);

/* Reads the meta.ini at PATH (safefile_key_file(): a regular file in its
 * tree, of at most 1 MiB), or NULL with IPCLAB_ERROR_INPUT naming it.
 * The one reader of what meta_to_ini() writes: the methods text and
 * declared numbers quote it. */
GKeyFile *meta_read(const char *path, GError **error);

/* Is WARNING one of the warnings meta.c writes with a number in it (the
 * load average at the start or end)?  Then TRUE, with the text before
 * and after the number and the number.  What the methods text needs to
 * give one line per kind of warning with the range of its numbers,
 * without reading English. */
gboolean meta_warning_number(const char *warning, char **before, char **after, double *value);

/* meta.ini's text.  The caller frees it. */
char *meta_to_ini(const Meta *meta);

void meta_free(Meta *meta);
G_DEFINE_AUTOPTR_CLEANUP_FUNC(Meta, meta_free)
