/*
 * expr's insides, shared by its files and nothing else: the syntax tree
 * (expr_parse.c), the bytecode (expr_compile.c writes it, expr_eval.c runs
 * it) and the messages (expr_msg.h).
 */
#ifndef RACEGATE_EXPR_INT_H
#define RACEGATE_EXPR_INT_H

#include "cond_ops.h"
#include "expr.h"

/* Bounds that keep every pass's time and recursion independent of the input. */
#define EXPR_MAX_LEN    4096   /* bytes of condition text */
#define EXPR_MAX_HEIGHT 100    /* syntax tree height (parentheses, operators, postfix) */
#define EXPR_MAX_STR    256    /* bytes of a $streq literal */
#define EXPR_MAX_OPS    4096   /* bytecode ops of one compiled condition */
#define EXPR_MAX_STACK  64     /* evaluation stack slots */
#define EXPR_MAX_ROOTS  32     /* reads fetched in the first batch */

enum expr_node_kind {
	N_NUM,        /* num, num_unsigned, num_long */
	N_NAME,       /* name: plain or qualified ("a::b", "::x"); also `this` */
	N_HIT, N_TID,
	N_THREAD,     /* $thread == name (op '=') or != name (op '!') */
	N_STREQ,      /* $streq(a, str) */
	N_UNARY,      /* op: '-', '+', '!', '~', '*' (deref), '&' (address) */
	N_BINARY,     /* op: one of enum expr_binop */
	N_INDEX,      /* a[b] */
	N_MEMBER,     /* a.name */
	N_ARROW,      /* a->name */
	N_CAST,       /* (tname) a */
	N_SIZEOF_T,   /* sizeof(tname) */
	N_SIZEOF_E,   /* sizeof a / sizeof(a) */
};

enum expr_binop {
	B_MUL, B_DIV, B_MOD, B_ADD, B_SUB, B_SHL, B_SHR,
	B_LT, B_LE, B_GT, B_GE, B_EQ, B_NE,
	B_BAND, B_BXOR, B_BOR, B_LAND, B_LOR,
};

/* A type as written in a cast or sizeof: words ("struct queue", "unsigned long") and stars. */
typedef struct expr_tname {
	char *words;
	int stars;
} expr_tname;

typedef struct expr_node expr_node;
struct expr_node {
	enum expr_node_kind kind;
	int op;
	size_t off, len;          /* span in the text */
	size_t opoff;             /* N_BINARY, N_MEMBER, N_ARROW: where the operator is */
	expr_node *a, *b;
	char *name;               /* N_NAME, N_MEMBER, N_ARROW, N_THREAD */
	char *str;                /* N_STREQ: the literal, unescaped */
	size_t strlen;
	uint64_t num;
	bool num_unsigned, num_long, num_char;
	bool paren_name;          /* N_SIZEOF_E of "(NAME)": may name a type */
	int height;               /* of the subtree: 1 for a leaf */
	expr_tname tname;         /* N_CAST, N_SIZEOF_T */
};

struct expr {
	char *text;
	expr_node *root;
	expr_node **nodes;        /* every node, for expr_free */
	size_t nnodes, cap;
};

/* ---- bytecode ---- */

/* the op codes: common/cond_ops.h (the pads compile them too) */

typedef struct expr_op {
	uint8_t code;
	uint8_t size;
	uint8_t sgn;
	int16_t root;             /* O_LOAD: index of its prefetched read, or -1 */
	uint16_t span;            /* the subexpression the op belongs to (spans[]) */
	uint32_t aux;
	int64_t arg;
} expr_op;

typedef struct expr_span {
	size_t off, len;
} expr_span;

struct expr_code {
	expr_op *ops;
	size_t nops;
	size_t nroots;
	size_t *root_start;       /* pc of the first op of root i's address */
	size_t *root_load;        /* pc of root i's O_LOAD */
	expr_span *spans;         /* of subexpressions, for faults */
	size_t nspans;
	char **strs;              /* O_STREQ literals and O_THREAD aliases */
	size_t *strlens;
	size_t nstrs;
	dwarfx_type **types;      /* types made while compiling (pointers) */
	size_t ntypes;
};

#endif
