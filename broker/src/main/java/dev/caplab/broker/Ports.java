package dev.caplab.broker;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.ServerSocket;

/** Checks and picks loopback ports before a server binds them, so a clash fails with a clear message. */
public final class Ports {

    private Ports() {
    }

    /** Throws {@link PortInUseException} naming the port when it cannot be bound; port 0 picks a free one. */
    public static int claim(String what, String host, int port) {
        try (ServerSocket socket = new ServerSocket()) {
            socket.setReuseAddress(true);
            socket.bind(new InetSocketAddress(InetAddress.getByName(host), port));
            return socket.getLocalPort();
        } catch (java.net.BindException e) {
            throw new PortInUseException(what, host, port, e);
        } catch (IOException e) {
            throw new UncheckedIOException("cannot probe " + what + " port " + port + " on " + host, e);
        }
    }
}
