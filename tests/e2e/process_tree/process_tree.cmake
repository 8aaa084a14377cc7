# Process trees (--follow-fork, process:): a program's fork children are
# traced with their threads, gates act in the processes the spec names,
# and events are shared by the whole tree.
racegate_e2e_program(exec_helper SOURCES exec_helper.c NO_THREADS)
racegate_e2e_program(proctree SOURCES proctree.c
  SPECS proctree.yaml proctree_fixed.yaml proctree_threads.yaml
        proctree_crash.yaml proctree_orphan.yaml proctree_hang.yaml
        proctree_bomb.yaml proctree_vfork.yaml proctree_exec.yaml
        proctree_spawn.yaml)

# A parent/child race over MAP_SHARED memory: the child loads, the parent
# loads and stores, the child stores: one update is lost, every run.
racegate_e2e(process_tree_race 0 "counter = 1" "REPRODUCED: exit 1"
  "child +pid [0-9]+ +tid [0-9]+ +proctree.c:43 +child-loaded +opened child-loaded"
  "child +pid [0-9]+ +tid [0-9]+ +proctree.c:43 +child-loaded +held: waiting for parent-stored"
  "main +pid [0-9]+ +tid [0-9]+ +proctree.c:43 +parent-store +opened parent-stored"
  "child +pid [0-9]+ +tid [0-9]+ +proctree.c:43 +child-loaded +released"
  -- ${RG} run ${E2E_DIR}/proctree.yaml)
racegate_e2e(process_tree_race_10_of_10 0 "10 runs: 10 REPRODUCED$"
  -- ${RG} run --repeat 10 ${E2E_DIR}/proctree.yaml)
# Fixed with a lock shared by both processes: the held child owns it, the
# parent blocks on it, and the order is infeasible (not a timeout).
racegate_e2e(process_tree_fixed 0 "counter = 2" "ORDER-INFEASIBLE"
  "(main|child) +pid [0-9]+ +tid [0-9]+ +blocked: waits for mutex at 0x[0-9a-f]+, held by"
  -- ${RG} run ${E2E_DIR}/proctree_fixed.yaml)

# A forked child with threads, gated in the child by {start:} selectors
# with process:; the parent's update waits for exited: of a child thread.
racegate_e2e(process_tree_child_threads 0 "counter = 2" "REPRODUCED: exit 1"
  "w1 +pid [0-9]+ +tid [0-9]+ +proctree.c:43 +w1-loaded +held: waiting for w2-stored"
  "w2 +pid [0-9]+ +tid [0-9]+ +proctree.c:43 +w2-store +opened w2-stored"
  "w1 +pid [0-9]+ +tid [0-9]+ +- +- +opened exited:w1"
  "main +pid [0-9]+ +tid [0-9]+ +proctree.c:42 +parent-late +(released|passed)"
  -- ${RG} run ${E2E_DIR}/proctree_threads.yaml)
# The child dies of SIGSEGV right after its gate released it: its death
# opens what it had not got past, and the parent sees the signal.
racegate_e2e(process_tree_child_crashes 0 "child Segmentation fault" "PASSED"
  "child +pid [0-9]+ +tid [0-9]+ +proctree.c:69 +crash +opened child-past"
  "main +pid [0-9]+ +tid [0-9]+ +proctree.c:42 +parent-waits +(released|passed)"
  -- ${RG} run ${E2E_DIR}/proctree_crash.yaml)
# Fifty children made one after the other, each through a gate of
# process: any; {process: {nth: 50}} is the last one's first thread.
racegate_e2e(process_tree_fifty_children 0 "counter = 51" "PASSED"
  "process#50 +pid [0-9]+ +tid [0-9]+ +proctree.c:135 +last-child +opened last-kid"
  "main +pid [0-9]+ +tid [0-9]+ +proctree.c:165 +parent-last +(released|passed)"
  -- ${RG} run ${E2E_DIR}/proctree_bomb.yaml)
# A vfork child shares the program's memory: it is stepped over the
# breakpoints, never arrives (even at a gate of process: any), and its
# update counts.
racegate_e2e(process_tree_vfork_child 0 "counter = 2" "PASSED" "!proctree.c:135"
  -- ${RG} run ${E2E_DIR}/proctree_vfork.yaml)
# A child held when its parent exits is killed with the program; one held
# when racegate gets SIGINT too.
racegate_e2e(process_tree_outlived 0 "^orphan: exit 0$" "PASSED: exit 0"
  "process#1 +pid [0-9]+ +tid [0-9]+ +proctree.c:42 +child-held +held: waiting for never"
  "^sigint: exit 130$" "INTERRUPTED: racegate got SIGINT"
  "process#1 +tid [0-9]+ +proctree.c:42 +child-held +held: waiting for never"
  "^done$" "!LEFT RUNNING"
  -- ${CMAKE_CURRENT_LIST_DIR}/process_tree.sh ${RG} ${E2E_DIR})
# The parent blocks in waitpid for a child held for ever: the wait-for
# graph sees the parent wait on the child's threads, so the run ends as
# SCHEDULE-DEADLOCK at once, not at its timeout.
racegate_e2e(process_tree_parent_waits_held_child 3 "SCHEDULE-DEADLOCK"
  "main +pid [0-9]+ +tid [0-9]+ +blocked: waits for process#1 \\(pid [0-9]+\\) to end \\(wait4\\)"
  "wait-for chain: main waits for process#1 \\(pid [0-9]+\\) to end \\(wait4\\)"
  -- ${RG} run ${E2E_DIR}/proctree_hang.yaml)
# Without --follow-fork the child is let go: its gate never acts, and the
# parent waits for it in vain.
racegate_e2e(process_tree_no_follow 3
  "warning: .*proctree.yaml' names processes, but --no-follow-fork lets the program's children go untraced"
  "SCHEDULE-DEADLOCK"
  "nothing else can open child-loaded"
  -- ${RG} run --no-follow-fork --timeout 20s ${E2E_DIR}/proctree.yaml)

# Hostile: four threads fork forty children while the others are stepped
# over the gated line; each child runs the line fifty times from the copy
# of memory it was forked with.  The 5th child waits for worker 2's 3rd.
racegate_e2e_program(forking_threads SOURCES forking_threads.c
  SPECS forking_threads.yaml)
racegate_e2e(process_tree_forking_threads 0 "fails 0" "PASSED"
  "worker#2 +pid [0-9]+ +tid [0-9]+ +forking_threads.c:18 +any-step +opened w2-third"
  "process#5 +pid [0-9]+ +tid [0-9]+ +forking_threads.c:18 +child-step"
  -- ${RG} run ${E2E_DIR}/forking_threads.yaml)

# A child that execs another program: the gates that name it ({exe:})
# are resolved in its executable and armed before it runs; its alias binds
# on its first thread there, and it waits for the parent's event.
racegate_e2e(process_tree_exec 0 "parent done" "helper ran" "PASSED"
  "helper +pid [0-9]+ +tid [0-9]+ +exec_helper.c:9 +helper-says +held: waiting for parent-done"
  "main +pid [0-9]+ +tid [0-9]+ +proctree.c:102 +parent-done +opened parent-done"
  "helper +pid [0-9]+ +tid [0-9]+ +exec_helper.c:9 +helper-says +released"
  -- ${RG} run ${E2E_DIR}/proctree_exec.yaml)
# posix_spawn: the child shares its parent's memory until its exec (it is
# stepped over breakpoints, never arrives), and is followed from there.
racegate_e2e(process_tree_spawn 0 "parent done" "helper ran" "PASSED"
  "helper +pid [0-9]+ +tid [0-9]+ +exec_helper.c:9 +helper-says +held: waiting for parent-done"
  "helper +pid [0-9]+ +tid [0-9]+ +exec_helper.c:9 +helper-says +released"
  -- ${RG} run ${E2E_DIR}/proctree_spawn.yaml)
racegate_e2e(process_tree_exec_check 0 "!error"
  -- ${RG} check ${E2E_DIR}/proctree_exec.yaml)

# The parent calls exec while its followed child runs on in the old image:
# the child's gates there go on.
racegate_e2e_program(exec_parent SOURCES exec_parent.c NO_THREADS
  SPECS exec_parent.yaml)
racegate_e2e(process_tree_parent_execs 0 "child 5" "REPRODUCED: exit 0"
  "process#1 +tid [0-9]+ +exec_parent.c:14 +third +opened third"
  -- ${RG} run ${E2E_DIR}/exec_parent.yaml)

# A pre-fork server: its worker child's threads are held for ever, and each
# run ends at its verdict (or its timeout) with the worker killed.  Every
# run binds the port the first one got: no process of a run outlives it
# (a worker left stopped on its way out kept the port until racegate
# exited, and the next runs failed "Address already in use").
racegate_e2e_program(prefork SOURCES prefork.c SPECS prefork.yaml)
racegate_e2e(process_tree_runs_free_the_port 0
  "10 runs: 10 SCHEDULE-DEADLOCK$" "^verdict: exit 0$" "^port: [0-9]+$"
  "3 runs: 3 TIMEOUT$" "^timeout: exit 0$" "!cannot bind"
  -- ${CMAKE_CURRENT_LIST_DIR}/process_tree_runs.sh ${RG} ${E2E_DIR})

# A deadlock through a mutex and a join, in the program or in a forked
# child (the parent waits for it): the child's threads are diagnosed in
# the same words, the mutex's owner and the joined thread named (their
# words read in the child's memory, not its parent's).
racegate_e2e_program(child_deadlock SOURCES child_deadlock.c
  SPECS child_deadlock.yaml child_deadlock_fork.yaml
        child_deadlock_exec.yaml child_deadlock_foreign.yaml)
# the same program under another name, for a child to exec
racegate_e2e_program(child_deadlock_worker SOURCES child_deadlock.c)
# (a ; in a pattern would split this list variable: . stands for it)
set(child_deadlock_words
  "boss +(pid [0-9]+ +)?tid [0-9]+ +blocked: waits for locker \\(tid [0-9]+\\) to exit \\(pthread_join\\) +at child_deadlock.c:[0-9]+ in work$"
  "holder +(pid [0-9]+ +)?tid [0-9]+ +held at gate 'hold': waiting for go +at child_deadlock.c:[0-9]+ in holder$"
  "locker +(pid [0-9]+ +)?tid [0-9]+ +blocked: waits for mutex 'lock', held by holder \\(tid [0-9]+\\) +at child_deadlock.c:[0-9]+ in locker$"
  "wait-for chain: (main waits for boss \\(pid [0-9]+\\) to end \\(wait4\\) in main \\(child_deadlock.c:[0-9]+\\). )?boss waits for locker to exit \\(pthread_join in work \\(child_deadlock.c:[0-9]+\\)\\). holder holds mutex 'lock' \\(child_deadlock.c:[0-9]+\\) and is held at gate hold waiting for go. locker waits for mutex 'lock' in locker \\(child_deadlock.c:[0-9]+\\). nothing else can open go$"
  "!no deadlock verdict" "!futex wait")
racegate_e2e(process_tree_deadlock_words_in_program 3 "SCHEDULE-DEADLOCK"
  ${child_deadlock_words} -- ${RG} run ${E2E_DIR}/child_deadlock.yaml)
racegate_e2e(process_tree_deadlock_words_in_child 3 "SCHEDULE-DEADLOCK"
  "main +pid [0-9]+ +tid [0-9]+ +blocked: waits for boss \\(pid [0-9]+\\) to end \\(wait4\\)"
  ${child_deadlock_words} -- ${RG} run ${E2E_DIR}/child_deadlock_fork.yaml)
# After the child's exec: in the image the gates name ({exe:}), whose
# first thread the alias binds at the exec, not only at an arrival ...
racegate_e2e(process_tree_deadlock_words_after_exec 3 "SCHEDULE-DEADLOCK"
  "main +pid [0-9]+ +tid [0-9]+ +blocked: waits for boss \\(pid [0-9]+\\) to end \\(wait4\\)"
  ${child_deadlock_words} "in _start \\(child_deadlock_worker\\)"
  -- ${RG} run ${E2E_DIR}/child_deadlock_exec.yaml)
# ... and in one no gate names: its own symbols name its code and data.
racegate_e2e(process_tree_deadlock_words_in_other_program 0 "REPRODUCED"
  "process#1 +pid [0-9]+ +tid [0-9]+ +blocked: waits for thread#1 \\(tid [0-9]+\\) to exit \\(pthread_join\\) +at child_deadlock.c:[0-9]+ in self_deadlock$"
  "thread#1 +pid [0-9]+ +tid [0-9]+ +blocked: waits for mutex 'lock', held by process#1 \\(tid [0-9]+\\) +at child_deadlock.c:[0-9]+ in locker$"
  "process#1 holds mutex 'lock' and waits for thread#1 to exit \\(pthread_join in self_deadlock \\(child_deadlock.c:[0-9]+\\)\\)"
  "backtrace of process#1" "#[0-9]+ 0x[0-9a-f]+ in self_deadlock at child_deadlock.c:[0-9]+$"
  "in _start \\(child_deadlock_worker\\)"
  -- ${RG} run --follow-fork ${E2E_DIR}/child_deadlock_foreign.yaml)
# std::thread in a forked child: {start:} names the callable, read from the
# thread's state in the child's memory (not its parent's, where nothing
# named it), and the diagnosis uses the names.
enable_language(CXX)
racegate_e2e_program(child_deadlock_cxx SOURCES child_deadlock_cxx.cpp
  SPECS child_deadlock_cxx.yaml)
racegate_e2e(process_tree_std_thread_in_child 3 "SCHEDULE-DEADLOCK"
  "boss +pid [0-9]+ +tid [0-9]+ +blocked: waits for locker \\(tid [0-9]+\\) to exit \\(pthread_join\\) +at child_deadlock_cxx.cpp:[0-9]+ in work$"
  "holder +pid [0-9]+ +tid [0-9]+ +held at gate 'hold': waiting for go +at child_deadlock_cxx.cpp:[0-9]+ in holder$"
  "locker +pid [0-9]+ +tid [0-9]+ +blocked: waits for mutex 'lock', held by holder \\(tid [0-9]+\\)"
  "holder holds mutex 'lock' \\(child_deadlock_cxx.cpp:[0-9]+\\) and is held at gate hold waiting for go"
  "!cannot name" "!no deadlock verdict"
  -- ${RG} run ${E2E_DIR}/child_deadlock_cxx.yaml)
