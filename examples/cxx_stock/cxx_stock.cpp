// cxx_stock: two buyers, std::threads running one lambda, each buy the
// last item on the shelf: check that it is in stock, then take it.  If both
// check before either takes, both take it: stock goes to -1 and the shelf's
// consistency check aborts the program (SIGABRT).  The check and the take
// are a few instructions apart, so plain runs practically never oversell.
//
// gates.yaml: each buyer, having found the item in stock, waits before it
// takes it until the other one has checked too.
#include <cstdio>
#include <cstdlib>
#include <thread>

struct Shelf {
    int stock = 1;                      // items left
    int sold = 0;
};

int main()
{
    Shelf shelf;
    // (the fixed variant declares its mutex here)

    auto buy = [&shelf](const char *who) {
        for (int round = 0; round < 3; round++) {
            // (the fixed variant takes the lock here)
            if (shelf.stock > 0) {                      // check
                shelf.stock = shelf.stock - 1;          // take: gated line
                shelf.sold = shelf.sold + 1;
                std::printf("%s bought the last one\n", who);
                if (shelf.stock < 0)
                    std::abort();       // sold what was not there
            }
            // (the fixed variant lets the lock go here)
            std::this_thread::sleep_for(std::chrono::milliseconds(1));
        }
    };

    std::thread alice(buy, "alice");
    std::thread bob(buy, "bob");
    alice.join();
    bob.join();
    std::printf("sold %d, stock %d\n", shelf.sold, shelf.stock);
    return 0;
}
