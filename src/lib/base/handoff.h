/*
 * handoff: items passed from one producing thread to one consuming thread
 * through a small queue, in order, with the items the consumer is done
 * with kept for the producer to fill again. Used for batches of rows
 * between the parsing and the loading thread (ingest/queue.h) and for
 * batches of records read ahead of the parser (read/recahead.h).
 *
 * The producer fills an item (handoff_spare(), or a new one) and hands it
 * over with handoff_put(), which waits while the queue is full; it ends
 * with handoff_finish(). The consumer takes items in order with
 * handoff_take(), which waits while the queue is empty, and gives each
 * back with handoff_give_back() when done with it; it may give up with
 * handoff_stop(), which makes the producer's next handoff_put() fail.
 *
 * Ownership: an item belongs to whoever holds it; the queue owns the items
 * queued and given back, and handoff_release() frees those with the
 * function it is given. What a producer writes before handoff_put() or
 * handoff_finish() is seen by the consumer after the matching take (the
 * queue's lock orders them).
 */
#ifndef MODELCAT_HANDOFF_H
#define MODELCAT_HANDOFF_H

#include <pthread.h>
#include <stddef.h>

/* Items queued at most (the producer then waits). */
#define HANDOFF_MAX 16

typedef struct handoff {
	pthread_mutex_t lock;       /* guards everything below */
	pthread_cond_t changed;     /* signalled on every change */
	void *queued[HANDOFF_MAX];  /* items handed over, FIFO ring */
	size_t capacity;            /* items queued at most (<= HANDOFF_MAX) */
	size_t head, count;         /* ring position and fill */
	void *spare[HANDOFF_MAX + 2]; /* items given back, for reuse */
	size_t nspare;              /* entries in spare */
	int finished;               /* the producer hands over nothing more */
	int stopped;                /* the consumer takes nothing more */
} handoff;

/* Prepare a queue of at most capacity items (1 to HANDOFF_MAX). 0, or -1
 * when the lock cannot be made (then use no thread). */
int handoff_init(handoff *h, size_t capacity);
/* Free the items queued and given back with free_item (which accepts
 * what was queued); the queue itself needs no more. No thread may use it. */
void handoff_release(handoff *h, void (*free_item)(void *item));

/* Producer: an item given back, now the producer's, or NULL: make a new
 * one then, and only then (so at most capacity + 2 items exist, and every
 * item given back has room among the spares). */
void *handoff_spare(handoff *h);
/* Producer: hand item over, waiting while the queue is full. 0, or -1
 * when the consumer has stopped (the item stays the producer's). */
int handoff_put(handoff *h, void *item);
/* Producer: items queued and not yet taken (a hint: it may change). */
size_t handoff_waiting(handoff *h);
/* Producer: nothing more will be handed over. */
void handoff_finish(handoff *h);

/* Consumer: the next item, waiting while the queue is empty; NULL when the
 * producer has finished and every item was taken, or after handoff_stop(). */
void *handoff_take(handoff *h);
/* Consumer: give back an item taken, for the producer to reuse. */
void handoff_give_back(handoff *h, void *item);
/* Consumer: take nothing more; a producer waiting in handoff_put() (or
 * calling it later) gets -1. */
void handoff_stop(handoff *h);

#endif
