package demo;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.locks.LockSupport;

/*
 * Small workloads for Java Flight Recorder captures.
 * usage: java demo.Workload cpu|alloc|lock SECONDS
 */
public final class Workload {
	static volatile long sink;

	// cpu: recursion, hashing and sorting, a few distinct hot paths
	static long fib(int n) {
		return n < 2 ? n : fib(n - 1) + fib(n - 2);
	}

	static long hashWork(int rounds) {
		Map<Integer, Integer> m = new HashMap<>();
		long s = 0;
		for (int i = 0; i < rounds; i++) {
			m.merge(i % 4096, i, Integer::sum);
			s += m.get(i % 4096);
		}
		return s;
	}

	static long sortWork(int n) {
		int[] a = new int[n];
		long x = 12345;
		for (int i = 0; i < n; i++) {
			x = x * 6364136223846793005L + 1442695040888963407L;
			a[i] = (int) (x >>> 33);
		}
		java.util.Arrays.sort(a);
		return a[n / 2];
	}

	// native: a thread spending its time inside FileInputStream.readBytes
	static void reader(long deadline) {
		byte[] buf = new byte[1 << 16];
		try (java.io.FileInputStream in = new java.io.FileInputStream("/dev/zero")) {
			while (System.nanoTime() < deadline)
				sink += in.read(buf);
		} catch (java.io.IOException e) {
			throw new RuntimeException(e);
		}
	}

	static void cpu(long deadline) throws InterruptedException {
		Thread r = new Thread(() -> reader(deadline), "reader");
		r.start();
		while (System.nanoTime() < deadline) {
			sink += fib(27);
			sink += hashWork(200000);
			sink += sortWork(300000);
		}
		r.join();
	}

	// alloc: many small objects, some large arrays (outside TLAB)
	static List<Object> keep = new ArrayList<>();

	static String makeString(int i) {
		return "item-" + i + "-" + (i * 31);
	}

	static byte[] bigArray(int n) {
		return new byte[n];
	}

	static void alloc(long deadline) {
		int i = 0;
		while (System.nanoTime() < deadline) {
			keep.add(makeString(i));
			if (i % 64 == 0)
				keep.add(bigArray(1 << 20));
			if (keep.size() > 20000)
				keep.clear();
			i++;
		}
	}

	// lock: threads contend on one monitor, wait/notify, park, sleep
	static final Object monitor = new Object();
	static final Object quiet = new Object();
	static long counter;

	static void contend(long deadline) {
		while (System.nanoTime() < deadline) {
			synchronized (monitor) {
				long t = System.nanoTime() + 5_000_000;
				while (System.nanoTime() < t)
					counter++;
			}
		}
	}

	static void waiter(long deadline) throws InterruptedException {
		while (System.nanoTime() < deadline) {
			synchronized (quiet) {
				quiet.wait(30);
			}
			LockSupport.parkNanos(25_000_000L);
			Thread.sleep(20);
		}
	}

	static void lock(long deadline) throws InterruptedException {
		List<Thread> ts = new ArrayList<>();
		for (int i = 0; i < 4; i++) {
			Thread t = new Thread(() -> contend(deadline), "contender-" + i);
			ts.add(t);
		}
		ts.add(new Thread(() -> {
			try {
				waiter(deadline);
			} catch (InterruptedException e) {
				Thread.currentThread().interrupt();
			}
		}, "waiter"));
		for (Thread t : ts)
			t.start();
		for (Thread t : ts)
			t.join();
	}

	public static void main(String[] args) throws Exception {
		long deadline = System.nanoTime() + Long.parseLong(args[1]) * 1_000_000_000L;
		switch (args[0]) {
		case "cpu": cpu(deadline); break;
		case "alloc": alloc(deadline); break;
		case "lock": lock(deadline); break;
		default: throw new IllegalArgumentException(args[0]);
		}
		System.out.println(sink + counter + keep.size());
	}
}
