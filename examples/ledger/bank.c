/* bank: two tellers deposit 100 each into one account kept by libledger.so.
 * The balance must be 200; when a deposit is lost it is 100.
 */
#include <pthread.h>
#include <stdio.h>

#include "ledger.h"

static struct account account;

static void *teller(void *arg)
{
    (void)arg;
    ledger_deposit(&account, 100);
    return NULL;
}

int main(void)
{
    pthread_t t[2];
    int i;

    ledger_open(&account);
    for (i = 0; i < 2; i++) {
        if (pthread_create(&t[i], NULL, teller, NULL) != 0) {
            fprintf(stderr, "bank: pthread_create failed\n");
            return 2;
        }
    }
    for (i = 0; i < 2; i++)
        pthread_join(t[i], NULL);

    printf("balance = %ld\n", ledger_balance(&account));
    if (ledger_balance(&account) != 200) {
        printf("FAIL: expected balance = 200: a deposit was lost\n");
        return 1;
    }
    return 0;
}
