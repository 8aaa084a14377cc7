/* ledger.c, fixed: libledger.so with a deposit that cannot be lost.
 *
 * The write is a compare-and-swap that retries when another deposit got in
 * between the read and the write, so a deposit never overwrites another.
 * The gated lines keep their numbers, so the same gates.yaml runs against
 * this library.
 */
#include "ledger.h"

void ledger_open(struct account *a)
{
    a->balance = 0;
}

void ledger_deposit(struct account *a, long amount)
{
    long b = __atomic_load_n(&a->balance, __ATOMIC_SEQ_CST);  /* read */
    while (!__atomic_compare_exchange_n(&a->balance, &b, b + amount, 0,
                                        __ATOMIC_SEQ_CST, __ATOMIC_SEQ_CST))
        ;                               /* b is now the current balance: retry */
}

long ledger_balance(const struct account *a)
{
    return __atomic_load_n(&a->balance, __ATOMIC_SEQ_CST);
}
