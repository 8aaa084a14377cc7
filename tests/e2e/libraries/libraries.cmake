# Locations outside the executable's own code (issue 4): gates in shared
# objects (the project's own -g library, libc by its symbols, a module
# opened with dlopen) and FUNCTION:return.
racegate_e2e_program(plugin SOURCES plugin.c MODULE NO_THREADS OUTPUT e2e_plugin)
racegate_e2e_program(plugin_host SOURCES plugin_host.c LIBS ${CMAKE_DL_LIBS}
  SPECS plugin.yaml plugin_no_in.yaml)
racegate_e2e_program(lockorder SOURCES lockorder.c
  SPECS lockorder.yaml lockorder_typo.yaml lockorder_in.yaml)
racegate_e2e_program(returns SOURCES returns.c SPECS returns.yaml)
set(LEDGER ${EXAMPLES}/ledger)

# The project's own library, built -g: FILE:LINE gates in it, pending until
# it maps, then armed at this run's addresses (ASLR: a new place every run).
racegate_e2e(library_gate_check 0 "t1-write +at ledger.c:18"
  "0x[0-9a-f]+ +ledger.c:18 +in ledger_deposit +in '.*/libledger.so'"
  "!warning" -- ${RG} check ${LEDGER}/gates.yaml)
racegate_e2e(library_gate_reproduces 0 "balance = 100" "REPRODUCED"
  "t([12]) .*ledger.c:18 +t[12]-write +held: waiting for t[12]-read"
  "t[12] .*ledger.c:18 +t[12]-write +opened t[12]-read"
  "t[12] .*ledger.c:18 +t[12]-write +released after"
  -- ${RG} run ${LEDGER}/gates.yaml)
racegate_e2e(library_gate_20_of_20 0 "20 runs: 20 REPRODUCED$"
  -- ${RG} run --repeat 20 ${LEDGER}/gates.yaml)
racegate_e2e(library_gate_fixed 1 "balance = 200" "NOT-REPRODUCED" "!NOT-ENFORCED"
  "t2-write +opened t2-read"
  -- ${RG} run ${LEDGER}/gates.yaml -- ${LEDGER}/bank-fixed)

# libc, which has symbols but no debug information.
racegate_e2e(libc_symbol_order 0 "log: 2 1 2 1" "PASSED"
  "w2 .*pthread_mutex_unlock +w2-unlock-1 +opened w2-unlocked-1"
  "w1 .*pthread_mutex_unlock +w1-unlock-1 +opened w1-unlocked-1"
  "w2 .*pthread_mutex_unlock +w2-unlock-2 +opened w2-unlocked-2"
  -- ${RG} run ${E2E_DIR}/lockorder.yaml)
racegate_e2e(libc_symbol_check 0 "w1-lock-1 +at pthread_mutex_lock"
  "0x[0-9a-f]+ +pthread_mutex_lock +in '.*/libc.so.6'" "!warning"
  -- ${RG} check ${E2E_DIR}/lockorder.yaml)
racegate_e2e(libc_symbol_in 0 "log: 2" "PASSED" "w2-first +opened w2-here"
  -- ${RG} run ${E2E_DIR}/lockorder_in.yaml)
# A typo: an error from check and from run (exit 2, the program never
# starts), with the right name; in: naming a library the program is not
# linked with is pending (a dlopen later), with a warning.
racegate_e2e(library_symbol_typo_check 2
  "lockorder_typo.yaml:7:[0-9]+: error: cannot resolve 'pthread_mutex_lok': it is not in 'lockorder' nor in the libraries it is linked with \\(did you mean 'pthread_mutex_lock' in '.*libc.so.6'\\?\\). a gate in a library the program opens later \\(dlopen\\) says which with 'in: LIBRARY'"
  "lockorder_typo.yaml:9:[0-9]+: warning: gate 'wrong-lib': no library 'libcc.so' among those 'lockorder' is linked with: the gate stays pending"
  -- ${RG} check ${E2E_DIR}/lockorder_typo.yaml)
racegate_e2e(library_symbol_typo_run 2 "error: cannot resolve 'pthread_mutex_lok'"
  "!log:" "!NOT-ENFORCED" -- ${RG} run ${E2E_DIR}/lockorder_typo.yaml)

# A module opened with dlopen after the program started: its gates are
# armed when ld.so reports it (the rendezvous), before any thread calls it.
racegate_e2e(dlopen_plugin 0
  "warning: gate 'w1-write': no library 'libe2e_plugin.so' among those 'plugin_host' is linked with: the gate stays pending until that library is loaded"
  "count = 1" "REPRODUCED"
  "plugin.c:7 +w[12]-write +held: waiting for w[12]-read"
  "plugin.c:7 +w[12]-write +released after"
  -- ${RG} run ${E2E_DIR}/plugin.yaml)
# Without in:, the same location is an error before the program starts.
racegate_e2e(dlopen_plugin_no_in_check 2
  "plugin_no_in.yaml:9:[0-9]+: error: cannot resolve 'plugin.c:7': it is not in 'plugin_host' nor in the libraries it is linked with. .*'in: LIBRARY'"
  "!plugin_no_in.yaml:10.*error" -- ${RG} check ${E2E_DIR}/plugin_no_in.yaml)
racegate_e2e(dlopen_plugin_no_in_run 2 "error: cannot resolve 'plugin.c:7'"
  "!count =" "!REPRODUCED" -- ${RG} run ${E2E_DIR}/plugin_no_in.yaml)
# FUNCTION (a symbol) in the module, too.
racegate_e2e(dlopen_plugin_function 0 "REPRODUCED"
  "w1 .*plugin.c:6 +entered +opened w1-entered"
  "main .*plugin.c:12 +plugin_count +passed"
  -- ${RG} run ${E2E_DIR}/plugin.yaml)
racegate_e2e(dlopen_plugin_10_of_10 0 "10 runs: 10 REPRODUCED$"
  -- ${RG} run --repeat 10 ${E2E_DIR}/plugin.yaml)

# FUNCTION:return under recursion with two threads inside at once: w2's
# three returns all come before any of w1's, and there is no fourth.
racegate_e2e(function_return 0 "worker [12]: depth 2" "worker [12]: depth 2" "PASSED"
  "both-inside +held: at barrier"
  "w2 .*depth:return +w2-return +opened w2-returned"
  "w2 .*depth:return +w2-return +passed"
  "w2 .*depth:return +w2-return +passed"
  "w2 .*depth:return +w2-out +opened w2-out"
  "w1 .*depth:return +w1-return +(passed|released after)"
  "w1 .*depth:return +w1-return +passed"
  "w1 .*depth:return +w1-return +passed"
  "!fourth-return +passed" "!NOT-ENFORCED"
  -- ${RG} run ${E2E_DIR}/returns.yaml)
racegate_e2e(function_return_check 0 "w1-return +at depth:return"
  "0x[0-9a-f]+ +depth:return +in depth +\\(entry; arrives at each return\\)"
  -- ${RG} check ${E2E_DIR}/returns.yaml)
