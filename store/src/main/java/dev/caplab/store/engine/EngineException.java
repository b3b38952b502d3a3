package dev.caplab.store.engine;

/** The engine itself is unusable: library missing or unloadable, connect failed, wrong data dir, closed. */
public final class EngineException extends RuntimeException {

    public EngineException(String message) {
        super(message);
    }

    public EngineException(String message, Throwable cause) {
        super(message, cause);
    }
}
