/* dir.c: directories of data removed whole, and their entries listed in
 * order (dir.h). */
#include "dir.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

/* Removes NAME (relative to DIR_FD) and, if it is a directory on device
 * DEV, everything below it, DEPTH levels down so far.  Links are removed,
 * never followed (O_NOFOLLOW); a directory on another device, such as a
 * bind mount left behind, is not entered and gives -EXDEV.  0 (also when NAME
 * did not exist) or the first -errno. */
static int remove_at(int dir_fd, const char *name, dev_t dev, int depth)
{
        struct dirent *de;
        struct stat st;
        DIR *d;
        int fd, r = 0;

        if (unlinkat(dir_fd, name, 0) == 0 || errno == ENOENT)
                return 0;
        if (errno != EISDIR || depth > 64)
                return depth > 64 ? -ELOOP : -errno;
        fd = openat(dir_fd, name, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
        if (fd < 0)
                return errno == ENOENT ? 0 : -errno;
        if (fstat(fd, &st) < 0) {
                r = -errno;
                close(fd);
                return r;
        }
        if (depth > 0 && st.st_dev != dev) {
                close(fd);
                return -EXDEV;
        }
        d = fdopendir(fd);
        if (!d) {
                r = -errno;
                close(fd);
                return r;
        }
        while ((de = readdir(d))) {
                if (!strcmp(de->d_name, ".") || !strcmp(de->d_name, ".."))
                        continue;
                int k = remove_at(dirfd(d), de->d_name, st.st_dev, depth + 1);
                if (k < 0 && r == 0)
                        r = k;
        }
        closedir(d);
        if (unlinkat(dir_fd, name, AT_REMOVEDIR) < 0 && errno != ENOENT && r == 0)
                r = -errno;
        return r;
}

int samples_remove_dir(const char *dir)
{
        return remove_at(AT_FDCWD, dir, 0, 0);
}

int samples_name_cmp(gconstpointer a, gconstpointer b)
{
        return strcmp(*(char *const *) a, *(char *const *) b);
}
