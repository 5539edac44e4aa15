/* untar.h: a tar stream from elsewhere (a target's results) unpacked as
 * untrusted input, in-process, never by tar(1).
 *
 * Only directories and regular files are made, each in a fresh private
 * directory the caller made (0700), each file new (O_EXCL, O_NOFOLLOW,
 * mode 0600): a symbolic link, a hard link, a device, a FIFO or any other
 * kind of entry refuses the whole stream, naming the entry; so do a name
 * that is absolute, holds "..", "." or an empty component, or a character
 * other than letters, digits, '.', '_' and '-' (after a leading "./"), an
 * entry given twice, a bad header checksum, a file larger than
 * UNTAR_MAX_FILE, more than UNTAR_MAX_TOTAL bytes or UNTAR_MAX_ENTRIES
 * entries in all, and a stream cut short.  It reads the ustar and GNU tar
 * formats GNU tar writes (long names as GNU 'L' entries or pax 'path'
 * records).  Errors are IPCLAB_ERROR_INPUT.
 */
#pragma once

#include <glib.h>

#define UNTAR_MAX_FILE ((guint64) 64 << 20)      /* one file: 64 MiB, as safefile.h's tables */
#define UNTAR_MAX_TOTAL ((guint64) 512 << 20)    /* the whole stream: 512 MiB */
#define UNTAR_MAX_ENTRIES 10000

typedef struct Untar Untar;

/* Starts unpacking into DIR (which must exist, be empty and be ours);
 * WHAT names the stream in messages ("the results from ssh://h"). */
Untar *untar_new(const char *dir, const char *what);
/* Takes the next LEN bytes of the stream.  FALSE with ERROR (the stream
 * is refused: stop feeding it) on anything above. */
gboolean untar_feed(Untar *u, const void *data, gsize len, GError **error);
/* The stream has ended: TRUE when it was whole (its end-of-archive
 * blocks seen), else FALSE with ERROR. */
gboolean untar_finish(Untar *u, GError **error);
void untar_free(Untar *u);
G_DEFINE_AUTOPTR_CLEANUP_FUNC(Untar, untar_free)
