#include "base/handoff.h"

int handoff_init(handoff *h, size_t capacity)
{
	h->capacity = capacity < 1 ? 1 : capacity > HANDOFF_MAX ? HANDOFF_MAX : capacity;
	h->head = h->count = h->nspare = 0;
	h->finished = h->stopped = 0;
	if (pthread_mutex_init(&h->lock, NULL))
		return -1;
	if (pthread_cond_init(&h->changed, NULL)) {
		pthread_mutex_destroy(&h->lock);
		return -1;
	}
	return 0;
}

void handoff_release(handoff *h, void (*free_item)(void *item))
{
	size_t i;

	for (i = 0; i < h->count; i++)
		free_item(h->queued[(h->head + i) % h->capacity]);
	for (i = 0; i < h->nspare; i++)
		free_item(h->spare[i]);
	h->count = h->nspare = 0;
	pthread_cond_destroy(&h->changed);
	pthread_mutex_destroy(&h->lock);
}

void *handoff_spare(handoff *h)
{
	void *item;

	pthread_mutex_lock(&h->lock);
	item = h->nspare ? h->spare[--h->nspare] : NULL;
	pthread_mutex_unlock(&h->lock);
	return item;
}

int handoff_put(handoff *h, void *item)
{
	int rc = 0;

	pthread_mutex_lock(&h->lock);
	while (h->count == h->capacity && !h->stopped)
		pthread_cond_wait(&h->changed, &h->lock);
	if (h->stopped) {
		rc = -1;
	} else {
		h->queued[(h->head + h->count) % h->capacity] = item;
		h->count++;
		pthread_cond_broadcast(&h->changed);
	}
	pthread_mutex_unlock(&h->lock);
	return rc;
}

size_t handoff_waiting(handoff *h)
{
	size_t n;

	pthread_mutex_lock(&h->lock);
	n = h->count;
	pthread_mutex_unlock(&h->lock);
	return n;
}

void handoff_finish(handoff *h)
{
	pthread_mutex_lock(&h->lock);
	h->finished = 1;
	pthread_cond_broadcast(&h->changed);
	pthread_mutex_unlock(&h->lock);
}

void *handoff_take(handoff *h)
{
	void *item = NULL;

	pthread_mutex_lock(&h->lock);
	while (!h->count && !h->finished && !h->stopped)
		pthread_cond_wait(&h->changed, &h->lock);
	if (h->count && !h->stopped) {
		item = h->queued[h->head];
		h->head = (h->head + 1) % h->capacity;
		h->count--;
		pthread_cond_broadcast(&h->changed);
	}
	pthread_mutex_unlock(&h->lock);
	return item;
}

void handoff_give_back(handoff *h, void *item)
{
	pthread_mutex_lock(&h->lock);
	/* The spares fit: a producer that makes an item only when no spare is
	 * left makes at most capacity + 2 (queued, its own, the consumer's). */
	if (h->nspare < HANDOFF_MAX + 2)
		h->spare[h->nspare++] = item;
	pthread_cond_broadcast(&h->changed);
	pthread_mutex_unlock(&h->lock);
}

void handoff_stop(handoff *h)
{
	pthread_mutex_lock(&h->lock);
	h->stopped = 1;
	pthread_cond_broadcast(&h->changed);
	pthread_mutex_unlock(&h->lock);
}
