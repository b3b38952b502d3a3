package dev.caplab.app.up;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.lang.foreign.Arena;
import java.lang.foreign.FunctionDescriptor;
import java.lang.foreign.Linker;
import java.lang.foreign.MemoryLayout;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.StructLayout;
import java.lang.invoke.MethodHandle;
import java.lang.invoke.VarHandle;
import java.nio.file.DirectoryStream;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import static java.lang.foreign.ValueLayout.JAVA_INT;

/**
 * Ingest first when the machine is saturated: lowers the Linux scheduling priority ({@code nice}) of the embedded
 * stack's background threads, those whose work can lag behind and catch up from Kafka (the streams threads, the sink,
 * RocksDB, chDB's insert, query and merge pools). On a machine with no CPU to spare, the load tool's writes are then
 * acknowledged at ingest's own pace and the backlog builds in Kafka, which keeps it, instead of in the load tool,
 * which slows the test it drives or drops samples when its writes time out. When ingest idles, the background threads
 * get every core as before; at nice 10 they still get about a tenth of a busy core each (CFS weights 110 against 1024).
 *
 * <p>Only {@code caplab up} does this: it runs every role in one process. A deployment that runs ingest apart from
 * streams and the sink gets the same separation from its machines. The threads are found by the name Linux shows for
 * them (the first 15 bytes, {@code /proc/self/task/<tid>/comm}) every {@link #RESCAN_SECONDS} s, because chDB, RocksDB
 * and Kafka Streams start their threads themselves; threads a background thread starts inherit its nice value.
 */
final class BackgroundPriority implements AutoCloseable {

    private static final Logger LOG = LoggerFactory.getLogger(BackgroundPriority.class);

    /** caplab up's default: background threads at nice 10. */
    static final int DEFAULT_NICE = 10;
    /** Linux's weakest priority. */
    static final int MAX_NICE = 19;
    static final long RESCAN_SECONDS = 1;
    /**
     * A thread's name is read at its first scans, while it may still be named or renamed by whoever started it, then
     * only at every {@link #FULL_SCAN_EVERY}-th scan: reading all ~250 names every second was a third of a percent of
     * a core in an idle {@code caplab up}.
     */
    static final int NAME_READS = 10;
    static final int FULL_SCAN_EVERY = 30;

    /**
     * The names, as Linux truncates them, of threads that only consume what ingest has already made durable:
     * Kafka Streams' stream and state-updater threads (application id {@code caplab-streams}), the sink, RocksDB's
     * flush and compaction, chDB's global pool, query pipelines, merges and background schedules.
     */
    static final List<String> BACKGROUND_NAME_PREFIXES = List.of("caplab-streams-", "caplab-sink", "rocksdb:",
            "ThreadPool", "QueryPipelineEx", "QueryCompPipeEx", "MergeMutate", "BgSchPool", "BgMBSchPool",
            "BgBufSchPool", "BgDistSchPool");

    private static final Path TASKS = Path.of("/proc/self/task");
    private static final int PRIO_PROCESS = 0;

    private final int nice;
    private final Renicer renicer;
    /** Threads already lowered, by Linux thread id; ids of ended threads are dropped, Linux reuses them. */
    private final Set<Long> lowered = new HashSet<>();
    /** Threads not lowered, by Linux thread id, with how many scans have read their name. */
    private final Map<Long, Integer> namesRead = new HashMap<>();
    private long scans;
    private final ScheduledExecutorService scanner;

    private BackgroundPriority(int nice, Renicer renicer) {
        this.nice = nice;
        this.renicer = renicer;
        this.scanner = Executors.newSingleThreadScheduledExecutor(r -> Thread.ofPlatform().daemon()
                .name("caplab-nice").unstarted(r));
    }

    /**
     * Starts lowering background threads to {@code nice} (1 to {@value #MAX_NICE}); with 0, or where the platform has
     * no per-thread nice, nothing is changed and nothing runs.
     */
    static Optional<BackgroundPriority> start(int nice) {
        if (nice < 0 || nice > MAX_NICE) {
            throw new IllegalArgumentException("background nice must be between 0 (off) and " + MAX_NICE
                    + ", was " + nice);
        }
        if (nice == 0) {
            return Optional.empty();
        }
        Optional<Renicer> renicer = Renicer.linux();
        if (renicer.isEmpty()) {
            LOG.info("background threads keep their priority: this platform has no /proc/self/task or setpriority");
            return Optional.empty();
        }
        BackgroundPriority priority = new BackgroundPriority(nice, renicer.get());
        priority.scanner.scheduleWithFixedDelay(priority::scanLogged, 0, RESCAN_SECONDS, TimeUnit.SECONDS);
        return Optional.of(priority);
    }

    /** Whether a thread Linux calls {@code comm} is background work. */
    static boolean isBackground(String comm) {
        for (String prefix : BACKGROUND_NAME_PREFIXES) {
            if (comm.startsWith(prefix)) {
                return true;
            }
        }
        return false;
    }

    private void scanLogged() {
        try {
            scan();
        } catch (RuntimeException e) {
            // a failed scan leaves priorities as they were; the next one tries again
            LOG.warn("could not lower the priority of background threads: {}", e.getMessage());
        }
    }

    /** Lowers every background thread not yet lowered; returns how many it lowered. */
    int scan() {
        int count = 0;
        boolean full = ++scans % FULL_SCAN_EVERY == 0;
        Set<Long> alive = new HashSet<>();
        try (DirectoryStream<Path> tasks = Files.newDirectoryStream(TASKS)) {
            for (Path task : tasks) {
                long tid = Long.parseLong(task.getFileName().toString());
                alive.add(tid);
                int reads = namesRead.getOrDefault(tid, 0);
                if (lowered.contains(tid) || (reads >= NAME_READS && !full)) {
                    continue;
                }
                // read again at later scans: a thread is named after it starts, and chDB renames pool threads per job
                Optional<String> comm = comm(task);
                if (comm.isPresent() && isBackground(comm.get())) {
                    renicer.setNice((int) tid, nice, comm.get());
                    lowered.add(tid);
                    namesRead.remove(tid);
                    count++;
                } else {
                    namesRead.put(tid, reads + 1);
                }
            }
        } catch (IOException e) {
            throw new UncheckedIOException("cannot list " + TASKS, e);
        }
        lowered.retainAll(alive);
        namesRead.keySet().retainAll(alive);
        return count;
    }

    private static Optional<String> comm(Path task) {
        try {
            return Optional.of(Files.readString(task.resolve("comm")).strip());
        } catch (NoSuchFileException ended) {
            return Optional.empty();
        } catch (IOException e) {
            throw new UncheckedIOException("cannot read " + task.resolve("comm"), e);
        }
    }

    @Override
    public void close() {
        scanner.shutdownNow();
    }

    /** {@code setpriority(PRIO_PROCESS, tid, nice)} through the C library: on Linux it applies to one thread. */
    private record Renicer(MethodHandle setpriority, StructLayout callState, VarHandle errno) {

        static Optional<Renicer> linux() {
            if (!Files.isDirectory(TASKS)) {
                return Optional.empty();
            }
            Linker linker = Linker.nativeLinker();
            return linker.defaultLookup().find("setpriority").map(symbol -> {
                StructLayout callState = Linker.Option.captureStateLayout();
                return new Renicer(linker.downcallHandle(symbol,
                        FunctionDescriptor.of(JAVA_INT, JAVA_INT, JAVA_INT, JAVA_INT),
                        Linker.Option.captureCallState("errno")),
                        callState, callState.varHandle(MemoryLayout.PathElement.groupElement("errno")));
            });
        }

        void setNice(int tid, int nice, String comm) {
            try (Arena arena = Arena.ofConfined()) {
                MemorySegment state = arena.allocate(callState);
                int rc = (int) setpriority.invokeExact(state, PRIO_PROCESS, tid, nice);
                if (rc != 0) {
                    int errno = (int) this.errno.get(state, 0L);
                    // ESRCH: the thread ended between the listing and the call
                    if (errno != 3) {
                        LOG.warn("setpriority({}, {}) for thread {} failed with errno {}", tid, nice, comm, errno);
                    }
                }
            } catch (Throwable e) {
                throw new IllegalStateException("setpriority(" + tid + ", " + nice + ") for thread " + comm
                        + " failed", e);
            }
        }
    }
}
