package dev.caplab.store.http;

/** Quoting for the few statements the HTTP layer writes itself (USE, SET); names are validated before. */
final class SqlText {

    private SqlText() {
    }

    /** A backtick-quoted identifier with backslashes and backticks escaped. */
    static String quoteIdentifier(String name) {
        return '`' + name.replace("\\", "\\\\").replace("`", "\\`") + '`';
    }

    /** A single-quoted string literal with backslashes and quotes escaped. */
    static String quoteString(String value) {
        return '\'' + value.replace("\\", "\\\\").replace("'", "\\'") + '\'';
    }
}
