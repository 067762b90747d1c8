/* dd-signal.c -- dd's signals, and the end of a run.
   Copyright (C) 2026 The cpdd authors.

   This program is free software: you can redistribute it and/or modify
   it under the terms of the GNU General Public License as published by
   the Free Software Foundation, either version 3 of the License, or
   (at your option) any later version.  */

/* The handlers only record what arrived; dd acts on it between system
   calls, where it can report and close its files safely.  */

#include <config.h>

#include <signal.h>

#include "dd-impl.h"

/* What the handlers recorded and dd has not acted on yet: the
   interrupt that arrived, if any, and how many SIGUSR1s.  A handler
   reaches nothing else, and a process has one set of handlers, so
   this is the process's.  */
static struct
{
  volatile sig_atomic_t interrupt;
  volatile sig_atomic_t info_count;
} arrived;

static void
interrupt_handler (int sig)
{
  arrived.interrupt = sig;
}

static void
info_handler (int sig)
{
  arrived.info_count++;
}

/* Catch SIG with HANDLER and FLAGS, unless it was being ignored, and
   add it to CAUGHT.  */
static void
catch_signal (int sig, void (*handler) (int), int flags, sigset_t *caught)
{
  struct sigaction act;
  if (sigaction (sig, NULL, &act) != 0 || act.sa_handler == SIG_IGN)
    return;
  sigaddset (caught, sig);
  act.sa_handler = handler;
  sigemptyset (&act.sa_mask);
  act.sa_flags = flags;
  sigaction (sig, &act, NULL);
}

void
dd_install_signal_handlers (struct dd *d)
{
  sigemptyset (&d->caught_signals);
  /* POSIX wants SIGUSR1 to kill a dd that has no SIGINFO to use.  */
  if (!getenv ("POSIXLY_CORRECT"))
    catch_signal (SIGUSR1, info_handler, 0, &d->caught_signals);
  /* An interrupt reports and then dies by the signal, so the handler
     is reset when it runs.  */
  catch_signal (SIGINT, interrupt_handler, SA_NODEFER | SA_RESETHAND,
                &d->caught_signals);
}

int
dd_sync_output (struct dd *d)
{
  int status = EXIT_SUCCESS;
  int conv = d->s.conv;

  d->s.conv &= ~(DD_CONV_FDATASYNC | DD_CONV_FSYNC);
  if ((conv & DD_CONV_FDATASYNC) && fdatasync (STDOUT_FILENO) != 0)
    {
      if (errno != ENOSYS && errno != EINVAL)
        {
          error (0, errno, _("fdatasync failed for %s"),
                 quoteaf (d->out_name));
          status = EXIT_FAILURE;
        }
      conv |= DD_CONV_FSYNC;
    }
  if ((conv & DD_CONV_FSYNC) && fsync (STDOUT_FILENO) != 0)
    {
      error (0, errno, _("fsync failed for %s"), quoteaf (d->out_name));
      return EXIT_FAILURE;
    }
  return status;
}

/* Sync the output if that is still to do, unless a signal is ending
   dd, and close both ends.  A failure of either ends dd at once: the
   statistics would only repeat what went wrong.  An end that was
   closed from the start fails too.  */
static void
close_files (struct dd *d)
{
  if (!arrived.interrupt)
    {
      int status = dd_sync_output (d);
      if (status != EXIT_SUCCESS)
        exit (status);
    }
  if (close (STDIN_FILENO) != 0)
    error (EXIT_FAILURE, errno, _("closing input file %s"),
           quoteaf (d->in_name));
  /* close_stdout finds standard output closed, which it accepts; a
     signal's exit would skip it, so close here.  */
  if (close (STDOUT_FILENO) != 0)
    error (EXIT_FAILURE, errno, _("closing output file %s"),
           quoteaf (d->out_name));
}

void
dd_process_signals (struct dd *d)
{
  while (arrived.interrupt || arrived.info_count)
    {
      sigset_t oldset;
      sigprocmask (SIG_BLOCK, &d->caught_signals, &oldset);
      int interrupt = arrived.interrupt;
      if (arrived.info_count)
        arrived.info_count--;
      sigprocmask (SIG_SETMASK, &oldset, NULL);

      if (interrupt)
        {
          close_files (d);
          dd_finish_hashes (d);
        }
      dd_print_stats (d);
      if (interrupt)
        {
          dd_print_hashes (d);
          raise (interrupt);
        }
    }
}

int
dd_finish_up (struct dd *d, int status)
{
  dd_process_signals (d);
  close_files (d);
  dd_finish_hashes (d);
  dd_print_stats (d);
  if (!dd_print_hashes (d))
    status = EXIT_FAILURE;
  return status;
}

_Noreturn void
dd_quit (struct dd *d, int status)
{
  exit (dd_finish_up (d, status));
}
