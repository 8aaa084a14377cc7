// A booking service: two clerks book seats for customers.  Each booking
// checks that the seat is free and then takes it, under the same
// std::mutex -- but in two critical sections, so two clerks can both find
// seat 7 free and both sell it.  "Sometimes a seat is sold twice."
#include <cstdio>
#include <map>
#include <mutex>
#include <string>
#include <thread>
#include <vector>

static std::mutex lock;
static std::map<int, std::string> seats;
static std::vector<std::string> receipts;

static bool is_free(int seat)
{
	std::lock_guard<std::mutex> g(lock);
	return seats.find(seat) == seats.end();
}

static void take(int seat, const std::string &who)
{
	std::lock_guard<std::mutex> g(lock);
	seats[seat] = who;
	receipts.push_back(who + " has seat " + std::to_string(seat));
}

static void clerk(std::string customer, int seat)
{
	if (is_free(seat))
		take(seat, customer);
}

int main()
{
	std::thread a(clerk, std::string("alice"), 7);
	std::thread b(clerk, std::string("bob"), 7);
	a.join();
	b.join();
	for (const auto &r : receipts)
		std::printf("%s\n", r.c_str());
	if (receipts.size() != 1) {
		std::printf("seat 7 sold %zu times\n", receipts.size());
		return 1;
	}
	return 0;
}
