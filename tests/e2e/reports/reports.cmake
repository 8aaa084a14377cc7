# Sessions of runs (--repeat, --jobs, --stop-on-first, --expect-outcome) and
# the machine reports (--report, --junit, --tap, --trace), each checked by
# what reads it; see reports.sh.
set(REPORTS ${CMAKE_CURRENT_LIST_DIR}/reports.sh)
foreach(c json junit tap trace schema tty flood)
  set(rep_${c} ${REPORTS} ${c} ${RG} ${PROJECT_SOURCE_DIR} ${PROJECT_BINARY_DIR})
endforeach()

racegate_e2e(report_json 0 "racegate exit 0" "r.json: valid"
  "racegate exit 3" "u.json: valid" "note: the order did not take hold"
  "unreached: \\['five-hundredth', 'main-touch'\\]|unreached: \\['five-hundredth'\\]"
  -- ${rep_json})
racegate_e2e(report_junit_validates 0 "racegate exit 0" "ok.xml validates"
  "testcases: 3" "^<testsuite name=\"lost_update/gates\"$"
  "^<testcase name=\"run 1\" classname=\"lost_update/gates\"$"
  "^<testcase name=\"run 2\" classname=\"lost_update/gates\"$"
  "^<testcase name=\"run 3\" classname=\"lost_update/gates\"$"
  "racegate exit 1" "fail.xml validates" "failure type=\"NOT-REPRODUCED\""
  "^<testcase name=\"run 1\" classname=\"[^\"]*examples/string_buffer/gates\"$"
  "racegate exit 3" "err.xml validates" "error type=\"NOT-ENFORCED\""
  -- ${rep_junit})
racegate_e2e(report_tap 0 "racegate exit 0" "^TAP version 13$" "^ok 1 - run [123]: REPRODUCED$"
  "^ok 3 - run [123]: REPRODUCED$" "^1\\.\\.3$" "prove exit 0" "Result: PASS"
  "racegate exit 1" "^TAP version 13$" "^not ok 1 - run 1: NOT-REPRODUCED$" "^  ---$"
  "^  outcome: NOT-REPRODUCED$" "^  stdout: \\|-$" "^  \\.\\.\\.$" "^1\\.\\.1$" "prove exit 1"
  "!^counter = 1" -- ${rep_tap})
racegate_e2e(report_trace_format 0 "racegate exit 0"
  "trace ok: .* 3 processes, 6 threads, [3-9] slices, [3-9] flows"
  "racegate exit 0" "trace ok:" -- ${rep_trace})
racegate_e2e(gates_schema_accepts_examples 0 "array_list/gates.yaml: valid"
  "string_buffer/gates.yaml: valid" "invalid as expected: Additional properties.*'wiat'"
  -- ${rep_schema})
racegate_e2e(tty_progress_and_color 0 "racegate: [123]/3 runs: [123] REPRODUCED"
  "racegate: 3 runs: 3 REPRODUCED" "tty: coloured" "NO_COLOR: plain"
  "--color=always: coloured" "pipe: plain" -- ${rep_tty})

# A failing --repeat does not flood the terminal: the first unexpected run
# in full, five more in a line each, the rest counted; -q, the tally alone.
racegate_e2e(repeat_failing_brief 0 "racegate exit 1" "^--- stdout ---$"
  ": run [0-9]+/100: NOT-REPRODUCED: expected" "^timeline:"
  ": run [0-9]+/100: NOT-REPRODUCED: expected" ": run [0-9]+/100: NOT-REPRODUCED: expected"
  ": run [0-9]+/100: NOT-REPRODUCED: expected" ": run [0-9]+/100: NOT-REPRODUCED: expected"
  ": run [0-9]+/100: NOT-REPRODUCED: expected"
  "^racegate: 94 more unexpected runs not shown: 94 NOT-REPRODUCED \\(--verbose shows every run\\)$"
  "^racegate: 100 runs: 100 NOT-REPRODUCED$" "lines: at most 40" "^timelines: 1$"
  "^outputs: 1$" "^run lines: 6$" "^junit testcases: 100$" "f.json: valid"
  "^quiet exit 1$" "^quiet lines: 1$" "^quiet: racegate: 100 runs: 100 NOT-REPRODUCED$"
  -- ${rep_flood})

# --jobs: runs in worker processes, same tally as in one process.
racegate_e2e(jobs_parallel_tally 0 "racegate: 20 runs: 20 REPRODUCED$"
  "!run [0-9]+/20" -- ${RG} run --repeat 20 --jobs 2 ${EXAMPLES}/lost_update/gates.yaml)
racegate_e2e(jobs_unexpected_runs_reported 1 "--- stdout ---" "run [1-4]/4: NOT-REPRODUCED"
  "racegate: 4 runs: 4 NOT-REPRODUCED$"
  -- ${RG} run --repeat 4 --jobs 2 ${EXAMPLES}/string_buffer/gates.yaml
     -- ${EXAMPLES}/string_buffer/string_buffer-fixed)
# --stop-on-first: a hunt stops at the first REPRODUCED run...
racegate_e2e(stop_on_first_hunt 0 "racegate: 1 runs: 1 REPRODUCED$"
  "stopped at run 1 of 50 \\(--stop-on-first\\): REPRODUCED"
  -- ${RG} run --repeat 50 --stop-on-first ${EXAMPLES}/lost_update/gates.yaml)
# ...a miss does not stop it, and its status is the last run's...
racegate_e2e(stop_on_first_misses_go_on 1 "racegate: 3 runs: 3 NOT-REPRODUCED$"
  "!stopped at" -- ${RG} run -q --repeat 3 --stop-on-first ${EXAMPLES}/string_buffer/gates.yaml
     -- ${EXAMPLES}/string_buffer/string_buffer-fixed)
# ...and a run that is not what was expected stops it, with its status.
racegate_e2e(stop_on_first_unexpected 3 "racegate: [12] runs: [12] NOT-ENFORCED$"
  "stopped at run [12] of 20 \\(--stop-on-first\\): NOT-ENFORCED"
  -- ${RG} run -q --repeat 20 --jobs 2 --stop-on-first ${E2E_DIR}/unreached.yaml)
# --expect-outcome: the outcomes that pass, instead of the exit-status rule.
racegate_e2e(expect_outcome_listed 0 "NOT-ENFORCED"
  -- ${RG} run -q --expect-outcome NOT-ENFORCED,TIMEOUT ${E2E_DIR}/unreached.yaml)
racegate_e2e(expect_outcome_unlisted 1 "racegate: 2 runs: 2 REPRODUCED$"
  -- ${RG} run -q --repeat 2 --expect-outcome passed ${EXAMPLES}/lost_update/gates.yaml)
racegate_e2e(error_bad_jobs 2 "--jobs takes a number from 1 to 64"
  -- ${RG} run --jobs 65 ${EXAMPLES}/lost_update/gates.yaml)
racegate_e2e(error_bad_outcome 2 "unknown outcome 'REPRODUCE'"
  -- ${RG} run --expect-outcome REPRODUCE ${EXAMPLES}/lost_update/gates.yaml)
