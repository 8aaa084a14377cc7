/* sbuf (FIXED): sb_append() takes the source's length and characters in one
 * step, under the source's lock (sb_snapshot), and then copies from that
 * snapshot.  A concurrent sb_set_length() on the source now happens either
 * wholly before or wholly after the append reads it.
 *
 * The gated lines in sb_append keep their numbers, so the example's one
 * gates.yaml runs against this library too, and its gates still fire: the
 * source's lock is not held at either gate, so the test can truncate the
 * source while sb_append waits at its copy; the append then copies the
 * snapshot it took before the truncation, which is a correct result.
 */
#include "../sbuf.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>

/* Makes room for len characters plus the NUL.  Caller holds sb->lock. */
static int sb_reserve(struct sbuf *sb, size_t len)
{
    size_t cap;
    char *p;

    if (len < sb->cap)
        return 0;
    cap = sb->cap * 2 > len + 1 ? sb->cap * 2 : len + 1;
    p = realloc(sb->data, cap);
    if (p == NULL)
        return -1;
    sb->data = p;
    sb->cap = cap;
    return 0;
}

struct sbuf *sb_new(const char *init)
{
    size_t len = strlen(init);
    struct sbuf *sb = malloc(sizeof *sb);

    if (sb == NULL)
        return NULL;
    sb->cap = len + 16;
    sb->data = malloc(sb->cap);
    if (sb->data == NULL) {
        free(sb);
        return NULL;
    }
    memcpy(sb->data, init, len + 1);
    sb->len = len;
    pthread_mutex_init(&sb->lock, NULL);
    return sb;
}

void sb_free(struct sbuf *sb)
{
    if (sb == NULL)
        return;
    pthread_mutex_destroy(&sb->lock);
    free(sb->data);
    free(sb);
}

size_t sb_length(struct sbuf *sb)
{
    size_t len;

    pthread_mutex_lock(&sb->lock);
    len = sb->len;
    pthread_mutex_unlock(&sb->lock);
    return len;
}

int sb_set_length(struct sbuf *sb, size_t len)
{
    int rc = 0;

    pthread_mutex_lock(&sb->lock);
    if (len > sb->len) {
        rc = sb_reserve(sb, len);
        if (rc == 0)
            memset(sb->data + sb->len, '\0', len - sb->len);
    }
    if (rc == 0) {
        sb->len = len;
        sb->data[len] = '\0';
    }
    pthread_mutex_unlock(&sb->lock);
    return rc;
}

int sb_get_chars(struct sbuf *sb, size_t begin, size_t end, char *out)
{
    int rc = 0;

    pthread_mutex_lock(&sb->lock);
    if (begin > end || end > sb->len)
        rc = -1;
    else
        memcpy(out, sb->data + begin, end - begin);
    pthread_mutex_unlock(&sb->lock);
    if (rc != 0)
        errno = ERANGE;
    return rc;
}

/* A malloc'ed copy of sb's characters, with their number in *len, taken in
 * one step under sb's lock.  NULL when out of memory. */
static char *sb_snapshot(struct sbuf *sb, size_t *len)
{
    char *copy;

    pthread_mutex_lock(&sb->lock);
    *len = sb->len;
    copy = malloc(sb->len + 1);
    if (copy != NULL)
        memcpy(copy, sb->data, sb->len + 1);
    pthread_mutex_unlock(&sb->lock);
    if (copy == NULL)
        *len = 0;
    return copy;
}

/* The seed paper's AbstractStringBuilder.append(StringBuffer), fixed. */
int sb_append(struct sbuf *dst, struct sbuf *src)
{
    size_t len, new_len;
    char *snap;

    pthread_mutex_lock(&dst->lock);
    snap = sb_snapshot(src, &len);          /* length and characters, at once */
    new_len = dst->len + len;               /* gate afterget opens here */
    if (snap == NULL || sb_reserve(dst, new_len) != 0) {
        pthread_mutex_unlock(&dst->lock);
        free(snap);
        errno = ENOMEM;
        return -1;
    }
    memcpy(dst->data + dst->len, snap, len);    /* gated: waits for afterset */
    dst->len = new_len;
    dst->data[new_len] = '\0';
    pthread_mutex_unlock(&dst->lock);
    free(snap);
    return 0;
}

char *sb_to_cstr(struct sbuf *sb)
{
    char *s;

    pthread_mutex_lock(&sb->lock);
    s = malloc(sb->len + 1);
    if (s != NULL)
        memcpy(s, sb->data, sb->len + 1);
    pthread_mutex_unlock(&sb->lock);
    return s;
}
