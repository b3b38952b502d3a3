package dev.caplab.schema.health;

/**
 * Whether a processing role (streams, sink) is working, as its health check and its launcher see it.
 *
 * @param up     false once the role stopped processing on its own (not when it was closed)
 * @param detail its state in words: Streams state, or the sink's last insert and lag
 */
public record RoleStatus(String role, boolean up, String detail) {
}
