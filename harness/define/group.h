/* group.h: reading one group of an experiment file against its option
 * table: every key of [experiment], [figure], [table] and [number] is
 * one typed row (Option), parsed, checked and listed by `ipclab keys`
 * by the code here.  Every mistake goes through the caller's callback,
 * so that experiment.c gives them as FILE:LINE: [group] key: message
 * with the file's others. */
#pragma once

#include <glib.h>
#include <stdarg.h>
#include <stdbool.h>

#include "table.h"

/* What a key's value is. */
typedef enum {
        OPT_STRING,       /* free text, one line of at most max bytes (0: 500) */
        OPT_TRANSPORTS,   /* list of transport names (the caller resolves each) */
        OPT_ENUMS,        /* list of names from `values` */
        OPT_SIZES,        /* list of byte sizes */
        OPT_UINTS,        /* list of positive integers */
        OPT_DURATIONS,    /* list of durations */
        OPT_UINT,         /* one integer */
        OPT_DURATION,     /* one duration */
        OPT_BOOL,         /* true or false */
        OPT_ENUM,         /* one name from `values` */
        OPT_REPEAT,       /* a whole number, or auto */
        OPT_PERCENT,      /* a percentage, 2% */
        OPT_LIST,         /* list of free items (from `values` when it is set) */
        OPT_TRISTATE,     /* true, false or auto */
        OPT_NUMBER,       /* a number other than 0; positive when min is 1 */
} OptType;

/* One key: its type, its allowed values, its default and its help. */
typedef struct {
        const char *key;
        OptType type;
        const char *const *values;  /* OPT_ENUM(S), OPT_LIST: allowed names, NULL-ended */
        const char *def;            /* default, or NULL: optional/required */
        bool required;
        guint64 min, max;           /* numeric bounds (inclusive); OPT_STRING: its longest */
        const char *help;
} Option;

/* A key's value, parsed. */
typedef struct {
        char *text;       /* scalars: the value as written */
        char **list;      /* lists: the items kept, or NULL */
        guint64 *nums;    /* numbers: the scalar's ([0]) or each item's; an enum's index */
} OptionValue;

void option_value_clear(OptionValue *v);

/* The keys' table of one kind of group ("figure,table", "number"): a key
 * applies to the kinds of group whose bits KINDS has, and its value is
 * stored at OFFSET of the caller's struct: char * (OPT_STRING), char **
 * (lists), bool (OPT_BOOL), int (OPT_ENUM: the index; OPT_TRISTATE: 0
 * auto, 1 false, 2 true; OPT_UINT) or double (OPT_NUMBER). */
enum {
        GROUP_KEY_REPEATS = 1 << 0,  /* a list whose items may repeat (a unit per column) */
};
typedef struct {
        Option opt;
        unsigned kinds;
        gsize offset;
        unsigned flags;
        const char *noun;            /* an unknown OPT_ENUM value or OPT_LIST item is an
                                      * "unknown NOUN" (NULL: value) */
} GroupKey;

/* Receives one mistake in KEY (NULL: the group itself) of GROUP. */
typedef void (*GroupReport)(void *ctx, const char *group, const char *key, const char *msg);

typedef struct {
        GKeyFile *kf;
        const char *group;
        GroupReport report;
        void *ctx;
        bool ok;            /* no mistake yet */
        guint mistakes;     /* how many */
} GroupParse;

/* Reports a mistake in KEY of P's group. */
void group_vbad(GroupParse *p, const char *key, const char *fmt, va_list ap) G_GNUC_PRINTF(3, 0);
void group_bad(GroupParse *p, const char *key, const char *fmt, ...) G_GNUC_PRINTF(3, 4);

/* Parses VALUE (a comment stripped, not empty) of O, as P's group has
 * it, into OUT; returns FALSE after reporting its mistakes (lists: the
 * good items are kept all the same).  ITEM resolves each item of an
 * OPT_TRANSPORTS list: *IT may become the name it stands for. */
typedef gboolean (*OptionItem)(GroupParse *p, const Option *o, char **items, guint kept, const char **it,
                               void *data);
gboolean option_parse(GroupParse *p, const Option *o, const char *value, OptionValue *out, OptionItem item,
                      void *data);

/* Checks that every key of P's group is one of KEYS (N of them) that
 * applies to KIND (a bit of their kinds), named WHAT ("figure") in the
 * message, with the one it may have meant. */
void group_check_keys(GroupParse *p, const GroupKey *keys, gsize n, unsigned kind, const char *what);

/* Parses every key of KEYS that applies to KIND and P's group has (or
 * has a default) into DEST (see GroupKey).  A list's item given twice is
 * a mistake, items compared by IDENTITY (NULL: as written). */
void group_parse_keys(GroupParse *p, const GroupKey *keys, gsize n, unsigned kind, void *dest,
                      const char *(*identity)(const char *item));

/* Appends one line per row of KEYS to S, as `ipclab keys` prints them:
 * "GROUPS KEY TYPE; DEFAULT; HELP", GROUPS from KINDS_NAME(kinds). */
void group_key_help(GString *s, const GroupKey *keys, gsize n, const char *(*kinds_name)(unsigned kinds));
void option_help(GString *s, const char *groups, const Option *o);

/* The index of S in VALUES (NULL-ended), or -1. */
int option_index(const char *const *values, const char *s);

/* KEY's value, cleaned of a trailing comment, or NULL when absent; an
 * empty value is a mistake.  Newly allocated. */
char *group_get(GroupParse *p, const char *key);

/* KEY's value as a list (;), items stripped, empty ones left out; NULL
 * when absent.  Newly allocated. */
char **group_get_list(GroupParse *p, const char *key);

/* The published file NAME of DIR (a file name, no directory, of letters,
 * digits, '.', '_' and '-': make reads it), read by table_read(), every
 * field UTF-8 text without control characters and every number one a
 * table prints whole (under 1e50), or NULL after a mistake in key
 * published=. */
Table *group_read_published(GroupParse *p, const char *dir, const char *name);
