/* placeholder: being written */
typedef int rg_placeholder_arch_x86_64;
