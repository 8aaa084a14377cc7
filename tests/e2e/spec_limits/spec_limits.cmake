# Nesting (issue 11): libyaml's scanner is quadratic in the nesting depth;
# 500 KB of nested YAML kept `racegate check` busy for minutes.  racegate
# stops at the first node nested deeper than 64 levels, before libyaml builds
# anything deeper, and says where.  The files are written here, into the
# build tree (half a megabyte each, so not in the repository).  TIMEOUT
# catches the slowness: without the limit these take minutes each.
string(REPEAT "[" 250000 e2e_open)
string(REPEAT "]" 250000 e2e_close)
file(WRITE ${E2E_DIR}/deep_flow.yaml "version: 1\ngates: ${e2e_open}${e2e_close}\n")
string(REPEAT "{at: " 100000 e2e_open)
string(REPEAT "}" 100000 e2e_close)
file(WRITE ${E2E_DIR}/deep_map.yaml "version: 1\ngates: ${e2e_open}x${e2e_close}\n")
# block sequences, then flow collections inside them
string(REPEAT "- " 40 e2e_block)
string(REPEAT "{at: [" 80000 e2e_open)
file(WRITE ${E2E_DIR}/deep_mixed.yaml "version: 1\ngates:\n  - ${e2e_block}${e2e_open}\n")
unset(e2e_open)
unset(e2e_close)
unset(e2e_block)

set(e2e_deep "error: nesting deeper than 64 levels \\(the limit for a gates file\\)")
racegate_e2e(spec_deep_flow 2 "deep_flow.yaml:2:71: ${e2e_deep}"
  -- ${RG} check ${E2E_DIR}/deep_flow.yaml -- ${E2E_DIR}/hits)
racegate_e2e(spec_deep_map 2 "deep_map.yaml:2:323: ${e2e_deep}"
  -- ${RG} check ${E2E_DIR}/deep_map.yaml -- ${E2E_DIR}/hits)
racegate_e2e(spec_deep_mixed 2 "deep_mixed.yaml:3:151: ${e2e_deep}"
  -- ${RG} run ${E2E_DIR}/deep_mixed.yaml -- ${E2E_DIR}/hits)
set_tests_properties(e2e_spec_deep_flow e2e_spec_deep_map e2e_spec_deep_mixed
                     PROPERTIES TIMEOUT 30)
