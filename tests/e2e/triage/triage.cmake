# racegate triage (issue 24) on the triage examples, as a user runs it: a
# TSan report taken in the test from the example's -tsan build, triage on
# its normal build, the verdict of each race (its JSON report, one line a
# race), and each HARMFUL race's file replayed 20 times by racegate run.
# Verdicts come from forced orders, not timing: each is the same every run
# (stale_conn's first race, whose forced order leaves the crash to the
# threads' speed, is checked on its own below).  stale_conn's second race's file
# gates the free (line 50): a sender that starts more than the closer's
# 4ms late finds conn cleared (line 49) and never reaches its use, so on
# a loaded machine a replay now and then is NOT-ENFORCED, not a pass.
# Which of cxx_stock's two buyers TSan shows first varies run to run.
set(EX ${EXAMPLES})
set(TRI ${CMAKE_CURRENT_LIST_DIR}/triage.sh ${RG})
set(TRI_OUT ${E2E_DIR}/triage_out)
if(RACEGATE_HAVE_TSAN)
  racegate_e2e(triage_stale_conn_harmful 1
    "^race +first +second +verdict +file$"
    "^2 +stale_conn.c:50 \\(closer\\) +stale_conn.c:35 \\(sender\\) +HARMFUL +.*race-2.yaml$"
    "^race 2: HARMFUL: stale_conn.c:50 \\(closer\\) before stale_conn.c:35 \\(sender\\): killed by SIGSEGV in [1-5] of [2-5] runs. the file reproduced (20 of 20|1[0-9] of 20, so a search .* found a run killed by SIGSEGV .*; the file reproduced 20 of 20)$"
    "^race 2 HARMFUL stale_conn.c:50 closer stale_conn.c:35 sender gates=race-2.yaml$"
    "^replay race-2.yaml:$" "^racegate: 20 runs: (1[0-9]|20) REPRODUCED"
    -- ${TRI} ${EX}/stale_conn stale_conn ${TRI_OUT}/stale_conn)
  # race 1's forced order (the check before the clear) leaves the crash to
  # the threads' speed; when its file does not reproduce every time (or no
  # run of it crashed), the search between every race's places (the
  # check, the use, the clear and the free) writes one that does
  racegate_e2e(triage_stale_conn_search_mends 1
    "^race 1: HARMFUL: .*the file reproduced 20 of 20$"
    "^replay race-1.yaml:$" "^racegate: 20 runs: 20 REPRODUCED$"
    -- ${TRI} ${EX}/stale_conn stale_conn ${TRI_OUT}/stale_conn_search)
  # the bug report of the HARMFUL races: accesses with their source lines,
  # the failing order as a diagram, the replay and the file.  Race 1's
  # section is read: its trial file holds on any machine, while race 2's
  # may be mended by a search on a loaded one (the close can come before
  # the sender's first check)
  racegate_e2e(triage_stale_conn_markdown 1
    "^\\| 2 \\| `stale_conn.c:50 \\(closer\\)` \\| `stale_conn.c:35 \\(sender\\)` \\| \\*\\*HARMFUL\\*\\* \\| `.*race-2.yaml` \\|$"
    "^## Race 1: HARMFUL$"
    "^\\| first \\| `stale_conn.c:49` \\| closer \\| closer \\| `conn = NULL. /\\* close: gated line \\*/` \\|$"
    "^\\| second \\| `stale_conn.c:33` \\| sender \\| sender \\| `if \\(conn != NULL\\) \\{ /\\* check \\*/` \\|$"
    "^```mermaid$" "^    sender->>closer: sender-done$" "^    Note over sender,closer: killed by SIGSEGV$"
    "^racegate run --repeat 20 .*race-1.yaml$" "^  signal: SIGSEGV$" "^## Race 2: HARMFUL$"
    -- ${TRI} ${EX}/stale_conn stale_conn ${TRI_OUT}/stale_conn_md -
       --markdown ${TRI_OUT}/stale_conn_md/bug.md)
  racegate_e2e(triage_markdown_unwritable 2 "^racegate: --markdown: "
    -- ${RG} triage --tsan ${PROJECT_SOURCE_DIR}/tests/triage/tsan-gcc-O1-stale_conn.txt
       --markdown /nonexistent-dir/bug.md -- ${EX}/stale_conn/stale_conn)
  racegate_e2e(triage_tally_output_differs 1
    "^1 +tally.c:30 \\(counter_(2\\) +tally.c:32 \\(counter_1|1\\) +tally.c:32 \\(counter_2)\\) +OUTPUT-DIFFERS +.*race-1-order-1.yaml .*race-1-order-2.yaml$"
    "^race 1 OUTPUT-DIFFERS tally.c:30 counter#(2 tally.c:32 counter#1|1 tally.c:32 counter#2) gates=race-1-order-1.yaml,race-1-order-2.yaml$"
    "!HARMFUL" "!replay"
    -- ${TRI} ${EX}/tally tally ${TRI_OUT}/tally)
  racegate_e2e(triage_retry_flag_benign 0
    "^1 +retry_flag.c:36 \\(worker_[12]\\) +retry_flag.c:36 \\(worker_[12]\\) +BENIGN +.*race-1-order-1.yaml .*race-1-order-2.yaml$"
    "^race 1: BENIGN: both orders end alike \\(5 and 5 runs\\). a search of [0-9]+ schedules between its accesses \\(all with up to 3 delays\\) found no failure$"
    "^race 1 BENIGN retry_flag.c:36 worker#[12] retry_flag.c:36 worker#[12] gates=race-1-order-1.yaml,race-1-order-2.yaml$"
    -- ${TRI} ${EX}/retry_flag retry_flag ${TRI_OUT}/retry_flag)
  # the data race across the hand-made handoff: the read and the write are
  # never at their lines at once, and the read cannot come first; the
  # flag's race itself ends alike
  racegate_e2e(triage_spin_handoff_single_order 0
    "^race 1: BENIGN"
    "^race 2: SINGLE-ORDER: spin_handoff.c:42 \\(consumer\\) cannot run before spin_handoff.c:29 \\(producer\\): .*'producer-waits' let a thread go by its timeout. a search of [0-9]+ schedules between (its accesses|the places of the races between the same two functions) .*found no failure$"
    "^race 1 BENIGN spin_handoff.c:31 producer spin_handoff.c:39 consumer gates=race-1-order-1.yaml,race-1-order-2.yaml$"
    "^race 2 SINGLE-ORDER spin_handoff.c:42 consumer spin_handoff.c:29 producer gates=-$"
    -- ${TRI} ${EX}/spin_handoff spin_handoff ${TRI_OUT}/spin_handoff)
  # count++ is a load and a store on one line: each access is gated at its
  # instruction, and the read before the other's write loses an update
  racegate_e2e(triage_lost_count_output_differs 1
    "^1 +lost_count.c:19 \\(worker_[12]\\) +lost_count.c:19\\+2 \\(worker_[12]\\) +OUTPUT-DIFFERS "
    "^race 1: OUTPUT-DIFFERS: .* first against .* first: exit [01] against exit [01], stdout line 1 \"count = [12]\" against \"count = [12]\"$"
    "!HARMFUL"
    -- ${TRI} ${EX}/lost_count lost_count ${TRI_OUT}/lost_count)
  # with what a good run is, the order that loses the update is a bug
  racegate_e2e(triage_lost_count_expect_exit 1
    "^race 1: HARMFUL: lost_count.c:19 \\(worker_[12]\\) before lost_count.c:19\\+2 \\(worker_[12]\\): ended with exit 1, not 0 in 5 of 5 runs. the file reproduced 20 of 20$"
    "^replay race-1.yaml:$" "^racegate: 20 runs: 20 REPRODUCED$"
    -- ${TRI} ${EX}/lost_count lost_count ${TRI_OUT}/lost_count_exit - --expect-exit 0)
  racegate_e2e(triage_lost_count_expect_file 1
    "^race 1: HARMFUL: .*: did what --expect's bug says \\(exit 1\\) in 5 of 5 runs. the file reproduced 20 of 20$"
    "^racegate: 20 runs: 20 REPRODUCED$"
    -- ${TRI} ${EX}/lost_count lost_count ${TRI_OUT}/lost_count_file -
       --expect ${PROJECT_SOURCE_DIR}/examples/lost_count/gates.yaml)
  # the TSan build itself is no program to triage: it says so
  racegate_e2e(triage_sanitizer_build 2
    "^racegate: '.*lost_count-tsan' is a sanitizer's build \\(it needs libtsan[^)]*\\): triage the normal build"
    "!^race "
    -- ${RG} triage --tsan ${PROJECT_SOURCE_DIR}/tests/triage/tsan-gcc-O1-stale_conn.txt
       -- ${EX}/lost_count/lost_count-tsan)
  # a watcher that must see every stage a worker steps through: neither
  # forced order of the first step and the first poll fails (each holds
  # only the first arrival); the search between the two lines holds the
  # watcher past two steps.  Without the search the race looks benign.
  set(SW ${E2E_DIR}/stage_watch)
  racegate_e2e_program(stage_watch SOURCES stage_watch.c DIR ${SW})
  racegate_e2e_program(stage_watch_tsan SOURCES stage_watch.c DIR ${SW}
    OUTPUT stage_watch-tsan OPTIONS -O1 -g -fsanitize=thread
    LINK_OPTIONS -fsanitize=thread)
  racegate_e2e(triage_stage_watch_search 1
    "^1 +stage_watch.c:22 \\(worker\\) +stage_watch.c:34 \\(watcher\\) +HARMFUL +.*race-1.yaml$"
    "^race 1: HARMFUL: neither order fails, but a search with its accesses and the sync operations as the only points found a run killed by SIGABRT \\(schedule dev:[0-9.]+, after [0-9]+\\). the file reproduced 20 of 20$"
    "^racegate: 20 runs: 20 REPRODUCED$"
    -- ${TRI} ${SW} stage_watch ${TRI_OUT}/stage_watch)
  racegate_e2e(triage_stage_watch_no_search 0
    "^race 1: BENIGN: both orders end alike \\(5 and 5 runs\\)$" "!search"
    -- ${TRI} ${SW} stage_watch ${TRI_OUT}/stage_watch_0 - --search 0)
  if(RACEGATE_CXX_TSAN)
    # a race inside std::vector's push_back: forced at the program's call
    # (line 17), whole, the two orders end alike; the search also stops at
    # the library's lines TSan names, and loses an entry there.  Without
    # the search, the verdict says what it does not cover.
    set(VL ${E2E_DIR}/vec_log)
    racegate_e2e_program(vec_log SOURCES vec_log.cpp DIR ${VL})
    racegate_e2e_program(vec_log_tsan SOURCES vec_log.cpp DIR ${VL}
      OUTPUT vec_log-tsan OPTIONS -O1 -g -fsanitize=thread
      LINK_OPTIONS -fsanitize=thread)
    racegate_e2e(triage_vec_log_search_inside_library 1
      "^race 1: HARMFUL: neither order fails, but a search with its accesses and the sync operations as the only points found a run ending with exit 1 \\(schedule dev:[0-9.]+, after [0-9]+\\). the file reproduced 20 of 20$"
      "^racegate: 20 runs: 20 REPRODUCED$"
      -- ${TRI} ${VL} vec_log ${TRI_OUT}/vec_log)
    racegate_e2e(triage_vec_log_inside_library 0
      "^1 +vec_log.cpp:17 \\(worker_[12]\\) +vec_log.cpp:17 \\(worker_[12]\\) +BENIGN "
      "^race 1: BENIGN: both orders end alike .*. but the accesses are in library code \\([a-z_]+\\.(h|tcc):[0-9]+(, [a-z_]+\\.(h|tcc):[0-9]+)?\\) called from these lines: the orders held the calls whole"
      -- ${TRI} ${VL} vec_log ${TRI_OUT}/vec_log_0 - --search 0)
    racegate_e2e(triage_cxx_stock_harmful 1
      "^1 +cxx_stock.cpp:26 \\(lambda_[12]\\) +cxx_stock.cpp:27 \\(lambda_[12]\\) +HARMFUL +.*race-1.yaml$"
      "killed by SIGABRT in [1-5] of 5 runs. the file reproduced (20 of 20|[0-9]+ of 20, so a search .* the file reproduced 20 of 20)$"
      "^race 1 HARMFUL cxx_stock.cpp:26 main::\\{lambda\\(char const\\*\\)#1\\}#[12] cxx_stock.cpp:27 main::\\{lambda\\(char const\\*\\)#1\\}#[12] gates=race-1.yaml$"
      "^replay race-1.yaml:$" "^racegate: 20 runs: 20 REPRODUCED$"
      -- ${TRI} ${EX}/cxx_stock cxx_stock ${TRI_OUT}/cxx_stock)
  endif()
endif()

# A Helgrind report of tally, taken in the test, gives TSan's verdict; it
# names the write-write pair on line 32 as a race of its own.
find_program(VALGRIND valgrind)
if(VALGRIND)
  racegate_e2e(triage_helgrind_tally_output_differs 1
    "^race 1 OUTPUT-DIFFERS tally.c:(30|32) counter#[12] tally.c:32 counter#[12] gates=race-1-order-1.yaml,race-1-order-2.yaml$"
    "!HARMFUL" "!BENIGN" "!SINGLE-ORDER"
    -- ${TRI} ${EX}/tally tally ${TRI_OUT}/helgrind_tally helgrind)
  # A DRD report of tally, taken in the test: DRD shows only the second
  # counter's accesses (the first had finished, its stack gone); the other
  # side is the report's store on the same bytes.  TSan's verdict, and the
  # write-write pair on line 32 (as Helgrind's) after it.
  racegate_e2e(triage_drd_tally_output_differs 1
    "^1 +tally.c:30 \\(counter_[12]\\) +tally.c:32 \\(counter_[12]\\) +OUTPUT-DIFFERS "
    "^race 1: inferred: DRD did not show thread [23]'s access: taken to be the store at tally.c:32 "
    "^race 1 OUTPUT-DIFFERS tally.c:30 counter#[12] tally.c:32 counter#[12] gates=race-1-order-1.yaml,race-1-order-2.yaml$"
    "^race 1 seen drd.txt:[0-9]+ drd.txt:[0-9]+$"
    "^race 2 OUTPUT-DIFFERS tally.c:32 counter#[12] tally.c:32 counter#[12] gates=race-2-order-1.yaml,race-2-order-2.yaml$"
    "!HARMFUL" "!BENIGN" "!SINGLE-ORDER" "!not triaged" "!^race 3"
    -- ${TRI} ${EX}/tally tally ${TRI_OUT}/drd_tally drd)
  # DRD's report of stale_conn shows both sides of the check against the
  # clear (two conflicts naming each other's thread): TSan's race 1.
  racegate_e2e(triage_drd_stale_conn_harmful 1
    "^race 1 HARMFUL stale_conn.c:(49 closer stale_conn.c:33 sender|33 sender stale_conn.c:49 closer) gates=race-1.yaml$"
    "!inferred" "!not triaged"
    -- ${TRI} ${EX}/stale_conn stale_conn ${TRI_OUT}/drd_stale_conn drd)
  if(RACEGATE_HAVE_TSAN)
    # tally's TSan and Helgrind reports at once: TSan's read-write pair is
    # Helgrind's first race too, counted once under TSan's number; then
    # Helgrind's write-write pair.
    racegate_e2e(triage_tsan_helgrind_tally_once 1
      "^race 1 OUTPUT-DIFFERS tally.c:30 counter#(2 tally.c:32 counter#1|1 tally.c:32 counter#2) gates=race-1-order-1.yaml,race-1-order-2.yaml$"
      "^race 1 seen tsan.txt:[0-9]+ helgrind.txt:[0-9]+$"
      "^race 2 OUTPUT-DIFFERS tally.c:32 counter#[12] tally.c:32 counter#[12] gates=race-2-order-1.yaml,race-2-order-2.yaml$"
      "^race 2 seen helgrind.txt:[0-9]+$"
      "!^race 3" "!not triaged"
      -- ${TRI} ${EX}/tally tally ${TRI_OUT}/tsan_helgrind_tally tsan helgrind)
  endif()
endif()

# DRD's spin_handoff (a real report, kept): the consumer's read of the
# payload (line 42) conflicts with a producer that had finished, and no
# other access to those bytes is in the report: that race is not triaged,
# and says why; the flag's race is.
racegate_e2e(triage_drd_other_access_unknown 2
  "^racegate: race 2 \\(.*drd-spin_handoff.txt:[0-9]+\\): not triaged: DRD did not show the other access \\(thread 3's, its stack no longer available\\) and no other access the report shows on 0x[0-9a-f]+ conflicts with it: its second place is unknown$"
  "^race 1 BENIGN spin_handoff.c:31 producer spin_handoff.c:39 consumer "
  "^race 2 not triaged: "
  -- ${TRI} ${EX}/spin_handoff spin_handoff ${TRI_OUT}/drd_spin_handoff
  drd:${PROJECT_SOURCE_DIR}/tests/triage/drd-spin_handoff.txt)

# The normal build at -O2, the report of the -O1 TSan build.  stale_conn's
# places keep code of their own: TSan's verdicts.  tally's load, add and
# store become one read-modify-write instruction (line 31's): lines 30 and
# 32 have no code of their own and the lost update cannot be forced
# between instructions, so the race is not triaged, and says why (not a
# BENIGN that is not so).
if(RACEGATE_HAVE_TSAN)
  foreach(ex stale_conn tally)
    racegate_e2e_program(triage_${ex}_O2 SOURCES ${PROJECT_SOURCE_DIR}/examples/${ex}/${ex}.c
      OPTIONS -O2 -g OUTPUT ${ex}-O2)
  endforeach()
  racegate_e2e(triage_stale_conn_O2_harmful 1
    "^race 2 HARMFUL stale_conn.c:50 closer stale_conn.c:35 sender gates=race-2.yaml$"
    "^replay race-2.yaml:$" "^racegate: 20 runs: (1[0-9]|20) REPRODUCED"
    "!not triaged"
    -- ${TRI} ${E2E_DIR} stale_conn-O2 ${TRI_OUT}/stale_conn_O2 tsan=${EX}/stale_conn/stale_conn-tsan)
  racegate_e2e(triage_tally_O2_no_code_of_its_own 2
    "^racegate: race 1: tally.c:(30|32) has no code of its own in './tally-O2': its first instruction is tally.c:[0-9]+'s \\(an optimised build moved or merged it\\), so its order cannot be forced there$"
    "^race 1 not triaged: "
    "!BENIGN" "!OUTPUT-DIFFERS"
    -- ${TRI} ${E2E_DIR} tally-O2 ${TRI_OUT}/tally_O2 tsan=${EX}/tally/tally-tsan)
endif()

# Reports that cannot be triaged: setup errors naming what is wrong.
set(TD ${PROJECT_SOURCE_DIR}/tests/triage)
racegate_e2e(triage_bad_report 2 "^racegate: .*tsan-cut.txt:[0-9]+: " "!^race "
  -- ${TRI} ${EX}/stale_conn stale_conn ${TRI_OUT}/bad ${TD}/bad/tsan-cut.txt)
racegate_e2e(triage_report_of_another_program 2
  "^racegate: race 1: its places are not in './stale_conn': cannot resolve 'other.c:[0-9]+'"
  "^race 1 not triaged: race 1: its places are not in " "!^race +first" "!gates="
  -- ${TRI} ${EX}/stale_conn stale_conn ${TRI_OUT}/other ${TD}/tsan-gcc-O1-other.txt)
racegate_e2e(triage_expect_twice 2 "^racegate: --expect FILE says what a run must do; it goes with neither --expect-exit nor --expect-stdout"
  -- ${RG} triage --tsan ${TD}/bad/tsan-cut.txt --expect-exit 0 --expect x.yaml -- ${EX}/stale_conn/stale_conn)
racegate_e2e(triage_needs_report 2 "^racegate: triage needs a report \\(--tsan, --helgrind or --drd REPORT\\) and, after '--', the program"
  "^usage: racegate triage " -- ${RG} triage -- ${EX}/stale_conn/stale_conn)
racegate_e2e(triage_report_twice 2 "^racegate: --tsan is given twice: triage takes one report of each tool$"
  -- ${RG} triage --tsan a.txt --tsan b.txt -- ${EX}/stale_conn/stale_conn)

# Interrupted while race 2 holds a thread (triage_interrupt.sh): 128+N,
# race 1's verdict told and kept, race 2 said not triaged, nothing left;
# and while race 1's search (explore within triage) holds a thread.
# From the kept report: no TSan build needed.
foreach(c leader_int:leader:INT leader_term:leader:TERM group_int:group:INT
          search_term:search:TERM)
  string(REPLACE ":" ";" c "${c}")
  list(GET c 0 name)
  list(GET c 1 how)
  list(GET c 2 sig)
  add_test(NAME e2e_triage_interrupt_${name}
    COMMAND ${CMAKE_CURRENT_LIST_DIR}/triage_interrupt.sh ${RG} ${EX}/spin_handoff
            ${TD}/tsan-gcc-O1-spin_handoff.txt ${how} ${sig})
  set_tests_properties(e2e_triage_interrupt_${name} PROPERTIES LABELS e2e TIMEOUT 200)
endforeach()

# --expect-verdicts: one verdict a race, or a setup error before any run.
racegate_e2e(triage_expect_verdicts_count 2
  "^racegate: --expect-verdicts lists 1 verdict, '.*tsan-gcc-O1-spin_handoff.txt' has 2 races: one verdict a race, in the report's order$"
  "!^race " -- ${RG} triage --tsan ${TD}/tsan-gcc-O1-spin_handoff.txt
  --expect-verdicts BENIGN -- ${EX}/spin_handoff/spin_handoff)
racegate_e2e(triage_expect_verdicts_unknown 2
  "^racegate: --expect-verdicts: unknown verdict 'BENIN' \\(verdicts: HARMFUL, OUTPUT-DIFFERS, BENIGN, NOT-REACHED, SINGLE-ORDER\\)$"
  "^usage: racegate triage " -- ${RG} triage --tsan ${TD}/tsan-gcc-O1-spin_handoff.txt
  --expect-verdicts benign,BENIN -- ${EX}/spin_handoff/spin_handoff)
