package dev.caplab.app.web;

import dev.caplab.schema.health.RoleStatus;
import java.util.List;

/**
 * The pipeline parts {@code /api/v1/health} reports besides ClickHouse: the broker, and the streams and sink roles
 * as this process sees them (in-process: their own state; {@code caplab serve} alone: their consumer groups' lag).
 */
@FunctionalInterface
public interface HealthParts {

    /** Each part's status, checked now. */
    List<RoleStatus> check();

    /** No parts besides ClickHouse. */
    static HealthParts none() {
        return List::of;
    }
}
