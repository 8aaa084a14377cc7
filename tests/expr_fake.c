/*
 * The fake scope and thread of expr_fake.h.
 *
 * Memory:
 *   0x1000 item (int) 5          0x1010 arr (int[4]) 10 20 30 40
 *   0x1020 uc (unsigned char) 255  0x1024 neg (int) -1
 *   0x1028 big (unsigned long) ~0  0x1030 nilp (struct node *) 0
 *   0x1038 strp (char *) 0x1080   0x1040 ref (int &) -> item
 *   0x1048 sh (short) -2          0x1050 ratio (double)   0x1080 "hello"
 *   0x1058 edge (char *) 0x1ffd: "abc" without NUL, at the end of the mapping
 *   0x3000 s (struct queue), a copy of *q
 *   0x5000 *q: length 3, cap 8, head 0x5080, name "work", flags 5 (3 bits),
 *          state -3 (signed 4 bits after flags), col BLUE, u_i 77
 *   0x5080 node: value 11, next NULL
 *   0x6000 *this (class Queue : Base): base_id 9, state 4
 *   0x7010 q (struct queue *) at the frame: DWARF register 7 + 16
 *   0x10100 g2 (int) 123, in object 1 (link-time 0x100, bias 0x10000)
 * Registers: 3 holds n (int 7, garbage above bit 31), 4 pair {3, 5},
 *   5 this (0x6000), 6 the second half of wide, 7 the stack pointer 0x7000.
 *   wide (16 bytes) is in registers 3 and 6; wmem's first half is optimized
 *   out, its second is arr[0..1] in memory.  c is computed (DW_OP_stack_value): 42.
 */
#include <string.h>

#include "expr_fake.h"

static const dwarfx_type t_int = {.kind = DWARFX_T_INT, .name = "int", .size = 4, .is_signed = true};
static const dwarfx_type t_uint = {.kind = DWARFX_T_INT, .name = "unsigned int", .size = 4};
static const dwarfx_type t_short = {.kind = DWARFX_T_INT, .name = "short", .size = 2, .is_signed = true};
static const dwarfx_type t_char = {.kind = DWARFX_T_INT, .name = "char", .size = 1,
				   .is_signed = true, .is_char = true};
static const dwarfx_type t_uchar = {.kind = DWARFX_T_INT, .name = "unsigned char", .size = 1,
				    .is_char = true};
static const dwarfx_type t_ulong = {.kind = DWARFX_T_INT, .name = "unsigned long", .size = 8};
static const dwarfx_type t_double = {.kind = DWARFX_T_FLOAT, .name = "double", .size = 8};
static const dwarfx_type t_uint32 = {.kind = DWARFX_T_TYPEDEF, .name = "uint32_t", .target = &t_uint};
static const dwarfx_type t_charp = {.kind = DWARFX_T_POINTER, .size = 8, .target = &t_char};
static const dwarfx_type t_intref = {.kind = DWARFX_T_REFERENCE, .size = 8, .target = &t_int};
static const dwarfx_type t_arr4 = {.kind = DWARFX_T_ARRAY, .size = 16, .target = &t_int, .count = 4};
static const dwarfx_type t_name16 = {.kind = DWARFX_T_ARRAY, .size = 16, .target = &t_char, .count = 16};

static const dwarfx_enumerator colors[] = {{"RED", 0}, {"GREEN", 1}, {"BLUE", 2}};
static const dwarfx_type t_color = {.kind = DWARFX_T_ENUM, .name = "color", .size = 4,
				    .target = &t_uint, .enumerators = colors, .nenumerators = 3};

static const dwarfx_type t_node;
static const dwarfx_type t_nodep = {.kind = DWARFX_T_POINTER, .size = 8, .target = &t_node};
static const dwarfx_member node_members[] = {
	{.name = "value", .type = &t_int, .offset = 0},
	{.name = "next", .type = &t_nodep, .offset = 8},
};
static const dwarfx_type t_node = {.kind = DWARFX_T_STRUCT, .name = "node", .size = 16,
				   .members = node_members, .nmembers = 2};

static const dwarfx_member anon_members[] = {
	{.name = "u_i", .type = &t_int, .offset = 0},
	{.name = "u_u", .type = &t_uint, .offset = 0},
};
static const dwarfx_type t_anon = {.kind = DWARFX_T_UNION, .size = 4,
				   .members = anon_members, .nmembers = 2};

static const dwarfx_member queue_members[] = {
	{.name = "length", .type = &t_int, .offset = 0},
	{.name = "cap", .type = &t_uint32, .offset = 4},
	{.name = "head", .type = &t_nodep, .offset = 8},
	{.name = "name", .type = &t_name16, .offset = 16},
	{.name = "flags", .type = &t_uint, .offset = 32, .bit_size = 3, .bit_offset = 0},
	{.name = "state", .type = &t_int, .offset = 32, .bit_size = 4, .bit_offset = 3},
	{.name = "col", .type = &t_color, .offset = 36},
	{.name = "ratio", .type = &t_double, .offset = 40},
	{.name = NULL, .type = &t_anon, .offset = 48},
};
static const dwarfx_type t_queue = {.kind = DWARFX_T_STRUCT, .name = "queue", .size = 64,
				    .members = queue_members, .nmembers = 9};
static const dwarfx_type t_queuep = {.kind = DWARFX_T_POINTER, .size = 8, .target = &t_queue};
static const dwarfx_type t_incomplete = {.kind = DWARFX_T_STRUCT, .name = "opaque", .incomplete = true};
static const dwarfx_type t_incompletep = {.kind = DWARFX_T_POINTER, .size = 8, .target = &t_incomplete};

static const dwarfx_member base_members[] = {{.name = "base_id", .type = &t_int, .offset = 0}};
static const dwarfx_type t_base = {.kind = DWARFX_T_STRUCT, .name = "Base", .size = 4,
				   .members = base_members, .nmembers = 1};
static const dwarfx_member cls_members[] = {
	{.name = "Base", .type = &t_base, .offset = 0, .is_base = true},
	{.name = "state", .type = &t_int, .offset = 4},
};
static const dwarfx_type t_cls = {.kind = DWARFX_T_STRUCT, .name = "Queue", .size = 8,
				  .members = cls_members, .nmembers = 2};
static const dwarfx_type t_clsp = {.kind = DWARFX_T_POINTER, .size = 8, .target = &t_cls};

#define GLOBAL_AT(a) {{.code = DWARFX_OP_ADDR, .arg = (a)}}
static const dwarfx_op op_item[] = GLOBAL_AT(0x1000);
static const dwarfx_op op_arr[] = GLOBAL_AT(0x1010);
static const dwarfx_op op_uc[] = GLOBAL_AT(0x1020);
static const dwarfx_op op_neg[] = GLOBAL_AT(0x1024);
static const dwarfx_op op_big[] = GLOBAL_AT(0x1028);
static const dwarfx_op op_nilp[] = GLOBAL_AT(0x1030);
static const dwarfx_op op_strp[] = GLOBAL_AT(0x1038);
static const dwarfx_op op_ref[] = GLOBAL_AT(0x1040);
static const dwarfx_op op_sh[] = GLOBAL_AT(0x1048);
static const dwarfx_op op_ratio[] = GLOBAL_AT(0x1050);
static const dwarfx_op op_edge[] = GLOBAL_AT(0x1058);
static const dwarfx_op op_opq[] = GLOBAL_AT(0x1060);
static const dwarfx_op op_s[] = GLOBAL_AT(0x3000);
static const dwarfx_op op_g2[] = GLOBAL_AT(0x100);
static const dwarfx_op op_q[] = {
	{.code = DWARFX_OP_REG, .reg = 7}, {.code = DWARFX_OP_PLUS_CONST, .arg = 16},
};
static const dwarfx_op op_c[] = {
	{.code = DWARFX_OP_CONST, .arg = 40}, {.code = DWARFX_OP_CONST, .arg = 2},
	{.code = DWARFX_OP_ADD},
};

/* Hostile places: programs a corrupt or unexpected DWARF could give. */
static const dwarfx_op op_under[] = {{.code = DWARFX_OP_ADD}};
static const dwarfx_op op_two[] = {{.code = DWARFX_OP_CONST, .arg = 1}, {.code = DWARFX_OP_CONST, .arg = 2}};
static const dwarfx_op op_deref3[] = {{.code = DWARFX_OP_CONST, .arg = 0x1000},
				      {.code = DWARFX_OP_DEREF, .size = 3}};
static const dwarfx_op op_unknown[] = {{.code = 200}};
static const dwarfx_op op_divz[] = {{.code = DWARFX_OP_CONST, .arg = 1}, {.code = DWARFX_OP_CONST, .arg = 0},
				    {.code = DWARFX_OP_DIV}};
/* CONST 1, then DUP x 79: deeper than the evaluation stack */
static const dwarfx_op op_deep[80] = {[0] = {.code = DWARFX_OP_CONST, .arg = 1},
				      [1 ... 79] = {.code = DWARFX_OP_DUP}};
static const uint8_t one_zero[] = {1, 0};

static const dwarfx_member pair_members[] = {
	{.name = "a", .type = &t_int, .offset = 0}, {.name = "b", .type = &t_int, .offset = 4},
};
static const dwarfx_type t_pair = {.kind = DWARFX_T_STRUCT, .name = "pair", .size = 8,
				   .members = pair_members, .nmembers = 2};
static const dwarfx_type t_big = {.kind = DWARFX_T_STRUCT, .name = "big", .size = 24,
				  .members = pair_members, .nmembers = 2};

/* a 16-byte struct the optimizer keeps in pieces */
static const dwarfx_type t_long = {.kind = DWARFX_T_INT, .name = "long", .size = 8, .is_signed = true};
static const dwarfx_member wide_members[] = {
	{.name = "a", .type = &t_long, .offset = 0}, {.name = "lo", .type = &t_short, .offset = 8},
	{.name = "hi", .type = &t_short, .offset = 10}, {.name = "bits", .type = &t_uint, .offset = 12,
							  .bit_size = 4, .bit_offset = 4},
	{.name = "mid", .type = &t_int, .offset = 6},
};
static const dwarfx_type t_wide = {.kind = DWARFX_T_STRUCT, .name = "wide", .size = 16,
				   .members = wide_members, .nmembers = 5};

#define VALUE(prog) {.kind = DWARFX_PLACE_KNOWN, .npieces = 1, \
	.pieces = (const dwarfx_piece[]){{.kind = DWARFX_PIECE_VALUE, .ops = prog, \
					  .nops = sizeof(prog) / sizeof(prog[0])}}}
#define INREG(r) {.kind = DWARFX_PLACE_KNOWN, .npieces = 1, \
	.pieces = (const dwarfx_piece[]){{.kind = DWARFX_PIECE_REG, .reg = r}}}

#define MEM(prog) {.kind = DWARFX_PLACE_KNOWN, .npieces = 1, \
	.pieces = (const dwarfx_piece[]){{.kind = DWARFX_PIECE_MEM, .ops = prog, \
					  .nops = sizeof(prog) / sizeof(prog[0])}}}

static const dwarfx_var vars[] = {
	{"item", &t_int, MEM(op_item), DWARFX_VAR_GLOBAL},
	{"arr", &t_arr4, MEM(op_arr), DWARFX_VAR_GLOBAL},
	{"uc", &t_uchar, MEM(op_uc), DWARFX_VAR_GLOBAL},
	{"neg", &t_int, MEM(op_neg), DWARFX_VAR_GLOBAL},
	{"big", &t_ulong, MEM(op_big), DWARFX_VAR_GLOBAL},
	{"nilp", &t_nodep, MEM(op_nilp), DWARFX_VAR_GLOBAL},
	{"strp", &t_charp, MEM(op_strp), DWARFX_VAR_GLOBAL},
	{"ref", &t_intref, MEM(op_ref), DWARFX_VAR_GLOBAL},
	{"sh", &t_short, MEM(op_sh), DWARFX_VAR_GLOBAL},
	{"ratio", &t_double, MEM(op_ratio), DWARFX_VAR_GLOBAL},
	{"edge", &t_charp, MEM(op_edge), DWARFX_VAR_GLOBAL},
	{"opq", &t_incompletep, MEM(op_opq), DWARFX_VAR_GLOBAL},
	{"s", &t_queue, MEM(op_s), DWARFX_VAR_STATIC},
	{"g2", &t_int, MEM(op_g2), DWARFX_VAR_GLOBAL},
	{"q", &t_queuep, MEM(op_q), DWARFX_VAR_PARAM},
	{"n", &t_int, {.kind = DWARFX_PLACE_KNOWN, .npieces = 1,
		       .pieces = (const dwarfx_piece[]){{.kind = DWARFX_PIECE_REG, .reg = 3}}},
	 DWARFX_VAR_LOCAL},
	{"this", &t_clsp, {.kind = DWARFX_PLACE_KNOWN, .npieces = 1,
			   .pieces = (const dwarfx_piece[]){{.kind = DWARFX_PIECE_REG, .reg = 5}}},
	 DWARFX_VAR_PARAM},
	{"c", &t_int, {.kind = DWARFX_PLACE_KNOWN, .npieces = 1,
		       .pieces = (const dwarfx_piece[]){{.kind = DWARFX_PIECE_VALUE, .ops = op_c,
							 .nops = 3}}},
	 DWARFX_VAR_LOCAL},
	{"opt", &t_int, {.kind = DWARFX_PLACE_OPTIMIZED_OUT}, DWARFX_VAR_LOCAL},
	{"under", &t_int, MEM(op_under), DWARFX_VAR_LOCAL},
	{"two", &t_int, MEM(op_two), DWARFX_VAR_LOCAL},
	{"deref3", &t_int, MEM(op_deref3), DWARFX_VAR_LOCAL},
	{"unknown", &t_int, MEM(op_unknown), DWARFX_VAR_LOCAL},
	{"divz", &t_int, VALUE(op_divz), DWARFX_VAR_LOCAL},
	{"deep", &t_int, VALUE(op_deep), DWARFX_VAR_LOCAL},
	{"farreg", &t_int, INREG(200), DWARFX_VAR_LOCAL},
	{"pair", &t_pair, INREG(4), DWARFX_VAR_LOCAL},
	{"bigreg", &t_big, INREG(4), DWARFX_VAR_LOCAL},
	{"wide", &t_wide, {.kind = DWARFX_PLACE_KNOWN, .npieces = 2,
			   .pieces = (const dwarfx_piece[]){
				   {.kind = DWARFX_PIECE_REG, .reg = 3, .size = 8},
				   {.kind = DWARFX_PIECE_REG, .reg = 6, .size = 8}}},
	 DWARFX_VAR_LOCAL},
	{"wmem", &t_wide, {.kind = DWARFX_PLACE_KNOWN, .npieces = 2,
			   .pieces = (const dwarfx_piece[]){
				   {.kind = DWARFX_PIECE_UNDEF, .size = 8},
				   {.kind = DWARFX_PIECE_MEM, .ops = op_arr, .nops = 1, .size = 8}}},
	 DWARFX_VAR_LOCAL},
	{"split", &t_int, {.kind = DWARFX_PLACE_KNOWN, .npieces = 2,
			   .pieces = (const dwarfx_piece[]){
				   {.kind = DWARFX_PIECE_REG, .reg = 3, .size = 2},
				   {.kind = DWARFX_PIECE_BYTES, .bytes = one_zero, .size = 2}}},
	 DWARFX_VAR_LOCAL},
	{"half", &t_int, {.kind = DWARFX_PLACE_KNOWN, .npieces = 2,
			  .pieces = (const dwarfx_piece[]){
				  {.kind = DWARFX_PIECE_REG, .reg = 3, .size = 2},
				  {.kind = DWARFX_PIECE_UNDEF, .size = 2}}},
	 DWARFX_VAR_LOCAL},
	{"total", &t_int, {.kind = DWARFX_PLACE_UNSUPPORTED, .why = "thread-local storage"},
	 DWARFX_VAR_GLOBAL},
};

static const dwarfx_var *fake_var(void *ctx, const char *name, int *obj)
{
	size_t i;

	(void)ctx;
	for (i = 0; i < sizeof(vars) / sizeof(vars[0]); i++) {
		if (!strcmp(vars[i].name, name)) {
			*obj = !strcmp(name, "g2");
			return &vars[i];
		}
	}
	return NULL;
}

static const dwarfx_type *fake_type(void *ctx, const char *name)
{
	(void)ctx;
	if (!strcmp(name, "struct queue") || !strcmp(name, "queue"))
		return &t_queue;
	if (!strcmp(name, "struct node"))
		return &t_node;
	if (!strcmp(name, "uint32_t"))
		return &t_uint32;
	if (!strcmp(name, "Queue"))
		return &t_cls;
	if (!strcmp(name, "enum color"))
		return &t_color;
	if (!strcmp(name, "struct opaque"))
		return &t_incomplete;
	return NULL;
}

static bool fake_enumerator(void *ctx, const char *name, int64_t *value, const dwarfx_type **type)
{
	size_t i;

	(void)ctx;
	for (i = 0; i < 3; i++) {
		if (!strcmp(colors[i].name, name)) {
			*value = colors[i].value;
			*type = &t_color;
			return true;
		}
	}
	return false;
}

static size_t fake_visible(void *ctx, const char **names, size_t max)
{
	static const char *const v[] = {"q", "item", "n"};
	size_t i;

	(void)ctx;
	for (i = 0; i < 3 && i < max; i++)
		names[i] = v[i];
	return 3;
}

const expr_env fake_env = {
	.ctx = NULL, .where = "queue.c:40", .var = fake_var, .type = fake_type,
	.enumerator = fake_enumerator, .visible = fake_visible,
};

/* ---- memory ---- */

static uint8_t mem_low[0x1000];     /* 0x1000 .. 0x2000 */
static uint8_t mem_s[64];           /* 0x3000 */
static uint8_t mem_heap[0x100];     /* 0x5000 */
static uint8_t mem_this[8];         /* 0x6000 */
static uint8_t mem_stack[0x100];    /* 0x7000 */
static uint8_t mem_g2[4];           /* 0x10100 */

static const struct { uint64_t addr; uint8_t *b; size_t len; } regions[] = {
	{0x1000, mem_low, sizeof(mem_low)}, {0x3000, mem_s, sizeof(mem_s)},
	{0x5000, mem_heap, sizeof(mem_heap)}, {0x6000, mem_this, sizeof(mem_this)},
	{0x7000, mem_stack, sizeof(mem_stack)}, {0x10100, mem_g2, sizeof(mem_g2)},
};

static void put(uint64_t addr, uint64_t v, size_t len)
{
	size_t i, k;

	for (i = 0; i < sizeof(regions) / sizeof(regions[0]); i++) {
		if (addr < regions[i].addr || addr - regions[i].addr >= regions[i].len)
			continue;
		for (k = 0; k < len; k++)
			regions[i].b[addr - regions[i].addr + k] = (uint8_t)(v >> (8 * k));
		return;
	}
}

static bool get(uint64_t addr, void *buf, size_t len)
{
	size_t i;

	for (i = 0; i < sizeof(regions) / sizeof(regions[0]); i++) {
		if (addr >= regions[i].addr && addr - regions[i].addr <= regions[i].len &&
		    len <= regions[i].len - (addr - regions[i].addr)) {
			memcpy(buf, regions[i].b + (addr - regions[i].addr), len);
			return true;
		}
	}
	return false;
}

static size_t fake_read(void *ctx, const expr_read *reqs, size_t n)
{
	fake_host *fh = ctx;
	size_t i;

	if (!fh->calls++)
		fh->first_batch = n;
	fh->reqs += n;
	for (i = 0; i < n; i++)
		if (!get(reqs[i].addr, reqs[i].buf, reqs[i].len))
			break;
	return i;
}

static uint64_t fake_bias(void *ctx, int obj)
{
	(void)ctx;
	return obj == 1 ? 0x10000 : 0;
}

static bool fake_thread_is(void *ctx, const char *alias)
{
	(void)ctx;
	return !strcmp(alias, "w1");
}

void fake_host_init(fake_host *fh)
{
	static const char queue_name[] = "work";
	uint64_t a;

	memset(fh, 0, sizeof(*fh));
	memset(mem_low, 0, sizeof(mem_low));
	put(0x1000, 5, 4);
	for (a = 0; a < 4; a++)
		put(0x1010 + 4 * a, 10 * (a + 1), 4);
	put(0x1020, 255, 1);
	put(0x1024, (uint64_t)-1, 4);
	put(0x1028, (uint64_t)-1, 8);
	put(0x1030, 0, 8);
	put(0x1038, 0x1080, 8);
	put(0x1040, 0x1000, 8);
	put(0x1048, (uint64_t)-2, 2);
	put(0x1050, 0x3ff0000000000000ull, 8);
	put(0x1060, 0x5000, 8);
	memcpy(mem_low + 0x80, "hello", 6);
	put(0x1058, 0x1ffd, 8);
	memcpy(mem_low + 0xffd, "abc", 3);   /* no NUL before the mapping ends */
	memset(mem_heap, 0, sizeof(mem_heap));
	put(0x5000, 3, 4);
	put(0x5004, 8, 4);
	put(0x5008, 0x5080, 8);
	memcpy(mem_heap + 16, queue_name, sizeof(queue_name));
	put(0x5020, 5 | (0xd << 3), 1);
	put(0x5024, 2, 4);
	put(0x5030, 77, 4);
	put(0x5080, 11, 4);
	put(0x5088, 0, 8);
	memcpy(mem_s, mem_heap, sizeof(mem_s));
	put(0x6000, 9, 4);
	put(0x6004, 4, 4);
	memset(mem_stack, 0, sizeof(mem_stack));
	put(0x7010, 0x5000, 8);
	put(0x10100, 123, 4);
	fh->regs[3] = 0xdead000000000007ull;
	fh->regs[4] = 0x0000000500000003ull;
	fh->regs[6] = 0x000000a0fffe0007ull;   /* wide: lo 7, hi -2, bits 10 */
	fh->regs[5] = 0x6000;
	fh->regs[7] = 0x7000;
	fh->h.regs = fh->regs;
	fh->h.nregs = 17;
	fh->h.ctx = fh;
	fh->h.read = fake_read;
	fh->h.bias = fake_bias;
	fh->h.thread_is = fake_thread_is;
	fh->h.tid = 4242;
	fh->h.hit = 3;
}
