/*
 * waitfor: the wait-for graph, and which threads in it are stuck for good.
 * Pure logic on plain values (no /proc, no ptrace), so it is tested with
 * made-up threads: the caller says what each live thread is doing, and
 * wf_solve marks the ones that can never move again.
 *
 * Nodes are the program's live threads.  A thread
 *  - that runs, sleeps with a timeout or waits in a way that may end by
 *    itself (epoll with a timeout, a socket) can progress (RUNS);
 *  - held at a gate waits for each thing it needs (wf_need, as its decider
 *    says it: a closed event, a barrier's missing arrivals), each of which
 *    the threads in its `by` could meet, or, with `anyone`, any thread
 *    that can progress (it could be, or start, the one a selector picks);
 *  - blocked for ever on one thread (the owner of the mutex it locks, the
 *    thread it joins) waits for that thread alone (ON_THREAD);
 *  - blocked until one of a few threads acts (a parent in wait4 for a child
 *    process: any of the child's threads may end it) waits for those
 *    (ON_ANY_OF); when none of them is left, it can move (the wait ends);
 *  - blocked for ever otherwise (a condition, a futex no owner is known of,
 *    a pipe only the program writes) waits for anyone (ON_ANYONE).
 * The stuck set is the largest set of those threads in which each waits
 * only on members: a cycle, or a chain that ends in one or in a thread
 * that is gone.  Threads outside it (bystanders: an event loop, a sleeper)
 * change nothing, unless something in the set waits for anyone.
 */
#ifndef RACEGATE_WAITFOR_H
#define RACEGATE_WAITFOR_H

#include <stdbool.h>
#include <stddef.h>
#include <sys/types.h>


/*
 * One thing a held thread still needs, as its decider says it (the gates
 * decider: gate_needs): a closed event it waits for, or a barrier it is
 * counted at that has not fired.  by[] are the live threads that could
 * meet it; anyone: a thread not known now could meet it too, so any thread
 * that can move might.
 */
typedef struct wf_need {
	const char *event;     /* the closed event, or NULL */
	const char *barrier;   /* else the barrier's name */
	int missing;           /* barrier: arrivals still missing */
	int gate;              /* the first live gate that could meet it, or -1 */
	pid_t *by;             /* malloc'd, no duplicates */
	size_t nby;
	bool anyone;
} wf_need;

/* Frees v (n needs) and each by[]. */
void wf_needs_free(wf_need *v, size_t n);

enum wf_kind {
	WF_RUNS,          /* can make progress by itself */
	WF_HELD,          /* held at a gate: needs[] */
	WF_ON_THREAD,     /* blocked for ever until thread `on` acts */
	WF_ON_ANYONE,     /* blocked for ever until some thread acts */
	WF_ON_ANY_OF,     /* blocked until one of ons[] acts */
};

typedef struct wf_node {
	pid_t tid;
	enum wf_kind kind;
	pid_t on;                  /* ON_THREAD: the mutex's owner, the joined
				      thread; one not in the graph is gone */
	const wf_need *needs;    /* HELD: what it still needs; with none it
				      counts as ON_ANYONE */
	size_t nneeds;
	const pid_t *ons;          /* ON_ANY_OF: the threads that can end its wait */
	size_t nons;
	/* set by wf_solve */
	bool stuck;
	int blocked_need;          /* HELD and stuck: a need no thread outside the
				      stuck set can meet; else -1 */
	size_t next;               /* stuck: the node it waits for in the chain
				      (ON_THREAD: the owner; HELD: a thread of
				      blocked_need's by; ON_ANY_OF: one of ons),
				      or (size_t)-1 */
} wf_node;

/*
 * Marks the stuck nodes of v (tids unique) and returns how many there are.
 * Linear in the edges per round; rounds stop as soon as nothing changes.
 */
size_t wf_solve(wf_node *v, size_t n);

#endif
