package dev.caplab.app.load;

import com.sun.management.GarbageCollectionNotificationInfo;
import java.lang.management.GarbageCollectorMXBean;
import java.lang.management.ManagementFactory;
import java.lang.management.MemoryPoolMXBean;
import java.lang.management.MemoryType;
import java.lang.management.MemoryUsage;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.atomic.AtomicLong;
import java.util.stream.Collectors;
import javax.management.ListenerNotFoundException;
import javax.management.Notification;
import javax.management.NotificationEmitter;
import javax.management.NotificationListener;
import javax.management.openmbean.CompositeData;

/**
 * The peak of the heap left after each garbage collection in this JVM, from GC notifications (every collection
 * counts, however often they come). Used heap alone includes garbage G1 had no reason to collect yet; what survives
 * a collection bounds what the code really holds.
 */
public final class HeapAfterGc implements AutoCloseable {

    private final Set<String> heapPools = ManagementFactory.getMemoryPoolMXBeans().stream()
            .filter(p -> p.getType() == MemoryType.HEAP).map(MemoryPoolMXBean::getName).collect(Collectors.toSet());
    private final AtomicLong peakBytes = new AtomicLong();
    private final AtomicLong collections = new AtomicLong();
    private final List<NotificationEmitter> emitters = new ArrayList<>();
    private final NotificationListener listener = this::collected;

    private HeapAfterGc() {
    }

    /** Starts listening to every collector of this JVM. */
    public static HeapAfterGc watch() {
        HeapAfterGc watch = new HeapAfterGc();
        for (GarbageCollectorMXBean gc : ManagementFactory.getGarbageCollectorMXBeans()) {
            if (gc instanceof NotificationEmitter emitter) {
                emitter.addNotificationListener(watch.listener, null, null);
                watch.emitters.add(emitter);
            }
        }
        return watch;
    }

    private void collected(Notification notification, Object handback) {
        if (!GarbageCollectionNotificationInfo.GARBAGE_COLLECTION_NOTIFICATION.equals(notification.getType())) {
            return;
        }
        Map<String, MemoryUsage> after = GarbageCollectionNotificationInfo
                .from((CompositeData) notification.getUserData()).getGcInfo().getMemoryUsageAfterGc();
        long used = after.entrySet().stream().filter(e -> heapPools.contains(e.getKey()))
                .mapToLong(e -> e.getValue().getUsed()).sum();
        peakBytes.accumulateAndGet(used, Math::max);
        collections.incrementAndGet();
    }

    /** The largest heap found after one collection since {@link #watch()}; 0 before the first. */
    public long peakBytes() {
        return peakBytes.get();
    }

    /** Collections seen since {@link #watch()}. */
    public long collections() {
        return collections.get();
    }

    @Override
    public void close() {
        for (NotificationEmitter emitter : emitters) {
            try {
                emitter.removeNotificationListener(listener);
            } catch (ListenerNotFoundException e) {
                throw new IllegalStateException("GC listener vanished from " + emitter, e);
            }
        }
    }
}
