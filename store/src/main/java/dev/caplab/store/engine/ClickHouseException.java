package dev.caplab.store.engine;

import java.util.Optional;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/** The engine rejected a statement: bad SQL or bad data, carrying ClickHouse's numeric error code. */
public final class ClickHouseException extends RuntimeException {

    /** ClickHouse's SYNTAX_ERROR code. */
    public static final int SYNTAX_ERROR = 62;
    /** Code used when the engine reported an error without the usual "Code: N." prefix. */
    public static final int UNKNOWN_CODE = 1002;

    private static final Pattern CODE = Pattern.compile("Code:\\s*(\\d+)\\.");

    private final int code;

    public ClickHouseException(int code, String message) {
        super(message);
        this.code = code;
    }

    /** Builds the exception from an engine error text such as {@code Code: 62. DB::Exception: ...}. */
    public static ClickHouseException fromEngineMessage(String engineMessage) {
        String text = engineMessage.strip();
        return new ClickHouseException(parseCode(text).orElse(UNKNOWN_CODE), text);
    }

    static Optional<Integer> parseCode(String text) {
        Matcher m = CODE.matcher(text);
        // Only the leading code counts; nested messages may quote other codes later on.
        return m.find() && m.start() < 64 ? Optional.of(Integer.parseInt(m.group(1))) : Optional.empty();
    }

    /** ClickHouse's numeric error code, e.g. 62 for a syntax error. */
    public int code() {
        return code;
    }
}
