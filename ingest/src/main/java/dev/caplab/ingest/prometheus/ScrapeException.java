package dev.caplab.ingest.prometheus;

import java.net.URI;

/** A scrape that got no exposition: the target was unreachable, slow, or answered with a non-200 status. */
public final class ScrapeException extends RuntimeException {

    public ScrapeException(URI target, String reason, Throwable cause) {
        super("scrape of " + target + " failed: " + reason, cause);
    }
}
