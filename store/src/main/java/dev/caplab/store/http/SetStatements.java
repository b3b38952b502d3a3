package dev.caplab.store.http;

import java.util.LinkedHashSet;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * The setting names a request's own {@code SET} statements assign. Over HTTP without a session a {@code SET} lasts
 * one request; on chDB's long-lived connections it would last forever, so the names must be reset afterwards.
 */
final class SetStatements {

    private static final Pattern SET = Pattern.compile("(?is)(?:^|;)\\s*SET\\s+([^;]*)");
    private static final Pattern QUOTED = Pattern.compile("'(?:[^'\\\\]++|\\\\.)*+'|`(?:[^`\\\\]++|\\\\.)*+`");
    private static final Pattern ASSIGNED = Pattern.compile("([A-Za-z_][A-Za-z0-9_]*)\\s*=");

    private SetStatements() {
    }

    /** Names assigned by every {@code SET} statement in {@code sql}, in order; empty when there is none. */
    static Set<String> assignedNames(String sql) {
        Set<String> out = new LinkedHashSet<>();
        Matcher set = SET.matcher(QUOTED.matcher(sql).replaceAll("''"));
        while (set.find()) {
            Matcher name = ASSIGNED.matcher(set.group(1));
            while (name.find()) {
                out.add(name.group(1));
            }
        }
        return out;
    }
}
