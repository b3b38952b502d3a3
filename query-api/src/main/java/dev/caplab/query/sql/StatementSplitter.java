package dev.caplab.query.sql;

import java.util.Locale;

/**
 * Finds the one statement in the SQL text, in Java, before ClickHouse sees any of it: the embedded engine runs every
 * {@code ;}-separated statement it is given, so a second statement must never reach it, not even behind
 * {@code EXPLAIN}. Tokens follow ClickHouse's lexer ({@code src/Parsers/Lexer.cpp}): '...' strings, "..." and `...`
 * identifiers (each with doubled quotes and backslash escapes), {@code --}, {@code //}, {@code # }, {@code #!} line
 * comments ending at LF, nested block comments. Where the two lexers could read a {@code ;} differently ({@code $}
 * heredocs, a stray backslash or {@code #}, an unterminated string or comment) the text is refused, never guessed.
 */
final class StatementSplitter {

    private StatementSplitter() {
    }

    /**
     * The statement to send: the text up to its last significant token, without a trailing {@code ;} and the
     * whitespace or comments after it.
     *
     * @throws SqlRejectedException when the text is empty, holds more than one statement, does not start with
     *                              SELECT, WITH or a bracket, has a SETTINGS clause, or has a construct this lexer
     *                              does not read the same way as ClickHouse's
     */
    static String single(String sql) {
        if (sql == null || sql.isBlank()) {
            throw new SqlRejectedException("the SQL is empty");
        }
        int end = sql.length();
        int statementEnd = -1;
        boolean first = true;
        int i = 0;
        while (i < end) {
            char c = sql.charAt(i);
            int next;
            if (Character.isWhitespace(c)) { // ClickHouse also skips Unicode spaces; a wider set cannot hide a ';'
                next = i + 1;
            } else if (c == '-' && at(sql, i + 1, '-') || c == '/' && at(sql, i + 1, '/')
                    || c == '#' && (at(sql, i + 1, ' ') || at(sql, i + 1, '!'))) {
                next = lineEnd(sql, i);
            } else if (c == '/' && at(sql, i + 1, '*')) {
                next = blockCommentEnd(sql, i);
            } else if (statementEnd >= 0) {
                throw new SqlRejectedException("only one statement is allowed; found more after the ';' at offset "
                        + statementEnd);
            } else if (c == ';') {
                statementEnd = i;
                next = i + 1;
            } else if (c == '\'' || c == '"' || c == '`') {
                next = quotedEnd(sql, i, c);
                if (c != '\'') {
                    requirePlainIdentifier(sql, i, next);
                }
                first = requireFirst(first, "a quoted name");
            } else if (c == '$' || c == '\\' || c == '#') {
                throw new SqlRejectedException("character '" + c + "' at offset " + i + " is not allowed outside a"
                        + " string literal ($ heredocs, \\G and # are refused so that no ';' can hide)");
            } else if (isWordChar(c)) {
                next = i + 1;
                while (next < end && isWordChar(sql.charAt(next))) {
                    next++;
                }
                String word = sql.substring(i, next).toUpperCase(Locale.ROOT);
                if (first && !word.equals("SELECT") && !word.equals("WITH")) {
                    throw new SqlRejectedException("only SELECT statements are allowed, this starts with "
                            + sql.substring(i, next));
                }
                if (word.equals("SETTINGS")) {
                    throw new SqlRejectedException("SETTINGS clauses are not allowed at offset " + i + "; the limits"
                            + " are fixed by the server");
                }
                first = false;
            } else {
                first = requireFirst(first && c != '(', "'" + c + "'");
                next = i + 1;
            }
            i = next;
        }
        if (first) {
            throw new SqlRejectedException("the SQL is empty (only comments)");
        }
        return statementEnd >= 0 ? sql.substring(0, statementEnd) : sql;
    }

    private static boolean requireFirst(boolean first, String what) {
        if (first) {
            throw new SqlRejectedException("only SELECT statements are allowed, this starts with " + what);
        }
        return false;
    }

    private static boolean at(String s, int i, char c) {
        return i < s.length() && s.charAt(i) == c;
    }

    /** ClickHouse's word characters; digits included since numbers need no other treatment here. */
    private static boolean isWordChar(char c) {
        return c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9' || c == '_';
    }

    /** Only LF ends a line comment in ClickHouse's lexer; CR alone does not. */
    private static int lineEnd(String s, int from) {
        int nl = s.indexOf('\n', from);
        return nl < 0 ? s.length() : nl + 1;
    }

    private static int blockCommentEnd(String s, int from) {
        int depth = 1;
        int i = from + 2;
        while (i + 1 < s.length()) {
            if (s.charAt(i) == '/' && s.charAt(i + 1) == '*') {
                depth++;
                i += 2;
            } else if (s.charAt(i) == '*' && s.charAt(i + 1) == '/') {
                depth--;
                i += 2;
                if (depth == 0) {
                    return i;
                }
            } else {
                i++;
            }
        }
        throw new SqlRejectedException("the comment opened at offset " + from + " is not closed");
    }

    /** Index after the closing quote; a doubled quote or a backslash escape stays inside. */
    private static int quotedEnd(String s, int from, char quote) {
        int i = from + 1;
        while (i < s.length()) {
            char c = s.charAt(i);
            if (c == '\\') {
                i += 2;
            } else if (c == quote) {
                if (at(s, i + 1, quote)) {
                    i += 2;
                } else {
                    return i + 1;
                }
            } else {
                i++;
            }
        }
        throw new SqlRejectedException("the " + (quote == '\'' ? "string" : "quoted name") + " opened at offset "
                + from + " is not closed");
    }

    /**
     * A quoted name may not hold control characters, quotes or backslashes: {@code EXPLAIN AST} prints names raw,
     * one node a line, and the guard must read that tree exactly as ClickHouse built it.
     */
    private static void requirePlainIdentifier(String s, int from, int to) {
        for (int i = from + 1; i < to - 1; i++) {
            char c = s.charAt(i);
            if (Character.isISOControl(c) || c == '\\' || c == '"' || c == '`' || c == '\'') {
                throw new SqlRejectedException("the quoted name at offset " + from + " holds a control character,"
                        + " quote or backslash; use plain names");
            }
        }
    }
}
