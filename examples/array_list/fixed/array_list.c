/* array_list (FIXED): add_all() runs under the list's mutex, so two
 * concurrent add_all() calls cannot both copy to the same index.
 *
 * The gated line (size += n) keeps its number, so the same gates.yaml runs
 * on this binary, but its order is now impossible: the barrier at size += n
 * needs two threads inside add_all() at once, and the lock admits one.  The
 * first thread is held at the barrier with the lock taken, the second one
 * is blocked on the lock: racegate reports SCHEDULE-DEADLOCK.
 */
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define THREADS 2

/* A growable array of ints, like java.util.ArrayList<Integer>. */
struct int_list {
    pthread_mutex_t lock;
    int *items;
    size_t size;
    size_t capacity;
};

static int list_init(struct int_list *l, size_t capacity)
{
    pthread_mutex_init(&l->lock, NULL);
    l->items = calloc(capacity, sizeof *l->items);
    l->size = 0;
    l->capacity = capacity;
    return l->items != NULL ? 0 : -1;
}

static int ensure_capacity(struct int_list *l, size_t need)
{
    size_t cap;
    int *p;

    if (need <= l->capacity)
        return 0;
    cap = l->capacity * 2 > need ? l->capacity * 2 : need;
    p = realloc(l->items, cap * sizeof *p);
    if (p == NULL)
        return -1;
    memset(p + l->capacity, 0, (cap - l->capacity) * sizeof *p);
    l->items = p;
    l->capacity = cap;
    return 0;
}

/* Appends items[0..n) at the end of the list.  Thread-safe. */
static int add_all(struct int_list *l, const int *items, size_t n)
{
    int rc = -1;

    pthread_mutex_lock(&l->lock);
    if (ensure_capacity(l, l->size + n) == 0) {
        memcpy(l->items + l->size, items, n * sizeof *items);   /* copy */
        l->size += n;                                            /* gated line */
        rc = 0;
    }
    pthread_mutex_unlock(&l->lock);
    return rc;
}

static struct int_list shared;
static const int data[THREADS] = {1, 2};   /* worker i adds data[i] */

static void *worker(void *arg)
{
    const int *value = arg;

    if (add_all(&shared, value, 1) != 0)
        fprintf(stderr, "array_list: out of memory\n");
    return NULL;
}

int main(void)
{
    pthread_t t[THREADS];
    size_t i;
    int seen[THREADS] = {0};
    int ok;

    if (list_init(&shared, 10) != 0) {      /* room for both: no realloc */
        fprintf(stderr, "array_list: out of memory\n");
        return 2;
    }
    for (i = 0; i < THREADS; i++) {
        if (pthread_create(&t[i], NULL, worker, (void *)&data[i]) != 0) {
            fprintf(stderr, "array_list: pthread_create failed\n");
            return 2;
        }
    }
    for (i = 0; i < THREADS; i++)
        pthread_join(t[i], NULL);

    /* The list must hold exactly 1 and 2, in either order. */
    printf("size = %zu, items = [", shared.size);
    for (i = 0; i < shared.size && i < shared.capacity; i++) {
        printf("%s%d", i ? ", " : "", shared.items[i]);
        if (shared.items[i] >= 1 && shared.items[i] <= THREADS)
            seen[shared.items[i] - 1]++;
    }
    printf("]\n");
    ok = shared.size == THREADS;
    for (i = 0; i < THREADS; i++)
        ok = ok && seen[i] == 1;
    if (!ok) {
        printf("FAIL: list corrupted: expected size = %d holding 1 and 2\n",
               THREADS);
        return 1;
    }
    return 0;
}
