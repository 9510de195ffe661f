/* streams.h - the fork/join ledger of one capture: which streams the capture
 * has drawn in, which it has waited on again, which events were recorded on
 * which stream.  Language-neutral: a front end names streams and events by
 * identities of its own (strings compared by value) and tells the ledger
 * what the code does; rules read the result.
 *
 *   fork   a stream outside the capture waits on one inside it
 *          (`side.wait_stream(capturing)`, cudaStreamWaitEvent on an event
 *          recorded on a captured stream): it is now captured too
 *   join   the capturing stream waits on a forked one: its work is back in
 *   use    work is issued on a forked stream (where CG402 points when it
 *          is never joined)
 *
 * Every string is the caller's and must outlive the ledger (arena strings
 * do); the ledger owns only its arrays, freed by cg_streams_free. */
#ifndef CG_STREAMS_H
#define CG_STREAMS_H
#include <stddef.h>
#include "report.h"

typedef struct cg_stream {
    const char *id;
    int forked, joined, used;
    cg_loc fork_loc, use_loc;        /* the first fork, the first use while forked */
    const char *fork_line, *use_line; /* their source lines */
} cg_stream;

typedef struct cg_stream_record { const char *event, *stream; } cg_stream_record;

typedef struct cg_streams {
    const char *capture;             /* the capturing stream */
    cg_stream *streams;              /* in the order first seen */
    size_t nstreams, capstreams;
    cg_stream_record *records;       /* in program order */
    size_t nrecords, caprecords;
} cg_streams;

void cg_streams_init(cg_streams *self, const char *capture);
void cg_streams_free(cg_streams *self);

/* The entry of stream `id`, added (not forked, not joined) when new.  The
 * pointer is valid until the next call that may add one. */
cg_stream *cg_streams_get(cg_streams *self, const char *id);
/* Is work on stream `id` captured: the capturing stream, or a forked one? */
int cg_streams_in_capture(const cg_streams *self, const char *id);

enum { CG_STREAMS_NONE = 0, CG_STREAMS_FORK, CG_STREAMS_JOIN };
/* Stream `waiter` waits on stream `waited`, at loc (source line `line`).
 * Returns CG_STREAMS_FORK when that forks `waiter` into the capture (only
 * the first fork's place is kept), CG_STREAMS_JOIN when the capturing stream
 * waits on `waited`, else CG_STREAMS_NONE. */
int cg_streams_wait(cg_streams *self, const char *waiter, const char *waited, cg_loc loc, const char *line);
/* Event `event` is recorded on stream `stream` (NULL: not known). */
void cg_streams_record(cg_streams *self, const char *event, const char *stream);
/* The stream of the last record of `event`, or NULL when none. */
const char *cg_streams_recorded_on(const cg_streams *self, const char *event);
/* Work is issued on stream `id` at loc: the first use of a forked stream
 * (other than the capturing one) is kept.  Nothing for streams not captured. */
void cg_streams_use(cg_streams *self, const char *id, cg_loc loc, const char *line);
#endif
