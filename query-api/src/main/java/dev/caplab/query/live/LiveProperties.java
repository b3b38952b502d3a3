package dev.caplab.query.live;

import java.time.Duration;
import org.springframework.boot.context.properties.ConfigurationProperties;
import org.springframework.boot.context.properties.EnableConfigurationProperties;
import org.springframework.context.annotation.Configuration;

/**
 * When the streams app ends a run that stops receiving input ({@code caplab.query.live.*}), so the live page can say
 * how and when a run will end: a run its samples started ends after {@code runIdleEnd} without input (streams'
 * {@code --run-idle-end}, 2 minutes by default), a declared one after {@code declaredIdleEnd} (streams' allowed
 * lateness, 24 hours) unless its client ends it first. The streams app owns these; the HTTP tier is told them.
 */
@ConfigurationProperties("caplab.query.live")
public record LiveProperties(Duration runIdleEnd, Duration declaredIdleEnd) {

    public static final Duration DEFAULT_RUN_IDLE_END = Duration.ofMinutes(2);
    public static final Duration DEFAULT_DECLARED_IDLE_END = Duration.ofHours(24);

    public LiveProperties {
        runIdleEnd = runIdleEnd == null ? DEFAULT_RUN_IDLE_END : runIdleEnd;
        declaredIdleEnd = declaredIdleEnd == null ? DEFAULT_DECLARED_IDLE_END : declaredIdleEnd;
        if (runIdleEnd.isNegative() || runIdleEnd.isZero() || declaredIdleEnd.isNegative()
                || declaredIdleEnd.isZero()) {
            throw new IllegalArgumentException("caplab.query.live idle times must be positive, were " + runIdleEnd
                    + " and " + declaredIdleEnd);
        }
    }

    /** Registers the properties with the query API. */
    @Configuration(proxyBeanMethods = false)
    @EnableConfigurationProperties(LiveProperties.class)
    static class Registration {
    }
}
