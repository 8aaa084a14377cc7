# Locations in optimised code (issue 11): function-scoped regex anchors
# where several line rows share an address, and FUNCTION:return on a
# function that only exists inlined.
racegate_e2e_program(optlocs SOURCES optlocs.c OPTIONS -O1 -g
  SPECS optlocs.yaml optlocs_return.yaml)

# FUNCTION:/RE/ finds what FILE:/RE/ finds: the first statement at -O1, and
# the first statement of an inline-only function.
racegate_e2e(function_anchor_optimised 0 "balance = 1, tally = 1" "REPRODUCED"
  "optlocs.c:14 +deposit-read +held: at barrier"
  "optlocs.c:20 +count-read +held: at barrier"
  "!NOT-ENFORCED" -- ${RG} run ${E2E_DIR}/optlocs.yaml)
racegate_e2e(function_anchor_optimised_check 0
  "deposit-read +at deposit:/DEPOSIT: read/" "0x[0-9a-f]+ +optlocs.c:14 +in deposit"
  "count-read +at count:/COUNT: read/" "0x[0-9a-f]+ +optlocs.c:20 +in count"
  -- ${RG} check ${E2E_DIR}/optlocs.yaml)
# An inlined copy has no return address: refused by check, with the reason.
racegate_e2e(function_return_inline_only 2
  "error: cannot resolve 'count:return': 'count' is inlined \\(into worker\\), and an inlined copy has no return to stop at"
  "!cannot resolve 'deposit:return'" -- ${RG} check ${E2E_DIR}/optlocs_return.yaml)
