/*
 * blocked: the "blocked for ever" decision.  See blocked.h.
 */
#include "blocked.h"

/* futex operations (linux/futex.h), without the flags */
#define FUTEX_CMD_MASK_ (~(128 | 256))
#define FUTEX_WAIT_ 0
#define FUTEX_LOCK_PI_ 6
#define FUTEX_WAIT_BITSET_ 9
#define FUTEX_WAIT_REQUEUE_PI_ 11
#define FUTEX_LOCK_PI2_ 13
/* the word of a robust or PI futex (linux/futex.h) */
#define FUTEX_WAITERS_ 0x80000000u
#define FUTEX_TID_MASK_ 0x3fffffffu

static struct tracer_wait_verdict verdict(enum tracer_wait w, const char *why)
{
	struct tracer_wait_verdict v = { w, why };

	return v;
}

uint64_t tracer_futex_wait_addr(enum arch_sys sys, const uint64_t args[6])
{
	int cmd;

	if (sys != ARCH_SYS_FUTEX)
		return 0;
	cmd = (int)args[1] & FUTEX_CMD_MASK_;
	if (cmd == FUTEX_WAIT_ || cmd == FUTEX_WAIT_BITSET_ || cmd == FUTEX_LOCK_PI_ ||
	    cmd == FUTEX_LOCK_PI2_ || cmd == FUTEX_WAIT_REQUEUE_PI_)
		return args[0];
	return 0;
}

/*
 * Which argument holds the timeout, and whether "none" is a null pointer
 * (ppoll, select, epoll_pwait2, futex) or a negative int (poll, epoll_wait).
 */
static bool has_timeout(const struct tracer_wait_call *c, int arg, bool negative_none)
{
	if (negative_none)
		return (int)c->args[arg] >= 0;
	return c->args[arg] != 0;
}

enum tracer_wait_src tracer_wait_source(const struct tracer_wait_call *c,
					enum tracer_wait_use *use)
{
	*use = TRACER_USE_POLL;
	switch (c->sys) {
	case ARCH_SYS_POLL:
		return has_timeout(c, 2, true) ? TRACER_SRC_NONE : TRACER_SRC_POLL;
	case ARCH_SYS_PPOLL:
		return has_timeout(c, 2, false) ? TRACER_SRC_NONE : TRACER_SRC_POLL;
	case ARCH_SYS_SELECT:
	case ARCH_SYS_PSELECT6:
		return has_timeout(c, 4, false) ? TRACER_SRC_NONE : TRACER_SRC_SELECT;
	case ARCH_SYS_EPOLL_WAIT:
	case ARCH_SYS_EPOLL_PWAIT:
		return has_timeout(c, 3, true) ? TRACER_SRC_NONE : TRACER_SRC_EPOLL;
	case ARCH_SYS_EPOLL_PWAIT2:
		return has_timeout(c, 3, false) ? TRACER_SRC_NONE : TRACER_SRC_EPOLL;
	case ARCH_SYS_READ:
	case ARCH_SYS_READV:
	case ARCH_SYS_RECVFROM:
	case ARCH_SYS_RECVMSG:
		*use = TRACER_USE_READ;
		return TRACER_SRC_FD;
	case ARCH_SYS_ACCEPT:
	case ARCH_SYS_ACCEPT4:
		*use = TRACER_USE_ACCEPT;
		return TRACER_SRC_FD;
	default:
		return TRACER_SRC_NONE;
	}
}

bool tracer_wait_fd_may_wake(const struct tracer_wait_fd *fd, enum tracer_wait_use use)
{
	switch (fd->kind) {
	case TRACER_FD_PIPE:
		/* the program must hold a write end itself (else the writer
		 * is somewhere not looked at), and nobody else one */
		return !fd->ours || fd->outside;
	case TRACER_FD_UNIX:
		/* a client may always connect to a socket accept waits on */
		return use == TRACER_USE_ACCEPT || !fd->ours || fd->outside;
	case TRACER_FD_EVENTFD:
		/* only a poll is judged: a child could write it */
		return use != TRACER_USE_POLL || fd->outside;
	default:
		return true;
	}
}

enum tracer_fire tracer_wait_fireable(enum arch_sys sys, const uint64_t args[6],
				      unsigned *arg)
{
	*arg = 0;
	switch (sys) {
	case ARCH_SYS_NANOSLEEP:
	case ARCH_SYS_CLOCK_NANOSLEEP:
		return TRACER_FIRE_RETURN;
	case ARCH_SYS_POLL:
		*arg = 2;
		return (int)args[2] > 0 ? TRACER_FIRE_AGAIN : TRACER_FIRE_NO;
	case ARCH_SYS_EPOLL_WAIT:
	case ARCH_SYS_EPOLL_PWAIT:
		*arg = 3;
		return (int)args[3] > 0 ? TRACER_FIRE_AGAIN : TRACER_FIRE_NO;
	default:
		return TRACER_FIRE_NO;
	}
}

/* Waits with no file to look at: decided from the call alone. */
static struct tracer_wait_verdict decide_call(const struct tracer_wait_call *c)
{
	switch (c->sys) {
	case ARCH_SYS_FUTEX:
		if (!tracer_futex_wait_addr(c->sys, c->args))
			return verdict(TRACER_WAIT_NONE, "futex call that does not wait");
		if (has_timeout(c, 3, false))
			return verdict(TRACER_WAIT_TIMED, "futex wait with a timeout");
		return verdict(TRACER_WAIT_FOREVER, "futex wait with no timeout");
	case ARCH_SYS_FUTEX_WAITV:
		if (has_timeout(c, 3, false))
			return verdict(TRACER_WAIT_TIMED, "futex_waitv with a timeout");
		return verdict(TRACER_WAIT_FOREVER, "futex_waitv with no timeout");
	case ARCH_SYS_NANOSLEEP:
	case ARCH_SYS_CLOCK_NANOSLEEP:
		return verdict(TRACER_WAIT_TIMED, "sleeping");
	case ARCH_SYS_POLL:
	case ARCH_SYS_PPOLL:
	case ARCH_SYS_SELECT:
	case ARCH_SYS_PSELECT6:
	case ARCH_SYS_EPOLL_WAIT:
	case ARCH_SYS_EPOLL_PWAIT:
	case ARCH_SYS_EPOLL_PWAIT2:
		return verdict(TRACER_WAIT_TIMED, "waiting for files with a timeout");
	default:
		return verdict(TRACER_WAIT_NONE, "a system call that may return by itself");
	}
}

struct tracer_wait_verdict tracer_wait_decide(const struct tracer_wait_call *c)
{
	enum tracer_wait_use use;
	enum tracer_wait_src src;

	if (c->state != 'S' && c->state != 'D')
		return verdict(TRACER_WAIT_NONE, "not waiting");
	if (!c->in_syscall)
		return verdict(TRACER_WAIT_NONE, "not in a system call");
	src = tracer_wait_source(c, &use);
	if (src == TRACER_SRC_NONE)
		return decide_call(c);
	for (size_t i = 0; i < c->nfds; i++)
		if (tracer_wait_fd_may_wake(&c->fds[i], use))
			return verdict(TRACER_WAIT_NONE, use == TRACER_USE_ACCEPT ?
				       "accept: a client may connect" :
				       "waiting on a file another process may make ready");
	if (!c->fds_complete)
		return verdict(TRACER_WAIT_NONE, "waiting on files that could not all be seen");
	if (src == TRACER_SRC_FD)
		return verdict(TRACER_WAIT_FOREVER, "reading a pipe or socket only the "
			       "program itself could write");
	return verdict(TRACER_WAIT_FOREVER, "waiting with no timeout on files only "
		       "the program itself could make ready");
}

enum tracer_futex_kind tracer_futex_classify(const struct tracer_futex_words *w,
					     pid_t self, pid_t *who)
{
	*who = 0;
	if (!w->have_word)
		return TRACER_FUTEX_OTHER;
	if (w->word == 2 && w->expected == 2 && w->have_owner && w->owner > 0) {
		*who = w->owner;
		return TRACER_FUTEX_MUTEX;
	}
	/*
	 * A robust or priority-inheritance mutex keeps its owner's tid in the
	 * word itself, with FUTEX_WAITERS set once someone waits (the kernel's
	 * futex ABI), and glibc copies it to the owner field too: both must
	 * agree, so that no other futex is taken for one.
	 */
	if ((uint32_t)w->word & FUTEX_WAITERS_ && w->have_owner && w->owner > 0 &&
	    (int32_t)((uint32_t)w->word & FUTEX_TID_MASK_) == w->owner) {
		*who = w->owner;
		return TRACER_FUTEX_MUTEX;
	}
	if (w->word > 2 && (uint32_t)w->word == w->expected && w->word != self) {
		*who = w->word;
		return TRACER_FUTEX_JOIN;
	}
	return TRACER_FUTEX_OTHER;
}
