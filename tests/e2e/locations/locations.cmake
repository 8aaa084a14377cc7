# Locations beyond FILE:LINE: regex anchors that survive edits, instruction
# offsets, optimised builds, `racegate lines` (issue 4).
set(LX ${E2E_DIR}/locations)

# anchor.c, and a copy with 7 lines inserted at the top, built alike: the
# same spec must gate the same statements in both.  The copy keeps the
# file name (locations name files by suffix) in a folder of its own.
racegate_e2e_program(anchor SOURCES anchor.c DIR ${LX}
  SPECS anchor.yaml anchor_errors.yaml)
file(READ ${CMAKE_CURRENT_LIST_DIR}/anchor.c anchor_src)
file(WRITE ${LX}/shifted/anchor.c
  "/* inserted above the anchors */\n\n#include <stdlib.h>\n\n"
  "static int unused_padding(void) { return 0; }\n"
  "int (*keep_padding)(void) = unused_padding;\n\n"
  "${anchor_src}")
racegate_e2e_program(anchor_shifted SOURCES ${LX}/shifted/anchor.c OUTPUT anchor
  DIR ${LX}/shifted)

racegate_e2e(anchor_original 0 "seen = 0" "REPRODUCED"
  "anchor.c:22 +write +(held: waiting for read-done|passed)"
  -- ${RG} run ${LX}/anchor.yaml)
racegate_e2e(anchor_after_lines_inserted 0 "seen = 0" "REPRODUCED"
  "anchor.c:29 +write +(held: waiting for read-done|passed)"
  -- ${RG} run ${LX}/anchor.yaml -- ${LX}/shifted/anchor)
# The sources moved: --source-dir finds them (the shifted text, read for
# the original binary, puts the anchor 7 lines down, on no code).
racegate_e2e(anchor_source_dir 2
  "the matching line, anchor.c:29 'ready = 1.\t/\\* ANCHOR: write \\*/', has no code \\(nearest: 27, 30\\)"
  -- ${RG} check --source-dir ${LX}/shifted ${LX}/anchor.yaml)
racegate_e2e(anchor_errors 2
  "error: cannot resolve 'anchor.c:/ANCHOR/': /ANCHOR/ matches 2 lines: anchor.c:15 'seen = ready..*', anchor.c:22 'ready = 1..*' \\(an anchor must match exactly one\\)"
  "error: cannot resolve 'anchor.c:/NO SUCH TEXT/': no line of file 'anchor.c' matches /NO SUCH TEXT/"
  "error: cannot resolve 'anchor.c:/ANCHOR: read/\\+50': line 15 has [0-9]+ instructions in reader \\(\\+0 to \\+[0-9]+\\)"
  "error: cannot resolve 'anchor.c:/same spec/': the matching line, anchor.c:3 .*, has no code \\(nearest: 13\\)"
  -- ${RG} check ${LX}/anchor_errors.yaml)

# count++ on one line, split by an instruction offset (examples/lost_count).
racegate_e2e(lost_count_reproduces_100_of_100 0 "100 runs: 100 REPRODUCED$"
  -- ${RG} run --repeat 100 ${EXAMPLES}/lost_count/gates.yaml)
racegate_e2e(lost_count_timeline 0 "count = 1" "REPRODUCED"
  "lost_count.c:19 +both-loaded +held: at barrier"
  "both-loaded +released after"
  -- ${RG} run ${EXAMPLES}/lost_count/gates.yaml)
racegate_e2e(lost_count_fixed_no_window 2
  "cannot resolve 'lost_count.c:19\\+2': line 19 has 1 instruction in worker \\(\\+0 to \\+0\\)"
  -- ${RG} check ${EXAMPLES}/lost_count/gates.yaml -- ${EXAMPLES}/lost_count/lost_count-fixed)

# A race only the -O2 build has (examples/hoisted_count).
racegate_e2e(hoisted_count_O2_reproduces 0 "FAIL: expected matches" "REPRODUCED"
  "w1 +tid [0-9]+ +hoisted_count.c:26 +w1-in-loop +held: waiting for exited:w2"
  -- ${RG} run ${EXAMPLES}/hoisted_count/gates.yaml)
racegate_e2e(hoisted_count_O2_100_of_100 0 "100 runs: 100 REPRODUCED$"
  -- ${RG} run --repeat 100 ${EXAMPLES}/hoisted_count/gates.yaml)
racegate_e2e(hoisted_count_O0_not_reproduced 1 "NOT-REPRODUCED"
  "!NOT-ENFORCED" -- ${RG} run ${EXAMPLES}/hoisted_count/gates.yaml
  -- ${EXAMPLES}/hoisted_count/hoisted_count-O0)
racegate_e2e(hoisted_count_fixed_not_reproduced 1 "NOT-REPRODUCED"
  -- ${RG} run ${EXAMPLES}/hoisted_count/gates.yaml
  -- ${EXAMPLES}/hoisted_count/hoisted_count-fixed)

# racegate lines: the lines of a file gates can use, in order.
racegate_e2e(lines_lists_gateable_lines 0
  "lost_count.c$" "LINE +FUNCTION +BPS +SOURCE"
  "^ +17 +worker +1 +\\{" "^ +19 +worker +1[[:space:]]+count\\+\\+" "^ +20 +worker +1[[:space:]]+return NULL"
  "!^ +18 "
  -- ${RG} lines lost_count.c:15-21 -- ${EXAMPLES}/lost_count/lost_count)
racegate_e2e(lines_optimised_instances 0
  "^ +26 +worker +[0-9]+[[:space:]]+if \\(v\\[i\\] % 7 == 0\\)"
  -- ${RG} lines hoisted_count.c:20-30 -- ${EXAMPLES}/hoisted_count/hoisted_count)
racegate_e2e(lines_unknown_file 2 "no source file 'nosuch.c'"
  -- ${RG} lines nosuch.c -- ${EXAMPLES}/lost_count/lost_count)
