/* fault-shim.c: make file system calls fail, for the fault injection tests
 *
 * Interposes open, write, fsync, close and rename (and their variants) and
 * makes the chosen one fail with an errno or kills the process, but only for
 * files under one folder: everything else (the test's own output, GLib's
 * files) goes straight to libc.
 *
 * Two ways in:
 *   - LD_PRELOAD=libterrain-fault-shim.so with TERRAIN_FAULT=SPEC and
 *     TERRAIN_FAULT_DIR=FOLDER in the environment, for programs such as the
 *     `terrain` tool;
 *   - linked into a test program (exporting its symbols, so that libglib's
 *     calls reach it too), which calls terrain_fault_set().
 *
 * SPEC is CALL:WHAT with CALL one of open (opening for writing or creating),
 * write, fsync (also fdatasync), close, rename; WHAT an errno name (EROFS,
 * ENOSPC, EIO, EDQUOT, EACCES) or "kill" (SIGKILL, as a power cut or a
 * crash would stop the process right there). "write:ENOSPC@N" lets the first
 * N bytes through, then fails: a disk that fills up in mid-file.
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */

#include "config.h"

/* Both open() and open64() are defined below: without this, the large-file
 * headers would rename open() to open64(). */
#undef _FILE_OFFSET_BITS

#include <dlfcn.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <signal.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <sys/stat.h>
#include <sys/types.h>

#include "fault-shim.h"

typedef enum
{
  CALL_NONE,
  CALL_OPEN,
  CALL_WRITE,
  CALL_FSYNC,
  CALL_CLOSE,
  CALL_RENAME,
} FaultCall;

static struct
{
  FaultCall call;
  int error;              /* 0: kill */
  long long budget;       /* bytes let through before write fails */
  char dir[PATH_MAX];
  size_t dir_len;
  unsigned hits;
} fault;

static const struct
{
  const char *name;
  int value;
} errnos[] = {
  { "EROFS", EROFS },
  { "ENOSPC", ENOSPC },
  { "EIO", EIO },
  { "EDQUOT", EDQUOT },
  { "EACCES", EACCES },
};

int
terrain_fault_set (const char *spec,
                   const char *dir)
{
  const char *colon;
  const char *what;
  const char *at;
  size_t call_len;

  memset (&fault, 0, sizeof fault);
  if (spec == NULL || spec[0] == '\0' || dir == NULL || dir[0] == '\0')
    return 0;

  colon = strchr (spec, ':');
  if (colon == NULL || strlen (dir) >= sizeof fault.dir)
    return -1;
  call_len = (size_t) (colon - spec);
  what = colon + 1;

  if (call_len == 4 && strncmp (spec, "open", 4) == 0)
    fault.call = CALL_OPEN;
  else if (call_len == 5 && strncmp (spec, "write", 5) == 0)
    fault.call = CALL_WRITE;
  else if (call_len == 5 && strncmp (spec, "fsync", 5) == 0)
    fault.call = CALL_FSYNC;
  else if (call_len == 5 && strncmp (spec, "close", 5) == 0)
    fault.call = CALL_CLOSE;
  else if (call_len == 6 && strncmp (spec, "rename", 6) == 0)
    fault.call = CALL_RENAME;
  else
    return -1;

  at = strchr (what, '@');
  if (at != NULL)
    fault.budget = atoll (at + 1);

  if (strncmp (what, "kill", 4) == 0)
    fault.error = 0;
  else
    {
      size_t what_len = at != NULL ? (size_t) (at - what) : strlen (what);

      fault.error = -1;
      for (size_t i = 0; i < sizeof errnos / sizeof errnos[0]; i++)
        if (strlen (errnos[i].name) == what_len && strncmp (errnos[i].name, what, what_len) == 0)
          fault.error = errnos[i].value;
      if (fault.error < 0)
        {
          fault.call = CALL_NONE;
          return -1;
        }
    }

  strcpy (fault.dir, dir);
  fault.dir_len = strlen (dir);
  while (fault.dir_len > 1 && fault.dir[fault.dir_len - 1] == '/')
    fault.dir[--fault.dir_len] = '\0';
  return 0;
}

unsigned
terrain_fault_get_hits (void)
{
  return fault.hits;
}

__attribute__((constructor)) static void
fault_from_environment (void)
{
  const char *spec = getenv ("TERRAIN_FAULT");

  if (spec != NULL && terrain_fault_set (spec, getenv ("TERRAIN_FAULT_DIR")) != 0)
    {
      static const char message[] = "fault-shim: cannot parse TERRAIN_FAULT\n";

      (void) !write (STDERR_FILENO, message, sizeof message - 1);
      _exit (125);
    }
}

static int
path_is_watched (const char *path)
{
  char absolute[PATH_MAX];

  if (path == NULL)
    return 0;
  if (path[0] != '/')
    {
      /* Relative names, as the CLI gets them, are relative to the current folder. */
      size_t n;

      if (getcwd (absolute, sizeof absolute) == NULL)
        return 0;
      n = strlen (absolute);
      if (n + 1 + strlen (path) >= sizeof absolute)
        return 0;
      absolute[n] = '/';
      strcpy (absolute + n + 1, path);
      path = absolute;
    }
  return strncmp (path, fault.dir, fault.dir_len) == 0 &&
         (path[fault.dir_len] == '/' || path[fault.dir_len] == '\0');
}

static int
fd_is_watched (int fd)
{
  char link[64];
  char target[PATH_MAX];
  ssize_t n;

  snprintf (link, sizeof link, "/proc/self/fd/%d", fd);
  n = readlink (link, target, sizeof target - 1);
  if (n <= 0)
    return 0;
  target[n] = '\0';
  return path_is_watched (target);
}

/* Returns -1 with errno set when the call must fail; kills the process when
 * the fault says so; returns 0 to let the call through. */
static int
inject (FaultCall call)
{
  fault.hits++;
  if (fault.error == 0)
    {
      raise (SIGKILL);
      _exit (137);
    }
  (void) call;
  errno = fault.error;
  return -1;
}

#define REAL(name) \
  static __typeof__ (name) *real_##name; \
  if (real_##name == NULL) \
    real_##name = (__typeof__ (name) *) dlsym (RTLD_NEXT, #name)

static int
open_is_faulted (const char *path,
                 int         flags)
{
  return fault.call == CALL_OPEN &&
         (flags & (O_WRONLY | O_RDWR | O_CREAT | O_TRUNC)) != 0 &&
         path_is_watched (path);
}

int
open (const char *path,
      int         flags,
      ...)
{
  mode_t mode = 0;
  REAL (open);

  if (flags & (O_CREAT | O_TMPFILE))
    {
      va_list args;

      va_start (args, flags);
      mode = va_arg (args, mode_t);
      va_end (args);
    }
  if (open_is_faulted (path, flags))
    return inject (CALL_OPEN);
  return real_open (path, flags, mode);
}

int
open64 (const char *path,
        int         flags,
        ...)
{
  mode_t mode = 0;
  REAL (open64);

  if (flags & (O_CREAT | O_TMPFILE))
    {
      va_list args;

      va_start (args, flags);
      mode = va_arg (args, mode_t);
      va_end (args);
    }
  if (open_is_faulted (path, flags))
    return inject (CALL_OPEN);
  return real_open64 (path, flags, mode);
}

int
openat (int         dirfd,
        const char *path,
        int         flags,
        ...)
{
  mode_t mode = 0;
  REAL (openat);

  if (flags & (O_CREAT | O_TMPFILE))
    {
      va_list args;

      va_start (args, flags);
      mode = va_arg (args, mode_t);
      va_end (args);
    }
  /* Only absolute names or names relative to the current folder. */
  if ((path[0] == '/' || dirfd == AT_FDCWD) && open_is_faulted (path, flags))
    return inject (CALL_OPEN);
  return real_openat (dirfd, path, flags, mode);
}

int
openat64 (int         dirfd,
          const char *path,
          int         flags,
          ...)
{
  mode_t mode = 0;
  REAL (openat64);

  if (flags & (O_CREAT | O_TMPFILE))
    {
      va_list args;

      va_start (args, flags);
      mode = va_arg (args, mode_t);
      va_end (args);
    }
  if ((path[0] == '/' || dirfd == AT_FDCWD) && open_is_faulted (path, flags))
    return inject (CALL_OPEN);
  return real_openat64 (dirfd, path, flags, mode);
}

int
creat (const char *path,
       mode_t      mode)
{
  REAL (creat);

  if (open_is_faulted (path, O_CREAT | O_WRONLY | O_TRUNC))
    return inject (CALL_OPEN);
  return real_creat (path, mode);
}

ssize_t
write (int         fd,
       const void *buffer,
       size_t      count)
{
  REAL (write);

  if (fault.call == CALL_WRITE && count > 0 && fd_is_watched (fd))
    {
      /* Within the budget, a short write; past it, failure. */
      if (fault.budget <= 0)
        return inject (CALL_WRITE);
      if ((long long) count > fault.budget)
        count = (size_t) fault.budget;
      fault.budget -= (long long) count;
    }
  return real_write (fd, buffer, count);
}

int
fsync (int fd)
{
  REAL (fsync);

  if (fault.call == CALL_FSYNC && fd_is_watched (fd))
    return inject (CALL_FSYNC);
  return real_fsync (fd);
}

int
fdatasync (int fd)
{
  REAL (fdatasync);

  if (fault.call == CALL_FSYNC && fd_is_watched (fd))
    return inject (CALL_FSYNC);
  return real_fdatasync (fd);
}

int
close (int fd)
{
  REAL (close);

  /* Like NFS reporting a failed write-back: the descriptor is gone anyway. */
  if (fault.call == CALL_CLOSE && fd_is_watched (fd))
    {
      real_close (fd);
      return inject (CALL_CLOSE);
    }
  return real_close (fd);
}

int
rename (const char *from,
        const char *to)
{
  REAL (rename);

  if (fault.call == CALL_RENAME && (path_is_watched (from) || path_is_watched (to)))
    return inject (CALL_RENAME);
  return real_rename (from, to);
}

int
renameat (int         from_dir,
          const char *from,
          int         to_dir,
          const char *to)
{
  REAL (renameat);

  if (fault.call == CALL_RENAME && (path_is_watched (from) || path_is_watched (to)))
    return inject (CALL_RENAME);
  return real_renameat (from_dir, from, to_dir, to);
}

int
renameat2 (int           from_dir,
           const char   *from,
           int           to_dir,
           const char   *to,
           unsigned int  flags)
{
  REAL (renameat2);

  if (fault.call == CALL_RENAME && (path_is_watched (from) || path_is_watched (to)))
    return inject (CALL_RENAME);
  return real_renameat2 (from_dir, from, to_dir, to, flags);
}
