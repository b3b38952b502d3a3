package dev.caplab.store.http;

import java.nio.charset.StandardCharsets;
import java.util.Optional;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * An INSERT whose data travels in the request after its {@code FORMAT x} clause (client-v2's insert API,
 * curl with a file), split into head, format and data so the engine can read the data from a file.
 *
 * @param head   {@code INSERT INTO t [(cols)] [SETTINGS ...]}
 * @param format the input format named by the statement
 * @param data   the rows, exactly as sent
 */
record InsertData(String head, String format, byte[] data) {

    // No quotes, newlines or semicolons in the head: a FORMAT inside a VALUES literal must never match.
    private static final String HEAD = "\\s*(INSERT\\s+INTO\\s+[^'\"\\n;]+?)\\s+FORMAT\\s+([A-Za-z][A-Za-z0-9_]{0,63})";
    private static final Pattern IN_QUERY_PARAM = Pattern.compile("(?i)" + HEAD + "\\s*");
    private static final Pattern AT_BODY_START = Pattern.compile("(?i)" + HEAD + "[ \\t]*(\\r?\\n)?");
    private static final Pattern NOT_PLAIN = Pattern.compile("(?i)\\b(VALUES|SELECT|INFILE)\\b");
    private static final int MAX_HEAD_BYTES = 64 * 1024;

    /** Splits the request if it is such an INSERT: query in the URL and data in the body, or both in the body. */
    static Optional<InsertData> of(String queryParam, byte[] body) {
        if (queryParam != null && !queryParam.isBlank()) {
            Matcher m = IN_QUERY_PARAM.matcher(queryParam);
            return body.length > 0 && m.matches() && plain(m.group(1))
                    ? Optional.of(new InsertData(m.group(1), m.group(2), body)) : Optional.empty();
        }
        // ISO-8859-1 maps bytes 1:1 to chars, so match offsets are byte offsets into the body.
        String start = new String(body, 0, Math.min(body.length, MAX_HEAD_BYTES), StandardCharsets.ISO_8859_1);
        Matcher m = AT_BODY_START.matcher(start);
        if (!m.lookingAt() || !plain(m.group(1))) {
            return Optional.empty();
        }
        byte[] data = java.util.Arrays.copyOfRange(body, m.end(), body.length);
        String head = new String(start.substring(m.start(1), m.end(1)).getBytes(StandardCharsets.ISO_8859_1),
                StandardCharsets.UTF_8);
        return data.length == 0 ? Optional.empty() : Optional.of(new InsertData(head, m.group(2), data));
    }

    private static boolean plain(String head) {
        return !NOT_PLAIN.matcher(head).find();
    }
}
