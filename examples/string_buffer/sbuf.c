/* sbuf: a small string buffer library (see sbuf.h), with the seed paper's
 * StringBuffer bug (section 4.1.2) in sb_append().
 *
 * Every function locks the buffer it works on, so each call is atomic on its
 * own; sb_append(dst, src) holds dst's lock throughout but takes src's lock
 * twice, once to read src's length and once to copy that many characters.
 * Between the two, another thread may change src.
 *
 * The fixed variant, fixed/sbuf.c, reads the length and the characters in
 * one step under src's lock (sb_snapshot) and then copies from that
 * snapshot.  Its sb_append keeps the gated lines at the same numbers as
 * this one, so the example's one gates.yaml runs against both builds; only
 * the library differs between them, the test program is the same file.
 */
#include "sbuf.h"

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

/* The seed paper's AbstractStringBuilder.append(StringBuffer) (Figure 4).
 *
 * Each call into src is atomic on its own, but the append as a whole is not:
 * it reads src's length (sb_length, under src's lock), lets go of src, makes
 * room in dst, and then copies that many characters (sb_get_chars, under
 * src's lock again).  If another thread shortens src in between, the copy
 * asks for characters that src no longer has: sb_get_chars refuses (ERANGE:
 * the StringIndexOutOfBoundsException of the Java bug) and the append fails,
 * although both threads used the library as documented.
 *
 * The window is a few instructions wide; gates.yaml (the paper's Figure 6)
 * holds it open: the test's truncation waits until sb_append has read the
 * length (event afterget), and sb_append's copy waits until the truncation
 * is over (event afterset).
 */
int sb_append(struct sbuf *dst, struct sbuf *src)
{
    size_t len, new_len;
    int rc;

    pthread_mutex_lock(&dst->lock);
    len = sb_length(src);                   /* step 1: src's length */
    new_len = dst->len + len;               /* gate afterget opens here */
    if (sb_reserve(dst, new_len) != 0) {
        pthread_mutex_unlock(&dst->lock);
        errno = ENOMEM;
        return -1;
    }
    /* src is unlocked here: its length may no longer be len */
    rc = sb_get_chars(src, 0, len, dst->data + dst->len);  /* gated: step 2 */
    if (rc == 0) {
        dst->len = new_len;
        dst->data[new_len] = '\0';
    }
    pthread_mutex_unlock(&dst->lock);
    return rc;
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
