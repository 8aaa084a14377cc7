/* ledger: a tiny account library, built as libledger.so (see example.cmake). */
#ifndef LEDGER_H
#define LEDGER_H

struct account {
    long balance;
};

void ledger_open(struct account *a);
void ledger_deposit(struct account *a, long amount);
long ledger_balance(const struct account *a);

#endif
