%// A CPU-bound Java program of about two seconds, for JIT frames in perf:
// java -XX:+UnlockDiagnosticVMOptions -XX:+DumpPerfMapAtExit
//      -XX:+PreserveFramePointer Hot.java
import java.util.HashMap;
import java.util.Map;
import java.util.function.LongUnaryOperator;

public class Hot {
	static final class Counter {
		final Map<String, Integer> counts = new HashMap<>();

		void add(String word) {
			counts.merge(word, 1, Integer::sum);
		}
	}

	static long sieve(int n) {
		boolean[] composite = new boolean[n + 1];
		long sum = 0;
		for (int i = 2; i <= n; i++) {
			if (composite[i])
				continue;
			sum += i;
			for (long j = (long) i * i; j <= n; j += i)
				composite[(int) j] = true;
		}
		return sum;
	}

	static int words(Counter c, int round) {
		StringBuilder sb = new StringBuilder();
		for (int i = 0; i < 2000; i++) {
			sb.setLength(0);
			sb.append("w").append((i * 31 + round) % 509);
			c.add(sb.toString());
		}
		return c.counts.size();
	}

	static long mix(LongUnaryOperator f, long x, int n) {
		for (int i = 0; i < n; i++)
			x = f.applyAsLong(x);
		return x;
	}

	public static void main(String[] args) {
		long end = System.nanoTime() + 2_000_000_000L;
		long acc = 0;
		int round = 0;
		Counter c = new Counter();
		while (System.nanoTime() < end) {
			acc += sieve(200_000);
			acc += words(c, round++);
			acc = mix(x -> (x ^ (x >>> 31)) * 0x7fb5d329728ea185L, acc, 100_000);
		}
		System.out.println(acc + " " + round);
	}
}
