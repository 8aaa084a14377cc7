/*
 * C++ function names as the demangler prints them, read the same way by
 * every module that meets them (dwarf/ resolves them, gates/ labels
 * threads by them).
 */
#ifndef RACEGATE_CXXNAME_H
#define RACEGATE_CXXNAME_H

/*
 * Where the parameter list that ends a function's name starts ("(int)
 * const" of "ns::Q::get(int) const"), or NULL when it has none: not the
 * "(int)" of a local class's scope ("run(int)::{lambda()#1}"), nor the
 * "()" of "operator()", nor anything inside template arguments or a
 * lambda's braces.
 */
const char *rg_cxx_trailing_params(const char *name);

#endif
