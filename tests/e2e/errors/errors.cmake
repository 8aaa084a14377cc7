# What users see when something is wrong: the message says where and what,
# and racegate exits with the status racegate(1) gives under EXIT STATUS.
racegate_e2e_specs(bad_key.yaml bad_start.yaml bad_regex.yaml
  no_code.yaml unreached.yaml stuck.yaml timeout.yaml)
file(WRITE ${E2E_DIR}/tab.yaml "version: 1\n\tgates: []\n")
file(WRITE ${E2E_DIR}/script.sh "#!/bin/sh\nexit 0\n")
file(CHMOD ${E2E_DIR}/script.sh PERMISSIONS OWNER_READ OWNER_WRITE OWNER_EXECUTE)

racegate_e2e(error_unknown_key 2
  "bad_key.yaml:5:5: error: unknown key 'wiat' \\(did you mean 'wait'\\?\\)"
  -- ${RG} run ${E2E_DIR}/bad_key.yaml)
racegate_e2e(error_no_code_on_line 2
  "no_code.yaml:4:[0-9]+: error: cannot resolve 'hits.c:3': no code on this line \\(nearest: [0-9]+"
  -- ${RG} check ${E2E_DIR}/no_code.yaml)
racegate_e2e(error_missing_program 2 "cannot run '.*no-such-program'"
  -- ${RG} run ${E2E_DIR}/hits.yaml -- ./no-such-program)
racegate_e2e(error_not_elf 2 "script.sh' is not an ELF file"
  -- ${RG} run ${E2E_DIR}/hits.yaml -- ${E2E_DIR}/script.sh)
racegate_e2e(error_usage_no_spec 2 "racegate: run needs a gates file" -- ${RG} run)
racegate_e2e(error_unknown_command 2 "unknown command 'frobnicate'" -- ${RG} frobnicate)
racegate_e2e(help 0 "^usage: racegate run" "Exit status:" -- ${RG} --help)
racegate_e2e(check_resolves 0 "hits.yaml: 3 gates, 2 breakpoints" "w1-last +at hits.c:21"
  "0x[0-9a-f]+ +hits.c:21 +in worker" -- ${RG} check ${E2E_DIR}/hits.yaml)
# main-touch's 1 s timeout lets main go: the run says who waited for what
# at that moment, then judges the order as not enforced.
racegate_e2e(not_enforced_unreached_gate 3 "NOT-ENFORCED: the order did not take hold: 'five-hundredth' .* was never reached"
  "main +tid [0-9]+ +held at gate 'main-touch': waiting for late +at signals.c:16 in touch"
  "main-touch +released by its timeout after"
  -- ${RG} run ${E2E_DIR}/unreached.yaml)
racegate_e2e(schedule_deadlock 3 "SCHEDULE-DEADLOCK"
  "main +tid [0-9]+ +held at gate 'main-waits': waiting for late +at signals.c:16 in touch"
  "wait-for chain: main is held at gate main-waits waiting for late. only w \\(tid [0-9]+\\), at gate 'never' can open late, and it has exited"
  -- ${RG} run ${E2E_DIR}/stuck.yaml)
# A thread asleep (with a timeout) is not a deadlock: the run goes on until
# its timeout, then says what every thread was doing.
racegate_e2e(timeout_whole_run 3 "TIMEOUT"
  "napper +tid [0-9]+ +(sleeping in clock_nanosleep \\(wakes by itself\\)|running) +at sleeper.c:28 in napper"
  "w1-first +held: waiting for never-opened"
  -- ${RG} run ${E2E_DIR}/timeout.yaml)
racegate_e2e(on_deadlock_release 0 "ORDER-INFEASIBLE"
  -- ${RG} run --on-deadlock release ${E2E_DIR}/stuck.yaml)
# A start routine the program does not have is an error at check, with
# what the program's threads can start in.
racegate_e2e(error_start_routine_unknown 2
  "bad_start.yaml:4:7: error: \\{start: wroker\\} matches no thread: no function, lambda or function object 'wroker' in 'hits' \\(did you mean 'worker'\\?\\). threads of 'hits' start in: worker \\(hits.c:15\\)$"
  -- ${RG} check ${E2E_DIR}/bad_start.yaml)
racegate_e2e(error_tab_in_yaml 2 "tab.yaml:2:1: error: invalid YAML: a tab character. YAML indents with spaces only"
  -- ${RG} check ${E2E_DIR}/tab.yaml)
racegate_e2e(error_regex_too_costly 2
  "bad_regex.yaml:6:11: error: the regex in 'stdout' repeats repetitions too deeply"
  -- ${RG} run ${E2E_DIR}/bad_regex.yaml)
