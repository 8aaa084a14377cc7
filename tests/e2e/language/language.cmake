# The gates language on real traced programs: one test per construct, each
# checking the order it enforces (the program's output and the timeline), not
# only the exit status.  lang.c has one scenario per argument; lang_*.yaml
# gate it.
#
# exited:ALIAS as in the seed paper's Figure 1 ("Worker2 finished") is
# examples/shared_memory: see shared_memory_timeline in examples.cmake.
racegate_e2e_program(lang SOURCES lang.c
  SPECS lang_sequence.yaml lang_merge.yaml lang_pool.yaml
        lang_named.yaml lang_loop.yaml lang_timeout.yaml)

# sequence: 5 steps over 3 threads.  Each step opens sequence:N once its
# thread has got past the line, so the output order holds on every run.
racegate_e2e(lang_sequence 0 "^gamma one$" "^alpha one$" "^beta one$"
  "^gamma two$" "^alpha two$" "PASSED"
  "c +tid [0-9]+ +lang.c:45 +step 1 +opened sequence:1"
  "a +tid [0-9]+ +lang.c:27 +step 2 +opened sequence:2"
  "b +tid [0-9]+ +lang.c:36 +step 3 +opened sequence:3"
  "c +tid [0-9]+ +lang.c:46 +step 4 +opened sequence:4"
  "a +tid [0-9]+ +lang.c:28 +step 5 +opened sequence:5"
  -- ${RG} run ${E2E_DIR}/lang_sequence.yaml)
racegate_e2e(lang_sequence_every_run 0 "20 runs: 20 PASSED$"
  -- ${RG} run --repeat 20 ${E2E_DIR}/lang_sequence.yaml)

# Merged actions at one location (open before wait), then_open, and a named
# barrier spanning two locations.
racegate_e2e(lang_merged_actions 0 "^alpha one$" "^gamma one$" "PASSED"
  "c +tid [0-9]+ +lang.c:45 +c-wait +held: waiting for a-past"
  "a +tid [0-9]+ +lang.c:27 +a-first +opened a-past"
  "c +tid [0-9]+ +lang.c:45 +c-wait +released after"
  -- ${RG} run ${E2E_DIR}/lang_merge.yaml)
racegate_e2e(lang_named_barrier 0 "PASSED"
  "lang.c:(28|37) +[ab]-copy +held: at barrier 'copy' \\(1 of 2\\)"
  "lang.c:(28|37) +[ab]-copy +released after"
  -- ${RG} run ${E2E_DIR}/lang_merge.yaml)

# as: binds whichever worker arrives first; "!first" gates the others.
racegate_e2e(lang_pool_as_binds_first 0 "PASSED"
  "pool_worker#[1-4] +tid [0-9]+ +lang.c:77 +first-in +held: waiting for rest-done"
  "lang.c:80 +rest +opened rest-done"
  "first +tid [0-9]+ +lang.c:77 +first-in +released after"
  -- ${RG} run ${E2E_DIR}/lang_pool.yaml)
add_test(NAME e2e_lang_pool_first_logs_last
  COMMAND ${CMAKE_CURRENT_LIST_DIR}/last_logger.sh first
          -- ${RG} run ${E2E_DIR}/lang_pool.yaml)
set_tests_properties(e2e_lang_pool_first_logs_last PROPERTIES LABELS e2e TIMEOUT 300)

# {name: NAME}: a name set after the thread started; started:ALIAS opens
# when racegate sees it.
racegate_e2e(lang_named_thread 0 "^flusher named$"
  "^main sees the thread named 'flusher'$" "^flusher flushes$" "PASSED"
  "flusher +tid [0-9]+ .*opened started:flusher"
  "main +tid [0-9]+ .*main-waits +(released after|passed)"
  -- ${RG} run ${E2E_DIR}/lang_named.yaml)

# hit: N, once: true, optional: true.
# (main and the looper race to their first gates: only causal order is checked)
racegate_e2e(lang_hit_once_optional 0 "^main ready$" "^loop 3$" "PASSED"
  "!first-pass +passed" "!NOT-ENFORCED"
  "main +tid [0-9]+ +lang.c:120 +main-ready +opened main-ready"
  "looper +tid [0-9]+ +lang.c:64 +third-pass +(passed|released after)"
  -- ${RG} run ${E2E_DIR}/lang_loop.yaml)
racegate_e2e(lang_once 0 "PASSED"
  "looper +tid [0-9]+ +lang.c:64 +first-pass +opened first-loop"
  "looper +tid [0-9]+ +lang.c:64 +third-pass +(passed|released after)"
  "!first-pass +passed"
  -- ${RG} run ${E2E_DIR}/lang_loop.yaml)

# A gate's timeout lets the thread go and the run is NOT-ENFORCED.
racegate_e2e(lang_gate_timeout 3
  "NOT-ENFORCED: .*'stuck-pass' let a thread go by its timeout"
  "stuck-pass +held: waiting for never-opened"
  "stuck-pass +released by its timeout"
  -- ${RG} run ${E2E_DIR}/lang_timeout.yaml)
