package dev.caplab.ingest.prometheus;

import dev.caplab.ingest.adapter.FieldException;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.OptionalLong;

/** One sample line of the text exposition, {@code name{label="value",...} value [timestamp_ms]}, parsed. */
record ExpositionLine(String name, Map<String, String> labels, double value, OptionalLong timestampMillis) {

    static ExpositionLine parse(String line) {
        Cursor c = new Cursor(line);
        String name = c.name("metric name", true);
        Map<String, String> labels = new LinkedHashMap<>();
        if (c.peek() == '{') {
            c.pos++;
            labels(c, labels);
        }
        c.spaces();
        String valueText = c.token();
        if (valueText.isEmpty()) {
            throw new FieldException("value", "missing value after " + name);
        }
        double value = number(valueText);
        c.spaces();
        String ts = c.token();
        OptionalLong timestamp = OptionalLong.empty();
        if (!ts.isEmpty()) {
            try {
                timestamp = OptionalLong.of(Math.round(Double.parseDouble(ts)));
            } catch (NumberFormatException e) {
                throw new FieldException("timestamp", "not a timestamp in milliseconds: '" + ts + "'");
            }
        }
        c.spaces();
        if (c.pos < line.length() && line.charAt(c.pos) != '#') {
            throw new FieldException("value", "unexpected text after the value: '" + line.substring(c.pos) + "'");
        }
        return new ExpositionLine(name, labels, value, timestamp);
    }

    private static void labels(Cursor c, Map<String, String> labels) {
        while (true) {
            c.spaces();
            if (c.peek() == '}') {
                c.pos++;
                return;
            }
            String label = c.name("label name", false);
            c.spaces();
            c.expect('=', label);
            c.spaces();
            c.expect('"', label);
            labels.put(label, c.quoted(label));
            c.spaces();
            if (c.peek() == ',') {
                c.pos++;
            } else if (c.peek() != '}') {
                throw new FieldException(label, "expected ',' or '}' after the value of " + label);
            }
        }
    }

    static double number(String text) {
        return switch (text) {
            case "+Inf", "Inf", "+inf", "inf" -> Double.POSITIVE_INFINITY;
            case "-Inf", "-inf" -> Double.NEGATIVE_INFINITY;
            case "NaN", "nan" -> Double.NaN;
            default -> {
                try {
                    yield Double.parseDouble(text);
                } catch (NumberFormatException e) {
                    throw new FieldException("value", "not a number: '" + text + "'");
                }
            }
        };
    }

    /** A position in the line; the grammar is small enough that a hand-written scanner is the clearest. */
    private static final class Cursor {
        private final String s;
        private int pos;

        Cursor(String s) {
            this.s = s;
        }

        char peek() {
            return pos < s.length() ? s.charAt(pos) : '\0';
        }

        void spaces() {
            while (pos < s.length() && (s.charAt(pos) == ' ' || s.charAt(pos) == '\t')) {
                pos++;
            }
        }

        String token() {
            int start = pos;
            while (pos < s.length() && s.charAt(pos) != ' ' && s.charAt(pos) != '\t') {
                pos++;
            }
            return s.substring(start, pos);
        }

        String name(String what, boolean colons) {
            int start = pos;
            while (pos < s.length()) {
                char ch = s.charAt(pos);
                boolean ok = Character.isLetter(ch) && ch < 128 || ch == '_' || (colons && ch == ':')
                        || (pos > start && ch >= '0' && ch <= '9');
                if (!ok) {
                    break;
                }
                pos++;
            }
            if (pos == start) {
                throw new FieldException(what, "expected a " + what + " at column " + (pos + 1));
            }
            return s.substring(start, pos);
        }

        void expect(char ch, String field) {
            if (peek() != ch) {
                throw new FieldException(field, "expected '" + ch + "' at column " + (pos + 1));
            }
            pos++;
        }

        String quoted(String field) {
            StringBuilder out = new StringBuilder();
            while (pos < s.length()) {
                char ch = s.charAt(pos++);
                if (ch == '"') {
                    return out.toString();
                }
                if (ch == '\\' && pos < s.length()) {
                    char esc = s.charAt(pos++);
                    out.append(esc == 'n' ? '\n' : esc);
                } else {
                    out.append(ch);
                }
            }
            throw new FieldException(field, "label value not closed (truncated line?)");
        }
    }
}
