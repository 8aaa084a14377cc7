/*
 * libFuzzer target for the spec loader: any bytes go in; the loader must not
 * crash, leak (LeakSanitizer), hang (-timeout) or print.  Every diagnostic is
 * formatted, and a spec that loads is freed, so those paths are fuzzed too.
 */
#include <stdint.h>
#include <stdlib.h>

#include "spec.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	spec_diags d = SPEC_DIAGS_INIT;
	spec *s = NULL;
	size_t i;

	if (spec_load_string((const char *)data, size, "fuzz.yaml", "/fuzz", &s, &d) == 0) {
		if (!s || d.nerrors)
			abort();
		spec_free(s);
	} else if (s || !d.nerrors) {
		abort();
	}
	for (i = 0; i < d.n; i++)
		free(spec_diag_format(&d, i));
	spec_diags_release(&d);
	return 0;
}
