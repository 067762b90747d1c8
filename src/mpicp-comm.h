/* mpicp-comm.h -- the messages between mpicp's ranks.
   Copyright (C) 2026 The cpdd authors.

   This program is free software: you can redistribute it and/or modify
   it under the terms of the GNU General Public License as published by
   the Free Software Foundation, either version 3 of the License, or
   (at your option) any later version.  */

#ifndef CPDD_MPICP_COMM_H
#define CPDD_MPICP_COMM_H

#include "mpicp.h"

/* mpicp-comm.c: looking for, waiting for and sending messages, and
   the statistics' rounds.  */

/* Exit: rank FROM sent a message that is none mpicp sends.  */
_Noreturn void mpicp_malformed (int from);

/* N, the size of a message about NAME, as MPI counts it; exit if it
   is too big for that.  */
int mpicp_message_size (size_t n, char const *name);

/* Whether a message from SOURCE with TAG, either of which may be MPI's
   wildcard, is there; if so, set *STATUS to it.  */
bool mpicp_probe (int source, int tag, MPI_Status *status);

/* mpicp_probe for a message with TAG from any rank.  */
bool mpicp_message_there (int tag, MPI_Status *status);

/* Receive the message STATUS announces into a new buffer, and set *N
   to its size.  */
char *mpicp_receive (MPI_Status const *status, int *n);

/* Receive the empty message STATUS announces.  */
void mpicp_receive_empty (MPI_Status const *status);

/* Send the N bytes at MSG, which are taken, with TAG to rank TO, and
   return at once: REPLIES keeps them until they are gone.  */
void mpicp_send_later (struct mpicp_replies *replies, char *msg, int n,
                       int to, int tag);

/* Free the replies of REPLIES, a struct mpicp_replies, that have gone,
   and return whether none is left: a READY for mpicp_idle_until.  */
bool mpicp_replies_gone (void *replies);

/* Sleep *PAUSE nanoseconds, and make it longer for the next time, up
   to MPICP_PAUSE_MAX_NS.  */
void mpicp_pause_longer (long *pause);

/* Do what the other ranks need of J's rank between two steps of its
   own: answer questions about links and take part in the rounds.  */
void mpicp_serve_ranks (struct remote_job *j);

/* Wait until READY (ARG) is true, serving the other ranks and sleeping
   between looks, as no rank waits inside MPI.  */
void mpicp_idle_until (struct remote_job *j, bool (*ready) (void *),
                       void *arg);

/* Wait for a message from SOURCE with TAG, either of which may be
   MPI's wildcard, and set *STATUS to it.  */
void mpicp_await_message (struct remote_job *j, int source, int tag,
                          MPI_Status *status);

/* Whether the MPI_Request REQ is complete: a READY for
   mpicp_idle_until.  */
bool mpicp_request_done (void *req);

/* Wait for the send or receive REQ to complete.  */
void mpicp_await_request (struct remote_job *j, MPI_Request *req);

/* Send the N bytes at BUF with TAG to rank TO, and wait until they are
   sent.  */
void mpicp_send_now (struct remote_job *j, void const *buf, int n, int to,
                     int tag);

/* Send an empty message with TAG to rank TO, and wait until it is
   sent.  */
void mpicp_send_empty (struct remote_job *j, int to, int tag);

/* Set up ROUNDS for N_RANKS ranks, none in flight.  */
void mpicp_rounds_init (struct mpicp_rounds *rounds, int n_ranks);

/* See whether J's round in flight ended, and start the next if it is
   time.  */
void mpicp_round_poll (struct remote_job *j);

/* End J's rounds together with the other ranks', once J's rank has
   copied all it will: MPI wants them all seen through.  */
void mpicp_rounds_end (struct remote_job *j);

/* Answer the request of J's asker, if there is one, as J's rank has
   no more files for it.  */
void mpicp_answer_asker (struct remote_job *j);

/* Refuse the ranks that asked J's rank for work with TAG.  */
void mpicp_refuse (struct remote_job *j, int tag);

/* Refuse the ranks that asked J's rank for files to copy while they
   wait (HELP), and the asker if it asked so, as it has none to give
   just now: their waits last until they are answered, and this rank's
   walk may meet no file it gives for long (directories only, or files
   with other links, whose first copies it makes itself).  */
void mpicp_refuse_help (struct remote_job *j);

#endif /* CPDD_MPICP_COMM_H */
