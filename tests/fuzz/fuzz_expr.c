/*
 * libFuzzer target for conditions: any bytes are parsed; what parses is
 * compiled against the fake scope of tests/expr_fake.c, and what compiles
 * is evaluated over its fake registers and memory.  No input may crash,
 * leak, hang (-timeout) or print; errors and faults must point into the
 * text.
 */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "expr.h"
#include "expr_fake.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	char *text = malloc(size + 1);
	const char *aliases[4];
	expr_error err;
	expr_fault fault;
	expr_code *c;
	fake_host fh;
	expr *e;
	int r;

	memcpy(text, data, size);
	text[size] = '\0';
	size = strlen(text);
	if (expr_parse(text, &e, &err)) {
		if (e || err.off > size || !err.msg[0])
			abort();
		free(text);
		return 0;
	}
	expr_thread_aliases(e, aliases, 4);
	if (expr_compile(e, &fake_env, &c, &err) == 0) {
		fake_host_init(&fh);
		memset(&fault, 0, sizeof(fault));
		r = expr_eval(c, &fh.h, &fault);
		if (r < -1 || r > 1 || (r == -1 && fault.off + fault.len > size))
			abort();
		expr_code_free(c);
	} else if (c || err.off > size || !err.msg[0]) {
		abort();
	}
	expr_free(e);
	free(text);
	return 0;
}
