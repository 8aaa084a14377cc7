// An inventory service in modern C++: workers are lambdas and a member
// function run by std::thread, sharing a std::vector of stock levels.
// Restocking reads the level, then writes it back -- outside the lock the
// reader holds, so a sale in between is lost.  "Sometimes stock is wrong."
#include <cstdio>
#include <mutex>
#include <thread>
#include <vector>

namespace shop {

class Inventory {
public:
	explicit Inventory(size_t n) : level_(n, 10) {}

	int level(size_t i)
	{
		std::lock_guard<std::mutex> g(mu_);
		return level_[i];
	}

	void set(size_t i, int v)
	{
		std::lock_guard<std::mutex> g(mu_);
		level_[i] = v;
	}

	void restock(size_t i, int n)
	{
		int v = level(i);
		set(i, v + n);
	}

private:
	std::mutex mu_;
	std::vector<int> level_;
};

} // namespace shop

int main()
{
	shop::Inventory inv(4);
	std::thread seller([&inv] {
		int v = inv.level(2);
		inv.set(2, v - 3);
	});
	std::thread restocker(&shop::Inventory::restock, &inv, 2, 5);
	seller.join();
	restocker.join();
	int v = inv.level(2);
	std::printf("item 2: %d in stock\n", v);
	return v == 12 ? 0 : 1;
}
