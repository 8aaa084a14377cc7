# `racegate lines --vars` (issue 12): under each line, what a when: condition
# may name there -- the function's locals, parameters and statics with
# their types, and which are optimized out at that address (-O2).
foreach(o O0 O2)
  racegate_e2e_program(varsq_${o} SOURCES varsq.c OPTIONS -${o} -g NO_THREADS)
endforeach()

# -O0: the loop body sees the block's item first, then the function's
# locals, its parameters and its static; no global, nothing optimized out.
racegate_e2e(lines_vars_O0 0
  "^ +22 +produce +1 +.*q->items\\[q->len\\+\\+\\] = item;"
  "^ +local +item: int$" "^ +local +i: int$" "^ +local +sum: int$"
  "^ +param +q: struct queue \\*$" "^ +param +n: int$" "^ +static +rounds: int$"
  "^ +32 +main " "^ +local +q: struct queue$" "^ +param +argv: char \\*\\*$"
  "!^ +[a-z]+ +limit:" "!^ +[a-z]+ +produced:" "!optimized out"
  -- ${RG} lines varsq.c:13-35 --vars -- ${E2E_DIR}/varsq_O0)
# -O2: the same names, and some not there at some line's address.
racegate_e2e(lines_vars_O2 0 "^ +param +q: struct queue \\*" "optimized out here"
  "!^ +[a-z]+ +limit:" -- ${RG} lines varsq.c:13-35 --vars -- ${E2E_DIR}/varsq_O2)
# Without --vars, lines lists no variables.
racegate_e2e(lines_without_vars 0 "^ +22 +produce +1 " "!param " "!local "
  -- ${RG} lines varsq.c:13-35 -- ${E2E_DIR}/varsq_O0)

# C++: `this` is a parameter of its class's pointer type; a reference
# parameter is a reference; the class's static member is not listed.
racegate_e2e_program(varsq_cxx SOURCES varsq_cxx.cpp NO_THREADS)
racegate_e2e(lines_vars_cxx 0 "^ +15 +shop::Till::ring +1 "
  "^ +local +line: int$" "^ +param +this: shop::Till \\*$" "^ +param +price: int &$"
  "^ +param +qty: int$" "!^ +[a-z]+ +(shop::Till::)?opened:"
  -- ${RG} lines varsq_cxx.cpp:15-15 --vars -- ${E2E_DIR}/varsq_cxx)
