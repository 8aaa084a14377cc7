// cxx_stock (FIXED): the buyer checks and takes under the shelf's mutex
// (std::unique_lock), so no other buyer can check between the two.
//
// The gated line keeps its number.  The order gates.yaml asks for (both
// buyers check before either takes) is impossible now: the first buyer
// waits at its take, holding the lock, for the other to have checked, and
// the other waits for the lock.  racegate reports SCHEDULE-DEADLOCK.
#include <cstdio>
#include <cstdlib>
#include <mutex>
#include <thread>

struct Shelf {
    int stock = 1;                      // items left
    int sold = 0;
};

int main()
{
    Shelf shelf;
    std::mutex shelf_lock;

    auto buy = [&shelf, &shelf_lock](const char *who) {
        for (int round = 0; round < 3; round++) {
            std::unique_lock<std::mutex> hold(shelf_lock);
            if (shelf.stock > 0) {                      // check
                shelf.stock = shelf.stock - 1;          // take: gated line
                shelf.sold = shelf.sold + 1;
                std::printf("%s bought the last one\n", who);
                if (shelf.stock < 0)
                    std::abort();       // sold what was not there
            }
            hold.unlock();
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
