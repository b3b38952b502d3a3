package dev.caplab.sampler;

/** One interface's totals from /proc/net/dev since boot: bytes, packets, errors and drops each way. */
public record InterfaceCounters(String name, long rxBytes, long rxPackets, long rxErrors, long rxDropped,
        long txBytes, long txPackets, long txErrors, long txDropped) {

    public InterfaceCounters {
        if (rxBytes < 0 || rxPackets < 0 || txBytes < 0 || txPackets < 0 || rxErrors < 0 || rxDropped < 0
                || txErrors < 0 || txDropped < 0) {
            throw new IllegalArgumentException("negative counter on " + name);
        }
    }
}
