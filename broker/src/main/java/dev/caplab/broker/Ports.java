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
        return claim(host, new String[] {what}, new int[] {port})[0];
    }

    /**
     * Claims several ports at once (0 = any free one), holding every socket until all are bound, so two ephemeral
     * picks can never come back as the same port.
     */
    public static int[] claim(String host, String[] whats, int[] ports) {
        String[] hosts = new String[ports.length];
        java.util.Arrays.fill(hosts, host);
        return claim(hosts, whats, ports);
    }

    /** As {@link #claim(String, String[], int[])}, each port on its own address. */
    public static int[] claim(String[] hosts, String[] whats, int[] ports) {
        ServerSocket[] sockets = new ServerSocket[ports.length];
        int[] bound = new int[ports.length];
        try {
            for (int i = 0; i < ports.length; i++) {
                sockets[i] = new ServerSocket();
                sockets[i].setReuseAddress(true);
                try {
                    sockets[i].bind(new InetSocketAddress(InetAddress.getByName(hosts[i]), ports[i]));
                } catch (java.net.BindException e) {
                    throw new PortInUseException(whats[i], hosts[i], ports[i], e);
                }
                bound[i] = sockets[i].getLocalPort();
            }
            return bound;
        } catch (IOException e) {
            throw new UncheckedIOException("cannot probe ports " + java.util.Arrays.toString(ports) + " on "
                    + java.util.Arrays.toString(hosts), e);
        } finally {
            for (ServerSocket socket : sockets) {
                closeQuietly(socket);
            }
        }
    }

    private static void closeQuietly(ServerSocket socket) {
        if (socket == null) {
            return;
        }
        try {
            socket.close();
        } catch (IOException e) {
            // A probe socket that fails to close leaves nothing bound that we rely on.
        }
    }
}
