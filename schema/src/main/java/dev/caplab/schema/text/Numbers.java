package dev.caplab.schema.text;

import java.math.BigDecimal;
import java.math.MathContext;
import java.math.RoundingMode;

/**
 * How caplab writes a plain number for people, wherever it is written: the report and the API's sentences
 * (query-api's {@code Figures}), the reasons a verdict gives and the alerts streams raises. The page's
 * {@code figures.js} follows the same rule. Rounding is half away from zero on the double's exact value, as
 * JavaScript's {@code toPrecision} and {@code toFixed} round.
 */
public final class Numbers {

    /** What an absent value (null, NaN, infinite) is written as. */
    public static final String ABSENT = "–";

    private static final double[] SI_SCALE = {1e15, 1e12, 1e9, 1e6};
    private static final String[] SI_PREFIX = {"P", "T", "G", "M"};

    private Numbers() {
    }

    /** Up to 1,000: four significant digits; to a million: whole and grouped; beyond: four digits and M, G, T, P. */
    public static String written(Double value) {
        if (absent(value)) {
            return ABSENT;
        }
        double v = value;
        double abs = Math.abs(v);
        for (int i = 0; i < SI_SCALE.length; i++) {
            if (abs >= SI_SCALE[i]) {
                return written(v / SI_SCALE[i]) + " " + SI_PREFIX[i];
            }
        }
        if (abs >= 1000) {
            return (v < 0 ? "-" : "") + grouped(new BigDecimal(abs).setScale(0, RoundingMode.HALF_UP).toPlainString());
        }
        String s = plain(v, 4);
        String whole = s.replace("-", "").split("\\.")[0];
        return whole.length() > 3 ? (v < 0 ? "-" : "") + grouped(whole) : s;
    }

    /** Null, NaN or infinite: nothing to write. */
    public static boolean absent(Double value) {
        return value == null || !Double.isFinite(value);
    }

    /** {@code significant} digits of the double's exact value, written out in full, trailing fraction zeros dropped. */
    public static String plain(double v, int significant) {
        if (v == 0) {
            return "0";
        }
        String s = new BigDecimal(v).round(new MathContext(significant, RoundingMode.HALF_UP)).stripTrailingZeros()
                .toPlainString();
        return s.equals("-0") ? "0" : s;
    }

    /** Digits with a comma between each group of three: "1234567" → "1,234,567". */
    public static String grouped(String digits) {
        return digits.replaceAll("\\B(?=(\\d{3})+(?!\\d))", ",");
    }
}
