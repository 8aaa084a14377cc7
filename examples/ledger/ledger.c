/* ledger.c: the library half of the ledger example (libledger.so).
 *
 * ledger_deposit reads the balance and writes it back on another line, with
 * nothing to stop two threads from interleaving: if both read before either
 * writes, one deposit is lost.  The bug lives in the library, not in the
 * program that calls it; gates.yaml points into this file all the same.
 */
#include "ledger.h"

void ledger_open(struct account *a)
{
    a->balance = 0;
}

void ledger_deposit(struct account *a, long amount)
{
    long b = a->balance;                /* read */
    a->balance = b + amount;            /* write: gated line */
}

long ledger_balance(const struct account *a)
{
    return a->balance;
}
