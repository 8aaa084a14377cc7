# racegate attach against a hostile program (attach_hostile.sh says each
# case): signals to racegate while it lets the process go, racegate killed
# outright with a thread held, and a flood of queued real-time signals
# across short attaches.  The process must go on untraced with the very
# bytes of its files, or die of the SIGTRAP racegate(1) documents, never
# of SIGILL or SIGSEGV, and lose no signal.
racegate_e2e_program(attach_spin SOURCES attach_spin.c
  SPECS attach_spin_hold.yaml attach_spin_lone.yaml attach_spin_dead.yaml)
find_package(Python3 COMPONENTS Interpreter)
if(Python3_FOUND)
  foreach(mode signal1 signal2 signal3 pipe handler timeout kill9 kill9_dead
               rtsig_one rtsig_any)
    add_test(NAME e2e_attach_hostile_${mode}
             COMMAND ${CMAKE_CURRENT_LIST_DIR}/attach_hostile.sh
             ${RG} ${E2E_DIR}/attach_spin ${E2E_DIR}
             ${E2E_SRC}/tools ${mode})
    set_tests_properties(e2e_attach_hostile_${mode} PROPERTIES LABELS e2e
                         TIMEOUT 300 SKIP_RETURN_CODE 77)
  endforeach()
endif()
