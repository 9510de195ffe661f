/* streams.c - see streams.h. */
#include "streams.h"
#include "alloc.h"
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "str.h"

static void *grow(void *p, size_t *cap, size_t size)
{
    *cap = *cap ? 2 * *cap : 8;
    void *q = cg_xrealloc(p, *cap * size);
    return q;
}

void cg_streams_init(cg_streams *self, const char *capture)
{
    memset(self, 0, sizeof *self);
    self->capture = capture;
}

void cg_streams_free(cg_streams *self)
{
    free(self->streams);
    free(self->records);
    memset(self, 0, sizeof *self);
}

cg_stream *cg_streams_get(cg_streams *self, const char *id)
{
    for (size_t i = 0; i < self->nstreams; i++)
        if (cg_eq(self->streams[i].id, id)) return &self->streams[i];
    if (self->nstreams == self->capstreams)
        self->streams = grow(self->streams, &self->capstreams, sizeof *self->streams);
    cg_stream *s = &self->streams[self->nstreams++];
    memset(s, 0, sizeof *s);
    s->id = id;
    return s;
}

int cg_streams_in_capture(const cg_streams *self, const char *id)
{
    if (cg_eq(id, self->capture)) return 1;
    for (size_t i = 0; i < self->nstreams; i++)
        if (cg_eq(self->streams[i].id, id) && self->streams[i].forked) return 1;
    return 0;
}

int cg_streams_wait(cg_streams *self, const char *waiter, const char *waited, cg_loc loc, const char *line)
{
    if (cg_streams_in_capture(self, waited) && !cg_streams_in_capture(self, waiter)) {
        cg_stream *s = cg_streams_get(self, waiter);
        if (!s->forked) {
            s->forked = 1;
            s->fork_loc = loc;
            s->fork_line = line;
        }
        return CG_STREAMS_FORK;
    }
    if (cg_eq(waiter, self->capture)) {
        cg_streams_get(self, waited)->joined = 1;
        return CG_STREAMS_JOIN;
    }
    return CG_STREAMS_NONE;
}

void cg_streams_record(cg_streams *self, const char *event, const char *stream)
{
    if (self->nrecords == self->caprecords)
        self->records = grow(self->records, &self->caprecords, sizeof *self->records);
    self->records[self->nrecords].event = event;
    self->records[self->nrecords].stream = stream;
    self->nrecords++;
}

const char *cg_streams_recorded_on(const cg_streams *self, const char *event)
{
    for (size_t i = self->nrecords; i-- > 0;)
        if (cg_eq(self->records[i].event, event)) return self->records[i].stream;
    return NULL;
}

void cg_streams_use(cg_streams *self, const char *id, cg_loc loc, const char *line)
{
    if (!cg_streams_in_capture(self, id)) return;
    cg_stream *s = cg_streams_get(self, id);
    if (!s->used && !cg_eq(id, self->capture)) {
        s->used = 1;
        s->use_loc = loc;
        s->use_line = line;
    }
}
