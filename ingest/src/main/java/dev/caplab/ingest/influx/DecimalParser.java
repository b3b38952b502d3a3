package dev.caplab.ingest.influx;

import java.nio.charset.StandardCharsets;

/**
 * Parses line-protocol floats ({@code [-+]?digits[.digits][e[-+]digits]}) from bytes. Up to 15 significant digits
 * and a power of ten within 10^±22 the result is exact (both operands are exact doubles, one rounding: the classic
 * Clinger fast path); anything else goes to {@link Double#parseDouble} after the syntax was checked here, because
 * parseDouble also accepts NaN, Infinity, hex and type suffixes that line protocol does not.
 */
final class DecimalParser {

    private static final double[] POWERS_OF_TEN = new double[23];

    static {
        double p = 1;
        for (int i = 0; i < POWERS_OF_TEN.length; i++) {
            POWERS_OF_TEN[i] = p;
            p *= 10;
        }
    }

    private DecimalParser() {
    }

    /** The value of buf[from, to), or NaN when it is not a line-protocol float. */
    static double parse(byte[] buf, int from, int to) {
        int i = from;
        boolean negative = false;
        if (i < to && (buf[i] == '-' || buf[i] == '+')) {
            negative = buf[i] == '-';
            i++;
        }
        long mantissa = 0;
        int significant = 0;
        int exponent = 0;
        int digits = 0;
        for (; i < to && isDigit(buf[i]); i++, digits++) {
            if (significant < 18) {
                mantissa = mantissa * 10 + (buf[i] - '0');
                if (mantissa != 0) {
                    significant++;
                }
            } else {
                exponent++;
            }
        }
        if (i < to && buf[i] == '.') {
            i++;
            for (; i < to && isDigit(buf[i]); i++, digits++) {
                if (significant < 18) {
                    mantissa = mantissa * 10 + (buf[i] - '0');
                    if (mantissa != 0) {
                        significant++;
                    }
                    exponent--;
                }
            }
        }
        if (digits == 0) {
            return Double.NaN;
        }
        if (i < to && (buf[i] == 'e' || buf[i] == 'E')) {
            i++;
            boolean negativeExponent = false;
            if (i < to && (buf[i] == '-' || buf[i] == '+')) {
                negativeExponent = buf[i] == '-';
                i++;
            }
            int expDigits = 0;
            int explicit = 0;
            for (; i < to && isDigit(buf[i]); i++, expDigits++) {
                if (explicit < 100_000) {
                    explicit = explicit * 10 + (buf[i] - '0');
                }
            }
            if (expDigits == 0) {
                return Double.NaN;
            }
            exponent += negativeExponent ? -explicit : explicit;
        }
        if (i != to) {
            return Double.NaN;
        }
        if (significant <= 15 && exponent >= -22 && exponent <= 22) {
            double value = exponent >= 0 ? mantissa * POWERS_OF_TEN[exponent] : mantissa / POWERS_OF_TEN[-exponent];
            return negative ? -value : value;
        }
        double value = Double.parseDouble(new String(buf, from, to - from, StandardCharsets.US_ASCII));
        return Double.isInfinite(value) ? Double.NaN : value;
    }

    private static boolean isDigit(byte b) {
        return b >= '0' && b <= '9';
    }
}
