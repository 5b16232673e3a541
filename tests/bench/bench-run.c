/* bench-run.c: runs one command and prints what it cost
 *
 * Usage: bench-run COMMAND [ARG...]
 *
 * Forks, runs COMMAND with its output sent to /dev/null (its standard error
 * kept), waits for it and prints one line to standard output:
 *
 *   STATUS WALL_S CPU_S PEAK_KIB
 *
 * the exit status (128 + N for a signal), the wall time, the CPU time (user
 * plus system, children included) and the peak resident memory (ru_maxrss
 * of the command). tests/bench/compare.py runs every measured command
 * through it: on Linux a process started directly by a Python interpreter
 * inherits the interpreter's resident size as its ru_maxrss at exec, so the
 * command is started from this small program instead, whose own size is
 * about a megabyte.
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */

#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/resource.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

static double
seconds (struct timeval t)
{
  return (double) t.tv_sec + (double) t.tv_usec / 1e6;
}

int
main (int    argc,
      char **argv)
{
  struct timespec start, end;
  struct rusage usage;
  int status;
  pid_t pid;

  if (argc < 2)
    {
      fprintf (stderr, "usage: bench-run COMMAND [ARG...]\n");
      return 2;
    }

  clock_gettime (CLOCK_MONOTONIC, &start);
  pid = fork ();
  if (pid < 0)
    {
      perror ("bench-run: fork");
      return 2;
    }
  if (pid == 0)
    {
      int null = open ("/dev/null", O_WRONLY);

      if (null >= 0)
        dup2 (null, STDOUT_FILENO);
      execvp (argv[1], argv + 1);
      perror ("bench-run: exec");
      _exit (127);
    }
  if (wait4 (pid, &status, 0, &usage) < 0)
    {
      perror ("bench-run: wait4");
      return 2;
    }
  clock_gettime (CLOCK_MONOTONIC, &end);

  printf ("%d %.6f %.6f %ld\n",
          WIFEXITED (status) ? WEXITSTATUS (status) : 128 + WTERMSIG (status),
          (double) (end.tv_sec - start.tv_sec) + (double) (end.tv_nsec - start.tv_nsec) / 1e9,
          seconds (usage.ru_utime) + seconds (usage.ru_stime),
          usage.ru_maxrss);
  return 0;
}
