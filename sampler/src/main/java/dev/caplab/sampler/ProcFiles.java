package dev.caplab.sampler;

import dev.caplab.schema.vocabulary.CpuModes;
import dev.caplab.ingest.adapter.ResultBuilder;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * Pure parsers of the /proc and cgroup v2 files the host sampler reads. A bad line is reported with the file, line
 * and field into the given result and skipped; the other lines still count.
 */
public final class ProcFiles {

    private static final List<String> STAT_FIELDS = List.of("user", "nice", "system", "idle", "iowait", "irq",
            "softirq", "steal");

    private ProcFiles() {
    }

    /** /proc/stat: "cpu" (all cores) and "cpu0", "cpu1", … in file order. */
    public static Map<String, CpuTimes> stat(String text, String file, ResultBuilder errors) {
        Map<String, CpuTimes> cpus = new LinkedHashMap<>();
        List<String> lines = text.lines().toList();
        for (int i = 0; i < lines.size(); i++) {
            String[] f = lines.get(i).trim().split("\\s+");
            if (!f[0].startsWith("cpu")) {
                continue;
            }
            if (f.length < 5) {
                errors.error(i + 1, f[0], "in " + file + ": expected at least user nice system idle", lines.get(i));
                continue;
            }
            long busy = 0;
            long total = 0;
            try {
                for (int k = 1; k < f.length && k <= STAT_FIELDS.size(); k++) {
                    long ticks = parseTicks(f[k], f[0] + "." + STAT_FIELDS.get(k - 1));
                    total += ticks;
                    String name = STAT_FIELDS.get(k - 1);
                    if (!CpuModes.NOT_BUSY.contains(name)) {
                        busy += ticks;
                    }
                }
            } catch (NumberFormatException e) {
                errors.error(i + 1, e.getMessage(), "in " + file + ": not a tick count", lines.get(i));
                continue;
            }
            cpus.put(f[0], new CpuTimes(busy, total));
        }
        return cpus;
    }

    /** /proc/meminfo in bytes ("MemTotal: 16318260 kB" → MemTotal = 16709898240). */
    public static Map<String, Long> meminfo(String text, String file, ResultBuilder errors) {
        Map<String, Long> bytes = new LinkedHashMap<>();
        List<String> lines = text.lines().toList();
        for (int i = 0; i < lines.size(); i++) {
            String line = lines.get(i);
            int colon = line.indexOf(':');
            if (line.isBlank()) {
                continue;
            }
            String[] f = colon < 0 ? new String[0] : line.substring(colon + 1).trim().split("\\s+");
            if (colon < 0 || f.length == 0 || f[0].isEmpty()) {
                errors.error(i + 1, null, "in " + file + ": expected 'Name: value [kB]'", line);
                continue;
            }
            String name = line.substring(0, colon).trim();
            try {
                long value = Long.parseLong(f[0]);
                bytes.put(name, f.length > 1 && f[1].equalsIgnoreCase("kB") ? value * 1024 : value);
            } catch (NumberFormatException e) {
                errors.error(i + 1, name, "in " + file + ": not an integer: '" + f[0] + "'", line);
            }
        }
        return bytes;
    }

    /** /proc/net/dev: counters per interface, in file order. */
    public static List<InterfaceCounters> netDev(String text, String file, ResultBuilder errors) {
        List<InterfaceCounters> interfaces = new ArrayList<>();
        List<String> lines = text.lines().toList();
        for (int i = 0; i < lines.size(); i++) {
            String line = lines.get(i);
            int colon = line.indexOf(':');
            if (colon < 0 || line.contains("|")) {
                continue;
            }
            String name = line.substring(0, colon).trim();
            String[] f = line.substring(colon + 1).trim().split("\\s+");
            if (f.length < 16) {
                errors.error(i + 1, name, "in " + file + ": expected 16 counters, found " + f.length, line);
                continue;
            }
            try {
                interfaces.add(new InterfaceCounters(name, Long.parseLong(f[0]), Long.parseLong(f[1]),
                        Long.parseLong(f[2]), Long.parseLong(f[3]), Long.parseLong(f[8]), Long.parseLong(f[9]),
                        Long.parseLong(f[10]), Long.parseLong(f[11])));
            } catch (IllegalArgumentException e) {
                errors.error(i + 1, name, "in " + file + ": not a counter: " + e.getMessage(), line);
            }
        }
        return interfaces;
    }

    /** The {@code usage_usec} of a cgroup v2 {@code cpu.stat}. */
    public static long cpuUsageMicros(String text, String file) {
        for (String line : text.lines().toList()) {
            String[] f = line.trim().split("\\s+");
            if (f.length == 2 && f[0].equals("usage_usec")) {
                try {
                    return Long.parseLong(f[1]);
                } catch (NumberFormatException e) {
                    throw new ProcFileException(file, "usage_usec", "not an integer: '" + f[1] + "'");
                }
            }
        }
        throw new ProcFileException(file, "usage_usec", "missing");
    }

    /** A cgroup v2 single-value file ({@code memory.current}, {@code memory.max}); empty for "max" (no limit). */
    public static java.util.OptionalLong singleValue(String text, String file) {
        String value = text.strip();
        if (value.equals("max")) {
            return java.util.OptionalLong.empty();
        }
        try {
            return java.util.OptionalLong.of(Long.parseLong(value));
        } catch (NumberFormatException e) {
            throw new ProcFileException(file, null, "not an integer or 'max': '" + value + "'");
        }
    }

    private static long parseTicks(String text, String field) {
        try {
            long value = Long.parseLong(text);
            if (value < 0) {
                throw new NumberFormatException(field);
            }
            return value;
        } catch (NumberFormatException e) {
            throw new NumberFormatException(field);
        }
    }
}
