// A small C++ workload whose stacks hold demangled names with ", " inside
// parentheses and templates, for bpftrace captures. usage: spinner SECONDS
#include <algorithm>
#include <chrono>
#include <cstdlib>
#include <map>
#include <string>
#include <vector>

namespace work {

template <typename K, typename V>
struct Table {
	std::map<K, V> m;
	V lookup(const K &k, V dflt) {
		auto it = m.find(k);
		return it == m.end() ? dflt : it->second;
	}
	void insert(const K &k, V v) { m[k] = v; }
};

static volatile long sink;

__attribute__((noinline)) long mix(long a, int b, const std::string &s)
{
	long h = a;
	for (int i = 0; i < 200; i++)
		h = h * 31 + b + (long)s.size() + i;
	return h;
}

__attribute__((noinline)) void churn(Table<std::string, long> &t, int n)
{
	for (int i = 0; i < n; i++) {
		std::string k = "k" + std::to_string(i % 512);
		t.insert(k, mix(t.lookup(k, 0), i, k));
	}
}

__attribute__((noinline)) void sortit(std::vector<long> &v)
{
	for (auto &x : v)
		x = x * 6364136223846793005L + 1;
	std::vector<long> c(v);
	std::sort(c.begin(), c.end());
	sink += c[c.size() / 2];
}

} // namespace work

int main(int argc, char **argv)
{
	auto end = std::chrono::steady_clock::now() +
	    std::chrono::seconds(argc > 1 ? std::atoi(argv[1]) : 5);
	work::Table<std::string, long> t;
	std::vector<long> v(50000, 7);
	while (std::chrono::steady_clock::now() < end) {
		work::churn(t, 20000);
		work::sortit(v);
	}
	return 0;
}
