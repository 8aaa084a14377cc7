/*
 * The register set of a stopped thread, for modules that keep one (tracer/,
 * and its callers that read a call's arguments): a value of the
 * architecture's own layout (arch_defs.h) read only through arch.h's
 * accessors, so no register name appears outside arch/.
 */
#ifndef RACEGATE_ARCH_REGS_H
#define RACEGATE_ARCH_REGS_H

#include "arch_defs.h"

typedef struct arch_regs arch_regs;

#endif
