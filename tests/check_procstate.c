/*
 * Check suite for the "blocked for ever" decision (tracer/blocked.c), fed
 * with made-up waits: the system call, its arguments and the files it waits
 * on, as procstate.c would gather them from /proc.  At the end, the
 * gatherer itself on real threads blocked in read.
 */
#include <check.h>
#include <pthread.h>
#include <semaphore.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "blocked.h"
#include "procstate.h"

#define FUTEX_WAIT_PRIVATE_ (0 | 128)
#define FUTEX_WAKE_PRIVATE_ (1 | 128)

static struct tracer_wait_call call(enum arch_sys nr, uint64_t a0, uint64_t a1, uint64_t a2,
				    uint64_t a3, uint64_t a4)
{
	struct tracer_wait_call c = { 'S', true, nr, { a0, a1, a2, a3, a4, 0 },
				      NULL, 0, true };

	return c;
}

static enum tracer_wait decide(struct tracer_wait_call c,
			       const struct tracer_wait_fd *fds, size_t n)
{
	struct tracer_wait_verdict v;

	c.fds = fds;
	c.nfds = n;
	v = tracer_wait_decide(&c);
	ck_assert_ptr_nonnull(v.reason);
	ck_assert(v.reason[0] != '\0');
	return v.wait;
}

/* A pipe the program writes itself, and nobody else. */
static const struct tracer_wait_fd own_pipe = { 3, TRACER_FD_PIPE, true, false };
/* A socketpair only the program holds. */
static const struct tracer_wait_fd own_pair = { 4, TRACER_FD_UNIX, true, false };
/* A terminal. */
static const struct tracer_wait_fd tty = { 0, TRACER_FD_OTHER, false, false };

START_TEST(futex_wait)
{
	ck_assert_int_eq(decide(call(ARCH_SYS_FUTEX, 0x1000, FUTEX_WAIT_PRIVATE_, 1, 0, 0),
				NULL, 0), TRACER_WAIT_FOREVER);
	ck_assert_int_eq(decide(call(ARCH_SYS_FUTEX, 0x1000, FUTEX_WAIT_PRIVATE_, 1,
				     0x7ffd0000, 0), NULL, 0), TRACER_WAIT_TIMED);
	/* a wake never blocks */
	ck_assert_int_eq(decide(call(ARCH_SYS_FUTEX, 0x1000, FUTEX_WAKE_PRIVATE_, 1, 0, 0),
				NULL, 0), TRACER_WAIT_NONE);
	ck_assert_uint_eq(tracer_futex_wait_addr(ARCH_SYS_FUTEX, (uint64_t[6]){ 0x1000,
			  FUTEX_WAIT_PRIVATE_ }), 0x1000);
	ck_assert_uint_eq(tracer_futex_wait_addr(ARCH_SYS_READ, (uint64_t[6]){ 0x1000 }), 0);
}
END_TEST

START_TEST(not_waiting)
{
	struct tracer_wait_call c = call(ARCH_SYS_FUTEX, 0x1000, FUTEX_WAIT_PRIVATE_, 1, 0, 0);

	c.state = 'R';
	ck_assert_int_eq(decide(c, NULL, 0), TRACER_WAIT_NONE);
	c.state = 'S';
	c.in_syscall = false;
	ck_assert_int_eq(decide(c, NULL, 0), TRACER_WAIT_NONE);
	c.in_syscall = true;
	c.state = 'D';
	ck_assert_int_eq(decide(c, NULL, 0), TRACER_WAIT_FOREVER);
}
END_TEST

START_TEST(sleeps)
{
	ck_assert_int_eq(decide(call(ARCH_SYS_NANOSLEEP, 0x1000, 0, 0, 0, 0), NULL, 0),
			 TRACER_WAIT_TIMED);
	ck_assert_int_eq(decide(call(ARCH_SYS_CLOCK_NANOSLEEP, 1, 0, 0x1000, 0, 0), NULL, 0),
			 TRACER_WAIT_TIMED);
}
END_TEST

START_TEST(read_pipe)
{
	struct tracer_wait_fd fd = own_pipe;
	enum tracer_wait_use use;
	struct tracer_wait_call c = call(ARCH_SYS_READ, 3, 0x1000, 16, 0, 0);

	ck_assert_int_eq(tracer_wait_source(&c, &use), TRACER_SRC_FD);
	ck_assert_int_eq(use, TRACER_USE_READ);
	ck_assert_int_eq(decide(c, &fd, 1), TRACER_WAIT_FOREVER);
	/* another process holds a write end: it may write */
	fd.outside = true;
	ck_assert_int_eq(decide(c, &fd, 1), TRACER_WAIT_NONE);
	/* the program holds no write end: the writer is elsewhere */
	fd.outside = false;
	fd.ours = false;
	ck_assert_int_eq(decide(c, &fd, 1), TRACER_WAIT_NONE);
	/* recv on a socketpair only the program holds */
	ck_assert_int_eq(decide(call(ARCH_SYS_RECVFROM, 4, 0x1000, 16, 0, 0), &own_pair, 1),
			 TRACER_WAIT_FOREVER);
	/* a terminal may be typed on */
	ck_assert_int_eq(decide(call(ARCH_SYS_READ, 0, 0x1000, 16, 0, 0), &tty, 1),
			 TRACER_WAIT_NONE);
}
END_TEST

START_TEST(accept_wakes)
{
	enum tracer_wait_use use;
	struct tracer_wait_call c = call(ARCH_SYS_ACCEPT4, 4, 0, 0, 0, 0);

	ck_assert_int_eq(tracer_wait_source(&c, &use), TRACER_SRC_FD);
	ck_assert_int_eq(use, TRACER_USE_ACCEPT);
	/* even on a socket only the program holds: a client may connect */
	ck_assert_int_eq(decide(c, &own_pair, 1), TRACER_WAIT_NONE);
}
END_TEST

START_TEST(poll_fds)
{
	struct tracer_wait_fd fds[3] = { own_pipe, own_pair, tty };
	struct tracer_wait_fd efd = { 5, TRACER_FD_EVENTFD, false, false };
	enum tracer_wait_use use;
	struct tracer_wait_call c = call(ARCH_SYS_POLL, 0x1000, 2, (uint64_t)-1, 0, 0);

	ck_assert_int_eq(tracer_wait_source(&c, &use), TRACER_SRC_POLL);
	ck_assert_int_eq(use, TRACER_USE_POLL);
	ck_assert_int_eq(decide(c, fds, 2), TRACER_WAIT_FOREVER);
	/* one file someone else may make ready is enough */
	ck_assert_int_eq(decide(c, fds, 3), TRACER_WAIT_NONE);
	/* files that could not all be read: may wake */
	c.fds_complete = false;
	ck_assert_int_eq(decide(c, fds, 2), TRACER_WAIT_NONE);
	c.fds_complete = true;
	/* no file at all: waits for a signal alone */
	ck_assert_int_eq(decide(c, NULL, 0), TRACER_WAIT_FOREVER);
	/* with a timeout, time wakes it, whatever the files */
	c.args[2] = 100;
	ck_assert_int_eq(tracer_wait_source(&c, &use), TRACER_SRC_NONE);
	ck_assert_int_eq(decide(c, fds, 2), TRACER_WAIT_TIMED);
	/* ppoll's timeout is a pointer */
	ck_assert_int_eq(decide(call(ARCH_SYS_PPOLL, 0x1000, 1, 0, 0, 0), fds, 1),
			 TRACER_WAIT_FOREVER);
	ck_assert_int_eq(decide(call(ARCH_SYS_PPOLL, 0x1000, 1, 0x2000, 0, 0), fds, 1),
			 TRACER_WAIT_TIMED);
	/* an eventfd only counts while the program has no child to write it */
	ck_assert_int_eq(decide(call(ARCH_SYS_POLL, 0x1000, 1, (uint64_t)-1, 0, 0), &efd, 1),
			 TRACER_WAIT_FOREVER);
	efd.outside = true;
	ck_assert_int_eq(decide(call(ARCH_SYS_POLL, 0x1000, 1, (uint64_t)-1, 0, 0), &efd, 1),
			 TRACER_WAIT_NONE);
	/* a read on an eventfd is not judged */
	efd.outside = false;
	ck_assert_int_eq(decide(call(ARCH_SYS_READ, 5, 0x1000, 8, 0, 0), &efd, 1),
			 TRACER_WAIT_NONE);
}
END_TEST

START_TEST(select_epoll)
{
	enum tracer_wait_use use;
	struct tracer_wait_call c = call(ARCH_SYS_SELECT, 5, 0x1000, 0, 0, 0);

	ck_assert_int_eq(tracer_wait_source(&c, &use), TRACER_SRC_SELECT);
	ck_assert_int_eq(decide(c, &own_pipe, 1), TRACER_WAIT_FOREVER);
	c.args[4] = 0x2000;
	ck_assert_int_eq(decide(c, &own_pipe, 1), TRACER_WAIT_TIMED);
	c = call(ARCH_SYS_EPOLL_WAIT, 7, 0x1000, 8, (uint64_t)-1, 0);
	ck_assert_int_eq(tracer_wait_source(&c, &use), TRACER_SRC_EPOLL);
	ck_assert_int_eq(decide(c, &own_pipe, 1), TRACER_WAIT_FOREVER);
	ck_assert_int_eq(decide(c, &tty, 1), TRACER_WAIT_NONE);
	c.args[3] = 50;
	ck_assert_int_eq(decide(c, &own_pipe, 1), TRACER_WAIT_TIMED);
}
END_TEST

START_TEST(unknown_syscall)
{
	ck_assert_int_eq(decide(call(ARCH_SYS_WRITE, 1, 0x1000, 4, 0, 0), NULL, 0),
			 TRACER_WAIT_NONE);
	ck_assert_int_eq(decide(call(ARCH_SYS_WAIT4, -1, 0, 0, 0, 0), NULL, 0),
			 TRACER_WAIT_NONE);
	ck_assert_int_eq(decide(call(ARCH_SYS_NONE, 0, 0, 0, 0, 0), NULL, 0),
			 TRACER_WAIT_NONE);
}
END_TEST

/*
 * The calls by name (arch_sys.h) and the machine's numbers agree both
 * ways, and with the names a thread's call is reported by; a number
 * racegate does not know is named by its number.
 */
START_TEST(syscall_numbers)
{
	char buf[32];

	ck_assert_int_eq(arch_sys_nr(ARCH_SYS_FUTEX), SYS_futex);
	ck_assert_int_eq(arch_sys_nr(ARCH_SYS_MMAP), SYS_mmap);
	ck_assert_int_eq(arch_sys_nr(ARCH_SYS_NONE), -1);
	for (int s = ARCH_SYS_NONE + 1; s < ARCH_SYS_COUNT; s++) {
		long nr = arch_sys_nr((enum arch_sys)s);

		ck_assert_ptr_nonnull(arch_sys_name((enum arch_sys)s));
		if (nr < 0)
			continue;
		ck_assert_int_eq(arch_sys_of(nr), s);
		ck_assert_str_eq(tracer_syscall_name(nr, buf, sizeof(buf)),
				 arch_sys_name((enum arch_sys)s));
	}
	ck_assert_int_eq(arch_sys_of(100000), ARCH_SYS_NONE);
	ck_assert_str_eq(tracer_syscall_name(100000, buf, sizeof(buf)), "syscall 100000");
	ck_assert(tracer_syscall_reads_fd(SYS_read));
	ck_assert(!tracer_syscall_reads_fd(SYS_write));
}
END_TEST

/* ---- the gatherer on a real thread ---------------------------------- */

static int pipefd[2];

static void *reader(void *arg)
{
	char c;

	(void)arg;
	return read(pipefd[0], &c, 1) == 1 ? NULL : arg;
}

/* The state of the thread of pid other than its leader once it blocks in
 * read (or not, after ~5 s). */
static void wait_for_reader(pid_t pid, tracer_tstate *st)
{
	memset(st, 0, sizeof(*st));
	for (int tries = 0; tries < 500; tries++) {
		struct timespec ts = { 0, 10 * 1000 * 1000 };
		pid_t *tids;
		size_t n;

		nanosleep(&ts, NULL);
		ck_assert_int_eq(tracer_tasks(pid, &tids, &n), 0);
		for (size_t i = 0; i < n; i++)
			if (tids[i] != pid)
				tracer_tstate_read(pid, tids[i], st);
		free(tids);
		if (st->state == 'S' && st->in_syscall && st->sys == ARCH_SYS_READ)
			return;
	}
	ck_abort_msg("the reader never blocked");
}

/*
 * A child process whose thread reads a pipe only the child holds: blocked
 * for ever.  The same wait in this process is not: here the pipe is also
 * held by the process looking (racegate's place), which may write it.
 */
START_TEST(gather_pipe)
{
	tracer_tstate st;
	pthread_t th;
	pid_t child;

	child = fork();
	ck_assert_int_ge(child, 0);
	if (child == 0) {
		if (pipe(pipefd) < 0 || pthread_create(&th, NULL, reader, NULL))
			_exit(1);
		pause();
		_exit(0);
	}
	wait_for_reader(child, &st);
	ck_assert_int_eq(tracer_tstate_wait(child, &st), TRACER_WAIT_FOREVER);
	kill(child, SIGKILL);
	waitpid(child, NULL, 0);

	ck_assert_int_eq(pipe(pipefd), 0);
	ck_assert_int_eq(pthread_create(&th, NULL, reader, NULL), 0);
	wait_for_reader(getpid(), &st);
	ck_assert_int_eq(st.args[0], pipefd[0]);
	/* open_when_blocked's test: asleep in a system call */
	ck_assert(tracer_tstate_sleeps(&st));
	st.state = 't';            /* stopped by a tracer: not asleep */
	ck_assert(!tracer_tstate_sleeps(&st));
	st.state = 'S';
	st.in_syscall = false;     /* stopped outside a system call */
	ck_assert(!tracer_tstate_sleeps(&st));
	tracer_tstate_read(getpid(), (pid_t)syscall(SYS_gettid), &st);
	ck_assert(!tracer_tstate_sleeps(&st));   /* this one runs */
	ck_assert_int_eq(tracer_tstate_wait(getpid(), &st), TRACER_WAIT_NONE);
	ck_assert_int_eq(write(pipefd[1], "x", 1), 1);
	pthread_join(th, NULL);
	close(pipefd[0]);
	close(pipefd[1]);
}
END_TEST

/* Who a futex wait waits for, from the words around it. */
START_TEST(futex_classify)
{
	struct tracer_futex_words mutex = { 2, true, 2, true, 4242 };
	struct tracer_futex_words join = { 4243, true, 4243, true, 0 };
	struct tracer_futex_words cond = { 0, true, 0, true, 4242 };
	struct tracer_futex_words unread = { 2, false, 0, false, 0 };
	struct tracer_futex_words lock1 = { 1, true, 1, true, 4242 };
	pid_t who = -1;

	ck_assert_int_eq(tracer_futex_classify(&mutex, 100, &who), TRACER_FUTEX_MUTEX);
	ck_assert_int_eq(who, 4242);
	/* a relock of one's own mutex waits for oneself */
	ck_assert_int_eq(tracer_futex_classify(&mutex, 4242, &who), TRACER_FUTEX_MUTEX);
	ck_assert_int_eq(tracer_futex_classify(&join, 100, &who), TRACER_FUTEX_JOIN);
	ck_assert_int_eq(who, 4243);
	ck_assert_int_eq(tracer_futex_classify(&join, 4243, &who), TRACER_FUTEX_OTHER);
	ck_assert_int_eq(tracer_futex_classify(&cond, 100, &who), TRACER_FUTEX_OTHER);
	ck_assert_int_eq(who, 0);
	ck_assert_int_eq(tracer_futex_classify(&unread, 100, &who), TRACER_FUTEX_OTHER);
	/* a word that is not glibc's "locked, with waiters" is no mutex wait */
	ck_assert_int_eq(tracer_futex_classify(&lock1, 100, &who), TRACER_FUTEX_OTHER);
	mutex.owner = 0;
	ck_assert_int_eq(tracer_futex_classify(&mutex, 100, &who), TRACER_FUTEX_OTHER);
}
END_TEST

/* Robust and PI mutexes: the word is the owner's tid, with waiters. */
START_TEST(futex_classify_robust_pi)
{
	struct tracer_futex_words robust = { 0x80001092u, true, (int32_t)0x80001092u,
					     true, 0x1092 };
	struct tracer_futex_words pi = { 0, true, (int32_t)0x80001092u, true, 0x1092 };
	struct tracer_futex_words no_waiters = { 0x1092, true, 0x1092, true, 0x1092 };
	struct tracer_futex_words other_owner = { 0, true, (int32_t)0x80001092u,
						  true, 0x1093 };
	pid_t who = -1;

	ck_assert_int_eq(tracer_futex_classify(&robust, 100, &who), TRACER_FUTEX_MUTEX);
	ck_assert_int_eq(who, 0x1092);
	who = -1;
	ck_assert_int_eq(tracer_futex_classify(&pi, 100, &who), TRACER_FUTEX_MUTEX);
	ck_assert_int_eq(who, 0x1092);
	/* a tid word without FUTEX_WAITERS is what pthread_join waits on */
	ck_assert_int_eq(tracer_futex_classify(&no_waiters, 100, &who), TRACER_FUTEX_JOIN);
	/* the owner field must agree, else it is some other futex */
	ck_assert_int_eq(tracer_futex_classify(&other_owner, 100, &who), TRACER_FUTEX_OTHER);
	ck_assert_int_eq(who, 0);
}
END_TEST

static pthread_mutex_t owned = PTHREAD_MUTEX_INITIALIZER;

static void *locker(void *arg)
{
	pthread_mutex_lock(&owned);
	pthread_mutex_unlock(&owned);
	return arg;
}

/* A real thread blocked on a mutex this thread owns: its owner is read. */
START_TEST(futex_owner_real)
{
	tracer_tstate st;
	pthread_t th;
	pid_t who = 0, self = (pid_t)syscall(SYS_gettid);
	int tries;

	pthread_mutex_lock(&owned);
	ck_assert_int_eq(pthread_create(&th, NULL, locker, NULL), 0);
	for (tries = 0; tries < 500; tries++) {
		struct timespec ts = { 0, 10 * 1000 * 1000 };
		pid_t *tids;
		size_t n;

		nanosleep(&ts, NULL);
		memset(&st, 0, sizeof(st));
		ck_assert_int_eq(tracer_tasks(getpid(), &tids, &n), 0);
		for (size_t i = 0; i < n; i++)
			if (tids[i] != self)
				tracer_tstate_read(getpid(), tids[i], &st);
		free(tids);
		if (st.state == 'S' && tracer_tstate_futex(&st))
			break;
	}
	ck_assert_int_lt(tries, 500);
	ck_assert_int_eq(tracer_tstate_futex(&st), (uint64_t)(uintptr_t)&owned);
	ck_assert_int_eq(tracer_tstate_futex_on(getpid(), &st, &who), TRACER_FUTEX_MUTEX);
	ck_assert_int_eq(who, self);
	pthread_mutex_unlock(&owned);
	pthread_join(th, NULL);
}
END_TEST

static pthread_barrier_t meet;

static void *meets(void *arg)
{
	pthread_barrier_wait(&meet);
	return arg;
}

/* glibc's rwlock, barrier, semaphore and spin lock, read as racegate reads them. */
START_TEST(sync_layouts)
{
	pthread_rwlock_t rw = PTHREAD_RWLOCK_INITIALIZER;
	pthread_spinlock_t spin;
	pthread_t th;
	tracer_rwlock r;
	unsigned waiting = 9, count = 0, value = 0;
	bool taken = true;
	sem_t sem;
	int tries;

	ck_assert(tracer_rwlock_read(getpid(), (uint64_t)(uintptr_t)&rw, &r));
	ck_assert(!r.writer && !r.readers);
	pthread_rwlock_rdlock(&rw);
	pthread_rwlock_rdlock(&rw);
	ck_assert(tracer_rwlock_read(getpid(), (uint64_t)(uintptr_t)&rw, &r));
	ck_assert_uint_eq(r.readers, 2);
	ck_assert(!r.writer && !r.write_phase);
	pthread_rwlock_unlock(&rw);
	pthread_rwlock_unlock(&rw);
	pthread_rwlock_wrlock(&rw);
	ck_assert(tracer_rwlock_read(getpid(), (uint64_t)(uintptr_t)&rw, &r));
	ck_assert_int_eq(r.writer, (pid_t)syscall(SYS_gettid));
	ck_assert(r.write_phase);
	pthread_rwlock_unlock(&rw);

	ck_assert_int_eq(sem_init(&sem, 0, 3), 0);
	ck_assert(tracer_sem_value(getpid(), (uint64_t)(uintptr_t)&sem, &value));
	ck_assert_uint_eq(value, 3);
	sem_wait(&sem);
	ck_assert(tracer_sem_value(getpid(), (uint64_t)(uintptr_t)&sem, &value));
	ck_assert_uint_eq(value, 2);
	sem_destroy(&sem);

	pthread_spin_init(&spin, PTHREAD_PROCESS_PRIVATE);
	ck_assert(tracer_spin_taken(getpid(), (uint64_t)(uintptr_t)&spin, &taken));
	ck_assert(!taken);
	pthread_spin_lock(&spin);
	ck_assert(tracer_spin_taken(getpid(), (uint64_t)(uintptr_t)&spin, &taken));
	ck_assert(taken);
	pthread_spin_unlock(&spin);
	ck_assert(tracer_spin_taken(getpid(), (uint64_t)(uintptr_t)&spin, &taken));
	ck_assert(!taken);

	pthread_barrier_init(&meet, NULL, 2);
	ck_assert(tracer_barrier_read(getpid(), (uint64_t)(uintptr_t)&meet, &waiting, &count));
	ck_assert_uint_eq(waiting, 0);
	ck_assert_uint_eq(count, 2);
	ck_assert_int_eq(pthread_create(&th, NULL, meets, NULL), 0);
	for (tries = 0; tries < 500; tries++) {
		struct timespec ts = { 0, 10 * 1000 * 1000 };

		ck_assert(tracer_barrier_read(getpid(), (uint64_t)(uintptr_t)&meet,
					      &waiting, &count));
		if (waiting == 1)
			break;
		nanosleep(&ts, NULL);
	}
	ck_assert_uint_eq(waiting, 1);
	pthread_barrier_wait(&meet);
	pthread_join(th, NULL);
	ck_assert(tracer_barrier_read(getpid(), (uint64_t)(uintptr_t)&meet, &waiting, &count));
	ck_assert_uint_eq(waiting, 0);
	pthread_barrier_destroy(&meet);
}
END_TEST

static Suite *procstate_suite(void)
{
	Suite *s = suite_create("procstate");
	TCase *tc = tcase_create("blocked");

	tcase_add_test(tc, futex_wait);
	tcase_add_test(tc, not_waiting);
	tcase_add_test(tc, sleeps);
	tcase_add_test(tc, read_pipe);
	tcase_add_test(tc, accept_wakes);
	tcase_add_test(tc, poll_fds);
	tcase_add_test(tc, select_epoll);
	tcase_add_test(tc, unknown_syscall);
	tcase_add_test(tc, syscall_numbers);
	tcase_add_test(tc, futex_classify);
	tcase_add_test(tc, futex_classify_robust_pi);
	tcase_add_test(tc, futex_owner_real);
	tcase_add_test(tc, sync_layouts);
	suite_add_tcase(s, tc);
	tc = tcase_create("gather");
	tcase_add_test(tc, gather_pipe);
	tcase_set_timeout(tc, 60);
	suite_add_tcase(s, tc);
	return s;
}

int main(void)
{
	SRunner *sr = srunner_create(procstate_suite());
	int failed;

	srunner_run_all(sr, CK_NORMAL);
	failed = srunner_ntests_failed(sr);
	srunner_free(sr);
	return failed ? EXIT_FAILURE : EXIT_SUCCESS;
}
