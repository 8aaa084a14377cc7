/* placeholder: being written */
typedef int rg_placeholder_gates;
