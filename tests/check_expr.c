/*
 * expr: conditions parsed, type-checked and compiled against a hand-made
 * scope (expr_fake.c), and evaluated over fake registers and memory.
 * Tables give the exact message and offset of every error, and the value
 * of every condition.
 */
#include <check.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "expr.h"
#include "expr_fake.h"
#include "msg.h"

/* ---- syntax ---- */

static const struct { const char *text; size_t off; const char *msg; } parse_errors[] = {
	{"", 0, "the condition is empty"},
	{"x ==", 4, "expected a value at the end"},
	{"x = 1", 2, "'=' is assignment; compare with '=='"},
	{"a ? b : c", 2, "'?:' is not supported; combine conditions with && and ||"},
	{"a, b", 1, "',' is not supported; combine conditions with && and ||"},
	{"x++ > 1", 1, "'++' changes the program; conditions only read"},
	{"--x", 0, "'--' changes the program; conditions only read"},
	{"f(x)", 1, "unexpected '('"},
	{"1.5 < x", 0, "only integers are supported, not floating point"},
	{"x < 1e3", 4, "only integers are supported, not floating point"},
	{"p->", 3, "expected a member name"},
	{"p. 3", 3, "expected a member name"},
	{"(a > 1", 6, "missing ')'"},
	{"a[1", 3, "missing ']'"},
	{"\"s\" == x", 0, "strings are not supported"},
	{"c == 'ab'", 5, "bad character constant"},
	{"c == ''", 5, "bad character constant"},
	{"c == '\\q'", 6, "unknown escape '\\q'"},
	{"c == 'a", 5, "bad character constant"},
	{"0x", 0, "bad number"},
	{"12abc", 0, "bad number"},
	{"08", 0, "bad number"},
	{"99999999999999999999", 0, "number too large for 64 bits"},
	{"$foo > 1", 0, "unknown variable '$foo' (there are $hit, $tid, $thread and $streq)"},
	{"$thread > 1", 0, "'$thread' is only compared with a thread alias: '$thread == ALIAS' or '$thread != ALIAS'"},
	{"$thread == 3", 11, "'$thread' is only compared with a thread alias: '$thread == ALIAS' or '$thread != ALIAS'"},
	{"$streq(p, x)", 10, "$streq takes a char pointer and a string: $streq(p, \"text\")"},
	{"$streq(p)", 8, "$streq takes a char pointer and a string: $streq(p, \"text\")"},
	{"$streq(p, \"a\"", 13, "missing ')'"},
	{"$streq(p, \"a)", 10, "unterminated string"},
	{"(int)", 5, "expected a value at the end"},
	{"int", 0, "unexpected 'int'"},
	{"a::", 3, "expected a value at the end"},
	{"x == 1 y", 7, "unexpected 'y'"},
	{"@", 0, "unexpected '@'"},
	{"(const)x", 6, "expected a type name"},
};

START_TEST(test_parse_errors)
{
	expr_error err;
	expr *e = (expr *)1;

	memset(&err, 0, sizeof(err));
	ck_assert_msg(expr_parse(parse_errors[_i].text, &e, &err) == -1, "%s parsed",
		      parse_errors[_i].text);
	ck_assert_ptr_null(e);
	ck_assert_str_eq(err.msg, parse_errors[_i].msg);
	ck_assert_msg(err.off == parse_errors[_i].off, "'%s': offset %zu, not %zu",
		      parse_errors[_i].text, err.off, parse_errors[_i].off);
}
END_TEST

/* Inputs that would recurse or run long in a naive parser. */
START_TEST(test_parse_limits)
{
	char *s = xmalloc(20000);
	expr_error err;
	expr *e;
	size_t i;

	for (i = 0; i < 5000; i++)
		s[i] = '(';
	strcpy(s + i, "x");
	ck_assert_int_eq(expr_parse(s, &e, &err), -1);
	ck_assert_str_eq(err.msg, "the condition is longer than 4096 bytes");
	s[300] = 'x';
	s[301] = '\0';
	ck_assert_int_eq(expr_parse(s, &e, &err), -1);
	ck_assert_str_eq(err.msg, "the condition is nested too deeply");
	for (i = 0; i < 300; i++)
		s[i] = '!';
	ck_assert_int_eq(expr_parse(s, &e, &err), -1);
	ck_assert_str_eq(err.msg, "the condition is nested too deeply");
	for (i = 0; i < 2000; i += 2)
		memcpy(s + i, "1+", 2);
	strcpy(s + i, "1");
	ck_assert_int_eq(expr_parse(s, &e, &err), -1);
	ck_assert_str_eq(err.msg, "the condition is nested too deeply");
	/* a long but flat condition is fine */
	ck_assert_int_eq(expr_parse("a == 1 || a == 2 || a == 3 || a == 4 || a == 5", &e, &err), 0);
	expr_free(e);
	free(s);
}
END_TEST

START_TEST(test_parse_ok)
{
	static const char *const ok[] = {
		"p->n[2] == 3 && !(*q & 0x10) || $hit >= 2 || c == '\\n'",
		"(struct queue *)p != NULL", "(unsigned long)x", "(uint32_t)(-x)",
		"sizeof(struct queue) + sizeof q + sizeof(int *)", "ns::count > ::g",
		"Color::RED == c", "$streq(name, \"a\\tb\\x41\\101\")", "this->state == 1",
		"~x & 0xffUL", "10ULL / 3lu % 2u", "(a) - b", "'\\0' == 0",
	};
	expr_error err;
	expr *e;
	size_t i;

	for (i = 0; i < sizeof(ok) / sizeof(ok[0]); i++) {
		ck_assert_msg(expr_parse(ok[i], &e, &err) == 0, "%s: %s", ok[i], err.msg);
		ck_assert_str_eq(expr_text(e), ok[i]);
		expr_free(e);
	}
}
END_TEST

START_TEST(test_thread_aliases)
{
	const char *names[4];
	expr_error err;
	expr *e;

	ck_assert_int_eq(expr_parse("$thread == w1 || $thread != w2 && x", &e, &err), 0);
	ck_assert_uint_eq(expr_thread_aliases(e, names, 4), 2);
	ck_assert_str_eq(names[0], "w1");
	ck_assert_str_eq(names[1], "w2");
	ck_assert_uint_eq(expr_thread_aliases(e, names, 1), 2);
	expr_free(e);
}
END_TEST

/* ---- types ---- */

static const struct { const char *text; size_t off; const char *msg; } type_errors[] = {
	{"qlen > 0", 0, "'qlen' is not visible at queue.c:40; visible there: q, item, n"},
	{"q->lenght == 1", 3, "'struct queue' has no member 'lenght'; did you mean 'length'?"},
	{"q->zzzzzz == 1", 3, "'struct queue' has no member 'zzzzzz'"},
	{"s.lenth == 1", 2, "'struct queue' has no member 'lenth'; did you mean 'length'?"},
	{"q->head == 1", 8, "cannot compare 'struct node *' with 'int'"},
	{"q == q->head", 2, "cannot compare 'struct queue *' with 'struct node *'"},
	{"opt == 1", 0, "'opt' is optimized out at queue.c:40"},
	{"n->x", 1, "'->' on 'int', which is not a pointer to a struct"},
	{"s->length", 1, "'->' on 'struct queue', which is not a pointer to a struct"},
	{"q.length", 1, "'.' on a pointer: use '->'"},
	{"n.length", 1, "'.' on 'int', which is not a struct"},
	{"*n", 0, "cannot dereference 'int'"},
	{"*(void *)q", 0, "cannot dereference 'void *'"},
	{"(n)1", 1, "'n' is not a type"},
	{"(strcut queue *)q", 1, "unknown type 'strcut queue'"},
	{"sizeof(struct)", 7, "unknown type 'struct'"},
	{"sizeof(struct nowhere)", 7, "unknown type 'struct nowhere'"},
	{"ratio > 1", 0, "floating-point values are not supported: 'ratio' is 'double'"},
	{"q->ratio", 0, "floating-point values are not supported: 'q->ratio' is 'double'"},
	{"(double)n", 0, "cannot cast to 'double': only integer, enum and pointer types"},
	{"(struct queue)n", 0, "cannot cast to 'struct queue': only integer, enum and pointer types"},
	{"(int)s", 0, "cannot cast 'struct queue' to 'int'"},
	{"&n == 0", 0, "'&' needs a variable in memory: 'n' is in a register here"},
	{"&c == 0", 0, "'&' needs a variable in memory: 'c' is not stored anywhere here"},
	{"&q->flags == 0", 0, "'&' needs a variable in memory: 'q->flags' is a bitfield"},
	{"&(n + 1)", 0, "'&' needs a variable in memory: '(n + 1)' is not stored anywhere here"},
	{"$streq(n, \"x\")", 7, "$streq needs a char pointer or array, not 'int'"},
	{"$streq(arr, \"x\")", 7, "$streq needs a char pointer or array, not 'int [4]'"},
	{"total == 1", 0, "'total' cannot be read here: thread-local storage"},
	{"q->head + q", 8, "'+' cannot take 'struct node *' and 'struct queue *'"},
	{"q * 2", 2, "'*' cannot take 'struct queue *' and 'int'"},
	{"q & 1", 2, "'&' needs integer operands, not 'struct queue *'"},
	{"1 << q", 2, "'<<' needs integer operands, not 'struct queue *'"},
	{"-q", 0, "'-' needs integer operands, not 'struct queue *'"},
	{"s", 0, "'s' is 'struct queue', not a number or a pointer"},
	{"s == 1", 0, "'s' is 'struct queue', not a number or a pointer"},
	{"n[1]", 0, "cannot index 'int'"},
	{"opq->x", 5, "'struct opaque' is only declared here: its members are unknown"},
	{"opq + 1", 0, "the size of 'struct opaque' is unknown"},
	{"this->nope", 6, "'struct Queue' has no member 'nope'"},
	{"under == 1", 0, "'under' has a location racegate cannot read"},
	{"two == 1", 0, "'two' has a location racegate cannot read"},
	{"deref3 == 1", 0, "'deref3' has a location racegate cannot read"},
	{"unknown == 1", 0, "'unknown' has a location racegate cannot read"},
	{"deep == 1", 0, "the condition is too complex to compile"},
	{"half == 1", 0, "'half' is optimized out at queue.c:40"},
	{"bigreg.a == 1", 0, "'bigreg' is 'struct big' (24 bytes): it is neither a number nor in memory here"},
	{"&pair", 0, "'&' needs a variable in memory: 'pair' is in a register here"},
	{"pair == 1", 0, "'pair' is 'struct pair', not a number or a pointer"},
	{"wide == 1", 0, "'wide' is 'struct wide', not a number or a pointer"},
	{"wide.mid == 1", 0, "'wide.mid' is split between registers here"},
	{"wmem.a == 1", 0, "'wmem.a' is optimized out at queue.c:40"},
	{"&wide.lo", 0, "'&' needs a variable in memory: 'wide.lo' is in a register here"},
	{"Queue::x", 0, "'Queue::x' is not visible at queue.c:40; visible there: q, item, n"},
};

START_TEST(test_type_errors)
{
	expr_error err;
	expr_code *c = (expr_code *)1;
	expr *e;

	ck_assert_msg(expr_parse(type_errors[_i].text, &e, &err) == 0, "%s: %s",
		      type_errors[_i].text, err.msg);
	memset(&err, 0, sizeof(err));
	ck_assert_msg(expr_compile(e, &fake_env, &c, &err) == -1, "%s compiled",
		      type_errors[_i].text);
	ck_assert_ptr_null(c);
	ck_assert_str_eq(err.msg, type_errors[_i].msg);
	ck_assert_msg(err.off == type_errors[_i].off, "'%s': offset %zu, not %zu",
		      type_errors[_i].text, err.off, type_errors[_i].off);
	expr_free(e);
}
END_TEST

/* ---- evaluation ---- */

static int eval(const char *text, fake_host *fh, expr_fault *f)
{
	expr_error err;
	expr_code *c;
	expr *e;
	int r;

	ck_assert_msg(expr_parse(text, &e, &err) == 0, "%s: %s", text, err.msg);
	ck_assert_msg(expr_compile(e, &fake_env, &c, &err) == 0, "%s: %s at %zu", text,
		      err.msg, err.off);
	fake_host_init(fh);
	r = expr_eval(c, &fh->h, f);
	expr_code_free(c);
	expr_free(e);
	return r;
}

static const struct { const char *text; int want; } values[] = {
	{"item == 5", 1}, {"item == 6", 0}, {"n == 7", 1}, {"c == 42", 1},
	{"q->length == 3", 1}, {"q->length == 4", 0}, {"q->cap == 8u", 1},
	{"q->head->value == 11", 1}, {"q->head->next == 0", 1}, {"q->head->next == NULL", 1},
	{"q->head->next != 0 && q->head->next->value == 1", 0},
	{"q->head->next == 0 || q->head->next->value == 1", 1},
	{"arr[2] == 30", 1}, {"*(arr + 3) == 40", 1}, {"2[arr] == 30", 1},
	{"&arr[3] - &arr[1] == 2", 1}, {"(char *)&arr[1] - (char *)arr == 4", 1},
	{"(unsigned char)255 + 1 == 256", 1}, {"-1 < 0u", 0}, {"-1 < 0", 1},
	{"-1 < 0ul", 0}, {"-1L < 0u", 1}, {"uc + 1 == 256", 1}, {"neg < 0u", 0},
	{"neg < 0", 1}, {"big == -1", 1}, {"big > 0", 1}, {"sh == -2", 1},
	{"(unsigned short)sh == 65534", 1}, {"(long)neg == -1", 1},
	{"(unsigned)neg == 4294967295", 1}, {"(uint32_t)neg == 0xffffffff", 1},
	{"(_Bool)item == 1", 1}, {"(char)300 == 44", 1}, {"(signed char)200 == -56", 1},
	{"q->flags == 5", 1}, {"q->state == -3", 1}, {"s.flags == 5 && s.state < 0", 1},
	{"q->col == BLUE", 1}, {"q->col == 2", 1}, {"(enum color)1 == GREEN", 1},
	{"q->u_i == 77", 1}, {"q->u_u == 77u", 1},
	{"$streq(q->name, \"work\")", 1}, {"$streq(q->name, \"wor\")", 0},
	{"$streq(q->name, \"works\")", 0}, {"$streq(strp, \"hello\")", 1},
	{"$streq(strp, \"hello!\")", 0}, {"$streq(strp, \"\")", 0}, {"$streq(s.name, \"work\")", 1},
	{"$streq(edge, \"ab\")", 0}, {"$streq(edge, \"abd\")", 0}, {"$streq(edge, \"ax\")", 0},
	{"$hit == 3", 1}, {"$tid == 4242", 1}, {"$thread == w1", 1}, {"$thread != w1", 0},
	{"$thread == w2", 0}, {"$thread != w2 && item == 5", 1},
	{"10 / (item - 5) == 0", 0}, {"!(10 % (item - 5))", 0}, {"10 / (item - 4) == 10", 1},
	{"(-2147483647 - 1) / -1 == -2147483647 - 1", 1},
	{"base_id == 9 && state == 4", 1}, {"this->state == 4", 1}, {"this->base_id == 9", 1},
	{"(*this).state == 4", 1}, {"g2 == 123", 1}, {"ref == 5", 1}, {"ref + 1 == 6", 1},
	{"sizeof(struct queue) == 64", 1}, {"sizeof q->name == 16", 1}, {"sizeof(int) == 4", 1},
	{"sizeof(q) == 8", 1}, {"sizeof(uint32_t) == 4", 1}, {"sizeof arr == 16", 1},
	{"sizeof(unsigned long long) == 8", 1}, {"sizeof(char *) == 8", 1},
	{"sizeof(nilp->next->value) == 4", 1},
	{"0x10 == 16 && 010 == 8 && 0b101 == 5 && 'a' == 97 && '\\n' == 10 && '\\x41' == 65", 1},
	{"q->length * 2 + 1 == 7", 1}, {"7 % 3 == 1", 1}, {"-7 % 3 == -1", 1}, {"-7 / 2 == -3", 1},
	{"1 << 4 == 16", 1}, {"-16 >> 2 == -4", 1}, {"0xffffffffu >> 28 == 15", 1},
	{"1 << 32 == 0", 1}, {"1L << 32 == 4294967296", 1}, {"~0 == -1", 1}, {"~0u == 4294967295", 1},
	{"(item & 4) && !(item & 2)", 1}, {"(item | 2) == 7 && (item ^ 1) == 4", 1},
	{"2147483647 + 1 < 0", 1}, {"4294967295u + 1 == 0", 1},
	{"q != 0", 1}, {"q", 1}, {"nilp", 0}, {"!nilp", 1}, {"nilp == (struct node *)0", 1},
	{"q->head > (struct node *)q", 1}, {"(void *)q == q", 1}, {"(unsigned long)q == 0x5000", 1},
	{"*(int *)0x1000 == 5", 1}, {"((struct queue *)0x5000)->length == 3", 1},
	{"*&item == 5", 1}, {"&*q == q", 1}, {"q + 1 == (struct queue *)0x5040", 1},
	{"true && !false", 1}, {"split == 65543", 1}, {"pair.a == 3 && pair.b == 5", 1},
	{"divz == 0 || 1", 0},
	{"wide.a == (long)0xdead000000000007", 1}, {"wide.lo == 7 && wide.hi == -2", 1},
	{"wide.bits == 10", 1}, {"wmem.lo == 10 && wmem.hi == 0 && wmem.bits == 1", 1}, {"sizeof wide == 16", 1}, {"RED < BLUE", 1}, {"-item == -5", 1}, {"+uc == 255", 1},
};

START_TEST(test_values)
{
	fake_host fh;
	expr_fault f;

	ck_assert_msg(eval(values[_i].text, &fh, &f) == values[_i].want, "%s is not %d",
		      values[_i].text, values[_i].want);
}
END_TEST

START_TEST(test_faults)
{
	static const struct { const char *text, *span; uint64_t addr; } faults[] = {
		{"q->head->next->value == 1", "q->head->next->value", 0},
		{"nilp->value", "nilp->value", 0},
		{"item == 5 && *(int *)0x9999 > 0", "*(int *)0x9999", 0x9999},
		{"$streq((char *)0x4000, \"x\")", "(char *)0x4000", 0x4000},
		{"$streq(edge, \"abc\")", "edge", 0x2000},
		{"farreg == 1", "farreg", 0},
		{"arr[2000] == 0", "arr[2000]", 0x1010 + 8000},
	};
	fake_host fh;
	expr_fault f;
	size_t i;
	const char *t;

	for (i = 0; i < sizeof(faults) / sizeof(faults[0]); i++) {
		t = faults[i].text;
		memset(&f, 0, sizeof(f));
		ck_assert_msg(eval(t, &fh, &f) == -1, "%s did not fault", t);
		ck_assert_msg(f.len == strlen(faults[i].span) &&
			      !strncmp(t + f.off, faults[i].span, f.len),
			      "%s: fault at '%.*s'", t, (int)f.len, t + f.off);
		ck_assert_uint_eq(f.addr, faults[i].addr);
	}
}
END_TEST

/* Roots (addresses from registers and constants) come in one read; the rest one by one. */
START_TEST(test_batch)
{
	fake_host fh;
	expr_fault f;

	ck_assert_int_eq(eval("item == 5 && n == 7 && arr[1] == 20 && g2 == 123 && q != 0", &fh, &f), 1);
	ck_assert_uint_eq(fh.calls, 1);
	ck_assert_uint_eq(fh.first_batch, 4);   /* item, arr[1], g2, q */
	ck_assert_int_eq(eval("q->length == 3 && q->cap == 8 && item == 5", &fh, &f), 1);
	ck_assert_uint_eq(fh.first_batch, 2);   /* q, item */
	ck_assert_uint_eq(fh.calls, 3);         /* then q->length, q->cap */
	/* the same dependent read twice is read once */
	ck_assert_int_eq(eval("q->head->value == 11 && q->head->next == 0", &fh, &f), 1);
	ck_assert_uint_eq(fh.calls, 4);         /* q; q->head; ->value; ->next */
	/* a root that faults costs one more call for the roots after it, and only faults when reached */
	ck_assert_int_eq(eval("item == 6 && *(int *)0x9999 == 0 || arr[0] == 10", &fh, &f), 1);
	ck_assert_uint_eq(fh.calls, 2);
	/* no roots, no batch */
	ck_assert_int_eq(eval("$hit == 3", &fh, &f), 1);
	ck_assert_uint_eq(fh.calls, 0);
}
END_TEST

/* "1+(1+(...1...))", k deep. */
static void nest(char *s, size_t k)
{
	size_t i, n = 0;

	for (i = 0; i < k; i++, n += 3)
		memcpy(s + n, "1+(", 3);
	s[n++] = '1';
	for (i = 0; i < k; i++)
		s[n++] = ')';
	s[n] = '\0';
}

/* Right-nested operators need one stack slot each: past the bound, refused when compiled. */
START_TEST(test_stack_bound)
{
	char s[1024];
	expr_error err;
	expr_code *c;
	expr *e;

	nest(s, 70);
	ck_assert_int_eq(expr_parse(s, &e, &err), 0);
	ck_assert_int_eq(expr_compile(e, &fake_env, &c, &err), -1);
	ck_assert_str_eq(err.msg, "the condition is too complex to compile");
	expr_free(e);
	nest(s, 40);
	ck_assert_int_eq(expr_parse(s, &e, &err), 0);
	ck_assert_int_eq(expr_compile(e, &fake_env, &c, &err), 0);
	expr_code_free(c);
	expr_free(e);
}
END_TEST

START_TEST(test_no_host_reads)
{
	expr_error err;
	expr_code *c;
	expr *e;
	expr_host h;
	expr_fault f;

	memset(&h, 0, sizeof(h));
	ck_assert_int_eq(expr_parse("item == 5 || $tid == 0", &e, &err), 0);
	ck_assert_int_eq(expr_compile(e, &fake_env, &c, &err), 0);
	ck_assert_int_eq(expr_eval(c, &h, &f), -1);   /* nothing readable */
	expr_code_free(c);
	expr_free(e);
	ck_assert_int_eq(expr_parse("n == 7", &e, &err), 0);
	ck_assert_int_eq(expr_compile(e, &fake_env, &c, &err), 0);
	ck_assert_int_eq(expr_eval(c, &h, &f), -1);   /* no registers */
	ck_assert_uint_eq(f.off, 0);
	ck_assert_uint_eq(f.len, 1);
	expr_code_free(c);
	expr_free(e);
}
END_TEST

static Suite *expr_suite(void)
{
	Suite *su = suite_create("expr");
	TCase *tc = tcase_create("parse");

	tcase_add_loop_test(tc, test_parse_errors, 0,
			    (int)(sizeof(parse_errors) / sizeof(parse_errors[0])));
	tcase_add_test(tc, test_parse_limits);
	tcase_add_test(tc, test_parse_ok);
	tcase_add_test(tc, test_thread_aliases);
	suite_add_tcase(su, tc);
	tc = tcase_create("types");
	tcase_add_loop_test(tc, test_type_errors, 0,
			    (int)(sizeof(type_errors) / sizeof(type_errors[0])));
	suite_add_tcase(su, tc);
	tc = tcase_create("eval");
	tcase_add_loop_test(tc, test_values, 0, (int)(sizeof(values) / sizeof(values[0])));
	tcase_add_test(tc, test_faults);
	tcase_add_test(tc, test_batch);
	tcase_add_test(tc, test_stack_bound);
	tcase_add_test(tc, test_no_host_reads);
	suite_add_tcase(su, tc);
	return su;
}

int main(void)
{
	SRunner *sr = srunner_create(expr_suite());
	int failed;

	srunner_run_all(sr, CK_NORMAL);
	failed = srunner_ntests_failed(sr);
	srunner_free(sr);
	return failed ? EXIT_FAILURE : EXIT_SUCCESS;
}
