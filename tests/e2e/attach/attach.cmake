# racegate attach PID GATES.yaml: a server started plainly is attached to,
# raced, and let go exactly as it was (attach.sh says each case).
racegate_e2e_program(attach_server SOURCES attach_server.c LIBS ${CMAKE_DL_LIBS})
# its "plugin" request opens libe2e_plugin.so (libraries.cmake)
add_dependencies(e2e_attach_server e2e_plugin)
racegate_e2e_program(churn SOURCES churn.c)
racegate_e2e_specs(attach_race.yaml attach_race_tid.yaml attach_hold.yaml
  attach_fork.yaml attach_churn.yaml attach_dlopen.yaml
  attach_fork_process.yaml)
find_package(Python3 COMPONENTS Interpreter)
if(Python3_FOUND)
  foreach(mode reproduce tid for interrupt exits fork eperm zombie kill9 churn stopped dlopen
               otheruser forkproc exec)
    set(prog attach_server)
    if(mode STREQUAL churn)
      set(prog churn)
    endif()
    add_test(NAME e2e_attach_${mode} COMMAND ${CMAKE_CURRENT_LIST_DIR}/attach.sh
             ${RG} ${E2E_DIR}/${prog} ${E2E_DIR}
             ${E2E_SRC}/tools ${mode})
    set_tests_properties(e2e_attach_${mode} PROPERTIES LABELS e2e TIMEOUT 300
                         SKIP_RETURN_CODE 77)
  endforeach()
  # the same with every hit on the trap path (attach puts jump pads too)
  foreach(mode reproduce tid interrupt fork dlopen churn)
    set(prog attach_server)
    if(mode STREQUAL churn)
      set(prog churn)
    endif()
    add_test(NAME e2e_attach_${mode}_nofastpath COMMAND ${CMAKE_CURRENT_LIST_DIR}/attach.sh
             ${RG} ${E2E_DIR}/${prog} ${E2E_DIR} ${E2E_SRC}/tools ${mode})
    set_tests_properties(e2e_attach_${mode}_nofastpath PROPERTIES LABELS e2e TIMEOUT 300
                         ENVIRONMENT RG_ATTACH_OPTS=--no-fastpath)
  endforeach()
endif()

# No such process; racegate itself; a thread rather than its process.
racegate_e2e(attach_no_such_process 2
  "^racegate: cannot attach to process 2147483647: no such process$"
  -- ${RG} attach 2147483647 ${E2E_DIR}/attach_race.yaml)
racegate_e2e(attach_itself 2 "^racegate: cannot attach to process [0-9]+: it is racegate itself$"
  -- sh -c "exec \"$0\" attach $$ \"$1\"" ${RG} ${E2E_DIR}/attach_race.yaml)
# What run takes and attach does not, said clearly.
racegate_e2e(attach_refuses_repeat 2
  "^racegate: --repeat does not apply to attach: a process is attached to once$"
  -- ${RG} attach --repeat 2 1 ${E2E_DIR}/attach_race.yaml)
# attach follows no fork
racegate_e2e(attach_refuses_follow_fork 2
  "^racegate: --follow-fork does not apply to attach: the children a process forks while attached run untraced$"
  -- ${RG} attach --follow-fork 1 ${E2E_DIR}/attach_race.yaml)
racegate_e2e(attach_refuses_command 2 "^racegate: attach runs no command"
  -- ${RG} attach 1 ${E2E_DIR}/attach_race.yaml -- /bin/true)
racegate_e2e(attach_needs_pid 2 "^racegate: attach takes a process id, then the gates file, not '.*attach_race.yaml'$"
  -- ${RG} attach ${E2E_DIR}/attach_race.yaml)
