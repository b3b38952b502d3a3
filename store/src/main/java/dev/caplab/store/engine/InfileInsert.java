package dev.caplab.store.engine;

import java.nio.file.Path;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Rewrites {@code INSERT INTO t [(cols)] [SETTINGS ...]} into a statement reading its data {@code FROM INFILE}.
 *
 * <p>Why: chDB parses data inlined after {@code FORMAT x} the way clickhouse-client does in multi-query mode, and
 * stops at the first empty line. Binary formats hit {@code 0x0A 0x0A} quickly (measured: RowBinary UInt32 rows
 * stop at row 2570 = 0x0A0A), and text formats can contain empty lines too, so data never travels inline.
 */
final class InfileInsert {

    private static final Pattern INSERT_HEAD = Pattern.compile("(?is)\\s*INSERT\\s+INTO\\s+.+");
    private static final Pattern SETTINGS = Pattern.compile("(?is)\\sSETTINGS\\s");
    private static final Pattern FORMAT_NAME = Pattern.compile("[A-Za-z][A-Za-z0-9_]{0,63}");
    private static final Pattern TRAILING_FORMAT = Pattern.compile("(?is)\\sFORMAT\\s");

    private InfileInsert() {
    }

    /** The statement reading {@code file} in {@code format}; the path is ours, quoted as a literal anyway. */
    static String statement(String insertHead, Path file, String format) {
        if (!INSERT_HEAD.matcher(insertHead).matches()) {
            throw new IllegalArgumentException("not an INSERT INTO statement: " + insertHead);
        }
        if (TRAILING_FORMAT.matcher(insertHead).find()) {
            throw new IllegalArgumentException("pass the format separately, not in the INSERT head: " + insertHead);
        }
        if (!FORMAT_NAME.matcher(format).matches()) {
            throw new IllegalArgumentException("bad format name: " + format);
        }
        String head = insertHead.strip();
        String infile = " FROM INFILE '" + file.toString().replace("\\", "\\\\").replace("'", "\\'") + "'";
        Matcher settings = SETTINGS.matcher(head);
        // FROM INFILE must precede SETTINGS in ClickHouse's INSERT grammar.
        String withInfile = settings.find()
                ? head.substring(0, settings.start()) + infile + head.substring(settings.start())
                : head + infile;
        return withInfile + " FORMAT " + format;
    }
}
