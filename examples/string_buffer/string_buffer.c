/* string_buffer: the seed paper's StringBuffer test (Figure 5) in C.
 *
 * A worker thread appends sb2 to sb1 while the main thread truncates sb2 to
 * 3 characters.  Either order is fine: sb1 must end up "original data"
 * followed by all of sb2 ("appended data") or by what is left of it ("app").
 * With the bug in sbuf.c's sb_append (length read and copy are separate
 * steps), a truncation between the two makes the append fail.
 *
 * This one file is the test for both builds: string_buffer links sbuf.c,
 * string_buffer-fixed links fixed/sbuf.c.
 */
#include <errno.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "sbuf.h"

static struct sbuf *sb1, *sb2;
static int append_rc, append_errno;

static void *appender(void *arg)
{
    (void)arg;
    append_rc = sb_append(sb1, sb2);
    append_errno = errno;
    return NULL;
}

int main(void)
{
    pthread_t worker;
    char *s1, *s2;
    int ok;

    sb1 = sb_new("original data");
    sb2 = sb_new("appended data");
    if (sb1 == NULL || sb2 == NULL) {
        fprintf(stderr, "string_buffer: out of memory\n");
        return 2;
    }
    if (pthread_create(&worker, NULL, appender, NULL) != 0) {
        fprintf(stderr, "string_buffer: pthread_create failed\n");
        return 2;
    }
    sb_set_length(sb2, 3);              /* gated: waits for afterget */
    pthread_join(worker, NULL);         /* gate afterset opens here */

    s1 = sb_to_cstr(sb1);
    s2 = sb_to_cstr(sb2);
    if (s1 == NULL || s2 == NULL) {
        fprintf(stderr, "string_buffer: out of memory\n");
        return 2;
    }
    printf("sb1 = \"%s\"\nsb2 = \"%s\"\n", s1, s2);
    if (append_rc != 0) {
        printf("FAIL: sb_append(sb1, sb2) failed: %s%s\n",
               strerror(append_errno), append_errno == ERANGE ?
               " (sb2 got shorter between the length read and the copy)" : "");
        return 1;
    }
    ok = (strcmp(s1, "original dataappended data") == 0 ||
          strcmp(s1, "original dataapp") == 0) &&
         strcmp(s2, "app") == 0;
    if (!ok) {
        printf("FAIL: inconsistent result\n");
        return 1;
    }
    free(s1);
    free(s2);
    sb_free(sb1);
    sb_free(sb2);
    return 0;
}
