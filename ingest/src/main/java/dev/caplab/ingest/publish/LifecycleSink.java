package dev.caplab.ingest.publish;

import java.util.concurrent.CompletableFuture;
import org.apache.avro.specific.SpecificRecord;

/** Where lifecycle events go: {@link LifecyclePublisher} in production, a list in unit tests. */
@FunctionalInterface
public interface LifecycleSink {

    /** Completes when the event is durably accepted. */
    CompletableFuture<?> publish(SpecificRecord event);
}
