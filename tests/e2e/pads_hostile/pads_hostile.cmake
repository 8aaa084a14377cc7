# Issue 15's hostile tests: whatever a gate site is made of (today's int3,
# or a jump to a pad that decides pass-through hits in the thread), no hit
# is lost or doubled, the instructions at a site run as they would natively,
# and the program's text is its file's once racegate has let it go.  Every
# test runs twice: with the default (pads where safe) and --no-fastpath
# (every hit traps); both must give the same outcome and the same counts.
racegate_e2e_program(pads_passes SOURCES pads_passes.c)
racegate_e2e_program(pads_passes_O2 SOURCES pads_passes.c OPTIONS -O2 -g)
foreach(MODE call loop)
  if(MODE STREQUAL call)
    set(SITE "pass:/PASS-SITE/")
  else()
    set(SITE "worker:/LOOP-SITE/")
  endif()
  configure_file(${CMAKE_CURRENT_LIST_DIR}/pads_passes.yaml.in
                 ${E2E_DIR}/pads_passes_${MODE}.yaml @ONLY)
endforeach()
foreach(MODE signal alarm)
  configure_file(${CMAKE_CURRENT_LIST_DIR}/pads_signals.yaml.in
                 ${E2E_DIR}/pads_signals_${MODE}.yaml @ONLY)
endforeach()
racegate_e2e_specs(pads_serial.yaml pads_many.yaml pads_bind.yaml
  pads_longjmp.yaml pads_exit.yaml)

set(PADS_HOSTILE ${CMAKE_CURRENT_LIST_DIR}/pads_hostile.sh)
# pads_e2e(NAME ARGS...): one test per fast-path setting, NAME_default and
# NAME_nofastpath; @FP@ in ARGS stands for the option (nothing, or
# --no-fastpath).
function(pads_e2e name)
  foreach(fp default nofastpath)
    set(opt "")
    if(fp STREQUAL nofastpath)
      set(opt --no-fastpath)
    endif()
    set(args)
    foreach(a ${ARGN})
      if(a STREQUAL "@FP@")
        list(APPEND args ${opt})
      else()
        list(APPEND args "${a}")
      endif()
    endforeach()
    add_test(NAME e2e_pads_${name}_${fp} COMMAND ${args})
    set_tests_properties(e2e_pads_${name}_${fp} PROPERTIES LABELS "e2e;pads" TIMEOUT 300)
  endforeach()
endfunction()

# 8 threads x 100,000 passes; the site is the first line of a function, or
# the jump target of a loop; at -O0 and -O2.  The one extra hit is main's
# at the end.
set(PASS_COUNTS w1-first=1 w3-mid=1 w8-last=1 each-last=8 once-77777=1 doubled=0)
foreach(MODE call loop)
  pads_e2e(passes_${MODE}_O0 ${PADS_HOSTILE} 1 ${PASS_COUNTS} --
    ${RG} run @FP@ ${E2E_DIR}/pads_passes_${MODE}.yaml)
  pads_e2e(passes_${MODE}_O2 ${PADS_HOSTILE} 1 ${PASS_COUNTS} --
    ${RG} run @FP@ ${E2E_DIR}/pads_passes_${MODE}.yaml -- ${E2E_DIR}/pads_passes_O2 ${MODE} 8 100000)
endforeach()
# The same with signals in a tight loop whose handler passes the site.
set(SIG_COUNTS w2-last=1 each-5000=8 once-3333=1 live=0)
foreach(MODE signal alarm)
  pads_e2e(${MODE}_O0 ${PADS_HOSTILE} 1 ${SIG_COUNTS} --
    ${RG} run @FP@ ${E2E_DIR}/pads_signals_${MODE}.yaml)
endforeach()
pads_e2e(signal_O2 ${PADS_HOSTILE} 1 ${SIG_COUNTS} --
  ${RG} run @FP@ ${E2E_DIR}/pads_signals_signal.yaml -- ${E2E_DIR}/pads_passes_O2 signal 8 20000)
# Handlers that siglongjmp out of the site, or end their thread inside it
# (a raw exit system call), wherever the signal caught it.
pads_e2e(longjmp ${PADS_HOSTILE} 1 w2-1000=1 each-5000=8 live=0 --
  ${RG} run @FP@ ${E2E_DIR}/pads_longjmp.yaml)
pads_e2e(exit ${PADS_HOSTILE} 1 each-20000=9 main-first=1 main-last=1 main-more=0 --
  ${RG} run @FP@ ${E2E_DIR}/pads_exit.yaml)
# Threads one after another, reusing one stack and thread pointer: counts
# start from 0 for each; 300 threads at once; an alias bound to a thread
# that passed the site already (the bind site is the second extra hit).
pads_e2e(serial ${PADS_HOSTILE} 1 w1-last=1 w5-first=1 w8-mid=1 each-last=8 doubled=0 --
  ${RG} run @FP@ ${E2E_DIR}/pads_serial.yaml)
pads_e2e(many ${PADS_HOSTILE} 1 w1-last=1 w300-mid=1 each-last=300 doubled=0 --
  ${RG} run @FP@ ${E2E_DIR}/pads_many.yaml)
pads_e2e(bind ${PADS_HOSTILE} 2 bind=1 late-7500=1 late-2500=0 others-last=7 doubled=0 --
  ${RG} run @FP@ ${E2E_DIR}/pads_bind.yaml)
# A thread that borrows main's thread pointer (arch_prctl ARCH_SET_FS, as a
# user-level thread runtime does): its hits stay its own.
racegate_e2e_program(pads_setfs SOURCES pads_setfs.c SPECS pads_setfs.yaml)
pads_e2e(setfs ${PADS_HOSTILE} 1 main-mid=1 main-last=1 w-borrowed=1 w-last=1 main-more=0 --
  ${RG} run @FP@ ${E2E_DIR}/pads_setfs.yaml)
# A gated load that faults, and a SIGSEGV handler that accepts the fault
# only at the load's own address (implicit null checks): wherever the load
# runs, the program sees the fault where the load is in its code.
racegate_e2e_program(pads_fault SOURCES pads_fault.c NO_THREADS
  SPECS pads_fault.yaml)
pads_e2e(fault ${PADS_HOSTILE} 1 thousandth=1 live=0 --
  ${RG} run @FP@ ${E2E_DIR}/pads_fault.yaml)

# Sites whose first instruction is a RIP-relative load, a call, a jcc rel8,
# a rep movsb, a one-byte nop before a loop's jump target, a red-zone leaf's
# line; pads_insns.sh first checks (-O0) that each site starts with the
# instruction it is meant for.
foreach(opt O0 O2)
  racegate_e2e_program(pads_insns_${opt} SOURCES pads_insns.c OPTIONS -${opt} -g)
endforeach()
racegate_e2e_specs(pads_insns.yaml)
set(PADS_INSNS ${CMAKE_CURRENT_LIST_DIR}/pads_insns.sh)
pads_e2e(insns_O0 ${PADS_INSNS} ${PADS_HOSTILE} ${RG} ${E2E_DIR}/pads_insns.yaml
  ${E2E_DIR}/pads_insns_O0 --padded call,jcc @FP@)
pads_e2e(insns_O2 ${PADS_INSNS} ${PADS_HOSTILE} ${RG} ${E2E_DIR}/pads_insns.yaml
  ${E2E_DIR}/pads_insns_O2 --any @FP@)

# Sites shorter than a pad's jump whose next bytes no pad may take: a
# 2-byte jmp before a loop's jump target, a nop before a `loop`, an -O0
# function's `}` (and the next function's `{`, whose jump those bytes then
# are).  The jump ends in those bytes, kept as they are, and each site gets
# a pad (the -O0 build: `}` has no line of its own at -O2).
racegate_e2e_program(pads_short SOURCES pads_short.c OUTPUT pads_short_O0
  SPECS pads_short.yaml)
pads_e2e(short ${PADS_INSNS} ${PADS_HOSTILE} ${RG} ${E2E_DIR}/pads_short.yaml
  ${E2E_DIR}/pads_short_O0 --padded shortjmp,nopnever,brace,bracenext @FP@)

# Two threads with one thread pointer: a clone(2) thread without its own
# TLS keeps main's fs base; hits stay per thread.
racegate_e2e_program(pads_rawtls SOURCES pads_rawtls.c NO_THREADS
  SPECS pads_rawtls.yaml)
pads_e2e(rawtls ${PADS_HOSTILE} 1 main-mid=1 main-last=1 each-last=2 doubled=0 --
  ${RG} run @FP@ ${E2E_DIR}/pads_rawtls.yaml)

# Text integrity: the program checks that its code is its files' once
# racegate has let it go: children forked (and exec'd) while the site is
# armed, a clone(CLONE_VM) child that outlives the run, after attach --for, after --keep-stopped, and what racegate killed
# with SIGKILL leaves (attach: its int3, and a SIGTRAP at the next pass;
# run: the program dies with racegate).
racegate_e2e_program(pads_text SOURCES pads_text.c
  SPECS pads_text_serve.yaml pads_text_keep.yaml pads_text_fork.yaml
        pads_text_storm.yaml pads_text_outlive.yaml)
foreach(mode fork storm outlive attach keep kill9 runkill9)
  pads_e2e(text_${mode} ${CMAKE_CURRENT_LIST_DIR}/pads_text.sh ${RG}
    ${E2E_DIR}/pads_text ${E2E_DIR} ${mode} @FP@)
endforeach()

# A site that is a call whose callee throws: the unwinder finds the
# caller's handler from the return address the pad stored.  --verbose says
# the call got its pad (the default run).
enable_language(CXX)
foreach(opt O0 O2)
  racegate_e2e_program(pads_throw_${opt} SOURCES pads_throw.cpp OPTIONS -${opt} -g)
  pads_e2e(throw_${opt} ${EXPECT} 0 "ok 8000 caught 4000" "PASSED" --
    ${RG} run --verbose @FP@ ${E2E_DIR}/pads_throw.yaml -- ${E2E_DIR}/pads_throw_${opt} 3000)
endforeach()
racegate_e2e_specs(pads_throw.yaml)
racegate_e2e(pads_throw_site_has_pad 0 "gate 'live' at pads_throw.cpp:/THROW-SITE/: pad$"
  "PASSED" -- ${RG} run --verbose ${E2E_DIR}/pads_throw.yaml)
