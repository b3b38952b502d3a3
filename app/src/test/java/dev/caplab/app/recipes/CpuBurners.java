package dev.caplab.app.recipes;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * A CPU-bound server in miniature: {@code units} concurrent workers, each demanding {@link #CORES_PER_UNIT} of a
 * core (busy-spinning half of every 20 ms period, sleeping the other half). Below the machine's cores the host's
 * busy CPU grows by 0.5 core per unit; above, the workers share the cores and the host stays at its core count.
 */
final class CpuBurners implements AutoCloseable {

    static final double CORES_PER_UNIT = 0.5;
    private static final long PERIOD_NANOS = 20_000_000;
    private static final long BUSY_NANOS = (long) (PERIOD_NANOS * CORES_PER_UNIT);

    private final AtomicInteger units = new AtomicInteger();
    private final List<Thread> workers = new ArrayList<>();
    private volatile boolean running = true;
    /** Keeps the spin loop's arithmetic observable so the JIT cannot drop it. */
    private volatile double sink;

    CpuBurners(int maxUnits) {
        for (int i = 0; i < maxUnits; i++) {
            int index = i;
            Thread t = Thread.ofPlatform().daemon().name("burner-" + i).start(() -> work(index));
            workers.add(t);
        }
    }

    void units(int n) {
        units.set(n);
    }

    private void work(int index) {
        double x = index + 1;
        while (running) {
            long start = System.nanoTime();
            if (index < units.get()) {
                while (System.nanoTime() - start < BUSY_NANOS) {
                    x = Math.sqrt(x * x + 1.0) % 1000.0;
                }
                sink = x;
            }
            long left = PERIOD_NANOS - (System.nanoTime() - start);
            if (left > 0) {
                try {
                    Thread.sleep(left / 1_000_000, (int) (left % 1_000_000));
                } catch (InterruptedException e) {
                    return;
                }
            }
        }
    }

    @Override
    public void close() {
        running = false;
        workers.forEach(Thread::interrupt);
    }
}
