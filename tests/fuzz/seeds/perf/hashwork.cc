—#include <functional>
#include <pthread.h>
#include <thread>
#include <vector>
#include <string>
#include <cstdint>
#include <cstdio>
namespace {
struct Hasher {
	uint64_t h = 1469598103934665603ull;
	inline void mix(uint64_t x) { h ^= x; h *= 1099511628211ull; }
};
}
static inline __attribute__((always_inline)) uint64_t spin(uint64_t n) {
	Hasher hs;
	for (uint64_t i = 0; i < n; i++) hs.mix(i);
	return hs.h;
}
template <typename T> struct Box {
	T v;
	uint64_t run(uint64_t n) { return spin(n) + v; }
};
volatile uint64_t sink;
static void worker(int id) {
	pthread_setname_np(pthread_self(), "hash worker");
	std::function<void (int)> f = [](int k) {
		Box<int> b{k};
		for (int r = 0; r < 200; r++) {
			std::vector<std::string> *v = new std::vector<std::string>(64, std::string(100, 'x'));
			sink = b.run(200000) + v->size();
			delete v;
		}
	};
	f(id);
}
int main() {
	std::thread a(worker, 1), b(worker, 2);
	a.join(); b.join();
	printf("%lu\n", (unsigned long)sink);
}
