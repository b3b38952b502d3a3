package dev.caplab.broker;

/** A port caplab was asked to listen on is already taken by another process. */
public class PortInUseException extends RuntimeException {

    private final int port;

    public PortInUseException(String what, String host, int port, Throwable cause) {
        super(what + " port " + port + " on " + host + " is already in use; stop the other process or choose another port", cause);
        this.port = port;
    }

    public int port() {
        return port;
    }
}
