/* sbuf: a small growable string buffer, in the manner of java.lang.StringBuffer:
 * every operation locks the buffer it works on, so each call on its own is
 * atomic.  (sb_append(dst, src) in sbuf.c is where that is not enough.)
 */
#ifndef SBUF_H
#define SBUF_H

#include <pthread.h>
#include <stddef.h>

struct sbuf {
    pthread_mutex_t lock;
    char *data;         /* NUL-terminated, cap bytes */
    size_t len;         /* characters in use */
    size_t cap;         /* bytes allocated, > len */
};

/* A new buffer holding a copy of init; NULL when out of memory. */
struct sbuf *sb_new(const char *init);
void sb_free(struct sbuf *sb);

/* The number of characters in sb. */
size_t sb_length(struct sbuf *sb);

/* Truncates sb to len characters, or extends it with NULs (like
 * StringBuffer.setLength).  0, or -1 when out of memory. */
int sb_set_length(struct sbuf *sb, size_t len);

/* Copies characters [begin, end) of sb to out (not NUL-terminated).
 * 0, or -1 with errno = ERANGE when end > sb_length(sb) or begin > end
 * (StringBuffer.getChars throws StringIndexOutOfBoundsException there). */
int sb_get_chars(struct sbuf *sb, size_t begin, size_t end, char *out);

/* Appends the contents of src to dst (dst != src).  0, or -1 with errno set. */
int sb_append(struct sbuf *dst, struct sbuf *src);

/* A malloc'ed, NUL-terminated copy of sb's contents; NULL when out of memory. */
char *sb_to_cstr(struct sbuf *sb);

#endif
