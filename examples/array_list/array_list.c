/* array_list: the seed paper's ArrayList.addAll race (section 4.1.3) in C.
 *
 * add_all() makes room, copies the new items to index size, then bumps size,
 * with no lock.  If two threads both copy before either bumps size, both copy
 * to the same index (one element overwrites the other), then size grows by
 * two: one element is lost and the list ends in a hole (a 0).
 *
 * gates.yaml puts a 2-thread barrier on the size += n line, after the copy.
 */
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define THREADS 2

/* A growable array of ints, like java.util.ArrayList<Integer>. */
struct int_list {
    /* (the fixed variant has its mutex here) */
    int *items;
    size_t size;
    size_t capacity;
};

static int list_init(struct int_list *l, size_t capacity)
{
    /* (the fixed variant initialises its mutex here) */
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

/* Appends items[0..n) at the end of the list.  NOT thread-safe. */
static int add_all(struct int_list *l, const int *items, size_t n)
{
    int rc = -1;

    /* (the fixed variant takes the lock here) */
    if (ensure_capacity(l, l->size + n) == 0) {
        memcpy(l->items + l->size, items, n * sizeof *items);   /* copy */
        l->size += n;                                            /* gated line */
        rc = 0;
    }
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
